"""Writes tests/data/lab_golden_blitz.json: the per-match records (as hashes plus the
first rows), the summaries, a tournament and a sweep of Tic Tac Blitz for fixed seeds.

It was run once on the code *before* the lab was split and made game-generic (commit
d08f47f, ``lab/simulation.py`` of 925 lines); tests/test_lab_golden.py asserts the
reworked lab gives the very same. Do not regenerate it to make a test pass: a
difference means ``tictacblitz simulate --seed S`` no longer writes the same records.
It was regenerated once, on purpose, when Blitz's new matches moved to random stream
layout 2 (issue 22: the same seeds play other matches); the summaries are stored as
tests/test_lab_golden.py normalises them (the keys the game-generic lab added since
d08f47f dropped).

    PYTHONPATH=python python3 tests/data/make_lab_golden.py
"""

import hashlib
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RUN_FIELDS = (
    "matches_per_s",
    "seconds",
    "cpu_seconds",
    "workers",
    "chunk_size",
    "out",
    "scheduler",
)
CASES = [
    {"matches": 200, "x": "greedy", "o": "greedy", "rules": {"set_ms": 1200}, "seed": 1},
    {"matches": 200, "x": "easy", "o": "random", "rules": {"set_ms": 1200}, "seed": 1},
    {
        "matches": 150,
        "x": "greedy",
        "o": "medium",
        "rules": {"round_ms": 20000, "powerup_weights": {"bomb": 3, "swap": 1}},
        "seed": 7,
    },
]


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def records_digest(table) -> str:
    return sha(json.dumps(table.to_pylist(), sort_keys=True).encode())


ADDED = ("game",)
"""Keys the game-generic lab added to a summary (tests/test_lab_golden.py drops them)."""
TOURNAMENT_ADDED = ("game", "rules", "first_seat_decided", "first_seat_decided_ci")
TOURNAMENT_ADDED += ("draw_rate", "draw_ci")


def outcome(summary):
    return json.loads(
        json.dumps({k: v for k, v in summary.items() if k not in RUN_FIELDS and k not in ADDED})
    )


def main() -> None:
    from tictacblitz.lab.simulation import simulate
    from tictacblitz.lab.sweep import sweep
    from tictacblitz.lab.tournament import run_tournament

    cases = []
    for case in CASES:
        res = simulate(
            case["matches"], case["x"], case["o"], rules=case["rules"], seed=case["seed"], workers=2
        )
        with tempfile.TemporaryDirectory() as tmp:
            csv_path = os.path.join(tmp, "r.csv")
            simulate(
                case["matches"],
                case["x"],
                case["o"],
                rules=case["rules"],
                seed=case["seed"],
                workers=1,
                out=csv_path,
                table=False,
            )
            with open(csv_path, "rb") as fh:
                csv_sha = sha(fh.read())
        cases.append(
            {
                **case,
                "schema": str(res.table.schema),
                "records_sha256": records_digest(res.table),
                "csv_sha256": csv_sha,
                "first_rows": res.table.slice(0, 3).to_pylist(),
                "summary": outcome(res.summary),
            }
        )
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cli.csv")
        env = dict(os.environ, PYTHONPATH=os.path.join(HERE, "..", "..", "python"))
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "tictacblitz",
                "simulate",
                "--matches",
                "200",
                "--seed",
                "1",
                "--rule",
                "set_ms=1200",
                "--out",
                out,
                "--json",
                "--no-progress",
            ],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        with open(out, "rb") as fh:
            cli = {
                "argv": [
                    "simulate",
                    "--matches",
                    "200",
                    "--seed",
                    "1",
                    "--rule",
                    "set_ms=1200",
                    "--out",
                    "FILE.csv",
                    "--json",
                    "--no-progress",
                ],
                "csv_sha256": sha(fh.read()),
                "summary": outcome(
                    {k: v for k, v in json.loads(proc.stdout).items() if k != "comparison"}
                ),
            }
    tour = run_tournament(["random", "greedy", "medium"], matches=20, seed=1)
    tour = {k: v for k, v in tour.items() if k not in TOURNAMENT_ADDED}
    sw = sweep({"set_ms": [800, 1600]}, matches=30, x="greedy", o="random", seed=2, workers=1)
    rows = [r for r in sw.rows if r["metric"] != "matches_per_s"]
    golden = {
        "generated_from": "d08f47f (before the lab split); regenerated for issue 22 (layout 2)",
        "cases": cases,
        "cli": cli,
        "tournament": {
            "bots": ["random", "greedy", "medium"],
            "matches": 20,
            "seed": 1,
            "result": tour,
        },
        "sweep": {
            "grid": {"set_ms": [800, 1600]},
            "matches": 30,
            "x": "greedy",
            "o": "random",
            "seed": 2,
            "rows": rows,
            "summaries": [outcome(s) for s in sw.summaries],
        },
    }
    with open(os.path.join(HERE, "lab_golden_blitz.json"), "w", encoding="utf-8") as fh:
        json.dump(golden, fh, indent=1, sort_keys=True)
        fh.write("\n")


if __name__ == "__main__":
    main()
