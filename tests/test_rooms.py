"""Rooms, seats, tokens and the real-time loop, without the web layer (server/lobby.py,
server/room.py and the Blitz adapter server/games/blitz/).

A ManualClock moves time; bots decide inline (bot_threads=0): every test is
deterministic and instant."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("blitz_core.blitz.engine")

from tictacblitz.games import load_game
from tictacblitz.games.blitz import Match
from tictacblitz.games.blitz.encoding import action_code
from tictacblitz.games.blitz.scenario import load_scenario, run_scenario
from tictacblitz.games.blitz.types import Action
from tictacblitz.server import protocol as P
from tictacblitz.server.clock import ManualClock
from tictacblitz.server.games.blitz import Intent
from tictacblitz.server.lobby import Lobby
from tictacblitz.server.room import new_code, new_token
from tictacblitz.server.settings import Settings


class FakePeer:
    base_url = "http://test"

    def __init__(self) -> None:
        self.out: list = []
        self.closed = None
        self.member = None
        self.room = None

    def send(self, message: dict) -> None:
        self.out.append(json.loads(P.encode(message)))

    def send_text(self, text: str) -> None:
        self.out.append(json.loads(text))

    def close(self, code: int) -> None:
        self.closed = code

    def take(self, kind: str = None) -> list:
        got = [m for m in self.out if kind is None or m["type"] == kind]
        self.out = [m for m in self.out if not (kind is None or m["type"] == kind)]
        return got


def make_lobby(**rules) -> tuple:
    rules.setdefault("round_ms", 3000)
    settings = Settings(
        game=load_game("blitz", rules),
        pause_ms=0,
        grace_ms=1000,
        bot_threads=0,
        seed_source=iter(range(1, 10_000)).__next__,
    )
    clock = ManualClock()
    return Lobby(settings, clock), clock


def say(lobby: Lobby, peer: FakePeer, **message) -> None:
    lobby.handle(peer, lobby.parse(json.dumps(message)))


def connect(lobby: Lobby) -> FakePeer:
    peer = FakePeer()
    lobby.connected(peer)
    assert peer.take("welcome")
    return peer


def test_codes_and_tokens_are_unguessable() -> None:
    codes = {new_code() for _ in range(2000)}
    assert len(codes) == 2000
    assert all(len(c) == P.CODE_LENGTH and set(c) <= set(P.CODE_ALPHABET) for c in codes)
    assert len(P.CODE_ALPHABET) ** P.CODE_LENGTH >= 2**40
    tokens = {new_token() for _ in range(2000)}
    assert len(tokens) == 2000 and min(len(t) for t in tokens) >= 32
    assert P.normalize_code("abcde-fghjk") == "ABCDEFGHJK"
    assert P.normalize_code("il o") == "110"


def test_both_seats_in_one_ms_go_through_act_both_and_a_second_intent_waits() -> None:
    lobby, clock = make_lobby(powerup_max=0)
    peer = connect(lobby)
    say(lobby, peer, type="create", mode="local")
    room = peer.room
    peer.take()
    clock.advance(100)
    # Queue both seats' intents before the room runs (they arrived in the same ms).
    room.session.pending += [
        Intent(0, action_code(Action.place((0, 0))), 1, peer),
        Intent(1, action_code(Action.place((5, 5))), 2, peer),
        Intent(0, action_code(Action.place((1, 1))), 3, peer),
    ]
    room.tick()
    events = peer.take("events")
    assert len(events) == 1 and events[0]["t"] == 100
    assert sorted(e["player"] for e in events[0]["events"]) == ["O", "X"]
    clock.advance(1)  # the third intent: X again, at the next ms (not charged)
    rejected = peer.take("rejected")
    assert rejected == [
        {
            "type": "rejected",
            "seat": "X",
            "action": "place",
            "cell": [1, 1],
            "reason": "not_charged",
            "round": 1,
            "t": 101,
            "ref": 3,
        }
    ]


def test_timer_book_follows_the_board_and_replay_reproduces_a_local_match() -> None:
    lobby, clock = make_lobby(
        round_ms=4000, rounds_to_win=2, max_rounds=3, spawn_min_ms=300, spawn_max_ms=600
    )
    peer = connect(lobby)
    say(lobby, peer, type="create", mode="local")
    room = peer.room
    rng = random.Random(4)
    for _ in range(20_000):
        if room.phase == "over":
            break
        clock.advance(rng.choice((1, 7, 40, 150)))
        if room.phase == "live":
            seat = rng.choice("XO")
            cell = [rng.randrange(6), rng.randrange(6)]
            say(
                lobby,
                peer,
                type="act",
                seat=seat,
                action=rng.choice(("place", "place", "knockout")),
                cell=cell,
            )
            board = room.session.match.board_text()
            book = room.session.book.to_dict()
            assert {tuple(s["cell"]) for s in book["setting"]} == {
                (r, c) for r in range(6) for c in range(6) if board[r][c] in "xo"
            }
            assert {tuple(s["cell"]) for s in book["craters"]} == {
                (r, c) for r in range(6) for c in range(6) if board[r][c] == "#"
            }
            assert {tuple(s["cell"]) for s in book["powerups"]} == {
                (r, c) for r in range(6) for c in range(6) if board[r][c] in "BFHS"
            }
    assert room.phase == "over"
    end = peer.take("match_end")[-1]
    replay = lobby.replays.get(end["replay_id"])
    result = run_scenario(load_scenario(json.loads(json.dumps(replay))), Match)
    assert result["rounds"] == end["rounds"] == replay["expect"]["rounds"]
    assert result["round_wins"] == end["round_wins"]
    assert result["match"] == end["result"]
    seqs = [m["seq"] for m in peer.out if m["type"] == "events"]
    assert seqs == sorted(seqs)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_bot_plays_on_the_clock_and_its_match_replays(level: str) -> None:
    lobby, clock = make_lobby(round_ms=2500, rounds_to_win=1, max_rounds=2)
    peer = connect(lobby)
    say(lobby, peer, type="create", mode="bot", bot=level, symbol="X")
    room = peer.room
    for _ in range(2000):
        if room.phase == "over":
            break
        clock.advance(20)
    assert room.phase == "over"
    placed = [e for m in peer.take("events") for e in m["events"] if e["kind"] == "placed"]
    assert placed and all(e["player"] == "O" for e in placed)
    reaction = room.seats[1].bot.reaction_ms
    assert placed[0]["t"] >= reaction  # R4: like a person, after its reaction delay
    end = peer.take("match_end")[0]
    replay = lobby.replays.get(end["replay_id"])
    result = run_scenario(load_scenario(replay), Match)
    assert result["rounds"] == end["rounds"]
    assert room.votes == [False, True]  # the bot always agrees to a rematch


def test_grace_resume_then_forfeit_and_expiry() -> None:
    lobby, clock = make_lobby(round_ms=30_000)
    a, b = connect(lobby), connect(lobby)
    say(lobby, a, type="create", mode="online", symbol="O", name="Ann")
    joined = a.take("joined")[0]
    assert joined["seats"] == ["O"]
    say(lobby, b, type="join", code=joined["room"].lower())
    assert b.take("joined")[0]["seats"] == ["X"]
    room = a.room
    assert room.phase == "live"
    lobby.disconnected(a)
    presence = b.take("presence")[-1]
    assert (
        presence["players"]["O"]["connected"] is False and presence["players"]["O"]["grace_until"]
    )
    clock.advance(999)
    a2 = connect(lobby)
    say(lobby, a2, type="resume", token=joined["token"])
    assert a2.take("joined")[0]["seats"] == ["O"] and a2.take("state")[0]["phase"] == "live"
    lobby.disconnected(a2)
    clock.advance(1000)
    end = b.take("match_end")[0]
    assert end["by"] == "forfeit" and end["result"] == "X" and end["forfeited_by"] == "O"
    a3 = connect(lobby)
    say(lobby, a3, type="resume", token=joined["token"])
    assert a3.take("error")[0]["code"] == "bad_token"
    lobby.disconnected(b)
    clock.advance(1000)
    assert room.code not in lobby.rooms and not lobby.tokens


def test_waiting_room_closes_when_its_creator_is_gone_and_rematch_needs_both() -> None:
    lobby, clock = make_lobby()
    a = connect(lobby)
    say(lobby, a, type="create", mode="online")
    code = a.take("joined")[0]["room"]
    lobby.disconnected(a)
    clock.advance(1000)
    assert code not in lobby.rooms
    # Rematch: a one-round match that times out.
    lobby, clock = make_lobby(round_ms=500, max_rounds=1)
    a, b = connect(lobby), connect(lobby)
    say(lobby, a, type="create", mode="online")
    code = a.take("joined")[0]["room"]
    say(lobby, b, type="join", code=code)
    say(lobby, a, type="rematch", agree=True)
    assert a.take("error")[0]["code"] == "match_not_over"
    clock.advance(500)
    room = a.room
    assert room.phase == "over"
    first = room.match_id
    say(lobby, a, type="rematch", agree=True)
    assert b.take("rematch")[-1]["votes"] == {"X": True, "O": False}
    assert room.phase == "over"
    say(lobby, b, type="rematch", agree=True)
    assert room.phase == "live" and room.match_id != first


def test_intents_waiting_at_a_round_end_are_refused_not_carried_over() -> None:
    lobby, clock = make_lobby(powerup_max=0, round_ms=3000)
    peer = connect(lobby)
    say(lobby, peer, type="create", mode="local")
    room = peer.room
    peer.take()
    clock.advance(2999)
    # Two intents of X in the last ms: the first is applied, the second must wait a ms,
    # and by then the round is over.
    room.session.pending += [
        Intent(0, action_code(Action.place((0, 0))), 1, peer),
        Intent(0, action_code(Action.place((1, 1))), 2, peer),
    ]
    room.tick()
    clock.advance(1)
    assert room.session.match.round_over or room.session.match.round == 2
    refused = peer.take("rejected")
    assert [(m["ref"], m["reason"]) for m in refused] == [(2, "round_over")]
    clock.advance(10)
    assert (
        room.session.match.round == 2
        and "x" not in "".join(room.session.match.board_text()).lower()
    )


def test_refused_clicks_are_answered_without_growing_the_replay() -> None:
    lobby, clock = make_lobby(powerup_max=0)
    peer = connect(lobby)
    say(lobby, peer, type="create", mode="local")
    room = peer.room
    peer.take()
    clock.advance(10)
    say(lobby, peer, type="act", seat="X", action="place", cell=[0, 0])
    for ms in range(1, 40):  # not charged: every one of these is refused
        clock.advance(1)
        say(lobby, peer, type="act", seat="X", action="place", cell=[1, ms % 6])
    assert len(peer.take("rejected")) == 39
    assert len(room.session.match.to_scenario()["script"]) == 1
