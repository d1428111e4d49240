"""The PettingZoo ``ParallelEnv`` of Rift & Grid: both seats lock their moves each step.

>>> from tictacblitz.envs import parallel_env
>>> env = parallel_env("rift", max_steps=100)
>>> obs, infos = env.reset(seed=0)
>>> env.agents
['X', 'O']
>>> obs, rewards, terminations, truncations, infos = env.step({"X": 0})  # O does not act
>>> env.locked()
(0, None)

Agents are the seats ``"X"`` and ``"O"``; a seat whose action is missing (or None, or -1)
does not act, and the turn resolves once both have locked a move (G6); a rejected move
(G5) ends the episode, -1 for its seat and +1 for the other (docs/rift.md, "RL").
"""

from __future__ import annotations

from typing import Any, Dict

import numpy as np
from gymnasium import spaces

from ..native.parallel import NativeParallelEnv
from ._rift_info import global_state, info_of

__all__ = ["RiftParallel"]

_NOT_LOCKED = -1  # step_joint's code for a seat that does not act (code 0 is a move)


class RiftParallel(NativeParallelEnv):
    """Both seats of Rift & Grid as a PettingZoo ``ParallelEnv``: the shared
    :class:`~tictacblitz.envs.native.parallel.NativeParallelEnv` over
    :class:`~tictacblitz.envs.games.rift.RiftVectorEnv` (self-play, one game; made by
    :func:`~tictacblitz.envs.games.rift.RiftParallelEnv`, the adapter's
    ``parallel_env``). Its info is the turn-based games' (``rejected`` the reason's name
    or None, ``steps``); ``state()`` is X's observation then O's (both secret hands)."""

    metadata: Dict[str, Any] = {
        "render_modes": ["ansi"],
        "is_parallelizable": True,
        "render_fps": 4,
        "name": "tictacblitz_rift_v0",
    }
    idle_action = _NOT_LOCKED

    def __init__(self, vec: Any) -> None:
        super().__init__(vec)
        self.rules, self.batch = vec.rules, vec.batch
        self.max_steps = vec._options["max_steps"]
        low, high = type(vec).observation_bounds(self.rules)  # the adapter's
        self.state_space = spaces.Box(
            np.concatenate([low, low]), np.concatenate([high, high]), dtype=np.float32
        )

    def step(self, actions: Dict[str, Any]):
        """An agent's action None is a missing one (it does not act), as in
        ``GameParallelEnv``."""
        return super().step({a: code for a, code in actions.items() if code is not None})

    def _info_of(self, rows: Dict[str, Any], i: int) -> Dict[str, Any]:
        info = info_of(int(rows["reason"][i]), int(rows["steps"][i]))
        if self.mask_in_info:
            info["action_mask"] = rows["action_mask"][i]
        return info

    def seat_of(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def state(self) -> np.ndarray:
        """The true global state (``state_space``, :func:`global_state`): X's
        observation then O's, both seats' secret objectives included."""
        return global_state(self.batch, 0)

    def locked(self) -> tuple:
        """The seats' locked moves this turn ``(x, o)``, None where not locked."""
        return self.batch.locked(0)

    def summary(self) -> Dict[str, Any]:
        """The game as the replay result's ``state`` (``RiftState.summary``)."""
        return self.vec.summary(0)
