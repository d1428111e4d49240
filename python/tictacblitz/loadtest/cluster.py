"""The load tool over several server processes (``--processes N``; docs/server.md,
"Load", "Over processes"), and what its report says of any number of them.

:class:`Servers` starts one Redis (:func:`.procs.start_redis`) and N servers
registered in it, each with its own ``public_url`` (http://127.0.0.1:PORT_i), waits
until each sees all N, and stops them. :func:`run_match` plays one match whose two
players enter through different processes; :func:`enter` sends a client's first message
(``create``, ``join``) and follows the ``redirect`` answers (docs/protocol.md, "Several
server processes"): a new WebSocket to the url, the same message again. The rest reads
a process's CPU seconds and resident memory from ``/proc`` and summarises latencies.
With one process (the default) no Redis is started and the server is the one of
before. Generic: nothing here names a game. Part of :mod:`.run`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from typing import Any, Dict, List, Optional, Sequence, Tuple, Type
from urllib.parse import urlsplit

try:
    import fcntl
except ImportError:  # no flock (Windows): free_port gives the free port alone
    fcntl = None  # type: ignore[assignment]

from .client import LoadClient
from .procs import start_redis, start_server

__all__ = [
    "Servers",
    "enter",
    "run_match",
    "free_port",
    "rss_mib",
    "cpu_s",
    "percentiles",
    "latency_windows",
    "process_report",
    "MAX_PROCESSES",
    "MAX_HOPS",
]

MAX_PROCESSES = 8
MAX_HOPS = 3  # redirects in a row before a client gives up (a misconfigured cluster)
JOIN_RETRIES = 5  # joins of a room_not_found again, 50 ms apart (see run_match)


# The ports free_port handed out, each with its lock held for this process's life.
_PORT_LOCKS: List[Any] = []
PORT_TRIES = 100


def free_port() -> int:
    """A loopback port that is free now and that no other process calling this function
    gets while this one lives. A free port alone left a window, between the check and a
    server's bind, in which another process could get the same port and bind it first
    (three pytest workers did: a test's server found another test's on its port). So each
    port handed out is also locked (``flock`` on a file named for it in the temporary
    directory's ``tictacblitz-ports/``), the lock held until this process ends (the system
    frees it then, whatever the end)."""
    lock_dir = os.path.join(tempfile.gettempdir(), "tictacblitz-ports")
    if fcntl is not None:
        os.makedirs(lock_dir, exist_ok=True)
    for _ in range(PORT_TRIES):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        if fcntl is None:
            return port
        lock = open(os.path.join(lock_dir, str(port)), "a")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # another process (or an earlier call of this one) has it
            lock.close()
            continue
        _PORT_LOCKS.append(lock)
        return port
    raise RuntimeError(f"no loopback port free and unlocked in {PORT_TRIES} tries")


def rss_mib(pid: int) -> float:
    """A process's resident memory (MiB), NaN once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return float("nan")


