"""One process or a cluster: the one place where the web layer's behaviour differs.

:func:`scope_for` picks a :class:`Scope` once, when the app is built:
:class:`LocalScope` for a process alone, :class:`ClusterScope` when
``settings.redis_url`` makes it one process of several (:mod:`.cluster`). The HTTP
routes, the WebSocket endpoint, the replay frames and the lifespan ask the scope and
never which one it is (issue 27, item 4: ``create_app`` asked ``cluster is not None`` a
dozen times). Generic: nothing here names a game.
"""

from __future__ import annotations

from typing import Any, Collection, Dict, Optional

from . import protocol as P
from .cluster import Cluster
from .lobby import Lobby
from .replay_store import REPLAY_ID
from .settings import Settings
from .ws_peer import WsPeer

__all__ = ["Scope", "LocalScope", "ClusterScope", "scope_for"]


class Scope:
    """What the web layer asks of where its rooms, limits and replays are. The answers
    here are a process's alone (nothing shared, nothing routed, no wait on anything);
    :class:`ClusterScope` overrides each. Every method runs on the event loop."""

    cluster: Optional[Cluster] = None

    def __init__(self, lobby: Lobby, conns_by_address: Optional[Dict[str, int]] = None) -> None:
        self.lobby = lobby
        # This process's live WebSockets per client address (the per-address bound; a
        # cluster's heartbeat publishes the same table).
        self.conns_by_address: Dict[str, int] = {} if conns_by_address is None else conns_by_address

    async def start(self) -> None:
        """Before the first request."""

    async def close(self) -> None:
        """After the last one (the rooms are closed already)."""

    def health(self) -> Dict[str, Any]:
        """What ``/healthz`` says besides the process's own counts."""
        return {}

    def origins(self) -> Collection[str]:
        """Pages of other servers whose WebSockets are welcome here (``origin_allowed``)."""
        return ()

    def deadline(self) -> Optional[float]:
        """The loop time by which a handshake or message starting now stops waiting for
        shared state (None: it never waits)."""
        return None

    async def take(
        self,
        kind: str,
        address: str,
        rate_per_s: float,
        burst: int,
        deadline: Optional[float] = None,
    ) -> float:
        """A token of the address's shared ``kind`` bucket (after this process's own
        bucket gave one): 0.0, or the seconds to wait (refused)."""
        return 0.0

    async def held_elsewhere(self, kind: str, address: str, deadline: Optional[float]) -> int:
        """How many ``kind`` (``conns``) the address holds on the other processes."""
        return 0

    async def replay(self, replay_id: str) -> Optional[str]:
        """A replay this process does not have, as its text, or None."""
        return None

    async def dispatch(self, peer: WsPeer, msg: P.ClientMessage) -> None:
        """One validated client message: the lobby handles it."""
        self.lobby.handle(peer, msg)

    def connections_from(self, address: str) -> int:
        return self.conns_by_address.get(address, 0)

    def connection_opened(self, address: str) -> None:
        self.conns_by_address[address] = self.conns_by_address.get(address, 0) + 1
        self.counts_changed(address)

    def connection_closed(self, address: str) -> None:
        self.conns_by_address[address] -= 1
        if not self.conns_by_address[address]:
            del self.conns_by_address[address]
        self.counts_changed(address)

    def counts_changed(self, address: str) -> None:
        """The address's connection count here changed."""


class LocalScope(Scope):
    """A process alone (no ``--redis-url``): every room is here, every limit its own."""


class ClusterScope(Scope):
    """One process of a cluster (:class:`~.cluster.Cluster`, over Redis): a message for
    a room of another process is sent on there (a ``redirect``), the per-address limits
    and counts are shared, and so are the finished matches' replays."""

    def __init__(self, lobby: Lobby, cluster: Cluster) -> None:
        super().__init__(lobby, cluster.conns_by_address)
        self.cluster: Cluster = cluster

    async def start(self) -> None:
        await self.cluster.start()

    async def close(self) -> None:
        await self.cluster.close()

    def health(self) -> Dict[str, Any]:
        cluster = self.cluster
        return {
            "process": cluster.process,
            "processes": len(cluster.processes),
            "reachable": cluster.reachable,
        }

    def origins(self) -> Collection[str]:
        return self.cluster.origins()

    def deadline(self) -> Optional[float]:
        # One bound for a handshake's or a create's whole wait on Redis (REQUEST_S).
        return self.cluster.deadline()

    async def take(
        self,
        kind: str,
        address: str,
        rate_per_s: float,
        burst: int,
        deadline: Optional[float] = None,
    ) -> float:
        return await self.cluster.take(kind, address, rate_per_s, burst, deadline)

    async def held_elsewhere(self, kind: str, address: str, deadline: Optional[float]) -> int:
        return await self.cluster.held(kind, address, 0, deadline)

    async def replay(self, replay_id: str) -> Optional[str]:
        if not REPLAY_ID.match(replay_id):
            return None
        return await self.cluster.replay(replay_id)  # a match another process hosted

    async def dispatch(self, peer: WsPeer, msg: P.ClientMessage) -> None:
        """The room may be another process's: sent on there. One bound for the message's
        whole wait on Redis (REQUEST_S): a create's starts here (its answer waits for
        the directory too), a join's in route; an act, ping or sync waits for nothing."""
        cluster = self.cluster
        deadline = cluster.deadline() if msg.type == "create" else None
        try:
            if await cluster.route(peer, msg, deadline):
                return
        except P.ProtocolError as exc:
            peer.send(exc.to_dict())
            return
        if msg.type != "create":
            self.lobby.handle(peer, msg)
            return
        # The answer (the room's code) waits until the room is in the directory: a
        # friend's join through another process finds it.
        peer.held = []
        self.lobby.handle(peer, msg)
        await cluster.published(cluster.deadline(deadline))
        peer.release()

    def counts_changed(self, address: str) -> None:
        self.cluster.counts_changed("conns", address)


def scope_for(settings: Settings, lobby: Lobby) -> Scope:
    """The scope of a server of ``settings``: a cluster's with ``redis_url``."""
    if settings.redis_url:
        return ClusterScope(lobby, Cluster(settings, lobby))
    return LocalScope(lobby)
