"""The reference engine of Tic Tac Doh: the rules D1-D10 in plain Python, for clarity.

It works on absolute squares ``(row, col)`` in whatever frame its caller uses, exactly
as a player sees the table; it is the oracle the native engine is tested against
(``tests/doh``), and can run a replay file (``replay.run_replay(..., engine="reference")``).
Nothing here is fast, and nothing here is shared with the native core but the
vocabulary of :mod:`.types`.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from .encoding import decode_action
from .rules import DohRules
from .types import SEATS, SIZES, Size, counts_as, place_onto

__all__ = ["ReferenceDoh", "Square", "DIRECTIONS"]

Square = Tuple[int, int]

# D7: the 4 directions of a line of three consecutive squares.
DIRECTIONS: Tuple[Square, ...] = ((0, 1), (1, 0), (1, 1), (1, -1))


class ReferenceDoh:
    """One game of Tic Tac Doh for ``rules.players`` players (D10: 2 to 4).

    ``to_move`` is the seat whose turn it is; once the game is over it stays the last
    seat that was to move (for an end by D9, the last seat that went out). ``out`` lists
    the seats that went out (D9), in the order they went out.
    """

    def __init__(self, rules: Optional[DohRules] = None) -> None:
        self.rules = rules if rules is not None else DohRules()
        self.players: int = self.rules.players  # D10
        self.squares: Dict[Square, str] = {}
        self.stash: Dict[Size, int] = dict.fromkeys(SIZES, self.rules.pieces_per_size)
        self.to_move = 0  # D1/D10: first moves first, then the seats in order
        self.out: List[int] = []  # D9: seats out, in the order they went out
        self.over = False
        self.winner: Optional[int] = None  # a seat, or None (draw or going on)
        self.moves: List[Tuple[int, Size, Square]] = []

    # -- reading -----------------------------------------------------------------------
    @property
    def result(self) -> Optional[str]:
        """The winning seat's name (``"first"`` ...), ``"draw"`` once over, else None."""
        if not self.over:
            return None
        return "draw" if self.winner is None else SEATS[self.winner]

    def anchor(self) -> Optional[Square]:
        """The top-left corner of the occupied squares' bounding box (None if empty)."""
        if not self.squares:
            return None
        return (min(r for r, _ in self.squares), min(c for _, c in self.squares))

    def _fits(self, squares) -> bool:
        """D2: all these squares fit in a grid x grid box."""
        rows = [r for r, _ in squares]
        cols = [c for _, c in squares]
        g = self.rules.grid
        return max(rows) - min(rows) < g and max(cols) - min(cols) < g

    def _touches(self, square: Square) -> bool:
        """D3: the square touches an occupied one (8-neighbourhood)."""
        r, c = square
        return any(
            (r + dr, c + dc) in self.squares for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc
        )

    def reason(self, size: Size, square: Square) -> Optional[str]:
        """D6: why placing ``size`` on ``square`` is not allowed now (None if it is).
        The reasons are checked in D6's order; the first that applies is returned."""
        if self.over:
            return "game_over"
        if self.stash[size] == 0:
            return "none_left"
        content = self.squares.get(square)
        if content is None:  # an empty square: D3's first case
            if not self.squares:
                return None  # the first piece goes anywhere
            if not self._touches(square):
                return "not_adjacent"
            if not self._fits(list(self.squares) + [square]):
                return "outside_grid"
            return None
        if place_onto(content, size) is None:  # an occupied square: D4
            return "cannot_stack"
        return None

    def legal_moves(self) -> List[Tuple[Size, Square]]:
        """Every (size, square) the player to move may play (D3, D4), sorted."""
        if self.over:
            return []
        if not self.squares:
            candidates = {(0, 0)}
        else:
            candidates = set(self.squares)
            for r, c in self.squares:
                candidates.update((r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))
        return [
            (size, sq)
            for size in SIZES
            for sq in sorted(candidates)
            if self.reason(size, sq) is None
        ]

    def line_squares(self) -> List[Tuple[Square, Square, Square]]:
        """D7: every line of three consecutive squares that all count as one common size
        (each sorted; the list sorted and without repeats)."""
        found: set = set()
        for r, c in self.squares:
            for dr, dc in DIRECTIONS:
                line = [(r + k * dr, c + k * dc) for k in range(3)]
                common = set(SIZES)
                for sq in line:
                    common &= counts_as(self.squares.get(sq, ""))
                if common:
                    found.add(tuple(sorted(line)))
        return sorted(found)

    # -- playing -----------------------------------------------------------------------
    def play(self, size: Size, square: Square) -> Optional[str]:
        """Place ``size`` on ``square`` for the player to move: None if accepted, else
        the D6 reason (and nothing changed)."""
        size = Size(size)
        square = (int(square[0]), int(square[1]))
        why = self.reason(size, square)
        if why is not None:
            return why
        mover = self.to_move
        content = place_onto(self.squares.get(square, ""), size)
        assert content is not None  # reason() said the piece may go there (D4)
        self.squares[square] = content
        self.stash[size] -= 1
        self.moves.append((mover, size, square))
        self.to_move = self._next_in(mover)
        if self.line_squares():  # D7: the player who moved wins
            self.over, self.winner = True, mover
        elif sum(self.stash.values()) == 0:  # D8: stash empty, nobody won, a draw for all
            self.over, self.winner = True, None
        else:
            self._put_out_the_stuck()
        return None

    def _next_in(self, seat: int) -> int:
        """D10: the seat after ``seat`` in turn order, skipping seats that are out."""
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if candidate not in self.out:
                return candidate
        raise AssertionError("no seat is left in")  # D9 ends the game before that

    def _put_out_the_stuck(self) -> None:
        """D9, read literally: while the player to move has pieces but no legal move,
        that player is out and play passes to the next player still in; the last player
        left in wins. (Legality does not depend on who moves, so once one player is out
        every following one is too, down to the player who moved last.)"""
        while not self.legal_moves():
            self.out.append(self.to_move)
            still_in = [seat for seat in range(self.players) if seat not in self.out]
            if len(still_in) == 1:
                self.over, self.winner = True, still_in[0]
                return
            self.to_move = self._next_in(self.to_move)

    def apply_action(self, action: int) -> Optional[str]:
        """Play an action code of :mod:`.encoding` (anchor-relative; on an empty table
        only the window centre names a square, the others are ``not_adjacent``)."""
        size, dr, dc = decode_action(action)
        anchor = self.anchor()
        if anchor is None:
            if (dr, dc) != (0, 0):
                if self.over:
                    return "game_over"
                return "none_left" if self.stash[size] == 0 else "not_adjacent"
            return self.play(size, (0, 0))
        return self.play(size, (anchor[0] + dr, anchor[1] + dc))

    def translated_squares(self) -> Dict[str, str]:
        """The squares as the replay format writes them: ``"row,col"`` keys after a
        translation that makes the smallest row and column 0 (D2)."""
        anchor = self.anchor()
        if anchor is None:
            return {}
        r0, c0 = anchor
        return {f"{r - r0},{c - c0}": self.squares[(r, c)] for r, c in sorted(self.squares)}

    def translated_lines(self) -> List[List[List[int]]]:
        anchor = self.anchor()
        if anchor is None:
            return []
        r0, c0 = anchor
        return [[[r - r0, c - c0] for r, c in line] for line in self.line_squares()]

    def summary(self) -> dict:
        """The replay format's ``state``: squares, stash, who is to move and, with more
        than two players, the seats that are out in the order they went out (D9, D10)."""
        state = {
            "squares": self.translated_squares(),
            "stash": {size.letter: self.stash[size] for size in SIZES},
            "to_move": None if self.over else SEATS[self.to_move],
        }
        if self.players > 2:
            state["out"] = [SEATS[seat] for seat in self.out]
        return state
