"""The server's WebSocket protocol through Starlette's test client (docs/protocol.md).

Time is a ManualClock (no real sleeping); bots decide inline. Every mode, message and
rejection; forged and stolen tokens; floods and malformed frames; reconnection and
forfeit; rematch consent; replay equality; a short smoke run of the load script."""

from __future__ import annotations

import json
import os
import re

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("blitz_core.blitz.engine")

import anyio
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tictacblitz.games import load_game
from tictacblitz.games.blitz import Match
from tictacblitz.games.blitz.scenario import load_scenario, run_scenario
from tictacblitz.server import protocol as P
from tictacblitz.server.app import create_app
from tictacblitz.server.clock import ManualClock
from tictacblitz.server.settings import Settings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def server():
    clock = ManualClock()
    seeds = iter(range(1, 100_000))
    settings = Settings(
        game=load_game(
            "blitz", {"round_ms": 3000, "rounds_to_win": 1, "max_rounds": 2, "powerup_max": 0}
        ),
        pause_ms=0,
        grace_ms=2000,
        bot_threads=0,
        seed_source=seeds.__next__,
    )
    app = create_app(settings, clock)
    with TestClient(app) as client:
        client.sessions = []
        try:
            yield client, clock, app
        finally:
            for ws in client.sessions:
                try:
                    ws.__exit__(None, None, None)
                except BaseException:
                    pass


def recv(ws, timeout: float = 5.0) -> dict:
    async def get():
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(message.get("code", 1000))
    return json.loads(message["text"])


def recv_until(ws, kind: str, limit: int = 200) -> dict:
    for _ in range(limit):
        msg = recv(ws)
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")


def nothing_pending(ws) -> bool:
    def check():
        try:
            ws._send_rx.receive_nowait()
        except anyio.WouldBlock:
            return True
        return False

    return ws.portal.call(check)


def open_ws(client):
    ws = client.websocket_connect("/ws")
    ws.__enter__()
    client.sessions.append(ws)
    welcome = recv(ws)
    assert welcome["type"] == "welcome" and welcome["v"] == P.VERSION
    return ws


def create(ws, **fields) -> dict:
    ws.send_json({"type": "create", **fields})
    joined = recv(ws)
    assert joined["type"] == "joined", joined
    return joined


def test_http_endpoints(server) -> None:
    client, _, _ = server
    page = client.get("/")
    assert page.status_code == 200 and "<html" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/r/ABCDEFGHJK").status_code == 200
    assert client.get("/static/index.html").status_code == 200
    info = client.get("/api/info").json()
    assert info["v"] == 1 and info["bots"] == ["easy", "medium", "hard"]
    assert info["limits"]["max_message_bytes"] == 4096 and info["limits"]["grace_ms"] == 2000
    assert client.get("/healthz").json()["ok"] is True
    assert client.get("/replays/nonexistent-id").status_code == 404
    assert client.get("/replays/..%2F..%2Fetc%2Fpasswd").status_code == 404


def test_docs_list_every_message_and_error_code() -> None:
    with open(os.path.join(ROOT, "docs", "protocol.md"), encoding="utf-8") as fh:
        doc = fh.read()
    for name in list(P.CLIENT_MESSAGES) + list(P.SERVER_MESSAGES):
        assert re.search(rf"### `{name}`", doc), name
    for code in P.ERROR_CODES:
        assert f"| `{code}` |" in doc, code


