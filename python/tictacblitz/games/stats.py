"""The counting statistics a game's metrics are built of: the 95 % Wilson interval, exact
moments with a normal interval of the mean, quantiles from histograms.

A platform module (math and NumPy only): the games' lab adapters
(``tictacblitz.lab.games.<name>``) count with it, and so may any game module without
importing the lab (issue 27, item 1). :mod:`tictacblitz.lab.stats` re-exports it beside
the lab's tests and corrections.
"""

from __future__ import annotations

import math
from typing import Any, List, Optional, Sequence, Tuple

__all__ = ["Z95", "wilson", "wilson_or_none", "ratio_ci", "Moments", "quantiles", "nice_width"]

Z95 = 1.959963984540054
"""The two-sided 95 % normal quantile."""


def wilson(successes: float, n: int, z: float = Z95) -> Tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default); (0, 1) for n = 0.

    >>> tuple(round(x, 3) for x in wilson(50, 100))
    (0.404, 0.596)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)  # exact ends, no rounding dust
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)


def wilson_or_none(successes: int, n: int) -> Optional[List[float]]:
    """:func:`wilson` as a JSON-ready list, ``None`` when ``n`` is 0 (no interval)."""
    return list(wilson(successes, n)) if n else None


def ratio_ci(
    sums: Any, scale: float = 1.0, clip: Optional[Tuple[float, float]] = None
) -> Tuple[Optional[float], Optional[List[float]]]:
    """``scale * sum(a) / sum(b)`` and its 95 % interval (the delta method over games or
    matches) from the exact sums ``[n, Sa, Sb, Saa, Sbb, Sab]``; (None, None) without two
    of them. ``clip``: bounds the interval is cut to (a share's [0, 1]).

    >>> ratio_ci([4, 6, 8, 10, 16, 12])
    (0.75, [0.75, 0.75])
    """
    n, sa, sb, saa, sbb, sab = (int(v) for v in sums)
    if n < 2 or sb <= 0:
        return None, None
    r = sa / sb
    # the variance of a_i - r b_i, in exact integers until the division
    var = (saa - 2 * r * sab + r * r * sbb - (sa - r * sb) ** 2 / n) / (n - 1)
    half = Z95 * math.sqrt(max(var, 0.0) * n) / sb
    low, high = r - half, r + half
    if clip is not None:
        low, high = max(low, clip[0]), min(high, clip[1])
    return scale * r, [scale * low, scale * high]


class Moments:
    """Exact integer count, sum and sum of squares: a mean and its 95 % interval, the
    same whatever order values are added in (chunks may arrive in any order)."""

    __slots__ = ("n", "s", "ss")

    def __init__(self) -> None:
        self.n = self.s = self.ss = 0

    def add(self, values: Any) -> None:
        import numpy as np

        v = np.asarray(values).astype(np.int64)
        self.n += int(v.size)
        self.s += int(v.sum())
        self.ss += int((v * v).sum())

    def merge(self, other: "Moments") -> None:
        self.n += other.n
        self.s += other.s
        self.ss += other.ss

    def mean_ci(self) -> Tuple[Optional[float], Optional[List[float]]]:
        """(mean, [lo, hi]) with a normal 95 % interval; (None, None) when empty."""
        if self.n == 0:
            return None, None
        mean = self.s / self.n
        var = max(self.ss / self.n - mean * mean, 0.0) * self.n / max(self.n - 1, 1)
        half = Z95 * math.sqrt(var / self.n)
        return mean, [mean - half, mean + half]


def quantiles(hist: Any, width: int, qs: Sequence[float]) -> List[Optional[int]]:
    """Quantiles from a histogram of bins [k·width, (k+1)·width): the bin's lower edge
    (exact when ``width`` is 1); ``None`` each for an empty histogram."""
    import numpy as np

    total = int(hist.sum())
    if total == 0:
        return [None for _ in qs]
    cum = np.cumsum(hist)
    out: List[Optional[int]] = []
    for q in qs:
        k = int(np.searchsorted(cum, max(1, math.ceil(q * total)), side="left"))
        out.append(k * width)
    return out


def nice_width(limit: int, bins: int = 5000) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50... that covers ``limit`` in ``bins`` bins.

    >>> nice_width(45000), nice_width(315000)
    (10, 100)
    """
    width = 1
    while limit / width > bins:
        for step in (2, 5 / 2, 2):
            width = int(width * step)
            if limit / width <= bins:
                break
    return max(1, width)
