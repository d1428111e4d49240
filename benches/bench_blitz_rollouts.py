"""Benchmarks of the batched stepper (tictacblitz.envs, blitz_core.blitz.rollouts).

Match-steps per second (one decision step of one match: both seats' actions at the
current ms, then 50 ms of game time), with random legal actions:

- ``native``: both seats played by the native random policy inside the step;
- ``external``: the RL path: ``sample_actions()`` (native random legal codes) then
  ``step(actions)``, with float32 planes and masks written every step;
- ``python``: a Python loop over single ``tictacblitz.Match`` steps (legal_actions,
  act/act_both, advance), the baseline of the ≥ 100× target;
- ``opponents`` (issue 15): N_OPP = 1,024 envs, the agent's seat played by the native
  random policy, the other by each bot preset (``greedy``, ``easy``, ``medium``,
  ``search``, ``hard``) inside the same ``nogil`` step, ``bits`` observations; and the
  RL path (``sample_actions`` for the agent + ``step``, planes and masks);

at 1 and 2 OpenMP threads. Run::

    PYTHONPATH=python python -m pytest benches/bench_blitz_rollouts.py \
        --benchmark-columns=mean,rounds
    PYTHONPATH=python python benches/bench_blitz_rollouts.py          # the table of docs/rl.md

The OpenMP wait policy is libgomp's default (threads spin briefly between steps), which
is fastest on an idle machine: measured 26 M steps/s on 2 threads, 1.85x one thread. On a
machine shared with other work, run with ``OMP_WAIT_POLICY=PASSIVE``: spinning threads
lose their core for whole time slices there. Results never depend on the thread count,
only the speed does.
"""

from __future__ import annotations

import os
import random
import sys
import time

import numpy as np
import pytest

from tictacblitz import Match, Player
from tictacblitz.envs.games.blitz import BatchedMatches

N_ENVS = 8192
N_OPP = 1024
INTERVAL_MS = 50
OPPONENTS = ("random", "greedy", "easy", "medium", "search", "hard")


def native_batch(num_threads, obs="bits", masks=False, n=N_ENVS):
    batch = BatchedMatches(
        n, seed=0, policies=("random", "random"), obs=obs, masks=masks, num_threads=num_threads
    )
    for _ in range(50):  # past the opening: a typical mix of states
        batch.step()
    return batch


def opponent_batch(num_threads, opponent, obs="bits", masks=False, n=N_OPP):
    """The agent (X) is the native random policy, O the bot: the stepper's own speed."""
    batch = BatchedMatches(
        n, seed=0, policies=("random", opponent), obs=obs, masks=masks, num_threads=num_threads
    )
    for _ in range(20 if opponent in ("search", "hard") else 50):
        batch.step()
    return batch


def opponent_rl_batch(num_threads, opponent, n=N_OPP):
    """The RL path: the caller's actions for X (sample_actions), planes and masks."""
    batch = BatchedMatches(
        n, seed=0, policies=(None, opponent), obs="planes", masks=True, num_threads=num_threads
    )
    actions = np.zeros((n, 2), dtype=np.int64)
    for _ in range(20):
        batch.sample_actions(actions)
        batch.step(actions)
    return batch, actions


def external_batch(num_threads, n=N_ENVS):
    batch = BatchedMatches(n, seed=0, obs="planes", masks=True, num_threads=num_threads)
    actions = np.zeros((n, 2), dtype=np.int64)
    for _ in range(50):
        batch.sample_actions(actions)
        batch.step(actions)
    return batch, actions


def python_loop(steps, seed=0):
    """Random legal actions through the public single-match API, `steps` steps."""
    rng = random.Random(seed)
    match = Match(seed=seed)
    for _ in range(steps):
        if match.match_over:
            match = Match(seed=rng.randrange(2**32))
        choice = []
        for p in (Player.X, Player.O):
            legal = match.legal_actions(p)
            choice.append(rng.choice(legal) if legal else None)
        match.act_both(*choice)  # a seat with nothing legal waits (None)
        match.advance(INTERVAL_MS)
        if match.round_over and not match.match_over:
            match.start_next_round()


def _rate(fn, steps_per_call, seconds=1.0):
    """Best-of-3 match-steps per second of repeated calls: (wall clock, CPU time).

    The CPU-time rate (steps per second of this process's CPU time, all threads) does
    not depend on what else the machine runs: per-core speed, and at 2 threads the
    parallel efficiency (equal rates = no threading overhead)."""
    fn()
    best_wall = best_cpu = 0.0
    for _ in range(3):
        calls, start, cpu = 0, time.perf_counter(), time.process_time()
        while True:
            fn()
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds / 3:
                break
        used = max(time.process_time() - cpu, 1e-9)
        best_wall = max(best_wall, calls * steps_per_call / elapsed)
        best_cpu = max(best_cpu, calls * steps_per_call / used)
    return best_wall, best_cpu


# -- pytest-benchmark ----------------------------------------------------------------------


