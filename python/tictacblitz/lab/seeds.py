"""Match seeds: one function of a master seed and a match's identity, for every game.

Simulate and sweep give match ``i`` of a run with master seed ``S`` the seed
``mix(mix(S) ^ i)`` (:func:`match_seeds`); a tournament gives match ``k`` between bots
``a`` and ``b`` a seed hashed from ``S``, the bots' names and ``k``
(:func:`pair_match_seed`). ``mix`` is SplitMix64's step (:mod:`tictacblitz.games.rng`,
the one source every game and the lab share), so records depend on (rules, bots, N, S)
only, never on how the work is split.
"""

from __future__ import annotations

import numpy as np

from ..games.rng import MASK64, mix64, mix64_array

__all__ = ["match_seeds", "pair_match_seed"]


def match_seeds(seed: int, start: int, count: int) -> np.ndarray:
    """The seeds (``uint64``) of matches ``start .. start+count-1`` of a run with master
    ``seed``: ``mix(mix(seed) ^ i)``, a function of the master seed and the index only.

    >>> int(match_seeds(1, 5, 1)[0]) == mix64(mix64(1) ^ 5)
    True
    """
    base = np.uint64(mix64(seed & MASK64))
    return mix64_array(np.arange(start, start + count, dtype=np.uint64) ^ base)


def pair_match_seed(seed: int, a: str, b: str, k: int) -> int:
    """The seed of match ``k`` between bots ``a`` and ``b`` of a tournament (by their
    names, so adding a bot to the list leaves the other pairs' matches unchanged)."""
    h = mix64(seed & MASK64)
    for name in (a, b):
        for ch in name.encode():
            h = mix64(h ^ ch)
        h = mix64(h ^ 0xFF)
    return mix64(h ^ k)
