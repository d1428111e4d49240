"""Doh's balance metrics for three and four players (lab/games/doh/seats.py, issue 25
item 3) against a plain recount of the same games: each seat's score, the ends, who went
out (against the protocol's own ``out``), kingmaking, the paired per-match values, and
simulate's output."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from tictacblitz.games.doh.bots import END_NAMES
from tictacblitz.games.doh.rules import DohRules
from tictacblitz.games.registry import load_game
from tictacblitz.lab.hooks import hooks_for
from tictacblitz.lab.simulation import simulate

balance = hooks_for("doh")  # the adapter: every hook the lab reads

LINE, STASH, STUCK = (END_NAMES.index(e) for e in ("line", "stash_empty", "no_move"))


def _cols(players, bots, n=1500, pieces=6):
    rules = DohRules(players=players, pieces_per_size=pieces)
    return rules, balance.play_matches(rules, bots, np.arange(n, dtype=np.uint64))


@pytest.mark.parametrize("players", [3, 4])
def test_the_metrics_are_a_recount_of_the_games(players):
    rules, cols = _cols(players, ("random",) * players)
    assert cols["players"].tolist() == [players] * len(cols["winner"])
    w, end, king = cols["winner"].astype(int), cols["end"].astype(int), cols["kingmade"]
    assert {LINE, STASH, STUCK} <= set(end.tolist())  # every way of ending happens
    metrics = balance.Metrics(rules)
    half = len(w) // 2  # folded in two chunks and merged: the same as one
    for part in (slice(0, half), slice(half, None)):
        other = balance.Metrics(rules)
        other.add({k: v[part] for k, v in cols.items()})
        metrics.merge(other)
    d = metrics.to_dict()
    n = len(w)
    assert d["players"] == players
    for seat, (key, v) in enumerate(d["seat_scores"].items()):
        assert key == ("first", "second", "third", "fourth")[seat]
        score = ((w == seat).sum() + (w < 0).sum() / players) / n  # a draw 1/N
        assert v["score"] == pytest.approx(score)
        assert v["score_ci"][0] < v["score"] < v["score_ci"][1]
        assert v["out"] == ((end == STUCK) & (w != seat)).sum()
        assert v["kingmaker"] == ((king == 1) & ((w - 1) % players == seat)).sum()
    assert sum(v["score"] for v in d["seat_scores"].values()) == pytest.approx(1.0)
    assert d["players_out"]["games"] == (end == STUCK).sum()
    assert d["players_out"]["players_out_per_game"] == pytest.approx(
        (players - 1) * (end == STUCK).sum() / n
    )
    k = d["kingmaking"]
    assert k["games"] == king.sum() and k["line_wins"] == (end == LINE).sum()
    assert np.all(king[end != LINE] == 0)  # only a game won by a line is kingmade
    assert [d["ends"][e]["games"] for e in END_NAMES] == np.bincount(end, minlength=3).tolist()
    assert sum(d["game_length"]["distribution"].values()) == n


def test_who_went_out_is_the_protocol_s_out():
    """The metric's seats out of a D9 game (every seat but the winner) are the ones the
    protocol's own state lists, replayed in Python with the same bots and seeds."""
    players = 3
    rules, cols = _cols(players, ("random",) * players, n=400)
    game = load_game("doh", {"players": players, "pieces_per_size": 6})
    stuck = np.flatnonzero(cols["end"] == STUCK)
    assert stuck.size
    for i in stuck[:10]:
        state = game.new_state()
        bots = [game.make_bot("random", int(i)) for _ in range(players)]
        while not state.is_over():
            (seat,) = state.to_move()
            state.apply(seat, bots[seat].choose(state, seat))
        assert state.winner() == cols["winner"][i]
        assert sorted(state.out()) == [s for s in range(players) if s != cols["winner"][i]]


def test_match_values_agree_with_the_metric_rows():
    rules, cols = _cols(4, ("easy", "random", "greedy", "random"), n=800)
    m = balance.Metrics(rules)
    m.add(cols)
    rows = {}
    balance.metric_rows(m.to_dict(), lambda name, value, ci=None: rows.update({name: value}))
    values = balance.match_values(cols)
    assert set(values) == set(rows)
    for name, (num, den, scale) in values.items():
        assert name in balance.METRICS, name
        if den.sum():
            assert scale * num.sum() / den.sum() == pytest.approx(rows[name]), name


def test_greedy_never_kingmakes_and_random_mostly_does():
    """greedy hands the next player no line when it can (docs/doh.md, Bots), so none of
    its games is kingmade; random seldom avoids it."""
    _, greedy = _cols(3, ("greedy",) * 3, n=500)
    _, rand = _cols(3, ("random",) * 3, n=500)
    assert greedy["kingmade"].sum() == 0 and (greedy["end"] == LINE).sum() > 0
    lines = rand["end"] == LINE
    assert rand["kingmade"][lines].mean() > 0.9


def test_simulate_three_players_through_the_lab(tmp_path):
    res = simulate(
        400,
        rules={"players": 3},
        game="doh",
        workers=1,
        bots=("random",) * 3,
        out=str(tmp_path / "r.csv"),
    )
    s = res.summary
    assert s["seat_keys"] == ["first", "second", "third"] and "x_wins" not in s
    assert s["first_wins"] + s["second_wins"] + s["third_wins"] + s["draws"] == 400
    assert s["seat_scores"]["third"]["score"] == pytest.approx(
        (s["third_wins"] + s["draws"] / 3) / 400
    )
    assert set(res.table.column("winner").to_pylist()) <= {"first", "second", "third", "draw"}
    assert res.table.column_names[3:] == ["moves", "first_piece", "end"]


def test_the_simulate_command_with_three_players():
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "tictacblitz",
            "simulate",
            "--game",
            "doh",
            "--rule",
            "players=3",
            "--seat",
            "all=random",
            "--seat",
            "third=greedy",
            "--matches",
            "300",
            "--workers",
            "1",
            "--no-progress",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    s = json.loads(out)
    assert [s["first_bot"], s["second_bot"], s["third_bot"]] == ["random", "random", "greedy"]
    assert "comparison" not in s  # --rule players=3 alone: the base would be the run itself
    # greedy in the third seat against two random bots wins most games
    assert s["third_win_rate"] > 0.5 and s["seat_advantage"]["significant"]
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "tictacblitz",
            "simulate",
            "--game",
            "doh",
            "--rule",
            "players=3",
            "--seat",
            "fourth=greedy",
            "--matches",
            "3",
            "--no-progress",
        ],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip() == (
        "tictacblitz simulate: error: --seat fourth=greedy: this run has 3 seats "
        "(first, second, third)"
    )
