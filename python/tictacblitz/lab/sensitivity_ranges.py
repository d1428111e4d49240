"""The rule numbers a sensitivity analysis varies, and their ranges (issue 24, item 2).

A rule's range is ``--vary NAME=LO..HI`` when given, else its *default range*: half its
default value to one and a half times it (``set_ms`` 1600: 800..2400), integers rounded
inwards (``rounds_to_win`` 3: 2..4), a range with nothing inside widened to the default
plus and minus one (Rift's ``energy_idle_gain`` 1: 0..2), and then each end moved
towards the default until the game accepts it with every other rule at its base value
(Blitz's ``size`` 6: 3..9 becomes 4..8, the board's limits). A default of 0 has the
range 0..1. Last, rules whose limits depend on each other: while the game refuses two
rules at ends of their default ranges together (the others at base), both ends move half
way to their defaults (Blitz: ``size`` 5..8 and ``line_length`` 2..5, so that a line
always fits; ``spawn_min_ms`` 1250..3125 below ``spawn_max_ms`` 3500..6750). A
``--vary`` range is never shrunk.

Only numbers of the game's ``sweepable`` hook can be varied (as in a sweep).

>>> parse_vary("set_ms=1000..2000")
('set_ms', 1000.0, 2000.0)
"""

from __future__ import annotations

import itertools
import math
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

from .candidates import _value_at  # the one outer.inner lookup (review 24, finding 5)
from .grid import apply_point
from .hooks import GameHooks

__all__ = [
    "REAL_STEP",
    "RuleRange",
    "parse_vary",
    "default_range",
    "rule_ranges",
    "check_names",
    "accepted_by",
    "point_key",
]


REAL_STEP = 0.01
"""Design points of real-valued rules are rounded to this (and integers to integers)."""


class RuleRange(NamedTuple):
    """One varied rule number: its name, its range ``low..high`` (in its own unit), its
    value under the base rules, whether it is an integer (design points rounded), and
    whether the range is the default one (not ``--vary``)."""

    name: str
    low: float
    high: float
    base: float
    integer: bool
    default: bool = True

    def value(self, unit: float) -> float:
        """The rule's value at ``unit`` (0: low, 1: high); integers rounded half up, real
        numbers to :data:`REAL_STEP` (a game may take only short fractions: Blitz's
        speed factors)."""
        raw = self.low + unit * (self.high - self.low)
        if self.integer:
            return float(math.floor(raw + 0.5))
        return round(round(raw / REAL_STEP) * REAL_STEP, 9)

    @property
    def distinct(self) -> Optional[int]:
        """How many values an integer range holds (None for a real one)."""
        return int(self.high - self.low) + 1 if self.integer else None


def parse_vary(text: str) -> Tuple[str, float, float]:
    """``NAME=LO..HI`` → (name, lo, hi). :raises ValueError: one line naming the part."""
    name, sep, span = text.partition("=")
    name = name.strip()
    low_text, dots, high_text = span.partition("..")
    if not sep or not name or not dots:
        raise ValueError(f"--vary {text!r}: expected NAME=LO..HI, e.g. set_ms=1000..2000")
    bounds = []
    for part in (low_text, high_text):
        try:
            bound = float(part)
        except ValueError:
            raise ValueError(f"--vary {text!r}: {part.strip()!r} is not a number") from None
        if not math.isfinite(bound):
            raise ValueError(f"--vary {text!r}: {part.strip()!r} is not a finite number")
        bounds.append(bound)
    if bounds[1] <= bounds[0]:
        raise ValueError(
            f"--vary {text!r}: the range is empty ({high_text.strip()} is not above "
            f"{low_text.strip()})"
        )
    return name, bounds[0], bounds[1]


def point_key(point: Dict[str, Any]) -> Tuple[Any, ...]:
    """A rule set ``{name: value}`` as a hashable key (order-free)."""
    return tuple(sorted(point.items()))


def accepted_by(hooks: GameHooks, base: Any) -> Callable[[Dict[str, Any]], bool]:
    """Whether the game accepts ``base`` with a rule set's values (its ``check_rules``);
    each rule set is asked once."""
    cache: Dict[Tuple[Any, ...], bool] = {}

    def accepted(point: Dict[str, Any]) -> bool:
        key = point_key(point)
        if key not in cache:
            try:
                hooks.check_rules(apply_point(base, point).rules)
                cache[key] = True
            except (TypeError, ValueError):
                cache[key] = False
        return cache[key]

    return accepted


def _towards(
    name: str, end: float, default: float, integer: bool, ok: Callable[[Dict[str, Any]], bool]
) -> float:
    """The farthest value from ``default`` towards ``end`` the game accepts (bisection:
    a rule's limits are one interval around its default)."""

    def typed(v: float) -> Any:
        return int(v) if integer else v

    if ok({name: typed(end)}):
        return end
    good, bad = default, end
    for _ in range(60):
        if integer and abs(bad - good) <= 1:
            break
        mid = (good + bad) / 2
        mid = float(math.trunc(mid)) if integer else mid
        if mid == good:
            break
        if ok({name: typed(mid)}):
            good = mid
        else:
            bad = mid
    return good


