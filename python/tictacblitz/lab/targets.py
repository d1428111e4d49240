"""What a designer asks of a rule search (issue 24, item 1): targets on metrics,
objectives, and the rule numbers it may vary, parsed from text and judged on intervals.

- A **target** keeps a metric inside a region: ``line_share >= 0.6``, ``match_s <= 300``,
  ``match_s in [120, 300]``, ``|seat_gap| <= 0.02`` (the metric's absolute value). ``>``
  and ``<`` read as ``>=`` and ``<=`` (a measured value sits on a bound with probability
  0). A share may be written as a percentage (``60%``).
- An **objective**: ``max METRIC``, ``min METRIC`` or ``min |METRIC|``.
- A **range** of a rule number: ``set_ms=800..2000`` (an int rule takes whole numbers).

A target is judged on a candidate's 95 % interval (:func:`judge`): **met** when the whole
interval lies inside the region, **missed** when it lies wholly outside, **unsure**
otherwise. Its **shortfall** (:func:`shortfall`) is how far a value lies outside the
region: in fractions for a share, relative to the region's largest finite bound for any
other unit, so that targets in seconds and in shares add up.

>>> t = parse_target("match_s in [120, 300]", ["match_s"])
>>> t.low, t.high, shortfall(t, 330.0, "s")
(120.0, 300.0, 0.1)
>>> judge(parse_target("|gap| <= 0.02", ["gap"]), -0.01, -0.015, 0.005)
'met'
"""

from __future__ import annotations

import math
import re
from typing import Dict, NamedTuple, Optional, Sequence, Tuple, Union

__all__ = [
    "Target",
    "Objective",
    "Vary",
    "parse_target",
    "parse_objective",
    "parse_vary",
    "judge",
    "shortfall",
    "shortfall_range",
    "seen",
    "MET",
    "MISSED",
    "UNSURE",
    "UNKNOWN",
]

MET, MISSED, UNSURE, UNKNOWN = "met", "missed", "unsure", "unknown"
SHARE = "share"  # lab/units.py's unit of a proportion

Number = Union[int, float]


class Target(NamedTuple):
    """``low <= metric <= high`` (``|metric|`` when ``absolute``); an open side is
    infinite. ``text``: as the user wrote it."""

    metric: str
    low: float
    high: float
    absolute: bool
    text: str


class Objective(NamedTuple):
    """Maximise or minimise a metric (its absolute value when ``absolute``)."""

    metric: str
    maximize: bool
    absolute: bool
    text: str


class Vary(NamedTuple):
    """A rule number a search varies, from ``low`` to ``high`` (its type's values)."""

    name: str
    low: Number
    high: Number
    type: type


def _metric(text: str, where: str, metrics: Sequence[str]) -> Tuple[str, bool]:
    """(metric name, absolute) of ``METRIC`` or ``|METRIC|``. :raises ValueError:"""
    name = text.strip()
    absolute = len(name) > 2 and name.startswith("|") and name.endswith("|")
    if absolute:
        name = name[1:-1].strip()
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", name):
        raise ValueError(f"{where}: {text.strip()!r} is not a metric name")
    if name not in metrics:
        raise ValueError(f"{where}: unknown metric {name!r}; known: {', '.join(metrics)}")
    return name, absolute


