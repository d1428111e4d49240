"""The measured ladder of Rift's bots (issue 13; docs/rift.md, "Bots"): ``greedy`` beats
``random`` in at least 95 % of decided games and ``hard`` (SM-MCTS at its preset budget)
beats ``greedy`` in at least 65 %, in both seats, the lower end of the 95 % Wilson
interval included. Games run in the native batch loop (``play_matches``, nogil), the two
seat orders on two threads."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from tictacblitz.games.rift.bots import HARD_SIMULATIONS, PRESETS
from tictacblitz.games.rift.game import play_matches
from tictacblitz.lab.stats import wilson


def _both_seats(bot: str, other: str, n: int, base: int):
    """(wins, decided) of ``bot`` as X and as O against ``other`` over n seeds each."""
    seeds = np.arange(base, base + n, dtype=np.uint64)
    with ThreadPoolExecutor(2) as pool:
        as_x = pool.submit(play_matches, None, bot, other, seeds)
        as_o = pool.submit(play_matches, None, other, bot, seeds)
        x, o = as_x.result()["winner"], as_o.result()["winner"]
    return ((int((x == 0).sum()), int((x >= 0).sum())), (int((o == 1).sum()), int((o >= 0).sum())))


@pytest.mark.parametrize(
    ("bot", "other", "n", "floor"),
    [("greedy", "random", 1000, 0.95), ("hard", "greedy", 50, 0.65)],
)
def test_ladder_in_both_seats(bot, other, n, floor):
    for seat, (wins, decided) in zip("XO", _both_seats(bot, other, n, base=10_000), strict=True):
        low, _ = wilson(wins, decided)
        assert low >= floor, (bot, other, seat, wins, decided, low)


def test_hard_is_the_search_at_its_budget():
    spec = PRESETS["hard"]
    assert (spec.kind, spec.simulations, spec.error_rate) == ("search", HARD_SIMULATIONS, 0.0)
