"""Tic Tac Blitz: a fast, deterministic real-time four-in-a-row engine.

>>> from tictacblitz import Match, Rules, Action, Player
>>> match = Match(Rules(powerup_max=0), seed=1)
>>> match.act(Player.X, Action.place((2, 3))) is None      # accepted
True
>>> match.advance(1600)
>>> match.board_text()[2]
'...X..'

The native engine lives in the ``blitz_core`` extension package; this package is its
Python face: the vocabulary (:mod:`tictacblitz.types`), the rules configuration
(:mod:`tictacblitz.rules`), the pure-Python reference model
(:mod:`tictacblitz.reference`), scenarios and replays (:mod:`tictacblitz.scenario`),
bots (:mod:`tictacblitz.bots`), mass simulation (:func:`tictacblitz.simulate`,
:mod:`tictacblitz.simulation`, :mod:`tictacblitz.sweep`), RL environments
(:mod:`tictacblitz.envs`), the game server (:mod:`tictacblitz.server`) and the command
line (:mod:`tictacblitz.cli`).
"""

from .rules import Rules
from .types import (
    Action,
    ActionKind,
    Cell,
    Event,
    EventKind,
    Player,
    PlayerStatus,
    PowerupKind,
    Reason,
    RoundEnd,
    RoundRecord,
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
    "simulate",
    "cell_index",
    "index_cell",
]

__version__ = "0.1.0"


def __getattr__(name: str):
    # The native engine imports this package's vocabulary (types, rules), so it is
    # loaded on first use rather than here: the layers stay one-way without a cycle.
    if name in ("Match", "STATE_BYTES"):
        from blitz_core import engine

        return getattr(engine, name)
    if name == "simulate":                 # the balancing job (needs pyarrow)
        from .simulation import simulate

        return simulate
    raise AttributeError(f"module 'tictacblitz' has no attribute {name!r}")
