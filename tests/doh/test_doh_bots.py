"""The bots: the perfect player never loses what the solver says it holds, in either
seat, over thousands of native matches; it wins fastest; greedy takes wins and hands
none over when it can avoid it; and every bot is deterministic, the same in Python and
in the native match loop."""

from __future__ import annotations

import random

import numpy as np
import pytest

from blitz_core.doh.engine import Position
from tictacblitz.games import load_game
from tictacblitz.games.doh.bots import BOT_NAMES, BOT_SPECS, DohBot, make_bot
from tictacblitz.games.doh.game import play_matches
from tictacblitz.games.doh.rules import DohRules
from tictacblitz.games.doh.solver import score_value, solver_for

RULES = DohRules()
SEEDS = np.arange(1, 1001, dtype=np.uint64)  # 1,000 matches each way


@pytest.mark.parametrize("opponent", ["random", "greedy", "easy", "medium", "hard"])
def test_perfect_never_loses_from_the_drawn_empty_table(opponent):
    # the solver values the empty table a draw (test_doh_solver): perfect must not lose
    as_first = play_matches(RULES, "perfect", opponent, SEEDS)
    as_second = play_matches(RULES, opponent, "perfect", SEEDS)
    assert len(as_first["winner"]) == len(as_second["winner"]) == 1000
    assert not (as_first["winner"] == 1).any()
    assert not (as_second["winner"] == 0).any()
    if opponent in ("random", "greedy"):
        # and it punishes mistakes: weak opponents lose most games
        assert (as_first["winner"] == 0).mean() > 0.5 and (as_second["winner"] == 1).mean() > 0.5


@pytest.mark.parametrize("pieces", [1, 2, 3, 4])
def test_perfect_against_itself_is_the_solved_value(pieces):
    out = play_matches(DohRules(pieces_per_size=pieces), "perfect", "perfect", SEEDS[:50])
    assert (out["winner"] == -1).all() and (out["moves"] == 3 * pieces).all()


def random_positions(count, seed, pieces=5):
    """Positions reached by random play (ongoing), a few per game."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        p = Position(DohRules(pieces_per_size=pieces).native_params())
        while not p.over:
            if rng.random() < 0.3:
                found.append(p.clone())
            p.play(int(rng.choice(np.flatnonzero(p.legal_mask()))))
    return found[:count]


def play_out(position, bots):
    p = position.clone()
    while not p.over:
        p.play(bots[p.to_move].choose(p, p.to_move))
    return p


@pytest.mark.parametrize("opponent", ["random", "greedy", "easy", "medium"])
def test_perfect_keeps_the_value_from_any_position_in_either_seat(opponent):
    solver = solver_for(RULES)
    for i, start in enumerate(random_positions(150, seed=hash(opponent) % 1000)):
        seat = start.to_move
        value, distance = solver.value(start)
        bots = {seat: DohBot("perfect", i), 1 - seat: DohBot(opponent, i)}
        end = play_out(start, bots)
        outcome = 0 if end.winner is None else (1 if end.winner == seat else -1)
        assert outcome >= value, (start, value, outcome)
        if value == 1:
            assert end.ply - start.ply <= distance  # never slower than the solver's


def test_perfect_wins_fastest_and_loses_slowest():
    solver = solver_for(RULES)
    checked = {1: 0, -1: 0}
    for i, start in enumerate(random_positions(300, seed=7)):
        value, distance = solver.value(start)
        if value == 0:
            continue
        end = play_out(start, {0: DohBot("perfect", i), 1: DohBot("perfect", i + 1)})
        assert end.ply - start.ply == distance
        assert (end.winner == start.to_move) == (value == 1)
        scores = solver.action_scores(start)
        choice = DohBot("perfect", i).choose(start, start.to_move)
        assert scores[choice] == scores.max()
        assert score_value(int(scores.max()), 0)[1] == distance
        checked[value] += 1
    assert checked[1] >= 20 and checked[-1] >= 5


def test_greedy_wins_now_and_hands_no_win_over_when_it_can():
    rng = random.Random(3)
    saw_win = saw_safe = 0
    for i, start in enumerate(random_positions(400, seed=11)):
        bot = DohBot("greedy", i)
        action = bot.choose(start, start.to_move)
        after = start.clone()
        assert after.play(action) == 0
        if start.winning_actions():
            assert after.over and after.winner == start.to_move
            saw_win += 1
            continue
        # does some move leave the opponent without a winning reply?
        safe_exists = False
        for a in np.flatnonzero(start.legal_mask()):
            c = start.clone()
            c.play(int(a))
            if c.over or not c.winning_actions():
                safe_exists = True
                break
        if safe_exists:
            assert after.over or not after.winning_actions()
            saw_safe += 1
    assert saw_win > 10 and saw_safe > 50
    del rng


def test_the_tournament_order_of_the_bots():
    """Each bot beats the one before it in BOT_NAMES over both seats (more wins than
    losses), the order the docs' tournament table shows."""
    for weaker, stronger in zip(BOT_NAMES, BOT_NAMES[1:], strict=False):
        a = play_matches(RULES, stronger, weaker, SEEDS[:400])["winner"]
        b = play_matches(RULES, weaker, stronger, SEEDS[:400])["winner"]
        wins = (a == 0).sum() + (b == 1).sum()
        losses = (a == 1).sum() + (b == 0).sum()
        assert wins > losses, (stronger, weaker, wins, losses)


