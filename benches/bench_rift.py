"""Rift & Grid's benchmarks (pytest-benchmark; informative, not gating; docs/rift.md
records the figures).

    PYTHONPATH=python python -m pytest benches/bench_rift.py --benchmark-only

- a whole random game in the native nogil loop (target <= 3 µs per game);
- whole greedy games, and greedy decisions from Python;
- one turn through the protocol (two ``apply`` calls), and the reference engine's game;
- clone and to_bytes of a mid-game state;
- a ``hard`` decision (the cut SM-MCTS at the preset budget; target <= 50 ms), at the
  first, free turn (the most candidates) and mid-game;
- whole games of ``hard`` (against greedy, against itself) and of the ``hard`` of
  before issue 23 (``search``, 2,000 simulations) against greedy, CPU ms a game;
- the native RL stepper (envs/games/rift.py): agent steps per second of 1,024 envs.

Every figure is a median and is also put in ``extra_info`` and the session's table.
"""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

from conftest import median_s, vector_env_steps
from tictacblitz.games.rift.game import make_game, play_matches
from tictacblitz.games.rift.reference import ReferenceRift
from tictacblitz.games.rift.rules import RiftRules
from tictacblitz.games.rift.types import Ability, Player

N_GAMES = 20_000
SEEDS = np.arange(N_GAMES, dtype=np.uint64)


@pytest.mark.parametrize(
    "bots",
    [("random", "random"), ("greedy", "greedy"), ("greedy", "random")],
    ids=lambda b: "-".join(b),
)
def test_native_games(benchmark, figures, bots):
    """Whole default-rules games in the native loop (``play_matches``)."""
    cols = benchmark.pedantic(play_matches, args=(None, *bots, SEEDS), rounds=7, iterations=1)
    med = median_s(benchmark)
    if med is not None:
        us = med / N_GAMES * 1e6
        turns = float(cols["turns"].mean())
        figures.add(
            "us_per_game",
            us,
            unit="µs",
            **({"target": "<= 3", "met": us <= 3} if bots == ("random", "random") else {}),
        )
        figures.add("games_per_s", N_GAMES / med, unit="/s")
        figures.add("turns_per_game", turns)
        figures.add("ns_per_turn", med / cols["turns"].sum() * 1e9, unit="ns")
        figures.add("x_win_share", float((cols["winner"] == 0).mean()))
        figures.add("draw_share", float((cols["winner"] == -1).mean()))
        if bots == ("random", "random"):
            # CPU time of this process (best of 7): less sensitive to a shared machine
            # than the wall-clock median above.
            best = min(_cpu_seconds(lambda: play_matches(None, *bots, SEEDS)) for _ in range(7))
            figures.add("cpu_us_per_game", best / N_GAMES * 1e6, unit="µs")


def _cpu_seconds(f):
    t0 = time.process_time()
    f()
    return time.process_time() - t0


def _midgame(seed=5, turns=12):
    game = make_game()
    state = game.new_state(seed)
    x, o = game.make_bot("greedy", 1), game.make_bot("random", 2)
    for _ in range(turns):
        state.apply_joint((x.choose(state, 0), o.choose(state, 1)))
    return state


def test_greedy_decision_from_python(benchmark, figures):
    state = _midgame()
    bot = state.game.make_bot("greedy", 3)
    benchmark(bot.choose, state, 0)
    med = median_s(benchmark)
    if med is not None:
        figures.add("us_per_decision", med * 1e6, unit="µs")


def test_protocol_turn(benchmark, figures):
    """One turn through the protocol: two ``apply`` calls (lock, lock and resolve)."""
    base = _midgame()
    x, o = base.legal_actions(0)[0], base.legal_actions(1)[-1]

    def turn():
        state = base.clone()
        state.apply(0, x)
        state.apply(1, o)

    benchmark(turn)
    med = median_s(benchmark)
    if med is not None:
        figures.add("us_per_turn_with_clone", med * 1e6, unit="µs")


