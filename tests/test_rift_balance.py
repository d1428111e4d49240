"""Rift's balance hooks (its lab adapter, lab/games/rift): the metrics agree with the runner's
columns, merge in any order, and `simulate`/`sweep --game rift` print and plot them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tictacblitz.games.rift.rules import RiftRules
from tictacblitz.games.rift.types import OBJECTIVE_IDS
from tictacblitz.lab.games.rift.metrics import ABILITIES
from tictacblitz.lab.hooks import hooks_for

balance = hooks_for("rift")  # the adapter: every hook the lab reads


def _cols(n=600, x="greedy", o="random", rules=None):
    return balance.play_matches(rules, (x, o), np.arange(n, dtype=np.uint64))


def test_metrics_agree_with_the_columns():
    cols = _cols()
    m = balance.Metrics(None)
    m.add(cols)
    d = m.to_dict()
    n = len(cols["winner"])
    assert d["game_length"]["mean"] == pytest.approx(cols["turns"].mean())
    c = d["collisions"]
    assert c["collision_rate"] == pytest.approx(cols["collisions"].sum() / cols["turns"].sum())
    assert c["grey_rate"] == pytest.approx(cols["greys"].sum() / cols["turns"].sum())
    assert d["seat_advantage"]["x_score"] == pytest.approx(
        ((cols["winner"] == 0) + 0.5 * (cols["winner"] == -1)).mean()
    )
    # every hand is dealt objectives_per_player ids; completions match the counts column
    dealt = sum(o["dealt"] for o in d["objectives"].values())
    done = sum(o["completed"] for o in d["objectives"].values())
    assert dealt == 2 * n * RiftRules().objectives_per_player
    assert done == int(cols["objectives_x"].sum() + cols["objectives_o"].sum())
    points = sum(o["points_scored"] for o in d["objectives"].values())
    assert points == int(cols["points_x"].sum() + cols["points_o"].sum())
    shares = [o["points_share"] for o in d["objectives"].values()]
    assert sum(shares) == pytest.approx(d["points"]["objective_share"])
    for o in d["objectives"].values():
        if o["dealt"]:
            lo, hi = o["completion_ci"]
            assert lo <= o["completion_rate"] <= hi
    for a in ABILITIES:
        uses = int(cols[f"{a}_x"].sum() + cols[f"{a}_o"].sum())
        assert d["abilities"][a]["uses"] == uses


def test_metrics_merge_like_one_run():
    cols = _cols(400)
    half = {k: v[:150] for k, v in cols.items()}, {k: v[150:] for k, v in cols.items()}
    one, a, b = (balance.Metrics(None) for _ in range(3))
    one.add(cols)
    b.add(half[1])
    a.add(half[0])
    b.merge(a)
    assert json.dumps(one.to_dict(), sort_keys=True) == json.dumps(b.to_dict(), sort_keys=True)


def test_rows_and_lines_name_every_metric():
    m = balance.Metrics(None)
    m.add(_cols(200))
    summary = m.to_dict()
    names = []
    balance.metric_rows(summary, lambda name, value, ci=None, scale=1.0: names.append(name))
    assert names == list(balance.METRICS)
    rows, lines = balance.summary_lines(summary, stats_pct, stats_num)
    text = "\n".join(lines)
    assert all(oid in text for oid in OBJECTIVE_IDS) and "reveal" in text
    for _, metrics in balance.PANELS:
        assert all(name in balance.METRICS for name in metrics)
    assert set(balance.SWEEP_COLUMNS) <= set(balance.METRICS)
    assert set(balance.REPORT_COLUMNS) <= set(balance.METRICS)


def stats_pct(value, ci=None):
    return "-" if value is None else f"{value:.3f}"


def stats_num(value, ci=None, *args):
    return "-" if value is None else f"{value:.3f}"


def test_hooks_are_found_and_reveal_cost_is_sweepable():
    hooks = hooks_for("rift")
    assert hooks.default_bot == "greedy"
    assert "reveal_cost" in hooks.sweepable()
    assert hooks.slow_bot("hard") and not hooks.slow_bot("greedy")
    assert hooks.resolve_bot("hard")[1] == "hard"


def test_simulate_and_sweep_print_and_plot(tmp_path, capsys):
    from tictacblitz.cli import main

    main(["simulate", "--game", "rift", "--matches", "300", "--no-progress", "--workers", "1"])
    out = capsys.readouterr().out
    for words in ("turns with a collision", "points from objectives", "shield", "full_energy"):
        assert words in out
    folder = tmp_path / "sweep"
    main(
        [
            "sweep",
            "--game",
            "rift",
            "--grid",
            "reveal_cost=4,10",
            "--matches",
            "200",
            "--no-progress",
            "--workers",
            "1",
            "--out",
            str(folder),
        ]
    )
    out = capsys.readouterr().out
    assert "reveal uses a game" in out
    assert (folder / "sweep_reveal_cost.png").stat().st_size > 0
    table = (folder / "sweep.csv").read_text()
    assert "collision_rate" in table and "full_energy_completion" in table


def test_match_values_agree_with_the_metrics_and_ablations_switch_features_off():
    cols = _cols(300)
    m = balance.Metrics(None)
    m.add(cols)
    rows = {}
    balance.metric_rows(
        m.to_dict(), lambda name, value, ci=None, scale=1.0: rows.update({name: value})
    )
    for name, (num, den, scale) in balance.match_values(cols).items():
        assert name in balance.METRICS, name
        if den.sum():
            assert scale * num.sum() / den.sum() == pytest.approx(rows[name]), name
    features = balance.ablations(RiftRules())
    assert set(features) == {"shield", "swap", "reveal", "objectives"}
    off = balance.play_matches(
        features["shield"], ("greedy", "greedy"), np.arange(50, dtype=np.uint64)
    )
    assert off["shield_x"].sum() == off["shield_o"].sum() == 0
    none = balance.play_matches(
        features["objectives"], ("greedy", "greedy"), np.arange(50, dtype=np.uint64)
    )
    assert none["points_x"].sum() == none["points_o"].sum() == 0
    assert "reveal" not in balance.ablations(RiftRules(reveal_cost=11))
    assert set(balance.EFFECT_METRICS) - {"x_win_rate", "o_win_rate", "draw_rate"} <= set(
        balance.METRICS
    )