def test_matches_are_deterministic_and_the_same_in_python():
    game = load_game("doh")
    for x, o in [("random", "greedy"), ("easy", "medium"), ("hard", "perfect"), ("greedy", "easy")]:
        first = play_matches(RULES, x, o, SEEDS[:30])
        again = play_matches(RULES, x, o, SEEDS[:30])
        for key in ("winner", "moves", "first_piece"):
            assert np.array_equal(first[key], again[key])
        for i, seed in enumerate(SEEDS[:30].tolist()):
            state = game.new_state()
            bots = (game.make_bot(x, seed), game.make_bot(o, seed))
            first_piece = None
            while not state.is_over():
                (player,) = state.to_move()
                action = bots[player].choose(state, player)
                if first_piece is None:
                    first_piece = action // 25
                assert state.apply(player, action) is None
            won = state.winner()
            assert (-1 if won is None else won) == first["winner"][i]
            assert state.position.ply == first["moves"][i]
            assert first_piece == first["first_piece"][i]


def test_a_bot_is_a_pure_function_of_seed_and_position():
    p = random_positions(1, seed=5)[0]
    for name in BOT_NAMES:
        a = DohBot(name, 99).choose(p, p.to_move)
        DohBot(name, 99).choose(random_positions(1, seed=6)[0], 0)  # something else first
        assert DohBot(name, 99).choose(p, p.to_move) == a
    choices = {
        DohBot("random", s).choose(Position(DohRules().native_params()), 0) for s in range(40)
    }
    assert choices == {12, 37, 62}  # the three first moves


def test_bot_names_and_errors():
    game = load_game("doh")
    assert game.bot_names == BOT_NAMES == ("random", "easy", "greedy", "medium", "hard", "perfect")
    assert set(BOT_SPECS) == set(BOT_NAMES)
    with pytest.raises(ValueError, match="unknown Doh bot 'best'"):
        make_bot("best")
    with pytest.raises(TypeError):
        make_bot("random", seed="1")
    bot = make_bot("perfect", 1)
    state = game.new_state()
    assert bot.choose(state, 1) is None  # not its turn
    with pytest.raises(ValueError):
        bot.choose(state, 2)
    with pytest.raises(TypeError):
        bot.choose("board", 0)
    with pytest.raises(ValueError):
        play_matches(RULES, "random", "nobody", SEEDS[:2])
    with pytest.raises(TypeError):
        play_matches(RULES, "random", "random", np.array([0.5]))


def test_play_matches_columns():
    out = play_matches({"pieces_per_size": 3}, "random", "random", np.arange(200))
    assert out["winner"].dtype == np.int8 and set(np.unique(out["winner"])) <= {-1, 0, 1}
    assert out["moves"].dtype == np.int16 and out["moves"].min() >= 3 and out["moves"].max() <= 9
    assert set(np.unique(out["first_piece"])) == {0, 1, 2}
    assert set(out) == {"winner", "moves", "first_piece", "end", "kingmade"}
    assert not out["kingmade"].any()  # kingmaking needs a third player
    assert out["end"].dtype == np.int8 and set(np.unique(out["end"])) <= {0, 1, 2}
    empty = play_matches(None, "random", "random", np.array([], dtype=np.int64))
    assert len(empty["winner"]) == 0


def test_threads_play_the_same_games():
    from concurrent.futures import ThreadPoolExecutor

    pairs = [("perfect", "greedy"), ("hard", "medium"), ("medium", "perfect"), ("perfect", "easy")]
    rules = DohRules(pieces_per_size=4)
    alone = [play_matches(rules, x, o, SEEDS[:200])["winner"] for x, o in pairs]
    with ThreadPoolExecutor(max_workers=2) as pool:
        together = list(pool.map(lambda p: play_matches(rules, *p, SEEDS[:200])["winner"], pairs))
    for a, b in zip(alone, together, strict=True):
        assert np.array_equal(a, b)
    # and a bot on the shared solver from two threads at once
    positions = random_positions(60, seed=21, pieces=4)
    serial = [DohBot("perfect", 3).choose(p, p.to_move) for p in positions]
    with ThreadPoolExecutor(max_workers=2) as pool:
        parallel = list(pool.map(lambda p: DohBot("perfect", 3).choose(p, p.to_move), positions))
    assert parallel == serial
