#!/usr/bin/env python3
"""Tic Tac Doh for 3 and 4 players, the exact answer (issue 25 item 3): each seat's
paranoid value of the empty table (the seat against a coalition of all the others,
DOH.md "Solving") for ``pieces_per_size`` 1, 2, ... on the 3x3 grid, with what each
solve cost, as the Markdown table of docs/doh.md ("Three and four players: the exact
answer").

    PYTHONPATH=python python benches/doh_paranoid.py               # docs/doh.md's table
    PYTHONPATH=python python benches/doh_paranoid.py --players 3 --max-pieces 6

Every seat's solve runs in a child process of its own, from a fresh table, single
threaded; pieces_per_size 1 to 5 are always solved, then each larger stash until a
seat's solve passes ``--limit-s`` seconds of wall time (the child is stopped there and
the row says so) or ``--max-pieces`` (10, the most D10's rules accept). A child's
address space is capped (``--memory-gib``): past it the table stops growing and the
search goes on without new entries. The machine's load average is printed with the
table (the wall and CPU times depend on it).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import List, Optional

HERE = Path(__file__).resolve().parent
ALWAYS = 5  # issue 25: pieces_per_size 1 to 5, whatever they cost


def solve_one(players: int, pieces: int, seat: int, memory_gib: float) -> None:
    """The child: one seat's solve, printed as one JSON line."""
    limit = int(memory_gib * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from tictacblitz.games.doh.rules import DohRules
    from tictacblitz.games.doh.solver import paranoid_solve

    rules = DohRules(players=players, pieces_per_size=pieces)
    out = paranoid_solve(rules, seat).to_dict()
    out["max_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out), flush=True)


def run_child(players: int, pieces: int, seat: int, args: argparse.Namespace) -> Optional[dict]:
    """One seat's solve in a child process; None if it ran past the time limit."""
    command = [sys.executable, str(Path(__file__).resolve()), "--child"]
    command += [str(players), str(pieces), str(seat), "--memory-gib", str(args.memory_gib)]
    timeout = None if pieces <= ALWAYS else args.limit_s
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        raise SystemExit(
            f"the solve of players={players}, pieces_per_size={pieces}, seat {seat} "
            f"failed:\n{done.stderr}"
        )
    return json.loads(done.stdout.strip().splitlines()[-1])


def mib(n: float) -> str:
    return f"{n / 2**20:,.1f} MiB"


def ms(seconds: float) -> str:
    return "< 0.1 ms" if seconds < 1e-4 else f"{seconds * 1000:,.1f} ms"


def row(result: dict) -> str:
    value = {"win": "**win**", "draw": "draw", "loss": "loss"}[result["value"]]
    return (
        f"| {result['players']} | {result['pieces_per_size']} | {result['seat']} | {value} "
        f"| {result['distance']} | {result['nodes']:,} | {result['entries']:,} "
        f"| {mib(result['memory_bytes'])} | {ms(result['seconds'])} "
        f"| {ms(result['cpu_seconds'])} |"
    )


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4], choices=[2, 3, 4])
    parser.add_argument("--max-pieces", type=int, default=10, choices=range(1, 11))
    parser.add_argument("--limit-s", type=float, default=60.0)
    parser.add_argument("--memory-gib", type=float, default=6.0)
    parser.add_argument("--json", type=Path, default=None, help="also write every result here")
    parser.add_argument("--child", type=int, nargs=3, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        solve_one(*args.child, memory_gib=args.memory_gib)
        return 0
    print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        "| players | pieces_per_size | seat | paranoid value | plies to the end "
        "| positions expanded | table entries | table memory | wall | CPU |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    results = []
    for players in args.players:
        for pieces in range(1, args.max_pieces + 1):
            stopped = False
            for seat in range(players):
                result = run_child(players, pieces, seat, args)
                if result is None:
                    print(
                        f"| {players} | {pieces} | {('first', 'second', 'third', 'fourth')[seat]} "
                        f"| over {args.limit_s:g} s: stopped | | | | | | |",
                        flush=True,
                    )
                    stopped = True
                    break
                results.append(result)
                print(row(result), flush=True)
            if stopped:
                break
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
