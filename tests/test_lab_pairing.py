"""The lab's pairing gain (issue 22): the paired interval only where it is narrower."""

from __future__ import annotations

import numpy as np

from tictacblitz.lab.answers import comparison, text
from tictacblitz.lab.paired import PairedRatios
from tictacblitz.lab.study import _renamed


def pairs(correlated: bool, n: int = 4000) -> PairedRatios:
    rng = np.random.default_rng(3)
    a = (rng.random(n) < 0.5).astype(np.int64)
    flip = (rng.random(n) < 0.1) if correlated else (rng.random(n) < 0.5)
    b = np.where(flip, 1 - a, a) if correlated else (rng.random(n) < 0.5).astype(np.int64)
    one = np.ones(n, dtype=np.int64)
    pair = PairedRatios()
    pair.add({"m": (a, one, 1.0)}, {"m": (b, one, 1.0)})
    return pair


def test_correlated_runs_get_the_narrower_paired_interval():
    pair = pairs(correlated=True)
    ratio = pair.width_ratio("m")
    assert ratio is not None and ratio < 0.6  # 90 % of the matches agree
    row = pair.table()["m"]
    assert row["paired"] and row["ci"] == pair.difference("m")[1]


def test_independent_runs_fall_back_to_the_unpaired_interval():
    pair = pairs(correlated=False)
    ratio = pair.width_ratio("m")
    assert ratio is not None and 0.9 < ratio < 1.1
    row = pair.table()["m"]
    wider = max(
        pair.difference("m")[1][1] - pair.difference("m")[1][0],
        pair.difference("m", paired=False)[1][1] - pair.difference("m", paired=False)[1][0],
    )
    assert row["ci"][1] - row["ci"][0] <= wider
    assert row["paired"] == (ratio < 1.0)
    if not row["paired"]:
        assert row["ci"] == pair.difference("m", paired=False)[1]


def test_the_ab_table_prints_the_gain_per_metric():
    pair = pairs(correlated=True)
    row = pair.table()["m"]
    summary = {
        "game": "blitz",
        "x_bot": "greedy",
        "o_bot": "greedy",
        "comparison": {
            "variant_rules": {"set_ms": 2100},
            "base_rules": {},
            "matches": pair.n,
            "differences": {"decisiveness": _renamed(pair.table(), "variant", "base")["m"]},
        },
    }
    lines = "\n".join(text(comparison(summary)))
    assert "pairing gain" in lines
    assert f"{row['width_ratio']:.2f}" in lines
