"""Load test: many concurrent online matches of bot clients through real WebSockets,
optionally under attack.

    python -m tictacblitz.server.load --matches 100 --seconds 60
    python -m tictacblitz.server.load --matches 20 --seconds 60 --abuse

Starts a server in a subprocess on 127.0.0.1 with the public defaults (or uses
``--port`` of one already running there), opens two WebSocket clients per match (one
creates an online room, the other joins it by code), and lets the game's load clients
play (``server/games/<game>_load.py``: for Blitz they act ``reaction_ms`` of a bot preset,
``--bot``, after their charge filled). Each match connects from its own loopback address
(127.1.x.y), as separate people would. They agree to every rematch.

With ``--abuse``, one more address (127.66.0.1) attacks while they play: it floods room
creation (create, then drop the connection: the room stays in its grace) and replay
requests (the issue 16 body, several at once), bounded in count and time. The report
then has an ``abuse`` section (what the attacker got) and ``honest_refused`` (errors
and early closes of the honest clients: the server's limits must refuse the attacker,
never them).

At the end it reports, as JSON:

- ``matches`` (concurrent rooms), ``matches_finished``, ``messages_per_s`` (all frames
  both ways), ``actions``;
- ``latency_ms`` p50/p99/max: from an event's engine time (``epoch_ms + t``) to its
  receipt by the client (both read the same wall clock);
- ``lost_events``: gaps in the ``seq`` numbers of ``events`` messages; ``errors``;
- ``memory``: the server's resident memory (MiB) sampled over the run.

Loopback only. Every run is bounded: at most ``--matches`` 500 rooms, ``--seconds``
900; the attacker (:mod:`.load_procs`) at most 20,000 of each of its attempts.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import ipaddress
import json
import math
import os
import random
import signal
import socket
import subprocess
import sys
import time
from array import array
from typing import Any, Dict, List, Optional

from .load_procs import (
    ATTACK_REPLAY,
    ATTACKER,
    MAX_ABUSE_CREATES,
    MAX_ABUSE_RATE,
    MAX_ABUSE_REPLAYS,
    attack,
    child_env,
    start_server,
)

__all__ = [
    "run_load",
    "main",
    "start_server",
    "attack",
    "ATTACKER",
    "ATTACK_REPLAY",
    "MAX_ABUSE_CREATES",
    "MAX_ABUSE_REPLAYS",
    "MAX_ABUSE_RATE",
    "Stats",
]

MAX_MATCHES = 500
MAX_SECONDS = 900


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def honest_address(i: int) -> str:
    """Match ``i``'s own loopback address (127.1.0.1, 127.1.0.2, …)."""
    return f"127.1.{i // 250}.{1 + i % 250}"


def client_module(game: str) -> Any:
    """The game's load clients (``server/games/<game>_load.py``)."""
    return importlib.import_module(f"{__package__}.games.{game}_load")


class Stats:
    def __init__(self) -> None:
        self.latency = array("d")
        self.latency_at = array("d")
        self.received = 0
        self.sent = 0
        self.actions = 0
        self.rejected = 0
        self.lost = 0
        self.errors: Dict[str, int] = {}
        self.finished = 0
        self.closed_early = 0

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


async def _run_match(
    url: str,
    stats: Stats,
    seed: int,
    deadline: float,
    started: List[int],
    clients: Any,
    bot: str,
    address: str,
) -> None:
    import websockets

    a = clients.BotClient(url, stats, random.Random(seed), deadline, bot)
    b = clients.BotClient(url, stats, random.Random(seed + 1), deadline, bot)
    own: Dict[str, Any] = {"max_size": 2**20, "local_addr": (address, 0)}
    try:
        async with websockets.connect(url, **own) as wa, websockets.connect(url, **own) as wb:
            a.ws, b.ws = wa, wb
            json.loads(await wa.recv())
            json.loads(await wb.recv())
            await a.send({"type": "create", "mode": "online", "name": f"load{seed}"})
            joined = json.loads(await wa.recv())
            if joined["type"] != "joined":
                stats.error(joined.get("code", "?"))
                return
            a.seat = joined["seats"][0]
            await b.send({"type": "join", "code": joined["room"]})
            while True:
                msg = json.loads(await wb.recv())
                if msg["type"] == "joined":
                    b.seat = msg["seats"][0]
                    break
                if msg["type"] == "error":
                    stats.error(msg.get("code", "?"))
                    return
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


