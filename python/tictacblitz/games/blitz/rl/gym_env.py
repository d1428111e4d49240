"""The single-agent Gymnasium environment ``tictacblitz/Blitz-v0``: one match against a bot.

>>> import gymnasium, tictacblitz.envs
>>> env = gymnasium.make("tictacblitz/Blitz-v0", opponent="random")
>>> obs, info = env.reset(seed=1)
>>> sorted(obs)
['action_mask', 'planes', 'scalars']
>>> obs, reward, terminated, truncated, info = env.step(0)       # wait 50 ms
>>> bool(obs["scalars"][8] > 0)                                 # the clock moved
True

The agent plays ``seat`` (X by default); the other seat is ``opponent``. One step is one
decision: the action at the current ms, then ``interval_ms`` of game time (docs/rl.md).
An episode is a whole match (R22); its rewards are the agent's (zero-sum).
"""

from __future__ import annotations

from typing import Optional, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from ..rules import Rules
from ..types import Player
from .batched import BatchedMatches, observation_space

__all__ = ["BlitzEnv"]


class BlitzEnv(gymnasium.Env):
    """One match of Tic Tac Blitz against a built-in bot, as a ``gymnasium.Env``.

    :param opponent: ``"random"`` (native random policy, default), ``"wait"``, or a
        ``tictacblitz.games.blitz.bots`` name.
    :param seat: the agent's seat, ``"X"`` or ``"O"``.
    :param rules: a :class:`Rules` (default rules if None).
    :param interval_ms: game time per step (default 50).
    :param round_reward / match_reward: see docs/rl.md (default 1 and 1).
    :param max_steps: truncate after this many steps (None: the match always ends).
    :param render_mode: None or ``"ansi"`` (the board as text).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 20}

    def __init__(
        self,
        *,
        opponent: str = "random",
        seat: Union[str, int, Player] = "X",
        rules: Optional[Rules] = None,
        interval_ms: int = 50,
        round_reward: float = 1.0,
        match_reward: float = 1.0,
        max_steps: Optional[int] = None,
        random_powerups: bool = True,
        render_mode: Optional[str] = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.seat = int(Player.parse(seat))
        policies: list = [None, None]
        policies[1 - self.seat] = opponent
        self.batch = BatchedMatches(
            1, rules=rules, seed=0, interval_ms=interval_ms, autoreset_mode="disabled",
            round_reward=round_reward, match_reward=match_reward, policies=policies,
            max_steps=max_steps, num_threads=1, random_powerups=random_powerups,
        )
        self.observation_space = observation_space(self.batch.rules)
        self.action_space = spaces.Discrete(self.batch.n_actions)
        self._actions = np.zeros((1, 2), dtype=np.int64)

    def _obs(self) -> dict:
        s = self.seat
        b = self.batch
        return {
            "planes": b.planes[0, s].copy(),
            "scalars": b.scalars[0, s].copy(),
            "action_mask": b.masks[0, s].view(np.int8).copy(),
        }

    def _info(self) -> dict:
        b = self.batch
        state = b.state_info()
        return {
            "round": int(state["round"][0]),
            "t": int(state["t"][0]),
            "round_wins": tuple(int(w) for w in state["round_wins"][0]),
            "round_result": int(b.info["round_result"][0]),
            "match_result": int(b.info["match_result"][0]),
            "rejected": bool(b.info["reasons"][0, self.seat] > 0),
        }

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        """A new match: ``Match(seed=seed)`` when a seed is given, else a seed drawn
        from ``self.np_random``."""
        super().reset(seed=seed)
        match_seed = seed if seed is not None else int(self.np_random.integers(0, 2**63))
        self.batch.reset(seed=[match_seed])
        return self._obs(), self._info()

    def step(self, action):
        """:raises ValueError: for an action code outside the action space."""
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"an action is an integer code, not {action!r}")
        if not 0 <= action < self.batch.n_actions:
            raise ValueError(f"action code {action} out of range [0, {self.batch.n_actions})")
        self._actions[0, self.seat] = action
        _, rewards, terminated, truncated, _ = self.batch.step(self._actions)
        return (self._obs(), float(rewards[0, self.seat]), bool(terminated[0]),
                bool(truncated[0]), self._info())

    def render(self):
        if self.render_mode == "ansi":
            match = self.batch.get_match(0)
            wins = match.round_wins
            return (f"round {match.round} t={match.t} wins X {wins[0]} O {wins[1]}\n"
                    + "\n".join(match.board_text()) + "\n")
        return None

    def get_match(self):
        """A :class:`tictacblitz.Match` copy of the current state."""
        return self.batch.get_match(0)
