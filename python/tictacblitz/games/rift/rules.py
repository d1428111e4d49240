"""Rift & Grid's rules configuration: every number of the rules (G10-G14, G17), validated.

A :class:`RiftRules` is immutable and the one source of rule numbers: the native core,
the reference engine, the bots and the replay files read them from here, by the names
replay files use (docs/rift.md).

>>> RiftRules().shield_cost, RiftRules(swap_cooldown=2).swap_cooldown
(2, 2)
>>> RiftRules(energy_start=11)
Traceback (most recent call last):
...
ValueError: rules.energy_start=11: must be at most energy_max (10)
>>> RiftRules.from_dict({"objective_points": {"centre": 20}}).points("centre")
20
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Dict, Iterable, Mapping, Tuple

from ..base import rules_from_dict
from .types import DEFAULT_OBJECTIVE_POINTS, OBJECTIVE_IDS, Ability

__all__ = ["RiftRules", "MAX_NUMBER", "MAX_COOLDOWN"]

MAX_NUMBER = 1_000_000
"""Bound of every point, energy and cost value: scores stay inside int32 in the core."""

MAX_COOLDOWN = 1_000
"""Bound of a cooldown in turns (a game has at most 81 turns, G16)."""

# name -> (smallest, largest) for the integer fields.
_INT_RANGE = {
    "sector_win_points": (0, MAX_NUMBER),  # G10
    "sector_tie_points": (0, MAX_NUMBER),  # G10
    "meta_line_points": (0, MAX_NUMBER),  # G11
    "objectives_per_player": (0, len(OBJECTIVE_IDS)),  # G12
    "energy_start": (0, MAX_NUMBER),  # G13
    "energy_max": (0, MAX_NUMBER),  # G13
    "energy_idle_gain": (0, MAX_NUMBER),  # G13
    "energy_sector_gain": (0, MAX_NUMBER),  # G13
    "shield_cost": (0, MAX_NUMBER),  # G14
    "shield_cooldown": (0, MAX_COOLDOWN),
    "swap_cost": (0, MAX_NUMBER),
    "swap_cooldown": (0, MAX_COOLDOWN),
    "reveal_cost": (0, MAX_NUMBER),
    "reveal_cooldown": (0, MAX_COOLDOWN),
}


@dataclass(frozen=True)
class RiftRules:
    """Every number of Rift & Grid (defaults shown), by the names of replay files.

    ``objectives`` is the catalogue the G12 deal draws from (ids of G17, in the order
    the deal uses); ``objective_points`` maps every catalogue id to its points (a
    partial mapping overrides the G17 defaults).

    :raises ValueError: for a value out of range or an unknown name, naming the field
        and the value.
    :raises TypeError: for a value of the wrong type (a bool or str where an int goes).
    """

    sector_win_points: int = 3  # G10
    sector_tie_points: int = 1  # G10
    meta_line_points: int = 5  # G11
    objectives_per_player: int = 3  # G12
    energy_start: int = 5  # G13
    energy_max: int = 10  # G13
    energy_idle_gain: int = 1  # G13
    energy_sector_gain: int = 1  # G13
    shield_cost: int = 2  # G14
    shield_cooldown: int = 3  # G14
    swap_cost: int = 2  # G14
    swap_cooldown: int = 4  # G14
    reveal_cost: int = 10  # G14
    reveal_cooldown: int = 5  # G14
    objectives: Tuple[str, ...] = OBJECTIVE_IDS  # G12, G17
    objective_points: Mapping[str, int] = field(
        default_factory=lambda: dict(DEFAULT_OBJECTIVE_POINTS)
    )  # G17

    def __post_init__(self) -> None:
        for name, (low, high) in _INT_RANGE.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"rules.{name}={value!r}: must be an integer")
            if not low <= value <= high:
                raise ValueError(f"rules.{name}={value!r}: must be from {low} to {high}")
        if self.energy_start > self.energy_max:
            raise ValueError(
                f"rules.energy_start={self.energy_start!r}: must be at most "
                f"energy_max ({self.energy_max})"
            )
        ids = self.objectives
        if isinstance(ids, str) or not isinstance(ids, (list, tuple)):
            raise TypeError(f"rules.objectives={ids!r}: must be a list of objective ids")
        for oid in ids:
            if not isinstance(oid, str):
                raise TypeError(f"rules.objectives has {oid!r}: an objective id is a string")
            if oid not in DEFAULT_OBJECTIVE_POINTS:
                raise ValueError(
                    f"rules.objectives has unknown objective {oid!r}: expected "
                    f"one of {', '.join(OBJECTIVE_IDS)}"
                )
        if len(set(ids)) != len(ids):
            raise ValueError(f"rules.objectives={list(ids)!r}: an objective is listed twice")
        if len(ids) < self.objectives_per_player:
            raise ValueError(
                f"rules.objectives={list(ids)!r}: fewer than objectives_per_player "
                f"({self.objectives_per_player}) to deal distinct ones from (G12)"
            )
        object.__setattr__(self, "objectives", tuple(ids))
        points = self.objective_points
        if not isinstance(points, Mapping):
            raise TypeError(f"rules.objective_points={points!r}: must be an object by objective id")
        for oid, value in points.items():
            if oid not in DEFAULT_OBJECTIVE_POINTS:
                raise ValueError(
                    f"rules.objective_points has unknown objective {oid!r}: "
                    f"expected one of {', '.join(OBJECTIVE_IDS)}"
                )
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"rules.objective_points.{oid}={value!r}: must be an integer")
            if not 0 <= value <= MAX_NUMBER:
                raise ValueError(
                    f"rules.objective_points.{oid}={value!r}: must be from 0 to {MAX_NUMBER}"
                )
        # Stored complete, in catalogue order, read-only (so RiftRules hashes by value).
        object.__setattr__(
            self,
            "objective_points",
            _FrozenPoints(
                {oid: points.get(oid, DEFAULT_OBJECTIVE_POINTS[oid]) for oid in OBJECTIVE_IDS}
            ),
        )

    # -- derived -------------------------------------------------------------------------

    def points(self, objective: str) -> int:
        """G17: what an objective scores."""
        return self.objective_points[objective]

    def cost(self, ability: Ability) -> int:
        """G14: the energy an ability costs (0 for none)."""
        return 0 if ability == Ability.NONE else getattr(self, f"{ability.key}_cost")

    def cooldown(self, ability: Ability) -> int:
        """G14: turns before an ability used in turn t can be used again (t + cooldown)."""
        return 0 if ability == Ability.NONE else getattr(self, f"{ability.key}_cooldown")

    def native_params(self) -> Tuple[int, ...]:
        """The numbers the native core takes, unpacked there in one place
        (``blitz_core.rift.engine``'s ``_load_rules``): the scalar fields in
        ``RULES_SCALARS`` order, then the catalogue as codes (its length first), then the
        points of every objective code. Every game's rules cross into native code as one
        flat tuple (issue 27)."""
        scalars = tuple(getattr(self, name) for name in _INT_RANGE)
        codes = tuple(OBJECTIVE_IDS.index(oid) for oid in self.objectives)
        return (
            scalars + (len(codes),) + codes + tuple(self.objective_points[o] for o in OBJECTIVE_IDS)
        )

    # -- plain data ----------------------------------------------------------------------

    def to_dict(self) -> Dict[str, Any]:
        """Every field, JSON-ready; :meth:`from_dict` inverts it."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["objectives"] = list(self.objectives)
        out["objective_points"] = dict(self.objective_points)
        return out

    def overrides(self) -> Dict[str, Any]:
        """Only what differs from the defaults (what a replay file writes); changed
        objective points are listed alone."""
        default = RiftRules().to_dict()
        out = {
            k: v for k, v in self.to_dict().items() if k != "objective_points" and v != default[k]
        }
        points = {
            k: v for k, v in self.objective_points.items() if v != DEFAULT_OBJECTIVE_POINTS[k]
        }
        if points:
            out["objective_points"] = points
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "RiftRules":
        """From a mapping of overrides. :raises ValueError: for an unknown rule name."""
        return rules_from_dict(cls, data)  # the one check of every game's rules

    @classmethod
    def from_assignments(cls, pairs: Iterable[str]) -> "RiftRules":
        """From command-line ``NAME=VALUE`` / ``NAME.KEY=VALUE`` strings, values read as
        JSON, by the command line's one parser (games/options.py)."""
        from ..options import parse_rule_assignments

        return cls.from_dict(parse_rule_assignments(pairs, cls().to_dict()))

    def replace(self, **changes: Any) -> "RiftRules":
        """A copy with some numbers changed (validated like a new one)."""
        return replace(self, **changes)


class _FrozenPoints(dict):
    """A read-only dict, so a RiftRules stays immutable and hashable by value."""

    def _readonly(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("RiftRules are immutable: use rules.replace(objective_points=...)")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _readonly  # type: ignore[assignment]

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items())))

    def __reduce__(self):
        return (_FrozenPoints, (dict(self),))


NATIVE_SCALARS: Tuple[str, ...] = tuple(_INT_RANGE)
"""The scalar fields in :meth:`RiftRules.native_params` order."""