def test_docs_give_each_games_vocabulary_on_the_wire() -> None:
    """Issue 26: docs/protocol.md covered only Blitz. Its Doh and Rift sections list each
    game's rejection reasons in checking order (D6, G5), its seats, bot levels and fields,
    as the adapters announce them."""
    from tictacblitz.games.doh.types import REASONS as DOH_REASONS
    from tictacblitz.games.rift.types import Reason as RiftReason
    from tictacblitz.server.games import doh, rift

    with open(os.path.join(ROOT, "docs", "protocol.md"), encoding="utf-8") as fh:
        doc = fh.read()
    doh_part = doc.split("## Tic Tac Doh on the wire", 1)[1].split("## Rift & Grid on the wire")[0]
    rift_part = doc.split("## Rift & Grid on the wire", 1)[1].split("## Versioning")[0]

    def listed(text: str, names) -> bool:
        places = [text.find(f"`{n}`") for n in names]
        return -1 not in places and places == sorted(places)

    assert listed(doh_part, DOH_REASONS) and "`not_your_turn`" in doh_part
    assert listed(rift_part, [r.value for r in RiftReason])
    assert json.dumps(list(doh.SEATS)) in doh_part and json.dumps(list(rift.SEATS)) in rift_part
    assert listed(doh_part, doh.BOT_LEVELS) and listed(rift_part, rift.BOT_LEVELS)
    for field in doh.DohAdapter.act_fields:
        assert f'"{field}"' in doh_part
    for field in rift.RiftAdapter.act_fields:
        assert f'"{field}"' in rift_part
    assert "**`private`**" in rift_part


def test_bot_mode_plays_and_replays(server) -> None:
    client, clock, app = server
    ws = open_ws(client)
    joined = create(ws, mode="bot", bot="medium", symbol="O", name="Ann", ref="c1")
    assert joined["ref"] == "c1" and joined["seats"] == ["O"] and joined["role"] == "player"
    assert re.fullmatch(r"http://testserver/r/[0-9A-Z]{10}", joined["link"])
    state = recv(ws)
    assert state["type"] == "state" and state["players"]["X"]["kind"] == "bot"
    assert state["players"]["X"]["level"] == "medium" and state["players"]["O"]["name"] == "Ann"
    for _ in range(400):
        clock.advance(10)
        if app.state.lobby.rooms[joined["room"]].phase == "over":
            break
    end = recv_until(ws, "match_end")
    replay = client.get(end["replay_url"]).json()
    assert replay["match_id"] == end["match_id"] and replay["mode"] == "bot"
    result = run_scenario(load_scenario(replay), Match)
    assert result["rounds"] == end["rounds"] and result["round_wins"] == end["round_wins"]


def test_local_mode_rejections_and_seat_checks(server) -> None:
    client, clock, _ = server
    ws = open_ws(client)
    joined = create(ws, mode="local")
    assert joined["seats"] == ["X", "O"]
    recv_until(ws, "events")  # round_started
    ws.send_json({"type": "act", "action": "place", "cell": [0, 0]})
    assert recv(ws)["code"] == "seat_required"
    ws.send_json({"type": "act", "action": "place", "cell": [0, 0], "seat": "X", "ref": 1})
    placed = recv(ws)
    assert placed["type"] == "events" and placed["events"][0]["kind"] == "placed"
    clock.advance(1)
    ws.send_json({"type": "act", "action": "place", "cell": [0, 0], "seat": "O", "ref": 2})
    assert recv(ws) == {
        "type": "rejected",
        "seat": "O",
        "action": "place",
        "cell": [0, 0],
        "reason": "occupied",
        "round": 1,
        "t": 1,
        "ref": 2,
    }
    clock.advance(1)
    ws.send_json({"type": "act", "action": "place", "cell": [1, 1], "seat": "X", "ref": 3})
    assert recv(ws)["reason"] == "not_charged"
    clock.advance(1)
    ws.send_json({"type": "act", "action": "knockout", "cell": [3, 3], "seat": "O", "ref": 4})
    assert recv(ws)["reason"] == "not_opponent_mark"
    clock.advance(1)
    ws.send_json({"type": "act", "action": "knockout", "cell": [0, 0], "seat": "O"})
    knocked = recv(ws)
    assert knocked["events"][0]["kind"] == "knocked_out"
    clock.advance(500)
    ws.send_json({"type": "act", "action": "place", "cell": [0, 0], "seat": "X"})
    assert recv_until(ws, "rejected")["reason"] == "crater"
    clock.advance(3000)  # the round times out: a draw, round 2 follows
    ws.send_json({"type": "sync", "ref": 9})
    state = recv_until(ws, "state")
    while "ref" not in state:
        state = recv_until(ws, "state")
    assert state["ref"] == 9 and state["round"] == 2
    ws.send_json({"type": "ping", "ref": 10})
    pong = recv_until(ws, "pong")
    assert pong["server_ms"] == clock.now_ms() and pong["round"] == 2


