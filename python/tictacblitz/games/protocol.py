"""The one surface every game offers and every consumer relies on.

A *game* is a rules configuration plus the facts a consumer needs to drive it without
knowing which game it is (OpenSpiel's ``Game``); a *state* is one play-through of it
(OpenSpiel's ``State``). The lab (simulate, sweep, tournament), the RL envs, the
replay command and the server speak only these protocols and the :class:`GameType`,
never a concrete game's types: they switch on ``GameType.time_model``, never on a
game's name.

Three time models cover the family:

- ``REAL_TIME`` (Tic Tac Blitz): no turns. Either player may act at the current
  millisecond (``apply`` for one, ``apply_joint`` for both at the same ms); time moves
  only through :meth:`RealTimeState.advance`. One call acts per ms: after it (accepted
  or rejected), the masks allow only waiting until time moves, and a further action at
  that ms is an error (``ValueError``), not a rejection.
- ``SIMULTANEOUS`` (Rift & Grid): both players lock a move in, then the turn resolves;
  ``apply_joint`` takes both moves at once.
- ``ALTERNATING`` (Tic Tac Doh): exactly one player is to move; ``apply`` takes that
  player's move.

Actions are plain integers in ``range(game.num_actions)``, one encoding per game,
defined once in that game's folder. A rules-forbidden action is not an error: ``apply``
returns the rejection reason (a short snake_case string from the game's contract, e.g.
``"not_charged"`` or ``"cannot_stack"``) and changes nothing. A malformed argument (not
an int, out of range, an unknown player) raises ``ValueError``/``TypeError`` naming the
bad value, and also changes nothing.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import (
    Any,
    Dict,
    List,
    Mapping,
    Optional,
    Protocol,
    Sequence,
    Tuple,
    runtime_checkable,
)

import numpy as np

__all__ = [
    "TimeModel",
    "GameType",
    "Game",
    "State",
    "RealTimeState",
    "ReplayError",
    "Bot",
]


class TimeModel(str, enum.Enum):
    """How time passes in a game (what a driver loop must do between actions)."""

    REAL_TIME = "real_time"
    SIMULTANEOUS = "simultaneous"
    ALTERNATING = "alternating"


@dataclass(frozen=True)
class GameType:
    """Facts about a game that consumers switch on (OpenSpiel's ``GameType``).

    :param name: the registry key (``"blitz"``, ``"doh"``, ``"rift"``).
    :param long_name: the name players know.
    :param time_model: see :class:`TimeModel`.
    :param seeded: whether a state draws from a seeded random stream (chance); a game
        without chance ignores the seed.
    :param perfect_information: whether each player's observation is the whole state.
    :param zero_sum: whether ``returns()`` always sum to zero.
    :param min_num_players: the fewest seats the game is played with.
    :param max_num_players: the most seats (above the minimum where a rules option sets
        the number: ``Game.num_players`` is the number of one configuration).
    :param seat_names: what players call seats 0, 1, ... (``max_num_players`` names, in
        turn order; a configuration uses the first ``Game.num_players``).
    :param reasons: the rejection reasons of the game's contract, in its checking order
        (what ``apply`` returns; RL infos number them from 1 in this order).
    """

    name: str
    long_name: str
    time_model: TimeModel
    seeded: bool
    perfect_information: bool = True
    zero_sum: bool = True
    min_num_players: int = 2
    max_num_players: int = 2
    seat_names: Tuple[str, ...] = ("X", "O")
    reasons: Tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not 2 <= self.min_num_players <= self.max_num_players == len(self.seat_names):
            raise ValueError(
                f"{self.name}: {self.min_num_players}..{self.max_num_players} players need "
                f"that many seat names, not {self.seat_names!r}"
            )


class ReplayError(ValueError):
    """A replay or scenario file that is not valid; the message is one clear line."""


@runtime_checkable
class State(Protocol):
    """One play-through of a game. Every method below is what consumers may use."""

    @property
    def game(self) -> "Game":
        """The game (rules) this state plays."""
        ...

    def to_move(self) -> Tuple[int, ...]:
        """The seats the game waits for: one seat (alternating), the seats still to lock
        in (simultaneous: a seat that has locked in may still change its move until the
        turn resolves), or both (real time); empty once the game is over."""
        ...

    def legal_mask(self, player: int) -> np.ndarray:
        """A bool array of ``game.num_actions``: True where ``apply(player, a)`` would
        be accepted now. All False for a seat that may not act."""
        ...

    def legal_actions(self, player: int) -> List[int]:
        """The indices of ``legal_mask(player)``, ascending."""
        ...

    def apply(self, player: int, action: int) -> Optional[str]:
        """Play one seat's action now: ``None`` if accepted, else the contract's
        rejection reason (and nothing changed)."""
        ...

    def apply_joint(self, actions: Sequence[Optional[int]]) -> Tuple[Optional[str], ...]:
        """Both seats at once (``None`` for a seat that does not act); one result per
        seat as for :meth:`apply`. For an alternating game, the seat not to move must
        pass ``None``."""
        ...

    def is_over(self) -> bool:
        """Whether the game (the whole match) has ended."""
        ...

    def winner(self) -> Optional[int]:
        """The winning seat once over, ``None`` for a draw or a game still going."""
        ...

    def returns(self) -> Tuple[float, ...]:
        """Per seat (``game.num_players`` entries): +1 for the winner, -1/(N-1) for each of
        the N-1 others (so they sum to zero; -1 with two players), 0 for all in a draw or
        a game not over."""
        ...

    def clone(self) -> "State":
        """An independent copy that continues identically."""
        ...

    def to_bytes(self) -> bytes:
        """A versioned, checksummed encoding; ``game.state_from_bytes`` inverts it."""
        ...

    def observation(self, player: int) -> np.ndarray:
        """``float32`` array of ``game.observation_shape`` from ``player``'s view."""
        ...

    def drain_events(self) -> List[Dict[str, Any]]:
        """JSON-ready dicts (each with a ``"kind"``) of what happened since the last
        call, for GUIs and logs."""
        ...

    def to_replay(self) -> Dict[str, Any]:
        """The replay file of everything played so far (the game's replay format);
        ``game.replay`` plays it back to the same result."""
        ...

    def summary(self) -> Dict[str, Any]:
        """A JSON-ready summary of the state (the ``state`` of a replay result)."""
        ...


@runtime_checkable
class RealTimeState(State, Protocol):
    """A state whose clock a driver advances (``TimeModel.REAL_TIME``)."""

    @property
    def t(self) -> int:
        """The current ms of the current round."""
        ...

    def advance(self, ms: int) -> None:
        """Let ``ms`` milliseconds pass, every timed event at its exact ms."""
        ...

    def next_decision_t(self) -> Optional[int]:
        """The next ms at which something changes or a seat may act (``None`` when
        nothing is timed), so a driver can jump instead of stepping 1 ms at a time."""
        ...


@runtime_checkable
class Bot(Protocol):
    """A player program. ``make_bot(name, seed)`` of a game gives one; its choices are a
    pure function of its seed and what it has seen, so matches replay exactly."""

    name: str

    def choose(self, state: State, player: int) -> Optional[int]:
        """The action code ``player`` plays now in ``state`` (unchanged by the call), or
        ``None`` to wait (real time) / when the seat may not act.

        A real-time bot may also keep ``wake_t``: after ``choose``, the ms of the round
        at which it wants to be asked again (a reaction delay); drivers honour it."""
        ...


@runtime_checkable
class Game(Protocol):
    """A game's fixed parameters: its type, rules and encodings."""

    @property
    def type(self) -> GameType: ...

    @property
    def rules(self) -> Any:
        """The validated rules configuration (a frozen dataclass with ``to_dict``)."""
        ...

    @property
    def num_actions(self) -> int:
        """Size of the integer action encoding."""
        ...

    @property
    def observation_shape(self) -> Tuple[int, ...]: ...

    @property
    def num_players(self) -> int:
        """The seats of this configuration (``type.min_num_players`` to
        ``type.max_num_players``)."""
        ...

    @property
    def seat_names(self) -> Tuple[str, ...]:
        """The names of this configuration's seats: ``type.seat_names[:num_players]``."""
        ...

    def with_rules(self, overrides: Mapping[str, Any]) -> "Game":
        """The same game with rule numbers changed (validated: ``ValueError`` or
        ``TypeError`` names the field and value)."""
        ...

    def new_state(self, seed: int = 0, *, record: bool = False) -> State:
        """A fresh match; ``record=True`` keeps what is needed for ``to_replay``."""
        ...

    def state_from_bytes(self, data: bytes) -> State: ...

    def action_to_string(self, action: int) -> str:
        """A short human name of an action code (``"place c3"``, ``"M@1,2"``)."""
        ...

    @property
    def bot_names(self) -> Tuple[str, ...]:
        """The bots ``make_bot`` knows, weakest first where that is known."""
        ...

    def make_bot(self, name: str, seed: int = 0) -> Bot:
        """A bot by name. :raises ValueError: for an unknown name (listing the known)."""
        ...

    def replay(self, data: Any, *, engine: str = "native") -> Dict[str, Any]:
        """Play a replay/scenario file (already parsed JSON) and return the result
        object of the game's format; ``engine="reference"`` plays it on the game's
        pure-Python reference engine instead. :raises ReplayError: for an invalid file."""
        ...
