"""The server's boundary between its generic parts and a game's adapter (docs/server.md,
"Adapters"): the generic modules never name a game; a toy game of another time model
plugs into the same lobby and rooms; ``serve --game`` of a game without an adapter is one
clear line and exit 2; a misspelled adapter folder or override fails loudly; no module
is a god module again (the load tool's neither)."""

from __future__ import annotations

import argparse
import ast
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Optional

import pytest

pytest.importorskip("blitz_core.blitz")

from server_support import lobby_for
from tictacblitz import server as server_package
from tictacblitz.games.protocol import GameType, TimeModel
from tictacblitz.server import adapter as adapters
from tictacblitz.server import lobby as lobby_module
from tictacblitz.server import protocol as P
from tictacblitz.server.adapter import GameAdapter, MatchSession, NoAdapter, adapter_for
from tictacblitz.server.clock import ManualClock
from tictacblitz.server.settings import Settings

SERVER = Path(__file__).resolve().parent.parent / "python" / "tictacblitz" / "server"
LOADTEST = SERVER.parent / "loadtest"
GENERIC = [
    "__init__.py",
    "app.py",
    "clock.py",
    "lobby.py",
    "protocol.py",
    "replay_events.py",
    "replay_store.py",
    "room.py",
    "room_host.py",
    "scope.py",
    "http_routes.py",
    "ws_endpoint.py",
    "ws_peer.py",
    "lifespan.py",
    "settings.py",
    "adapter.py",
    "games/__init__.py",
    "budget.py",
    "limits.py",
    "seats.py",
    "../loadtest/procs.py",
    "../loadtest/run.py",
    "../loadtest/client.py",
    "../loadtest/cluster.py",
    "../loadtest/transport.py",
]
MAX_LINES = 400


def _imports(path: Path) -> set:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            found.add("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("name", GENERIC)
def test_generic_modules_never_name_a_game(name: str) -> None:
    path = SERVER / name
    text = path.read_text(encoding="utf-8")
    for module in _imports(path):
        assert "blitz" not in module and "doh" not in module and "rift" not in module, (
            name,
            module,
        )
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    tree = ast.parse(code)
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    for blitz_word in (
        "Match",
        "Rules",
        "Player",
        "Action",
        "ActionKind",
        "EventKind",
        "PowerupKind",
        "Reason",
        "board_text",
        "round_wins",
        "act_both",
        "match_result",
    ):
        assert blitz_word not in names, (name, blitz_word)


def test_no_module_over_400_lines_and_no_private_calls_across_modules() -> None:
    for path in sorted([*SERVER.rglob("*.py"), *LOADTEST.rglob("*.py")]):
        lines = path.read_text(encoding="utf-8").count("\n")
        assert lines <= MAX_LINES, f"{path.relative_to(SERVER.parent)} has {lines} lines"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                assert isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"), (
                    f"{path.relative_to(SERVER.parent)}:{node.lineno}: {ast.unparse(node)}"
                )


# -- a toy game of another time model, through the same lobby and rooms ---------------------


@dataclass(frozen=True)
class ToyRules:
    target: int = 3

    def to_dict(self) -> Dict[str, Any]:
        return {"target": self.target}


class ToyState:
    """Turns in seat order: each seat in turn adds 1 or 2; whoever reaches ``target`` wins."""

    def __init__(self, rules: ToyRules, seats: int = 2) -> None:
        self.rules, self.total, self.turn, self.moves = rules, 0, 0, []
        self.seats = seats

    def is_over(self) -> bool:
        return self.total >= self.rules.target

    def apply(self, seat: int, step: int) -> Optional[str]:
        if self.is_over() or seat != self.turn:
            return "not_your_turn"
        self.total += step
        self.moves.append([seat, step])
        self.turn = (seat + 1) % self.seats
        return None


class ToyGame:
    type = GameType(name="toy", long_name="Toy", time_model=TimeModel.ALTERNATING, seeded=False)
    rules = ToyRules()


class ToyBot:
    level = "first"

    def reset(self) -> None:
        pass


class ToySession(MatchSession):
    def __init__(self, host: Any, names: Any = ("A", "B")) -> None:
        self.host, self.state = host, ToyState(ToyGame.rules, len(names))
        self.names = names

    def start(self) -> None:
        self.host.emit({"events": [{"kind": "started"}]})

    def intent(self, seat: int, fields: Any, ref: Any, conn: Any) -> None:
        reason = self.state.apply(seat, fields["step"])
        if reason is not None:
            out = {"type": "rejected", "seat": self.names[seat], "reason": reason, "ref": ref}
            conn.send(out)
            return
        self.host.emit({"events": [{"kind": "added", "seat": seat, "total": self.state.total}]})
        if self.state.is_over():
            self.host.match_ended(self.names[seat])

    def tick(self) -> None:
        bots = self.host.bots
        while self.host.live and bots[self.state.turn] is not None:  # a bot moves at once
            seat = self.state.turn
            self.host.run_job(
                lambda: 1,
                lambda step, error, seat=seat: self.intent(seat, {"step": step}, None, None),
            )

    def wake_at(self) -> Optional[float]:
        return None  # no clock: nothing is timed

    def next_round(self) -> None:
        raise AssertionError("the toy has one round")

    def snapshot(self) -> Dict[str, Any]:
        return {"total": self.state.total, "turn": self.state.turn}

    def seat_status(self, seat: int) -> Dict[str, Any]:
        return {"to_move": seat == self.state.turn}

    def position(self) -> Dict[str, Any]:
        return {"total": self.state.total}

    def result_fields(self) -> Dict[str, Any]:
        return {"total": self.state.total}

    def replay_file(self, name: str) -> Dict[str, Any]:
        return {"game": "toy", "name": name, "moves": list(self.state.moves)}


