"""SplitMix64, the one seeded random stream and seed mixer of the platform, in Python.

The bottom layer every game and the lab import (it imports nothing from the package):

- :class:`SplitMix64`: a game's seeded stream (Blitz's R23 draws, docs/engine.md "The
  random stream"; the Python playouts) with exactly uniform integer draws;
- :func:`mix64`: one SplitMix64 step as a hash of a 64-bit word (how the lab derives
  match seeds from a master seed), and :func:`mix64_array`, the same over a NumPy
  ``uint64`` array.

The native cores implement the same stream (``src/blitz_core/common``); the published
test vector below ties them.

>>> rng = SplitMix64(0)
>>> hex(rng.next())
'0xe220a8397b1dcdaf'
>>> hex(mix64(0))
'0xe220a8397b1dcdaf'
"""

from __future__ import annotations

from typing import Any, Sequence

__all__ = ["SplitMix64", "mix64", "mix64_array", "sum_in_order", "GOLDEN_GAMMA", "MASK64"]

MASK64 = 0xFFFFFFFFFFFFFFFF
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB


def mix64(z: int) -> int:
    """One SplitMix64 step from state ``z``: a hash of a 64-bit word (``z`` is taken
    modulo 2**64, so a negative seed is its two's complement)."""
    z = (z + GOLDEN_GAMMA) & MASK64
    z = ((z ^ (z >> 30)) * _M1) & MASK64
    z = ((z ^ (z >> 27)) * _M2) & MASK64
    return z ^ (z >> 31)


def mix64_array(z: Any) -> Any:
    """:func:`mix64` of every element of a NumPy ``uint64`` array (NumPy's uint64
    arithmetic wraps modulo 2**64, as the step needs).

    >>> import numpy as np
    >>> int(mix64_array(np.array([5], dtype=np.uint64))[0]) == mix64(5)
    True
    """
    import numpy as np

    with np.errstate(over="ignore"):
        z = z + np.uint64(GOLDEN_GAMMA)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(_M1)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(_M2)
        return z ^ (z >> np.uint64(31))


class SplitMix64:
    """A seeded stream of 64-bit words (SplitMix64), with the draws games make of it.

    Draw methods return plain ints; a game gives them its own meaning (Blitz's
    ``reference.SplitMix64`` turns :meth:`coin` into a ``Player`` and :meth:`weighted`
    into a ``PowerupKind``).
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed % 2**64

    def next(self) -> int:
        """The next 64-bit word of the stream."""
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * _M1) & MASK64
        z = ((z ^ (z >> 27)) * _M2) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Exactly uniform on ``[0, n)``: the biased low values are drawn again."""
        threshold = (2**64 - n) % n
        while True:
            r = self.next()
            if r >= threshold:
                return r % n

    def coin(self) -> int:
        """Seat 0 or 1, from the top bit of the next word (0 when it is clear)."""
        return 0 if self.next() >> 63 == 0 else 1

    def unit(self) -> float:
        """A float on ``[0, 1)`` from the top 53 bits of the next word."""
        return (self.next() >> 11) * 2.0**-53

    def weighted(self, weights: Sequence[float]) -> int:
        """The index of a weight drawn in proportion to ``weights`` (non-negative, with a
        positive sum); a zero weight is never drawn."""
        x = self.unit() * sum_in_order(weights)
        acc = 0.0
        last = -1
        for index, weight in enumerate(weights):
            if weight > 0:
                acc += weight
                last = index
                if x < acc:
                    return index
        return last


def sum_in_order(values: Sequence[float]) -> float:
    """``values`` summed left to right (as the native stream sums weights: no
    reordering, so the draws agree to the last bit)."""
    total = 0.0
    for value in values:
        total += value
    return total
