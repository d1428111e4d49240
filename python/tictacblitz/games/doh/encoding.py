"""The one integer action encoding of Tic Tac Doh (75 actions) and the observation.

A position is the same position under any translation (D2), so a move names its square
*relative to the occupied squares*: the top-left corner of their bounding box (the
smallest occupied row and the smallest occupied column) is the anchor, and the square
is ``(anchor_row + dr, anchor_col + dc)`` with ``dr, dc`` in ``-2..2``::

    action = size * 25 + (dr + 2) * 5 + (dc + 2)        size: S=0, M=1, L=2

so actions 0..24 place a small piece, 25..49 a medium one, 50..74 a large one, each
block a 5x5 window whose centre (``dr = dc = 0``, index 12 of the block) is the anchor.
Every legal move of D3 fits in the window (a new square is adjacent to the box, so
``dr, dc >= -1``, and the box stays 3 wide, so ``dr, dc <= 2``).

On an empty table there is no anchor: the first piece's square is the window centre,
and since every first square is the same position (D2) the other 24 squares of the
window name nothing and are rejected as ``not_adjacent`` (there is no piece to be
adjacent to). Action masks therefore hold 3 legal first moves, not 75.
"""

from __future__ import annotations

from typing import Optional, Tuple

import numpy as np

from .types import Size

__all__ = [
    "NUM_ACTIONS",
    "WINDOW",
    "OFFSET",
    "CENTRE",
    "encode_action",
    "decode_action",
    "check_action",
    "action_square",
    "action_to_string",
    "OBSERVATION_SHAPE",
]

WINDOW = 5
"""The window's width: squares ``anchor + (-2..2)`` in each direction."""
OFFSET = 2
"""``dr + OFFSET`` is the window row of a square (0..4)."""
CELLS = WINDOW * WINDOW
NUM_ACTIONS = 3 * CELLS
CENTRE = OFFSET * WINDOW + OFFSET
"""The window index of the anchor itself (12)."""

OBSERVATION_SHAPE: Tuple[int, ...] = (15, 3, 3)
"""Planes over the 3x3 box anchored at the top-left occupied square (D2): 10 one-hot
planes of the square's content (D4, plane 0 = empty), 3 planes of what it counts as
(D5: S, M, L), 1 plane of the stash left (per size fraction, in the rows 0..2 of column
0), 1 plane constant 1 if the observing seat is to move."""


def check_action(action: object) -> int:
    """The action as a plain int.

    :raises TypeError: for a non-integer (bools included); :raises ValueError: out of range.
    """
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"an action is an integer in 0..{NUM_ACTIONS - 1}, not {action!r}")
    value = int(action)
    if not 0 <= value < NUM_ACTIONS:
        raise ValueError(f"action {value} is out of range 0..{NUM_ACTIONS - 1}")
    return value


def encode_action(size: Size, dr: int, dc: int) -> int:
    """The code of placing ``size`` at ``anchor + (dr, dc)``.

    :raises ValueError: if the offset is outside the window (``-2..2``).
    """
    if not (-OFFSET <= dr <= OFFSET and -OFFSET <= dc <= OFFSET):
        raise ValueError(f"offset ({dr}, {dc}) is outside the action window -2..2")
    return int(Size(size)) * CELLS + (dr + OFFSET) * WINDOW + (dc + OFFSET)


def decode_action(action: object) -> Tuple[Size, int, int]:
    """``(size, dr, dc)`` of an action code (validated by :func:`check_action`)."""
    value = check_action(action)
    size, cell = divmod(value, CELLS)
    row, col = divmod(cell, WINDOW)
    return Size(size), row - OFFSET, col - OFFSET


def action_square(action: object, anchor: Optional[Tuple[int, int]]) -> Optional[Tuple[int, int]]:
    """The square an action names given the anchor (None on an empty table, where only
    the centre names a square: ``(0, 0)``); None when it names no square."""
    _, dr, dc = decode_action(action)
    if anchor is None:
        return (0, 0) if dr == dc == 0 else None
    return (anchor[0] + dr, anchor[1] + dc)


def action_to_string(action: object) -> str:
    """``"M@+1,-1"``: the size and the offset from the anchor."""
    size, dr, dc = decode_action(action)
    return f"{size.letter}@{dr:+d},{dc:+d}"