def test_online_join_watch_spectator_and_presence(server) -> None:
    client, clock, _ = server
    a, b, s = open_ws(client), open_ws(client), open_ws(client)
    joined = create(a, mode="online", symbol="X")
    assert recv(a)["phase"] == "waiting"
    code = joined["room"]
    s.send_json({"type": "watch", "code": code[:5].lower() + "-" + code[5:]})
    watched = recv(s)
    assert watched["role"] == "spectator" and "token" not in watched and watched["seats"] == []
    assert recv(s)["you"] == {"role": "spectator", "seats": []}
    assert recv_until(a, "presence")["spectators"] == 1
    b.send_json({"type": "join", "code": code, "name": "Bob"})
    assert recv(b)["seats"] == ["O"]
    c = open_ws(client)
    c.send_json({"type": "join", "code": code})
    full = recv(c)
    c.send_json({"type": "join", "code": "0000000000"})
    unknown = recv(c)
    # A live room with no free seat says so (issue 26, item 7: it said "no room with that
    # code", which `watch` contradicts); an unknown code is still unknown.
    assert full["code"] == "room_full" and "match is full" in full["message"]
    assert unknown["code"] == "room_not_found"
    s.send_json({"type": "act", "action": "place", "cell": [0, 0]})
    assert recv_until(s, "error")["code"] == "not_a_player"
    b.send_json({"type": "act", "action": "place", "cell": [0, 0], "seat": "X"})
    assert recv_until(b, "error")["code"] == "not_your_seat"
    a.send_json({"type": "act", "action": "place", "cell": [2, 2]})
    ev = recv_until(s, "events")
    while ev["events"][0]["kind"] != "placed":
        ev = recv_until(s, "events")
    assert ev["events"][0]["player"] == "X"
    a.send_json({"type": "create", "mode": "local"})
    assert recv_until(a, "error")["code"] == "already_in_room"
    local = open_ws(client)
    joined_local = create(local, mode="local")
    c.send_json({"type": "join", "code": joined_local["room"]})
    assert recv(c) == full  # a local match has no free seat either


@pytest.mark.parametrize(
    "frame, code",
    [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_json"),
        ('{"type": "act", "action": "place", "cell": [0, 0], "v": 2}', "bad_version"),
        ('{"type": "teleport"}', "unknown_type"),
        ('{"kind": "act"}', "unknown_type"),
        ('{"type": "act", "action": "place", "cell": "a1"}', "bad_field"),
        ('{"type": "act", "action": "place", "cell": [0, true]}', "bad_field"),
        ('{"type": "act", "action": "place", "cell": [0, 9]}', "bad_field"),
        ('{"type": "act", "action": "fly", "cell": [0, 0]}', "bad_field"),
        ('{"type": "act", "action": "place"}', "bad_field"),
        ('{"type": "act", "action": "place", "cell": [0, 0], "extra": 1}', "bad_field"),
        ('{"type": "create", "mode": "bot"}', "bad_field"),
        ('{"type": "rematch", "agree": "yes"}', "bad_field"),
        ('{"type": "ping", "ref": [1]}', "bad_field"),
        ('{"type": "ping", "pad": "' + "x" * 5000 + '"}', "too_large"),
        ('{"type": "act", "action": "place", "cell": [0, NaN]}', "bad_json"),
    ],
)
def test_malformed_frames_get_an_error_and_change_nothing(server, frame: str, code: str) -> None:
    client, clock, _ = server
    ws = open_ws(client)
    create(ws, mode="online")
    before = recv(ws)
    ws.send_text(frame)
    error = recv(ws)
    assert error["type"] == "error" and error["code"] == code, error
    ws.send_json({"type": "sync"})
    after = recv(ws)
    assert after["board"] == before["board"] and after["seq"] == before["seq"]


