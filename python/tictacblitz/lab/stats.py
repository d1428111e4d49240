"""Small statistics and seeding helpers shared by the tournament and the simulations.

One source for the 95 % Wilson interval and for deriving match seeds from a master seed
(SplitMix64's step, docs/engine.md), so tournament and simulate cannot drift apart.
"""

from __future__ import annotations

import math
from typing import Tuple

__all__ = ["Z95", "mix64", "wilson"]

Z95 = 1.959963984540054
"""The two-sided 95 % normal quantile."""

_MASK = 0xFFFFFFFFFFFFFFFF


def mix64(z: int) -> int:
    """One SplitMix64 step from state ``z`` (docs/engine.md): a hash of a 64-bit word.

    >>> hex(mix64(0))
    '0xe220a8397b1dcdaf'
    """
    z = (z + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


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
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)   # exact ends, no rounding dust
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)
