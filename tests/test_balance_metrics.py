"""The metrics a designer's targets name (issue 24 item 3: ``line_share``, ``match_s``,
``cap_share``, ``seat_gap``, each powerup kind's ``KIND_uses`` for Blitz; each ability's
``ABILITY_uses`` and ``seat_gap`` for Rift & Grid): each agrees with the summary's older
figures where one exists, has an interval around its value, merges in any order, and is
reachable through the ``PRECISION_METRICS`` hook (``simulate --precision``, ``tune``).
Every test here fails before the metrics existed (no ``targets`` in the summary)."""

import subprocess
import sys

import numpy as np
import pytest

from tictacblitz.games.blitz.rules import Rules
from tictacblitz.games.stats import ratio_ci
from tictacblitz.lab.cost import metric_interval
from tictacblitz.lab.games.blitz.balance import play_matches
from tictacblitz.lab.games.blitz.metrics import Metrics
from tictacblitz.lab.games.blitz.targets import TARGET_METRICS
from tictacblitz.lab.hooks import hooks_for
from tictacblitz.lab.metric import first_seat_score2
from tictacblitz.lab.simulation import simulate
from tictacblitz.lab.units import label, unit

MATCHES = 120


@pytest.fixture(scope="module")
def club():
    """Club players (a human-like preset) in both seats at the defaults."""
    return simulate(MATCHES, "club", "club", seed=3, table=False).summary


def test_blitz_targets_agree_with_the_older_figures(club):
    s, t = club, club["targets"]
    r = s["rounds"]
    assert t["line_share"] == pytest.approx((r["by_line"] + r["by_double_line"]) / r["total"])
    assert t["match_s"] == pytest.approx(s["match_length_ms"]["mean"] / 1000)
    capped = s["match_rounds"]["distribution"].get(str(Rules().max_rounds), 0)
    assert t["cap_share"] == pytest.approx(capped / s["matches"])
    score = (s["x_wins"] + s["draws"] / 2) / s["matches"]
    assert t["seat_gap"] == pytest.approx(score - 0.5)
    for kind, p in s["powerups"].items():
        assert t[f"{kind}_uses"] == pytest.approx(p["claims_per_round"])
        assert t[f"{kind}_uses"] > 0, kind  # club players claim every kind


def test_blitz_targets_have_intervals_units_and_precision_paths(club):
    for name in (m.name for m in TARGET_METRICS):
        assert name in hooks_for("blitz").PRECISION_METRICS, name
        value, ci = metric_interval(club, name, "blitz")
        assert value is not None and ci is not None, name
        assert ci[0] <= value <= ci[1] and ci[1] - ci[0] > 0, (name, value, ci)
        assert unit(name, "blitz") and label(name, "blitz") != name, name
    assert unit("seat_gap", "blitz") == "pp" and unit("match_s", "blitz") == "s"


def test_blitz_line_round_length_counts_only_rounds_ended_by_a_line():
    cols = play_matches(None, ("club", "club"), np.arange(40, dtype=np.uint64))
    m = Metrics(Rules())
    m.add(cols)
    t = m.to_dict()["targets"]
    played = np.arange(cols["round_by"].shape[1])[None, :] < cols["rounds"][:, None]
    line = played & (cols["round_by"] != 2)  # BY_TIMEOUT
    assert t["line_round_s"] == pytest.approx(cols["round_end_t"][line].mean() / 1000)
    assert t["line_round_s"] < Rules().round_ms / 1000


def test_blitz_targets_merge_in_any_order():
    cols = play_matches(None, ("casual", "club"), np.arange(60, dtype=np.uint64))
    half = {k: v[:25] for k, v in cols.items()}, {k: v[25:] for k, v in cols.items()}
    whole, first, second = (Metrics(Rules()) for _ in range(3))
    whole.add(cols)
    first.add(half[1])
    second.add(half[0])
    first.merge(second)
    assert first.to_dict()["targets"] == whole.to_dict()["targets"]


def test_seat_gap_has_the_first_seat_s_sign():
    """club as X against novice as O: X's gap is positive, and the swapped run's negative
    (the seat gap of two different players is the mean of both: their strengths cancel)."""
    s = simulate(60, "club", "novice", seed=1, table=False, swap_seats=True).summary
    swapped = s["seat_swap"]["swapped"]["targets"]
    assert s["targets"]["seat_gap_ci"][0] > 0 > swapped["seat_gap_ci"][1]


def test_ratio_interval_is_over_matches():
    """Per-match sums: a ratio of 3 rounds a match that all ended the same way has no
    spread; halves that differ by match widen it."""
    a, b = np.array([3, 0, 3, 0]), np.array([3, 3, 3, 3])
    sums = [4, a.sum(), b.sum(), (a * a).sum(), (b * b).sum(), (a * b).sum()]
    value, ci = ratio_ci(sums)
    assert value == 0.5 and ci[0] < 0.5 - 0.2 and ci[1] > 0.5 + 0.2


def test_rift_targets(tmp_path):
    s = simulate(40, "greedy", "greedy", game="rift", seed=2, table=False, ablate=["reveal"])
    s = s.summary
    t = s["targets"]
    assert t["seat_gap"] == pytest.approx(s["seat_advantage"]["x_score"] - 0.5)
    for ability in ("shield", "swap", "reveal"):
        name = f"{ability}_uses"
        assert name in hooks_for("rift").PRECISION_METRICS and unit(name, "rift") == "uses"
        assert t[name] == s["abilities"][ability]["uses_per_game"]
    value, ci = metric_interval(s, "seat_gap", "rift")
    assert ci is not None and ci[0] <= value <= ci[1]
    # the ablation pairs seat_gap by seed (match_values)
    assert "seat_gap" in s["ablation"]["features"]["reveal"]["effects"]


def test_precision_takes_a_target_name():
    proc = subprocess.run(
        [sys.executable, "-m", "tictacblitz", "simulate", "--matches", "300", "--x", "club",
         "--o", "club", "--no-progress", "--precision", "match_s=20", "--seed", "1"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "match_s" in proc.stderr + proc.stdout


@pytest.mark.parametrize(
    ("game", "bots", "metric"),
    [("doh", ("random", "random"), "first_score"), ("rift", ("random", "random"), "x_score")],
)
def test_the_first_seats_score_is_the_platforms_one(game, bots, metric):
    # issue 27, item 3: Doh's first_score and Rift's x_score were each computed twice in
    # their balance.py (the summary and the per-match values), by two formulas; both
    # now read the lab's first_seat_score2 (lab/metric.py), so the summary, the
    # per-match values and the lab agree on the same matches (draws included).
    from tictacblitz.games import load_game

    balance = hooks_for(game)
    rules = load_game(game).rules
    cols = balance.play_matches(rules, bots, np.arange(1, 201, dtype=np.uint64))
    doubled = first_seat_score2(cols["winner"])
    assert set(np.unique(doubled)) <= {0, 1, 2} and 0 < doubled.sum() < 2 * len(doubled)
    num, den, scale = balance.match_values(cols)[metric]
    assert np.array_equal(num, doubled) and np.array_equal(den, 2 * np.ones_like(doubled))
    metrics = balance.Metrics(rules)
    metrics.add(cols)
    summary = metrics.to_dict()["seat_advantage"][metric]
    assert summary == pytest.approx(doubled.mean() / 2)
    assert first_seat_score2([0, 1, -1, -1]).tolist() == [2, 0, 1, 1]
