"""Small statistics shared by the tournament, the simulations and the games' balance
hooks: the 95 % Wilson interval, exact moments with a normal interval of the mean, and
quantiles from histograms.

The counting part (Wilson, moments, quantiles) is the platform's
:mod:`tictacblitz.games.stats`, which the games' lab adapters import; this module
re-exports it beside the tests and corrections of the lab's tables. Seed mixing is
SplitMix64's step, :func:`tictacblitz.games.rng.mix64` (re-exported here), one source
for every game and the lab.
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..games.rng import mix64
from ..games.stats import Z95, Moments, nice_width, quantiles, wilson, wilson_or_none

__all__ = [
    "Z95",
    "mix64",
    "wilson",
    "wilson_or_none",
    "Moments",
    "quantiles",
    "nice_width",
    "normal_p",
    "holm",
    "benjamini_hochberg",
    "ADJUSTMENT",
    "ALPHA",
    "adjust",
    "newcombe_paired",
    "newcombe_hybrid",
]

ALPHA = 0.05
"""The level every table tests at (its intervals are 95 %)."""
ADJUSTMENT = "Holm"
"""The multiple-testing correction of every table that tests many effects at once
(issue 22, item 4): Holm's step-down method, which holds the family-wise error rate (the
chance of even one false star in the table) at :data:`ALPHA` whatever the tests'
dependence."""


def normal_p(estimate: Optional[float], se: Optional[float]) -> Optional[float]:
    """The two-sided p-value of ``estimate`` against 0 with standard error ``se``
    (normal); 1 for a zero estimate with no spread, 0 for a non-zero one; ``None``
    without an estimate.

    >>> round(normal_p(1.959963984540054, 1.0), 6)
    0.05
    """
    if estimate is None or se is None:
        return None
    if se <= 0:
        return 1.0 if estimate == 0 else 0.0
    return math.erfc(abs(estimate) / se / math.sqrt(2.0))


def holm(pvalues: Sequence[Optional[float]]) -> List[Optional[float]]:
    """Holm's step-down adjusted p-values (same order; ``None`` stays ``None`` and is
    not counted): the k-th smallest of m is multiplied by m - k + 1, then made
    non-decreasing. An effect is significant at level a after Holm when its adjusted
    p-value is <= a.

    >>> holm([0.01, 0.04, 0.03, 0.005])
    [0.03, 0.06, 0.06, 0.02]
    """
    known = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    m = len(known)
    out: List[Optional[float]] = [None] * len(pvalues)
    running = 0.0
    for k, (p, i) in enumerate(known):
        running = max(running, min(1.0, (m - k) * p))
        out[i] = round(running, 12)
    return out


def benjamini_hochberg(pvalues: Sequence[Optional[float]]) -> List[Optional[float]]:
    """Benjamini-Hochberg adjusted p-values (the false discovery rate; same order,
    ``None`` kept): the k-th smallest of m times m / k, then made non-decreasing from
    the largest down.

    >>> benjamini_hochberg([0.01, 0.04, 0.03, 0.005])
    [0.02, 0.04, 0.04, 0.02]
    """
    known = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    m = len(known)
    out: List[Optional[float]] = [None] * len(pvalues)
    running = 1.0
    for k in range(m - 1, -1, -1):
        p, i = known[k]
        running = min(running, p * m / (k + 1))
        out[i] = round(running, 12)
    return out


def adjust(rows: List[Dict[str, Any]]) -> Dict[str, Any]:
    """Mark the effects ``rows`` (each with its raw ``p``) as one family of tests: each
    gains ``p_adjusted`` and ``significant_adjusted`` (Holm, at 5 %); returns the
    family's description (method, tests, level) for the table's footer. The raw
    intervals and ``significant`` stay (issue 22, item 4)."""
    adjusted = holm([r.get("p") for r in rows])
    for r, q in zip(rows, adjusted, strict=True):
        r["p_adjusted"] = q
        r["significant_adjusted"] = bool(q is not None and q <= ALPHA)
    return {"method": ADJUSTMENT, "tests": sum(q is not None for q in adjusted), "alpha": ALPHA}


def _newcombe(x_a: int, n_a: int, x_b: int, n_b: int, phi: float, z: float) -> Tuple[float, float]:
    """Newcombe's combination of the two sides' Wilson intervals into one for
    ``x_a/n_a - x_b/n_b``, given the correlation ``phi`` of the sides (0: independent)."""
    if n_a <= 0 or n_b <= 0:
        return (-1.0, 1.0)
    p_a, p_b = x_a / n_a, x_b / n_b
    l_a, u_a = wilson(x_a, n_a, z)
    l_b, u_b = wilson(x_b, n_b, z)
    below = (p_a - l_a) ** 2 - 2 * phi * (p_a - l_a) * (u_b - p_b) + (u_b - p_b) ** 2
    above = (u_a - p_a) ** 2 - 2 * phi * (u_a - p_a) * (p_b - l_b) + (p_b - l_b) ** 2
    theta = p_a - p_b
    return (
        max(-1.0, theta - math.sqrt(max(below, 0.0))),
        min(1.0, theta + math.sqrt(max(above, 0.0))),
    )


def newcombe_hybrid(x_a: int, n_a: int, x_b: int, n_b: int, z: float = Z95) -> Tuple[float, float]:
    """Newcombe's hybrid score interval (1998, method 10) of ``x_a/n_a - x_b/n_b`` for two
    independent proportions, from their Wilson intervals: unlike the normal interval it
    does not collapse when a side is at 0 % or 100 % (issue 22, item 5).

    >>> tuple(round(v, 4) for v in newcombe_hybrid(100, 100, 100, 100))
    (-0.037, 0.037)
    """
    return _newcombe(x_a, n_a, x_b, n_b, 0.0, z)


def newcombe_paired(
    both: int, only_a: int, only_b: int, neither: int, z: float = Z95
) -> Tuple[float, float]:
    """Newcombe's score interval for paired proportions (1998, method 10) of ``p_a -
    p_b`` from the 2x2 counts of pairs (both sides a success, only A, only B, neither):
    the sides' Wilson intervals combined with the pairs' correlation phi (taken as 0
    where it is undefined, e.g. when both sides always succeed).

    >>> tuple(round(v, 4) for v in newcombe_paired(1000, 0, 0, 0))
    (-0.0038, 0.0038)
    """
    n = both + only_a + only_b + neither
    den = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    phi = (both * neither - only_a * only_b) / math.sqrt(den) if den > 0 else 0.0
    return _newcombe(both + only_a, n, both + only_b, n, phi, z)
