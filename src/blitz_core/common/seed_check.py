"""The native modules' check of a seed at their boundary: an integer (a NumPy integer
too, never a bool) in ``[0, 2**64)``, the word the streams hold.

It is ``tictacblitz.games.rng.check_seed`` written again, word for word, because the
native package imports nothing from the Python package; tests/test_one_source.py ties
the two (the same values accepted, the same line for each refused one).
"""

from __future__ import annotations

import operator
from typing import Any

__all__ = ["SeedError", "check_seed"]

MASK64 = 0xFFFFFFFFFFFFFFFF


class SeedError(ValueError, TypeError):
    """A seed that is not an integer in ``[0, 2**64)`` (a ValueError, and a TypeError for
    callers that caught a non-integer seed's TypeError before)."""


def check_seed(value: Any, name: str = "seed") -> int:
    """``value`` as a seed; :raises SeedError: naming ``name`` and the value."""
    if not isinstance(value, bool):  # NumPy's bool has no __index__: refused below
        try:
            seed = operator.index(value)
        except TypeError:
            pass
        else:
            if 0 <= seed <= MASK64:
                return seed
    raise SeedError(f"{name} must be an integer in [0, 2**64), not {value!r}")
