"""Tic Tac Blitz: a fast, deterministic real-time four-in-a-row engine.

>>> from tictacblitz import Match, Rules, Action, Player
>>> match = Match(Rules(powerup_max=0), seed=1)
>>> match.act(Player.X, Action.place((2, 3))) is None      # accepted
True
>>> match.advance(1600)
>>> match.board_text()[2]
'...X..'

The native cores live in the ``blitz_core`` extension package; this package is their
Python face, in layers (docs/architecture.md): :mod:`tictacblitz.games` (the Game/State
protocol, the registry, and one folder per game: ``games/blitz/`` holds Tic Tac Blitz's
vocabulary, rules, reference engine, replay format and bots), :mod:`tictacblitz.lab`
(simulate, sweep, tournament, statistics, reports, Dask), :mod:`tictacblitz.envs` (RL
adapters), :mod:`tictacblitz.server` (the game server) and :mod:`tictacblitz.cli`.
"""

from typing import Any

from .games import available_games, load_game
from .games.blitz import (
    STATE_BYTES,
    Action,
    ActionKind,
    Cell,
    Event,
    EventKind,
    Match,
    Player,
    PlayerStatus,
    PowerupKind,
    Reason,
    RoundEnd,
    RoundRecord,
    Rules,
    cell_index,
    index_cell,
)

__all__ = [
    "Action",
    "ActionKind",
    "Cell",
    "Event",
    "EventKind",
    "Match",
    "Player",
    "PlayerStatus",
    "PowerupKind",
    "Reason",
    "RoundEnd",
    "RoundRecord",
    "Rules",
    "STATE_BYTES",
    "available_games",
    "load_game",
    "simulate",
    "cell_index",
    "index_cell",
]

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name == "simulate":  # the balancing job (pyarrow is loaded on use)
        from .lab.simulation import simulate

        return simulate
    raise AttributeError(f"module 'tictacblitz' has no attribute {name!r}")
