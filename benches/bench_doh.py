"""Benchmarks of Tic Tac Doh (pytest-benchmark; informative, not gating).

    PYTHONPATH=python python -m pytest benches/bench_doh.py --benchmark-only

Figures (docs/doh.md): random games in the native loop (ns per move, target <= 40),
a full solve of pieces_per_size=5 from a fresh table (s, target <= 1 on one core; the
table's memory and the positions it holds), and the perfect bot's decision once the
table is warm (us per decision, target <= 1 ms). The targets are reported ("met"),
never asserted; what is asserted is that the work is the work (the solved value, legal
decisions). Issue 25: every seat's paranoid solve at 3 players and pieces_per_size 5
(s for all three, target < 10), and the paranoid solves of the 2-player game next to
its negamax solve.
"""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

from blitz_core.doh.engine import Position, random_games
from blitz_core.doh.solver import Solver
from conftest import median_s, vector_env_steps
from tictacblitz.games.doh.bots import bot_spec
from tictacblitz.games.doh.game import play_matches
from tictacblitz.games.doh.rules import DohRules

RANDOM_GAMES = 100_000
TWO = DohRules().native_params()  # pieces_per_size 5, grid 3: the rules as they cross
THREE = DohRules(players=3).native_params()


def test_doh_random_games(benchmark, figures):
    """Whole random games (pieces_per_size 5) in the native nogil loop: ns per move."""
    counter = iter(range(10**9))
    moves, cpu = [], []

    def run():
        t0 = time.process_time()
        played, *_ = random_games(TWO, RANDOM_GAMES, next(counter))
        cpu.append((time.process_time() - t0) / played)
        moves.append(played)

    benchmark.pedantic(run, rounds=15, warmup_rounds=1)
    med = median_s(benchmark)
    per_game = float(np.mean(moves)) / RANDOM_GAMES
    assert 5 <= per_game <= 15
    if med is not None:
        ns = med / float(np.mean(moves)) * 1e9
        figures.add("ns_per_move", ns, unit="ns", target="<= 40", met=ns <= 40)
        # CPU time of this process: what one core costs on a machine shared with others
        figures.add(
            "cpu_ns_per_move",
            float(np.median(cpu)) * 1e9,
            unit="ns",
            target="<= 40",
            met=float(np.median(cpu)) * 1e9 <= 40,
        )
        figures.add("moves_per_game", per_game)
        figures.add("games_per_s", RANDOM_GAMES / med, unit="games/s")


def test_doh_random_games_three_players(benchmark, figures):
    """Issue 25's target: a random 3-player game (pieces_per_size 5) costs at most 1.5x
    the 2-player game per move. Both are timed in CPU time in the same rounds,
    interleaved, so the ratio does not depend on the machine's load."""
    counter = iter(range(10**9))
    per_move = {2: [], 3: []}

    def run():
        seed = next(counter)
        for players in (2, 3):
            t0 = time.process_time()
            played, *_ = random_games(TWO if players == 2 else THREE, RANDOM_GAMES, seed)
            per_move[players].append((time.process_time() - t0) / played)

    benchmark.pedantic(run, rounds=9, warmup_rounds=1)
    two, three = (float(np.median(per_move[n])) * 1e9 for n in (2, 3))
    assert two > 0 and three > 0
    ratio = three / two
    figures.add("cpu_ns_per_move_2_players", two, unit="ns")
    figures.add("cpu_ns_per_move_3_players", three, unit="ns")
    figures.add("ratio_3_to_2", ratio, target="<= 1.5", met=ratio <= 1.5)


def test_doh_full_solve(benchmark, figures):
    """The value of the empty table, pieces_per_size=5, from a fresh table every round."""
    solvers, cpu = [], []

    def run():
        t0 = time.process_time()
        solver = Solver(TWO)
        value = solver.value(Position(TWO))
        cpu.append(time.process_time() - t0)
        solvers.append(solver)
        return value

    value = benchmark.pedantic(run, rounds=10, warmup_rounds=1)
    assert value == (0, 15)  # a draw, all 15 pieces placed
    med = median_s(benchmark)
    last = solvers[-1]
    if med is not None:
        figures.add("solve_s", med, unit="s", target="<= 1", met=med <= 1.0)
        figures.add("cpu_solve_s", float(np.median(cpu)), unit="s")
    figures.add("positions_expanded", last.nodes)
    figures.add("table_entries", last.entries)
    figures.add("table_memory_MiB", last.memory_bytes / 2**20, unit="MiB")


