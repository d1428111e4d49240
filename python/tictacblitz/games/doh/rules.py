"""The rules configuration of Tic Tac Doh: the numbers of D1, D2 and D10, validated.

>>> DohRules().pieces_per_size
5
>>> DohRules(players=5)
Traceback (most recent call last):
...
ValueError: rules.players=5: must be an integer from 2 to 4 (D10)
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Dict, Mapping, Tuple

from blitz_core.doh.engine import MAX_GRID, MAX_PIECES_PER_SIZE, MAX_PLAYERS, MIN_PLAYERS

from ..base import rules_from_dict

__all__ = [
    "DohRules",
    "MAX_PIECES_PER_SIZE",
    "MAX_PLIES",
    "MAX_GRID",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
]

MAX_PLIES = 3 * MAX_PIECES_PER_SIZE
"""D1/D8: the longest game under any rules (a full stash of the largest, from the native
engine's bound)."""

# D1's stash goes to 10 of each size (D10 asks for 1 to 10, for more players; the native
# key holds a count in 4 bits), D10's players 2 to 4, D2's grid 1 to 3 (the native
# position packs at most a 3x3 box): every limit is the core's, which checks them again
# where the rules cross into it (engine.pyx's load_rules).
_RANGES = {
    "players": (MIN_PLAYERS, MAX_PLAYERS, "D10"),
    "pieces_per_size": (1, MAX_PIECES_PER_SIZE, "D1"),
    "grid": (1, MAX_GRID, "D2"),
}


@dataclass(frozen=True)
class DohRules:
    """Every number of the Tic Tac Doh contract (defaults shown).

    :param players: D10, the number of seats (first, second, third, fourth), in turn
        order.
    :param pieces_per_size: D1, pyramids of each size in the one shared stash.
    :param grid: D2, the width of the imaginary square grid all pieces must fit in.
        Lines (D7) are always three squares, so a grid below 3 has none.
    :raises TypeError: for a value that is not an integer (naming the field).
    :raises ValueError: for a value out of range (naming the field and the value).
    """

    pieces_per_size: int = 5  # D1
    grid: int = 3  # D2
    players: int = 2  # D10

    def __post_init__(self) -> None:
        for name, (low, high, rule) in _RANGES.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"rules.{name}={value!r}: must be an integer")
            if not low <= value <= high:
                raise ValueError(
                    f"rules.{name}={value!r}: must be an integer from {low} to {high} ({rule})"
                )

    @property
    def total_pieces(self) -> int:
        """D1/D8: pieces in the full stash, the most moves a game can last."""
        return 3 * self.pieces_per_size

    def native_params(self) -> Tuple[int, ...]:
        """The numbers the native core takes, in ``blitz_core.doh.engine.RULES_PARAMS``
        order, unpacked there in one place (``load_rules``, which every native entry point
        of this game calls): every game's rules cross into native code as one flat tuple
        (issue 27)."""
        return (self.pieces_per_size, self.grid, self.players)

    def to_dict(self) -> Dict[str, Any]:
        """Every field as plain JSON-ready data; :meth:`from_dict` inverts it."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def overrides(self) -> Dict[str, Any]:
        """Only the fields that differ from the defaults (what a replay file writes)."""
        default = DohRules().to_dict()
        return {k: v for k, v in self.to_dict().items() if v != default[k]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "DohRules":
        """Rules from a mapping of overrides.

        :raises TypeError: if ``data`` is not a mapping or a value has the wrong type.
        :raises ValueError: for an unknown rule name or a value out of range.
        """
        if isinstance(data, DohRules):
            return data
        return rules_from_dict(cls, data)  # the one check of every game's rules

    def replace(self, **changes: Any) -> "DohRules":
        """A copy with some numbers changed (validated like a new one)."""
        return replace(self, **changes)
