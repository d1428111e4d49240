"""Bot speed: decision times of greedy, strong and search, search simulations per second,
and whole native bot matches (pytest-benchmark; docs/bots.md records the figures).

    PYTHONPATH=python python -m pytest benches/bench_blitz_bots.py --benchmark-only -s

Each benchmark stores its derived figure in ``extra_info`` (µs per decision, sims/s),
and prints it with ``-s``.
"""

import time

import pytest

from blitz_core.blitz.bots import time_decisions, time_reactions
from tictacblitz import Action, Match, Player, Rules
from tictacblitz.games.blitz.bots import PRESETS, play_matches, resolve


def midgame(seed=3):
    """A busy position: both sides with set and setting marks, a powerup on the board."""
    match = Match(
        Rules(),
        seed=seed,
        setup=["X..O..", ".X.O..", "..X...", "O...X.", "......", "...O.X"],
        random_powerups=False,
    )
    match.spawn_powerup("freeze", (4, 4))
    match.act(Player.O, Action.place((2, 4)))
    match.advance(1)
    match.act(Player.X, Action.place((5, 0)))
    match.advance(500)  # X charged again; O's (2,4) still setting
    return match


@pytest.mark.parametrize("bot", ["greedy", "strong", "search", "hard"])
def test_decision_time(benchmark, bot):
    match = midgame()
    spec = PRESETS[bot].native()
    repeats = 20000 if PRESETS[bot].kind in ("greedy", "strong") else 20
    cpu = []

    def timed():
        t0 = time.process_time()
        out = time_decisions(match, spec, 0, repeats)
        cpu.append((time.process_time() - t0) / repeats)
        return out

    out = benchmark.pedantic(timed, rounds=5, iterations=1)
    us = out["seconds_per_decision"] * 1e6
    cpu_us = min(cpu) * 1e6
    benchmark.extra_info["us_per_decision"] = us
    benchmark.extra_info["cpu_us_per_decision"] = cpu_us
    if out["simulations"]:
        benchmark.extra_info["sims_per_s"] = (
            out["simulations"] / repeats / out["seconds_per_decision"]
        )
    print(
        f"\n{bot}: {us:.2f} µs per decision ({cpu_us:.2f} µs of CPU)"
        + (f", {benchmark.extra_info['sims_per_s']:.0f} sims/s" if out["simulations"] else "")
    )
    # The bounds are on CPU time, not the monotonic clock: on the shared machine the
    # clock counts time the process waits for a core (4x the CPU time at load 12).
    if bot in ("greedy", "strong"):
        assert cpu_us <= 5.0  # the issues' target (greedy: issue 1; strong: issue 23 item 2)
    else:
        assert cpu_us <= 20000.0  # search's default budget: a decision within 20 ms


@pytest.mark.parametrize(
    "x_bot,o_bot,n",
    [("greedy", "greedy", 200), ("strong", "strong", 200), ("search", "greedy", 10)],
)
def test_bot_matches(benchmark, x_bot, o_bot, n):
    """Whole matches in the native loop, with the time spent deciding measured inside."""
    out = benchmark.pedantic(
        play_matches,
        args=(None, x_bot, o_bot, range(n)),
        kwargs={"timing": True},
        rounds=1,
        iterations=1,
    )
    decisions = int(out["seat_counts"][:, 0, 0].sum())  # X's, SEAT_COUNT_FIELDS[0]
    decide_s = out["decide_ns"][:, 0].sum() / 1e9
    benchmark.extra_info["x_us_per_decision"] = decide_s / decisions * 1e6
    simulations = int(out["simulations"][:, 0].sum())
    if simulations:
        benchmark.extra_info["x_sims_per_s"] = simulations / decide_s
    print(f"\n{x_bot} vs {o_bot}: {benchmark.extra_info}")


def test_strong_cost_in_whole_matches(benchmark):
    """Issue 23 item 2: the strong bot's CPU per decision, averaged over whole matches
    against itself, counted in one run: the process CPU time of the run (deciding and
    stepping the engine alike, so an upper bound) over the decisions of both seats, next
    to the time measured inside the decisions (monotonic clock: on a loaded machine it
    counts time the thread was preempted)."""
    n = 400
    cpu = []

    def run():
        t0 = time.process_time()
        out = play_matches(None, "strong", "strong", range(n), timing=True)
        cpu.append(time.process_time() - t0)
        return out

    out = benchmark.pedantic(run, rounds=1, iterations=1)
    decisions = int(out["seat_counts"][:, :, 0].sum())  # both seats', SEAT_COUNT_FIELDS[0]
    info = benchmark.extra_info
    info["decisions_per_match"] = decisions / n
    info["cpu_us_per_decision_whole_run"] = cpu[0] / decisions * 1e6
    info["us_per_decision_inside"] = out["decide_ns"].sum() / 1e3 / decisions
    info["cpu_ms_per_match"] = cpu[0] / n * 1e3
    print(f"\nstrong vs strong, {n} matches: {info}")


def test_player_model_overhead(benchmark):
    """Issue 23 item 2: the player model's cost next to a greedy decision's. A reaction
    drawn from its distribution (``greedy:reaction=250ms±80``: a lognormal, bots.pyx
    ``reaction_at``) is timed alone in a native loop, a greedy decision on the busy
    midgame as in :func:`test_decision_time`; both on CPU time. The error rate costs one
    draw of the stream a decision, part of every decision already."""
    spec = resolve("greedy:reaction=250ms±80").native()
    match = midgame()
    repeats = 200_000
    reaction_cpu, decision_cpu = [], []

    def timed():
        t0 = time.process_time()
        out = time_reactions(spec, repeats)
        reaction_cpu.append((time.process_time() - t0) / repeats)
        t0 = time.process_time()
        time_decisions(match, PRESETS["greedy"].native(), 0, repeats // 10)
        decision_cpu.append((time.process_time() - t0) / (repeats // 10))
        return out

    out = benchmark.pedantic(timed, rounds=5, iterations=1)
    reaction_us, decision_us = min(reaction_cpu) * 1e6, min(decision_cpu) * 1e6
    info = benchmark.extra_info
    info["reaction_draw_cpu_us"] = reaction_us
    info["greedy_decision_cpu_us"] = decision_us
    info["overhead_share"] = reaction_us / decision_us
    print(f"\nplayer model: {info}, mean drawn {out['mean_ms']:.1f} ms")
    assert 240 < out["mean_ms"] < 260  # the draws are the distribution's (mean 250 ms)
    assert reaction_us < 0.10 * decision_us  # the target: under 10 % of greedy's
