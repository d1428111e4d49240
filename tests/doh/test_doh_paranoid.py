"""The paranoid solver (issue 25 item 3): with 2 players it is the negamax solver seen
from a fixed seat; with 3 and 4 players it equals a plain paranoid minimax without
pruning, tables or symmetries where that is small enough, move by move, over the native
Position and over the plain-Python reference engine; the perfect bot of 3 and 4 players
keeps its seat's paranoid value."""

from __future__ import annotations

import copy
import random
import sys

import numpy as np
import pytest

from blitz_core.doh.engine import Position
from blitz_core.doh.solver import WIN_SCORE, Solver
from tictacblitz.games.doh.bots import bot_spec, make_bot, play_matches
from tictacblitz.games.doh.reference import ReferenceDoh
from tictacblitz.games.doh.rules import DohRules
from tictacblitz.games.doh.solver import paranoid_solve, paranoid_values

sys.setrecursionlimit(10_000)
ILLEGAL = -32768


def farther(score):
    """A position's score seen one ply earlier (the same result, one ply further)."""
    return score - 1 if score > 0 else score + 1 if score < 0 else 0


def over_score(child, seat):
    """The seat's score of a move that ended the game (one ply)."""
    if child.winner is None:
        return 0
    return WIN_SCORE - 1 if child.winner == seat else 1 - WIN_SCORE


def brute_force():
    """Plain paranoid minimax over every position (memo by the exact key and the seat:
    no symmetry, no pruning): a function (position, seat) -> the seat's exact score,
    the seat maximising and every other seat minimising."""
    memo = {}

    def score(p, seat):
        memo_key = (p.key(), seat)
        if memo_key not in memo:
            values = [move_score(p, int(a), seat) for a in np.flatnonzero(p.legal_mask())]
            memo[memo_key] = max(values) if p.to_move == seat else min(values)
        return memo[memo_key]

    def move_score(p, action, seat):
        child = p.clone()
        child.play(action)
        return over_score(child, seat) if child.over else farther(score(child, seat))

    return score, move_score


def params(pieces, grid=3, players=2):
    """The native core's rules (DohRules.native_params(), the one way they cross)."""
    return DohRules(pieces_per_size=pieces, grid=grid, players=players).native_params()


def random_positions(pieces, grid, players, games, seed):
    """Every position of `games` uniformly random games (the finished ones left out)."""
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        p = Position(params(pieces, grid, players))
        while not p.over:
            found.append(p.clone())
            p.play(int(rng.choice(np.flatnonzero(p.legal_mask()))))
    return found


@pytest.mark.parametrize(
    "pieces, grid", [(1, 3), (2, 3), (3, 3), (4, 3), (5, 3), (2, 2), (3, 2), (5, 1)]
)
def test_two_players_paranoid_is_negamax(pieces, grid):
    negamax, paranoid = Solver(params(pieces, grid)), Solver(params(pieces, grid))
    for p in random_positions(pieces, grid, 2, 40, seed=pieces * 10 + grid):
        score = negamax.score(p)
        assert paranoid.paranoid_score(p, p.to_move) == score
        assert paranoid.paranoid_score(p, 1 - p.to_move) == -score
        assert np.array_equal(
            paranoid.paranoid_action_scores(p, p.to_move), negamax.action_scores(p)
        )


@pytest.mark.parametrize("pieces", [8, 10])
def test_one_table_keeps_every_seat_and_the_negamax_apart(pieces):
    # 4-bit stash counts fill the key's 48 bits (engine.pxd); the seat is folded in
    # above them (table.pxd): interleaved in one table, no answer may read another's
    shared, negamax = Solver(params(pieces)), Solver(params(pieces))
    for p in random_positions(pieces, 3, 2, 10, seed=pieces):
        want = negamax.score(p)
        assert shared.paranoid_score(p, 1 - p.to_move) == -want
        assert shared.score(p) == want
        assert shared.paranoid_score(p, p.to_move) == want
    shared = Solver(params(pieces, players=3))
    alone = [Solver(params(pieces, players=3)) for _ in range(3)]
    for p in random_positions(pieces, 3, 3, 10, seed=pieces):
        for seat in (2, 0, 1):
            assert shared.paranoid_score(p, seat) == alone[seat].paranoid_score(p, seat)


