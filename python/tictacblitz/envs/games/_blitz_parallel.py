"""The PettingZoo ``ParallelEnv`` of Tic Tac Blitz: both seats act at every step.

>>> from tictacblitz.envs import parallel_env        # game="blitz": this env
>>> env = parallel_env()
>>> obs, infos = env.reset(seed=0)
>>> env.agents
['X', 'O']
>>> obs, rewards, terminations, truncations, infos = env.step({"X": 0, "O": 0})

Agents are the seats ``"X"`` and ``"O"``; one step is both seats' actions at the current
ms (R3 orders them by the seeded coin when both act), then ``interval_ms`` of game time.
An episode is a match (R22); rewards are zero-sum (docs/rl.md). An agent missing from
the action dict waits.
"""

from __future__ import annotations

from typing import Any, Dict

import numpy as np
from gymnasium import spaces

from ..native.parallel import NativeParallelEnv
from ._blitz_info import row_info

__all__ = ["BlitzParallelEnv"]


class BlitzParallelEnv(NativeParallelEnv):
    """Two-seat Tic Tac Blitz as a PettingZoo ``ParallelEnv``: the shared
    :class:`~tictacblitz.envs.native.parallel.NativeParallelEnv` over
    :class:`~tictacblitz.envs.games.blitz.BlitzVectorEnv` (self-play, one match; made by
    ``BlitzParallelEnv.over(BlitzVectorEnv, **options)``, the adapter's ``parallel_env``).

    Options as :class:`tictacblitz.envs.games.blitz.BlitzEnv`, without the opponent:
    ``rules``, ``interval_ms``, ``round_reward``, ``match_reward``, ``max_steps``,
    ``random_powerups``, ``episode``, ``mask_in_info``, ``render_mode`` (None,
    ``"ansi"`` or ``"rgb_array"``). ``state_space`` / ``state()`` are the global state:
    X's planes (the whole board, both seats' marks).
    """

    metadata: Dict[str, Any] = {
        "name": "tictacblitz_v0",
        "render_modes": ["ansi", "rgb_array"],
        "is_parallelizable": True,
        "render_fps": 20,
    }

    def __init__(self, vec: Any) -> None:
        super().__init__(vec)
        size = self.vec.rules.size
        self.state_space = spaces.Box(0.0, 1.0, (12, size, size), np.float32)

    def _info_of(self, rows: Dict[str, Any], i: int) -> Dict[str, Any]:
        return row_info(rows, i, self.mask_in_info)

    def state(self) -> np.ndarray:
        """The global state: X's planes (X's view holds the whole board)."""
        return self.vec.batch.get_match(0).planes(0).astype(np.float32)
