"""Rift & Grid's balance hooks: what the game-agnostic lab (``tictacblitz.lab``:
simulate, sweep, tournament) needs of Rift beyond the protocol.

The runner is :func:`~.game.play_matches` (columns ``winner``, ``turns``,
``collisions``, ``greys``, ``score_x``/``score_o``, ``objectives_x``/``_o`` and the
ability uses of each seat); the lab's defaults already report the results with their
intervals and the mean of every column. This module only chooses the bots the lab
starts from: ``greedy`` by default (a random game says little about the rules), every
preset in a tournament, and the per-pair means a tournament shows.
"""

from __future__ import annotations

from typing import Dict, Tuple

from .bots import BOT_NAMES
from .game import play_matches

__all__ = ["play_matches", "DEFAULT_BOT", "TOURNAMENT_BOTS", "PAIR_MEANS"]

DEFAULT_BOT = "greedy"
TOURNAMENT_BOTS: Tuple[str, ...] = BOT_NAMES
PAIR_MEANS: Dict[str, str] = {"mean_turns": "turns", "mean_collisions": "collisions"}
"""Per-match columns a tournament reports the mean of, per pair."""
