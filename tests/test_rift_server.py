"""Rift & Grid on the server (server/games/rift/) through the generic lobby and rooms:
a whole game online with two clients and a spectator, against a bot in either seat,
local; the privacy of programmed moves and hands (the other seat and spectators never
see a move before its turn resolves, nor an unrevealed objective); G5 rejections to
the mover only; changing one's mind; rematch by consent; replays (file and frames)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("blitz_core.rift")

from server_support import Peer, lobby_for, online_room_with_a_spectator
from tictacblitz.games.registry import load_game
from tictacblitz.server import protocol as P
from tictacblitz.server.adapter import adapter_for
from tictacblitz.server.clock import ManualClock
from tictacblitz.server.games.rift.wire import replay_frames
from tictacblitz.server.lobby import Lobby
from tictacblitz.server.settings import Settings


@pytest.fixture
def rift():
    clock = ManualClock()
    lobby, say, connect = lobby_for(load_game("rift"), clock)
    return lobby, clock, say, connect


def _move(pic: dict, rng: np.random.Generator, seat: str) -> dict:
    """A legal move from the public picture: a target, with a usable ability sometimes."""
    cell = int(rng.choice(pic["targets"]))
    usable = [a for a, v in pic["abilities"][seat].items() if v["usable"]]
    if usable and rng.random() < 0.3:
        return {"cell": cell, "ability": str(rng.choice(usable))}
    return {"cell": cell}


def test_welcome_names_the_rift_view_and_vocabulary(rift) -> None:
    lobby, clock, say, connect = rift
    w = connect().last("welcome")
    assert w["game"]["name"] == "rift" and w["game"]["view"] == "/static/js/games/rift/view.js"
    assert w["game"]["time_model"] == "simultaneous" and w["game"]["seats"] == ["X", "O"]
    assert w["game"]["abilities"] == ["none", "shield", "swap", "reveal"]
    assert w["bots"] == ["easy", "medium", "hard"]
    assert w["rules"]["shield_cost"] == 2 and w["rules"]["objective_points"]["meta_line"] == 15


def test_an_online_game_two_clients_and_a_spectator_privacy_and_rematch(rift) -> None:
    lobby, clock, say, connect = rift
    a, b, s = online_room_with_a_spectator(say, connect, "X")
    assert a.room.phase == "live" and b.last("joined")["seats"] == ["O"]
    # Each player's state holds its own hand only; the spectator's holds none.
    hand_x = a.last("state")["private"]["X"]["objectives"]
    hand_o = b.last("state")["private"]["O"]["objectives"]
    assert set(a.last("state")["private"]) == {"X"} and set(b.last("state")["private"]) == {"O"}
    assert s.last("state")["private"] == {}
    assert len(hand_x) == 3 and s.last("state")["objectives"]["X"] == {"known": [], "hidden": 3}
    # X locks in, then changes its mind: O and the spectator hear only "X locked in".
    pic = s.picture()
    first, second = pic["targets"][0], pic["targets"][-1]
    say(a, type="act", cell=first)
    say(a, type="act", cell=second, ability="shield")
    for peer in (b, s):
        ev = peer.last("events")
        assert ev["events"] == [{"kind": "locked", "seat": "X", "turn": 1}]
        assert ev["locked"] == {"X": True, "O": False}
    say(s, type="sync")
    assert s.last("state")["players"]["X"]["locked"] and "move" not in json.dumps(s.last("state"))
    say(a, type="sync")
    assert a.last("state")["private"]["X"]["move"] == {"cell": second, "ability": "shield"}
    # A rejected move goes to its sender only, with its G5 reason; the lock stays.
    say(b, type="act", cell=first, ability="reveal", ref=7)
    rejected = b.last("rejected")
    assert rejected["reason"] == "no_energy" and rejected["ref"] == 7 and rejected["seat"] == "O"
    assert not a.all("rejected") and not s.all("rejected")
    with pytest.raises(P.ProtocolError):
        lobby.parse(json.dumps({"type": "act", "cell": 81}))
    with pytest.raises(P.ProtocolError):
        lobby.parse(json.dumps({"type": "act", "cell": 3, "ability": "teleport"}))
    say(b, type="act", cell=first)
    turn = s.last("events")["events"][-1]
    assert turn["kind"] == "turn" and turn["moves"]["X"] == {"cell": second, "ability": "shield"}
    assert turn["moves"]["O"] == {"cell": first, "ability": "none"} and s.picture()["turn"] == 2
    taken = [c for c in range(81) if c not in s.picture()["targets"]][0]
    say(a, type="act", cell=taken)
    assert a.last("rejected")["reason"] in ("wrong_sector", "not_empty", "sector_decided")
    assert not b.all("rejected")[1:] and not s.all("rejected")
    # Play it out with random legal moves; no move ever shows before its resolution.
    rng = np.random.default_rng(3)
    while not a.all("match_end"):
        pic = s.picture()
        for peer, seat in ((a, "X"), (b, "O")):
            if not a.all("match_end"):
                say(peer, type="act", **_move(pic, rng, seat))
    for ev in (m for m in s.all("events")):
        for e in ev["events"]:
            assert set(e) <= {"kind", "seat", "turn"} or e["kind"] in ("turn", "end")
    end = s.last("match_end")
    assert end["result"] in ("X", "O", "draw") and end["score"] == s.picture()["score"]
    assert s.picture()["result"] == end["result"] and end["turns"] == s.picture()["turn"] - 1
    # Neither the opponent nor the spectator saw a hidden objective of the other before
    # the game ended; the game's last picture shows both hands whole (issue 26, item 9).
    ending = next(
        i for i, m in enumerate(s.out) if m["type"] == "events" and m["result"] is not None
    )
    before = s.out[:ending]
    known_before = [
        o["id"] for m in before if "objectives" in m for o in m["objectives"]["X"]["known"]
    ]
    for o in hand_x:
        if o["id"] not in known_before and o["id"] not in [h["id"] for h in hand_o]:
            assert o["id"] not in json.dumps(before)
            assert o["id"] not in json.dumps([m for m in b.out if m.get("result") is None])
    final = s.out[ending]["objectives"]
    for seat, hand in (("X", hand_x), ("O", hand_o)):
        assert final[seat]["hidden"] == 0
        assert [o["id"] for o in final[seat]["known"]] == [o["id"] for o in hand]
    # The replay plays back to the same result; its frames match the live turns.
    replay = lobby.replays.get(end["replay_id"])
    assert load_game("rift").replay(replay)["result"] == end["result"] == replay["expect"]["result"]
    frames = adapter_for(load_game("rift"), lobby.settings).replay_frames(replay)
    live = [e for m in s.all("events") for e in m["events"] if e["kind"] == "turn"]
    played = [e for f in frames["frames"] for e in f["events"] if e["kind"] == "turn"]
    assert played == live and frames["match"] == end["result"]
    assert frames["frames"][-1]["cells"] == s.picture()["cells"]
    # Rematch by consent of both.
    say(a, type="rematch", agree=True)
    assert a.room.phase == "over"
    say(b, type="rematch", agree=True)
    assert a.room.phase == "live" and a.room.match_id != end["match_id"]
    assert a.last("state")["turn"] == 1


@pytest.mark.parametrize("symbol", ["X", "O"])
def test_a_game_against_a_bot_in_either_seat(rift, symbol: str) -> None:
    lobby, clock, say, connect = rift
    a = connect()
    say(a, type="create", mode="bot", bot="hard", symbol=symbol)
    bot = "O" if symbol == "X" else "X"
    rng = np.random.default_rng(5)
    for _ in range(200):
        if a.all("match_end"):
            break
        turn = a.picture()["turn"]
        say(a, type="act", **_move(a.picture(), rng, symbol))
        assert a.picture()["turn"] == turn  # the bot has not locked in yet
        clock.advance(700)  # it locks in after its delay
        assert a.picture()["turn"] == turn + 1 or a.all("match_end")
        locks = [e for e in a.all("events")[-2]["events"] if e["kind"] == "locked"]
        assert locks == [] or all(set(e) == {"kind", "seat", "turn"} for e in locks)
    end = a.last("match_end")
    replay = lobby.replays.get(end["replay_id"])
    assert load_game("rift").replay(replay)["result"] == end["result"]
    assert replay["players"][bot]["kind"] == "bot" and replay["players"][bot]["level"] == "hard"
    say(a, type="rematch", agree=True)  # the bot always agrees
    assert a.room.phase == "live" and a.room.match_id != end["match_id"]


def test_a_bot_locks_first_and_waits_without_revealing_its_move(rift) -> None:
    lobby, clock, say, connect = rift
    a = connect()
    say(a, type="create", mode="bot", bot="medium", symbol="X")
    clock.advance(700)
    ev = a.last("events")
    assert ev["events"] == [{"kind": "locked", "seat": "O", "turn": 1}]
    say(a, type="sync")
    state = a.last("state")
    assert state["players"]["O"]["locked"] and state["locked"] == {"X": False, "O": True}
    assert state["private"] == {
        "X": {"objectives": state["private"]["X"]["objectives"], "move": None}
    }
    assert '"cell":' not in json.dumps(state) and state["turns"] == []
    clock.advance(5000)  # it waits for us: no second lock
    assert a.last("events") is ev


def test_local_one_connection_holds_both_seats(rift) -> None:
    lobby, clock, say, connect = rift
    c = connect()
    say(c, type="create", mode="local")
    state = c.last("state")
    assert set(state["private"]) == {"X", "O"}
    say(c, type="act", cell=40, ability="swap", seat="X")
    say(c, type="sync")
    assert c.last("state")["private"]["X"]["move"] == {"cell": 40, "ability": "swap"}
    say(c, type="act", cell=40)
    assert c.last("error")["code"] == "seat_required"
    say(c, type="act", cell=13, seat="O")
    turn = c.last("events")["events"][-1]
    assert turn["swapped"] and turn["cells"] == {"X": 13, "O": 40} and turn["active"] == 4


def test_replay_frames_of_a_file_and_bad_files() -> None:
    game = load_game("rift")
    state = game.new_state(9, record=True)
    bots = (game.make_bot("hard", 1), game.make_bot("greedy", 2))
    while not state.is_over():
        state.apply_joint([bots[p].choose(state, p) for p in (0, 1)])
    out = replay_frames(game, state.to_replay())
    assert out["match"] == state.engine.result and len(out["frames"]) == state.turn
    assert out["frames"][-1]["cells"] == "".join(".XO#"[c] for c in state.engine.core.cells())
    assert out["frames"][-1]["hands"]["X"] == state.engine.hands()[0]
    assert [f["t"] for f in out["frames"]] == sorted(f["t"] for f in out["frames"])
    from tictacblitz.games.protocol import ReplayError

    with pytest.raises(ReplayError):
        replay_frames(game, {"game": "rift", "script": [{"turn": 1, "X": {"cell": 99}}]})
    with pytest.raises(ReplayError):
        replay_frames(game, {"game": "doh"})


# -- one source of truth between the adapter and the browser view ---------------------------

RIFT_JS = Path(__file__).resolve().parent.parent / "python/tictacblitz/server/static/js/games/rift"


def _js(name: str) -> str:
    return (RIFT_JS / name).read_text(encoding="utf-8")


def _js_keys(text: str, name: str) -> list:
    found = re.search(rf"export const {name} = \{{(.*?)\n\}};", text, re.S)
    assert found, name
    return re.findall(r"^\s*(\w+):", found.group(1), re.M)


def _js_list(text: str, name: str) -> list:
    found = re.search(rf"export const {name} = \[(.*?)\];", text, re.S)
    assert found, name
    return re.findall(r'"(\w+)"', found.group(1))


def test_the_rift_view_names_the_vocabulary_of_the_game_and_no_rule_numbers() -> None:
    from tictacblitz.games.rift.rules import RiftRules
    from tictacblitz.games.rift.types import OBJECTIVE_IDS, Reason
    from tictacblitz.server.games import rift as adapter

    view, model, draw = _js("view.js"), _js("model.js"), _js("layout.js")
    # G5 (game_over too), and the server's cap on a seat's moves in one turn
    assert set(_js_keys(view, "REASONS")) == {r.value for r in Reason} | {"move_limit"}
    assert _js_list(view, "SEATS") == list(adapter.SEATS)
    assert _js_list(draw, "ABILITIES") == list(adapter.ABILITIES)  # G3
    assert _js_keys(model, "OBJECTIVE_TEXT") == list(OBJECTIVE_IDS)  # G17
    default_bot = re.search(r'export const DEFAULT_BOT = "(\w+)";', view).group(1)
    assert default_bot in adapter.BOT_LEVELS
    rule_names = [name for name in RiftRules().to_dict() if name != "objectives"]
    for path in sorted(RIFT_JS.glob("*.js")):
        text = path.read_text(encoding="utf-8")
        for name in rule_names:  # every number comes from the server's rules
            assert not re.search(rf"\b{name}\s*[:=]\s*\d", text), (path.name, name)
        for oid, points in RiftRules().objective_points.items():
            assert not re.search(rf"\b{oid}\s*:\s*{points}\b", text), (path.name, oid)
        sent = set(re.findall(r'\btype: "(\w+)"', text))
        assert sent <= set(P.CLIENT_MESSAGES), (path.name, sent)
    cases = set(re.findall(r'case "(\w+)"', model))
    assert cases <= set(P.SERVER_MESSAGES), cases - set(P.SERVER_MESSAGES)


def test_serve_game_rift_runs_the_rift_adapter() -> None:
    import argparse

    from tictacblitz.server import game_from_serve_arguments
    from tictacblitz.server.adapter import adapter_games

    assert "rift" in adapter_games() and "blitz" in adapter_games()
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    from tictacblitz.server import register

    register(sub)
    args = parser.parse_args(["serve", "--game", "rift", "--rule", "shield_cost=1"])
    game = game_from_serve_arguments(args)
    assert game.type.name == "rift" and game.rules.shield_cost == 1
    lobby = Lobby(Settings(game=game, pause_ms=0, bot_threads=0), ManualClock())
    assert lobby.welcome()["rules"]["shield_cost"] == 1
    assert lobby.adapter.describe()["view"] == "/static/js/games/rift/view.js"


def test_a_forfeit_mid_turn_ends_the_match_and_its_replay_stops_there(rift) -> None:
    lobby, clock, say, connect = rift
    a, b = connect(), connect()
    say(a, type="create", mode="online", symbol="X")
    say(b, type="join", code=a.last("joined")["room"])
    say(a, type="act", cell=40)
    say(b, type="act", cell=41)
    say(a, type="act", cell=36, ability="shield")  # turn 2 (sector 4): X locked, O not
    say(a, type="leave")
    end = b.last("match_end")
    assert end["by"] == "forfeit" and end["result"] == "O" and end["forfeited_by"] == "X"
    replay = lobby.replays.get(end["replay_id"])
    result = load_game("rift").replay(replay)
    assert len(result["turns"]) == 1 and result["stopped"]["player"] == "O"
    assert replay["result"] == {"result": "O", "by": "forfeit", "forfeited_by": "X"}
    # The lock X left behind was never shown to O: it heard who, not what.
    assert b.all("events")[-1]["events"] == [{"kind": "locked", "seat": "X", "turn": 2}]
    reports = [e for m in b.all("events") for e in m["events"] if e["kind"] == "turn"]
    assert [r["turn"] for r in reports] == [1]


def test_the_view_model_under_node_reads_a_real_match(rift) -> None:
    """model.js (pure) fed the messages of a real game: the hands it shows, the scores by
    cause, the animation's clock, what a click means."""
    import shutil
    import subprocess

    node = shutil.which("node")
    if not node:
        pytest.skip("no node on PATH")
    lobby, clock, say, connect = rift
    a = connect()
    say(a, type="create", mode="bot", bot="easy", symbol="X")
    rng = np.random.default_rng(11)
    while not a.all("match_end"):
        say(a, type="act", **_move(a.picture(), rng, "X"))
        clock.advance(700)
    messages = [m for m in a.out if m["type"] != "pong"]
    script = f"""
const M = await import({json.dumps((RIFT_JS / "model.js").as_uri())});
const msgs = JSON.parse(process.argv[1]);
const model = new M.GameModel(msgs[0].rules, msgs[0].game);
const seen = [];
for (const m of msgs.slice(1)) {{
  model.apply(m);
  if (m.type === "events" && m.events.some((e) => e.kind === "turn")) {{
    const v0 = model.view(1000), v1 = model.view(1000 + M.ANIM_MS / 2);
    const v2 = model.view(1000 + M.ANIM_MS);
    seen.push([v0.anim.p, v1.anim.p, v2.anim.done]);
    model.anim = null;
  }}
}}
const v = model.view(0);
const sum = (s) => v.causes.filter((c) => c.seat === s).reduce((n, c) => n + c.points, 0);
console.log(JSON.stringify({{
  seen: seen.slice(0, 2), turns: v.turns, score: [v.players.X.score, v.players.O.score],
  sums: [sum("X"), sum("O")], own: v.players.X.hand.full,
  ownCount: v.players.X.hand.items.length, theirs: v.players.O.hand.full,
  result: v.result && v.result.result, words: M.describeMatch(v.result),
  click: M.intentFor({{...v, live: true}}, 40, "X", "shield"),
  notMine: M.intentFor({{...v, live: true}}, 40, "O", "none"),
}}));
"""
    proc = subprocess.run(
        [node, "--input-type=module", "-e", script, json.dumps(messages)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    end = a.last("match_end")
    assert out["seen"] == [[0, 0.5, True], [0, 0.5, True]]
    assert out["turns"] == end["turns"] and out["score"] == [end["score"]["X"], end["score"]["O"]]
    assert out["sums"] == out["score"] and out["result"] == end["result"]
    assert out["own"] and out["ownCount"] == 3 and not out["theirs"]
    assert out["words"].startswith("Draw" if end["result"] == "draw" else f"{end['result']} wins")
    assert out["click"] == {"cell": 40, "ability": "shield"} and out["notMine"] is None


def test_replay_frames_of_every_hand_worked_scenario_file() -> None:
    """The viewer plays every scenario file of tests/scenarios/rift the way the replay
    runner does (setups, deals, changes of mind, rule overrides), or refuses it."""
    from tictacblitz.games.protocol import ReplayError

    game = load_game("rift")
    folder = Path(__file__).resolve().parent / "scenarios" / "rift"
    played = 0
    for path in sorted(folder.rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        try:
            expected = game.replay(data)
        except ReplayError:
            with pytest.raises(ReplayError):
                replay_frames(game, data)
            continue
        out = replay_frames(game, data)
        last = out["frames"][-1]
        assert len(out["frames"]) == len(expected["turns"]) + 1, path.name
        assert out["match"] == expected["result"], path.name
        assert last["score"] == expected["state"]["score"], path.name
        assert last["energy"] == expected["state"]["energy"], path.name
        played += 1
    assert played >= 20


def test_bots_think_in_a_pool_and_their_answers_come_back_to_the_loop() -> None:
    """With an executor, a bot's decision runs in a thread and comes back through
    ``post`` (the event loop's call_soon_threadsafe): the game plays to its end."""
    import queue
    import time
    from concurrent.futures import ThreadPoolExecutor

    posted: "queue.Queue[Any]" = queue.Queue()
    clock = ManualClock()
    with ThreadPoolExecutor(2) as pool:
        settings = Settings(game=load_game("rift"), pause_ms=0, bot_threads=2)
        lobby = Lobby(settings, clock, executor=pool, post=posted.put)
        a = Peer()
        lobby.connected(a)
        lobby.handle(a, lobby.parse(json.dumps({"type": "create", "mode": "bot", "bot": "hard"})))
        rng = np.random.default_rng(2)
        deadline = time.monotonic() + 60
        while not a.all("match_end") and time.monotonic() < deadline:
            turn = a.picture()["turn"]
            if not a.picture()["locked"]["X"]:
                move = _move(a.picture(), rng, "X")
                lobby.handle(a, lobby.parse(json.dumps({"type": "act", **move})))
            clock.advance(700)
            try:
                posted.get(timeout=5)()  # the decision, back on "the loop"
            except queue.Empty:
                pass
            assert a.picture()["turn"] in (turn, turn + 1)
        assert a.all("match_end") and posted.empty()
