"""Simulation throughput and memory: ``tictacblitz simulate`` with two ``greedy`` bots
(docs/simulate.md records the figures); ``--game NAME`` measures another registered
game with its default bots, through the same game-generic lab.

As pytest benchmarks (small N, for the session table):

    PYTHONPATH=python python -m pytest benches/bench_simulate.py --benchmark-only -s

As the measurements of docs/simulate.md (each run in a fresh process; wall-clock *and*
CPU time, since the machine is shared and wall-clock alone is noisy):

    PYTHONPATH=python python benches/bench_simulate.py scaling [--matches 20000] [--game blitz]
    PYTHONPATH=python python benches/bench_simulate.py memory [--sizes 10000,100000] [--game blitz]

``scaling`` plays the same N matches on 1 thread, on 2 threads, and on 2 separate
processes at once (the machine's real parallel capacity at that moment, as a
reference), repeated ``--repeat`` times, best of each. ``memory`` runs ``simulate`` with
records streamed to Parquet at each N and reports wall time and peak RSS.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

try:
    from tictacblitz.lab.simulation import simulate
except ImportError:  # pragma: no cover - run as a script from the root without PYTHONPATH
    sys.path.insert(0, os.path.join(ROOT, "python"))
    from tictacblitz.lab.simulation import simulate


# -- pytest-benchmark --------------------------------------------------------------------------


@pytest.mark.parametrize("workers", [1, 2])
def test_simulate_greedy(benchmark, workers):
    n = 2000
    result = benchmark.pedantic(
        simulate,
        args=(n, "greedy", "greedy"),
        kwargs={"seed": 1, "workers": workers, "table": False},
        rounds=3,
        iterations=1,
    )
    s = result.summary
    benchmark.extra_info["matches_per_s"] = n / benchmark.stats["min"]
    benchmark.extra_info["cpu_s_per_1000"] = 1000 * s["cpu_seconds"] / n
    print(
        f"\n{workers} worker(s): {n / benchmark.stats['min']:,.0f} matches/s, "
        f"{1000 * s['cpu_seconds'] / n:.3f} CPU s a 1000 matches"
    )


def _other_games() -> list:
    from tictacblitz.games import available_games

    return [g for g in available_games() if g != "blitz"]


@pytest.mark.parametrize("game", _other_games())
def test_simulate_other_games(benchmark, game):
    """Every other registered game through the same lab path (default bots, 2 threads)."""
    n = 2000
    result = benchmark.pedantic(
        simulate,
        args=(n,),
        kwargs={"seed": 1, "workers": 2, "table": False, "game": game},
        rounds=3,
        iterations=1,
    )
    benchmark.extra_info["matches_per_s"] = n / benchmark.stats["min"]
    assert result.summary["matches"] == n


# -- measurements for docs/simulate.md -----------------------------------------------------


CHILD = """
import json, os, resource, sys, time
sys.path.insert(0, {python!r})
from tictacblitz.lab.simulation import simulate
n, workers, out, game = {n}, {workers}, {out!r}, {game!r}
t, c = time.perf_counter(), time.process_time()
_, s = simulate(n, seed=1, workers=workers, out=out, table=False, game=game)   # default bots
print(json.dumps({{"matches": n, "workers": workers, "wall_s": time.perf_counter() - t,
                  "cpu_s": time.process_time() - c, "x_wins": s["x_wins"]}}))
"""


def child(n: int, workers: int, out: str | None = None, game: str = "blitz") -> subprocess.Popen:
    code = CHILD.format(
        python=os.path.join(ROOT, "python"), n=n, workers=workers, out=out, game=game
    )
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)


def finish(proc: subprocess.Popen) -> dict:
    _, status, usage = os.wait4(proc.pid, 0)
    out = json.loads(proc.stdout.read())
    proc.returncode = status
    out["peak_rss_mb"] = usage.ru_maxrss / 1024
    return out


def loadavg() -> float:
    return os.getloadavg()[0]


def scaling(matches: int, repeat: int, game: str = "blitz") -> dict:
    best: dict = {}
    for _ in range(repeat):
        for name in ("1 thread", "2 threads", "2 processes"):
            load = loadavg()
            t = time.perf_counter()
            if name == "2 processes":
                procs = [child(matches // 2, 1, game=game), child(matches // 2, 1, game=game)]
                runs = [finish(p) for p in procs]
                wall = time.perf_counter() - t
                cpu = sum(r["cpu_s"] for r in runs)
            else:
                r = finish(child(matches, 1 if name == "1 thread" else 2, game=game))
                wall, cpu = r["wall_s"], r["cpu_s"]
            row = {
                "wall_s": round(wall, 3),
                "cpu_s": round(cpu, 3),
                "matches_per_s": round(matches / wall),
                "cpu_s_per_1000": round(1000 * cpu / matches, 3),
                "load_before": round(load, 2),
            }
            if name not in best or row["wall_s"] < best[name]["wall_s"]:
                best[name] = row
    best["speedup_threads"] = round(best["1 thread"]["wall_s"] / best["2 threads"]["wall_s"], 2)
    best["speedup_processes"] = round(best["1 thread"]["wall_s"] / best["2 processes"]["wall_s"], 2)
    return {"game": game, "matches": matches, "best_of": repeat, **best}


def memory(sizes: list[int], workers: int, game: str = "blitz") -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            out = os.path.join(tmp, f"r{n}.parquet")
            load = round(loadavg(), 2)
            r = finish(child(n, workers, out, game))
            r["parquet_mb"] = round(os.path.getsize(out) / 2**20, 2)
            r["load_before"] = load
            rows.append(r)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    s = sub.add_parser("scaling")
    s.add_argument("--matches", type=int, default=20000)
    s.add_argument("--repeat", type=int, default=3)
    m = sub.add_parser("memory")
    m.add_argument("--sizes", default="10000,100000")
    m.add_argument("--workers", type=int, default=2)
    for p in (s, m):
        p.add_argument("--game", default="blitz", help="a registered game (default: blitz)")
    args = parser.parse_args()
    if args.what == "scaling":
        print(json.dumps(scaling(args.matches, args.repeat, args.game), indent=1))
    else:
        print(
            json.dumps(
                memory([int(v) for v in args.sizes.split(",")], args.workers, args.game), indent=1
            )
        )


if __name__ == "__main__":
    main()
