"""Load test: many concurrent online matches of bot clients through real WebSockets.

    python -m tictacblitz.server.load --matches 100 --seconds 60

Starts a server in a subprocess on 127.0.0.1 (or uses ``--port`` of one already
running there), opens two WebSocket clients per match (one creates an online room, the
other joins it by code), and lets simple bots play Tic Tac Blitz on the real-time clock:
they place on free cells and knock out setting marks, each act ``reaction_ms`` of a bot
preset (``--bot``, default ``medium``) after the charge filled: the one timing rule of
``tictacblitz.games.blitz.bots.reaction_due_t``, read from the status the server sends.
They agree to every rematch. At the end it reports, as JSON:

- ``matches`` (concurrent rooms), ``matches_finished``, ``messages_per_s`` (all frames
  both ways), ``actions``;
- ``latency_ms`` p50/p99/max: from an event's engine time (``epoch_ms + t``) to its
  receipt by the client (both read the same wall clock);
- ``lost_events``: gaps in the ``seq`` numbers of ``events`` messages; ``errors``;
- ``memory``: the server's resident memory (MiB) sampled over the run.

Loopback only: the host must be a loopback address. Every run is bounded: at most
``--matches`` 500 rooms and ``--seconds`` 900.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import math
import os
import random
import socket
import subprocess
import sys
import time
from array import array
from dataclasses import fields
from typing import Any, Dict, List, Optional

from ..games.blitz.bots import BOT_NAMES, reaction_due_t, resolve
from ..games.blitz.types import PlayerStatus, PowerupKind

MAX_MATCHES = 500
MAX_SECONDS = 900
STATUS_FIELDS = tuple(f.name for f in fields(PlayerStatus))
POWERUP_LETTERS = "".join(kind.letter for kind in PowerupKind)     # R14, as the board shows them


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


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


class BotClient:
    """One seat: keeps the board from the server's messages and acts when charged."""

    def __init__(self, url: str, stats: Stats, rng: random.Random, deadline: float,
                 reaction_ms: int = resolve("medium").reaction_ms) -> None:
        self.url = url
        self.reaction_ms = reaction_ms
        self.status: Optional[PlayerStatus] = None
        self.stats = stats
        self.rng = rng
        self.deadline = deadline
        self.ws: Any = None
        self.seat = "X"
        self.size = 6
        self.cells: Dict[tuple, str] = {}
        self.live = False
        self.epoch = 0.0
        self.round = 0
        self.last_seq: Optional[int] = None
        self.match_id: Optional[str] = None
        self.wake = asyncio.Event()

    async def send(self, message: Dict[str, Any]) -> None:
        self.stats.sent += 1
        await self.ws.send(json.dumps(message))

    def now_t(self) -> float:
        return time.time() * 1000.0 - self.epoch

    def on_message(self, msg: Dict[str, Any]) -> None:
        now = time.time() * 1000.0
        self.stats.received += 1
        kind = msg.get("type")
        if kind == "events":
            if msg["match_id"] != self.match_id:
                self.match_id, self.last_seq = msg["match_id"], 0
            if self.last_seq is not None and msg["seq"] != self.last_seq + 1:
                self.stats.lost += max(1, msg["seq"] - self.last_seq - 1)
            self.last_seq = msg["seq"]
            self.epoch = msg["epoch_ms"]
            for event in msg["events"]:
                self.stats.latency.append(now - (msg["epoch_ms"] + event["t"]))
                self.stats.latency_at.append(now)
                self.apply(event)
            self.take_status(msg["players"][self.seat])
            self.wake.set()
        elif kind == "state":
            self.match_id, self.last_seq = msg["match_id"], msg["seq"]
            self.size = len(msg["board"])
            self.cells = {(r, c): ch for r, row in enumerate(msg["board"]) for c, ch in enumerate(row) if ch != "."}
            self.live = msg["phase"] == "live"
            self.epoch = msg["epoch_ms"]
            self.take_status(msg["players"][self.seat])
        elif kind == "rejected":
            self.stats.rejected += 1
        elif kind == "error":
            self.stats.error(msg.get("code", "?"))
        elif kind == "round_break":
            self.live = False
        elif kind == "match_end":
            self.live = False
            if self.seat == "X":
                self.stats.finished += 1
            if time.time() < self.deadline - 1:
                asyncio.ensure_future(self.send({"type": "rematch", "agree": True}))

    def take_status(self, entry: Dict[str, Any]) -> None:
        """The seat's status as the server sent it (``PlayerStatus.to_dict()``)."""
        self.status = PlayerStatus(**{name: entry[name] for name in STATUS_FIELDS})

    def apply(self, event: Dict[str, Any]) -> None:
        kind = event["kind"]
        cell = tuple(event["cell"]) if "cell" in event else None
        if kind == "round_started":
            self.cells.clear()
            self.live = True
        elif kind in ("placed", "stolen"):
            self.cells[cell] = event["player"].lower()
        elif kind == "set":
            self.cells[cell] = event["player"]
        elif kind == "knocked_out":
            self.cells[cell] = "#"
        elif kind in ("crater_cleared", "retired", "bombed", "powerup_burned_out"):
            self.cells.pop(cell, None)
        elif kind == "powerup_spawned":
            self.cells[cell] = PowerupKind.parse(event["powerup"]).letter
        elif kind in ("round_over", "match_over"):
            self.live = False

    def choose(self) -> Optional[Dict[str, Any]]:
        other = "o" if self.seat == "X" else "x"
        targets = [c for c, ch in self.cells.items() if ch == other]
        if targets and self.rng.random() < 0.35:
            return {"type": "act", "action": "knockout", "cell": list(self.rng.choice(targets))}
        free = [(r, c) for r in range(self.size) for c in range(self.size)
                if self.cells.get((r, c), ".") in "." + POWERUP_LETTERS]
        if not free:
            return None
        return {"type": "act", "action": "place", "cell": list(self.rng.choice(free))}

    async def play(self) -> None:
        while time.time() < self.deadline:
            self.wake.clear()
            if self.live and self.status is not None:
                due = reaction_due_t(self.status, self.reaction_ms)     # R5, as every bot
                wait = (due - self.now_t()) / 1000.0
                if wait <= 0:
                    action = self.choose()
                    if action is not None:
                        self.stats.actions += 1
                        await self.send(action)
                    # Wait for the server's answer (the charge empties) or a while.
                    wait = 0.5
            else:
                wait = 0.5
            try:
                await asyncio.wait_for(self.wake.wait(), timeout=max(0.001, min(wait, self.deadline - time.time())))
            except asyncio.TimeoutError:
                pass

    async def receive(self) -> None:
        async for raw in self.ws:
            self.on_message(json.loads(raw))