def _number(text: str, where: str) -> float:
    raw = text.strip()
    scale = 0.01 if raw.endswith("%") else 1.0
    try:
        value = float(raw.rstrip("%").strip()) * scale
    except ValueError:
        raise ValueError(f"{where}: {raw!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"{where}: {raw!r} is not a finite number")
    return value


_COMPARISON = re.compile(r"^(?P<lhs>.+?)\s*(?P<op><=|>=|<|>|\bin\b)\s*(?P<rhs>.+)$")


def parse_target(text: str, metrics: Sequence[str]) -> Target:
    """``METRIC >= V``, ``METRIC <= V``, ``METRIC in [A, B]`` (``|METRIC|`` for its
    absolute value). :raises ValueError: one line naming the bad part (a malformed
    target, an unknown metric listing the known ones, a bad number, an empty range)."""
    where = f"--target {text!r}"
    found = _COMPARISON.match(str(text).strip())
    if found is None:
        raise ValueError(
            f"{where}: expected METRIC >= V, METRIC <= V, METRIC in [A, B] or |METRIC| <= V"
        )
    name, absolute = _metric(found["lhs"], where, metrics)
    op, rhs = found["op"], found["rhs"].strip()
    if op == "in":
        inside = re.fullmatch(r"\[(.+),(.+)\]", rhs)
        if inside is None:
            raise ValueError(f"{where}: expected a range [A, B] after 'in', not {rhs!r}")
        low, high = _number(inside[1], where), _number(inside[2], where)
        if low > high:
            raise ValueError(f"{where}: the range [{low:g}, {high:g}] is empty")
    elif op in (">=", ">"):
        low, high = _number(rhs, where), math.inf
    else:
        low, high = -math.inf, _number(rhs, where)
    if absolute and high < 0:
        raise ValueError(f"{where}: an absolute value is never below {high:g}")
    return Target(name, low, high, absolute, str(text).strip())


def parse_objective(text: str, metrics: Sequence[str]) -> Objective:
    """``max METRIC``, ``min METRIC``, ``min |METRIC|`` (``maximize``/``minimize``
    too). :raises ValueError: one line naming the bad part."""
    where = f"--objective {text!r}"
    word, _, rest = str(text).strip().partition(" ")
    directions = {"max": True, "maximize": True, "min": False, "minimize": False}
    if word.lower() not in directions or not rest.strip():
        raise ValueError(f"{where}: expected 'max METRIC' or 'min METRIC'")
    name, absolute = _metric(rest, where, metrics)
    return Objective(name, directions[word.lower()], absolute, str(text).strip())


def parse_vary(
    text: str, rules: Dict[str, Tuple[type, Number]], others: Sequence[str] = ()
) -> Vary:
    """``NAME=LOW..HIGH`` over ``rules`` (``{name: (type, default)}``: the tunable rule
    numbers; ``others``: the game's rules that are not numbers). :raises ValueError: one
    line naming a rule that is not a tunable number, a bad bound, a fraction for an int
    rule, or an empty range."""
    where = f"--vary {text!r}"
    name, sep, rest = str(text).partition("=")
    name = name.strip()
    low_text, dots, high_text = rest.partition("..")
    if not sep or not name or not dots or not low_text.strip() or not high_text.strip():
        raise ValueError(f"{where}: expected NAME=LOW..HIGH, e.g. set_ms=800..2000")
    if name in others:
        raise ValueError(f"{where}: the rule {name!r} is not a number; a search varies numbers")
    if name not in rules:
        raise ValueError(
            f"{where}: {name!r} is not a rule number of this game; "
            f"the numbers: {', '.join(sorted(rules))}"
        )
    kind = rules[name][0]
    low, high = _number(low_text, where), _number(high_text, where)
    if kind is int:
        if not (low.is_integer() and high.is_integer()):
            raise ValueError(f"{where}: {name} takes whole numbers")
        low, high = int(low), int(high)
    if low >= high:
        raise ValueError(f"{where}: the range {low:g}..{high:g} is empty (LOW must be below HIGH)")
    return Vary(name, low, high, kind)


def seen(target: Union[Target, Objective], value: float) -> float:
    """The value the target or objective judges: ``|value|`` for an absolute one."""
    return abs(value) if target.absolute else value


def _seen_range(target: Target, low: float, high: float) -> Tuple[float, float]:
    if not target.absolute:
        return low, high
    if low <= 0 <= high:
        return 0.0, max(-low, high)
    return min(abs(low), abs(high)), max(abs(low), abs(high))


def judge(
    target: Target, value: Optional[float], low: Optional[float], high: Optional[float]
) -> str:
    """:data:`MET` (the whole interval inside the target), :data:`MISSED` (wholly
    outside), :data:`UNSURE` (across a bound) or :data:`UNKNOWN` (no interval)."""
    if value is None or low is None or high is None:
        return UNKNOWN
    lo, hi = _seen_range(target, low, high)
    if target.low <= lo and hi <= target.high:
        return MET
    if hi < target.low or lo > target.high:
        return MISSED
    return UNSURE


def _scale(target: Target, unit: str) -> float:
    if unit == SHARE:
        return 1.0
    bounds = [abs(b) for b in (target.low, target.high) if math.isfinite(b)]
    return max(bounds) if bounds and max(bounds) > 0 else 1.0


def _distance(target: Target, x: float) -> float:
    return max(target.low - x, 0.0, x - target.high)


def shortfall(target: Target, value: Optional[float], unit: str) -> float:
    """How far ``value`` lies outside the target (0 inside; see the module doc for its
    scale); 1.0 with no value (a missing metric counts as far off)."""
    if value is None:
        return 1.0
    return _distance(target, seen(target, value)) / _scale(target, unit)


def shortfall_range(
    target: Target, low: Optional[float], high: Optional[float], unit: str
) -> Tuple[float, float]:
    """The least and the most shortfall over the interval ``[low, high]``."""
    if low is None or high is None:
        return 1.0, 1.0
    lo, hi = _seen_range(target, low, high)
    scale = _scale(target, unit)
    least = (
        0.0
        if hi >= target.low and lo <= target.high
        else min(_distance(target, lo), _distance(target, hi))
    )
    most = max(_distance(target, lo), _distance(target, hi))
    return least / scale, most / scale
