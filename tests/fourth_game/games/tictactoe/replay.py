"""Tic-tac-toe's replay format, and a replay's result.

A replay file is a JSON object: ``{"game": "tictactoe", "rules": {...}, "moves": [4, 0,
...]}``, the squares played in turn (``3 * row + col``, X first: T1); ``rules`` (the
overrides of rules.py) is optional. Its result is ``{"game", "result", "plies",
"state"}``: ``result`` is ``"X"``, ``"O"``, ``"draw"`` or None (not over), ``state``
the state's summary. A file that is not of this form, or a move the rules refuse, is a
:class:`~tictacblitz.games.protocol.ReplayError` of one line.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from tictacblitz.games.protocol import ReplayError

from .engine import CELLS
from .rules import TicTacToeRules

__all__ = ["NAME", "SEATS", "parse_replay", "result_of", "summary_of"]

NAME = "tictactoe"
SEATS = ("X", "O")


def parse_replay(data: Any) -> Tuple[TicTacToeRules, List[int]]:
    """The rules and the moves of a replay file. :raises ReplayError: one line."""
    if not isinstance(data, dict):
        raise ReplayError(f"a replay is a JSON object, not {type(data).__name__}")
    if data.get("game", NAME) != NAME:
        raise ReplayError(f"replay.game: {data['game']!r} is not {NAME!r}")
    try:
        rules = TicTacToeRules.from_dict(data.get("rules", {}))
    except (TypeError, ValueError) as exc:
        raise ReplayError(f"replay.rules: {exc}") from None
    moves = data.get("moves")
    if not isinstance(moves, list):
        raise ReplayError(f"replay.moves must be a list of squares, not {moves!r}")
    for i, move in enumerate(moves):
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < CELLS:
            raise ReplayError(f"replay.moves[{i}]: {move!r} is no square (0 to {CELLS - 1})")
    return rules, moves


def summary_of(board: Sequence[Optional[int]], to_move: Optional[int], result: Any) -> dict:
    """A state's summary from its squares (the seat holding each, or None)."""
    marks = ["." if seat is None else SEATS[seat] for seat in board]
    return {
        "board": ["".join(marks[row * 3 : row * 3 + 3]) for row in range(3)],
        "to_move": None if to_move is None else SEATS[to_move],
        "result": result,
    }


def result_of(over: bool, winner: Optional[int]) -> Optional[str]:
    """``"X"``/``"O"`` for the winner, ``"draw"``, or None for a game going on."""
    if not over:
        return None
    return "draw" if winner is None else SEATS[winner]


def replay_result(summary: Dict[str, Any], plies: int) -> Dict[str, Any]:
    return {"game": NAME, "result": summary["result"], "plies": plies, "state": summary}
