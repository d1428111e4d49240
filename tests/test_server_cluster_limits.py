"""The cluster's bounds without a Redis to lean on (server/cluster.py): a hung Redis
stalls no client message or handshake beyond ``REQUEST_S``, and replays waiting for
an absent Redis stay as many as the local store keeps. A Redis that never answers is
a stand-in here (every call waits forever), so the bounds are what ends each call.
The real-Redis tests are tests/test_server_cluster.py."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("blitz_core.blitz")

from server_support import Peer
from tictacblitz.games import load_game
from tictacblitz.server import cluster as cluster_module
from tictacblitz.server.clock import ManualClock
from tictacblitz.server.cluster import Cluster
from tictacblitz.server.lobby import Lobby
from tictacblitz.server.settings import Settings


class HungRedis:
    """Every command waits forever, as a Redis stopped mid-flight does."""

    async def _forever(self, *args, **kwargs):
        await asyncio.Event().wait()

    def __getattr__(self, name):
        return self._forever

    def register_script(self, text):
        return self._forever

    def pipeline(self, transaction=False):
        return HungPipeline()


class HungPipeline:
    """Commands queue; ``execute`` waits forever."""

    def __getattr__(self, name):
        return lambda *args, **kwargs: None

    async def execute(self):
        await asyncio.Event().wait()


def hung_settings() -> Settings:
    """A cluster process's settings whose Redis is never reached (a stand-in answers)."""
    return Settings(
        game=load_game("blitz"),
        redis_url="redis://127.0.0.1:1/0",
        public_url="http://127.0.0.1:9",
        bot_threads=0,
    )


def hung_cluster() -> Cluster:
    settings = hung_settings()
    lobby = Lobby(settings, ManualClock())
    cluster = Cluster(settings, lobby, redis=HungRedis())
    cluster.processes = {"other": {"url": "ws://127.0.0.1:8/ws", "origin": "http://127.0.0.1:8"}}
    return cluster


def test_a_hung_redis_stalls_no_message_and_no_handshake(monkeypatch) -> None:
    monkeypatch.setattr(cluster_module, "REQUEST_S", 0.05)
    cluster = hung_cluster()
    peer = Peer()
    peer.address = "127.0.0.9"
    lobby = cluster.lobby

    async def scenario() -> None:
        # Each would wait for ever without the bound; with it, this process answers.
        assert (
            await cluster.route(peer, lobby.parse('{"type": "create", "mode": "online"}')) is False
        )
        code = '{"type": "join", "code": "ABCDEFGHJK"}'
        assert await cluster.route(peer, lobby.parse(code)) is False
        assert await cluster.take("connect", "127.0.0.9", 5.0, 20) == 0.0
        assert await cluster.held("conns", "127.0.0.9", 3) == 3
        assert await cluster.replay("AAAAAAAAAAAA") is None

    asyncio.run(asyncio.wait_for(scenario(), 10))


def test_replays_waiting_for_redis_are_as_many_as_the_local_store_keeps() -> None:
    cluster = hung_cluster()
    keep = cluster.lobby.replays.keep
    for n in range(keep + 40):
        cluster.lobby.replays.put(f"match{n:08d}", {"n": n})
    waiting = list(cluster._replays)
    assert len(waiting) == keep
    assert waiting[0] == "match00000040" and waiting[-1] == f"match{keep + 39:08d}"


class VirtualClockLoop(asyncio.SelectorEventLoop):
    """An event loop whose clock moves only when nothing is ready to run, and then
    straight to the next timer: a wait on a hung Redis is measured in loop seconds,
    exactly, without being waited for (no wall-clock bound, nothing flaky). Fit only
    for code that does no real I/O (here: the ASGI app, a stand-in Redis)."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def time(self) -> float:
        return self.now

    def _run_once(self) -> None:
        if not self._ready:  # (asyncio's own queues: stable since Python 3.4)
            timers = [h.when() for h in self._scheduled if not h.cancelled()]
            if timers:
                self.now = max(self.now, min(timers))
        super()._run_once()


def test_a_client_waits_for_a_hung_redis_at_most_request_s_in_all(monkeypatch) -> None:
    """Issue 26: with Redis hung, a new connection waited 1.0 s (two Redis calls of
    0.5 s each) and a create 2.5 s (0.5 s to route it, 2 s for its directory entry),
    where docs/server.md says 0.5 s. One deadline now bounds every Redis call of one
    handshake or message. The real app on a virtual clock, Redis a stand-in that
    never answers: each wait is exactly ``REQUEST_S``."""
    import redis.asyncio

    from tictacblitz.server.app import create_app

    monkeypatch.setattr(redis.asyncio, "from_url", lambda *args, **kwargs: HungRedis())
    app = create_app(hung_settings(), ManualClock())
    # Another live process: the counts over the cluster are asked of Redis.
    app.state.cluster.processes = {"other": {"url": "ws://127.0.0.1:8/ws", "reachable": True}}
    loop = VirtualClockLoop()
    inbox: "asyncio.Queue[dict]" = asyncio.Queue()
    said: list = []  # (loop time, message sent to the client)
    news = asyncio.Event()

    async def receive() -> dict:
        return await inbox.get()

    async def send(message: dict) -> None:
        said.append((loop.time(), message))
        news.set()

    async def sent(kind: str) -> float:
        """The loop time the server sent a message of type ``kind``."""
        while True:
            for at, message in said:
                if json.loads(message.get("text") or "{}").get("type") == kind:
                    return at
            news.clear()
            await news.wait()

    async def scenario() -> tuple:
        scope = {
            "type": "websocket",
            "asgi": {"version": "3.0"},
            "scheme": "ws",
            "path": "/ws",
            "raw_path": b"/ws",
            "query_string": b"",
            "root_path": "",
            "headers": [(b"host", b"127.0.0.1:9")],
            "client": ("127.0.0.9", 50000),
            "server": ("127.0.0.1", 9),
            "subprotocols": [],
            "state": {},
        }
        connected = loop.time()
        await inbox.put({"type": "websocket.connect"})
        serving = asyncio.ensure_future(app(scope, receive, send))
        welcome = await sent("welcome") - connected
        asked = loop.time()
        await inbox.put({"type": "websocket.receive", "text": '{"type":"create","mode":"online"}'})
        joined = await sent("joined") - asked
        await inbox.put({"type": "websocket.disconnect", "code": 1000})
        await serving
        return welcome, joined

    try:
        welcome, joined = loop.run_until_complete(asyncio.wait_for(scenario(), 60))
    finally:
        loop.close()
    assert (welcome, joined) == pytest.approx((cluster_module.REQUEST_S,) * 2, abs=1e-9)
