"""Tic-tac-toe's rules on two 9-bit boards (bit ``3 * row + col`` of a seat's marks): the
fast engine the protocol adapter (game.py) and the bots play on. The reference engine
(reference.py) is written independently, square by square, as the oracle.
"""

from __future__ import annotations

from typing import Optional, Tuple

__all__ = ["CELLS", "FULL", "LINES", "REASONS", "line_of", "to_move_of", "winner_of", "cell_name"]

CELLS = 9
FULL = (1 << CELLS) - 1
LINES: Tuple[int, ...] = (
    0b000000111,  # rows (T3)
    0b000111000,
    0b111000000,
    0b001001001,  # columns
    0b010010010,
    0b100100100,
    0b100010001,  # diagonals
    0b001010100,
)
REASONS: Tuple[str, ...] = ("game_over", "occupied")
"""T2's rejection reasons, in their order of checking."""


def cell_name(cell: int) -> str:
    """``a1`` .. ``c3``: the column's letter, the row's number (row 1 on top)."""
    row, col = divmod(cell, 3)
    return f"{'abc'[col]}{row + 1}"


def line_of(marks: int) -> Optional[int]:
    """The first line (a mask of LINES) all of whose squares are in ``marks``, or None."""
    for line in LINES:
        if marks & line == line:
            return line
    return None


def to_move_of(x: int, o: int) -> int:
    """T1: X (seat 0) opens, then the seats alternate."""
    return 0 if bin(x).count("1") == bin(o).count("1") else 1


def winner_of(x: int, o: int, misere: bool) -> Tuple[bool, Optional[int]]:
    """(whether the game is over, the winning seat or None): T3 (a line; under
    ``misere`` its owner loses), T4 (a full board without one is a draw)."""
    for seat, marks in enumerate((x, o)):
        if line_of(marks) is not None:
            return True, (1 - seat) if misere else seat
    return (x | o) == FULL, None
