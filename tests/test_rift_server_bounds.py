"""Rift & Grid's move log and turn clock on the server (issue 26, hole 3).

Before: every re-lock was recorded (one seat at 50 messages a second for an hour held
~20 MB, and its replay blocked the event loop), and a seat that never locked in held
the turn for ever. Now a change of mind replaces the seat's recorded move, a seat's
moves in one turn are capped (``MOVES_PER_TURN``, ``move_limit``), and ``rift_turn_s``
gives a turn a clock (a seat not locked in plays its first legal target)."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("blitz_core.rift")

from server_support import Peer, assert_serve_refuses, serve_parser
from tictacblitz.games.registry import load_game
from tictacblitz.server.clock import ManualClock
from tictacblitz.server.games.rift import MOVES_PER_TURN
from tictacblitz.server.lobby import Lobby
from tictacblitz.server.settings import Settings


def _lobby(**settings):
    clock = ManualClock()
    lobby = Lobby(
        Settings(
            game=load_game("rift"),
            pause_ms=0,
            bot_threads=0,
            seed_source=iter(range(1, 999)).__next__,
            **settings,
        ),
        clock,
    )

    def say(peer: Peer, **message) -> None:
        lobby.handle(peer, lobby.parse(json.dumps(message)))

    def connect() -> Peer:
        peer = Peer()
        lobby.connected(peer)
        return peer

    return lobby, clock, say, connect


def _online(say, connect):
    a, b = connect(), connect()
    say(a, type="create", mode="online", symbol="X")
    say(b, type="join", code=a.last("joined")["room"])
    return a, b


def _entries(script: list, turn: int, seat: str) -> list:
    return [e[seat] for e in script if e["turn"] == turn and seat in e]


def test_a_seat_that_relocks_all_game_holds_a_bounded_log_and_a_playable_replay() -> None:
    """Each turn X changes its mind 200 times and sends 20 rejected moves, then O
    locks in. The old server recorded all 220 moves of X's every turn."""
    lobby, clock, say, connect = _lobby()
    a, b = _online(say, connect)
    rng = np.random.default_rng(26)
    refused = sent = 0
    while not a.all("match_end"):
        pic = a.picture()
        turn, targets = pic["turn"], pic["targets"]
        taken = [c for c in range(81) if c not in targets][:20]
        sent_before = len(a.all("rejected"))
        for k in range(200):
            say(a, type="act", cell=int(targets[k % len(targets)]))
            if k < len(taken):
                say(a, type="act", cell=taken[k])
        rejected = a.all("rejected")[sent_before:]
        limit = [r for r in rejected if r["reason"] == "move_limit"]
        assert limit and all(r["turn"] == turn for r in limit)
        assert len(rejected) - len(limit) <= len(taken)  # the G5 ones, before the cap
        refused += len(limit)
        sent += 200 + len(taken)
        script = lobby.rooms[a.room.code].session.state.to_replay()["script"]
        # The log of this turn: the last lock and the rejections, within the cap.
        assert len(_entries(script, turn, "X")) <= MOVES_PER_TURN
        say(b, type="act", cell=int(rng.choice(targets)))  # the turn resolves
    end = a.last("match_end")
    replay = lobby.replays.get(end["replay_id"])
    turns = end["turns"]
    script = replay["script"]
    # Bounded: at most MOVES_PER_TURN entries of a seat per turn, whatever it sent.
    assert len(script) <= turns * (MOVES_PER_TURN + 1)
    assert refused >= sent - turns * MOVES_PER_TURN
    assert len(json.dumps(replay)) < turns * (MOVES_PER_TURN + 1) * 60  # bytes
    for engine in ("native", "reference"):
        result = load_game("rift").replay(replay, engine=engine)
        assert result["result"] == end["result"] and len(result["turns"]) == turns
        # One locked move per seat and turn; every other entry is a reported rejection.
        assert len(script) == len(result["rejected"]) + 2 * turns
        assert all(r["reason"] != "move_limit" for r in result["rejected"])
        assert all(r["player"] == "X" for r in result["rejected"])


def test_past_the_cap_a_seat_that_has_not_locked_may_still_lock_once() -> None:
    lobby, clock, say, connect = _lobby()
    a, b = _online(say, connect)
    pic = a.picture()
    broke = {"cell": pic["targets"][0], "ability": "reveal"}  # no_energy (G5, G14)
    for _ in range(MOVES_PER_TURN):
        say(a, type="act", **broke)
    assert [r["reason"] for r in a.all("rejected")] == ["no_energy"] * MOVES_PER_TURN
    say(a, type="act", **broke)
    assert a.last("rejected")["reason"] == "move_limit"
    say(a, type="act", cell=pic["targets"][0])  # a first legal lock still goes through
    assert a.last("events")["events"] == [{"kind": "locked", "seat": "X", "turn": 1}]
    say(a, type="act", cell=pic["targets"][1])  # but no change of mind
    assert a.last("rejected")["reason"] == "move_limit"
    say(b, type="act", cell=pic["targets"][2])
    assert a.picture()["turn"] == 2
    assert a.last("events")["events"][-1]["moves"]["X"]["cell"] == pic["targets"][0]
    say(a, type="act", cell=a.picture()["targets"][0])  # a new turn: a new count
    assert a.last("events")["events"][-1] == {"kind": "locked", "seat": "X", "turn": 2}


def test_the_turn_clock_plays_the_first_legal_target_of_a_stalled_seat() -> None:
    lobby, clock, say, connect = _lobby(rift_turn_s=5.0)
    a, b = _online(say, connect)
    assert a.last("welcome")["game"]["turn_s"] == 5.0
    first = a.picture()["targets"]
    say(a, type="act", cell=first[-1])
    clock.advance(4_999)
    assert a.picture()["turn"] == 1  # O may still think
    clock.advance(1)
    turn = a.last("events")["events"][-1]
    assert turn["kind"] == "turn" and turn["turn"] == 1
    assert turn["moves"]["O"] == {"cell": min(first), "ability": "none"}
    # A turn where nobody locks: both play their first legal target, turn after turn.
    clock.advance(5_000 * 3)
    assert a.picture()["turn"] == 5
    say(a, type="leave")
    end = b.last("match_end")
    result = load_game("rift").replay(lobby.replays.get(end["replay_id"]))
    assert len(result["turns"]) == 4 and result["turns"][0]["moves"]["O"]["cell"] == min(first)


def test_without_the_clock_a_stalled_turn_waits() -> None:
    lobby, clock, say, connect = _lobby()
    a, b = _online(say, connect)
    say(a, type="act", cell=a.picture()["targets"][0])
    clock.advance(3_600_000)
    assert a.picture()["turn"] == 1 and a.last("welcome")["game"]["turn_s"] is None


def test_serve_refuses_a_bad_turn_clock(capsys) -> None:
    assert_serve_refuses(
        serve_parser(),
        capsys,
        (
            (["--game", "rift", "--rift-turn-s", "0"], "--rift-turn-s 0 is out of range"),
            (["--game", "rift", "--rift-turn-s", "nan"], "--rift-turn-s nan is out of range"),
            (["--game", "rift", "--rift-turn-s", "1e9"], "out of range (1 to 86400 seconds)"),
            (["--game", "blitz", "--rift-turn-s", "30"], "Tic Tac Blitz has no turn clock"),
        ),
    )
