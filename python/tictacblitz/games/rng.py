"""SplitMix64, the one seeded random stream and seed mixer of the platform, in Python.

The bottom layer every game and the lab import (it imports nothing from the package):

- :class:`SplitMix64`: a game's seeded stream (Blitz's R23 draws, docs/engine.md "The
  random stream"; the Python playouts) with exactly uniform integer draws;
- :func:`check_seed`: the one rule for a seed a caller gives (an integer in
  ``[0, 2**64)``), used wherever a seed enters the package;
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

import operator
from typing import Any, Sequence

__all__ = [
    "SplitMix64",
    "SeedError",
    "check_seed",
    "check_seeds",
    "mix64",
    "mix64_array",
    "sum_in_order",
    "GOLDEN_GAMMA",
    "MASK64",
]

MASK64 = 0xFFFFFFFFFFFFFFFF
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB


class SeedError(ValueError, TypeError):
    """A seed that is not an integer in ``[0, 2**64)``.

    A ValueError (what the command line turns into its one-line error) and, for callers
    that caught a non-integer seed's TypeError before the check was shared, a TypeError
    too (as NumPy's ``AxisError`` is both a ValueError and an IndexError).
    """


def check_seed(value: Any, name: str = "seed") -> int:
    """``value`` as a seed: an integer (a NumPy integer too, never a bool) in
    ``[0, 2**64)``, the words the native streams hold (issue 27: one rule, where a
    negative seed was refused in one place and wrapped modulo 2**64 in others). The
    native modules repeat this check at their boundary, word for word
    (tests/test_one_source.py ties them).

    >>> check_seed(7)
    7
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    tictacblitz.games.rng.SeedError: seed must be an integer in [0, 2**64), not -1

    :raises SeedError: naming ``name`` and the value.
    """
    if not isinstance(value, bool):  # NumPy's bool has no __index__: refused below
        try:
            seed = operator.index(value)
        except TypeError:
            pass
        else:
            if 0 <= seed <= MASK64:
                return seed
    raise SeedError(f"{name} must be an integer in [0, 2**64), not {value!r}")


def check_seeds(values: Any, name: str = "seeds") -> Any:
    """``values`` (a sequence or 1-D NumPy array of integers) as a ``uint64`` array, each
    checked by :func:`check_seed` (a bad one named ``name[i]``).

    >>> check_seeds([3, -4])
    Traceback (most recent call last):
    ...
    tictacblitz.games.rng.SeedError: seeds[1] must be an integer in [0, 2**64), not -4
    """
    import numpy as np

    if isinstance(values, np.ndarray):
        if values.ndim != 1 or (values.size and values.dtype.kind not in "iu"):
            raise SeedError(
                f"{name} must be a 1-D array of integers, not {values.dtype} of shape "
                f"{values.shape}"
            )
        if values.dtype.kind == "i" and (values < 0).any():
            first = int(np.flatnonzero(values < 0)[0])
            check_seed(values[first], f"{name}[{first}]")
        return values.astype(np.uint64)
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise SeedError(f"{name} must be a sequence of integers, not {values!r}")
    checked = [check_seed(value, f"{name}[{i}]") for i, value in enumerate(values)]
    return np.array(checked, dtype=np.uint64)


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
