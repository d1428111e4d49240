"""Tic Tac Doh rooms of three and four players (issue 25, item 5; D9, D10) through the
generic lobby and rooms: seats from the rules, joins in seat order, the start when full
or by the host with bots, turns round the seats, a stuck table putting every seat but
the last mover out, rejections of a seat not to move or out, a reload keeping its seat,
and the replay of a 3-player match."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("blitz_core.doh")

from server_support import lobby_for
from tictacblitz.games.registry import load_game
from tictacblitz.server.clock import ManualClock

SEATS = ["first", "second", "third", "fourth"]


def _room(**rules):
    clock = ManualClock()
    lobby, say, connect = lobby_for(load_game("doh", rules), clock)
    return lobby, clock, say, connect


def _legal_move(view: dict, rng: np.random.Generator) -> dict:
    options = [(p, c) for p, cells in view["legal"].items() for c in cells]
    piece, cell = options[int(rng.integers(len(options)))]
    return {"piece": piece, "cell": cell}


def view_after(peer) -> list:
    """The squares of the last picture ``peer`` got."""
    return peer.picture()["squares"]


def test_welcome_names_the_seats_of_the_rules_and_the_levels_that_play_them() -> None:
    for players in (2, 3, 4):
        lobby, clock, say, connect = _room(players=players)
        w = connect().last("welcome")
        assert w["game"]["seats"] == SEATS[:players] and w["rules"]["players"] == players
        assert w["bots"][0] == "easy"
    # Every level offered for three players plays a whole game (none refuses the table).
    lobby, clock, say, connect = _room(players=3)
    for level in connect().last("welcome")["bots"]:
        a = connect()
        say(a, type="create", mode="bot", bot=level, symbol="third")
        assert [s.kind for s in a.room.seats] == ["bot", "bot", "human"]
        rng = np.random.default_rng(3)
        for _ in range(60):
            clock.advance(400)  # each bot answers after its delay
            if a.all("match_end"):
                break
            view = a.picture()
            if view["to_move"] == "third":
                say(a, type="act", **_legal_move(view, rng))
        assert a.last("match_end")["result"] in (*SEATS[:3], "draw"), level


def test_a_three_player_online_room_fills_in_order_and_plays_round_the_seats() -> None:
    lobby, clock, say, connect = _room(players=3)
    a, b, c, s, late = connect(), connect(), connect(), connect(), connect()
    say(a, type="create", mode="online", symbol="second", name="Ann")
    code = a.last("joined")["room"]
    room = a.room
    assert a.last("state")["players"]["first"]["kind"] is None and room.phase == "waiting"
    say(b, type="join", code=code, name="Bob")
    say(s, type="watch", code=code)
    assert b.last("joined")["seats"] == ["first"] and room.phase == "waiting"
    say(c, type="join", code=code, name="Cy")
    assert c.last("joined")["seats"] == ["third"] and room.phase == "live"
    say(late, type="join", code=code)
    assert late.last("error")["code"] == "room_full"
    state = s.last("state")
    assert list(state["players"]) == SEATS[:3] and state["to_move"] == "first"
    assert state["out"] == [] and state["players"]["third"]["out"] is False
    # Only the seat to move plays; the others get one reason each, and nothing changes.
    for peer, seat in ((a, "second"), (c, "third")):
        say(peer, type="act", piece="L", cell=[2, 2], ref=seat)
        assert peer.last("rejected")["reason"] == "not_your_turn"
        assert peer.last("rejected")["seat"] == seat and peer.last("rejected")["ref"] == seat
    assert not s.all("events")[1:]
    peers = {"first": b, "second": a, "third": c}
    order = []
    rng = np.random.default_rng(25)
    while not s.all("match_end"):
        view = s.picture()
        order.append(view["to_move"])
        say(peers[view["to_move"]], type="act", **_legal_move(view, rng))
    assert order == [SEATS[i % 3] for i in range(len(order))]  # D10: round in seat order
    end = s.last("match_end")
    assert end["result"] in (*SEATS[:3], "draw") and end["plies"] == len(order)
    replay = lobby.replays.get(end["replay_id"])
    assert replay["rules"]["players"] == 3 and list(replay["players"]) == SEATS[:3]
    assert replay["players"]["second"]["name"] == "Ann"
    checked = load_game("doh").replay(replay)  # the replay format's own runner
    assert checked["result"] == end["result"] == replay["expect"]["result"]
    frames = lobby.adapter.replay_frames(replay)  # the replay viewer's frames
    assert len(frames["frames"]) == len(order) and frames["rules"]["players"] == 3
    assert frames["match"] == end["result"] and frames["frames"][-1]["squares"] == view_after(s)
    for peer in (a, b):
        say(peer, type="rematch", agree=True)
    assert room.phase == "over"  # the third seat has not agreed yet
    say(c, type="rematch", agree=True)
    assert room.phase == "live" and s.last("events")["to_move"] == "first"


def test_the_host_starts_a_four_seat_room_with_bots_in_the_free_seats() -> None:
    lobby, clock, say, connect = _room(players=4)
    a, b = connect(), connect()
    say(a, type="create", mode="online")
    code = a.last("joined")["room"]
    say(b, type="join", code=code)
    say(b, type="start", bot="easy", ref=1)
    assert b.last("error")["code"] == "not_host" and a.room.phase == "waiting"
    say(a, type="start", bot="easy")
    room = a.room
    assert [s.kind for s in room.seats] == ["human", "human", "bot", "bot"]
    assert room.phase == "live" and a.last("presence")["players"]["fourth"]["level"] == "easy"
    say(a, type="start", bot="easy")
    assert a.last("error")["code"] == "match_started"
    peers = {"first": a, "second": b}
    rng = np.random.default_rng(4)
    movers = []
    for _ in range(200):
        clock.advance(400)
        if a.all("match_end"):
            break
        view = a.picture()
        if view["to_move"] in peers:
            say(peers[view["to_move"]], type="act", **_legal_move(view, rng))
    moves = [e for m in a.all("events") for e in m["events"] if e["kind"] == "move"]
    movers = [m["seat"] for m in moves]
    assert movers == [SEATS[i % 4] for i in range(len(movers))] and len(movers) >= 4
    assert a.last("match_end")["result"] in (*SEATS, "draw")


def test_a_stuck_table_puts_every_seat_but_the_last_mover_out_and_they_cannot_move() -> None:
    """D9 with three players: one piece of each size and a 1x1 grid. first puts M, second
    stacks S on it; the large piece fits nowhere (no nest over a stack): third is out,
    and first after them, at once; second, who moved last, wins."""
    lobby, clock, say, connect = _room(players=3, pieces_per_size=1, grid=1)
    a = connect()
    say(a, type="create", mode="local")
    say(a, type="act", piece="M", cell=[2, 2], seat="first")
    say(a, type="act", piece="S", cell=[2, 2], seat="second")
    end = a.last("match_end")
    assert end["result"] == "second" and end["end"] == "no_move"
    assert end["out"] == ["third", "first"]
    last = a.last("events")
    assert last["out"] == ["third", "first"] and last["to_move"] is None
    assert last["events"][-1]["out"] == ["third", "first"]
    say(a, type="sync")
    state = a.last("state")
    assert [state["players"][s]["out"] for s in SEATS[:3]] == [True, False, True]
    say(a, type="act", piece="L", cell=[2, 2], seat="third", ref=9)
    assert a.last("rejected")["reason"] == "game_over" and a.last("rejected")["seat"] == "third"
    replay = lobby.replays.get(end["replay_id"])
    assert load_game("doh").replay(replay)["state"]["out"] == ["third", "first"]
    frames = lobby.adapter.replay_frames(replay)
    assert frames["frames"][-1]["out"] == ["third", "first"] and frames["match"] == "second"


def test_a_reload_keeps_the_seat_of_a_three_seat_room_and_a_lost_guest_frees_it() -> None:
    lobby, clock, say, connect = _room(players=3)
    a, b, c = connect(), connect(), connect()
    say(a, type="create", mode="online")
    code = a.last("joined")["room"]
    say(b, type="join", code=code)
    token = b.last("joined")["token"]
    room = a.room
    # A reload while the room fills: the guest's seat is held for the grace, then taken
    # back with the token; the room goes on filling.
    lobby.disconnected(b)
    assert a.last("presence")["players"]["second"]["grace_until"] is not None
    b2 = connect()
    say(b2, type="resume", token=token, code=code)
    assert b2.last("joined")["seats"] == ["second"] and b2.last("state")["phase"] == "waiting"
    say(c, type="join", code=code)
    assert c.last("joined")["seats"] == ["third"] and room.phase == "live"
    # A reload mid-game: the same seat, the same picture.
    lobby.disconnected(c)
    c2 = connect()
    say(c2, type="resume", token=c.last("joined")["token"], code=code)
    assert c2.last("joined")["seats"] == ["third"] and c2.last("state")["match_id"] == room.match_id
    # A guest whose grace runs out while the room fills: the seat is free again.
    d, e, f = connect(), connect(), connect()
    say(d, type="create", mode="online")
    other = d.last("joined")["room"]
    say(e, type="join", code=other)
    lobby.disconnected(e)
    clock.advance(lobby.settings.grace_ms + 1)
    say(f, type="join", code=other)
    assert f.last("joined")["seats"] == ["second"] and d.room.phase == "waiting"
