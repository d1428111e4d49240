"""Rift & Grid's vocabulary: players, abilities, rejection reasons, the board geometry and
the objective catalogue (docs/rift.md; rule ids G1-G17).

Geometry (G1): 81 cells in 9 sectors of 9. A cell id is ``9 * sector + position``;
on the 9x9 grid, sector ``s`` position ``p`` is at row ``3*(s//3) + p//3``, column
``3*(s%3) + p%3``::

     sector 0 | sector 1 | sector 2        positions inside a sector
     ---------+----------+---------            0 1 2
     sector 3 | sector 4 | sector 5            3 4 5
     ---------+----------+---------            6 7 8
     sector 6 | sector 7 | sector 8

A set of positions of one sector is a 9-bit mask (bit ``p``); the same masks describe
sets of sectors on the 3x3 board of sectors (G11).

>>> cell_id(4, 4), grid_row_col(40), cell_at(4, 4)
(40, (4, 4), 40)
>>> Player.parse("O"), Ability.parse("shield"), Reason.COOLING_DOWN.value
(<Player.O: 1>, <Ability.SHIELD: 1>, 'cooling_down')
"""

from __future__ import annotations

import enum
from typing import Dict, Tuple

__all__ = [
    "Player",
    "Ability",
    "Reason",
    "SectorResult",
    "CELLS",
    "MAX_TURNS",
    "SECTORS",
    "LINES",
    "DIAGONAL_LINES",
    "ALL_SECTORS",
    "CORNER_SECTORS",
    "EDGE_SECTORS",
    "CENTRE",
    "OBJECTIVE_IDS",
    "DEFAULT_OBJECTIVE_POINTS",
    "cell_id",
    "sector_of",
    "position_of",
    "grid_row_col",
    "cell_at",
    "line_bits",
]

CELLS = 81
MAX_TURNS = CELLS  # G16: every turn fills at least one cell, so a game lasts <= 81 turns
SECTORS = 9
CENTRE = 4
ALL_SECTORS = 0x1FF

LINES: Tuple[Tuple[int, int, int], ...] = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),  # rows
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),  # columns
    (0, 4, 8),
    (2, 4, 6),  # diagonals
)
"""G7/G11: the 8 lines of a 3x3 board, as positions (of a sector, or sectors of the
board); the index in this tuple is the line's number (bit ``i`` of a line set)."""

DIAGONAL_LINES = 0b1100_0000
"""The line numbers of the two diagonals, as a set of lines (G17 ``diagonal_win``)."""

CORNER_SECTORS = (1 << 0) | (1 << 2) | (1 << 6) | (1 << 8)  # G17 two_corners
EDGE_SECTORS = (1 << 1) | (1 << 3) | (1 << 5) | (1 << 7)  # G17 two_edges


def line_bits(line: Tuple[int, int, int]) -> int:
    """A line as a 9-bit mask of positions."""
    return sum(1 << p for p in line)


class Player(enum.IntEnum):
    """The two seats: X is seat 0, O is seat 1 (the game's two seats)."""

    X = 0
    O = 1  # noqa: E741 - the game's own name for the seat

    @property
    def letter(self) -> str:
        return self.name

    @property
    def other(self) -> "Player":
        return Player(1 - self)

    @classmethod
    def parse(cls, value: object) -> "Player":
        """``"X"``/``"O"`` or 0/1. :raises ValueError: / :raises TypeError: naming the value."""
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            if value in ("X", "O"):
                return cls[value]
            raise ValueError(f"unknown player {value!r}: expected 'X' or 'O'")
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"a player is 'X', 'O', 0 or 1, not {value!r}")
        if value not in (0, 1):
            raise ValueError(f"unknown player {value!r}: expected 0 (X) or 1 (O)")
        return cls(value)


class Ability(enum.IntEnum):
    """G3: at most one ability per move; the value is its code in the action encoding."""

    NONE = 0
    SHIELD = 1
    SWAP = 2
    REVEAL = 3

    @property
    def key(self) -> str:
        """The name used in rules (``shield_cost``) and replay files (``"shield"``)."""
        return self.name.lower()

    @classmethod
    def parse(cls, value: object) -> "Ability":
        """``"none"``, ``"shield"``, ``"swap"``, ``"reveal"`` (or an Ability)."""
        if isinstance(value, cls):
            return value
        if not isinstance(value, str):
            raise TypeError(f"an ability is one of none, shield, swap, reveal, not {value!r}")
        for ability in cls:
            if ability.key == value:
                return ability
        raise ValueError(f"unknown ability {value!r}: expected none, shield, swap or reveal")


class Reason(str, enum.Enum):
    """G5: why a move is rejected, in checking order (the first that applies)."""

    GAME_OVER = "game_over"
    SECTOR_DECIDED = "sector_decided"
    WRONG_SECTOR = "wrong_sector"
    NOT_EMPTY = "not_empty"
    NO_ENERGY = "no_energy"
    COOLING_DOWN = "cooling_down"
    NOTHING_TO_REVEAL = "nothing_to_reveal"

    @property
    def code(self) -> int:
        """1..7 in checking order (0 is "accepted" in the native core)."""
        return list(Reason).index(self) + 1

    @classmethod
    def from_code(cls, code: int) -> "Reason":
        return list(Reason)[code - 1]


class SectorResult(str, enum.Enum):
    """G2: a sector's state, by the names of a replay result."""

    OPEN = "open"
    X = "X"
    O = "O"  # noqa: E741 - the game's own name for the seat
    TIE = "tie"


# -- the objective catalogue (G17) ---------------------------------------------------------

DEFAULT_OBJECTIVE_POINTS: Dict[str, int] = {
    "centre": 8,
    "diagonal_win": 8,
    "shield_win": 8,
    "full_energy": 8,
    "centre_cells": 9,
    "two_corners": 10,
    "two_edges": 10,
    "four_sectors": 12,
    "clean_sweep": 12,
    "swap_win": 13,
    "opposite_corners": 14,
    "meta_line": 15,
}
"""G17: every objective the engines know, in catalogue order, with its default points.
The index of an id in this order is its code in the native core."""

OBJECTIVE_IDS: Tuple[str, ...] = tuple(DEFAULT_OBJECTIVE_POINTS)


# -- cell naming (G1), defined once --------------------------------------------------------


def cell_id(sector: int, position: int) -> int:
    """G1: the id of position ``position`` (0-8) of sector ``sector`` (0-8)."""
    return 9 * sector + position


def sector_of(cell: int) -> int:
    return cell // 9


def position_of(cell: int) -> int:
    """The cell's position inside its sector; G9: also the next turn's sector."""
    return cell % 9


def grid_row_col(cell: int) -> Tuple[int, int]:
    """G1: where a cell id sits on the 9x9 grid."""
    s, p = divmod(cell, 9)
    return 3 * (s // 3) + p // 3, 3 * (s % 3) + p % 3


def cell_at(row: int, col: int) -> int:
    """G1: the cell id at grid ``(row, col)`` (the inverse of :func:`grid_row_col`)."""
    return cell_id(3 * (row // 3) + col // 3, 3 * (row % 3) + col % 3)