def _step(value: Any) -> int:
    if isinstance(value, bool) or value not in (1, 2):
        raise ValueError("must be 1 or 2")
    return value


class ToyAdapter(GameAdapter):
    time_model = TimeModel.ALTERNATING
    seats = ("A", "B")
    bot_levels = ("first",)
    act_fields = {"step": (_step, True)}
    view = "/static/js/games/toy/view.js"

    def make_bot(self, level: str, seed: int) -> ToyBot:
        return ToyBot()

    def new_session(self, host: Any, seed: int) -> ToySession:
        return ToySession(host, self.seats)

    def replay_frames(self, data: Any) -> Dict[str, Any]:
        return {"frames": data["moves"]}


class ToyAdapter3(ToyAdapter):
    """The toy for three players (issue 25): the generic rooms take the seat count from
    the adapter's ``seats``."""

    seats = ("A", "B", "C")


@pytest.fixture
def toy3_lobby(monkeypatch):
    monkeypatch.setattr(
        lobby_module, "adapter_for", lambda game, settings: ToyAdapter3(game, settings)
    )
    return lobby_for(ToyGame(), ManualClock(), seeds=99)


@pytest.fixture
def toy_lobby(monkeypatch):
    monkeypatch.setattr(
        lobby_module, "adapter_for", lambda game, settings: ToyAdapter(game, settings)
    )
    return lobby_for(ToyGame(), ManualClock(), seeds=99)


def test_an_alternating_toy_game_plays_through_the_generic_lobby_and_rooms(toy_lobby) -> None:
    lobby, say, connect = toy_lobby
    a, b = connect(), connect()
    welcome = a.last("welcome")
    assert welcome["game"]["seats"] == ["A", "B"] and welcome["game"]["time_model"] == "alternating"
    assert welcome["rules"] == {"target": 3} and welcome["bots"] == ["first"]
    say(a, type="create", mode="online", symbol="A", name="Ann")
    code = a.last("joined")["room"]
    say(b, type="join", code=code)
    assert b.last("joined")["seats"] == ["B"]
    room = a.room
    assert room.phase == "live" and a.last("state")["turn"] == 0
    say(b, type="act", step=1, ref=7)
    assert b.last("rejected") == {
        "type": "rejected",
        "seat": "B",
        "reason": "not_your_turn",
        "ref": 7,
    }
    say(a, type="act", step=2, seat="A")
    say(b, type="act", step=2)
    end = a.last("match_end")
    assert end["result"] == "B" and end["by"] == "rounds" and end["total"] == 4
    assert [m["seq"] for m in a.out if m["type"] == "events"] == [1, 2, 3]
    replay = lobby.replays.get(end["replay_id"])
    assert replay["moves"] == [[0, 2], [1, 2]] and replay["players"]["A"]["name"] == "Ann"
    with pytest.raises(P.ProtocolError) as bad:  # the adapter's act fields
        lobby.parse(json.dumps({"type": "act", "step": 3}))
    assert bad.value.code == "bad_field" and "act.step" in bad.value.message
    say(a, type="rematch", agree=True)
    say(b, type="rematch", agree=True)
    assert room.phase == "live" and room.match_id != end["match_id"]


def test_a_toy_bot_moves_through_run_job_and_a_forfeit_is_generic(toy_lobby) -> None:
    lobby, say, connect = toy_lobby
    a = connect()
    say(a, type="create", mode="bot", bot="first", symbol="B")
    assert a.last("events")["events"] == [{"kind": "added", "seat": 0, "total": 1}]
    say(a, type="sync")
    assert a.last("state")["players"]["A"] == {
        "name": "first",
        "kind": "bot",
        "level": "first",
        "connected": True,
        "grace_until": None,
        "to_move": False,
    }
    room = a.room
    say(a, type="leave")  # the person leaves: the bot wins by forfeit
    assert room.result["by"] == "forfeit" and room.result["result"] == "A"
    assert room.result["forfeited_by"] == "B" and room.closed