@pytest.mark.parametrize("pieces", [1, 2, 3, 4, 5])
def test_two_players_empty_table_is_the_documented_draw(pieces):
    first, second = paranoid_values(DohRules(pieces_per_size=pieces))
    assert (first.value, first.distance) == ("draw", 3 * pieces)
    assert (second.value, second.distance) == ("draw", 3 * pieces)


# docs/doh.md, "Three and four players: the exact answer": from 3 per size on, every
# seat loses when the coalition's first two moves in a row come (after the opening piece)
LOSS_PLIES = {3: (3, 4, 5), 4: (3, 4, 5, 3)}


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("pieces", [1, 2, 3, 4, 5, 10])
def test_the_documented_paranoid_values(players, pieces):
    got = [
        (s.value, s.distance)
        for s in paranoid_values(DohRules(players=players, pieces_per_size=pieces))
    ]
    if pieces <= 2:  # a line needs three pieces of one size (D5): none, and no D9
        assert got == [("draw", 3 * pieces)] * players
    else:
        assert got == [("loss", plies) for plies in LOSS_PLIES[players]]


@pytest.mark.parametrize(
    "players, pieces, grid",
    [(3, 1, 3), (3, 2, 3), (4, 1, 3), (4, 2, 3), (3, 2, 2), (4, 3, 2), (3, 3, 1), (4, 2, 1)],
)
def test_the_paranoid_solver_equals_brute_force(players, pieces, grid):
    score, move_score = brute_force()
    solver = Solver(params(pieces, grid, players))
    start = Position(params(pieces, grid, players))
    for seat in range(players):
        assert solver.paranoid_score(start, seat) == score(start, seat)
    for p in random_positions(pieces, grid, players, 12, seed=players * 100 + pieces):
        for seat in range(players):
            assert solver.paranoid_score(p, seat) == score(p, seat)
            got = solver.paranoid_action_scores(p, seat)
            assert np.array_equal(got != ILLEGAL, p.legal_mask())
            for action in np.flatnonzero(p.legal_mask()):
                assert got[action] == move_score(p, int(action), seat)


@pytest.mark.parametrize("players, pieces, from_ply", [(3, 3, 4), (4, 3, 4), (3, 4, 6), (4, 5, 8)])
def test_late_positions_of_larger_stashes_equal_brute_force(players, pieces, from_ply):
    # where the values are losses and wins (a whole brute-force solve of 3 per size
    # takes minutes): the positions of random games from `from_ply` on
    score, _ = brute_force()
    solver = Solver(params(pieces, players=players))
    late = [p for p in random_positions(pieces, 3, players, 6, seed=pieces) if p.ply >= from_ply]
    assert len(late) >= 10
    values = [solver.paranoid_score(p, seat) for p in late for seat in range(players)]
    assert values == [score(p, seat) for p in late for seat in range(players)]
    assert min(values) < 0 < max(values)


def reference_brute_force():
    """The same plain paranoid minimax over the reference engine (plain Python, no
    native code at all): a function (ReferenceDoh, seat) -> the seat's exact score."""
    memo = {}

    def score(ref, seat):
        squares = tuple(sorted(ref.translated_squares().items()))
        memo_key = (squares, str(ref.stash), ref.to_move, seat)
        if memo_key not in memo:
            values = [move_score(ref, size, square, seat) for size, square in ref.legal_moves()]
            memo[memo_key] = max(values) if ref.to_move == seat else min(values)
        return memo[memo_key]

    def move_score(ref, size, square, seat):
        child = copy.copy(ref)
        child.squares, child.stash = dict(ref.squares), dict(ref.stash)
        child.out, child.moves = list(ref.out), list(ref.moves)
        child.play(size, square)
        if not child.over:
            return farther(score(child, seat))
        if child.winner is None:
            return 0
        return WIN_SCORE - 1 if child.winner == seat else 1 - WIN_SCORE

    return score


