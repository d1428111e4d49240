"""The load tool's processes besides its clients (docs/server.md, "Load"): the
server it starts (:func:`start_server`; the Redis of several, :func:`start_redis`), and
the attacker of ``--abuse`` (:func:`attack`): one address (127.66.0.1) that floods room
creation and replay requests, bounded in count and time (or, ``--abuse ping-flood`` and
``--abuse slowloris``, attacks the transport: :mod:`.load_transport`). Generic: nothing here names a
game. Part of :mod:`.load` (which re-exports these names)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from typing import Any, Dict, List, Optional

__all__ = [
    "attack",
    "start_server",
    "start_redis",
    "child_env",
    "ATTACKER",
    "ATTACK_REPLAY",
    "MAX_ABUSE_CREATES",
    "MAX_ABUSE_REPLAYS",
    "MAX_ABUSE_RATE",
    "ABUSE_KINDS",
]

MAX_ABUSE_CREATES = 20_000
MAX_ABUSE_REPLAYS = 20_000
MAX_ABUSE_RATE = 500.0
ATTACKER = "127.66.0.1"
ABUSE_KINDS = ("flood", "ping-flood", "slowloris")
ATTACK_REPLAY = json.dumps(
    {
        "name": "issue 16: unbounded replay",
        "seed": 1,
        "script": [],
        "until": 99000,
        "rules": {
            "round_ms": 10000000,
            "spawn_min_ms": 1,
            "spawn_max_ms": 1,
            "powerup_ms": 1,
            "size": 8,
        },
    }
).encode()


async def attack(
    host: str,
    port: int,
    deadline: float,
    report: Dict[str, Any],
    rate: float,
    kind: str = "flood",
    replay_workers: int = 4,
) -> None:
    """One address attacks until ``deadline``: ``flood`` (room creation and replay
    requests, each at up to ``rate`` attempts a second), ``ping-flood`` or ``slowloris``
    (``rate`` new connections a second; :mod:`.load_transport`)."""
    import websockets

    from .load_transport import ping_flood, slowloris

    report["kind"] = kind
    if kind == "ping-flood":
        await ping_flood(host, port, deadline, report, ATTACKER)
        return
    if kind == "slowloris":
        await slowloris(host, port, deadline, report, rate, ATTACKER)
        return
    if kind != "flood":
        raise ValueError(f"abuse {kind!r}: one of {', '.join(ABUSE_KINDS)}")

    rooms = report.setdefault("creates", {})
    replays = report.setdefault("replays", {})
    counts = {"creates": 0, "replays": 0}
    start = time.time()

    async def pace(kind: str) -> None:
        ahead = start + counts[kind] / rate - time.time()
        if ahead > 0:
            await asyncio.sleep(ahead)

    async def create_and_abort() -> None:
        while time.time() < deadline and counts["creates"] < MAX_ABUSE_CREATES:
            await pace("creates")
            counts["creates"] += 1
            try:
                async with websockets.connect(
                    f"ws://{host}:{port}/ws", local_addr=(ATTACKER, 0), open_timeout=5
                ) as ws:
                    await ws.recv()
                    await ws.send(json.dumps({"type": "create", "mode": "online"}))
                    answer = json.loads(await ws.recv())
                    what = answer.get("code", answer["type"])
            except Exception as exc:
                what = type(exc).__name__
            rooms[what] = rooms.get(what, 0) + 1

    async def replay() -> None:
        head = (
            f"POST /api/replay-events HTTP/1.1\r\nHost: {host}:{port}\r\n"
            "Content-Type: application/json\r\n"
            f"Content-Length: {len(ATTACK_REPLAY)}\r\nConnection: close\r\n\r\n"
        ).encode()
        while time.time() < deadline and counts["replays"] < MAX_ABUSE_REPLAYS:
            await pace("replays")
            counts["replays"] += 1
            try:
                reader, writer = await asyncio.open_connection(host, port, local_addr=(ATTACKER, 0))
                writer.write(head + ATTACK_REPLAY)
                await writer.drain()
                status = (await asyncio.wait_for(reader.readline(), timeout=30)).split()[1].decode()
                writer.close()
            except Exception as exc:
                status = type(exc).__name__
            replays[status] = replays.get(status, 0) + 1

    await asyncio.gather(create_and_abort(), *(replay() for _ in range(replay_workers)))
    elapsed = max(1e-3, time.time() - start)
    report["per_s"] = {kind: round(n / elapsed, 1) for kind, n in counts.items()}


def child_env() -> Dict[str, str]:
    env = dict(os.environ)
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = here + os.pathsep + env.get("PYTHONPATH", "")
    return env


def start_server(port: int, extra: Optional[List[str]] = None) -> subprocess.Popen:
    """A server subprocess on 127.0.0.1:port (this package's own ``serve``), with the
    public defaults but for ``extra``'s ``rules``, ``game``, ``pause_ms`` and ``settings``
    (other :class:`.settings.Settings` fields, e.g. ``max_tcp_per_ip``), and a SIGTERM
    that drains for 2 s at most. ``extra``'s ``redis_url`` and ``public_url``
    (both or neither) make it a process of a cluster (:mod:`.load_cluster`)."""
    code = (
        "import sys; from tictacblitz.server import serve; "
        "from tictacblitz.server.settings import Settings; "
        "from tictacblitz.games import load_game; import json; "
        "a = json.loads(sys.argv[1]); "
        "serve(Settings(game=load_game(a['game'], a['rules']), pause_ms=a['pause_ms'], "
        "drain_s=2.0, redis_url=a['redis_url'], public_url=a['public_url'], **a['settings']), "
        "host='127.0.0.1', port=a['port'], log_level='warning')"
    )
    args = json.loads(extra[0]) if extra else {}
    payload = {
        "port": port,
        "rules": args.get("rules", {}),
        "pause_ms": args.get("pause_ms", 1000),
        "game": args.get("game", "blitz"),
        "redis_url": args.get("redis_url"),
        "public_url": args.get("public_url"),
        "settings": args.get("settings", {}),
    }
    proc = subprocess.Popen([sys.executable, "-c", code, json.dumps(payload)], env=child_env())
    import urllib.request

    def answers() -> bool:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=0.5).read()
        return True

    return _started(proc, answers, "the server", "/healthz")


def _started(proc: subprocess.Popen, answers: Any, what: str, probe: str) -> subprocess.Popen:
    """``proc`` once ``answers()`` is true (an OSError: not yet), for 10 s at most."""
    for _ in range(200):
        try:
            if answers():
                return proc
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(f"{what} did not start") from None
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"{what} did not answer {probe}")


def start_redis(port: int) -> subprocess.Popen:
    """Debian's ``redis-server`` on 127.0.0.1:port, in memory only (no snapshot, no
    append-only file), for a cluster of servers on this machine (the load tool's
    ``--processes``, the tests). :raises RuntimeError: no ``redis-server``, or it did not
    start."""
    import shutil
    import socket

    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("no redis-server on PATH (apt-get install redis-server)")
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def answers() -> bool:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")

    return _started(proc, answers, "redis-server", "PING")
