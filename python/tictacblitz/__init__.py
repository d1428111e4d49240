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

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .games import available_games, load_game

if TYPE_CHECKING:  # for type checkers only: at run time __getattr__ imports them on use
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
    from .lab.simulation import simulate

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

BLITZ_NAMES = frozenset(__all__) - {"available_games", "load_game", "simulate"}
"""The README's names of Tic Tac Blitz, imported on first use (PEP 562) so that the
platform layer imports without Blitz's native build (issue 27, item 2)."""

NATIVE_PACKAGE = "blitz_core"

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name == "simulate":  # the balancing job (pyarrow is loaded on use)
        return import_module(".lab.simulation", __name__).simulate
    if name in BLITZ_NAMES:
        try:
            blitz = import_module(".games.blitz", __name__)
        except ImportError as exc:
            if not (exc.name or "").startswith(NATIVE_PACKAGE):
                raise
            raise ImportError(
                f"tictacblitz.{name} needs the native build {exc.name!r}, which is not "
                "importable: build it (pip install ., or scripts/dev_build.sh)"
            ) from None
        value = getattr(blitz, name)
        globals()[name] = value  # the next lookup finds it without this hook
        return value
    raise AttributeError(f"module 'tictacblitz' has no attribute {name!r}")
