"""Honest seat and rating figures (issue 22, item 3).

Ratings: a Bradley-Terry maximum-likelihood fit with no prior, whose intervals come from
the data; a (nearly) separated pair is a bound, not a number. Before issue 22 a virtual
draw per pair set the ratings of one-sided pairings: the same six Blitz bots gave greedy
+898 at 50 matches a pair, +1365 at 400 and +1739 at 3,200, intervals disjoint.

Seats: between two bots where the weaker wins (almost) nothing, the first seat's share
is pinned near 50 % whatever the seat does: "not measurable", with the reason.
"""

from __future__ import annotations

import pytest

from tictacblitz.lab import answers
from tictacblitz.lab.ratings import ELO_SCALE, fit_ratings, format_report
from tictacblitz.lab.seats import MIN_WEAKER_WINS, seat_range, seat_verdict
from tictacblitz.lab.simulation import simulate
from tictacblitz.lab.stats import wilson
from tictacblitz.lab.tournament import run_tournament

# (a, b, a's wins, b's wins, draws) per 50 matches: a ladder a > b > c with every pair
# scoring both ways, and "z", which never scores a point against anyone.
PER_50 = [
    ("a", "b", 28, 17, 5),
    ("a", "c", 35, 12, 3),
    ("b", "c", 30, 18, 2),
    ("a", "z", 50, 0, 0),
    ("b", "z", 50, 0, 0),
    ("c", "z", 50, 0, 0),
]


def pairs_at(matches: int):
    k = matches // 50
    return [
        {"a": a, "b": b, "a_wins": aw * k, "b_wins": bw * k, "draws": d * k}
        for a, b, aw, bw, d in PER_50
    ]


@pytest.mark.parametrize("big", [400, 3200])
def test_ratings_do_not_drift_with_the_number_of_matches(big):
    names = ["a", "b", "c", "z"]
    small, large = fit_ratings(names, pairs_at(50)), fit_ratings(names, pairs_at(big))
    for name in "abc":
        # the same outcome proportions: the same point estimate, a narrower interval
        assert large["elo"][name] == pytest.approx(small["elo"][name], abs=0.15)
        lo, hi = small["elo_ci"][name]
        assert lo <= large["elo"][name] <= hi
        assert large["elo_ci"][name][1] - large["elo_ci"][name][0] < hi - lo
    assert small["elo"]["a"] > small["elo"]["b"] > small["elo"]["c"]
    assert small["elo_groups"] == [["a", "b", "c"], ["z"]] == large["elo_groups"]
    # the separated bot has no rating, at every size: its pairs are bounds
    for fit, n in ((small, 50), (large, big)):
        assert fit["elo"]["z"] is None and fit["elo_ci"]["z"] is None
        bounds = {(b["stronger"], b["weaker"]): b for b in fit["elo_bounds"]}
        assert set(bounds) == {("a", "z"), ("b", "z"), ("c", "z")}
        for b in bounds.values():
            assert b["separation"] == "perfect" and b["points"] == b["games"] == n
            lo = wilson(n, n)[0]
            assert b["elo_at_least"] == pytest.approx(ELO_SCALE * _logit(lo), abs=0.05)
    # more matches, a higher bound (the data say more), but never a point estimate
    assert large["elo_bounds"][0]["elo_at_least"] > small["elo_bounds"][0]["elo_at_least"]


def _logit(p):
    import math

    return math.log(p / (1 - p))


def test_a_nearly_separated_pair_is_a_bound_and_a_fitted_one_is_the_mle():
    names = ["x", "y"]
    near = fit_ratings(names, [{"a": "x", "b": "y", "a_wins": 3996, "b_wins": 4, "draws": 0}])
    assert near["elo"] == {"x": None, "y": None}
    (b,) = near["elo_bounds"]
    assert (b["stronger"], b["weaker"], b["separation"]) == ("x", "y", "near")
    fitted = fit_ratings(names, [{"a": "x", "b": "y", "a_wins": 75, "b_wins": 25, "draws": 0}])
    # two bots, 75 % for x: the MLE difference is the logit of 0.75, in Elo
    diff = fitted["elo"]["x"] - fitted["elo"]["y"]
    assert diff == pytest.approx(ELO_SCALE * _logit(0.75), abs=0.2)
    assert fitted["elo_bounds"] == []


def test_a_separated_pair_inside_a_group_is_flagged():
    # search never lost to greedy, but both scored against hard, who scored against
    # both: the three are one group (finite ratings), and the pair is flagged
    pairs = [
        {"a": "greedy", "b": "search", "a_wins": 0, "b_wins": 50, "draws": 0},
        {"a": "greedy", "b": "hard", "a_wins": 30, "b_wins": 16, "draws": 4},
        {"a": "search", "b": "hard", "a_wins": 32, "b_wins": 14, "draws": 4},
    ]
    fit = fit_ratings(["greedy", "search", "hard"], pairs)
    assert fit["elo_groups"] == [["greedy", "search", "hard"]] and fit["elo_bounds"] == []
    assert [(f["stronger"], f["weaker"]) for f in fit["elo_separated_in_group"]] == [
        ("search", "greedy")
    ]
    assert fit["elo"]["search"] > fit["elo"]["hard"] and None not in fit["elo"].values()


def test_the_tournament_reports_bounds_for_one_sided_pairs():
    result = run_tournament(["random", "greedy"], 10, seed=0)
    assert result["elo"] == {"random": None, "greedy": None}
    (b,) = result["elo_bounds"]
    assert (b["stronger"], b["weaker"], b["games"]) == ("greedy", "random", 10)
    text = format_report(result)
    assert "greedy > random: at least +" in text and "no prior" in text
    assert "seat advantage not measurable in random vs greedy" in text


def test_seat_range_and_verdict():
    # B won 10 of 4,000 decided matches: the share is pinned to [49.75, 50.25] %
    assert seat_range(3990, 2000, 2000) == (0.4975, 0.5025)
    ok, why, _ = seat_verdict(3990, 2000, 2000, [0.498, 0.501])
    assert not ok and "won 10 of 4,000 decided matches" in why
    ok, why, possible = seat_verdict(300, 250, 250, [0.52, 0.60])  # 200 wins of the weaker
    assert ok and why is None and possible == (0.1, 0.9)
    # enough wins, but the interval covers every share the results allow
    ok, why, _ = seat_verdict(500 - MIN_WEAKER_WINS, 250, 250, [0.4, 0.6])
    assert not ok and "covers every share the results allow" in why


def test_a_one_sided_seat_swap_says_not_measurable():
    s = simulate(60, "greedy", "random", seed=1, workers=1, swap_seats=True, table=False)
    seat = s.summary["seat_swap"]["seat_advantage"]
    assert seat["measurable"] is False and seat["significant"] is False
    assert "the weaker bot won 0 of" in seat["not_measurable_because"]
    text = "\n".join(answers.format_seats(s.summary))
    assert "not measurable (below)" in text and "seat advantage not measurable:" in text
    assert "50.0 %" not in text.split("seat advantage:")[1].splitlines()[0]