def default_range(
    name: str, default: float, integer: bool, ok: Callable[[Dict[str, Any]], bool]
) -> Tuple[float, float]:
    """The default range of a rule (see the module doc)."""
    if default == 0:
        low, high = 0.0, 1.0
    else:
        low, high = sorted((default * 0.5, default * 1.5))
    if integer:
        low, high = float(math.ceil(low)), float(math.floor(high))
        if high - low < 1:
            low, high = default - 1.0, default + 1.0
    low = _towards(name, low, default, integer, ok)
    high = _towards(name, high, default, integer, ok)
    return low, high


def check_names(hooks: GameHooks, names: Sequence[str], option: str) -> None:
    """Every name a rule number the game can vary. :raises ValueError: naming it."""
    kinds = hooks.sweepable()
    known = hooks.default_game.rules.to_dict()
    for name in names:
        if name in kinds:
            continue
        outer = name.partition(".")[0]
        if outer in known:
            raise ValueError(
                f"{option} {name}: rule {name!r} of {hooks.name} is not a number "
                f"(it is {type(known[outer]).__name__}); numbers: {', '.join(sorted(kinds))}"
            )
        raise ValueError(
            f"{option} {name}: unknown rule {name!r} for {hooks.name}; "
            f"numbers: {', '.join(sorted(kinds))}"
        )


def rule_ranges(
    hooks: GameHooks,
    base: Any,
    vary: Optional[Dict[str, Tuple[float, float]]] = None,
    names: Optional[Sequence[str]] = None,
) -> List[RuleRange]:
    """The ranges of ``names`` (default: every sweepable number) under the base game
    ``base``: ``vary`` ``{name: (lo, hi)}`` where given, the default range otherwise;
    a rule named only in ``vary`` is varied too.

    :raises ValueError: for an unknown rule, one that is not a number, an empty range,
        a fractional bound of an integer rule, or a bound the game refuses (one line).
    """
    vary = dict(vary or {})
    chosen = list(names) if names is not None else list(hooks.sweepable())
    chosen += [n for n in vary if n not in chosen]
    check_names(hooks, chosen, "--vary" if names is None else "--only")
    kinds = hooks.sweepable()
    values = base.rules.to_dict()
    ok = accepted_by(hooks, base)
    ranges: List[RuleRange] = []
    for name in chosen:
        integer = kinds[name] is int
        default = float(_value_at(values, name))
        if name in vary:
            low, high = vary[name]
            if high <= low:
                raise ValueError(f"--vary {name}={low:g}..{high:g}: the range is empty")
            if integer and not (float(low).is_integer() and float(high).is_integer()):
                raise ValueError(f"--vary {name}={low:g}..{high:g}: {name} takes integers")
            for end in (low, high):
                if not ok({name: int(end) if integer else end}):
                    raise ValueError(
                        f"--vary {name}={low:g}..{high:g}: {hooks.name} refuses {name}={end:g}"
                    )
            ranges.append(RuleRange(name, float(low), float(high), default, integer, False))
            continue
        low, high = default_range(name, default, integer, ok)
        if high > low:  # a rule the game pins to its default cannot be varied
            ranges.append(RuleRange(name, low, high, default, integer))
    return _pairwise(ranges, ok)


def _typed(r: RuleRange, value: float) -> Any:
    return int(value) if r.integer else value


def _halfway(r: RuleRange, end: float) -> float:
    mid = (end + r.base) / 2
    if r.integer:  # rounded towards the default, so that the end moves
        mid = float(math.floor(mid)) if end > r.base else float(math.ceil(mid))
    return mid


def _refused_pair(
    ranges: List[RuleRange], ok: Callable[[Dict[str, Any]], bool]
) -> Optional[Tuple[int, float, int, float]]:
    """The first two rules (one at least on its default range) whose ends the game
    refuses together: (index, end, index, end); None when every pair is accepted."""
    for i, a in enumerate(ranges):
        for j in range(i + 1, len(ranges)):
            b = ranges[j]
            if not (a.default or b.default):
                continue
            for end_a, end_b in itertools.product((a.low, a.high), (b.low, b.high)):
                if not ok({a.name: _typed(a, end_a), b.name: _typed(b, end_b)}):
                    return i, end_a, j, end_b
    return None


def _pairwise(ranges: List[RuleRange], ok: Callable[[Dict[str, Any]], bool]) -> List[RuleRange]:
    """Default ranges shrunk until every two rules' ends are accepted together."""
    ranges = list(ranges)
    for _ in range(40):
        refused = _refused_pair(ranges, ok)
        if refused is None:
            break
        i, end_i, j, end_j = refused
        for k, end in ((i, end_i), (j, end_j)):
            r = ranges[k]
            if r.default:
                moved = _halfway(r, end)
                ranges[k] = r._replace(low=moved) if end == r.low else r._replace(high=moved)
    return [r for r in ranges if r.high > r.low]
