"""The load tool's processes besides its clients (docs/server.md, "Load"): the
server it starts (:func:`start_server`; the Redis of several, :func:`start_redis`), and
the attacker of ``--abuse [SCENARIO]`` (:func:`attack_scenario`, from 127.66.0.x),
bounded in count and time:

- ``flood`` (plain ``--abuse``, :func:`attack`): room creation and replay requests;
- ``rift-relock`` (``--game rift``): 4 rooms, each with a seat changing its mind 45
  times a second, its opponent never locking (issue 26, hole 3);
- ``replay-fetch``: one such room (any game: its seat just leaves where no re-locks
  exist) ends by a forfeit, then 4 workers fetch its replay (hole 3);
- ``slow-upload``: two addresses trickle replay uploads a byte a second while a third
  posts a small replay every 5 s (hole 4);
- ``ping-flood`` and ``slowloris``: the transport attacks (holes 1 and 2,
  :mod:`.transport`): WebSocket pings never read, half-sent HTTP requests.

Generic: nothing here names a game. Part of :mod:`.run` (which re-exports these names)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from typing import Any, Dict, List, Optional

from .client import NoClients, client_class, tally

__all__ = [
    "attack",
    "attack_scenario",
    "SCENARIOS",
    "start_server",
    "start_redis",
    "child_env",
    "ATTACKER",
    "ATTACK_REPLAY",
    "MAX_ABUSE_CREATES",
    "MAX_ABUSE_REPLAYS",
    "MAX_ABUSE_RATE",
]

MAX_ABUSE_CREATES = 20_000
MAX_ABUSE_REPLAYS = 20_000
MAX_ABUSE_RATE = 500.0
ATTACKER = "127.66.0.1"
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
    replay_workers: int = 4,
) -> None:
    """The ``flood``: one address creates rooms and requests replays until
    ``deadline``, each at up to ``rate`` attempts a second."""
    import websockets

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
            tally(rooms, what)

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
            tally(replays, status)

    await asyncio.gather(create_and_abort(), *(replay() for _ in range(replay_workers)))
    elapsed = max(1e-3, time.time() - start)
    report["per_s"] = {kind: round(n / elapsed, 1) for kind, n in counts.items()}


SCENARIOS = ("flood", "rift-relock", "replay-fetch", "slow-upload", "ping-flood", "slowloris")
RELOCK_ROOMS = 4
RELOCK_RATE = 45.0  # under the 50 messages a second that would drop and close
FETCH_WORKERS = 4
SLOW_UPLOADS = 4  # per address, of two addresses


async def attack_scenario(
    name: str, host: str, port: int, deadline: float, report: Dict[str, Any], rate: float
) -> None:
    """The attack ``name`` of :data:`SCENARIOS` until ``deadline``."""
    from .transport import ping_flood, slowloris

    if name in ("flood", "ping-flood", "slowloris"):  # one address's attacks
        report["kind"] = name
    if name == "flood":
        await attack(host, port, deadline, report, rate)
    elif name == "ping-flood":
        await ping_flood(host, port, deadline, report, ATTACKER)
    elif name == "slowloris":  # ``rate`` new connections a second
        await slowloris(host, port, deadline, report, rate, ATTACKER)
    elif name == "rift-relock":
        rooms = [_relock_room(host, port, deadline, report) for _ in range(RELOCK_ROOMS)]
        await asyncio.gather(*rooms)
    elif name == "replay-fetch":
        await _fetch_replay(host, port, deadline, report, rate)
    elif name == "slow-upload":
        await _slow_uploads(host, port, deadline, report)
    else:
        raise ValueError(f"no abuse scenario {name!r}: one of {', '.join(SCENARIOS)}")


async def _relock_room(
    host: str, port: int, until: float, report: Dict[str, Any], address: str = ATTACKER
) -> Optional[str]:
    """A room of two of the attacker's connections; the creator re-locks until
    ``until`` (Rift) and leaves: the replay id of the forfeit, or None."""
    import websockets

    url = f"ws://{host}:{port}/ws"
    answers = report.setdefault("answers", {})
    try:
        async with websockets.connect(url, local_addr=(address, 0), max_size=2**24) as a:
            async with websockets.connect(url, local_addr=(address, 0), max_size=2**24) as b:
                welcome = json.loads(await a.recv())
                await b.recv()
                await a.send(json.dumps({"type": "create", "mode": "online"}))
                joined = await _until(a, "joined")
                await b.send(json.dumps({"type": "join", "code": joined["room"]}))
                await _until(b, "joined")
                # The game's load clients' re-locking seat, if it has one (Rift & Grid's).
                try:
                    clients = client_class(welcome["game"]["name"])
                except NoClients:  # a game without load clients has no re-locks either
                    clients = None
                if clients is not None and clients.relocks():
                    await clients.relock(a, until, RELOCK_RATE, answers)
                await a.send(json.dumps({"type": "leave"}))
                end = await asyncio.wait_for(_until(b, "match_end"), 30)
        replay_id = str(end["replay_id"])
        # What the server holds for it: the replay's size (bytes) and script entries.
        get = f"GET /replays/{replay_id} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        reader, writer = await asyncio.open_connection(host, port, local_addr=(address, 0))
        writer.write(get.encode())
        body = (await asyncio.wait_for(reader.read(), 30)).partition(b"\r\n\r\n")[2]
        writer.close()
        replay = json.loads(body)
        report.setdefault("replays", []).append(
            {"bytes": len(body), "entries": len(replay.get("script", []))}
        )
        return replay_id
    except Exception as exc:
        tally(report, type(exc).__name__)
        return None


async def _until(ws: Any, kind: str) -> Dict[str, Any]:
    while True:
        msg = json.loads(await ws.recv())
        if msg.get("type") in (kind, "error"):
            return dict(msg)


async def _status(host: str, port: int, address: str, request: bytes) -> str:
    """One HTTP request's status code, or what went wrong."""
    try:
        reader, writer = await asyncio.open_connection(host, port, local_addr=(address, 0))
        writer.write(request)
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), timeout=30)
        writer.close()
        return str(line.split()[1].decode())
    except Exception as exc:
        return type(exc).__name__


