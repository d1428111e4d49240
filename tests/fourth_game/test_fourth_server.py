"""The server runs the fourth game through its adapter package (server/games/tictactoe/,
one GameAdapter subclass found by the server's adapter lookup) and the generic lobby and
rooms: online with a spectator, rejections, a bot in either seat, rematch, replays (file
and frames)."""

from __future__ import annotations

import json

import pytest
from fourth_game_folders import GAME

from server_support import (
    assert_serve_refuses,
    lobby_for,
    online_room_with_a_spectator,
    serve_parser,
    welcome_of,
)
from tictacblitz.games import ReplayError, load_game
from tictacblitz.server import adapter as server_adapter
from tictacblitz.server import protocol as P
from tictacblitz.server.clock import ManualClock
from tictacblitz.server.settings import Settings

X_WINS = [[0, 0], [1, 0], [0, 1], [1, 1], [0, 2]]  # X: a row (T3)


@pytest.fixture
def room():
    clock = ManualClock()
    lobby, say, connect = lobby_for(load_game(GAME), clock)
    return lobby, clock, say, connect


def test_the_server_finds_the_adapter_by_its_folder() -> None:
    assert GAME in server_adapter.adapter_games()
    game = load_game(GAME)
    adapter = server_adapter.adapter_for(game, Settings(game=game))
    assert type(adapter).__module__ == f"tictacblitz.server.games.{GAME}"
    welcome = welcome_of(GAME, {"misere": True})
    assert welcome["game"]["name"] == GAME and welcome["game"]["time_model"] == "alternating"
    assert welcome["game"]["seats"] == ["X", "O"] and welcome["bots"] == ["random", "greedy"]
    assert welcome["rules"] == {"misere": True}


def test_serve_takes_the_game_and_its_rules_through_the_one_parser(capsys) -> None:
    from tictacblitz import server as server_package

    parser = serve_parser()
    args = parser.parse_args(["serve", "--game", GAME, "--rule", "misere=true"])
    game = server_package.game_from_serve_arguments(args)
    assert game.type.name == GAME and game.rules.misere is True
    assert_serve_refuses(parser, capsys, [(["--game", GAME, "--rule", "size=4"], "size")])


def test_an_online_game_with_rejections_a_spectator_and_a_rematch(room) -> None:
    lobby, clock, say, connect = room
    a, b, s = online_room_with_a_spectator(say, connect, "X")
    assert b.last("joined")["seats"] == ["O"] and a.room.phase == "live"
    say(b, type="act", cell=[1, 1], ref=1)
    assert b.last("rejected") == {
        "type": "rejected",
        "seat": "O",
        "cell": [1, 1],
        "reason": "not_your_turn",
        "ref": 1,
    }
    say(a, type="act", cell=[3, 0], ref=9)
    error = a.last("error")
    assert error["code"] == "bad_field" and "off the 3x3 board" in error["message"]
    with pytest.raises(P.ProtocolError):  # the adapter's act fields, checked on parsing
        lobby.parse(json.dumps({"type": "act", "cell": [1]}))
    for k, cell in enumerate(X_WINS):
        say(a if k % 2 == 0 else b, type="act", cell=cell)
        if k == 1:  # X may not take O's square (T2)
            say(a, type="act", cell=[1, 0], ref=2)
            assert a.last("rejected")["reason"] == "occupied" and a.last("rejected")["ref"] == 2
    frame = s.last("events")
    assert frame["board"] == ["XXX", "OO.", "..."] and frame["result"] == "X"
    assert frame["events"][-1] == {"kind": "end", "result": "X", "line": [0, 1, 2]}
    assert [m["seq"] for m in a.all("events")] == list(range(1, 7))  # start + 5 moves
    assert [m["seq"] for m in s.all("events")] == list(range(2, 7))  # it came after the start
    end = s.last("match_end")
    assert end["result"] == "X" and end["plies"] == 5
    replay = lobby.replays.get(end["replay_id"])
    assert replay["moves"] == [0, 3, 1, 4, 2] and replay["expect"] == {"result": "X"}
    assert load_game(GAME).replay(replay)["result"] == "X"
    say(a, type="act", cell=[2, 2])
    assert a.last("rejected")["reason"] == "game_over"
    say(a, type="rematch", agree=True)
    say(b, type="rematch", agree=True)
    assert a.room.phase == "live" and a.room.match_id != end["match_id"]
    assert a.last("state")["board"] == ["...", "...", "..."]


@pytest.mark.parametrize("symbol", ["X", "O"])
def test_a_game_against_the_greedy_bot_in_either_seat(room, symbol) -> None:
    lobby, clock, say, connect = room
    a = connect()
    say(a, type="create", mode="bot", bot="greedy", symbol=symbol)
    for _ in range(20):
        clock.advance(400)  # the bot answers after its delay
        if a.all("match_end"):
            break
        picture = a.picture()
        if picture["to_move"] == symbol:
            free = [i for i, mark in enumerate("".join(picture["board"])) if mark == "."]
            say(a, type="act", cell=list(divmod(free[0], 3)))
    end = a.last("match_end")
    replay = lobby.replays.get(end["replay_id"])
    bot_seat = "O" if symbol == "X" else "X"
    assert replay["players"][bot_seat]["kind"] == "bot"
    assert end["result"] in (bot_seat, "draw")  # greedy never misses a win in one
    assert load_game(GAME).replay(replay)["result"] == end["result"]
    moves = replay["moves"]
    assert len(moves) == end["plies"] and len(set(moves)) == len(moves)


def test_replay_frames_play_a_file_back_one_frame_a_move() -> None:
    game = load_game(GAME)
    adapter = server_adapter.adapter_for(game, Settings(game=game))
    data = {"game": GAME, "moves": [4, 0, 8, 2, 1, 7, 6, 5, 3]}
    out = adapter.replay_frames(json.loads(json.dumps(data)))
    frames = out["frames"]
    assert len(frames) == 9 and frames[0]["board"] == ["...", ".X.", "..."]
    assert out["match"] == frames[-1]["result"] == game.replay(data)["result"]
    for bad in ({"moves": [4, 4]}, {"moves": "4"}, []):
        with pytest.raises(ReplayError):
            adapter.replay_frames(bad)
