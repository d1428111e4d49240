"""What the processes of a cluster share in Redis besides the room directory
(docs/server.md, "More than one process"): the per-address limits and the replays.

- :class:`SharedBuckets`: a token bucket per address and kind (new connections, room
  creations, engine-running requests), kept in Redis and taken by one Lua script, so an
  address has one bucket across every process. The script reads Redis' own clock
  (``TIME``): processes on machines whose clocks differ still share one refill rate.
- :class:`SharedCounts`: what one address holds now (connections, live rooms), counted
  per process in a hash that expires with the process: a process that dies takes its
  counts with it, and nobody has to clean up after it.
- :class:`SharedReplays`: finished matches' replay files, so that ``/replays/{id}``
  answers from any process; the oldest go first once they pass a size cap in bytes.

Also the names a cluster is known by: its key prefix (:func:`cluster_prefix`), a
process's WebSocket URL (:func:`ws_url_of`), and the CLI's check that Redis answers.

Every method is a coroutine on ``redis.asyncio``; a Redis error propagates (the caller,
:mod:`.cluster`, decides what a refusal or a lost Redis means). Generic: nothing here
names a game.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple
from urllib.parse import urlsplit

__all__ = [
    "SharedBuckets",
    "SharedCounts",
    "SharedReplays",
    "parse_processes",
    "cluster_prefix",
    "ws_url_of",
    "check_redis",
]

_TAKE = """
-- KEYS[1]: the bucket; ARGV: rate (tokens a second), burst. Returns {taken, wait_ms}.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate = tonumber(ARGV[1]) / 1000
local burst = tonumber(ARGV[2])
local held = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(held[1]) or burst
local at = tonumber(held[2]) or now
tokens = math.min(burst, tokens + (now - at) * rate)
local taken = 0
if tokens >= 1 then
  tokens = tokens - 1
  taken = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
-- Forgotten once full again: the table is only as big as the active addresses.
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate) + 1000)
local wait = 0
if taken == 0 then wait = math.ceil((1 - tokens) / rate) end
return {taken, wait}
"""

_PUT_REPLAY = """
-- KEYS[1]: the index (id by time), KEYS[2]: the bytes held; ARGV: prefix, id, json, cap.
local prefix, id, body, cap = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local t = redis.call('TIME')
local old = redis.call('STRLEN', prefix .. id)
redis.call('SET', prefix .. id, body)
redis.call('ZADD', KEYS[1], tonumber(t[1]) + tonumber(t[2]) / 1e6, id)
local total = redis.call('INCRBY', KEYS[2], #body - old)
while total > cap do
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0)[1]
  if not oldest or oldest == id then break end
  local size = redis.call('STRLEN', prefix .. oldest)
  redis.call('DEL', prefix .. oldest)
  redis.call('ZREM', KEYS[1], oldest)
  total = redis.call('DECRBY', KEYS[2], size)
