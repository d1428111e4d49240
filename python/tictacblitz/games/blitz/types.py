"""The vocabulary of Tic Tac Blitz: players, cells, actions, reasons, events, outcomes.

This module is the bottom layer of the Python package: it imports nothing from the
rest of ``tictacblitz``, and everything else (the native engine, the pure-Python
reference, bots, the CLI) speaks in these types.  Numbers here are enum codes shared
with the native engine (``src/blitz_core/blitz/engine.pxd``); change them in both places.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple, Union

__all__ = [
    "Player",
    "Cell",
    "PowerupKind",
    "POWERUP_KEYS",
    "ActionKind",
    "Action",
    "Reason",
    "EventKind",
    "Event",
    "RoundEnd",
    "RoundRecord",
    "PlayerStatus",
    "cell_index",
    "index_cell",
    "parse_cell",
]

Cell = Tuple[int, int]
"""A cell as ``(row, col)``, rows top to bottom, columns left to right (R11)."""


class Player(enum.IntEnum):
    """A seat. ``X`` is 0 and ``O`` is 1 everywhere: arrays, planes and engine codes."""

    X = 0
    O = 1  # noqa: E741 - the game's own name for the seat

    @property
    def other(self) -> "Player":
        return Player(1 - self)

    @property
    def letter(self) -> str:
        return self.name

    @classmethod
    def parse(cls, value: Union["Player", str, int]) -> "Player":
        """``Player.X``, ``"X"``/``"x"`` or ``0`` → ``Player.X``.

        :raises TypeError: for a value that is not a player, a string or an int.
        :raises ValueError: for an unknown player name or number.
        """
        if isinstance(value, Player):
            return value
        if isinstance(value, bool):
            raise TypeError(f"player must be 'X', 'O', 0 or 1, not {value!r}")
        if isinstance(value, str):
            if value.upper() in ("X", "O"):
                return cls[value.upper()]
            raise ValueError(f"unknown player {value!r}: expected 'X' or 'O'")
        if isinstance(value, int):
            if value in (0, 1):
                return cls(value)
            raise ValueError(f"unknown player {value!r}: expected 0 (X) or 1 (O)")
        raise TypeError(f"player must be 'X', 'O', 0 or 1, not {type(value).__name__}")


class PowerupKind(enum.IntEnum):
    """R14: the four powerups, in the order weights and draws use."""

    BOMB = 0
    FREEZE = 1
    HASTE = 2
    SWAP = 3

    @property
    def letter(self) -> str:
        """The board-text letter of docs/replay-format.md: ``B F H S``."""
        return "BFHS"[self]

    @property
    def key(self) -> str:
        """The lower-case name used in rules and scenario files (``"bomb"``)."""
        return self.name.lower()

    @classmethod
    def parse(cls, value: Union["PowerupKind", str, int]) -> "PowerupKind":
        if isinstance(value, PowerupKind):
            return value
        if isinstance(value, str) and value.upper() in cls.__members__:
            return cls[value.upper()]
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
            return cls(value)
        raise ValueError(f"unknown powerup kind {value!r}: expected bomb, freeze, haste or swap")


POWERUP_KEYS: Tuple[str, ...] = tuple(k.key for k in PowerupKind)
"""R14: the powerups' keys in code order (``bomb freeze haste swap``), as the balance
metrics' names and the rules' weights spell them."""


class ActionKind(enum.IntEnum):
    PLACE = 0
    KNOCKOUT = 1


def cell_index(cell: Cell, size: int) -> int:
    """R11: cells are numbered ``row * size + col`` from the top-left."""
    return cell[0] * size + cell[1]


def index_cell(index: int, size: int) -> Cell:
    return (index // size, index % size)


def parse_cell(cell: object, size: int) -> Cell:
    """Validate a ``(row, col)`` pair (tuple or list of two ints) on a ``size`` board.

    :raises TypeError: if it is not a pair of ints.
    :raises ValueError: if it lies off the board.
    """
    if not isinstance(cell, (tuple, list)) or len(cell) != 2:
        raise TypeError(f"a cell is a (row, col) pair of ints, not {cell!r}")
    row, col = cell
    for part in (row, col):
        if isinstance(part, bool) or not isinstance(part, int):
            raise TypeError(f"a cell is a (row, col) pair of ints, not {cell!r}")
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"cell {tuple(cell)!r} is off the {size}x{size} board")
    return (int(row), int(col))


@dataclass(frozen=True)
class Action:
    """One player's action: place a mark on a cell, or knock out a setting mark."""

    kind: ActionKind
    cell: Cell

    @classmethod
    def place(cls, cell: Cell) -> "Action":
        return cls(ActionKind.PLACE, tuple(cell))  # type: ignore[arg-type]

    @classmethod
    def knockout(cls, cell: Cell) -> "Action":
        return cls(ActionKind.KNOCKOUT, tuple(cell))  # type: ignore[arg-type]

    def __str__(self) -> str:
        return f"{self.kind.name.lower()} {self.cell}"


class Reason(str, enum.Enum):
    """R7: why a well-formed action was rejected, in the order they are checked."""

    ROUND_OVER = "round_over"
    NOT_CHARGED = "not_charged"
    OCCUPIED = "occupied"
    CRATER = "crater"
    NOT_OPPONENT_MARK = "not_opponent_mark"
    ALREADY_SET = "already_set"

    def __str__(self) -> str:
        return self.value


# Engine codes of reasons (0 means accepted): the order of Reason above, plus one.
REASON_BY_CODE = (None,) + tuple(Reason)


