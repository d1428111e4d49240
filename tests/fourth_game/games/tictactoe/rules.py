"""The rules configuration of tic-tac-toe: one setting, validated.

The contract (rule ids cited by the code):

- T1: two seats, X then O, take turns placing their mark on an empty square of a 3x3
  board; X opens.
- T2: a move is refused, in this order of checking, once the game is over
  (``game_over``) or on a square that holds a mark (``occupied``); nothing changes.
- T3: three marks of one seat in a row, column or diagonal end the game: that seat
  wins, or, under the ``misere`` rule, loses (the other seat wins).
- T4: a full board without such a line is a draw.

>>> TicTacToeRules().misere
False
>>> TicTacToeRules(misere=1)
Traceback (most recent call last):
...
TypeError: rules.misere=1: must be true or false (T3)
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Dict, Mapping

__all__ = ["TicTacToeRules"]


@dataclass(frozen=True)
class TicTacToeRules:
    """Every setting of the contract (default shown).

    :param misere: T3, whether completing a line loses instead of winning.
    :raises TypeError: for a value that is not a bool (naming the field and value).
    """

    misere: bool = False  # T3

    def __post_init__(self) -> None:
        if not isinstance(self.misere, bool):
            raise TypeError(f"rules.misere={self.misere!r}: must be true or false (T3)")

    def to_dict(self) -> Dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def overrides(self) -> Dict[str, Any]:
        default = TicTacToeRules().to_dict()
        return {k: v for k, v in self.to_dict().items() if v != default[k]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "TicTacToeRules":
        """Rules from a mapping of overrides.

        :raises TypeError: if ``data`` is not a mapping or a value has the wrong type.
        :raises ValueError: for an unknown rule name.
        """
        if isinstance(data, TicTacToeRules):
            return data
        if not isinstance(data, Mapping):
            raise TypeError(f"rules must be an object, not {type(data).__name__}")
        known = [f.name for f in fields(cls)]
        for key in data:
            if key not in known:
                raise ValueError(f"unknown rule {key!r}; known rules: {', '.join(known)}")
        return cls(**dict(data))
