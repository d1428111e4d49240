"""The vocabulary of Tic Tac Doh: piece sizes, square contents, rejection reasons.

Codes here are the native core's codes too (``blitz_core.doh.engine`` checks them when
this package is imported), so one table describes the game on both sides.
"""

from __future__ import annotations

import enum
from typing import Dict, FrozenSet, Optional, Tuple

__all__ = [
    "Size",
    "SIZES",
    "PIECES",
    "CONTENTS",
    "CONTENT_CODE",
    "COUNTS_AS",
    "PLACE_ONTO",
    "REASONS",
    "Reason",
    "SEATS",
    "parse_size",
    "place_onto",
    "counts_as",
]


class Size(enum.IntEnum):
    """D1: the three pyramid sizes, smallest first (the code is the action block)."""

    S = 0
    M = 1
    L = 2

    @property
    def letter(self) -> str:
        return self.name


SIZES: Tuple[Size, ...] = (Size.S, Size.M, Size.L)
PIECES: Tuple[str, ...] = tuple(s.letter for s in SIZES)
"""The sizes' letters in code order: the runner's ``first_piece`` codes 0, 1, 2, the
view's stash keys (tests/test_one_source.py ties the client's ``PIECES`` to them)."""

# D4: what a square can hold, pieces listed bottom (stack) or innermost (nest) first.
# Code 0 is the empty square; codes 1..9 are the nine contents (ten in all).
CONTENTS: Tuple[str, ...] = ("", "S", "M", "L", "LM", "LMS", "MS", "SM", "SML", "ML")
CONTENT_CODE: Dict[str, int] = {text: code for code, text in enumerate(CONTENTS)}

# D5: what each content counts as for D7's lines: a single piece its size, a stack
# every size in it, a nest only its outer (largest) piece.
COUNTS_AS: Dict[str, FrozenSet[Size]] = {
    "": frozenset(),
    "S": frozenset({Size.S}),
    "M": frozenset({Size.M}),
    "L": frozenset({Size.L}),
    "LM": frozenset({Size.L, Size.M}),
    "LMS": frozenset({Size.L, Size.M, Size.S}),
    "MS": frozenset({Size.M, Size.S}),
    "SM": frozenset({Size.M}),
    "SML": frozenset({Size.L}),
    "ML": frozenset({Size.L}),
}

# D4: the content a square holds after a piece of a size goes onto it (missing: not
# allowed). Stacking puts a piece one size smaller on top of a single piece or a stack
# (L<-M, M<-S); nesting puts a piece one size larger over a single piece or a nest
# (S->M, M->L); never both on one square.
PLACE_ONTO: Dict[Tuple[str, Size], str] = {
    ("", Size.S): "S",
    ("", Size.M): "M",
    ("", Size.L): "L",
    ("L", Size.M): "LM",  # stack on a single L
    ("LM", Size.S): "LMS",  # stack on a stack
    ("M", Size.S): "MS",  # stack on a single M
    ("S", Size.M): "SM",  # nest over a single S
    ("SM", Size.L): "SML",  # nest over a nest
    ("M", Size.L): "ML",  # nest over a single M
}

# D6: the rejection reasons, in the order they are checked (the first that applies).
REASONS: Tuple[str, ...] = (
    "game_over",
    "none_left",
    "not_adjacent",
    "outside_grid",
    "cannot_stack",
)


class Reason(str, enum.Enum):
    """D6's rejection reasons as an enum, in the order they are checked (:data:`REASONS`):
    the RL envs' ``info["reason"]`` is the 1-based position (docs/rl.md)."""

    GAME_OVER = "game_over"
    NONE_LEFT = "none_left"
    NOT_ADJACENT = "not_adjacent"
    OUTSIDE_GRID = "outside_grid"
    CANNOT_STACK = "cannot_stack"


assert tuple(r.value for r in Reason) == REASONS

# D1, D10: the seats in turn order, by the names of the replay format (a game of N players
# uses the first N).
SEATS: Tuple[str, ...] = ("first", "second", "third", "fourth")


def parse_size(value: object) -> Size:
    """``"S"``/``"M"``/``"L"`` (or a Size) to a :class:`Size`.

    :raises TypeError: for a non-string; :raises ValueError: for an unknown size.
    """
    if isinstance(value, Size):
        return value
    if not isinstance(value, str):
        raise TypeError(f"a piece is 'S', 'M' or 'L', not {value!r}")
    try:
        return Size[value]
    except KeyError:
        raise ValueError(f"unknown piece {value!r}: expected 'S', 'M' or 'L'") from None


def place_onto(content: str, size: Size) -> Optional[str]:
    """D4: the square's content after ``size`` goes onto ``content``, or None."""
    return PLACE_ONTO.get((content, Size(size)))


def counts_as(content: str) -> FrozenSet[Size]:
    """D5: the sizes a square with this content counts as."""
    return COUNTS_AS[content]