def test_binary_frames_and_outside_a_room(server) -> None:
    client, _, _ = server
    ws = open_ws(client)
    ws.send_bytes(b'{"type": "ping"}')
    assert recv(ws)["code"] == "bad_frame"
    for message in (
        {"type": "act", "action": "place", "cell": [0, 0]},
        {"type": "rematch", "agree": True},
        {"type": "leave"},
        {"type": "sync"},
    ):
        ws.send_json(message)
        assert recv(ws)["code"] == "not_in_room"


def test_forged_and_stolen_tokens(server) -> None:
    client, clock, _ = server
    a, b = open_ws(client), open_ws(client)
    joined = create(a, mode="online", symbol="X")
    b.send_json({"type": "join", "code": joined["room"]})
    joined_b = recv(b)
    other = open_ws(client)
    other.send_json({"type": "resume", "token": joined["token"][:-2] + "AA"})
    assert recv(other)["code"] == "bad_token"
    other.send_json({"type": "resume", "token": ""})
    assert recv(other)["code"] == "bad_token"
    # A stolen token moves the seat: the holder is told and closed (4001).
    thief = open_ws(client)
    thief.send_json({"type": "resume", "token": joined_b["token"]})
    assert recv(thief)["seats"] == ["O"]
    assert recv_until(b, "error")["code"] == "seat_taken_over"
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(50):
            recv(b)
    assert closed.value.code == 4001
    # The token of X never acts for O, whoever holds it.
    a.send_json({"type": "act", "action": "place", "cell": [0, 0], "seat": "O"})
    assert recv_until(a, "error")["code"] == "not_your_seat"


def test_flood_is_throttled_then_closed(server) -> None:
    client, _, _ = server
    ws = open_ws(client)
    for _ in range(P.BURST + P.FLOOD_CLOSE_DROPS + 10):
        ws.send_text('{"type": "ping"}')
    kinds = []
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(500):
            msg = recv(ws)
            kinds.append(msg.get("code") or msg["type"])
    assert closed.value.code == 1008
    assert kinds.count("pong") == P.BURST and kinds.count("rate_limited") == 1


def test_reconnect_within_grace_then_forfeit(server) -> None:
    client, clock, app = server
    a, b = open_ws(client), open_ws(client)
    joined = create(a, mode="online", symbol="X")
    b.send_json({"type": "join", "code": joined["room"]})
    recv(b)
    a.__exit__(None, None, None)  # X drops
    presence = recv_until(b, "presence")
    while presence["players"]["X"]["connected"]:
        presence = recv_until(b, "presence")
    clock.advance(1500)
    # X's seat is held for X through the grace: a join says so, with the time left.
    c = open_ws(client)
    c.send_json({"type": "join", "code": joined["room"]})
    held = recv(c)
    assert held["code"] == "room_full", held
    assert "held for its player for 1 s more" in held["message"]
    a2 = open_ws(client)
    a2.send_json({"type": "resume", "token": joined["token"]})
    assert recv(a2)["seats"] == ["X"]
    state = recv(a2)
    assert state["type"] == "state" and state["phase"] == "live" and state["t"] == 1500
    a2.__exit__(None, None, None)
    clock.advance(2000)
    end = recv_until(b, "match_end")
    assert end["by"] == "forfeit" and end["result"] == "O" and end["forfeited_by"] == "X"
    replay = client.get(end["replay_url"]).json()
    assert replay["result"]["by"] == "forfeit"
    assert run_scenario(load_scenario(replay), Match)["rounds"] == end["rounds"]
    b.send_json({"type": "leave"})
    b.send_json({"type": "ping"})
    assert "round" not in recv_until(b, "pong")
    assert joined["room"] not in app.state.lobby.rooms


