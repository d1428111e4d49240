"""The oracle: tic-tac-toe played square by square, written for clarity (no bits), to
check the engine of game.py (a replay played on both must give the same result)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from tictacblitz.games.protocol import ReplayError

from .replay import parse_replay, replay_result, result_of, summary_of

__all__ = ["play_replay"]

ROWS = [[(r, c) for c in range(3)] for r in range(3)]
COLUMNS = [[(r, c) for r in range(3)] for c in range(3)]
DIAGONALS = [[(i, i) for i in range(3)], [(i, 2 - i) for i in range(3)]]


def _has_line(board: List[List[Optional[int]]], seat: int) -> bool:
    return any(all(board[r][c] == seat for r, c in line) for line in ROWS + COLUMNS + DIAGONALS)


def play_replay(data: Any) -> Dict[str, Any]:
    """The result of a replay file (replay.py's format). :raises ReplayError:"""
    rules, moves = parse_replay(data)
    board: List[List[Optional[int]]] = [[None] * 3 for _ in range(3)]
    seat, over, winner = 0, False, None  # T1: X opens
    for i, move in enumerate(moves):
        row, col = divmod(move, 3)
        if over:
            raise ReplayError(f"replay.moves[{i}]: {move} was refused: game_over")
        if board[row][col] is not None:
            raise ReplayError(f"replay.moves[{i}]: {move} was refused: occupied")
        board[row][col] = seat
        if _has_line(board, seat):  # T3
            over, winner = True, (1 - seat if rules.misere else seat)
        elif all(square is not None for line in board for square in line):  # T4
            over = True
        seat = 1 - seat
    squares = [square for line in board for square in line]
    summary = summary_of(squares, None if over else seat, result_of(over, winner))
    return replay_result(summary, len(moves))