async def _run_match(url: str, stats: Stats, seed: int, deadline: float, started: List[int],
                     reaction_ms: int) -> None:
    import websockets

    a = BotClient(url, stats, random.Random(seed), deadline, reaction_ms)
    b = BotClient(url, stats, random.Random(seed + 1), deadline, reaction_ms)
    try:
        async with websockets.connect(url, max_size=2 ** 20) as wa, websockets.connect(url, max_size=2 ** 20) as wb:
            a.ws, b.ws = wa, wb
            json.loads(await wa.recv())
            json.loads(await wb.recv())
            await a.send({"type": "create", "mode": "online", "symbol": "X", "name": f"load{seed}"})
            joined = json.loads(await wa.recv())
            a.seat = "X"
            await b.send({"type": "join", "code": joined["room"]})
            while True:
                msg = json.loads(await wb.recv())
                if msg["type"] == "joined":
                    b.seat = msg["seats"][0]
                    break
            started[0] += 1
            tasks = [asyncio.ensure_future(t) for t in (a.receive(), b.receive(), a.play(), b.play())]
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


def start_server(port: int, extra: Optional[List[str]] = None) -> subprocess.Popen:
    """A server subprocess on 127.0.0.1:port (this package's own ``serve``)."""
    code = ("import sys; from tictacblitz.server import serve; from tictacblitz.server.settings import Settings; "
            "from tictacblitz.games import load_game; import json; "
            "a = json.loads(sys.argv[1]); "
            "serve(Settings(game=load_game('blitz', a['rules']), pause_ms=a['pause_ms'], "
            "max_connections_per_ip=a['max_connections']), host='127.0.0.1', port=a['port'], log_level='warning')")
    args = json.loads(extra[0]) if extra else {}
    # Every client of the test comes from 127.0.0.1: the per-address bound of a public
    # server (32) would refuse all but 16 matches.
    payload = {"port": port, "rules": args.get("rules", {}), "pause_ms": args.get("pause_ms", 1000),
               "max_connections": 2 * MAX_MATCHES + 8}
    env = dict(os.environ)
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = here + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.Popen([sys.executable, "-c", code, json.dumps(payload)], env=env)
    import urllib.request

    for _ in range(200):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=0.5).read()
            return proc
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError("the server did not start") from None
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the server did not answer /healthz")