def test_doh_paranoid_solves_three_players(benchmark, figures):
    """Issue 25: each seat's paranoid value of the empty table, 3 players,
    pieces_per_size 5, every seat from a fresh table: the three solves in all."""
    cpu, solvers = [], []

    def run():
        t0 = time.process_time()
        fresh = [Solver(THREE) for _ in range(3)]
        values = [s.paranoid_value(Position(THREE), seat) for seat, s in enumerate(fresh)]
        cpu.append(time.process_time() - t0)
        solvers.append(fresh)
        return values

    values = benchmark.pedantic(run, rounds=10, warmup_rounds=1)
    assert [v for v, _ in values] == [-1, -1, -1]  # docs/doh.md: each seat loses
    med = median_s(benchmark)
    if med is not None:
        figures.add("solve_all_seats_s", med, unit="s", target="< 10", met=med < 10.0)
        figures.add("cpu_solve_all_seats_s", float(np.median(cpu)), unit="s")
    figures.add("positions_expanded", sum(s.nodes for s in solvers[-1]))
    figures.add("table_memory_MiB", sum(s.memory_bytes for s in solvers[-1]) / 2**20, unit="MiB")


def test_doh_paranoid_two_players(benchmark, figures):
    """The 2-player game's paranoid solves of both seats (pieces_per_size 5, fresh
    tables): the same values as the negamax solve, and what the fixed side costs."""

    cpu = []

    def run():
        t0 = time.process_time()
        fresh = [Solver(TWO) for _ in range(2)]
        scores = [s.paranoid_score(Position(TWO), seat) for seat, s in enumerate(fresh)]
        cpu.append(time.process_time() - t0)
        return fresh, scores

    fresh, scores = benchmark.pedantic(run, rounds=10, warmup_rounds=1)
    assert scores == [Solver(TWO).score(Position(TWO))] * 2 == [0, 0]
    med = median_s(benchmark)
    if med is not None:
        figures.add("solve_both_seats_s", med, unit="s")
        figures.add("cpu_solve_both_seats_s", float(np.median(cpu)), unit="s")
    figures.add("positions_expanded", sum(s.nodes for s in fresh))


def _positions(count, seed):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        p = Position(TWO)
        while not p.over:
            found.append(p.clone())
            p.play(int(rng.choice(np.flatnonzero(p.legal_mask()))))
    return found[:count]


def test_doh_perfect_decision(benchmark, figures):
    """The perfect bot's move once the table holds the solve: the empty table and
    positions of random games (1000 decisions per round)."""
    solver = Solver(TWO)
    solver.value(Position(TWO))  # the solve
    positions = _positions(1000, seed=1)
    spec = bot_spec("perfect")
    for p in positions:  # warm: the table also learns these
        solver.choose(p, spec, 1)

    def run():
        return [solver.choose(p, spec, 7) for p in positions]

    choices = benchmark.pedantic(run, rounds=10, warmup_rounds=1)
    assert all(p.reason(a) == 0 for p, a in zip(positions, choices, strict=True))
    med = median_s(benchmark)
    if med is not None:
        us = med / len(positions) * 1e6
        figures.add("us_per_decision", us, unit="us", target="<= 1000", met=us <= 1000)
    # a cold decision: a fresh table, straight after the solve, on new positions
    cold = Solver(TWO)
    cold.value(Position(TWO))
    fresh = _positions(200, seed=2)
    t0 = time.perf_counter()
    for p in fresh:
        cold.choose(p, spec, 3)
    figures.add(
        "us_per_decision_first_visit", (time.perf_counter() - t0) / len(fresh) * 1e6, unit="us"
    )


