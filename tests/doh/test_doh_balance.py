"""Doh's balance hooks (its lab adapter, lab/games/doh) through the generic lab: the ``end`` column
of play_matches against the protocol's own end events, the summary's metrics against the
records, the simulate and tournament commands' output."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from tictacblitz.games.doh.bots import END_NAMES
from tictacblitz.games.doh.game import play_matches
from tictacblitz.games.doh.rules import DohRules
from tictacblitz.games.registry import load_game
from tictacblitz.lab.games.doh import balance
from tictacblitz.lab.hooks import hooks_for
from tictacblitz.lab.simulation import simulate

SEEDS = np.arange(1, 301, dtype=np.uint64)


@pytest.mark.parametrize("x,o", [("random", "random"), ("greedy", "easy"), ("perfect", "medium")])
def test_end_column_is_how_the_protocol_says_the_game_ended(x: str, o: str) -> None:
    cols = play_matches(None, x, o, SEEDS[:120])
    game = load_game("doh")
    for i, seed in enumerate(SEEDS[:120]):
        state = game.new_state()
        bots = (game.make_bot(x, int(seed)), game.make_bot(o, int(seed)))
        while not state.is_over():
            seat = state.to_move()[0]
            assert state.apply(seat, bots[seat].choose(state, seat)) is None
        end = [e for e in state.drain_events() if e["kind"] == "end"][-1]
        assert END_NAMES[cols["end"][i]] == end["by"]
        assert cols["moves"][i] == state.position.ply
        winner = -1 if state.winner() is None else state.winner()
        assert cols["winner"][i] == winner


def test_random_games_end_every_way_and_the_rules_agree() -> None:
    cols = play_matches(None, "random", "random", np.arange(4000, dtype=np.uint64))
    ends = np.bincount(cols["end"], minlength=3)
    assert all(ends > 0)  # D7, D8 and D9 all happen
    draws = cols["winner"] == -1
    # D8 is the only draw, with the stash empty
    assert np.array_equal(draws, cols["end"] == END_NAMES.index("stash_empty"))
    assert np.all(cols["moves"][draws] == 15)
    # D9: the player to move is stuck, so the one who just moved wins (an odd ply: first).
    no_move = cols["end"] == END_NAMES.index("no_move")
    assert np.all(cols["winner"][no_move] == (cols["moves"][no_move] + 1) % 2)


def test_summary_metrics_agree_with_the_records() -> None:
    result = simulate(matches=3000, x="random", o="greedy", seed=3, game="doh", workers=2)
    s, t = result.summary, result.table
    assert t.column_names[:3] == ["match", "seed", "winner"]
    assert t.column_names[3:] == ["moves", "first_piece", "end"]
    names = np.array(t.column("winner").to_pylist())  # "X" (first), "O", "draw"
    winner = np.where(names == "X", 0, np.where(names == "O", 1, -1))
    moves = t.column("moves").to_numpy().astype(float)
    pieces = np.array(t.column("first_piece").to_pylist())
    ends = np.array(t.column("end").to_pylist())
    assert s["game_length"]["mean"] == pytest.approx(moves.mean())
    lo, hi = s["game_length"]["mean_ci"]
    assert lo < moves.mean() < hi
    assert s["game_length"]["median"] == int(np.quantile(moves, 0.5, method="inverted_cdf"))
    score = np.where(winner == 0, 1.0, np.where(winner == 1, 0.0, 0.5))
    assert s["seat_advantage"]["first_score"] == pytest.approx(score.mean())
    for p in balance.PIECES:
        f = s["first_pieces"][p]
        mine = pieces == p
        assert f["games"] == mine.sum()
        assert f["first_wins"] == (mine & (winner == 0)).sum()
        assert f["draws"] == (mine & (winner == -1)).sum()
        lo, hi = f["first_win_ci"]
        assert lo <= f["first_win_rate"] <= hi
    for end in balance.ENDS:
        assert s["ends"][end]["games"] == (ends == end).sum()
    assert sum(s["ends"][e]["games"] for e in balance.ENDS) == 3000
    again = simulate(
        matches=3000, x="random", o="greedy", seed=3, game="doh", workers=1, table=False
    )
    for key in ("game_length", "first_pieces", "ends", "seat_advantage"):
        assert again.summary[key] == s[key]  # chunks in any order, same summary


def test_perfect_never_opens_with_the_medium_piece() -> None:
    """The solver values a first M as lost for the first player, so perfect opens S or L."""
    s = simulate(
        matches=400, x="perfect", o="perfect", seed=0, game="doh", workers=1, table=False
    ).summary
    assert s["first_pieces"]["M"]["games"] == 0
    assert s["draws"] == 400 and s["ends"]["stash_empty"]["games"] == 400
    assert s["game_length"]["mean"] == 15


def test_hooks_are_found_by_the_lab() -> None:
    hooks = hooks_for("doh")
    assert type(hooks).__name__ == "DohLab" and hooks.get("match_values") is balance.match_values
    assert hooks.default_bot == "greedy" and hooks.tournament_bots == hooks.bot_names
    metrics = hooks.new_metrics(DohRules())
    assert isinstance(metrics, balance.TwoSeatMetrics)  # Metrics: the class for the rules


def _cli(*args: str) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "tictacblitz", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return out.stdout


def test_simulate_prints_the_doh_metrics_with_intervals() -> None:
    text = _cli(
        "simulate",
        "--game",
        "doh",
        "--x",
        "perfect",
        "--o",
        "random",
        "--matches",
        "2000",
        "--no-progress",
    )
    for needle in (
        "first player's score",
        "game length, plies: mean [CI]",
        "ended by line (D7)",
        "ended by stash empty (D8)",
        "ended by no move (D9)",
        "which first pieces win",
    ):
        assert needle in text, needle
    piece_rows = [line for line in text.splitlines() if line[:2] in ("S ", "M ", "L ")]
    assert len(piece_rows) == 3 and "[" in piece_rows[0]


def test_tournament_runs_for_doh() -> None:
    text = _cli(
        "tournament",
        "--game",
        "doh",
        "--bots",
        "random,greedy,perfect",
        "--matches",
        "40",
        "--no-progress",
    )
    assert "greedy vs perfect" in text and "Elo" in text
