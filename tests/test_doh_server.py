"""Tic Tac Doh on the server (server/games/doh/) through the generic lobby and rooms:
vs a bot in either seat, local, online with a spectator, rejections, rematch by consent,
replays (file and frames), the display frame against the engine."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("blitz_core.doh")

from server_support import lobby_for, online_room_with_a_spectator
from tictacblitz.games.doh.bots import make_bot
from tictacblitz.games.registry import load_game
from tictacblitz.server import protocol as P
from tictacblitz.server.clock import ManualClock
from tictacblitz.server.games.doh.table import CENTRE, DohTable, replay_frames


@pytest.fixture
def doh():
    clock = ManualClock()
    lobby, say, connect = lobby_for(load_game("doh"), clock)
    return lobby, clock, say, connect


def _legal_move(view: dict, rng: np.random.Generator) -> dict:
    options = [(p, c) for p, cells in view["legal"].items() for c in cells]
    piece, cell = options[int(rng.integers(len(options)))]
    return {"piece": piece, "cell": cell}


def test_welcome_names_the_doh_view_and_vocabulary(doh) -> None:
    lobby, clock, say, connect = doh
    a = connect()
    w = a.last("welcome")
    assert w["game"]["name"] == "doh" and w["game"]["view"] == "/static/js/games/doh/view.js"
    assert w["game"]["seats"] == ["first", "second"]
    assert w["bots"] == ["easy", "medium", "hard", "perfect"]
    assert w["game"]["contents"]["LMS"] == ["S", "M", "L"] and w["game"]["contents"]["SML"] == ["L"]
    assert w["rules"] == {"pieces_per_size": 5, "grid": 3, "players": 2}


@pytest.mark.parametrize("symbol", ["first", "second"])
def test_a_game_against_the_perfect_bot_in_either_seat(doh, symbol: str) -> None:
    lobby, clock, say, connect = doh
    a = connect()
    say(a, type="create", mode="bot", bot="perfect", symbol=symbol)
    rng = np.random.default_rng(1)
    for _ in range(40):
        clock.advance(400)  # the bot answers after its delay
        state = a.all("events")[-1] if a.all("events") else a.last("state")
        if a.all("match_end"):
            break
        if state["to_move"] == symbol:
            say(a, type="act", **_legal_move(state, rng))
    end = a.last("match_end")
    assert end["result"] != symbol  # perfect never loses (docs/doh.md)
    seqs = [m["seq"] for m in a.all("events")]
    assert seqs == list(range(1, len(seqs) + 1))
    replay = lobby.replays.get(end["replay_id"])
    result = load_game("doh").replay(replay)
    assert result["result"] == end["result"] == replay["expect"]["result"]
    assert replay["players"]["first" if symbol == "second" else "second"]["kind"] == "bot"


def test_local_and_online_rooms_rejections_spectators_and_rematch(doh) -> None:
    lobby, clock, say, connect = doh
    a, b, s = online_room_with_a_spectator(say, connect, "first")
    assert b.last("joined")["seats"] == ["second"] and a.room.phase == "live"
    say(b, type="act", piece="S", cell=[2, 2], ref=1)
    assert b.last("rejected")["reason"] == "not_your_turn" and b.last("rejected")["ref"] == 1
    say(a, type="act", piece="M", cell=[0, 0], ref=2)
    assert a.last("rejected")["reason"] == "not_adjacent"  # the first piece: the centre
    say(a, type="act", piece="M", cell=[2, 2])
    ev = s.last("events")
    assert ev["events"][0] == {
        "kind": "move",
        "seat": "first",
        "piece": "M",
        "cell": [2, 2],
        "content": "M",
        "ply": 1,
    }
    assert ev["to_move"] == "second" and ev["stash"] == {"S": 5, "M": 4, "L": 5}
    say(b, type="act", piece="S", cell=[2, 2])  # a stack: MS counts as M and S
    ev = s.last("events")
    assert ev["squares"] == [{"cell": [2, 2], "content": "MS", "counts": ["S", "M"]}]
    say(a, type="act", piece="M", cell=[2, 2])
    assert a.last("rejected")["reason"] == "cannot_stack"
    say(a, type="act", piece="L", cell=[0, 0])
    assert a.last("rejected")["reason"] == "not_adjacent"
    with pytest.raises(P.ProtocolError):
        lobby.parse(json.dumps({"type": "act", "piece": "X", "cell": [1, 1]}))
    rng = np.random.default_rng(7)
    while not a.all("match_end"):
        view = s.last("events")
        peer = a if view["to_move"] == "first" else b
        say(peer, type="act", **_legal_move(view, rng))
    end = s.last("match_end")
    assert end["end"] in ("line", "stash_empty", "no_move")
    if end["end"] == "line":
        assert end["lines"] and s.last("events")["lines"] == end["lines"]
    say(a, type="rematch", agree=True)
    assert a.room.phase == "over"
    say(b, type="rematch", agree=True)
    assert a.room.phase == "live" and a.room.match_id != end["match_id"]
    local = connect()
    say(local, type="create", mode="local")
    say(local, type="act", piece="L", cell=[2, 2], seat="first")
    say(local, type="act", piece="M", cell=[2, 2], seat="second")
    assert local.last("events")["squares"][0]["content"] == "LM"


def test_the_display_frame_follows_the_engine() -> None:
    """Random games through DohTable: every legal square it shows is accepted, pieces
    never move on screen, and the box is known once the pieces span the grid."""
    game = load_game("doh")
    rng = np.random.default_rng(0)
    for _ in range(60):
        table = DohTable(game)
        shown = {}
        while table.to_move() is not None:
            view = table.view()
            assert all(
                0 <= c[0] < 5 and 0 <= c[1] < 5 for cells in view["legal"].values() for c in cells
            )
            move = _legal_move(view, rng)
            assert table.play(table.to_move(), move["piece"], tuple(move["cell"])) is None
            squares = {tuple(s["cell"]): s["content"] for s in table.view()["squares"]}
            for cell in shown:
                assert cell in squares  # nothing moved or vanished
            shown = squares
            box = table.view()["box"]
            rows = [c[0] for c in squares]
            assert box["known"] == (
                max(rows) - min(rows) == 2
                and max(c[1] for c in squares) - min(c[1] for c in squares) == 2
            )
        assert table.view()["squares"][0]["cell"] == [CENTRE, CENTRE] or (CENTRE, CENTRE) in shown


def test_replay_frames_play_a_file_back() -> None:
    game = load_game("doh")
    state = game.new_state(record=True)
    bots = (make_bot("greedy", 3), make_bot("random", 3))
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(state, seat))
    data = state.to_replay()
    out = replay_frames(game, data)
    assert len(out["frames"]) == state.position.ply and out["match"] == state.result()
    assert out["frames"][-1]["events"][-1]["kind"] == "end"
    assert [f["t"] for f in out["frames"]] == sorted(f["t"] for f in out["frames"])
    from tictacblitz.games.protocol import ReplayError

    with pytest.raises(ReplayError):
        replay_frames(game, {"game": "doh", "script": [{"piece": "Q", "at": [0, 0]}]})
