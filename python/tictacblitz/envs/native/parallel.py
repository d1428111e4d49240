"""Every seat of one game as a PettingZoo ``ParallelEnv`` over a game's native stepper
(:class:`NativeParallelEnv`), for the games' RL adapters (``envs/games/<name>.py``,
issue 27: the parallel face on the shared template, as :class:`NativeSingleEnv` is the
single one).

It is the game's :class:`~tictacblitz.envs.native.vector.NativeVectorEnv` in self-play
(``opponent=None``: every seat a row) with one game and auto-reset disabled, so the
observations, masks, rewards and info keys are the vector env's rows, one an agent.
"""

from __future__ import annotations

from typing import Any, ClassVar, Dict, List, Optional

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import ParallelEnv
except ImportError as exc:  # pragma: no cover - the rl extra is missing
    raise ImportError(
        "the PettingZoo environments need pettingzoo (pip install 'tictacblitz[rl]')"
    ) from exc

from .options import (
    NOOP_ACTION,
    action_code,
    next_game_seed,
    reject_self_play_options,
    render_game,
)

__all__ = ["NativeParallelEnv"]


class NativeParallelEnv(ParallelEnv):
    """Every seat of one game as an agent (named by the game's seats), all acting at each
    step; an agent missing from the action dict plays :attr:`idle_action`. An episode is
    one game: when it ends every agent is done and a further step is refused until
    ``reset()``. ``reset(seed=s)`` plays the game of seed ``s``; without a seed, a fresh
    one from the env's stream (seeded by the last seeded reset; from OS entropy before
    any). Options (:meth:`over`): the vector env's, but ``opponent`` and ``seat``."""

    metadata: Dict[str, Any] = {"render_modes": ["ansi"], "is_parallelizable": True}
    idle_action: ClassVar[int] = NOOP_ACTION
    """What a missing agent plays (Blitz: code 0, ``wait``; Rift: -1, not locked), also
    accepted when given."""

    @classmethod
    def over(cls, vector_type: type, **options: Any) -> NativeParallelEnv:
        """The env over a game's vector env type (its adapter's class), with its options."""
        reject_self_play_options(options, "every seat is an agent")
        for fixed in ("num_threads", "autoreset_mode"):  # one game, ended until reset()
            if fixed in options:
                raise ValueError(f"the parallel env sets {fixed} itself: it steps one game")
        options.update(num_threads=1, autoreset_mode="disabled")
        return cls(vector_type(1, opponent=None, **options))

    def __init__(self, vec: Any) -> None:
        """``vec``: the game's vector env in self-play, one game, auto-reset disabled
        (:meth:`over` makes it)."""
        self.vec = vec
        self.render_mode, self.mask_in_info = vec.render_mode, vec.mask_in_info
        self.possible_agents: List[str] = list(vec.seat_names)
        self.agents: List[str] = []
        # PettingZoo wants the very same space object on every call: the dicts hold it.
        self.observation_spaces = dict.fromkeys(self.possible_agents, vec.single_observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, vec.single_action_space)
        self._codes = np.zeros(len(self.possible_agents), dtype=np.int64)
        self._seeds: Optional[np.random.Generator] = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
        self._seeds, game_seed = next_game_seed(self._seeds, seed)
        obs, rows = self.vec.reset(seed=[game_seed])
        self.agents = self.possible_agents[:]
        return self._split(obs), self._infos(rows)

    def step(self, actions: Dict[str, Any]):
        """:raises TypeError / ValueError: for an action that is not an integer code of the
        action space (one line naming the agent and the code); the game is unchanged."""
        if not self.agents:
            raise ValueError("step after the game ended: call reset()")
        n, idle = self.vec.num_actions, self.idle_action
        for i, agent in enumerate(self.possible_agents):
            self._codes[i] = action_code(actions.get(agent, idle), n, agent, idle)
        obs, rewards, terminated, truncated, rows = self.vec.step(self._codes)
        agents = self.possible_agents
        rew = {a: float(rewards[i]) for i, a in enumerate(agents)}
        term = {a: bool(terminated[i]) for i, a in enumerate(agents)}
        trunc = {a: bool(truncated[i]) for i, a in enumerate(agents)}
        if terminated[0] or truncated[0]:  # every seat's row of the game has its flags
            self.agents = []
        return self._split(obs), rew, term, trunc, self._infos(rows)

    def _split(self, obs: Dict[str, np.ndarray]) -> Dict[str, Dict[str, np.ndarray]]:
        return {a: {k: v[i] for k, v in obs.items()} for i, a in enumerate(self.possible_agents)}

    def _infos(self, rows: Dict[str, Any]) -> Dict[str, Dict[str, Any]]:
        return {a: self._info_of(rows, i) for i, a in enumerate(self.possible_agents)}

    def _info_of(self, rows: Dict[str, Any], i: int) -> Dict[str, Any]:
        """Agent i's info from the vector env's rows (a game may shape it its way)."""
        return {k: v[i] for k, v in rows.items() if not k.startswith("_")}

    def action_masks(self) -> Dict[str, np.ndarray]:
        """Each agent's legal actions now, bool (num_actions,)."""
        masks = self.vec.action_masks()
        return {a: masks[i] for i, a in enumerate(self.possible_agents)}

    def render(self) -> Any:
        """``ansi``: the game as text; ``rgb_array``: its image (a game that draws one)."""
        return render_game(self.vec, self.render_mode)

    def close(self) -> None:
        pass
