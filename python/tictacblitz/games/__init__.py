"""The games of the platform, one folder each, and the protocol they all speak.

- :mod:`tictacblitz.games.protocol`: ``Game``, ``State``, ``GameType``, ``TimeModel``;
- :mod:`tictacblitz.games.registry`: ``load_game(name)``, ``available_games()``;
- ``blitz/``, ``doh/``, ``rift/``: each game's rules, vocabulary, reference engine,
  replay format, bots and its adapter to the protocol (``game.py``).
"""

from .protocol import Game, GameType, RealTimeState, ReplayError, State, TimeModel
from .registry import DEFAULT_GAME, available_games, game_type, load_game

__all__ = [
    "Game",
    "GameType",
    "RealTimeState",
    "ReplayError",
    "State",
    "TimeModel",
    "DEFAULT_GAME",
    "available_games",
    "game_type",
    "load_game",
]
