"""What every game's protocol adapter shares, written once.

A game's ``game.py`` subclasses :class:`GameBase` (its rules held and validated,
``with_rules``, equality, ``make_game``) and :class:`StateBase` (``legal_actions`` from
the mask, ``returns`` from the winner, the event queue), and implements only what is its
own. :func:`check_seat` is the one validation of a seat argument.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, ClassVar, Iterable, Mapping, Optional, Sequence, Tuple, Type, TypeVar

import numpy as np

from .protocol import GameType

__all__ = [
    "with_rules_object",
    "GameBase",
    "StateBase",
    "check_seat",
    "check_count",
    "returns_of",
    "rules_from_dict",
    "unknown_rule",
]

G = TypeVar("G", bound="GameBase")
R = TypeVar("R")


def unknown_rule(name: str, known: Iterable[str]) -> str:
    """The one line for a rule name a game does not have, its rules listed sorted."""
    return f"unknown rule {name!r}; known rules: {', '.join(sorted(known))}"


def rules_from_dict(rules_type: Type[R], data: Mapping[str, Any]) -> R:
    """A game's rules (a dataclass) from a mapping of overrides, validated by the type:
    every game's ``from_dict`` (issue 27, item 3: written per game, one wording had
    drifted).

    :raises TypeError: if ``data`` is not a mapping (or a value has the wrong type).
    :raises ValueError: for an unknown rule name (:func:`unknown_rule`) or a bad value.
    """
    if not isinstance(data, Mapping):
        raise TypeError(f"rules must be an object, not {type(data).__name__}")
    known = [f.name for f in fields(rules_type)]  # type: ignore[arg-type]
    for key in data:
        if key not in known:
            raise ValueError(unknown_rule(key, known))
    return rules_type(**dict(data))


def check_seat(player: object, seat_names: Sequence[str] = ("X", "O")) -> int:
    """A seat argument as an index of ``seat_names`` (0 to ``len(seat_names) - 1``).

    :raises TypeError: for a value that is not an integer (``True`` included).
    :raises ValueError: for an integer out of range, naming the seats.
    """
    last = len(seat_names) - 1
    if isinstance(player, bool) or not isinstance(player, (int, np.integer)):
        raise TypeError(f"a seat is an integer from 0 to {last}, not {player!r}")
    if not 0 <= int(player) <= last:
        named = ", ".join(f"{i} ({name})" for i, name in enumerate(seat_names))
        raise ValueError(f"unknown seat {player!r}: expected {named}")
    return int(player)


def returns_of(winner: Optional[int], num_players: int = 2) -> Tuple[float, ...]:
    """Per seat: +1 for the winner, -1/(N-1) for each of the N-1 others (zero-sum; -1
    with two players), 0 for all in a draw or a game going on."""
    if winner is None:
        return (0.0,) * num_players
    loss = -1.0 / (num_players - 1)
    return tuple(1.0 if seat == winner else loss for seat in range(num_players))


class GameBase:
    """A game with one validated rules configuration (``rules_type``)."""

    type: ClassVar[GameType]
    rules_type: ClassVar[Type[Any]]

    def __init__(self, rules: Any = None) -> None:
        if rules is None:
            rules = self.rules_type()
        if not isinstance(rules, self.rules_type):
            raise TypeError(
                f"rules must be a {self.rules_type.__name__}, not {type(rules).__name__}"
            )
        self._rules = rules

    @property
    def rules(self) -> Any:
        return self._rules

    @property
    def num_players(self) -> int:
        """The seats of this configuration: the type's minimum unless a rule sets it."""
        return self.type.min_num_players

    @property
    def seat_names(self) -> Tuple[str, ...]:
        return self.type.seat_names[: self.num_players]

    def with_rules(self: G, overrides: Mapping[str, Any]) -> G:
        """The same game with rule numbers changed (validated by the rules type)."""
        return type(self)(self.rules_type.from_dict({**self._rules.overrides(), **dict(overrides)}))

    @classmethod
    def make(cls: Type[G], rules: Any = None) -> G:
        """The registry's ``make_game``: rules as None, the rules type or a mapping of
        overrides."""
        if rules is None or isinstance(rules, cls.rules_type):
            return cls(rules)
        return cls(cls.rules_type.from_dict(rules))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, GameBase)
            and type(other) is type(self)
            and bool(other._rules == self._rules)
        )

    def __hash__(self) -> int:
        return hash((self.type.name, self._rules))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._rules.overrides()})"


class StateBase:
    """The parts of a state that follow from the rest of the protocol."""

    _events: list

    def legal_mask(self, player: int) -> np.ndarray:  # pragma: no cover - each game's own
        raise NotImplementedError

    def winner(self) -> Optional[int]:  # pragma: no cover - each game's own
        raise NotImplementedError

    def legal_actions(self, player: int) -> list:
        return np.flatnonzero(self.legal_mask(player)).tolist()

    @property
    def game(self) -> Any:  # pragma: no cover - each game's own
        raise NotImplementedError

    def returns(self) -> Tuple[float, ...]:
        return returns_of(self.winner(), self.game.num_players)

    def drain_events(self) -> list:
        out, self._events = self._events, []
        return out


def check_count(value: Any, what: str, *, optional: bool = False) -> Optional[int]:
    """A positive integer option (``None`` allowed when ``optional``).

    :raises ValueError: naming the option and the bad value.
    """
    if optional and value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        kind = "a positive integer or None" if optional else "a positive integer"
        raise ValueError(f"{what} must be {kind}, not {value!r}")
    return value


def with_rules_object(game: Any, rules: Any) -> Any:
    """``game`` under ``rules``, a rules object of its own type (frozen, validated when
    made): a :class:`GameBase` takes it as it is; another game
    through ``with_rules``."""
    if rules == game.rules:
        return game
    if isinstance(game, GameBase):
        return type(game)(rules)
    return game.with_rules(rules.to_dict())
