"""The design points of a sensitivity analysis (issue 24, item 2): Morris trajectories
and Saltelli's Sobol sample, drawn by SALib on the unit cube, then mapped to rule values.

- Every rule's range is the unit interval of the design (0: its low end, 1: its high);
  a design point's rule values are ``low + u * (high - low)``, **integer rules rounded**
  half up (real ones to 0.01). The analysis reads the unrounded design (so a Morris
  step is always the planned fraction of the range); a step that rounds to the same
  integer plays the same rule set twice, and on the same seeds (common random numbers)
  its effect is exactly 0: a narrow integer range under-reads its effect, and
  :func:`coarse_rules` names them.
- A *block* is what the analysis needs whole: one Morris trajectory (``D + 1`` points),
  one Saltelli row group (``D + 2``). A block with a point the game refuses (Blitz's
  ``line_length`` above its ``size``) is dropped and redrawn from a later stream of the
  same seed; the design says how many were, so the result describes the rule sets the
  game accepts.
- Points are deduplicated: the same rule set is played once (same seeds, same result).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, NamedTuple, Sequence, Tuple

import numpy as np

from .sensitivity_ranges import RuleRange, accepted_by, point_key

__all__ = [
    "Design",
    "MORRIS_LEVELS",
    "morris_design",
    "sobol_design",
    "point_key",
    "coarse_rules",
    "MAX_REDRAWS",
    "accepted_by",
]

MORRIS_LEVELS = 4
"""Morris grid levels (p): each rule takes p values; a step is p / (2 (p - 1)) of its
range (2/3 at p = 4), the usual choice (Saltelli et al. 2004)."""

MAX_REDRAWS = 50
"""Draws of fresh blocks before giving up on ranges the game mostly refuses."""

Point = Dict[str, Any]


class Design(NamedTuple):
    """``method`` (morris or sobol), the ranges, the unrounded unit design (one row a
    point, the order SALib analyses), the played rule values of each row, and how many
    blocks were redrawn because the game refused a point."""

    method: str
    ranges: List[RuleRange]
    unit: np.ndarray
    points: List[Point]
    redrawn: int

    def problem(self) -> Dict[str, Any]:
        return unit_problem(self.ranges)

    def distinct(self) -> List[Point]:
        """The design's distinct rule sets, in first-use order (each played once)."""
        seen: Dict[Tuple[Any, ...], Point] = {}
        for p in self.points:
            seen.setdefault(point_key(p), p)
        return list(seen.values())


def unit_problem(ranges: Sequence[RuleRange]) -> Dict[str, Any]:
    return {
        "num_vars": len(ranges),
        "names": [r.name for r in ranges],
        "bounds": [[0.0, 1.0]] * len(ranges),
    }


def played_point(ranges: Sequence[RuleRange], row: np.ndarray) -> Point:
    out: Point = {}
    for r, u in zip(ranges, row, strict=True):
        value = r.value(float(u))
        out[r.name] = int(value) if r.integer else round(value, 9)
    return out


def _blocks(
    draw: Callable[[int], np.ndarray],
    size: int,
    wanted: int,
    ranges: Sequence[RuleRange],
    accepted: Callable[[Point], bool],
) -> Design:
    rows: List[np.ndarray] = []
    points: List[Point] = []
    redrawn, stream, refused = 0, 0, None
    while len(rows) < wanted:
        if stream > MAX_REDRAWS:
            refused_point: Point = refused or {}
            shown = ", ".join(f"{k}={v}" for k, v in refused_point.items())
            raise ValueError(
                f"the ranges hold too few rule sets the game accepts (e.g. it refuses "
                f"{shown}): narrow them with --vary"
            )
        unit = draw(stream)
        for b in range(len(unit) // size):
            block = unit[b * size : (b + 1) * size]
            block_points = [played_point(ranges, row) for row in block]
            bad = next((p for p in block_points if not accepted(p)), None)
            if bad is not None:
                redrawn, refused = redrawn + 1, bad
                continue
            if len(rows) < wanted:
                rows.append(block)
                points.extend(block_points)
        stream += 1
    return Design("", list(ranges), np.concatenate(rows), points, redrawn)


def morris_design(
    ranges: Sequence[RuleRange],
    trajectories: int,
    seed: int,
    accepted: Callable[[Point], bool],
    levels: int = MORRIS_LEVELS,
) -> Design:
    """``trajectories`` Morris trajectories of ``D + 1`` points over ``ranges``.

    :raises ValueError: for fewer than 2 trajectories or 1 rule (nothing to compare).
    """
    if trajectories < 2:
        raise ValueError(f"--trajectories {trajectories}: Morris needs at least 2")
    if not ranges:
        raise ValueError("no rule number to vary")
    from SALib.sample import morris

    problem = unit_problem(ranges)

    def draw(stream: int) -> np.ndarray:
        return np.asarray(
            morris.sample(problem, trajectories, num_levels=levels, seed=_seed(seed, stream))
        )

    design = _blocks(draw, len(ranges) + 1, trajectories, ranges, accepted)
    return design._replace(method="morris")


def sobol_design(
    ranges: Sequence[RuleRange], samples: int, seed: int, accepted: Callable[[Point], bool]
) -> Design:
    """Saltelli's sample (first and total order) of ``samples`` base points: ``samples *
    (D + 2)`` points. :raises ValueError: for fewer than 2 base points or no rule."""
    if samples < 2 or samples & (samples - 1):
        raise ValueError(f"--sobol-samples {samples}: must be a power of 2, at least 2")
    if not ranges:
        raise ValueError("no rule number for Sobol indices")
    from SALib.sample import sobol

    problem = unit_problem(ranges)

    def draw(stream: int) -> np.ndarray:
        # a later stream is another scrambling of the same Sobol sequence
        return np.asarray(
            sobol.sample(problem, samples, calc_second_order=False, seed=_seed(seed, stream))
        )

    design = _blocks(draw, len(ranges) + 2, samples, ranges, accepted)
    return design._replace(method="sobol")


def _seed(seed: int, stream: int) -> int:
    return (int(seed) * 1_000_003 + stream) % (1 << 32)


def coarse_rules(ranges: Sequence[RuleRange], levels: int = MORRIS_LEVELS) -> List[str]:
    """Integer rules whose range holds fewer values than the Morris levels: some steps
    play the same value twice (see the module doc)."""
    return [r.name for r in ranges if r.integer and (r.distinct or 0) < levels]
