"""Tic Tac Blitz: real-time four in a row on 6×6 (rules R1-R23, docs/blitz.md).

Everything of this game on the Python side is in this folder:

- :mod:`.types`: the vocabulary (players, cells, actions, reasons, events);
- :mod:`.rules`: the validated rules configuration (every number of the rules);
- :mod:`.reference`: the pure-Python reference engine, the oracle of the native one;
- :mod:`.streams`: the random stream layouts (1: one stream; 2: streams by purpose);
- :mod:`.scenario`: the replay/scenario file format (docs/replay-format.md);
- :mod:`.bots`, :mod:`.playout`: bots and random playouts;
- :mod:`.encoding`: the integer action encoding and observation planes;
- :mod:`.game`: the adapter to the platform's Game/State protocol.

The native core is ``blitz_core.blitz``; importing this package hands it this
vocabulary (``match.bind_vocabulary``), so the core never imports upward.
"""

from blitz_core.blitz import match as _native_match

from . import types as _types
from .rules import Rules
from .types import (
    REASON_BY_CODE,
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
    parse_cell,
)


class _Vocabulary:
    """What the native engine is handed: this package's own classes."""

    Rules = Rules
    Action, ActionKind, Event, EventKind = Action, ActionKind, Event, EventKind
    PlayerStatus, Player, PowerupKind, Reason = PlayerStatus, Player, PowerupKind, Reason
    RoundEnd, RoundRecord = RoundEnd, RoundRecord
    REASON_BY_CODE, parse_cell = REASON_BY_CODE, parse_cell


_native_match.bind_vocabulary(_Vocabulary)

Match = _native_match.Match
STATE_BYTES = _native_match.STATE_BYTES

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
    "cell_index",
    "index_cell",
    "parse_cell",
]
del _types
