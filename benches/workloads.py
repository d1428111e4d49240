"""Deterministic inputs shared by the benchmarks (bench_blitz.py) and the gate (gate.py).

Everything here is a pure function of fixed seeds, so the timing benchmarks and the
instruction-count gate measure the same work on every machine and every run.
"""

from __future__ import annotations

import numpy as np

from tictacblitz import Action, Match, Player, Rules
from tictacblitz.games.blitz.reference import SplitMix64

BOARD_SEED = 20240611
PLAYOUT_SEEDS = tuple(range(16))  # random-vs-random matches, default rules
REFERENCE_SEEDS = tuple(range(4))  # the subset also played on the reference

# A board where a lot is timed: powerups spawn every ~20 ms and burn out after 300 ms,
# on top of the marks, craters and effects of the opening it is built from.
BUSY_RULES = Rules(spawn_min_ms=1, spawn_max_ms=40, powerup_max=10, powerup_ms=300)
BUSY_OPENING_MS = 2_500


def pack(cells: np.ndarray) -> np.ndarray:
    """(n, k) bools -> n uint64 bitboards (bit i = column i)."""
    weights = np.uint64(1) << np.arange(cells.shape[1], dtype=np.uint64)
    return (cells.astype(np.uint64) * weights).sum(axis=1, dtype=np.uint64)


def kernel_boards(n: int, size: int = 6, seed: int = BOARD_SEED):
    """(lines, own, opp): uint64 arrays of n boards each.

    ``lines``: boards for line detection, each cell a mark with probability 0.38, so
    that about half the boards hold a line and the branches stay unpredictable.
    ``own``/``opp``: disjoint boards for R20, each cell own 0.25, opponent 0.25.
    Bits beyond size*size are garbage on purpose (the kernels must ignore them).
    """
    rng = np.random.default_rng(seed)
    cells = size * size
    lines = pack(rng.random((n, cells)) < 0.38)
    u = rng.random((n, cells))
    own = pack(u < 0.25)
    opp = pack((u >= 0.25) & (u < 0.5))
    high = (
        rng.integers(0, 2**63, size=(3, n), dtype=np.uint64) << np.uint64(cells)
        if cells < 64
        else 0
    )
    if cells < 64:
        lines |= high[0]
        own |= high[1]
        opp |= high[2]
    return (np.ascontiguousarray(lines), np.ascontiguousarray(own), np.ascontiguousarray(opp))


def random_opening(match, seed: int, until_t: int) -> None:
    """Both players act at random (uniform over legal actions) whenever charged, up to
    ms ``until_t``; then the match is advanced to exactly ``until_t``."""
    rng = SplitMix64(seed)
    while not match.round_over and match.t < until_t:
        chosen = []
        for player in (Player.X, Player.O):
            legal = match.legal_actions(player) if match.status(player).charge_full else []
            chosen.append(legal[rng.below(len(legal))] if legal else None)
        match.act_both(*chosen)  # a seat with nothing legal waits (None)
        nxt = match.next_event_t()
        if nxt is None:
            break
        for player in (Player.X, Player.O):
            status = match.status(player)
            if not status.charge_full:
                nxt = min(nxt, status.charge_ready_t)
        match.advance_to(min(max(nxt, match.t + 1), until_t))


def busy_match() -> Match:
    """A live match at ms 2500 with setting marks, craters and powerups on the board,
    from which advancing to the end of the round meets thousands of timed events and
    no line (the round ends by timeout). The first seed that does so is taken."""
    for seed in range(100):
        match = Match(BUSY_RULES, seed=seed)
        random_opening(match, seed, BUSY_OPENING_MS)
        if match.round_over:
            continue
        probe = match.clone()
        probe.advance_to(BUSY_RULES.round_ms)
        if probe.rounds and probe.rounds[-1].by.name == "TIMEOUT":
            return match
    raise RuntimeError("no busy opening without a line in 100 seeds")


def idle_match() -> Match:
    """A match with nothing timed: no powerups, nothing on the board."""
    return Match(Rules(), seed=0, random_powerups=False)


def midgame_match() -> Match:
    """A typical position for clone()/to_bytes(): default rules, a random opening."""
    match = Match(Rules(), seed=7)
    random_opening(match, 7, 6_000)
    return match


def place_everywhere(match: Match, size: int = 6):
    """The Python-API loop of the gate: X places on every empty cell it can, advancing
    past each refill; returns the number of accepted actions."""
    accepted = 0
    for cell in range(size * size):
        if match.round_over:
            break
        if match.act(Player.X, Action.place(divmod(cell, size))) is None:
            accepted += 1
        match.advance(450)
    return accepted
