"""Tic Tac Blitz through the lab gives exactly what it gave before the lab was split and
made game-generic: the same per-match records (every column, CSV bytes too), the same
summary numbers, tournament and sweep for fixed seeds (issue 11, "must not change").

The golden file was written by tests/data/make_lab_golden.py on the code before the
move; a failure here means ``tictacblitz simulate --seed S`` changed its output.
"""

import hashlib
import json
import os
import subprocess
import sys

import pytest

pa = pytest.importorskip("pyarrow")

from tictacblitz.lab.simulation import simulate  # noqa: E402
from tictacblitz.lab.sweep import sweep  # noqa: E402
from tictacblitz.lab.tournament import run_tournament  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "data", "lab_golden_blitz.json"), encoding="utf-8") as _fh:
    GOLDEN = json.load(_fh)
RUN_FIELDS = (
    "matches_per_s",
    "seconds",
    "cpu_seconds",
    "workers",
    "chunk_size",
    "out",
    "scheduler",
)
ADDED = {"game": "blitz"}
"""What the game-generic lab adds to a summary (a documented addition, not a change)."""


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


TARGETS = "targets"
"""The designer's target metrics (issue 24), a documented addition to Blitz's summary: a
new section, checked against the golden numbers it is derived from, then dropped, so every
number of before is still compared as it was."""


def outcome(summary):
    """The summary through JSON (as the golden file holds it), run fields dropped, and
    the added ``game`` and ``targets`` checked and dropped."""
    assert {k: summary[k] for k in ADDED} == ADDED
    targets = summary[TARGETS]
    # A round ends by a line or at the clock (R20), so the line share is
    # the complement of the golden timeout share, to rounding.
    assert targets["line_share"] == pytest.approx(1 - summary["timeout_share"], abs=1e-12)
    dropped = set(RUN_FIELDS) | set(ADDED) | {TARGETS}
    return json.loads(json.dumps({k: v for k, v in summary.items() if k not in dropped}))


@pytest.mark.parametrize(
    "case", GOLDEN["cases"], ids=lambda c: f"{c['x']}-{c['o']}-seed{c['seed']}"
)
def test_simulate_writes_the_records_and_summary_of_before_the_move(case, tmp_path):
    res = simulate(
        case["matches"], case["x"], case["o"], rules=case["rules"], seed=case["seed"], workers=2
    )
    assert str(res.table.schema) == case["schema"]
    rows = res.table.to_pylist()
    assert json.loads(json.dumps(rows[:3])) == case["first_rows"]
    assert sha(json.dumps(rows, sort_keys=True).encode()) == case["records_sha256"]
    assert outcome(res.summary) == case["summary"]
    out = tmp_path / "records.csv"
    simulate(
        case["matches"],
        case["x"],
        case["o"],
        rules=case["rules"],
        seed=case["seed"],
        workers=1,
        out=str(out),
        table=False,
    )
    assert sha(out.read_bytes()) == case["csv_sha256"]


def test_the_simulate_command_writes_the_records_of_before_the_move(tmp_path):
    cli = GOLDEN["cli"]
    out = tmp_path / "records.csv"
    argv = [str(out) if a == "FILE.csv" else a for a in cli["argv"]]
    env = dict(os.environ, PYTHONPATH=os.path.join(HERE, "..", "python"))
    proc = subprocess.run(
        [sys.executable, "-m", "tictacblitz", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert sha(out.read_bytes()) == cli["csv_sha256"]
    summary = json.loads(proc.stdout)
    # Issue 14: with a rule change, the command also plays the same seeds under the
    # defaults (an extra run): the A/B is added under "comparison"; the main run's
    # records and numbers are the ones of before.
    comparison = summary.pop("comparison")
    assert comparison["base_rules"] == {} and comparison["variant_rules"] == {"set_ms": 1200}
    assert outcome(summary) == cli["summary"]


def test_tournament_and_sweep_give_the_numbers_of_before_the_move():
    t = GOLDEN["tournament"]
    result = run_tournament(t["bots"], matches=t["matches"], seed=t["seed"])
    assert (result.pop("game"), result.pop("rules")) == ("blitz", {})  # added keys
    # the seats over the whole tournament (added keys): each pair plays both orders; every
    # pair of this one is one-sided, so no seat share is measurable (issue 22, item 3)
    assert result.pop("first_seat_decided") is None is result.pop("first_seat_decided_ci")
    left_out = result.pop("first_seat_left_out")
    assert sorted(left_out) == sorted(f"{p['a']} vs {p['b']}" for p in result["pairs"])
    # Elo (issue 22, item 3, a deliberate change of a statistic, not of the records): the
    # golden file holds the old prior-dominated fit (one virtual draw a pair); every pair
    # here is separated (20-0), so the new fit gives no rating, a bound for each pair.
    old_elo = {k: t["result"][k] for k in ("elo", "elo_ci")}
    assert old_elo["elo"] == {"greedy": 529.2, "medium": 0.0, "random": -529.2}
    assert result.pop("elo") == dict.fromkeys(t["bots"]) == result.pop("elo_ci")
    assert result.pop("elo_groups") == [["greedy"], ["medium"], ["random"]]
    assert result.pop("elo_separated_in_group") == []  # every bot is its own group
    assert result.pop("elo_method").startswith("Bradley-Terry maximum likelihood")
    bounds = result.pop("elo_bounds")
    assert [(b["stronger"], b["weaker"], b["points"]) for b in bounds] == [
        ("greedy", "medium", 20),
        ("greedy", "random", 20),
        ("medium", "random", 20),
    ]
    golden = {k: v for k, v in t["result"].items() if k not in old_elo}
    assert result.pop("draw_rate") == pytest.approx(
        sum(p["draws"] for p in result["pairs"]) / (result["matches"] * len(result["pairs"]))
    )
    result.pop("draw_ci")
    # issue 22, item 4 (added keys): each pair's test of "50 %" and its Holm adjustment
    # over the pairs; the raw figures and the raw "significant" stay as they were.
    assert result.pop("adjustment") == {"method": "Holm", "tests": 3, "alpha": 0.05}
    for pair in result["pairs"]:
        p, q = pair.pop("p"), pair.pop("p_adjusted")
        assert 0 <= p <= q <= 1 and pair.pop("significant_adjusted") == (q <= 0.05)
    assert json.loads(json.dumps(result)) == golden
    s = GOLDEN["sweep"]
    res = sweep(s["grid"], matches=s["matches"], x=s["x"], o=s["o"], seed=s["seed"], workers=1)
    # the target metrics (issue 24) are added rows, one a point each; the rows of before
    # are compared as they were
    added = [r for r in res.rows if r["metric"] in res.summaries[0][TARGETS]]
    assert {"line_share", "match_s"} <= {r["metric"] for r in added}
    assert len(added) == len(res.summaries) * len({r["metric"] for r in added})
    rows = [r for r in res.rows if r["metric"] != "matches_per_s" and r not in added]
    assert json.loads(json.dumps(rows)) == s["rows"]
    assert [outcome(x) for x in res.summaries] == s["summaries"]
