"""One source of truth between the server and its browser client (docs/client.md):
facts the JavaScript must name are tied to their Python source here, and facts it must
not have (the rules, the powerup list) are checked absent, since the server sends them.
Also: the server's and the load tool's bots time their reactions with the game's bots."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

pytest.importorskip("blitz_core.blitz")

from tictacblitz.games import load_game
from tictacblitz.games.blitz import Action, Match, Player, Rules
from tictacblitz.games.blitz.bots import PRESETS, make_bot, reaction_due_t
from tictacblitz.games.blitz.types import ActionKind, EventKind, PowerupKind, Reason
from tictacblitz.server import protocol as P
from tictacblitz.server.clock import ManualClock
from tictacblitz.server.games import blitz as blitz_adapter
from tictacblitz.server.lobby import Lobby
from tictacblitz.server.settings import Settings

STATIC = Path(__file__).resolve().parent.parent / "python" / "tictacblitz" / "server" / "static"
JS = STATIC / "js"
BLITZ_JS = JS / "games" / "blitz"
SHELL_FILES = [
    "main.js",
    "menu.js",
    "net.js",
    "replay.js",
    "clock.js",
    "protocol.js",
    "model_common.js",
    "view_common.js",
    "seat.js",
]


def js(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def js_list(text: str, name: str) -> list:
    found = re.search(rf"export const {name} = \[(.*?)\];", text, re.S)
    assert found, name
    return re.findall(r'"(\w+)"', found.group(1))


def js_object_keys(text: str, name: str) -> list:
    found = re.search(rf"export const {name} = \{{(.*?)\n\}};", text, re.S)
    assert found, name
    return re.findall(r"^\s*(\w+):", found.group(1), re.M)


def test_protocol_names_are_the_same_in_python_and_javascript() -> None:
    text = js(JS / "protocol.js")
    assert js_list(text, "CLIENT_MESSAGES") == list(P.CLIENT_MESSAGES)
    assert js_list(text, "SERVER_MESSAGES") == list(P.SERVER_MESSAGES)
    codes = dict(
        re.findall(r"(\w+): (\d+)", re.search(r"CLOSE_CODES = \{(.*?)\};", text, re.S).group(1))
    )
    assert {k: int(v) for k, v in codes.items()} == P.CLOSE_CODES
    assert re.search(r"export const VERSION = (\d+);", text).group(1) == str(P.VERSION)


def test_the_page_sends_and_handles_only_messages_of_the_protocol() -> None:
    sources = [JS / f for f in SHELL_FILES] + sorted(BLITZ_JS.glob("*.js"))
    sent = {t for path in sources for t in re.findall(r'\btype: "(\w+)"', js(path))}
    assert sent and sent <= set(P.CLIENT_MESSAGES), sent - set(P.CLIENT_MESSAGES)
    handled = set(re.findall(r'case "(\w+)"', js(JS / "main.js")))
    handled |= set(re.findall(r'msg\.type === "(\w+)"', js(JS / "main.js") + js(JS / "net.js")))
    assert handled and handled <= set(P.SERVER_MESSAGES), handled - set(P.SERVER_MESSAGES)
    # The models (the shared one and Blitz's) handle server messages and the engine's
    # event kinds, nothing else; the shared model handles the protocol's room messages.
    kinds = {kind.name.lower() for kind in EventKind}
    common = set(re.findall(r'case "(\w+)"', js(JS / "model_common.js")))
    assert common and common <= set(P.SERVER_MESSAGES), common - set(P.SERVER_MESSAGES)
    cases = common | set(re.findall(r'case "(\w+)"', js(BLITZ_JS / "model.js")))
    assert cases <= set(P.SERVER_MESSAGES) | kinds, cases - set(P.SERVER_MESSAGES) - kinds


def test_the_blitz_view_names_the_vocabulary_of_the_game() -> None:
    view = js(BLITZ_JS / "view.js")
    assert set(js_object_keys(view, "REASONS")) == {reason.value for reason in Reason}  # R7
    glyphs = js_object_keys(js(BLITZ_JS / "draw.js"), "POWERUP_GLYPHS")
    assert sorted(glyphs) == sorted(kind.key for kind in PowerupKind)  # R14
    icons = re.findall(r'icon: "(\w+)"', view)
    assert {kind.key for kind in PowerupKind} <= set(icons)
    assert js_list(view, "SEATS") == list(blitz_adapter.SEATS) == [p.letter for p in Player]
    actions = {
        a for path in BLITZ_JS.glob("*.js") for a in re.findall(r'action: "(\w+)"', js(path))
    }
    assert (
        actions == {kind.name.lower() for kind in ActionKind} == set(blitz_adapter.ACTIONS)
    )  # R6, R9
    default_bot = re.search(r'export const DEFAULT_BOT = "(\w+)";', view).group(1)
    assert default_bot in blitz_adapter.BOT_LEVELS
    assert set(blitz_adapter.BOT_LEVELS) <= set(PRESETS)


def test_no_rules_or_powerup_list_in_the_client() -> None:
    rule_names = list(Rules().to_dict())
    for path in sorted(JS.rglob("*.js")):
        text = js(path)
        assert "DEFAULT_RULES" not in text, path
        for name in rule_names:
            assert not re.search(rf"\b{name}\s*:\s*\d", text), (path.name, name)
        # The powerup kinds come in `welcome.game.powerups`: no list of them (a drawing
        # per kind in draw.js is tied above).
        assert not re.search(r'"bomb",\s*"freeze"', text), path.name
        assert not re.search(r"B: \"bomb\"", text), path.name
    html = js(STATIC / "index.html")
    assert "Tic Tac Blitz" not in html and 'value="medium"' not in html


def _lobby(**rules) -> Lobby:
    return Lobby(
        Settings(
            game=load_game("blitz", rules),
            pause_ms=0,
            bot_threads=0,
            seed_source=iter(range(1, 999)).__next__,
        ),
        ManualClock(),
    )


def test_the_client_gets_rules_seats_bots_and_powerups_from_the_server() -> None:
    lobby = _lobby(round_ms=20_000)
    welcome = lobby.welcome()
    assert welcome["rules"] == Rules(round_ms=20_000).to_dict()
    assert welcome["game"] == {
        "name": "blitz",
        "long_name": "Tic Tac Blitz",
        "time_model": "real_time",
        "seats": ["X", "O"],
        "view": "/static/js/games/blitz/view.js",
        "powerups": [{"key": k.key, "letter": k.letter} for k in PowerupKind],
    }
    assert welcome["bots"] == ["easy", "medium", "hard"]
    assert (JS / "games" / "blitz" / "view.js").exists()
    assert lobby.rules() == {
        "game": "blitz",
        "defaults": Rules().to_dict(),
        "rules": Rules(round_ms=20_000).to_dict(),
    }


def test_rules_endpoint_and_the_rooms_state_carry_the_rules() -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from tictacblitz.server.app import create_app

    settings = Settings(game=load_game("blitz", {"set_ms": 1200}), pause_ms=0, bot_threads=0)
    with TestClient(create_app(settings, ManualClock())) as client:
        body = client.get("/api/rules").json()
        assert body == {
            "game": "blitz",
            "defaults": Rules().to_dict(),
            "rules": Rules(set_ms=1200).to_dict(),
        }
        assert client.get("/api/info").json()["rules"]["set_ms"] == 1200
        with client.websocket_connect("/ws") as ws:
            assert ws.receive_json()["rules"]["set_ms"] == 1200
            ws.send_json({"type": "create", "mode": "online"})
            assert ws.receive_json()["type"] == "joined"
            state = ws.receive_json()
            assert state["type"] == "state" and state["rules"] == Rules(set_ms=1200).to_dict()


def test_server_bots_act_exactly_their_presets_reaction_after_the_charge_fills() -> None:
    """R5: the server's bot seats use NativeBot's timing (its ``due_t``), nothing else."""
    match = Match(Rules(powerup_max=0), seed=1)
    for level in blitz_adapter.BOT_LEVELS:
        seat = blitz_adapter.BotSeat(level, seed=3)
        assert seat.due_t(match, 1) == make_bot(level).due_t(match, 1) == PRESETS[level].reaction_ms
    for level in blitz_adapter.BOT_LEVELS:
        lobby = _lobby(powerup_max=0)
        out: list = []

        class Peer:
            base_url, member, room = "http://t", None, None

            def send(self, message: dict) -> None:
                out.append(message)  # noqa: B023 (one Peer per lobby, used in its iteration)

            def send_text(self, text: str) -> None:
                out.append(json.loads(text))  # noqa: B023

            def close(self, code: int) -> None:
                pass

        peer = Peer()
        lobby.connected(peer)
        lobby.handle(peer, lobby.parse(json.dumps({"type": "create", "mode": "bot", "bot": level})))
        for _ in range(100):
            lobby.clock.advance(5)
        placed = [
            e for m in out if m["type"] == "events" for e in m["events"] if e["kind"] == "placed"
        ]
        assert placed[0]["player"] == "O" and placed[0]["t"] == PRESETS[level].reaction_ms


def test_load_clients_time_their_reactions_with_the_bots_rule() -> None:
    from tictacblitz.loadtest import run as load
    from tictacblitz.loadtest.client import client_class
    from tictacblitz.loadtest.games import blitz as blitz_load

    match = Match(Rules(powerup_max=0), seed=2)
    match.advance_to(10)
    match.act(Player.X, Action.place((0, 0)))
    match.advance_to(20)
    assert client_class("blitz") is blitz_load.BlitzLoadClient
    client = blitz_load.BlitzLoadClient(
        "ws://unused", load.Stats(), random.Random(1), 0.0, "medium"
    )
    assert client.reaction_ms == PRESETS["medium"].reaction_ms
    for seat in (Player.X, Player.O):
        client.read_status(match.status(seat).to_dict())
        assert reaction_due_t(client.status, client.reaction_ms) == make_bot("medium").due_t(
            match, seat
        )
    assert blitz_load.reaction_due_t is reaction_due_t
    assert blitz_load.POWERUP_LETTERS == "".join(kind.letter for kind in PowerupKind)