async def run_load(host: str, port: int, matches: int, seconds: float, server_pid: Optional[int],
                   sample_s: float = 10.0, ramp_s: float = 5.0, bot: str = "medium") -> Dict[str, Any]:
    url = f"ws://{host}:{port}/ws"
    stats = Stats()
    start = time.time()
    deadline = start + seconds
    started = [0]
    memory: List[Dict[str, float]] = []

    async def sampler() -> None:
        while time.time() < deadline:
            if server_pid is not None:
                memory.append({"s": round(time.time() - start, 1), "rss_mib": round(_rss_mib(server_pid), 1)})
            await asyncio.sleep(min(sample_s, max(0.05, deadline - time.time())))

    async def launch(i: int) -> None:
        await asyncio.sleep(ramp_s * i / max(1, matches))
        await _run_match(url, stats, 1000 + 2 * i, deadline, started, resolve(bot).reaction_ms)

    sample = asyncio.ensure_future(sampler())
    await asyncio.gather(*(launch(i) for i in range(matches)))
    sample.cancel()
    if server_pid is not None:
        memory.append({"s": round(time.time() - start, 1), "rss_mib": round(_rss_mib(server_pid), 1)})
    elapsed = time.time() - start
    lat = sorted(stats.latency)

    def pct(q: float) -> Optional[float]:
        return round(lat[min(len(lat) - 1, int(q * len(lat)))], 2) if lat else None

    windows = []
    step = max(1.0, sample_s)
    pairs = sorted(zip(stats.latency_at, stats.latency, strict=True))
    for w in range(int(math.ceil(elapsed / step))):
        lo, hi = start * 1000 + w * step * 1000, start * 1000 + (w + 1) * step * 1000
        chunk = sorted(v for at, v in pairs if lo <= at < hi)
        if chunk:
            windows.append({"s": round(w * step), "events": len(chunk), "p50": round(chunk[len(chunk) // 2], 2),
                            "p99": round(chunk[min(len(chunk) - 1, int(0.99 * len(chunk)))], 2)})
    return {
        "matches": started[0], "seconds": round(elapsed, 1), "matches_finished": stats.finished,
        "messages": stats.received + stats.sent,
        "messages_per_s": round((stats.received + stats.sent) / elapsed, 1),
        "actions": stats.actions, "rejected": stats.rejected, "events": len(lat),
        "latency_ms": {"p50": pct(0.50), "p99": pct(0.99), "max": round(lat[-1], 2) if lat else None},
        "lost_events": stats.lost, "errors": stats.errors, "closed_early": stats.closed_early,
        "memory": memory, "latency_by_window": windows,
    }


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tictacblitz.server.load", description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=100, help=f"concurrent matches (at most {MAX_MATCHES})")
    parser.add_argument("--seconds", type=float, default=60, help=f"run time (at most {MAX_SECONDS})")
    parser.add_argument("--host", default="127.0.0.1", help="a loopback address only")
    parser.add_argument("--port", type=int, default=0, help="a running server's port (0: start one)")
    parser.add_argument("--round-ms", type=int, default=None, help="rules.round_ms of the started server")
    parser.add_argument("--sample-s", type=float, default=10.0, help="memory sampling period")
    parser.add_argument("--bot", default="medium", choices=BOT_NAMES,
                        help="the bot preset whose reaction_ms the clients use (default medium)")
    args = parser.parse_args(argv)
    if not _loopback(args.host):
        parser.error(f"--host {args.host}: the load test runs on loopback only")
    if not 1 <= args.matches <= MAX_MATCHES:
        parser.error(f"--matches must be 1..{MAX_MATCHES}")
    if not 0 < args.seconds <= MAX_SECONDS:
        parser.error(f"--seconds must be in (0, {MAX_SECONDS}]")
    proc = None
    port = args.port
    pid = None
    if not port:
        port = _free_port()
        rules = {"round_ms": args.round_ms} if args.round_ms else {}
        proc = start_server(port, [json.dumps({"rules": rules})])
        pid = proc.pid
    try:
        result = asyncio.run(run_load(args.host, port, args.matches, args.seconds, pid, args.sample_s,
                                       bot=args.bot))
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    print(json.dumps(result, indent=1))
    return 0 if not result["errors"] and not result["lost_events"] and not result["closed_early"] else 1


if __name__ == "__main__":
    sys.exit(main())
