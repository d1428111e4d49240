"""The cluster's bounds without a Redis to lean on (server/cluster.py): a hung Redis
stalls no client message or handshake beyond ``REQUEST_S``, and replays waiting for
an absent Redis stay as many as the local store keeps. A Redis that never answers is
a stand-in here (every call waits forever), so the bounds are what ends each call.
The real-Redis tests are tests/test_server_cluster.py."""

from __future__ import annotations

import asyncio

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


def hung_cluster() -> Cluster:
    settings = Settings(
        game=load_game("blitz"),
        redis_url="redis://127.0.0.1:1/0",
        public_url="http://127.0.0.1:9",
        bot_threads=0,
    )
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
