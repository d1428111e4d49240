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

from typing import Any, Dict, Optional, Union

import numpy as np
from gymnasium import spaces

try:
    from pettingzoo import ParallelEnv
except ImportError as exc:  # pragma: no cover - the `rl` extra is missing
    raise ImportError(
        "tictacblitz.envs.parallel_env needs pettingzoo (pip install 'tictacblitz[rl]')"
    ) from exc

from ...games.blitz.rules import Rules
from ._blitz_batched import BatchedMatches, observation_space
from ._blitz_info import step_info

__all__ = ["BlitzParallelEnv"]

AGENTS = ("X", "O")


class BlitzParallelEnv(ParallelEnv):
    """Two-seat Tic Tac Blitz as a PettingZoo ``ParallelEnv``.

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

    def __init__(
        self,
        *,
        rules: Union[None, Rules, Dict[str, Any]] = None,
        interval_ms: int = 50,
        round_reward: float = 1.0,
        match_reward: float = 1.0,
        max_steps: Optional[int] = None,
        random_powerups: bool = True,
        episode: str = "match",
        mask_in_info: bool = False,
        render_mode: Optional[str] = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'rgb_array', not {render_mode!r}"
            )
        self.mask_in_info = mask_in_info
        self.render_mode = render_mode
        self.batch = BatchedMatches(
            1,
            rules=rules,
            seed=0,
            interval_ms=interval_ms,
            autoreset_mode="disabled",
            round_reward=round_reward,
            match_reward=match_reward,
            max_steps=max_steps,
            num_threads=1,
            random_powerups=random_powerups,
            episode=episode,
        )
        self.possible_agents = list(AGENTS)
        self.agents: list = []
        self._obs_space = observation_space(self.batch.rules, mask=not mask_in_info)
        size = self.batch.rules.size
        self.state_space = spaces.Box(0.0, 1.0, (12, size, size), np.float32)
        self._act_space = spaces.Discrete(self.batch.n_actions)
        self.observation_spaces = dict.fromkeys(AGENTS, self._obs_space)
        self.action_spaces = dict.fromkeys(AGENTS, self._act_space)
        self._actions = np.zeros((1, 2), dtype=np.int64)
        self._np_random = np.random.default_rng()

    # PettingZoo wants the very same space object on every call: the dicts hold it.
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _obs(self) -> Dict[str, Dict[str, np.ndarray]]:
        b = self.batch
        out = {}
        for s, a in enumerate(AGENTS):
            out[a] = {"planes": b.buffer("planes")[0, s].copy(), "scalars": b.scalars[0, s].copy()}
            if not self.mask_in_info:
                out[a]["action_mask"] = b.buffer("masks")[0, s].view(np.int8).copy()
        return out

    def _infos(self) -> Dict[str, Dict[str, Any]]:
        rows = step_info(self.batch, (0, 1), self.mask_in_info)
        out = {}
        for s, a in enumerate(AGENTS):
            out[a] = {
                "round": int(rows["round"][s]),
                "t": int(rows["t"][s]),
                "round_wins": tuple(int(w) for w in rows["round_wins"][s]),
                "reason": int(rows["reason"][s]),
                "rejected": bool(rows["rejected"][s]),
                "round_result": int(rows["round_result"][s]),
                "match_result": int(rows["match_result"][s]),
            }
            if self.mask_in_info:
                out[a]["action_mask"] = rows["action_mask"][s]
        return out

    def action_masks(self) -> Dict[str, np.ndarray]:
        """Each agent's legal actions now, bool (n_actions,)."""
        return {a: self.batch.buffer("masks")[0, s].copy() for s, a in enumerate(AGENTS)}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
        """A new match: ``Match(seed=seed)`` when a seed is given, else a drawn seed."""
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
            match_seed = seed
        else:
            match_seed = int(self._np_random.integers(0, 2**63))
        self.batch.reset(seed=[match_seed])
        self.agents = list(AGENTS)
        return self._obs(), self._infos()

    def step(self, actions: Dict[str, Any]):
        """:raises ValueError: for an action code outside the action space."""
        if not self.agents:
            raise ValueError("step after the match ended: call reset()")
        for s, a in enumerate(AGENTS):
            code = actions.get(a, 0)
            if isinstance(code, np.ndarray) and code.shape == ():
                code = code.item()
            if isinstance(code, bool) or not isinstance(code, (int, np.integer)):
                raise TypeError(f"{a}'s action must be an integer code, not {code!r}")
            if not 0 <= code < self.batch.n_actions:
                raise ValueError(
                    f"{a}'s action code {code} out of range [0, {self.batch.n_actions})"
                )
            self._actions[0, s] = code
        _, rewards, terminated, truncated, _ = self.batch.step(self._actions)
        obs = self._obs()
        rew = {a: float(rewards[0, s]) for s, a in enumerate(AGENTS)}
        term = {a: bool(terminated[0]) for a in AGENTS}
        trunc = {a: bool(truncated[0]) for a in AGENTS}
        infos = self._infos()
        if terminated[0] or truncated[0]:
            self.agents = []
        return obs, rew, term, trunc, infos

    def render(self):
        from ._blitz_render import render_match

        return render_match(self.batch.get_match(0), self.render_mode)

    def close(self) -> None:
        pass

    def state(self) -> np.ndarray:
        """The global state: X's planes (X's view holds the whole board)."""
        return self.batch.get_match(0).planes(0).astype(np.float32)