def test_a_game_without_a_server_adapter_is_one_clear_line_and_exit_2(monkeypatch, capsys) -> None:
    with pytest.raises(NoAdapter) as refused:
        adapter_for(ToyGame(), Settings())
    assert "no server adapter" in str(refused.value) and "\n" not in str(refused.value)
    assert "blitz" in adapters.adapter_games()
    assert adapter_for(Settings().game, Settings()).time_model == TimeModel.REAL_TIME
    monkeypatch.setattr(server_package, "game_from_serve_arguments", lambda args: ToyGame())
    parser = argparse.ArgumentParser()
    server_package.register(parser.add_subparsers())
    args = parser.parse_args(["serve", "--game", "blitz"])
    assert args.handler(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tictacblitz serve: error: --game blitz: ")
    assert "cannot run Toy" in err


def test_serve_options_go_through_the_one_game_parser() -> None:
    parser = argparse.ArgumentParser()
    server_package.register(parser.add_subparsers())
    args = parser.parse_args(
        ["serve", "--rules", '{"round_ms": 30000, "set_ms": 1000}', "--rule", "set_ms=1200"]
    )
    game = server_package.game_from_serve_arguments(args)
    assert game.type.name == "blitz"
    assert game.rules.round_ms == 30000 and game.rules.set_ms == 1200  # --rule wins
    for bad, words in (
        (["--rules", "[1]"], "--rules must be a JSON object"),
        (["--rules", "{"], "is not JSON"),
        (["--game", "nope"], "--game: unknown game"),
    ):
        with pytest.raises(ValueError, match=words):
            server_package.game_from_serve_arguments(parser.parse_args(["serve", *bad]))


# -- three seats (issue 25, item 5): the generic rooms for any number of players -----------


def test_a_three_seat_room_fills_in_order_and_starts_when_full(toy3_lobby) -> None:
    lobby, say, connect = toy3_lobby
    a, b, c, late = connect(), connect(), connect(), connect()
    say(a, type="create", mode="online", name="Ann")
    code = a.last("joined")["room"]
    room = a.room
    assert a.last("state")["you"] == {"role": "player", "seats": ["A"], "host": True}
    say(b, type="join", code=code, name="Bob")
    assert b.last("joined")["seats"] == ["B"] and room.phase == "waiting"
    assert "host" not in b.last("state")["you"]  # a guest gets the room's picture
    assert a.last("presence")["players"]["B"]["name"] == "Bob"
    assert a.last("presence")["players"]["C"]["kind"] is None
    say(c, type="join", code=code)
    assert c.last("joined")["seats"] == ["C"] and room.phase == "live"
    say(late, type="join", code=code)
    assert late.last("error")["code"] == "room_full"
    # Turns go round the three seats; the two not to move are refused.
    say(b, type="act", step=1, ref=3)
    assert b.last("rejected")["reason"] == "not_your_turn"
    for peer in (a, b, c):
        say(peer, type="act", step=1)
    end = a.last("match_end")
    assert end["result"] == "C" and end["total"] == 3
    replay = lobby.replays.get(end["replay_id"])
    assert list(replay["players"]) == ["A", "B", "C"]
    for peer in (a, b):
        say(peer, type="rematch", agree=True)
    assert room.phase == "over"  # every seat must agree
    say(c, type="rematch", agree=True)
    assert room.phase == "live"


def test_the_host_starts_a_filling_room_with_bots_in_the_free_seats(toy3_lobby) -> None:
    lobby, say, connect = toy3_lobby
    a, b = connect(), connect()
    say(a, type="create", mode="online", symbol="B")
    code = a.last("joined")["room"]
    say(b, type="join", code=code)
    assert b.last("joined")["seats"] == ["A"]  # the first free seat
    say(b, type="start", bot="first", ref=1)
    assert b.last("error") == {
        "type": "error",
        "code": "not_host",
        "message": "only the player who created the room may start it",
        "ref": 1,
    }
    say(a, type="start", bot="first")
    room = a.room
    assert room.seats[2].kind == "bot" and room.phase == "live"
    say(a, type="start", bot="first")
    assert a.last("error")["code"] == "match_started"
    with pytest.raises(P.ProtocolError) as bad:
        lobby.parse(json.dumps({"type": "start", "bot": "last"}))
    assert bad.value.code == "bad_field" and "start.bot" in bad.value.message


def test_three_seats_bot_and_local_rooms_and_who_wins_when_one_leaves(toy3_lobby) -> None:
    lobby, say, connect = toy3_lobby
    a, b, c, d = connect(), connect(), connect(), connect()
    say(a, type="create", mode="bot", bot="first", symbol="B")
    assert [s.kind for s in a.room.seats] == ["bot", "human", "bot"]
    say(b, type="create", mode="local")
    assert b.last("joined")["seats"] == ["A", "B", "C"]
    say(b, type="act", step=1)
    assert b.last("error")["code"] == "seat_required"
    # A guest leaving a room still filling frees the seat; the room stays.
    say(c, type="create", mode="online")
    code = c.last("joined")["room"]
    say(d, type="join", code=code)
    say(d, type="leave")
    room = c.room
    assert not room.closed and room.free_seats() == [1, 2]
    # Two players and a bot: one player leaving ends the match with no winner.
    say(d, type="join", code=code)
    assert d.last("joined")["seats"] == ["B"]
    say(c, type="start", bot="first")
    say(d, type="leave")
    assert room.result["by"] == "abandoned" and room.result["result"] == "draw"
    assert room.result["forfeited_by"] == "B"