async def _fetch_replay(
    host: str, port: int, deadline: float, report: Dict[str, Any], rate: float
) -> None:
    """A third of the time making a replay (a re-locking Rift room), the rest fetching
    it from :data:`FETCH_WORKERS` workers at ``rate`` a second in all."""
    made = time.time() + (deadline - time.time()) / 3
    replay_id = await _relock_room(host, port, made, report)
    if replay_id is None:
        return
    report["replay_id"] = replay_id
    fetched = report.setdefault("fetches", {})
    get = f"GET /replays/{replay_id} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    start, count = time.time(), [0]

    async def worker() -> None:
        while time.time() < deadline and count[0] < MAX_ABUSE_REPLAYS:
            ahead = start + count[0] / rate - time.time()
            if ahead > 0:
                await asyncio.sleep(ahead)
            count[0] += 1
            status = await _status(host, port, ATTACKER, get.encode())
            tally(fetched, status)

    await asyncio.gather(*(worker() for _ in range(FETCH_WORKERS)))
    report["fetch_per_s"] = round(count[0] / max(1e-3, time.time() - start), 1)


async def _slow_uploads(host: str, port: int, deadline: float, report: Dict[str, Any]) -> None:
    """Two addresses keep :data:`SLOW_UPLOADS` uploads each trickling a byte a second;
    a third posts a small replay file every 5 s (``probe``: what an honest upload got)."""
    trickles = report.setdefault("trickles", {})
    probes = report.setdefault("probe", {})
    head = (
        f"POST /api/replay-events HTTP/1.1\r\nHost: {host}\r\n"
        "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
    ).encode()

    async def trickle(address: str) -> None:
        while time.time() < deadline and sum(trickles.values()) < MAX_ABUSE_REPLAYS:
            try:
                reader, writer = await asyncio.open_connection(host, port, local_addr=(address, 0))
                writer.write(head)
                answer = asyncio.ensure_future(reader.readline())
                while time.time() < deadline and not answer.done():
                    writer.write(b" ")
                    await writer.drain()
                    await asyncio.wait([answer], timeout=1.0)
                what = answer.result().split()[1].decode() if answer.done() else "held"
                answer.cancel()
                writer.close()
            except Exception as exc:
                what = type(exc).__name__
            tally(trickles, what)
            await asyncio.sleep(min(1.0, max(0.0, deadline - time.time())))  # never a spin

    async def probe() -> None:
        import urllib.request

        url = f"http://{host}:{port}/api/info"
        info = await asyncio.to_thread(lambda: urllib.request.urlopen(url, timeout=10).read())
        game = json.loads(info)["game"]["name"]
        body = json.dumps({"game": game, "seed": 1, "script": [], "until": 2}).encode()
        post = (
            f"POST /api/replay-events HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode() + body
        await asyncio.sleep(2.0)  # the trickles first
        while time.time() < deadline - 1:
            status = await _status(host, port, "127.66.0.3", post)
            tally(probes, status)
            await asyncio.sleep(5.0)  # within the address's work rate (0.2 a second)

    slow = [trickle(a) for a in (ATTACKER, "127.66.0.2") for _ in range(SLOW_UPLOADS)]
    await asyncio.gather(probe(), *slow)


def child_env() -> Dict[str, str]:
    env = dict(os.environ)
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = here + os.pathsep + env.get("PYTHONPATH", "")
    return env


def start_server(port: int, extra: Optional[List[str]] = None) -> subprocess.Popen:
    """A server subprocess on 127.0.0.1:port (``tictacblitz.server.serve``), with the
    public defaults but for ``extra``'s ``rules``, ``game``, ``pause_ms`` and ``settings``
    (other :class:`tictacblitz.server.settings.Settings` fields, e.g.
    ``max_tcp_per_ip``), and a SIGTERM that drains for 2 s at most. ``extra``'s
    ``redis_url`` and ``public_url`` (both or neither) make it a process of a cluster
    (:mod:`.cluster`)."""
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