@pytest.mark.parametrize(
    "players, pieces, grid, from_ply",
    [
        (3, 1, 3, 0),
        (4, 1, 3, 0),
        (3, 3, 1, 0),
        (4, 2, 1, 0),
        (3, 2, 2, 0),
        (3, 2, 3, 3),
        (4, 2, 3, 3),
        (3, 3, 3, 6),
        (4, 3, 3, 6),
    ],
)
def test_the_paranoid_solver_equals_brute_force_over_the_reference(players, pieces, grid, from_ply):
    # the whole table where that is quick in plain Python, else the late positions of
    # random games (the reference follows the native game action by action)
    score = reference_brute_force()
    rules = DohRules(players=players, pieces_per_size=pieces, grid=grid)
    solver = Solver(rules.native_params())
    rng = random.Random(players * 10 + pieces)
    checked = 0
    for _ in range(1 if from_ply == 0 else 4):
        native, ref = Position(rules.native_params()), ReferenceDoh(rules)
        while not native.over:
            if native.ply >= from_ply:
                want = [score(ref, seat) for seat in range(players)]
                assert [solver.paranoid_score(native, s) for s in range(players)] == want
                checked += 1
                if from_ply == 0:
                    break  # the empty table's values: its whole game tree
            action = int(rng.choice(np.flatnonzero(native.legal_mask())))
            native.play(action)
            assert ref.apply_action(action) is None
    assert checked >= 1


@pytest.mark.parametrize("players, pieces", [(3, 3), (3, 5), (4, 3), (4, 4)])
def test_the_perfect_bot_keeps_its_seats_paranoid_value(players, pieces):
    solver = Solver(params(pieces, players=players))
    spec = bot_spec("perfect")
    for i, p in enumerate(random_positions(pieces, 3, players, 8, seed=players + pieces)):
        seat = p.to_move
        scores = solver.paranoid_action_scores(p, seat)
        action = solver.choose(p, spec, i)
        assert scores[action] == scores.max() == solver.paranoid_score(p, seat)


def test_the_perfect_bot_breaks_ties_at_random():
    # the empty table: a first piece of each size is one position (D2); two or more
    # of them keep the paranoid score, and different seeds pick more than one of them
    solver = Solver(params(3, players=3))
    start = Position(params(3, players=3))
    scores = solver.paranoid_action_scores(start, 0)
    best = set(np.flatnonzero(scores == scores.max()).tolist())
    assert len(best) > 1
    chosen = {solver.choose(start, bot_spec("perfect"), seed) for seed in range(40)}
    assert chosen <= best and len(chosen) > 1


@pytest.mark.parametrize("players", [3, 4])
def test_perfect_games_are_the_same_in_python_and_natively(players):
    # the native loop searches a table of its own thread, DohBot the process's: a
    # paranoid choice depends on exact scores only, never on what a table holds
    rules = DohRules(players=players)
    bots = ["perfect", "hard", "medium", "perfect"][:players]
    seeds = np.arange(30, dtype=np.uint64)
    cols = play_matches(rules, bots, seeds)
    for i, seed in enumerate(seeds.tolist()):
        position = Position(rules.native_params())
        seat_bots = [make_bot(name, seed) for name in bots]
        while not position.over:
            position.play(seat_bots[position.to_move].choose(position, position.to_move))
        assert (cols["winner"][i], cols["moves"][i]) == (
            -1 if position.winner is None else position.winner,
            position.ply,
        )


def test_paranoid_solutions_report_their_cost():
    rules = DohRules(players=3, pieces_per_size=2)
    solutions = paranoid_values(rules)
    assert [s.seat for s in solutions] == ["first", "second", "third"]
    for s in solutions:
        assert s.value in ("win", "draw", "loss") and 0 < s.distance <= 6
        assert s.nodes > 0 and s.memory_bytes >= 8 * s.entries > 0
        assert s.to_dict()["players"] == 3
    again = paranoid_solve(rules, 1)  # a fresh table: the same search, node for node
    assert (again.value, again.distance, again.nodes) == (
        solutions[1].value,
        solutions[1].distance,
        solutions[1].nodes,
    )


def test_paranoid_arguments_are_checked():
    with pytest.raises(ValueError, match="rules.players must be from 2 to 4, not 5"):
        Solver((2, 3, 5))  # the native check, past DohRules' own
    three = params(2, players=3)
    with pytest.raises(ValueError, match="from 0 to 2, not 3"):
        Solver(three).paranoid_score(Position(three), 3)
    with pytest.raises(ValueError, match="not True"):
        Solver(three).paranoid_value(Position(three), True)
    with pytest.raises(ValueError, match="players=2"):
        Solver(three).paranoid_score(Position(params(2)), 0)
