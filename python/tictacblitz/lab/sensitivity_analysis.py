"""Morris and Sobol analyses of measured design points, with the Monte Carlo noise floor
(issue 24, item 2).

Every design point is a simulation: its metric is an estimate with a 95 % interval of
half-width ``h`` (the point's *noise*). All points play the same match seeds (common
random numbers), so most of that noise cancels in a difference between two points, but
not all of it (a rule changes which matches a seed's draws lead to).

- **Morris** (SALib ``analyze.morris``, on the unit design): an elementary effect is the
  change of the metric when one rule moves by a step of ``delta`` = p / (2 (p - 1)) of
  its range (2/3 at p = 4 levels), the others held. SALib divides it by ``delta`` (a
  slope, which extrapolates a share's change past 100 points); the lab multiplies back,
  so every figure is a change that was played: ``mu*`` is the mean absolute change over
  such a step (a bootstrap 95 % half-width ``mu*_conf``), ``mu`` its signed mean,
  ``sigma`` its spread (interactions, curvature), all in the metric's unit. The **noise
  floor** is ``sqrt(2) * h`` with ``h`` the mean half-width over the points: the 95 %
  bound of one change made of noise alone, counting the two points as independent (their
  common seeds make the true noise smaller, so the floor errs on the side of caution).
  A ``mu*`` below the floor is *not measurable*: play more matches a point.
- **Sobol** (SALib ``analyze.sobol``, Saltelli's estimators): ``S1`` the share of the
  metric's variance over the ranges due to a rule alone, ``ST`` with its interactions,
  each with a bootstrap 95 % half-width. Noise adds variance that no rule explains;
  ``noise_share`` = (h / 1.96)² / Var(metric) is that part, and an ``ST`` below it is
  not measurable.
"""

from __future__ import annotations

import math
import warnings
from typing import Any, List, NamedTuple, Optional, Sequence

import numpy as np

from .sensitivity_design import MORRIS_LEVELS, Design
from .stats import Z95

__all__ = [
    "MorrisEffect",
    "SobolIndex",
    "morris_delta",
    "morris_noise_floor",
    "analyze_morris",
    "analyze_sobol",
]


class MorrisEffect(NamedTuple):
    """A rule's Morris statistics for one metric: changes of the metric (its unit) over a
    step of 2/3 of the rule's range; ``measurable``: ``mu_star`` above the noise floor."""

    rule: str
    mu_star: float
    mu_star_conf: float
    mu: float
    sigma: float
    measurable: bool


class SobolIndex(NamedTuple):
    """A rule's first-order and total Sobol indices (shares of variance, 0..1) with their
    95 % half-widths; ``measurable``: ``st`` above the noise's share of the variance."""

    rule: str
    s1: float
    s1_conf: float
    st: float
    st_conf: float
    measurable: bool


def morris_delta(levels: int = MORRIS_LEVELS) -> float:
    """A Morris step as a fraction of the range: p / (2 (p - 1))."""
    return levels / (2.0 * (levels - 1))


def morris_noise_floor(half_widths: Sequence[float]) -> float:
    """``sqrt(2) * mean half-width`` (see the module doc)."""
    h = float(np.mean(half_widths)) if len(half_widths) else 0.0
    return math.sqrt(2.0) * h


def _finite(x: Any) -> float:
    value = float(x)
    return value if math.isfinite(value) else 0.0


def analyze_morris(
    design: Design,
    values: np.ndarray,
    half_widths: Sequence[float],
    seed: int,
    levels: int = MORRIS_LEVELS,
) -> List[MorrisEffect]:
    """Morris statistics of one metric (``values``: one a design row), largest ``mu*``
    first."""
    from SALib.analyze import morris

    result = morris.analyze(
        design.problem(),
        np.asarray(design.unit, dtype=float),
        np.asarray(values, dtype=float),
        num_levels=levels,
        conf_level=0.95,
        num_resamples=1000,
        seed=seed,
    )
    floor = morris_noise_floor(half_widths)
    step = morris_delta(levels)  # back from SALib's slope to the change over a step
    effects = [
        MorrisEffect(
            rule=str(name),
            mu_star=_finite(result["mu_star"][i]) * step,
            mu_star_conf=_finite(result["mu_star_conf"][i]) * step,
            mu=_finite(result["mu"][i]) * step,
            sigma=_finite(result["sigma"][i]) * step,
            measurable=_finite(result["mu_star"][i]) * step > floor,
        )
        for i, name in enumerate(result["names"])
    ]
    return sorted(effects, key=lambda e: -e.mu_star)


def noise_share(values: np.ndarray, half_widths: Sequence[float]) -> Optional[float]:
    """(mean half-width / 1.96)² over the metric's variance across the design, at most
    1; None when the metric does not vary at all."""
    variance = float(np.var(values))
    if variance <= 0:
        return None
    noise = float(np.mean([(h / Z95) ** 2 for h in half_widths])) if len(half_widths) else 0.0
    return min(1.0, noise / variance)


def analyze_sobol(
    design: Design, values: np.ndarray, half_widths: Sequence[float], seed: int
) -> List[SobolIndex]:
    """First-order and total Sobol indices of one metric, largest ``ST`` first; all 0
    and not measurable when the metric does not vary over the design."""
    from SALib.analyze import sobol

    share = noise_share(np.asarray(values, dtype=float), half_widths)
    if share is None:
        return [SobolIndex(r.name, 0.0, 0.0, 0.0, 0.0, False) for r in design.ranges]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SALib warns on a constant output: handled above
        result = sobol.analyze(
            design.problem(),
            np.asarray(values, dtype=float),
            calc_second_order=False,
            conf_level=0.95,
            num_resamples=1000,
            seed=seed + 1,  # SALib ignores a seed of 0 (draws unseeded)
        )
    indices = [
        SobolIndex(
            rule=str(name),
            s1=_finite(result["S1"][i]),
            s1_conf=_finite(result["S1_conf"][i]),
            st=_finite(result["ST"][i]),
            st_conf=_finite(result["ST_conf"][i]),
            measurable=share < 1 and _finite(result["ST"][i]) > share,
        )
        for i, name in enumerate(design.problem()["names"])
    ]
    return sorted(indices, key=lambda s: -s.st)