class EventKind(enum.IntEnum):
    """Everything that happens in a match.  Each event carries its round and ms."""

    ROUND_STARTED = 0  # R21: a fresh board
    PLACED = 1  # player, cell, until = the ms the mark sets (R6)
    SET = 2  # player, cell: a setting mark became set (R8)
    KNOCKED_OUT = 3  # player = who knocked out, cell, until = crater end (R9)
    CRATER_CLEARED = 4  # cell
    RETIRED = 5  # player, cell: removed by the mark limit (R12, R13)
    POWERUP_SPAWNED = 6  # cell, powerup, until = burn-out ms (R16)
    POWERUP_CLAIMED = 7  # player, cell, powerup (R15)
    POWERUP_BURNED_OUT = 8  # cell, powerup
    BOMBED = 9  # player = owner of the removed mark, cell (R17)
    STOLEN = 10  # player = new owner, cell, until = the ms it sets (R17)
    FREEZE_STARTED = 11  # player = who is frozen, until (R18)
    FREEZE_ENDED = 12  # player
    HASTE_STARTED = 13  # player = who is hasted, until (R19)
    HASTE_ENDED = 14  # player
    ROUND_OVER = 15  # result, by, line or scores (R10, R20)
    MATCH_OVER = 16  # result (R22)
    REJECTED = 17  # player, cell, reason (R7); changes nothing


class RoundEnd(str, enum.Enum):
    """How a round ended (docs/replay-format.md ``by``)."""

    LINE = "line"
    DOUBLE_LINE = "double_line"
    TIMEOUT = "timeout"

    def __str__(self) -> str:
        return self.value


Result = Optional[Player]
"""A round or match result: the winning player, or ``None`` for a draw."""


@dataclass(frozen=True)
class Event:
    """One thing that happened at ``(round, t)``.  Fields a kind does not use are None.

    ``result`` is the winning :class:`Player` of a ROUND_OVER / MATCH_OVER event, or
    ``None`` for a draw; ``by`` says how a round ended; ``line`` is the winning window
    (R10) for ``by == LINE``; ``scores`` the ``(X, O)`` timeout scores (R20).
    """

    round: int
    t: int
    kind: EventKind
    player: Optional[Player] = None
    cell: Optional[Cell] = None
    powerup: Optional[PowerupKind] = None
    until: Optional[int] = None
    reason: Optional[Reason] = None
    result: Optional[Player] = None
    by: Optional[RoundEnd] = None
    line: Optional[Tuple[Cell, ...]] = None
    scores: Optional[Tuple[int, int]] = None

    def to_dict(self) -> Dict[str, Any]:
        """A JSON-ready dict with only the fields this kind uses (for servers, logs)."""
        out: Dict[str, Any] = {"round": self.round, "t": self.t, "kind": self.kind.name.lower()}
        if self.player is not None:
            out["player"] = self.player.letter
        if self.cell is not None:
            out["cell"] = list(self.cell)
        if self.powerup is not None:
            out["powerup"] = self.powerup.key
        if self.until is not None:
            out["until"] = self.until
        if self.reason is not None:
            out["reason"] = self.reason.value
        if self.kind in (EventKind.ROUND_OVER, EventKind.MATCH_OVER):
            out["result"] = self.result.letter if self.result is not None else "draw"
        if self.by is not None:
            out["by"] = self.by.value
        if self.line is not None:
            out["line"] = [list(c) for c in self.line]
        if self.scores is not None:
            out["scores"] = {"X": self.scores[0], "O": self.scores[1]}
        return out


@dataclass(frozen=True)
class RoundRecord:
    """A finished round, as docs/replay-format.md reports it."""

    round: int
    result: Optional[Player]
    by: RoundEnd
    end_t: int
    line: Optional[Tuple[Cell, ...]] = None
    scores: Optional[Tuple[int, int]] = None

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {
            "round": self.round,
            "result": self.result.letter if self.result is not None else "draw",
            "by": self.by.value,
            "end_t": self.end_t,
        }
        if self.line is not None:
            out["line"] = [list(c) for c in self.line]
        if self.scores is not None:
            out["scores"] = {"X": self.scores[0], "O": self.scores[1]}
        return out


@dataclass(frozen=True)
class PlayerStatus:
    """What a player's panel shows (docs/replay-format.md state, plus timers for drawing).

    ``charge_ready_t`` is the ms of this round at which the charge is full again if no new
    effect starts (scheduled ends are counted; it equals ``t`` when already full);
    ``charge_full_since`` is the ms at which a full charge became full (R5: the first ms
    whose gathered units reach the need; 0 at a round's start), or None while it fills —
    what a bot's reaction delay counts from; ``charge_progress`` is the filled fraction
    in [0, 1].
    """

    charge_full: bool
    charge_progress: float
    charge_ready_t: int
    charge_full_since: Optional[int]
    marks: int
    next_to_retire: Optional[Cell]
    frozen: bool
    hasted: bool
    frozen_until: Optional[int]
    hasted_until: Optional[int]
    round_wins: int

    def to_dict(self) -> Dict[str, Any]:
        return {
            "charge_full": self.charge_full,
            "charge_progress": self.charge_progress,
            "charge_ready_t": self.charge_ready_t,
            "charge_full_since": self.charge_full_since,
            "marks": self.marks,
            "next_to_retire": list(self.next_to_retire) if self.next_to_retire else None,
            "frozen": self.frozen,
            "hasted": self.hasted,
            "frozen_until": self.frozen_until,
            "hasted_until": self.hasted_until,
            "round_wins": self.round_wins,
        }
