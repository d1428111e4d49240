"""The designer's answers (issue 14): the A/B against the base rules paired by seed, bot
strength and seat advantage from swapped seats, each feature's effect by ablation; for
Blitz and for a game that plugs in through the hooks only (the ``coin`` game of
tests/test_lab_generic.py, given an ``ablations`` hook here)."""

import json

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")

from lab_support import registered_game, run_simulate  # noqa: E402
from test_lab_generic import COIN_GAME, expected_winners  # noqa: E402
from tictacblitz.lab.games.blitz import balance  # noqa: E402
from tictacblitz.lab.paired import PairedRatios  # noqa: E402
from tictacblitz.lab.report import format_summary  # noqa: E402
from tictacblitz.lab.simulation import simulate  # noqa: E402
from tictacblitz.lab.stats import Z95  # noqa: E402

COIN_LAB = """
ABLATION_NOTE = "the lean switched off"

@staticmethod
def ablations(rules):
    return {"lean": {"bias": 0.5}} if rules.bias != 0.5 else {}
"""


@pytest.fixture
def coin(tmp_path):
    with registered_game(tmp_path, "coin", COIN_GAME, COIN_LAB) as name:
        yield name


run_cli = run_simulate


def test_paired_difference_is_the_mean_of_the_per_seed_differences():
    rng = np.random.default_rng(1)
    a = (rng.random(500) < 0.6).astype(np.int64)
    b = np.where(rng.random(500) < 0.8, a, 1 - a)  # correlated with a
    one = np.ones(500, np.int64)
    p = PairedRatios()
    p.add({"m": (a[:200], one[:200], 1.0)}, {"m": (b[:200], one[:200], 1.0)})
    p.add({"m": (a[200:], one[200:], 1.0)}, {"m": (b[200:], one[200:], 1.0)})
    d, ci = p.difference("m")
    diff = a - b
    assert d == pytest.approx(diff.mean())
    half = Z95 * diff.std(ddof=1) / np.sqrt(500)
    assert ci == pytest.approx([diff.mean() - half, diff.mean() + half])
    unpaired = Z95 * np.sqrt(a.var(ddof=1) / 500 + b.var(ddof=1) / 500)
    assert half < unpaired  # pairing cuts the variance
    # A ratio of per-match sums (rounds won by a line over rounds): the delta method.
    num_a, den = rng.integers(0, 4, 300), rng.integers(4, 8, 300)
    q = PairedRatios()
    q.add({"r": (num_a, den, 1.0)}, {"r": (num_a, den, 1.0)})
    assert q.difference("r")[0] == 0 and q.difference("r")[1] == pytest.approx([0, 0], abs=1e-12)
    assert q.side("r", 0)[0] == pytest.approx(num_a.sum() / den.sum())


def test_ab_on_any_game_through_the_hooks(coin):
    n = 400
    res = simulate(n, rules={"bias": 0.8}, seed=2, game="coin", workers=2, chunk_size=33, base={})
    plain = simulate(n, rules={"bias": 0.8}, seed=2, game="coin", workers=1)
    assert res.table.equals(plain.table)  # the main run is untouched
    c = res.summary["comparison"]
    assert c["paired_by_seed"] and c["matches"] == n
    assert c["variant_rules"] == {"bias": 0.8} and c["base_rules"] == {}
    v, b = expected_winners(2, n, 0.8), expected_winners(2, n, 0.5)
    d = c["differences"]["x_win_rate"]
    assert d["variant"] == pytest.approx((v == 0).mean()) and d["base"] == pytest.approx(
        (b == 0).mean()
    )
    assert d["difference"] == pytest.approx((v == 0).mean() - (b == 0).mean())
    assert d["ci"][0] < d["difference"] < d["ci"][1] and d["significant"]
    assert c["base"]["x_wins"] == int((b == 0).sum())
    assert "moves_mean" in c["differences"]  # the hookless game's columns
    text = format_summary(res.summary)
    assert "A/B: bias=0.8 (variant) against the defaults (base)" in text
    assert "paired by seed" in text and "pp  [" in text


def test_seat_swap_separates_bot_strength_from_seat(coin):
    res = simulate(600, "cheat", "fair", seed=4, game="coin", workers=2, swap_seats=True).summary
    s = res["seat_swap"]
    assert s["bots"] == ["cheat", "fair"] and s["matches_each"] == 600
    main_x, swapped_x = res["x_wins"], s["swapped"]["x_wins"]
    decided = res["x_wins"] + res["o_wins"] + s["swapped"]["x_wins"] + s["swapped"]["o_wins"]
    assert s["seat_advantage"]["x_share_of_decided"] == pytest.approx(
        (main_x + swapped_x) / decided
    )
    assert s["bot_strength"]["share_of_decided"] == pytest.approx(
        (main_x + s["swapped"]["o_wins"]) / decided
    )
    assert s["bot_strength"]["significant"] and s["bot_strength"]["share_of_decided"] > 0.6
    lo, hi = s["seat_advantage"]["ci"]
    assert lo < 0.5 < hi  # the coin has no seat edge
    assert "bot strength: cheat's share of decided matches" in format_summary(res)
    same = simulate(50, "fair", "fair", game="coin", workers=1, swap_seats=True).summary
    assert "seat_swap" not in same  # one bot: nothing to separate


