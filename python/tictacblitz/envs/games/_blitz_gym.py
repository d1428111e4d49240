"""The single-agent Gymnasium environment ``tictacblitz/Blitz-v0``: one match against a bot.

>>> import gymnasium, tictacblitz.envs
>>> env = gymnasium.make("tictacblitz/Blitz-v0", opponent="random")
>>> obs, info = env.reset(seed=1)
>>> sorted(obs), sorted(info)[:4]
(['action_mask', 'planes', 'scalars'], ['match_result', 'reason', 'rejected', 'round'])
>>> obs, reward, terminated, truncated, info = env.step(0)       # wait 50 ms
>>> bool(obs["scalars"][8] > 0)                                 # the clock moved
True

The agent plays ``seat`` (X by default); the other seat is ``opponent``. One step is one
decision: the action at the current ms, then ``interval_ms`` of game time (docs/rl.md).
An episode is a whole match (R22), or a round with ``episode="round"``; its rewards are
the agent's (zero-sum).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from ...games.blitz.rules import Rules
from ...games.blitz.types import Player
from ._blitz_batched import BatchedMatches, observation_space
from ._blitz_info import _Shaping, step_info

__all__ = ["BlitzEnv"]


class BlitzEnv(gymnasium.Env):
    """One match of Tic Tac Blitz against a built-in bot, as a ``gymnasium.Env``.

    :param opponent: a bot name of ``tictacblitz.games.blitz.bots.PRESETS`` (``random``,
        the default, ``greedy``, ``search``, ``easy``, ``medium``, ``hard``), a
        ``BotSpec``, ``"wait"`` (all native), or a callable ``fn(obs, mask) -> actions``
        over a batch of one.
    :param seat: the agent's seat, ``"X"`` or ``"O"``.
    :param rules: a :class:`Rules` or a dict of its fields (default rules if None).
    :param interval_ms: game time per step (default 50).
    :param episode: ``"match"`` (default) or ``"round"``.
    :param round_reward / match_reward: see docs/rl.md (default 1 and 1).
    :param max_steps: truncate after this many steps (None: the match always ends).
    :param mask_in_info: the legal-action mask in ``info["action_mask"]`` instead of
        the observation (``action_masks()`` gives it either way).
    :param shaping: None (default) or a potential ``phi(obs) -> (1,)`` over a batch of
        one (see ``batched.marks_potential``); adds ``shaping_gamma * phi(s') - phi(s)``.
    :param render_mode: None, ``"ansi"`` (the board as text) or ``"rgb_array"``.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 20}

    def __init__(
        self,
        *,
        opponent: Any = "random",
        seat: Union[str, int, Player] = "X",
        rules: Union[None, Rules, Dict[str, Any]] = None,
        interval_ms: int = 50,
        episode: str = "match",
        round_reward: float = 1.0,
        match_reward: float = 1.0,
        max_steps: Optional[int] = None,
        random_powerups: bool = True,
        mask_in_info: bool = False,
        shaping: Optional[Callable] = None,
        shaping_gamma: float = 0.99,
        render_mode: Optional[str] = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'rgb_array', not {render_mode!r}"
            )
        self.render_mode = render_mode
        self.seat = int(Player.parse(seat))
        policies: list = [None, None]
        policies[1 - self.seat] = opponent
        self.batch = BatchedMatches(
            1,
            rules=rules,
            seed=0,
            interval_ms=interval_ms,
            autoreset_mode="disabled",
            episode=episode,
            round_reward=round_reward,
            match_reward=match_reward,
            policies=policies,
            max_steps=max_steps,
            num_threads=1,
            random_powerups=random_powerups,
        )
        self.mask_in_info = mask_in_info
        self.observation_space = observation_space(self.batch.rules, mask=not mask_in_info)
        self.action_space = spaces.Discrete(self.batch.n_actions)
        self._actions = np.zeros((1, 2), dtype=np.int64)
        self._shaping = _Shaping(shaping, shaping_gamma) if shaping is not None else None

    def _batch_obs(self) -> Dict[str, np.ndarray]:
        b, s = self.batch, self.seat
        return {
            "planes": b.buffer("planes")[:, s],
            "scalars": b.scalars[:, s],
            "action_mask": b.buffer("masks")[:, s],
        }

    def _obs(self) -> dict:
        s = self.seat
        b = self.batch
        out = {"planes": b.buffer("planes")[0, s].copy(), "scalars": b.scalars[0, s].copy()}
        if not self.mask_in_info:
            out["action_mask"] = b.buffer("masks")[0, s].view(np.int8).copy()
        return out

    def _info(self) -> dict:
        rows = step_info(self.batch, (self.seat,), self.mask_in_info)
        info: Dict[str, Any] = {
            "round": int(rows["round"][0]),
            "t": int(rows["t"][0]),
            "round_wins": tuple(int(w) for w in rows["round_wins"][0]),
            "reason": int(rows["reason"][0]),
            "rejected": bool(rows["rejected"][0]),
            "round_result": int(rows["round_result"][0]),
            "match_result": int(rows["match_result"][0]),
        }
        if self.mask_in_info:
            info["action_mask"] = rows["action_mask"][0]
        return info

    @property
    def opponent(self) -> Any:
        return self.batch.policies[1 - self.seat]

    def set_opponent(self, opponent: Any) -> None:
        """Another opponent from the next step on (best between episodes)."""
        self.batch.set_policy(1 - self.seat, opponent)

    def action_masks(self) -> np.ndarray:
        """The agent's legal actions now, bool (n_actions,) (sb3-contrib's MaskablePPO)."""
        return self.batch.buffer("masks")[0, self.seat].copy()

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        """A new match: ``Match(seed=seed)`` when a seed is given, else a seed drawn
        from ``self.np_random``."""
        super().reset(seed=seed)
        match_seed = seed if seed is not None else int(self.np_random.integers(0, 2**63))
        self.batch.reset(seed=[match_seed])
        if self._shaping is not None:
            self._shaping.start(self._batch_obs())
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
        reward = float(rewards[0, self.seat])
        if self._shaping is not None:
            done = np.array([terminated[0] or truncated[0]])
            reward += float(self._shaping.bonus(self._batch_obs(), done, np.zeros(1, bool))[0])
        return (self._obs(), reward, bool(terminated[0]), bool(truncated[0]), self._info())

    def render(self):
        from ._blitz_render import render_match

        return render_match(self.batch.get_match(0), self.render_mode)

    def get_match(self):
        """A :class:`tictacblitz.Match` copy of the current state."""
        return self.batch.get_match(0)

    def get_state(self) -> Dict[str, Any]:
        """A snapshot (the batch's, the env's ``np_random`` and shaping): ``set_state``
        resumes it exactly."""
        return {
            "batch": self.batch.get_state(),
            "np_random": self.np_random.bit_generator.state,
            "shaping": None if self._shaping is None else self._shaping.last,
        }

    def set_state(self, state: Dict[str, Any]) -> None:
        self.batch.set_state(state["batch"])
        self.np_random.bit_generator.state = state["np_random"]
        if self._shaping is not None and state["shaping"] is not None:
            self._shaping.last = state["shaping"].copy()