def _rss_mib(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return float("nan")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _percentiles(values: List[float]) -> Dict[str, Optional[float]]:
    lat = sorted(values)

    def pct(q: float) -> Optional[float]:
        return round(lat[min(len(lat) - 1, int(q * len(lat)))], 2) if lat else None

    return {"p50": pct(0.50), "p99": pct(0.99), "max": round(lat[-1], 2) if lat else None}


async def run_load(
    host: str,
    port: int,
    matches: int,
    seconds: float,
    server_pid: Optional[int],
    sample_s: float = 10.0,
    ramp_s: float = 5.0,
    bot: Optional[str] = None,
    game: str = "blitz",
    abuse: bool = False,
    abuse_rate: float = 100.0,
) -> Dict[str, Any]:
    url = f"ws://{host}:{port}/ws"
    clients = client_module(game)
    bot = bot or clients.DEFAULT_BOT
    stats = Stats()
    start = time.time()
    deadline = start + seconds
    started = [0]
    memory: List[Dict[str, float]] = []
    attack: Dict[str, Any] = {}

    async def sampler() -> None:
        while time.time() < deadline:
            if server_pid is not None:
                memory.append(
                    {"s": round(time.time() - start, 1), "rss_mib": round(_rss_mib(server_pid), 1)}
                )
            await asyncio.sleep(min(sample_s, max(0.05, deadline - time.time())))

    async def launch(i: int) -> None:
        await asyncio.sleep(ramp_s * i / max(1, matches))
        await _run_match(
            url, stats, 1000 + 2 * i, deadline, started, clients, bot, honest_address(i)
        )

    attacker = None
    if abuse:
        # The attacker is a process of its own, as it would be: its flood never delays
        # the honest clients' own loop (which measures their latency).
        attacker = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tictacblitz.server.load",
            "--attack-only",
            "--host",
            host,
            "--port",
            str(port),
            "--seconds",
            str(seconds),
            "--abuse-rate",
            str(abuse_rate),
            stdout=asyncio.subprocess.PIPE,
            env=child_env(),
        )
    sample = asyncio.ensure_future(sampler())
    await asyncio.gather(*(launch(i) for i in range(matches)))
    if attacker is not None:
        said, _ = await attacker.communicate()
        if attacker.returncode != 0 or not said:
            raise RuntimeError("the attacker process failed")
        attack.update(json.loads(said))
    sample.cancel()
    if server_pid is not None:
        memory.append(
            {"s": round(time.time() - start, 1), "rss_mib": round(_rss_mib(server_pid), 1)}
        )
    elapsed = time.time() - start
    windows = []
    step = max(1.0, sample_s)
    pairs = sorted(zip(stats.latency_at, stats.latency, strict=True))
    for w in range(int(math.ceil(elapsed / step))):
        lo, hi = start * 1000 + w * step * 1000, start * 1000 + (w + 1) * step * 1000
        chunk = sorted(v for at, v in pairs if lo <= at < hi)
        if chunk:
            windows.append(
                {
                    "s": round(w * step),
                    "events": len(chunk),
                    "p50": round(chunk[len(chunk) // 2], 2),
                    "p99": round(chunk[min(len(chunk) - 1, int(0.99 * len(chunk)))], 2),
                }
            )
    out: Dict[str, Any] = {
        "matches": started[0],
        "seconds": round(elapsed, 1),
        "matches_finished": stats.finished,
        "messages": stats.received + stats.sent,
        "messages_per_s": round((stats.received + stats.sent) / elapsed, 1),
        "actions": stats.actions,
        "rejected": stats.rejected,
        "events": len(stats.latency),
        "latency_ms": _percentiles(list(stats.latency)),
        "lost_events": stats.lost,
        "errors": stats.errors,
        "closed_early": stats.closed_early,
        "memory": memory,
        "latency_by_window": windows,
    }
    if abuse:
        out["abuse"] = attack
        out["honest_refused"] = (
            sum(stats.errors.values()) + stats.closed_early + (matches - started[0])
        )
    return out


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tictacblitz.server.load", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--matches", type=int, default=100, help=f"concurrent matches (at most {MAX_MATCHES})"
    )
    parser.add_argument(
        "--seconds", type=float, default=60, help=f"run time (at most {MAX_SECONDS})"
    )
    parser.add_argument("--host", default="127.0.0.1", help="a loopback address only")
    parser.add_argument(
        "--port", type=int, default=0, help="a running server's port (0: start one)"
    )
    parser.add_argument(
        "--game", default="blitz", help="the game (its server/games/<game>_load.py clients)"
    )
    parser.add_argument(
        "--round-ms", type=int, default=None, help="rules.round_ms of the started server"
    )
    parser.add_argument("--sample-s", type=float, default=10.0, help="memory sampling period")
    parser.add_argument(
        "--bot", default=None, help="the bot preset the clients play like (Blitz: default medium)"
    )
    parser.add_argument(
        "--abuse",
        action="store_true",
        help="one more address floods room creation and replay requests meanwhile",
    )
    parser.add_argument(
        "--abuse-rate",
        type=float,
        default=100.0,
        help="the attacker's room creations and replay requests a second, each "
        f"(at most {MAX_ABUSE_RATE:g})",
    )
    parser.add_argument(
        "--attack-only", action="store_true", help=argparse.SUPPRESS
    )  # --abuse's process
    args = parser.parse_args(argv)
    if not _loopback(args.host):
        parser.error(f"--host {args.host}: the load test runs on loopback only")
    if not 0 < args.abuse_rate <= MAX_ABUSE_RATE:
        parser.error(f"--abuse-rate must be in (0, {MAX_ABUSE_RATE:g}]")
    if args.attack_only:
        if not args.port or not 0 < args.seconds <= MAX_SECONDS:
            parser.error("--attack-only needs --port and --seconds")
        # A real attacker spends its own machine's CPU, not the server's: on loopback
        # it yields the shared cores first (nice 10), so that the figures are the server's.
        os.nice(10)
        report: Dict[str, Any] = {}
        asyncio.run(
            attack(args.host, args.port, time.time() + args.seconds, report, args.abuse_rate)
        )
        print(json.dumps(report))
        return 0
    if not 1 <= args.matches <= MAX_MATCHES:
        parser.error(f"--matches must be 1..{MAX_MATCHES}")
    if not 0 < args.seconds <= MAX_SECONDS:
        parser.error(f"--seconds must be in (0, {MAX_SECONDS}]")
    try:
        clients = client_module(args.game)
    except ImportError:
        parser.error(f"--game {args.game}: no load clients (server/games/{args.game}_load.py)")
    if args.bot is not None and args.bot not in clients.BOT_NAMES:
        parser.error(f"--bot {args.bot}: one of {', '.join(clients.BOT_NAMES)}")
    proc = None
    port = args.port
    pid = None
    if not port:
        port = _free_port()
        rules = {"round_ms": args.round_ms} if args.round_ms else {}
        proc = start_server(port, [json.dumps({"rules": rules, "game": args.game})])
        pid = proc.pid
    try:
        result = asyncio.run(
            run_load(
                args.host,
                port,
                args.matches,
                args.seconds,
                pid,
                args.sample_s,
                bot=args.bot,
                game=args.game,
                abuse=args.abuse,
                abuse_rate=args.abuse_rate,
            )
        )
    finally:
        if proc is not None:
            proc.send_signal(signal.SIGINT)  # at once: SIGTERM would drain (drain.py)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    print(json.dumps(result, indent=1))
    failed = result["errors"] or result["lost_events"] or result["closed_early"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