@pytest.mark.parametrize("pair", [("perfect", "random"), ("greedy", "greedy"), ("hard", "medium")])
def test_doh_bot_matches(benchmark, figures, pair):
    """Whole bot matches natively (play_matches): matches per second."""
    seeds = np.arange(2000, dtype=np.uint64)
    rules = DohRules()
    play_matches(rules, *pair, seeds)  # the perfect bot's table, warm
    out = benchmark.pedantic(lambda: play_matches(rules, *pair, seeds), rounds=5)
    assert len(out["winner"]) == len(seeds)
    med = median_s(benchmark)
    if med is not None:
        figures.add("matches_per_s", len(seeds) / med, unit="matches/s")


@pytest.mark.parametrize(
    "opponent,threads",
    [("random", 1), ("random", 2), ("greedy", 1), ("perfect", 1), ("perfect", 2)],
)
def test_doh_vector_env_steps(benchmark, figures, opponent, threads):
    """The native vector env (envs/games/doh.py, blitz_core.doh.batch): 1,024 envs, the agent
    plays random legal moves (sampled natively), the bot answers inside the same nogil
    step; agent steps per second, Python's step() included, and the native step alone."""
    from tictacblitz.envs.games.doh import DohVectorEnv

    n, steps = 1024, 50
    env = DohVectorEnv(n, opponent=opponent, num_threads=threads, seed=0, copy=False)
    for _ in range(steps):  # the perfect bot's tables, warm
        env.step(env.batch.sample_actions(0))
    vector_env_steps(benchmark, figures, env, steps)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_doh_vector_env_steps_players(benchmark, figures, players):
    """Issue 25: the native vector env at 2, 3 and 4 players (D10), the agent first and
    ``random`` in every other seat, one thread: agent steps per second (each agent step
    is followed by ``players - 1`` bot moves inside the same nogil call)."""
    from tictacblitz.envs.games.doh import DohVectorEnv

    n, steps = 1024, 50
    env = DohVectorEnv(n, num_threads=1, seed=0, copy=False, rules={"players": players})
    vector_env_steps(benchmark, figures, env, steps)


OPPONENTS = ("random", "greedy", "easy", "perfect")


def test_doh_vector_env_opponents_cpu(benchmark, figures):
    """Issue 28: each opponent's native step (1,024 envs, one thread, the agent's random
    legal moves sampled natively beforehand) in CPU time of this process, the opponents
    interleaved in the same rounds so that the machine's load falls on all alike; the
    greedy bot (memoised move scores, solver.pxd's GreedyCache) against perfect's."""
    import time

    from tictacblitz.envs.games.doh import DohVectorEnv

    n, steps = 1024, 40
    envs = {name: DohVectorEnv(n, opponent=name, num_threads=1, seed=0) for name in OPPONENTS}
    cpu = {name: [] for name in OPPONENTS}
    seeds = np.zeros(n, dtype=np.uint64)
    counter = iter(range(10**9))
    for env in envs.values():  # warm: the perfect bot's table, the greedy bot's memo
        for _ in range(steps):
            env.batch.step(env.batch.sample_actions(next(counter)), seeds)

    def run():
        for name, env in envs.items():
            actions = [env.batch.sample_actions(next(counter)) for _ in range(steps)]
            t0 = time.process_time()
            for a in actions:
                env.batch.step(a, seeds + np.uint64(next(counter)))
            cpu[name].append((time.process_time() - t0) / (steps * n))

    benchmark.pedantic(run, rounds=7, warmup_rounds=0)
    rate = {name: 1.0 / float(np.median(cpu[name])) for name in OPPONENTS}
    for name in OPPONENTS:
        figures.add(f"{name}_steps_per_cpu_s", rate[name], unit="steps/s")
    figures.add(
        "greedy_over_perfect",
        rate["greedy"] / rate["perfect"],
        target=">= 1",
        met=rate["greedy"] >= rate["perfect"],
    )
    figures.add("greedy_over_random", rate["greedy"] / rate["random"])
