"""Tic-tac-toe in the lab: :class:`TicTacToeLab`, its
:class:`~tictacblitz.lab.adapter.LabAdapter`. The runner is the game's own
(``games/tictactoe/game.py``); every other hook is the lab's default."""

from __future__ import annotations

from typing import Any, Dict, Sequence

from tictacblitz.games.tictactoe.game import play_matches
from tictacblitz.lab.adapter import LabAdapter

__all__ = ["TicTacToeLab"]


class TicTacToeLab(LabAdapter):
    """The lab's face of tic-tac-toe (docs/simulate.md, "A game's balance hooks")."""

    def play_matches(
        self, rules: Any, seat_bots: Sequence[Any], seeds: Any, **options: Any
    ) -> Dict[str, Any]:
        return play_matches(rules, seat_bots, seeds, **options)