def test_rematch_needs_both_and_leave_forfeits(server) -> None:
    client, clock, app = server
    a, b = open_ws(client), open_ws(client)
    joined = create(a, mode="online")
    b.send_json({"type": "join", "code": joined["room"]})
    recv(b)
    clock.advance(3000)
    clock.advance(3000)  # two drawn rounds: max_rounds 2
    first = recv_until(a, "match_end")
    assert first["result"] == "draw" and first["by"] == "rounds"
    a.send_json({"type": "rematch", "agree": True})
    assert recv_until(b, "rematch")["votes"] == {"X": True, "O": False}
    b.send_json({"type": "rematch", "agree": True})
    state = recv_until(b, "state")
    assert state["match_id"] != first["match_id"]
    assert state["rematch"] == {"X": False, "O": False}
    b.send_json({"type": "leave"})
    end = recv_until(a, "match_end")
    assert end["by"] == "forfeit" and end["result"] == "X"


def test_load_script_smoke() -> None:
    from tictacblitz.loadtest import run as load
    from tictacblitz.loadtest.cluster import free_port

    with pytest.raises(SystemExit):
        load.main(["--host", "10.0.0.1", "--matches", "1", "--seconds", "1"])
    port = free_port()
    proc = load.start_server(port, [json.dumps({"rules": {"round_ms": 2000}, "pause_ms": 300})])
    try:
        result = anyio.run(load.run_load, "127.0.0.1", port, 3, 5.0, proc.pid, 1.0, 0.5)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert result["matches"] == 3 and result["events"] > 0
    assert result["errors"] == {} and result["lost_events"] == 0 and result["closed_early"] == 0
    assert result["latency_ms"]["p50"] is not None and result["memory"]


def test_bots_in_the_thread_pool_on_the_real_clock() -> None:
    settings = Settings(
        game=load_game("blitz", {"round_ms": 1500, "rounds_to_win": 1, "max_rounds": 1}),
        pause_ms=0,
        bot_threads=1,
    )
    with TestClient(create_app(settings)) as client:
        with client.websocket_connect("/ws") as ws:
            assert recv(ws)["type"] == "welcome"
            ws.send_json({"type": "create", "mode": "bot", "bot": "hard", "symbol": "X"})
            bot_moves = 0
            for _ in range(2000):
                msg = recv(ws)
                if msg["type"] == "events":
                    bot_moves += sum(
                        e["kind"] == "placed" and e["player"] == "O" for e in msg["events"]
                    )
                if msg["type"] == "match_end":
                    break
            assert msg["type"] == "match_end" and bot_moves > 0
            replay = client.get(msg["replay_url"]).json()
            assert run_scenario(load_scenario(replay), Match)["rounds"] == msg["rounds"]


def test_connections_per_address_and_spectators_are_bounded() -> None:
    """One address cannot hold every room, and a room has at most max_spectators."""
    clock = ManualClock()
    settings = Settings(
        game=load_game("blitz", {"round_ms": 3000, "powerup_max": 0}),
        pause_ms=0,
        bot_threads=0,
        max_connections_per_ip=3,
        max_spectators=1,
    )
    with TestClient(create_app(settings, clock)) as client:
        client.sessions = []
        try:
            owner, spectator, third = (open_ws(client) for _ in range(3))
            code = create(owner, mode="online")["room"]
            spectator.send_json({"type": "watch", "code": code})
            assert recv(spectator)["type"] == "joined"
            third.send_json({"type": "watch", "code": code})
            assert recv(third) == {
                "type": "error",
                "code": "spectators_full",
                "message": f"room {code} has 1 spectators already",
            }
            fourth = client.websocket_connect("/ws")
            fourth.__enter__()
            client.sessions.append(fourth)
            refused = recv(fourth)
            assert refused["type"] == "error" and refused["code"] == "too_many_connections"
            with pytest.raises(WebSocketDisconnect):
                recv(fourth)
        finally:
            for ws in client.sessions:
                try:
                    ws.__exit__(None, None, None)
                except BaseException:
                    pass
