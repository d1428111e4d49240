"""A ladder of bots, measured (issue 23, items 3 and 4): who beats whom, per seat, in
decided games, with the 95 % Wilson interval, and the marked block of a doc that holds
the table. Shared by Rift's ladder (``games/rift/ladder.py``, its levels and their cost)
and the GUI ladder of every game (``lab/ladder.py``, docs/bots.md); a game imports
nothing of the lab, so the Wilson interval is the lab's formula written here
(tests/rift/test_rift_ladder.py holds the two equal).
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable, Optional, Tuple

import numpy as np

__all__ = ["Z95", "wilson", "Pairing", "both_seats", "pct", "rewrite_block"]

Z95 = 1.959963984540054

Play = Callable[[object, object, np.ndarray], np.ndarray]
"""``play(x_bot, o_bot, seeds)``: the winner column (seat 0 X, 1 O, -1 a draw) of one
game a seed."""


def wilson(successes: int, n: int) -> Tuple[float, float]:
    """The 95 % Wilson score interval of a proportion; (0, 1) for n = 0."""
    if n <= 0:
        return (0.0, 1.0)
    p, z2 = successes / n, Z95 * Z95
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = Z95 * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return (low, high)


@dataclass(frozen=True)
class Pairing:
    """One pairing's result: wins and decided games of the first bot, per seat."""

    label: str
    games: int
    wins: Tuple[int, int]
    decided: Tuple[int, int]

    def share(self, seat: int) -> Tuple[float, float, float]:
        """(share, low, high) of the first bot's decided games won in ``seat`` (0 X)."""
        won, dec = self.wins[seat], self.decided[seat]
        low, high = wilson(won, dec)
        return (won / dec if dec else float("nan"), low, high)

    def above_half(self) -> bool:
        """The ladder's criterion: the Wilson lower bound above 50 % in both seats."""
        return all(self.share(seat)[1] > 0.5 for seat in (0, 1))


def both_seats(play: Play, label: str, first, second, games: int, seed: int = 0) -> Pairing:
    """``first`` against ``second`` on seeds ``seed .. seed+games-1`` in each seat order,
    the two orders on two threads (the games' native loops drop the GIL)."""
    seeds = np.arange(seed, seed + games, dtype=np.uint64)
    with ThreadPoolExecutor(2) as pool:
        as_x = pool.submit(play, first, second, seeds)
        as_o = pool.submit(play, second, first, seeds)
        x, o = np.asarray(as_x.result()), np.asarray(as_o.result())
    return Pairing(
        label,
        games,
        (int((x == 0).sum()), int((o == 1).sum())),
        (int((x >= 0).sum()), int((o >= 0).sum())),
    )


def pct(value: Tuple[float, float, float]) -> str:
    """A share and its interval as ``61.5 % [56.6, 66.1]``."""
    share, low, high = value
    return f"{100 * share:.1f} % [{100 * low:.1f}, {100 * high:.1f}]"


def rewrite_block(path: str, begin: str, end: str, block: Optional[str]) -> None:
    """Replace the block from ``begin`` to ``end`` of ``path`` by ``block`` (None: only
    check that there is one), leaving the rest of the file as it was.
    :raises ValueError: when the file has no such block."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start:
        raise ValueError(f"no ladder block ({begin} ... {end}) to rewrite")
    if block is None:
        return
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text[:start] + block + text[stop + len(end) :])
