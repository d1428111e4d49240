"""More than one server process, through Redis (docs/server.md, "More than one process").

The design is Colyseus': every room belongs to exactly one process; any process answers
``create`` and ``join``/``watch``/``resume`` by code; Redis holds the directory of rooms
and processes; a client whose room is elsewhere gets a ``redirect`` (docs/protocol.md)
and keeps one WebSocket to the hosting process. Seat tokens stay on the hosting process.

What one process keeps in Redis, under a prefix naming the game and a digest of its
rules (processes serving other rules are another cluster, never mixed):

- ``proc:{id}``: its record (WebSocket URL, origin, rooms, connections, draining),
  rewritten every heartbeat with a TTL of a few heartbeats: a process that dies
  disappears from the cluster within ``process_ttl_ms``;
- ``procs``: a sorted set of process ids by room count (the load), for ``create``;
- ``room:{code}``: the room's directory entry (process, URL, mode, phase, players,
  spectators), rewritten every ``room_refresh_s`` with a longer TTL. An entry whose
  process is gone answers ``room_lost`` until it expires;
- the per-address counts, token buckets and replays of :mod:`.cluster_store`.

Writes are queued by the lobby's hooks (synchronous, on the loop) and flushed by one
task; reads happen where a message needs them. When Redis cannot be reached the process
goes on serving its own rooms, and creates rooms itself; it logs the outage once.
Generic: nothing here names a game.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from typing import Any, Dict, List, Optional, Set
from urllib.parse import urlsplit

from . import protocol as P
from .cluster_routing import ROUTED, check_public_url, find_self, route, within
from .cluster_store import (
    SharedBuckets,
    SharedCounts,
    SharedReplays,
    check_redis,
    cluster_prefix,
    parse_processes,
    ws_url_of,
)

__all__ = ["Cluster", "cluster_prefix", "ws_url_of", "check_redis", "check_public_url"]

log = logging.getLogger("tictacblitz.server")
# A client's message or handshake waits at most this long for Redis in all (one
# deadline for every Redis call it makes: :meth:`Cluster.deadline`), then this process
# answers alone (until the heartbeat finds Redis back): a hung Redis stalls nobody.
REQUEST_S = 0.5


class Cluster:
    """This process's membership of a cluster: registration, room directory, routing,
    shared limits and replays. Built by the app when ``settings.redis_url`` is set."""

    def __init__(self, settings: Any, lobby: Any, redis: Any = None) -> None:
        if not settings.public_url:
            raise ValueError("a process of a cluster needs its public URL (--public-url)")
        if redis is None:
            import redis.asyncio as aioredis

            redis = aioredis.from_url(
                settings.redis_url,
                decode_responses=True,
                socket_timeout=2.0,
                socket_connect_timeout=2.0,
            )
        self.redis = redis
        self.settings = settings
        self.lobby = lobby
        self.prefix = cluster_prefix(settings.game)
        self.process = secrets.token_hex(6)
        self.ws_url = ws_url_of(settings.public_url)
        parts = urlsplit(settings.public_url)
        self.origin = f"{parts.scheme}://{parts.netloc}".lower()
        self.processes: Dict[str, Dict[str, Any]] = {}  # live ones, at the last heartbeat
        # Processes that did not answer at their public URL: no creates until (loop time).
        self.silent_processes: Dict[str, float] = {}
        self.buckets = SharedBuckets(redis, self.prefix)
        self.counts = SharedCounts(redis, self.prefix, self.process, settings.process_ttl_ms)
        self.replays = SharedReplays(redis, self.prefix, settings.replay_cap_bytes)
        self.conns_by_address: Dict[str, int] = {}  # the app's live connections per address
        self._opened: Dict[str, Any] = {}  # code: room, to write
        self._closed: Set[str] = set()  # codes to delete
        self._replays: Dict[str, str] = {}  # match id: replay text, to write
        # Addresses whose counts changed, by kind; all of them when ``_counts_all``.
        self._counts: Dict[str, Set[str]] = {"rooms": set(), "conns": set()}
        self._counts_all = True
        self._flushing = asyncio.Lock()  # one flush at a time: writes stay in order
        self._wake: Optional[asyncio.Event] = None
        self._task: Optional["asyncio.Task[None]"] = None
        self.outage = False
        self._stopping = False
        # Whether this process answered at its own public URL: until then no other
        # process sends it creates (a wrong --public-url would take them all).
        self.reachable = False
        self._reach: Optional["asyncio.Task[None]"] = None
        lobby.on_room = self.room_event
        lobby.replays.mirror = self.replay_written

    def key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    # -- what the lobby and the app tell it (synchronous, on the loop) -----------------------

    def room_event(self, room: Any, opened: bool) -> None:
        if opened:
            self._opened[room.code] = room
            self._closed.discard(room.code)
        else:
            self._opened.pop(room.code, None)
            self._closed.add(room.code)
        self.counts_changed("rooms", room.owner_address or "")

    def replay_written(self, match_id: str, text: str) -> None:
        self._replays[match_id] = text
        # Bounded while Redis is away: the newest as many as the local store keeps.
        while len(self._replays) > self.lobby.replays.keep:
            del self._replays[next(iter(self._replays))]
        self._kick()

    def counts_changed(self, kind: str, address: str) -> None:
        """What ``address`` holds of ``kind`` (``rooms``, ``conns``) changed here."""
        self._counts[kind].add(address)
        self._kick()

    async def published(self, deadline: Optional[float] = None) -> None:
        """Rooms opened so far are in the directory. A create's answer waits for this
        (until ``deadline``, the create's own), so that no code is shown before every
        process can find it."""
        if self.outage or not self._opened:
            return
        try:
            await within(self._flush(), self.deadline(deadline))
        except Exception:  # Redis slow or lost: the writer task tries again
            pass

    def deadline(self, given: Optional[float] = None) -> float:
        """The loop time until which a client's handshake or message, starting now,
        may wait for Redis: every Redis call it makes shares it (``REQUEST_S`` in all).
        ``given``: a deadline already running (then that one)."""
        return asyncio.get_running_loop().time() + REQUEST_S if given is None else given

    def _kick(self) -> None:
        if self._wake is not None:
            self._wake.set()

    # -- the writer task ----------------------------------------------------------------------

    async def start(self) -> None:
        """Register (one heartbeat, so the process is in the cluster before it serves),
        then keep the records fresh in a task."""
        self._wake = asyncio.Event()
        await self._beat(refresh_rooms=True)
        self._task = asyncio.create_task(self._run())
        self._reach = asyncio.create_task(self._find_self())

    async def _find_self(self) -> None:
        """Once this process answers at its public URL, the others know (at once)."""
        await find_self(self)
        try:
            await self._beat(refresh_rooms=False, reachable=True)  # the others know now
        except Exception:  # Redis away: the next heartbeat says it
            pass
        self.reachable = True

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        beat_s = self.settings.heartbeat_ms / 1000.0
        next_beat = loop.time() + beat_s
        next_refresh = loop.time() + self.settings.room_refresh_s
        assert self._wake is not None
        # A flag as well as the cancellation: Python 3.10-3.11's wait_for may swallow a
        # cancellation that meets the wake-up it was waiting for (fixed in 3.12).
        while not self._stopping:
            try:
                await asyncio.wait_for(self._wake.wait(), max(0.0, next_beat - loop.time()))
            except asyncio.TimeoutError:
                pass
            self._wake.clear()
            now = loop.time()
            try:
                if now >= next_beat:
                    # After an outage Redis may have lost everything: write it all again.
                    refresh = now >= next_refresh or self.outage
                    await self._beat(refresh_rooms=refresh)
                    next_beat = now + beat_s
                    if refresh:
                        next_refresh = now + self.settings.room_refresh_s
                else:
                    await self._flush()
                if self.outage:
                    log.warning("Redis answers again: back in the cluster")
                    self.outage = False
            except Exception as exc:  # Redis lost: serve our own rooms, try again next beat
                if not self.outage:
                    log.warning("Redis unreachable (%s): serving this process's rooms only", exc)
                    self.outage = True
                next_beat = loop.time() + beat_s
                await asyncio.sleep(beat_s)

    def _entry(self, room: Any) -> str:
        humans = sum(1 for s in room.seats if s.kind == "human")
        return json.dumps(
            {
                "process": self.process,
                "url": self.ws_url,
                "mode": room.mode,
                "phase": room.phase,
                "players": humans,
                "spectators": len(room.spectators),
            },
            separators=(",", ":"),
        )

    async def _flush(self, prelude: Any = None) -> List[Any]:
        """Write what changed since the last flush (rooms, counts, replays), after what
        ``prelude(pipe)`` adds to the same round trip."""
        async with self._flushing:
            return await self._flush_now(prelude)

    async def _flush_now(self, prelude: Any) -> List[Any]:
        pipe = self.redis.pipeline(transaction=False)
        if prelude is not None:
            prelude(pipe)
        opened, closed = dict(self._opened), set(self._closed)
        replays, counts_all = dict(self._replays), self._counts_all
        counts = {kind: set(addresses) for kind, addresses in self._counts.items()}
        ttl = self.settings.room_ttl_s
        for code, room in opened.items():
            pipe.set(self.key("room", code), self._entry(room), ex=ttl)
        for code in closed:
            pipe.delete(self.key("room", code))
        tables = {"rooms": self.lobby.rooms_by_address, "conns": self.conns_by_address}
        if opened or closed or counts_all:
            pipe.zadd(self.key("procs"), {self.process: len(self.lobby.rooms)})
        for kind, table in tables.items():
            if counts_all:
                self.counts.mirror(pipe, kind, table)
            else:
                self.counts.update(pipe, kind, table, counts[kind])
        self._opened.clear()
        self._closed.clear()
        self._replays.clear()
        self._counts_all = False
        for addresses in self._counts.values():
            addresses.clear()
        try:
            answers: List[Any] = await pipe.execute()
            for match_id, text in replays.items():
                await self.replays.put(match_id, text)
            return answers
        except BaseException:
            # Not written: written at the next try (what changed since wins).
            for code, room in opened.items():
                if code not in self._closed:
                    self._opened.setdefault(code, room)
            self._closed |= closed - set(self._opened)
            for match_id, text in replays.items():
                self._replays.setdefault(match_id, text)
            self._counts_all = self._counts_all or counts_all
            for kind, addresses in counts.items():
                self._counts[kind] |= addresses
            raise

    async def _beat(self, refresh_rooms: bool, reachable: Optional[bool] = None) -> None:
        """The heartbeat: this process's record, its load, its counts' TTLs, the other
        processes' records; every ``room_refresh_s`` every room's entry again."""
        record = {
            "url": self.ws_url,
            "origin": self.origin,
            "rooms": len(self.lobby.rooms),
            "connections": self.lobby.connections,
            "draining": self.lobby.draining,
            "reachable": self.reachable if reachable is None else reachable,
        }
        if refresh_rooms:  # every entry and count again: whatever was lost is back
            for code, room in self.lobby.rooms.items():
                self._opened.setdefault(code, room)
            self._counts_all = True

        def prelude(pipe: Any) -> None:
            pipe.set(
                self.key("proc", self.process),
                json.dumps(record),
                px=self.settings.process_ttl_ms,
                get=True,
            )
            pipe.zadd(self.key("procs"), {self.process: len(self.lobby.rooms)})
            self.counts.keep_alive(pipe)

        before = (await self._flush(prelude))[0]
        if before is None and not refresh_rooms:
            # Our record was gone while we were alive: Redis restarted empty (or evicted
            # us). Everything this process holds is written again at once.
            for code, room in self.lobby.rooms.items():
                self._opened.setdefault(code, room)
            self._counts_all = True
            await self._flush()
        await self.read_processes()

    async def read_processes(self) -> Dict[str, Dict[str, Any]]:
        ids = await self.redis.zrange(self.key("procs"), 0, -1)
        infos = await self.redis.mget([self.key("proc", i) for i in ids]) if ids else []
        live = parse_processes(ids, infos)
        dead = [i for i in ids if i not in live]
        if dead:
            await self.redis.zrem(self.key("procs"), *dead)
        self.processes = live
        return live

    async def close(self) -> None:
        """Leave the cluster: the record, the load, the rooms' entries, the counts."""
        self._stopping = True
        if self._reach is not None:
            self._reach.cancel()
        if self._task is not None:
            self._task.cancel()
            try:
                await asyncio.wait_for(self._task, 5.0)
            except (asyncio.CancelledError, Exception):
                pass
        try:
            pipe = self.redis.pipeline(transaction=False)
            for code in list(self.lobby.rooms) + list(self._closed):
                pipe.delete(self.key("room", code))
            pipe.delete(self.key("proc", self.process))
            pipe.zrem(self.key("procs"), self.process)
            self.counts.forget(pipe)
            await pipe.execute()
            for match_id, text in self._replays.items():
                await self.replays.put(match_id, text)
        except Exception as exc:
            log.warning("could not leave the cluster cleanly (%s)", exc)
        await self.redis.aclose()

    # -- what the app asks --------------------------------------------------------------------

    def origins(self) -> Set[str]:
        """The pages of every live process may open WebSockets here (a redirect)."""
        return {str(p.get("origin", "")) for p in self.processes.values()} | {self.origin}

    async def take(
        self,
        kind: str,
        address: str,
        rate_per_s: float,
        burst: int,
        deadline: Optional[float] = None,
    ) -> float:
        """A token of the address's shared bucket: 0.0, or seconds to wait (refused).
        During an outage, or past ``deadline``, the process's own limits are all there is."""
        if self.outage:
            return 0.0
        try:
            return await within(
                self.buckets.take(kind, address, rate_per_s, burst), self.deadline(deadline)
            )
        except Exception:  # Redis lost or slow: this process's own limits
            return 0.0

    async def held(
        self, kind: str, address: str, local: int, deadline: Optional[float] = None
    ) -> int:
        """What ``address`` holds over the cluster: ``local`` here plus the other live
        processes' counts (``local`` alone once ``deadline`` passed)."""
        others = [p for p in self.processes if p != self.process]
        if self.outage or not others:
            return local
        try:
            return local + await within(
                self.counts.total(kind, address, others), self.deadline(deadline)
            )
        except Exception:
            return local

    async def replay(self, match_id: str) -> Optional[str]:
        """A replay in the shared store, as the text written (not parsed here), or None."""
        try:
            text = await within(self.replays.get(match_id), self.deadline())
        except Exception:
            return None
        return None if text is None else str(text)

    async def route(
        self, peer: Any, msg: P.ClientMessage, deadline: Optional[float] = None
    ) -> bool:
        """Send ``msg`` on when another process should answer it: True when answered
        here (a ``redirect``), False when the lobby handles it (:mod:`.cluster_routing`).
        Its Redis calls end by ``deadline`` (the message's: :meth:`deadline`).

        :raises ProtocolError: ``room_lost``, ``server_closing``, ``too_many_rooms``.
        """
        if msg.type not in ROUTED or peer.room is not None:
            return False  # every act, ping, sync...: no task, no Redis (the hot path)
        return await route(self, peer, msg, self.deadline(deadline))
