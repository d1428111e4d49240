"""Load test: many concurrent online matches of bot clients through real WebSockets,
optionally under attack.

    python -m tictacblitz.loadtest --matches 100 --seconds 60
    python -m tictacblitz.loadtest --matches 20 --seconds 60 --abuse

Starts a server in a subprocess on 127.0.0.1 with the public defaults (or uses
``--port`` of one already running there), opens two WebSocket clients per match (one
creates an online room, the other joins it by code), and lets the game's load clients
play (``loadtest/games/<game>.py``: for Blitz they act ``reaction_ms`` of a bot preset,
``--bot``, after their charge filled). Each match connects from its own loopback address
(127.1.x.y), as separate people would. They agree to every rematch.

With ``--abuse``, one more address (127.66.0.1) attacks while they play: it floods room
creation (create, then drop the connection: the room stays in its grace) and replay
requests (the issue 16 body, several at once), bounded in count and time;
``--abuse ping-flood`` and ``--abuse slowloris`` attack the transport instead
(:mod:`.transport`: WebSocket pings never read, half-sent HTTP requests). The report
then has an ``abuse`` section (what the attacker got) and ``honest_refused`` (errors
and early closes of the honest clients: the server's limits must refuse the attacker,
never them).

At the end it reports, as JSON:

- ``matches`` (concurrent rooms), ``matches_finished``, ``messages_per_s`` (all frames
  both ways), ``actions``;
- ``latency_ms`` p50/p99/max: from an event's engine time (``epoch_ms + t``) to its
  receipt by the client (both read the same wall clock);
- ``lost_events``: gaps in the ``seq`` numbers of ``events`` messages; ``errors``;
- ``memory``: the server's resident memory (MiB) sampled over the run;
- ``processes``: per server process, its port, pid, the rooms created on it, its CPU
  seconds over the run and resident memory; ``redirects`` followed, ``join_retries``
  (joins answered ``room_not_found`` and sent again: :func:`.cluster.run_match`);
  ``client_cpu_s`` (this process's, the clients').

With ``--processes N`` (N > 1; :mod:`.cluster`) it starts one Redis and N servers
sharing it, and the matches enter round-robin: match i's creator through process i, its
second player by code through process i + 1, each following the ``redirect`` answers.
``memory`` then sums the processes (``by_process`` each), and ``redis`` says what Redis
did (commands by name, per match, bytes, its CPU seconds). ``--abuse``'s attacker then floods
the first process, and takes a ``redirect`` as an answer (it does not follow it).

Loopback only. Every run is bounded: at most ``--matches`` 500 rooms, ``--seconds``
900; the attacker (:mod:`.procs`) at most 20,000 of each of its attempts
(connections, for the transport attacks; 2,000,000 pings).
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import os
import sys
import time
from array import array
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from .client import NoClients, client_class
from .cluster import (
    MAX_PROCESSES,
    Servers,
    cpu_s,
    latency_windows,
    percentiles,
    process_report,
    rss_mib,
    run_match,
)
from .procs import (
    ATTACK_REPLAY,
    ATTACKER,
    MAX_ABUSE_CREATES,
    MAX_ABUSE_RATE,
    MAX_ABUSE_REPLAYS,
    SCENARIOS,
    attack,
    attack_scenario,
    child_env,
    start_server,
)

__all__ = [
    "run_load",
    "main",
    "start_server",
    "attack",
    "attack_scenario",
    "SCENARIOS",
    "ATTACKER",
    "ATTACK_REPLAY",
    "MAX_ABUSE_CREATES",
    "MAX_ABUSE_REPLAYS",
    "MAX_ABUSE_RATE",
    "Stats",
    "Servers",
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
        self.redirects = 0
        self.join_retries = 0
        self.hosted: Dict[int, int] = {}  # server port: rooms created there

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


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
    abuse: Union[bool, str] = False,
    abuse_rate: float = 100.0,
    servers: Optional[Sequence[Tuple[int, Optional[int]]]] = None,
) -> Dict[str, Any]:
    """``matches`` matches for ``seconds`` on the server at ``host:port`` (pid
    ``server_pid``, to sample), or over ``servers`` (port, pid) of one cluster.
    ``abuse``: an attack of :data:`SCENARIOS` by name meanwhile (True: ``flood``)."""
    abuse = "flood" if abuse is True else abuse
    if abuse and abuse not in SCENARIOS:
        raise ValueError(f"abuse {abuse!r}: one of {', '.join(SCENARIOS)}")
    servers = list(servers or [(port, server_pid)])
    urls = [f"ws://{host}:{p}/ws" for p, _ in servers]
    pids = [pid for _, pid in servers if pid is not None]
    clients = client_class(game)
    bot = bot or clients.default_bot
    stats = Stats()
    start = time.time()
    deadline = start + seconds
    started = [0]
    memory: List[Dict[str, Any]] = []
    rss_max = [0.0] * len(servers)
    attack: Dict[str, Any] = {}
    cpu_before = [cpu_s(pid) if pid is not None else 0.0 for _, pid in servers]
    client_cpu = time.process_time()

    def sample() -> None:
        if not pids:
            return
        each = [round(rss_mib(pid), 1) for pid in pids]
        for k, (_, pid) in enumerate(servers):
            if pid is not None:
                rss_max[k] = max(rss_max[k], rss_mib(pid))
        entry: Dict[str, Any] = {"s": round(time.time() - start, 1), "rss_mib": sum(each)}
        if len(servers) > 1:
            entry["by_process"] = each
        memory.append(entry)

    async def sampler() -> None:
        while time.time() < deadline:
            sample()
            await asyncio.sleep(min(sample_s, max(0.05, deadline - time.time())))

    async def launch(i: int) -> None:
        await asyncio.sleep(ramp_s * i / max(1, matches))
        await run_match(
            urls, stats, 1000 + 2 * i, deadline, started, clients, bot, honest_address(i), i
        )

    attacker = None
    if abuse:
        # The attacker is a process of its own, as it would be: its flood never delays
        # the honest clients' own loop (which measures their latency).
        attacker = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tictacblitz.loadtest",
            "--attack-only",
            "--host",
            host,
            "--port",
            str(servers[0][0]),
            "--seconds",
            str(seconds),
            "--abuse-rate",
            str(abuse_rate),
            "--abuse",
            str(abuse),
            stdout=asyncio.subprocess.PIPE,
            env=child_env(),
        )
    sampling = asyncio.ensure_future(sampler())
    await asyncio.gather(*(launch(i) for i in range(matches)))
    if attacker is not None:
        said, _ = await attacker.communicate()
        if attacker.returncode != 0 or not said:
            raise RuntimeError("the attacker process failed")
        attack.update(json.loads(said))
    sampling.cancel()
    sample()
    elapsed = time.time() - start
    out: Dict[str, Any] = {
        "matches": started[0],
        "seconds": round(elapsed, 1),
        "matches_finished": stats.finished,
        "messages": stats.received + stats.sent,
        "messages_per_s": round((stats.received + stats.sent) / elapsed, 1),
        "actions": stats.actions,
        "rejected": stats.rejected,
        "events": len(stats.latency),
        "latency_ms": percentiles(stats.latency),
        "lost_events": stats.lost,
        "errors": stats.errors,
        "closed_early": stats.closed_early,
        "memory": memory,
        "latency_by_window": latency_windows(
            stats.latency_at, stats.latency, start, elapsed, max(1.0, sample_s)
        ),
        "redirects": stats.redirects,
        "join_retries": stats.join_retries,
        "processes": process_report(servers, cpu_before, stats.hosted, rss_max),
        "client_cpu_s": round(time.process_time() - client_cpu, 2),
    }
    if abuse:
        out["abuse"] = attack
        out["honest_refused"] = (
            sum(stats.errors.values()) + stats.closed_early + (matches - started[0])
        )
    return out


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tictacblitz.loadtest", description=__doc__.split("\n")[0]
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
        "--game", default="blitz", help="the game (its loadtest/games/<game>.py clients)"
    )
    parser.add_argument(
        "--round-ms", type=int, default=None, help="rules.round_ms of the started server"
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes sharing one Redis, started here "
        f"(at most {MAX_PROCESSES}; needs redis-server)",
    )
    parser.add_argument("--sample-s", type=float, default=10.0, help="memory sampling period")
    parser.add_argument(
        "--bot", default=None, help="the bot preset the clients play like (Blitz: default medium)"
    )
    parser.add_argument(
        "--abuse",
        nargs="?",
        const="flood",
        default=None,
        metavar="SCENARIO",
        help="an attacker meanwhile: flood (the default: room creation and replay "
        f"requests), or one of {', '.join(SCENARIOS[1:])} (docs/server.md, 'Load')",
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
    if args.abuse is not None and args.abuse not in SCENARIOS:
        parser.error(f"--abuse {args.abuse}: one of {', '.join(SCENARIOS)}")
    if args.abuse == "rift-relock" and not args.attack_only:
        try:
            relocks = client_class(args.game).relocks()
        except ValueError:  # an unknown game, or one without load clients
            relocks = False
        if not relocks:  # a game whose load clients have a re-locking seat
            parser.error(f"--abuse rift-relock needs --game rift ({args.game} has no re-locks)")
    if args.attack_only:
        if not args.port or not 0 < args.seconds <= MAX_SECONDS:
            parser.error("--attack-only needs --port and --seconds")
        # A real attacker spends its own machine's CPU, not the server's: on loopback
        # it yields the shared cores first (nice 10), so that the figures are the server's.
        os.nice(10)
        report: Dict[str, Any] = {}
        deadline = time.time() + args.seconds
        scenario = args.abuse or "flood"
        asyncio.run(
            attack_scenario(scenario, args.host, args.port, deadline, report, args.abuse_rate)
        )
        print(json.dumps(report))
        return 0
    if not 1 <= args.matches <= MAX_MATCHES:
        parser.error(f"--matches must be 1..{MAX_MATCHES}")
    if not 0 < args.seconds <= MAX_SECONDS:
        parser.error(f"--seconds must be in (0, {MAX_SECONDS}]")
    try:
        clients = client_class(args.game)
    except NoClients:
        parser.error(f"--game {args.game}: no load clients (loadtest/games/{args.game}.py)")
    except ValueError as exc:  # an unknown game: the message names the registered ones
        parser.error(f"--game {args.game}: {exc}")
    if args.bot is not None and args.bot not in clients.bot_names:
        parser.error(f"--bot {args.bot}: one of {', '.join(clients.bot_names)}")
    if not 1 <= args.processes <= MAX_PROCESSES:
        parser.error(f"--processes must be 1..{MAX_PROCESSES}")
    if args.processes > 1 and args.port:
        parser.error("--processes starts its servers: no --port")
    started = None
    entries: List[Tuple[int, Optional[int]]] = [(args.port, None)]
    if not args.port:
        rules = {"round_ms": args.round_ms} if args.round_ms else {}
        try:
            started = Servers.start(args.processes, {"rules": rules, "game": args.game})
        except RuntimeError as exc:
            print(f"load: {exc}", file=sys.stderr)
            return 2
        entries = started.entries()
    try:
        result = asyncio.run(
            run_load(
                args.host,
                entries[0][0],
                args.matches,
                args.seconds,
                entries[0][1],
                args.sample_s,
                bot=args.bot,
                game=args.game,
                abuse=args.abuse,
                abuse_rate=args.abuse_rate,
                servers=entries,
            )
        )
        if started is not None and args.processes > 1:
            result["redis"] = started.redis_report(result["matches"], result["seconds"])
    finally:
        if started is not None:
            started.stop()
    print(json.dumps(result, indent=1))
    failed = result["errors"] or result["lost_events"] or result["closed_early"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
