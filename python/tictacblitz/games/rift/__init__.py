"""Rift & Grid: simultaneous ultimate tic-tac-toe with collisions, abilities, energy and
secret objectives (rules G1-G17, docs/rift.md).

Everything of this game on the Python side is in this folder:

- :mod:`.types`: the vocabulary (players, abilities, reasons, geometry, objective ids);
- :mod:`.rules`: the validated rules configuration (:class:`RiftRules`);
- :mod:`.encoding`: the one integer action encoding (``81 * ability + cell``);
- :mod:`.reference`: the pure-Python reference engine, the oracle of the native one;
- :mod:`.native`: the native core (``blitz_core.rift.engine``) behind the same surface;
- :mod:`.replay`: the replay/scenario file format;
- :mod:`.bots`: the bots and their presets (``hard``: SM-MCTS in the native core);
- :mod:`.game`: the adapter to the platform's Game/State protocol and ``play_matches``;
- (its balance metrics and reports, the lab's part: :mod:`tictacblitz.lab.games.rift`);
- :mod:`.rl`: the RL hook (native vector env, single env, PettingZoo parallel env).

Importing this package does not load the native core; :mod:`.game` does (and
:mod:`.rl` needs gymnasium).
"""

from .rules import RiftRules
from .types import Ability, Player, Reason, SectorResult

__all__ = ["Ability", "Player", "Reason", "RiftRules", "SectorResult"]