def _reference_game(seed):
    rng = random.Random(seed)
    game = ReferenceRift(RiftRules(), seed)
    while not game.over:
        moves = [rng.choice(game.legal_moves(p)) for p in Player]
        game.resolve(*moves)
    return game


def test_reference_game(benchmark, figures):
    """A whole random game on the pure-Python reference (the oracle, not fast)."""
    benchmark.pedantic(_reference_game, args=(3,), rounds=5, iterations=1)
    med = median_s(benchmark)
    if med is not None:
        figures.add("ms_per_game", med * 1e3, unit="ms")


@pytest.mark.parametrize("what", ["clone", "to_bytes"])
def test_copies(benchmark, figures, what):
    state = _midgame()
    benchmark(getattr(state, what))
    med = median_s(benchmark)
    if med is not None:
        figures.add("us_per_call", med * 1e6, unit="µs")


@pytest.mark.parametrize("when", ["first_turn", "midgame"])
def test_hard_decision(benchmark, figures, when):
    """One ``hard`` decision from Python (``bot.choose``: the native search, nogil)."""
    from tictacblitz.games.rift.bots import HARD_SIMULATIONS

    state = make_game().new_state(7) if when == "first_turn" else _midgame()
    bot = state.game.make_bot("hard", 3)
    benchmark.pedantic(bot.choose, args=(state, 0), rounds=9, iterations=1, warmup_rounds=1)
    med = median_s(benchmark)
    if med is not None:
        ms = med * 1e3
        figures.add("ms_per_decision", ms, unit="ms", target="<= 50", met=ms <= 50)
        figures.add("simulations", HARD_SIMULATIONS)
        figures.add("us_per_simulation", med / HARD_SIMULATIONS * 1e6, unit="µs")
        best = min(_cpu_seconds(lambda: bot.choose(state, 0)) for _ in range(5))
        figures.add("cpu_ms_per_decision", best * 1e3, unit="ms")


HARD_GAMES = 12
OLD_HARD = "old_hard"


@pytest.mark.parametrize("bots", [("hard", "greedy"), ("hard", "hard"), (OLD_HARD, "greedy")])
def test_search_games(benchmark, figures, bots):
    """Whole games of the search in the native loop (issue 23, item 4: a 100k-game study
    with ``hard`` took hours): ``hard`` (``search_cut``, 1,000 simulations) against
    greedy and against itself, and the ``hard`` of before (``search``, 2,000) against
    greedy; wall median and CPU time per game (best of 3, this process)."""
    from tictacblitz.games.rift.bots import BotSpec

    spec = {OLD_HARD: BotSpec("search", simulations=2000)}
    x, o = (spec.get(b, b) for b in bots)
    seeds = np.arange(HARD_GAMES, dtype=np.uint64)
    cols = benchmark.pedantic(play_matches, args=(None, x, o, seeds), rounds=3, iterations=1)
    med = median_s(benchmark)
    if med is not None:
        figures.add("ms_per_game", med / HARD_GAMES * 1e3, unit="ms")
        figures.add("turns_per_game", float(cols["turns"].mean()))
        best = min(_cpu_seconds(lambda: play_matches(None, x, o, seeds)) for _ in range(3))
        figures.add("cpu_ms_per_game", best / HARD_GAMES * 1e3, unit="ms")


@pytest.mark.parametrize(("opponent", "threads"), [("random", 1), ("greedy", 1), ("greedy", 2)])
def test_rift_vector_env_steps(benchmark, figures, opponent, threads):
    """The native vector env: 1,024 envs, the agent plays random legal moves (sampled
    natively), the bot answers inside the same nogil step; agent steps per second,
    Python's step() included, and the native step alone."""
    from tictacblitz.envs.games.rift import RiftVectorEnv

    n, steps = 1024, 50
    env = RiftVectorEnv(n, opponent=opponent, num_threads=threads, seed=0, copy=False)
    vector_env_steps(benchmark, figures, env, steps)


_ = Ability