end
return total
"""


class SharedBuckets:
    """Token buckets in Redis, one per (kind, address): :meth:`take` one or be refused."""

    def __init__(self, redis: Any, prefix: str) -> None:
        self.prefix = prefix
        self.script = redis.register_script(_TAKE)

    async def take(self, kind: str, address: str, rate_per_s: float, burst: int) -> float:
        """Take a token: 0.0 when taken, else the seconds until one is there again."""
        taken, wait_ms = await self.script(
            keys=[f"{self.prefix}bucket:{kind}:{address}"], args=[rate_per_s, burst]
        )
        return 0.0 if int(taken) else max(0.001, int(wait_ms) / 1000.0)


class SharedCounts:
    """What addresses hold now (``kind``: ``conns`` or ``rooms``), per process.

    Each process writes only its own hash (``{prefix}{kind}:{process}``, address →
    count, a mirror of its own tables: the changed addresses on each flush, all of them
    on each refresh); the total for an address is the sum over the
    live processes. The hashes expire with their process (:meth:`keep_alive` on every
    heartbeat)."""

    def __init__(self, redis: Any, prefix: str, process: str, ttl_ms: int) -> None:
        self.redis = redis
        self.prefix = prefix
        self.process = process
        self.ttl_ms = ttl_ms

    def _key(self, kind: str, process: str) -> str:
        return f"{self.prefix}{kind}:{process}"

    def mirror(self, pipe: Any, kind: str, counts: Dict[str, int]) -> None:
        """Rewrite this process's hash of ``kind`` from its own table (idempotent: a
        write lost to an outage is made good by the next one)."""
        key = self._key(kind, self.process)
        held = {a: n for a, n in counts.items() if n > 0}
        pipe.delete(key)
        if held:
            pipe.hset(key, mapping=held)
            pipe.pexpire(key, self.ttl_ms)

    def update(self, pipe: Any, kind: str, counts: Dict[str, int], addresses: Set[str]) -> None:
        """Write only ``addresses``' counts (a change); the hash's TTL again."""
        if not addresses:
            return
        key = self._key(kind, self.process)
        for address in addresses:
            if counts.get(address, 0) > 0:
                pipe.hset(key, address, counts[address])
            else:
                pipe.hdel(key, address)
        pipe.pexpire(key, self.ttl_ms)

    async def total(self, kind: str, address: str, processes: Sequence[str]) -> int:
        """The address's count summed over ``processes`` (the live ones)."""
        pipe = self.redis.pipeline(transaction=False)
        for process in processes:
            pipe.hget(self._key(kind, process), address)
        return sum(int(v) for v in await pipe.execute() if v is not None)

    def keep_alive(self, pipe: Any, kinds: Sequence[str] = ("conns", "rooms")) -> None:
        for kind in kinds:
            pipe.pexpire(self._key(kind, self.process), self.ttl_ms)

    def forget(self, pipe: Any, kinds: Sequence[str] = ("conns", "rooms")) -> None:
        for kind in kinds:
            pipe.delete(self._key(kind, self.process))


class SharedReplays:
    """Replay files by match id in Redis, at most ``cap_bytes`` of them (oldest out)."""

    def __init__(self, redis: Any, prefix: str, cap_bytes: int) -> None:
        self.redis = redis
        self.prefix = f"{prefix}replay:"
        self.index = f"{prefix}replays"
        self.held = f"{prefix}replay_bytes"
        self.cap = cap_bytes
        self.script = redis.register_script(_PUT_REPLAY)

    async def put(self, match_id: str, text: str) -> int:
        """Store one replay (compact JSON text); the bytes held afterwards."""
        return int(
            await self.script(
                keys=[self.index, self.held], args=[self.prefix, match_id, text, self.cap]
            )
        )

    async def get(self, match_id: str) -> Optional[str]:
        found = await self.redis.get(self.prefix + match_id)
        return None if found is None else str(found)

    async def stats(self) -> Tuple[int, int]:
        """(replays held, bytes held)."""
        count, held = await self.redis.zcard(self.index), await self.redis.get(self.held)
        return int(count), int(held or 0)


def parse_processes(ids: List[str], infos: List[Optional[str]]) -> Dict[str, Dict[str, Any]]:
    """The live processes' records from ``ZRANGE`` ids and their ``MGET`` values (a
    process whose record expired is dead)."""
    import json

    out: Dict[str, Dict[str, Any]] = {}
    for process, info in zip(ids, infos, strict=True):
        if info is not None:
            out[process] = json.loads(info)
    return out


def cluster_prefix(game: Any) -> str:
    """The key prefix of a game's cluster: its name and a digest of its rules."""
    rules = json.dumps(game.rules.to_dict(), sort_keys=True).encode()
    return f"tictacblitz:{game.type.name}:{hashlib.sha256(rules).hexdigest()[:10]}:"


def ws_url_of(public_url: str) -> str:
    """The WebSocket URL of a process reached at ``public_url`` (http→ws, https→wss)."""
    parts = urlsplit(public_url.rstrip("/"))
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}{parts.path}/ws"


def check_redis(url: str, timeout_s: float = 3.0) -> Optional[str]:
    """None if Redis answers at ``url``, else one line saying why (for the CLI)."""
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=timeout_s)
        client.ping()
        client.close()
    except (redis.RedisError, OSError, ValueError) as exc:
        return f"--redis {url}: Redis does not answer ({exc})"
    return None
