"""Tic-tac-toe's bots: ``random`` and ``greedy`` (weakest first), seeded and deterministic.

A bot's choice is a pure function of its seed and the position (``mix64`` of both picks
among equals), so a match replays exactly and a bot needs no memory.
"""

from __future__ import annotations

from typing import Any, List, Optional

from tictacblitz.games.rng import check_seed, mix64

from .engine import CELLS, FULL, winner_of

__all__ = ["BOT_NAMES", "TicTacToeBot", "make_bot"]

BOT_NAMES = ("random", "greedy")


class TicTacToeBot:
    """``random``: any free square. ``greedy``: a square that wins now (T3), else any
    after which the other seat cannot win at once (else any free square)."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self.seed = check_seed(seed)

    def choose(self, state: Any, player: int) -> Optional[int]:
        if player not in state.to_move():
            return None
        x, o = state.marks
        misere = state.game.rules.misere
        free = [cell for cell in range(CELLS) if (FULL & ~(x | o)) >> cell & 1]
        if self.name == "greedy":
            free = self._greedy(free, x, o, player, misere)
        return free[mix64(self.seed ^ (x << CELLS | o)) % len(free)]

    @staticmethod
    def _greedy(free: List[int], x: int, o: int, seat: int, misere: bool) -> List[int]:
        def after(marks: List[int], cell: int, mover: int) -> List[int]:
            out = list(marks)
            out[mover] |= 1 << cell
            return out

        for cell in free:
            if winner_of(*after([x, o], cell, seat), misere) == (True, seat):
                return [cell]
        safe = []
        for cell in free:
            marks = after([x, o], cell, seat)
            rest = [c for c in free if c != cell]
            if not any(winner_of(*after(marks, c, 1 - seat), misere)[1] == 1 - seat for c in rest):
                safe.append(cell)
        return safe or free


def make_bot(name: str, seed: int = 0) -> TicTacToeBot:
    """A bot by name. :raises ValueError: for an unknown name (listing the known)."""
    if name not in BOT_NAMES:
        raise ValueError(f"unknown bot {name!r}: expected one of {', '.join(BOT_NAMES)}")
    return TicTacToeBot(name, seed)
