"""The server under attack (issue 16): the two holes, reproduced, and the limits that
close them (docs/server.md, "Limits").

1. ``POST /api/replay-events`` was unbounded work: a 158-byte body made the server play
   99 s of a round with a powerup every ms and answer 63 MB after 6 s (peak memory
   424 MB). Now every engine-running request has a work budget enforced while it runs.
2. One address could take every room by creating and abandoning rooms. Now rooms are
   counted per creating address until they close, and creations are rate limited.

Plus: WebSocket ``Origin``, security headers on static files, ``join`` answering as for
an unknown room, bots pausing when no person is connected."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("blitz_core.blitz.engine")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from test_server import create, open_ws, recv
from tictacblitz.games import load_game
from tictacblitz.loadtest.procs import ATTACK_REPLAY
from tictacblitz.server.app import create_app
from tictacblitz.server.budget import BudgetExceeded, WorkBudget, run_budgeted
from tictacblitz.server.clock import ManualClock
from tictacblitz.server.settings import Settings

# The issue 16 attack, as the load tool's --abuse sends it (one source: loadtest/procs.py).
ATTACK_BODY = ATTACK_REPLAY
ATTACK = json.loads(ATTACK_BODY)


def _rss_kib(pid: int, field: str) -> int:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise AssertionError(field)


def _children(pid: int) -> list:
    """The pids of ``pid``'s child processes."""
    import os

    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as fh:
                if int(fh.read().rpartition(")")[2].split()[1]) == pid:
                    found.append(int(entry))
        except (OSError, ValueError):
            pass  # not a process, or gone
    return found


