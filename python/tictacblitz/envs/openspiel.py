"""The games as OpenSpiel games: importing this module registers them with pyspiel.

- ``tictacblitz_doh`` (:mod:`.openspiel_doh`): Tic Tac Doh, sequential, perfect
  information, 2 to 4 players by its ``players`` rule;
- ``tictacblitz_rift`` (:mod:`.openspiel_rift`): Rift & Grid, simultaneous moves,
  imperfect information, with G12's deal as chance nodes.

Both are backed by the project's engines through the Game/State protocol, so
OpenSpiel's algorithms (CFR, MCCFR, exploitability, PSRO, ...) run on the real rules::

    import pyspiel
    import tictacblitz.envs.openspiel  # registers the games
    game = pyspiel.load_game("tictacblitz_doh", {"pieces_per_size": 3})

Tic Tac Blitz is not registered: it is played in real time (``TimeModel.REAL_TIME``),
and an OpenSpiel game is a tree of discrete decisions (docs/openspiel.md says what a
Blitz game would need). Needs the ``openspiel`` extra (``open_spiel``; PSRO,
:mod:`.openspiel_psro`, needs its ``cvxpy`` too).
"""

from __future__ import annotations

from typing import Tuple

from . import openspiel_doh, openspiel_rift

__all__ = ["GAME_NAMES"]

GAME_NAMES: Tuple[str, ...] = (openspiel_doh.NAME, openspiel_rift.NAME)
"""The short names registered with pyspiel."""