def cpu_s(pid: int) -> float:
    """A process's CPU time so far (user + system, s), NaN once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return float("nan")
    # After the command: state is field 3, utime and stime fields 14 and 15.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentiles(values: Sequence[float]) -> Dict[str, Optional[float]]:
    lat = sorted(values)

    def pct(q: float) -> Optional[float]:
        return round(lat[min(len(lat) - 1, int(q * len(lat)))], 2) if lat else None

    return {"p50": pct(0.50), "p99": pct(0.99), "max": round(lat[-1], 2) if lat else None}


def latency_windows(
    at: Sequence[float], values: Sequence[float], start: float, elapsed: float, step: float
) -> List[Dict[str, Any]]:
    """p50 and p99 of the latencies received in each ``step`` seconds of the run."""
    windows = []
    pairs = sorted(zip(at, values, strict=True))
    for w in range(int(-(-elapsed // step))):
        lo, hi = start * 1000 + w * step * 1000, start * 1000 + (w + 1) * step * 1000
        chunk = sorted(v for t, v in pairs if lo <= t < hi)
        if chunk:
            windows.append(
                {
                    "s": round(w * step),
                    "events": len(chunk),
                    "p50": round(chunk[len(chunk) // 2], 2),
                    "p99": round(chunk[min(len(chunk) - 1, int(0.99 * len(chunk)))], 2),
                }
            )
    return windows


def process_report(
    servers: Sequence[Tuple[int, Optional[int]]],
    cpu_before: Sequence[float],
    hosted: Dict[int, int],
    rss_max: Sequence[float],
) -> List[Dict[str, Any]]:
    """Per server process: rooms created on it (as the clients saw them), CPU seconds
    over the run, resident memory at the end and at most."""
    out = []
    for (port, pid), before, peak in zip(servers, cpu_before, rss_max, strict=True):
        entry: Dict[str, Any] = {"port": port, "pid": pid, "rooms": hosted.get(port, 0)}
        if pid is not None:
            entry["cpu_s"] = round(cpu_s(pid) - before, 2)
            entry["rss_mib"] = round(rss_mib(pid), 1)
            entry["rss_mib_max"] = round(peak, 1)
        out.append(entry)
    return out


def port_of(url: str) -> int:
    return urlsplit(url).port or 80


async def connect(url: str, own: Dict[str, Any], stack: contextlib.AsyncExitStack) -> Any:
    """A WebSocket to ``url`` (closed with ``stack``), its ``welcome`` read."""
    import websockets

    ws = await stack.enter_async_context(websockets.connect(url, **own))
    json.loads(await ws.recv())
    return ws


async def enter(
    client: Any,
    message: Dict[str, Any],
    own: Dict[str, Any],
    stack: contextlib.AsyncExitStack,
    stats: Any,
) -> Dict[str, Any]:
    """Send ``message`` on ``client.ws`` and return the answer (``joined`` or ``error``),
    following each ``redirect``: close, connect to its url, send the same message again
    (``client.ws`` and ``client.url`` become the new ones; ``stats.redirects`` counts)."""
    await client.send(message)
    for _ in range(MAX_HOPS + 1):
        while True:
            answer: Dict[str, Any] = json.loads(await client.ws.recv())
            if answer["type"] in ("joined", "error", "redirect"):
                break
        if answer["type"] != "redirect":
            return answer
        stats.redirects += 1
        await client.ws.close()
        client.url = answer["url"]
        client.ws = await connect(answer["url"], own, stack)
        await client.send(message)
    return {"type": "error", "code": "too_many_redirects"}


async def run_match(
    urls: Sequence[str],
    stats: Any,
    seed: int,
    deadline: float,
    started: List[int],
    clients: Type[LoadClient],
    bot: str,
    address: str,
    entry: int = 0,
) -> None:
    """One match: its creator enters through ``urls[entry]``, its second player through
    the next one (the same with one server), each following redirects."""
    a_url, b_url = urls[entry % len(urls)], urls[(entry + 1) % len(urls)]
    a = clients(a_url, stats, random.Random(seed), deadline, bot)
    b = clients(b_url, stats, random.Random(seed + 1), deadline, bot)
    own: Dict[str, Any] = {"max_size": 2**20, "local_addr": (address, 0)}
    try:
        async with contextlib.AsyncExitStack() as stack:
            a.ws = await connect(a_url, own, stack)
            b.ws = await connect(b_url, own, stack)
            create = {"type": "create", "mode": "online", "name": f"load{seed}"}
            joined = await enter(a, create, own, stack, stats)
            if joined["type"] != "joined":
                stats.error(joined.get("code", "?"))
                return
            a.seat, a.host = joined["seats"][0], True
            port = port_of(a.url)
            stats.hosted[port] = stats.hosted.get(port, 0) + 1
            join = {"type": "join", "code": joined["room"]}
            msg = await enter(b, join, own, stack, stats)
            for _ in range(JOIN_RETRIES):
                # The creator's process writes the room's directory entry in Redis just
                # after its ``joined``: a join through another process at once may come
                # first (room_not_found). Counted, and asked again a moment later.
                if msg.get("code") != "room_not_found":
                    break
                stats.join_retries += 1
                await asyncio.sleep(0.05)
                msg = await enter(b, join, own, stack, stats)
            if msg["type"] != "joined":
                stats.error(msg.get("code", "?"))
                return
            b.seat = msg["seats"][0]
            started[0] += 1
            tasks = [
                asyncio.ensure_future(t) for t in (a.receive(), b.receive(), a.play(), b.play())
            ]
            await asyncio.sleep(max(0.0, deadline - time.time()))
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    except Exception as exc:  # a dropped connection counts as an error
        stats.closed_early += 1
        stats.error(type(exc).__name__)


def _health(port: int) -> Dict[str, Any]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
        return dict(json.loads(answer.read()))


def redis_info(port: int, section: str) -> Dict[str, str]:
    """``INFO section`` of the Redis on 127.0.0.1:port, as name: value."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(f"INFO {section}\r\n".encode())
        data = b""
        while b"\r\n" not in data:
            data += conn.recv(65536)
        head, _, body = data.partition(b"\r\n")
        size = int(head[1:])
        while len(body) < size:
            body += conn.recv(65536)
    out = {}
    for line in body[:size].decode().splitlines():
        if ":" in line and not line.startswith("#"):
            name, _, value = line.partition(":")
            out[name] = value
    return out


