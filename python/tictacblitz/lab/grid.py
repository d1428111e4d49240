"""The points of a rule sweep: which rule numbers a game lets a sweep vary, the
``--grid`` specs, the grid or random points, and a game with a point's numbers.

A sweepable name is a number of the game's rules (``set_ms``) or a number inside one
(``powerup_weights.bomb``): from the game's ``sweepable`` hook, else every number of
``rules.to_dict()``.
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Tuple, Union

from ..games.protocol import Game
from ..games.registry import DEFAULT_GAME
from .hooks import hooks_for

__all__ = ["sweepable", "parse_grid", "make_points", "apply_point", "MAX_POINTS"]

MAX_POINTS = 10_000


def sweepable(game: str = DEFAULT_GAME) -> Dict[str, type]:
    """The names a sweep of ``game`` can vary and their types (int or float)."""
    return hooks_for(game).sweepable()


def _number(text: str, name: str) -> Union[int, float]:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"--grid {name}: {text!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"--grid {name}: {text!r} is not a finite number")
    return (
        int(value) if value.is_integer() and "." not in text and "e" not in text.lower() else value
    )


def parse_grid(spec: str, game: str = DEFAULT_GAME) -> Tuple[str, Dict[str, Any]]:
    """``NAME=START:STOP:STEP`` (STOP included), ``NAME=START:STOP`` (a range, for random
    sweeps) or ``NAME=V1,V2,...`` → (name, {"values": [...]} or {"range": (lo, hi)}).

    >>> parse_grid("set_ms=1200:2000:200")
    ('set_ms', {'values': [1200, 1400, 1600, 1800, 2000]})
    >>> parse_grid("freeze_factor=1.5,2.5")
    ('freeze_factor', {'values': [1.5, 2.5]})

    :raises ValueError: for a malformed spec or a name ``game`` cannot sweep.
    """
    name, sep, text = spec.partition("=")
    name = name.strip()
    if not sep or not name or not text.strip():
        raise ValueError(f"--grid {spec!r}: expected NAME=START:STOP:STEP or NAME=V1,V2,...")
    kinds = sweepable(game)
    if name not in kinds:
        raise ValueError(
            f"--grid {spec!r}: unknown rule {name!r}; sweepable: {', '.join(sorted(kinds))}"
        )
    integer = kinds[name] is int
    if ":" in text:
        parts = [p.strip() for p in text.split(":")]
        if len(parts) not in (2, 3):
            raise ValueError(f"--grid {spec!r}: expected START:STOP:STEP or START:STOP")
        nums = [_number(p, name) for p in parts]
        if integer and not all(isinstance(v, int) for v in nums):
            raise ValueError(f"--grid {spec!r}: {name} takes integers")
        lo, hi = nums[0], nums[1]
        if hi < lo:
            raise ValueError(f"--grid {spec!r}: STOP is below START")
        if len(nums) == 2:
            return name, {"range": (lo, hi)}
        step = nums[2]
        if step <= 0:
            raise ValueError(f"--grid {spec!r}: STEP must be > 0")
        count = int(math.floor((hi - lo) / step + 1e-9)) + 1
        if count > MAX_POINTS:
            raise ValueError(f"--grid {spec!r}: {count} values; at most {MAX_POINTS}")
        values = [lo + i * step for i in range(count)]
        if not integer:
            values = [round(float(v), 12) for v in values]
        return name, {"values": values}
    values = [_number(p.strip(), name) for p in text.split(",") if p.strip()]
    if not values:
        raise ValueError(f"--grid {spec!r}: no values")
    if integer and not all(isinstance(v, int) for v in values):
        raise ValueError(f"--grid {spec!r}: {name} takes integers")
    if len(set(values)) != len(values):
        raise ValueError(f"--grid {spec!r}: a value is given twice")
    return name, {"values": values}


def apply_point(base: Game, point: Dict[str, Any]) -> Game:
    """``base`` with the point's numbers (``outer.inner`` names change one entry of a
    nested rule), validated by the game. :raises ValueError: naming the point."""
    changes: Dict[str, Any] = {}
    current = base.rules.to_dict()
    for name, value in point.items():
        outer, dot, inner = name.partition(".")
        if dot:
            nested = changes.setdefault(outer, dict(current[outer]))
            nested[inner] = value
        else:
            changes[name] = value
    try:
        return base.with_rules(changes)
    except (TypeError, ValueError) as exc:
        shown = ", ".join(f"{k}={v}" for k, v in point.items())
        raise ValueError(f"sweep point {shown}: {exc}") from None


def make_points(
    axes: Dict[str, Dict[str, Any]], random: Optional[int], seed: int, game: str = DEFAULT_GAME
) -> Tuple[List[Dict[str, Any]], str]:
    """The points of a sweep: the full grid, or ``random`` points drawn uniformly (ranges
    integer or real as the rule is; value lists picked from), seeded by ``seed``."""
    import numpy as np

    names = list(axes)
    if random is None:
        for name, axis in axes.items():
            if "values" not in axis:
                raise ValueError(
                    f"--grid {name}: a range START:STOP needs --random K (or give a STEP)"
                )
        points: List[Dict[str, Any]] = [{}]
        for name in names:
            points = [dict(p, **{name: v}) for p in points for v in axes[name]["values"]]
            if len(points) > MAX_POINTS:
                raise ValueError(f"the grid has more than {MAX_POINTS} points")
        return points, "grid"
    if random < 1 or random > MAX_POINTS:
        raise ValueError(f"--random must be from 1 to {MAX_POINTS}, not {random}")
    rng = np.random.default_rng([seed & 0xFFFFFFFFFFFFFFFF, 0x5EEB])
    kinds = sweepable(game)
    points = []
    for _ in range(random):
        point = {}
        for name in names:
            axis = axes[name]
            if "values" in axis:
                point[name] = axis["values"][int(rng.integers(len(axis["values"])))]
            elif kinds[name] is int:
                point[name] = int(rng.integers(axis["range"][0], axis["range"][1] + 1))
            else:
                point[name] = round(float(rng.uniform(*axis["range"])), 2)  # short fractions
        points.append(point)
    return points, "random sweep"