def test_the_replay_attack_is_refused_quickly_with_bounded_memory() -> None:
    """The issue's body against a real server process: before the budget it answered
    200 with 62.8 MB after 6.3 s, the server peaking at 424 MB (from 50). The job's
    workers' forkserver starts with the first job, not with the server (issue 27, CI
    item: it was started with every server, most of which never run a job)."""
    from tictacblitz.loadtest.cluster import free_port
    from tictacblitz.loadtest.run import start_server

    assert len(ATTACK_BODY) <= 200
    port = free_port()
    proc = start_server(port)
    try:
        idle_children = _children(proc.pid)
        before = _rss_kib(proc.pid, "VmHWM")
        started = time.monotonic()
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/replay-events",
            data=ATTACK_BODY,
            headers={"Content-Type": "application/json"},
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=60)
        took = time.monotonic() - started
        body = json.loads(refused.value.read())
        peak = _rss_kib(proc.pid, "VmHWM")
        working_children = _children(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert refused.value.code == 422 and body["error"] == "too_much_work", body
    # Refused at the CPU budget (2 s) or, on a loaded machine where the nice-10 worker
    # gets little CPU, at the wall budget (10 s); never after the 6.3 s of work with
    # its answer. The margin is for the request's own way through a loaded machine.
    assert took < Settings().work_max_wall_s + 20, took
    assert peak - before < 100 * 1024, (before, peak)  # KiB: under 100 MiB more, not 370
    # None before the job (2 before issue 27: the forkserver, its resource tracker);
    # the job started them.
    assert idle_children == [] and len(working_children) >= 1, (idle_children, working_children)


@pytest.fixture
def app():
    settings = Settings(
        game=load_game("blitz", {"round_ms": 3000, "powerup_max": 0}),
        pause_ms=0,
        grace_ms=2000,
        bot_threads=0,
        max_rooms=300,
        work_burst=3,
        connect_burst=400,
    )
    return create_app(settings, ManualClock())


def test_replay_requests_need_json_and_a_small_body(app) -> None:
    with TestClient(app) as client:
        url = "/api/replay-events"
        plain = client.post(url, content=b"{}", headers={"Content-Type": "text/plain"})
        assert plain.status_code == 415 and plain.json()["error"] == "unsupported_media_type"
        # Refused by its Content-Length, before a byte of the body is read.
        declared = client.post(
            url,
            content=b"{}",
            headers={"Content-Type": "application/json", "Content-Length": str(3 * 1024 * 1024)},
        )
        assert declared.status_code == 413 and declared.json()["error"] == "too_large"

        def chunks():  # no Content-Length: refused while it streams in
            for _ in range(40):
                yield b" " * 65536

        streamed = client.post(url, content=chunks(), headers={"Content-Type": "application/json"})
        assert streamed.status_code == 413
        # A body refused while it comes in takes no token: the gate is after the body
        # (issue 26, hole 4); these three take the burst (3 here).
        for _ in range(3):
            bad = client.post(url, content=b"{nope", headers={"Content-Type": "application/json"})
            assert bad.status_code == 400 and bad.json()["error"] == "bad_json"
        # The burst is spent: the next is refused with Retry-After.
        limited = client.post(url, content=b"{}", headers={"Content-Type": "application/json"})
        assert limited.status_code == 429 and limited.json()["error"] == "rate_limited"
        assert int(limited.headers["retry-after"]) >= 1
        # A static file carries the same security headers as the page.
        js = client.get("/static/js/main.js")
        assert (
            js.status_code == 200 and "default-src 'self'" in js.headers["content-security-policy"]
        )
        assert js.headers["x-content-type-options"] == "nosniff"


def test_one_job_per_address_and_a_few_at_once(app) -> None:
    gate = app.state.work_gate
    from tictacblitz.server.replay_events import Refused

    gate.admit("10.0.0.1")
    with pytest.raises(Refused) as busy:
        gate.admit("10.0.0.1")
    assert busy.value.response.status_code == 429 and b'"busy"' in busy.value.response.body
    gate.admit("10.0.0.2")
    with pytest.raises(Refused) as full:  # work_jobs = 2 server-wide
        gate.admit("10.0.0.3")
    assert full.value.response.status_code == 503


def spin() -> None:
    while True:
        pass


def big() -> list:
    return ["x" * 1000] * 10_000


def test_the_budget_stops_work_that_never_checks_it() -> None:
    """A game whose replay code never charges the budget is stopped at its CPU time
    anyway (its worker process runs under RLIMIT_CPU), and an answer over the bytes
    budget is refused."""

    # What stopped it is counted, not timed: the kernel's RLIMIT_CPU (2 s of CPU; the
    # answer says "CPU time"), never the wall budget, which is made too long to matter (at
    # nice 10 on a loaded 2-core machine, 2 s of CPU took over 30 s once: issue 27).
    budget = WorkBudget(max_cpu_s=0.2, max_wall_s=600)
    with pytest.raises(BudgetExceeded, match=r"^more than 0\.2 s of CPU time$"):
        asyncio.run(run_budgeted(f"{__name__}:spin", (), budget))
    with pytest.raises(BudgetExceeded):
        asyncio.run(run_budgeted(f"{__name__}:big", (), WorkBudget(max_bytes=100_000)))


def test_create_and_abort_flood_cannot_fill_the_server(app) -> None:
    """The issue's flood: 310 create-and-abort attempts from one address with
    max_rooms 300. Before the quotas all 300 stayed (in their grace) and a legitimate
    create got server_full; now the address holds at most max_rooms_per_ip rooms."""
    lobby = app.state.lobby
    refused = {}
    with TestClient(app, client=("203.0.113.9", 4000)) as attacker:
        for _ in range(310):
            with attacker.websocket_connect("/ws") as ws:
                recv(ws)
                ws.send_json({"type": "create", "mode": "online"})
                answer = recv(ws)
                if answer["type"] == "error":
                    refused[answer["code"]] = refused.get(answer["code"], 0) + 1
        assert len(lobby.rooms) <= app.state.settings.max_rooms_per_ip
        assert refused.get("too_many_rooms", 0) >= 300 and set(refused) == {"too_many_rooms"}
        # The handshakes themselves are rate limited too (burst 400 here, 20 by default).
        for _ in range(400 - 310):
            with attacker.websocket_connect("/ws") as ws:
                recv(ws)
        with pytest.raises(WebSocketDisconnect):
            with attacker.websocket_connect("/ws") as ws:
                recv(ws)
        honest = TestClient(app, client=("198.51.100.7", 5000))
        honest.sessions = []
        ws = open_ws(honest)
        joined = create(ws, mode="bot", bot="easy")
        assert joined["role"] == "player"
        ws.__exit__(None, None, None)


def test_room_quota_counts_rooms_in_grace_and_the_rate() -> None:
    from test_rooms import FakePeer
    from tictacblitz.server import protocol as P
    from tictacblitz.server.lobby import Lobby

    clock = ManualClock()
    settings = Settings(
        game=load_game("blitz", {"round_ms": 3000}),
        pause_ms=0,
        grace_ms=1000,
        bot_threads=0,
        max_rooms_per_ip=2,
        room_burst=3,
        room_rate_per_s=0.5,
    )
    lobby = Lobby(settings, clock)

    def attempt(address: str) -> dict:
        peer = FakePeer()
        peer.address = address
        lobby.connected(peer)
        lobby.handle(peer, lobby.parse('{"type": "create", "mode": "online"}'))
        answer = peer.out[1]
        lobby.disconnected(peer)  # the room stays, in its creator's grace
        return answer

    assert attempt("a")["type"] == "joined" and attempt("a")["type"] == "joined"
    third = attempt("a")
    assert third["code"] == "too_many_rooms" and "at most 2 rooms" in third["message"]
    assert attempt("b")["type"] == "joined"  # another address is not affected
    clock.advance(1001)  # the graces run out: the rooms close
    assert not lobby.rooms and not lobby.rooms_by_address
    # The rate: a burst of 3 (2 spent), then 0.5 a second.
    assert attempt("a")["type"] == "joined"
    too_fast = attempt("a")
    assert too_fast["code"] == "too_many_rooms" and "try again in" in too_fast["message"]
    clock.advance(2000)
    assert attempt("a")["type"] == "joined"
    assert P.ERROR_CODES["too_many_rooms"]


def _bot_room(game, clock, **create):
    """A lobby of ``game`` on ``clock`` (a 10 s grace), a person's bot room in it (the
    ``create`` fields) and the list each ask of the bot adds to (every game's bot
    decides in a job on the room's runner): ``(lobby, person, room, asked)``."""
    from test_rooms import FakePeer
    from tictacblitz.server.lobby import Lobby

    lobby = Lobby(Settings(game=game, pause_ms=0, grace_ms=10_000, bot_threads=0), clock)
    person = FakePeer()
    lobby.connected(person)
    lobby.handle(person, lobby.parse(json.dumps({"type": "create", "mode": "bot", **create})))
    room = person.room
    asked: list = []
    run_job = room.run_job
    room.run_job = lambda job, done: asked.append(1) or run_job(job, done)
    return lobby, person, room, asked


def _resume(lobby, token: str) -> None:
    """A new connection takes the seat of ``token`` back."""
    from test_rooms import FakePeer

    back = FakePeer()
    lobby.connected(back)
    lobby.handle(back, lobby.parse(json.dumps({"type": "resume", "token": token})))


def test_bots_pause_while_no_person_is_connected() -> None:
    clock = ManualClock()
    game = load_game("blitz", {"round_ms": 30000, "powerup_max": 0})
    lobby, peer, room, asked = _bot_room(game, clock, bot="hard")
    for _ in range(40):
        clock.advance(100)
    assert asked, "the bot plays while its opponent is here"
    token = peer.member.token
    lobby.disconnected(peer)
    asked.clear()
    for _ in range(50):  # 5 s of the 10 s grace
        clock.advance(100)
    assert not asked and room.bots == [None, None]
    _resume(lobby, token)
    for _ in range(40):
        clock.advance(100)
    assert asked, "the bot plays again once its opponent is back"


class _WakeCountingClock(ManualClock):
    """A manual clock that counts the timers set on it and fails a busy loop (a timer
    set again and again in the past) instead of hanging in ``advance``."""

    LIMIT = 10_000

    def __init__(self) -> None:
        super().__init__()
        self.timers = 0

    def call_at(self, when_ms, callback):
        self.timers += 1
        assert self.timers < self.LIMIT, f"{self.timers} timers set: a busy loop"
        return super().call_at(when_ms, callback)


@pytest.mark.parametrize(
    ("game", "seat"),
    [("rift", "X"), ("doh", "second")],  # the bot's seat has a move due at the start
)
def test_an_absent_bots_due_move_does_not_spin_the_timer(game: str, seat: str) -> None:
    """Doh's and Rift's bots wait while nobody is connected, as Blitz's do (above), and
    the room's timer waits with them: before the fix, a bot's move falling due in the
    grace set the room's timer in the past on every firing (a busy loop that held a
    core until someone came back: seen as the server's CPU in the browser tests). Back,
    the overdue bot moves."""
    clock = _WakeCountingClock()
    lobby, peer, room, asked = _bot_room(load_game(game), clock, bot="easy", symbol=seat)
    assert room.live and room.timer.when is not None  # the bot's move is due
    token = peer.member.token
    lobby.disconnected(peer)
    before = clock.timers
    for _ in range(50):  # 5 s of the 10 s grace, past the bot's delay
        clock.advance(100)
    assert not asked and room.bots == [None, None]
    assert clock.timers - before <= 1, f"{clock.timers - before} timers set while nobody is here"
    _resume(lobby, token)
    clock.advance(100)
    assert asked, "the overdue bot moves once its opponent is back"


def test_websocket_origin_is_checked() -> None:
    settings = Settings(
        game=load_game("blitz"), bot_threads=0, allowed_origins=("https://friends.example",)
    )
    with TestClient(create_app(settings, ManualClock())) as client:
        with pytest.raises(WebSocketDisconnect):
            with client.websocket_connect("/ws", headers={"origin": "https://evil.example"}) as ws:
                recv(ws)
        for origin in ("http://testserver", "https://friends.example", None):
            headers = {"origin": origin} if origin else {}
            with client.websocket_connect("/ws", headers=headers) as ws:
                assert recv(ws)["type"] == "welcome"


def test_abuse_scenario_honest_matches_play_on() -> None:
    """The load tool's abuse scenario, short (CI): 20 honest matches, each from its own
    loopback address, while one address floods room creation and replay requests (50
    a second each). No honest client is refused, none is stalled, and the attacker is
    refused."""
    import anyio

    from tictacblitz.loadtest import run as load
    from tictacblitz.loadtest.cluster import free_port

    port = free_port()
    proc = load.start_server(port, [json.dumps({"rules": {"round_ms": 8000}, "pause_ms": 500})])
    try:
        result = anyio.run(
            lambda: load.run_load(
                "127.0.0.1", port, 20, 8.0, proc.pid, 2.0, 2.0, abuse=True, abuse_rate=50.0
            )
        )
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert result["matches"] == 20 and result["honest_refused"] == 0, result
    assert result["errors"] == {} and result["lost_events"] == 0 and result["closed_early"] == 0
    # The 50 ms target is measured with the load tool on an idle machine (docs/server.md,
    # Load); here the bound only catches a server the attack stalls (seconds), since a
    # loaded 2-core CI machine measured p99 183 ms once with nothing wrong.
    assert result["latency_ms"]["p99"] < 1000.0, result["latency_ms"]
    creates, replays = result["abuse"]["creates"], result["abuse"]["replays"]
    # Counted, not timed: the flood must have gone well past the burst the limit allows
    # (8 rooms) and been refused many times. Not "over 100 requests in 8 s": a starved
    # attacker on a loaded CI machine sent 34 (7 joined, 27 refused) with nothing wrong.
    assert creates.get("joined", 0) <= 8 and creates.get("too_many_rooms", 0) >= 20, creates
    assert replays.get("200", 0) == 0 and sum(replays.values()) >= 20, replays


def test_serve_options_for_the_limits(monkeypatch, capsys) -> None:
    from server_support import assert_serve_refuses, serve_parser
    from tictacblitz import server as server_package

    parser = serve_parser()
    assert_serve_refuses(
        parser,
        capsys,
        (
            (["--allow-origin", "evil.example"], "an origin is scheme://host[:port]"),
            (["--max-rooms-per-ip", "0"], "--max-rooms-per-ip 0 is out of range"),
        ),
    )
    seen = {}
    monkeypatch.setattr(
        server_package, "serve", lambda settings, **kw: seen.update(settings=settings)
    )
    args = parser.parse_args(
        ["serve", "--allow-origin", "https://friends.example", "--max-rooms-per-ip", "3"]
    )
    assert args.handler(args) == 0
    assert seen["settings"].allowed_origins == ("https://friends.example",)
    assert seen["settings"].max_rooms_per_ip == 3


def test_without_the_quotas_the_flood_fills_the_server() -> None:
    """The same flood with the per-address quotas switched off (what the server had
    before): the rooms pile up in their grace and a legitimate create from another
    address gets server_full. This is the hole the test above shows closed."""
    settings = Settings(
        game=load_game("blitz", {"round_ms": 3000, "powerup_max": 0}),
        pause_ms=0,
        grace_ms=2000,
        bot_threads=0,
        max_rooms=300,
        max_rooms_per_ip=10**6,
        room_burst=10**6,
        connect_burst=10**6,
    )
    app = create_app(settings, ManualClock())
    with TestClient(app, client=("203.0.113.9", 4000)) as attacker:
        for _ in range(310):
            with attacker.websocket_connect("/ws") as ws:
                recv(ws)
                ws.send_json({"type": "create", "mode": "online"})
                recv(ws)
        assert len(app.state.lobby.rooms) == 300
        honest = TestClient(app, client=("198.51.100.7", 5000))
        honest.sessions = []
        ws = open_ws(honest)
        ws.send_json({"type": "create", "mode": "bot", "bot": "easy"})
        assert recv(ws)["code"] == "server_full"
        ws.__exit__(None, None, None)


def test_with_a_public_url_only_the_configured_origins_are_trusted_not_the_host() -> None:
    """A DNS-rebinding page (issue 26): evil.example resolved to this server sends
    ``Host: evil.example`` and ``Origin: http://evil.example``. Without --public-url the
    Host is all the server knows of its name, so that pair is accepted as before; with
    it, only the public URL's origin (and --allow-origin) are."""
    rebinding = {"host": "evil.example", "origin": "http://evil.example"}
    plain = Settings(game=load_game("blitz"), bot_threads=0)
    with TestClient(create_app(plain, ManualClock())) as client:
        with client.websocket_connect("/ws", headers=rebinding) as ws:
            assert recv(ws)["type"] == "welcome"
    public = Settings(
        game=load_game("blitz"),
        bot_threads=0,
        public_url="https://blitz.example.org",
        allowed_origins=("https://friends.example",),
    )
    with TestClient(create_app(public, ManualClock())) as client:
        with pytest.raises(WebSocketDisconnect) as refused:
            with client.websocket_connect("/ws", headers=rebinding) as ws:
                recv(ws)
        assert refused.value.code == 1008
        for origin in ("https://blitz.example.org", "https://friends.example", None):
            headers = {"host": "evil.example", **({"origin": origin} if origin else {})}
            with client.websocket_connect("/ws", headers=headers) as ws:
                assert recv(ws)["type"] == "welcome"
