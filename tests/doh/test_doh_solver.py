"""The exact solver: its values for pieces_per_size 1-5, checked against a plain
minimax without pruning, tables or symmetries where that is small enough, and each
move's score against the same brute force."""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest

from blitz_core.doh.engine import Position
from blitz_core.doh.solver import WIN_SCORE, Solver
from tictacblitz.games.doh.rules import DohRules
from tictacblitz.games.doh.solver import score_value, solve

sys.setrecursionlimit(10_000)


def mover_score(child_score):
    """The mover's score of a move from the resulting position's score (one ply more)."""
    if child_score > 0:
        return -child_score + 1
    if child_score < 0:
        return -child_score - 1
    return 0


def brute_force(pieces, grid):
    """Plain negamax over every position (memo by the exact key: no symmetry, no
    pruning), returning a function position -> exact score for the side to move."""
    memo = {}

    def score(p):
        key = p.key()
        if key not in memo:
            best = -(10**9)
            for action in np.flatnonzero(p.legal_mask()):
                child = p.clone()
                child.play(int(action))
                if child.over:
                    v = WIN_SCORE - 1 if child.winner == p.to_move else 0
                else:
                    v = mover_score(score(child))
                best = max(best, v)
            memo[key] = best
        return memo[key]

    return score


# pieces_per_size -> (value, distance, positions expanded, table entries) on the 3x3 grid:
# every stash size is a draw that lasts until the stash is empty (D8).
VALUES = {1: ("draw", 3), 2: ("draw", 6), 3: ("draw", 9), 4: ("draw", 12), 5: ("draw", 15)}


@pytest.mark.parametrize("pieces", [1, 2, 3, 4, 5])
def test_the_value_of_the_empty_table(pieces):
    solution = solve(DohRules(pieces_per_size=pieces))
    assert (solution.value, solution.distance) == VALUES[pieces]
    assert solution.nodes > 0 and solution.entries > 0
    assert solution.memory_bytes >= 8 * solution.entries
    assert solution.to_dict()["value"] == "draw"


@pytest.mark.parametrize(
    "grid, pieces", [(3, 1), (3, 2), (2, 1), (2, 2), (2, 3), (1, 1), (1, 2), (1, 5)]
)
def test_the_solver_equals_brute_force(grid, pieces):
    brute = brute_force(pieces, grid)
    params = DohRules(pieces_per_size=pieces, grid=grid).native_params()
    assert Solver(params).score(Position(params)) == brute(Position(params))


def test_small_grids_have_values_other_than_a_draw():
    # grid 1: S, M, L end in one nest/stack, then D9; grid 2 has no lines at all
    assert solve(DohRules(grid=1, pieces_per_size=2)).value == "first"
    assert solve(DohRules(grid=2, pieces_per_size=3)).value == "second"


@pytest.mark.parametrize("seed", range(6))
def test_every_move_scores_as_brute_force_says(seed):
    rng = random.Random(seed)
    pieces = 2
    brute = brute_force(pieces, 3)
    params = DohRules(pieces_per_size=pieces).native_params()
    solver = Solver(params)
    p = Position(params)
    while not p.over:
        scores = solver.action_scores(p)
        legal = p.legal_mask()
        assert np.array_equal(scores != -32768, legal)
        for action in np.flatnonzero(legal):
            child = p.clone()
            child.play(int(action))
            want = (
                (WIN_SCORE - 1 if child.winner == p.to_move else 0)
                if child.over
                else mover_score(brute(child))
            )
            assert scores[action] == want
        assert scores.max() == brute(p)
        p.play(int(rng.choice(np.flatnonzero(legal))))


def test_scores_read_as_value_and_distance():
    assert score_value(WIN_SCORE - 3, 9) == (1, 3)
    assert score_value(-(WIN_SCORE - 4), 9) == (-1, 4)
    assert score_value(0, 9) == (0, 9)
    params = DohRules().native_params()
    assert Solver(params).value(Position(params)) == (0, 15)


def test_solver_arguments_are_checked():
    with pytest.raises(ValueError):
        Solver((11, 3, 2))
    with pytest.raises(ValueError):
        Solver((5, 4, 2))
    params = DohRules().native_params()
    with pytest.raises(TypeError):
        Solver(params).score("not a position")
    with pytest.raises(ValueError, match="pieces_per_size=2"):
        Solver(params).score(Position(DohRules(pieces_per_size=2).native_params()))
    with pytest.raises((TypeError, ValueError)):
        Solver(params).choose(Position(params), (9, 0.0, 0), 1)
    with pytest.raises((TypeError, ValueError)):
        Solver(params).choose(Position(params), (0, 2.0, 0), 1)
    tiny = DohRules(pieces_per_size=1, grid=1).native_params()
    over = Position(tiny)
    for action in (12, 37, 62):  # S, then M over it, then L: D9
        over.play(action)
    assert over.over and Solver(tiny).choose(over, (2, 0.0, 2), 1) == -1