def test_ablation_through_a_game_s_hook(coin):
    res = simulate(500, rules={"bias": 0.7}, seed=3, game="coin", workers=2, ablate="all").summary
    f = res["ablation"]["features"]["lean"]
    assert res["ablation"]["how"] == "the lean switched off" and f["rules_off"] == {}
    e = f["effects"]["x_win_rate"]
    w, off = expected_winners(3, 500, 0.7), expected_winners(3, 500, 0.5)
    assert e["with"] == pytest.approx((w == 0).mean()) and e["without"] == pytest.approx(
        (off == 0).mean()
    )
    assert e["significant"] and e["difference"] > 0
    with pytest.raises(ValueError, match="unknown feature; expected one of lean"):
        simulate(10, rules={"bias": 0.7}, game="coin", workers=1, ablate=["tilt"])
    with pytest.raises(ValueError, match="no feature to switch off"):
        simulate(10, game="coin", workers=1, ablate="all")


def test_blitz_powerup_ablation_is_the_run_without_that_powerup():
    n = 120
    res = simulate(n, "greedy", "greedy", seed=7, workers=2, ablate=["bomb"], table=False).summary
    weights = dict(balance.Rules().powerup_weights, bomb=0)
    without = simulate(
        n, "greedy", "greedy", {"powerup_weights": weights}, seed=7, workers=1, table=False
    ).summary
    e = res["ablation"]["features"]["bomb"]["effects"]
    assert e["decisiveness"]["without"] == pytest.approx(without["decisiveness"])
    assert e["x_win_rate"]["without"] == pytest.approx(without["x_win_rate"])
    assert e["round_length_s"]["without"] == pytest.approx(
        without["round_length_ms"]["mean"] / 1000
    )
    assert e["decisiveness"]["with"] == pytest.approx(res["decisiveness"])
    assert set(balance.ablations(None)) == {"bomb", "freeze", "haste", "swap"}
    only_bomb = balance.Rules(powerup_weights={"bomb": 1})
    assert balance.ablations(only_bomb) == {}  # nothing left to spawn


def test_the_readme_command_answers_set_ms_1200_vs_1600(capsys):
    status, out, err = run_cli(
        [
            "simulate",
            "--matches",
            "60",
            "--x",
            "greedy",
            "--o",
            "greedy",
            "--rule",
            "set_ms=1200",
            "--no-progress",
        ],
        capsys,
    )
    assert status == 0, err
    assert "A/B: set_ms=1200 (variant) against the defaults (base)" in out
    assert "rounds won by a line" in out and "difference (variant - base)" in out
    assert "Seats:" not in out  # the same bot in both seats
    status, out, _ = run_cli(
        [
            "simulate",
            "--matches",
            "30",
            "--rule",
            "set_ms=1200",
            "--no-base",
            "--json",
            "--no-progress",
        ],
        capsys,
    )
    assert status == 0 and "comparison" not in json.loads(out)
    status, out, _ = run_cli(
        [
            "simulate",
            "--matches",
            "30",
            "--rule",
            "set_ms=1200",
            "--base",
            "set_ms=2000",
            "crater_ms=3000",
            "--json",
            "--no-progress",
        ],
        capsys,
    )
    c = json.loads(out)["comparison"]
    assert c["base_rules"] == {"set_ms": 2000, "crater_ms": 3000}
    assert 0 <= c["differences"]["decisiveness"]["variant"] <= 1  # JSON: fractions
    status, out, _ = run_cli(
        [
            "simulate",
            "--matches",
            "30",
            "--x",
            "greedy",
            "--o",
            "easy",
            "--ablate",
            "bomb,swap",
            "--explain",
            "--no-progress",
        ],
        capsys,
    )
    assert status == 0
    assert "Seats: greedy and easy are different bots" in out
    assert "Effect of each feature (ablation" in out and "swap" in out
    assert "rounds won by a line [%]: rounds that ended in a line" in out  # the legend
    for argv, message in (
        (["--ablate", "nuke"], "--ablate 'nuke': unknown feature"),
        (["--base", "set_ms=-1"], "--base: rules.set_ms=-1"),
        (["--base", "set_ms=900", "--no-base"], "contradict"),
    ):
        status, out, err = run_cli(["simulate", "--matches", "5", "--no-progress", *argv], capsys)
        assert status == 2 and out == "" and message in err and err.count("\n") == 1


def test_the_html_report_holds_the_answers(capsys, tmp_path):
    page = tmp_path / "report.html"
    argv = [
        "simulate",
        "--matches",
        "30",
        "--x",
        "greedy",
        "--o",
        "easy",
        "--rule",
        "set_ms=1200",
        "--ablate",
        "bomb",
        "--html",
        str(page),
        "--no-progress",
    ]
    status, out, err = run_cli(argv, capsys)
    assert status == 0, err
    text = page.read_text()
    for part in (
        "A/B: the rule change against the base rules",
        "Bot strength and seat advantage",
        "What each feature causes (ablation)",
        "What the metrics mean",
        "difference (variant - base)",
        " pp  [",
        " %  [",
    ):
        assert part in text, part
    status, out, err = run_cli(argv, capsys)  # the page exists now
    assert status == 2 and "exists (pass --overwrite" in err and out == ""
    status, _, err = run_cli(
        ["simulate", "--matches", "5", "--html", str(tmp_path / "r.txt")], capsys
    )
    assert status == 2 and "must end in .html" in err