@pytest.mark.parametrize("num_threads", [1, 2])
@pytest.mark.parametrize("obs", ["bits", "planes"])
def test_native_random(benchmark, num_threads, obs):
    batch = native_batch(num_threads, obs=obs, masks=obs == "planes")
    steps = 10

    def run():
        for _ in range(steps):
            batch.step()

    benchmark.pedantic(run, rounds=10, iterations=1, warmup_rounds=1)
    benchmark.extra_info["match_steps_per_s"] = N_ENVS * steps / benchmark.stats.stats.mean


@pytest.mark.parametrize("num_threads", [1, 2])
def test_external_random_legal(benchmark, num_threads):
    batch, actions = external_batch(num_threads)
    steps = 5

    def run():
        for _ in range(steps):
            batch.sample_actions(actions)
            batch.step(actions)

    benchmark.pedantic(run, rounds=10, iterations=1, warmup_rounds=1)
    benchmark.extra_info["match_steps_per_s"] = N_ENVS * steps / benchmark.stats.stats.mean


@pytest.mark.parametrize("num_threads", [1, 2])
@pytest.mark.parametrize("opponent", ["greedy", "easy"])
def test_native_opponent(benchmark, num_threads, opponent):
    batch = opponent_batch(num_threads, opponent)
    steps = 20

    def run():
        for _ in range(steps):
            batch.step()

    benchmark.pedantic(run, rounds=10, iterations=1, warmup_rounds=1)
    benchmark.extra_info["match_steps_per_s"] = N_OPP * steps / benchmark.stats.stats.mean


def test_python_loop(benchmark):
    steps = 2000
    benchmark.pedantic(python_loop, args=(steps,), rounds=3, iterations=1)
    benchmark.extra_info["match_steps_per_s"] = steps / benchmark.stats.stats.mean


def test_memory_per_match():
    batch = BatchedMatches(16, obs="bits")
    assert batch.state_bytes <= 1024


# -- the table -----------------------------------------------------------------------------


def main() -> None:
    rows = {}
    py = _rate(lambda: python_loop(500), 500, seconds=3.0)
    rows["python loop over Match, 1 match"] = {1: py}
    for label, make in (
        ("native random, bits obs", lambda nt: native_batch(nt)),
        ("native random, planes + masks", lambda nt: native_batch(nt, obs="planes", masks=True)),
    ):
        rows[label] = {}
        for nt in (1, 2):
            batch = make(nt)
            rows[label][nt] = _rate(batch.step, N_ENVS)
    rows["sample_actions + step, planes + masks"] = {}
    for nt in (1, 2):
        batch, actions = external_batch(nt)

        def rl_step(batch=batch, actions=actions):
            batch.sample_actions(actions)
            batch.step(actions)

        rows["sample_actions + step, planes + masks"][nt] = _rate(rl_step, N_ENVS)
    print(
        f"N = {N_ENVS} envs, {INTERVAL_MS} ms per step, cores = {os.cpu_count()}, "
        f"load average = {os.getloadavg()[0]:.1f}, "
        f"OMP_WAIT_POLICY = {os.environ.get('OMP_WAIT_POLICY')}"
    )
    print("match-steps per second, wall clock (per CPU-second in brackets)")
    print(f"{'':40s} {'1 thread':>20s} {'2 threads':>20s} {'scaling':>8s} {'vs python':>10s}")
    py_wall, py_cpu = py
    for label, rates in rows.items():
        (w1, c1) = rates[1]
        line = f"{label:40s} {w1 / 1e6:7.2f} M ({c1 / 1e6:6.2f} M)"
        if 2 in rates:
            (w2, c2) = rates[2]
            line += (
                f" {w2 / 1e6:7.2f} M ({c2 / 1e6:6.2f} M) {w2 / w1:7.2f}x "
                f"{max(w1, w2) / py_wall:6.0f}x ({c1 / py_cpu:.0f}x per CPU-s)"
            )
        print(line)
    print(
        f"native bytes per match (MatchState + streams + counters): {BatchedMatches(1).state_bytes}"
    )
    opponents()


def opponents(names=OPPONENTS, threads=(1, 2)) -> None:
    """The table of native opponents (docs/rl.md, issue 15)."""
    print(
        f"\nN = {N_OPP} envs, agent X = native random, O = the bot in the nogil step; "
        f"load average = {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'opponent':10s} "
        + " ".join(f"{f'{nt} thr bits':>22s}" for nt in threads)
        + " "
        + " ".join(f"{f'{nt} thr RL path':>22s}" for nt in threads)
    )
    for name in names:
        slow = name in ("search", "hard")
        secs = 3.0 if slow else 1.5
        line = f"{name:10s} "
        for nt in threads:
            batch = opponent_batch(nt, name)
            w, c = _rate(batch.step, N_OPP, seconds=secs)
            line += f" {w / 1e6:8.3f} M ({c / 1e6:7.3f} M)"
        for nt in threads:
            batch, actions = opponent_rl_batch(nt, name)

            def rl_step(batch=batch, actions=actions):
                batch.sample_actions(actions)
                batch.step(actions)

            w, c = _rate(rl_step, N_OPP, seconds=secs)
            line += f" {w / 1e6:8.3f} M ({c / 1e6:7.3f} M)"
        print(line, flush=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["opponents"]:
        sys.exit(opponents())
    sys.exit(main())
