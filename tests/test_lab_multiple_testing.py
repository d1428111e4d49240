"""Multiple testing (issue 22, item 4): every table that tests many effects at once (A/B,
ablation, tournament) stars an effect only when it is significant after Holm's
correction and says so in its footer; the raw intervals stay. A sweep tests nothing and
says that. Before issue 22 an ablation table starred every raw p < 0.05 of ~20 tests."""

from __future__ import annotations

import copy

import pytest

from tictacblitz.lab import answers
from tictacblitz.lab.ratings import format_report
from tictacblitz.lab.simulation import simulate
from tictacblitz.lab.stats import adjust, benjamini_hochberg, holm, normal_p
from tictacblitz.lab.tournament import run_tournament


def test_holm_and_benjamini_hochberg_on_known_p_values():
    p = [0.01, 0.04, 0.03, 0.005, None]
    assert holm(p) == [0.03, 0.06, 0.06, 0.02, None]
    assert benjamini_hochberg(p) == [0.02, 0.04, 0.04, 0.02, None]
    # Holm never exceeds 1 and keeps the order of the raw p-values
    assert holm([0.5, 0.9, 0.2]) == [1.0, 1.0, 0.6]
    rows = [{"p": v} for v in (0.001, 0.03, 0.04, None)]
    family = adjust(rows)
    assert family == {"method": "Holm", "tests": 3, "alpha": 0.05}
    assert [r["significant_adjusted"] for r in rows] == [True, False, False, False]
    assert [r["p_adjusted"] for r in rows] == [0.003, 0.06, 0.06, None]
    # the p-value the paired interval inverts: 1.96 standard errors is p = 0.05
    assert normal_p(1.959963984540054, 1.0) == pytest.approx(0.05)
    assert normal_p(0.0, 0.0) == 1.0 and normal_p(0.1, 0.0) == 0.0


@pytest.fixture(scope="module")
def ablated():
    return simulate(
        60,
        "greedy",
        "greedy",
        {"set_ms": 900},
        seed=3,
        workers=1,
        base={},
        ablate="all",
        table=False,
    ).summary


def test_ab_and_ablation_star_after_holm_and_name_it(ablated):
    c = ablated["comparison"]
    tested = [d for d in c["differences"].values() if d["p"] is not None]
    assert c["adjustment"] == {"method": "Holm", "tests": len(tested), "alpha": 0.05}
    assert [d["p_adjusted"] for d in tested] == holm([d["p"] for d in tested])
    text = "\n".join(answers.format_comparison(ablated))
    assert f"after Holm's correction for the {len(tested)} differences tested at once" in text
    assert "unadjusted 95 % interval" in text
    ab = ablated["ablation"]
    effects = [e for f in ab["features"].values() for e in f["effects"].values()]
    assert ab["adjustment"]["tests"] == sum(e["p"] is not None for e in effects) > 10
    text = "\n".join(answers.format_ablation(ablated))
    assert "after Holm's correction for the" in text and "effects" in text


def test_the_star_follows_the_adjusted_verdict_not_the_raw_interval(ablated):
    s = copy.deepcopy(ablated)
    row = s["comparison"]["differences"]["x_win_rate"]
    row.update(ci=[0.01, 0.2], significant=True, p=0.04, p_adjusted=0.3)
    row.update(significant_adjusted=False)

    def difference_cell_starred() -> bool:
        """Whether the star follows the difference's interval (the pairing gain's
        column comes after it)."""
        line = next(x for x in answers.format_comparison(s) if x.startswith("X wins the match"))
        assert "[+1.0, +20.0]" in line  # the raw interval kept
        return line.split("[+1.0, +20.0]", 1)[1].lstrip().startswith("*")

    assert not difference_cell_starred()
    row.update(significant_adjusted=True)
    assert difference_cell_starred()


def test_tournament_pairs_are_adjusted_over_the_round_robin():
    result = run_tournament(["random", "greedy", "search"], matches=12, seed=2)
    pairs = result["pairs"]
    assert result["adjustment"] == {"method": "Holm", "tests": 3, "alpha": 0.05}
    assert [p["p_adjusted"] for p in pairs] == holm([p["p"] for p in pairs])
    text = format_report(result)
    assert "after Holm's correction for the 3 pairs tested at once" in text


def test_a_sweep_says_it_tests_nothing(tmp_path):
    from tictacblitz.lab.sweep import sweep
    from tictacblitz.lab.sweep_files import format_sweep

    res = sweep({"set_ms": [800, 1000]}, matches=6, seed=1, workers=1)
    text = format_sweep(res, str(tmp_path))
    assert "No difference is tested here (no *)" in text and "not adjusted for the 2 points" in text
