"""The cost of ``tictacblitz tune`` beyond the matches it plays, and its candidates per
minute (issue 24, benchmarks; docs/tune.md records the figures).

*Overhead* (the issue's definition): a search of Blitz with greedy players (``set_ms``
and ``recharge_knockout_ms`` varied, one target) is timed whole, then the very matches
it played (each candidate's rule set, seeds and count, recorded by wrapping the lab's
runner) are played again directly with :func:`~tictacblitz.lab.simulation.simulate` (no
Optuna, no study) and timed; the overhead is ``(tune's wall time - the direct wall
time) / tune's wall time``. The machine is shared, so ``--rounds`` repeats the pair
(tune, then direct) and both are summed over the rounds: the two see the same load.
The time inside the runner during the search is also given (the search loop's
overhead a candidate), and CPU time beside wall time.

*Statements*: the SQL statements the default SQLite study runs a candidate, counted (not
timed) with an SQLAlchemy event, by thread: those of the ``tune-ask`` thread run while
a candidate's matches play (:mod:`~tictacblitz.lab.tune_loop`), the main thread's
between candidates. A candidate's count is the difference between searches of 12 and
4 candidates, over 8.

As pytest benchmarks (small, for the session table):

    PYTHONPATH=python python -m pytest benches/bench_tune.py --benchmark-only -s

As the measurements of docs/tune.md:

    PYTHONPATH=python python benches/bench_tune.py overhead [--trials 8] [--matches 1000]
        [--storage sqlite|journal] [--rounds 3]
    PYTHONPATH=python python benches/bench_tune.py statements
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

try:
    from tictacblitz.lab import candidates as lab_candidates
except ImportError:  # pragma: no cover - run as a script from the root without PYTHONPATH
    sys.path.insert(0, os.path.join(ROOT, "python"))
    from tictacblitz.lab import candidates as lab_candidates

from tictacblitz.lab.simulation import simulate  # noqa: E402
from tictacblitz.lab.tune import tune  # noqa: E402

VARY = ["set_ms=800..2000", "recharge_knockout_ms=500..3000"]
TARGET = ["decisiveness >= 0.5"]


def measure_overhead(trials: int, matches: int, workers: int, storage: str = "sqlite") -> dict:
    """One search, timed whole and inside the runner; then its rule sets played
    directly."""
    real = lab_candidates.simulate
    inside = {"wall": 0.0, "runs": 0, "matches": 0}
    played = []
    spans = []  # (start, end) of each runner call

    inside["cpu"] = 0.0

    def timed(n, **kw):
        t0, c0 = time.perf_counter(), time.process_time()
        out = real(n, **kw)
        spans.append((t0, time.perf_counter()))
        inside["wall"] += spans[-1][1] - t0
        inside["cpu"] += time.process_time() - c0
        inside["runs"] += 1
        inside["matches"] += n
        played.append((n, kw["seed"], kw["game"].rules))
        return out

    lab_candidates.simulate = timed
    try:
        with tempfile.TemporaryDirectory() as folder:
            wall0, cpu0 = time.perf_counter(), time.process_time()
            result = tune(
                "blitz",
                VARY,
                TARGET,
                seats=["all=greedy"],
                trials=trials,
                matches=matches,
                confirm=1,
                confirm_matches=matches,
                storage=f"sqlite:///{folder}/bench.db"
                if storage == "sqlite"
                else f"journal:{folder}/bench.log",
                workers=workers,
                sampler_seed=1,
            )
            wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    finally:
        lab_candidates.simulate = real
    direct0, direct_cpu0 = time.perf_counter(), time.process_time()
    for n, seed, rules in played:
        simulate(n, seed=seed, rules=rules, game="blitz", bots=["greedy"] * 2,
                 workers=workers, table=False)  # fmt: skip
    direct, direct_cpu = time.perf_counter() - direct0, time.process_time() - direct_cpu0
    # The search loop, from its first candidate's start to its last one's end: what tune
    # adds a candidate (Optuna's sampling, the study's writes, building the rules); the
    # rest of the overhead is paid once a run (opening the storage, the ranking, the
    # importances).
    search = spans[:trials]
    loop = search[-1][1] - search[0][0]
    in_loop = sum(b - a for a, b in search)
    return {
        "trials": trials,
        "matches_a_candidate": matches,
        "runs": inside["runs"],
        "matches": inside["matches"],
        "workers": workers,
        "storage": storage,
        "tune_wall_s": wall,
        "tune_cpu_s": cpu,
        "inside_runner_wall_s": inside["wall"],
        "overhead_share_of_wall": (wall - inside["wall"]) / wall,
        # CPU time does not count the waits of a loaded machine: the steadier share.
        "inside_runner_cpu_s": inside["cpu"],
        "overhead_share_of_cpu": (cpu - inside["cpu"]) / cpu,
        "search_loop_wall_s": loop,
        "overhead_share_of_search_loop": (loop - in_loop) / loop,
        "overhead_s_a_candidate": (loop - in_loop) / max(1, trials - 1),
        "once_a_run_s": (wall - inside["wall"]) - (loop - in_loop),
        "direct_wall_s": direct,
        "direct_cpu_s": direct_cpu,
        "overhead_share_vs_direct": (wall - direct) / wall,
        # Every run plays `matches` matches (the re-plays too: confirm_matches = matches).
        "candidates_per_min": 60 * inside["runs"] / wall,
        "finalists": len(result.finalists),
        "load_1min": os.getloadavg()[0],
    }


def count_statements(few: int = 4, many: int = 12) -> dict:
    """SQL statements a candidate, by thread (see the module doc)."""
    import collections
    import threading

    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    counts: collections.Counter = collections.Counter()

    def count(*_args) -> None:
        counts[threading.current_thread().name.split("_")[0]] += 1

    def search(trials: int) -> dict:
        counts.clear()
        with tempfile.TemporaryDirectory() as folder:
            tune("blitz", VARY, TARGET, seats=["all=greedy"], trials=trials, matches=20,
                 confirm=1, confirm_matches=20, storage=f"sqlite:///{folder}/count.db",
                 workers=2, sampler_seed=1)  # fmt: skip
        return dict(counts)

    event.listen(Engine, "before_cursor_execute", count)
    try:
        a, b = search(few), search(many)
    finally:
        event.remove(Engine, "before_cursor_execute", count)
    return {
        "a_candidate": {k: (b.get(k, 0) - a.get(k, 0)) / (many - few) for k in sorted({*a, *b})},
        f"search_of_{few}": a,
        f"search_of_{many}": b,
    }


# -- pytest-benchmark --------------------------------------------------------------------------


def test_tune_candidates_per_minute_blitz_greedy(benchmark):
    got = {}

    def run():
        got.update(measure_overhead(trials=4, matches=200, workers=2))

    benchmark.pedantic(run, rounds=1, iterations=1)
    for key in ("overhead_share_of_wall", "candidates_per_min", "load_1min"):
        benchmark.extra_info[key] = got[key]
    print(f"\n{json.dumps(got, indent=1)}")
    assert got["runs"] == 4 + got["finalists"]  # the candidates, then the base and finalists


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["overhead", "statements"])
    parser.add_argument("--trials", type=int, default=8)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--storage", choices=["sqlite", "journal"], default="sqlite")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.what == "statements":
        print(json.dumps(count_statements(), indent=1))
        return
    runs = []
    for _ in range(args.rounds):  # tune then direct, again and again: the same load for both
        runs.append(measure_overhead(args.trials, args.matches, args.workers, args.storage))
        print(json.dumps(runs[-1]), flush=True)
    tune_wall = sum(r["tune_wall_s"] for r in runs)
    direct_wall = sum(r["direct_wall_s"] for r in runs)
    total = {
        "rounds": args.rounds,
        "tune_wall_s": tune_wall,
        "direct_wall_s": direct_wall,
        "overhead_share_vs_direct": (tune_wall - direct_wall) / tune_wall,
        "overhead_s_a_candidate_in_loop": sorted(r["overhead_s_a_candidate"] for r in runs),
        "candidates_per_min": 60 * sum(r["runs"] for r in runs) / tune_wall,
        "load_1min": [r["load_1min"] for r in runs],
    }
    print(json.dumps(total, indent=1))


if __name__ == "__main__":
    main()