class Servers:
    """The server processes the load tool started (and their Redis, for more than one)."""

    def __init__(self) -> None:
        self.procs: List[subprocess.Popen] = []
        self.ports: List[int] = []
        self.redis: Optional[subprocess.Popen] = None
        self.redis_port: Optional[int] = None

    @classmethod
    def start(cls, n: int, payload: Dict[str, Any], register_s: float = 30.0) -> "Servers":
        """``n`` servers with ``payload`` (:func:`.procs.start_server`'s); for
        n > 1, one Redis and each server registered in it, seeing all ``n``."""
        self = cls()
        try:
            if n > 1:
                self.redis_port = free_port()
                self.redis = start_redis(self.redis_port)
            for _ in range(n):
                port = free_port()
                mine = dict(payload)
                if n > 1:
                    mine["redis_url"] = f"redis://127.0.0.1:{self.redis_port}/0"
                    mine["public_url"] = f"http://127.0.0.1:{port}"
                self.procs.append(start_server(port, [json.dumps(mine)]))
                self.ports.append(port)
            if n > 1:
                self.wait_registered(register_s)
        except BaseException:
            self.stop()
            raise
        return self

    def wait_registered(self, timeout_s: float) -> None:
        """Until each process's /healthz shows ``processes`` = all of them, and that it
        found itself at its public URL (only then do the others send it creates)."""
        deadline = time.time() + timeout_s
        while True:
            health = [_health(port) for port in self.ports]
            seen = [(h.get("processes"), h.get("reachable")) for h in health]
            if all(s == (len(self.ports), True) for s in seen):
                return
            if time.time() > deadline:
                raise RuntimeError(f"the servers did not all register in Redis: {seen}")
            time.sleep(0.2)

    def entries(self) -> List[Tuple[int, Optional[int]]]:
        return [(port, proc.pid) for port, proc in zip(self.ports, self.procs, strict=True)]

    def redis_report(self, matches: int, seconds: float) -> Dict[str, Any]:
        """What Redis did over the run: commands by name, their total, per match, per
        second; the bytes it received and sent; its CPU seconds."""
        if self.redis_port is None or self.redis is None:
            return {}
        stats = redis_info(self.redis_port, "commandstats")
        calls = {
            name.removeprefix("cmdstat_"): int(value.split(",")[0].split("=")[1])
            for name, value in stats.items()
        }
        total = sum(calls.values())
        traffic = redis_info(self.redis_port, "stats")
        return {
            "commands": dict(sorted(calls.items(), key=lambda kv: -kv[1])),
            "calls": total,
            "calls_per_match": round(total / max(1, matches), 1),
            "calls_per_s": round(total / max(1e-3, seconds), 1),
            "received_mib": round(int(traffic.get("total_net_input_bytes", 0)) / 2**20, 1),
            "sent_mib": round(int(traffic.get("total_net_output_bytes", 0)) / 2**20, 1),
            "cpu_s": round(cpu_s(self.redis.pid), 2),
        }

    def stop(self, wait_s: float = 10.0) -> None:
        """SIGINT to each server (at once: SIGTERM would drain, drain.py), kill what is
        left ``wait_s`` later (one wait for all); then Redis."""
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
        deadline = time.time() + wait_s
        for proc in self.procs:
            try:
                proc.wait(timeout=max(0.0, deadline - time.time()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if self.redis is not None and self.redis.poll() is None:
            self.redis.terminate()
            try:
                self.redis.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.redis.kill()
                self.redis.wait()
