"""The Gymnasium ``VectorEnv`` faces of the native batch, and what every face shares.

- :class:`BlitzVectorEnv`: one seat is the learner's, the other a native bot, a callable
  or ``"wait"`` (``set_opponent`` between episodes);
- :class:`BlitzSelfPlayVectorEnv`: both seats of M matches are the learner's (2 M rows);
- :func:`step_info`: the info keys of every face; :class:`_Shaping`: potential-based
  reward shaping (off by default); :func:`marks_potential`: an example potential.

docs/rl.md is the contract.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Sequence, Tuple, Union

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ...native_options import reject_self_play_options, with_key_masks
from ..types import Player
from .batched import BatchedMatches, observation_space

__all__ = [
    "BlitzVectorEnv",
    "BlitzSelfPlayVectorEnv",
    "marks_potential",
    "step_info",
]


def _seat(seat: Union[str, int, Player]) -> int:
    return int(Player.parse(seat))


def final_step_info(batch: BatchedMatches, seats: Sequence[int]) -> Dict[str, Any]:
    """SAME_STEP's ``final_info``: the info keys of the step an episode ended on. The
    step's own keys (``reason``, ``round_result``, ...) are the step's buffers; the
    state's (``round``, ``t``, ``round_wins``) are read back from the final scalars
    (their exact fractions of ``round_ms``, ``max_rounds`` and ``rounds_to_win``)."""
    out = step_info(batch, seats)
    rules = batch.rules
    sc = batch.buffer("final_scalars")
    rows = np.stack([sc[:, batch.observe.index(s)] for s in seats], axis=1)
    rows = rows.reshape(batch.num_envs * len(seats), -1).astype(np.float64)
    out["t"] = np.rint(rows[:, 8] * rules.round_ms).astype(np.int64)
    out["round"] = np.rint(rows[:, 11] * rules.max_rounds).astype(np.int64)
    out["round_wins"] = np.rint(rows[:, 9:11] * rules.rounds_to_win).astype(np.int64)
    return out


def step_info(
    batch: BatchedMatches, seats: Sequence[int], mask_in_info: bool = False
) -> Dict[str, Any]:
    """The info keys every face shares (docs/rl.md), as arrays over (env, seat) rows:
    ``round``, ``t``, ``round_wins`` (own, opponent), ``reason`` (-1 no action, 0
    accepted, else the R7 code), ``rejected``, ``round_result``, ``match_result``; and
    ``action_mask`` when the mask travels in the info."""
    state = batch.state_info()
    n, k = batch.num_envs, len(seats)
    seats = list(seats)
    wins = state["round_wins"]
    own = np.stack([wins[:, seats], wins[:, [1 - s for s in seats]]], axis=-1)
    reasons = batch.info["reasons"][:, seats].astype(np.int64)
    out: Dict[str, Any] = {
        "round": np.repeat(state["round"], k),
        "t": np.repeat(state["t"], k),
        "round_wins": own.reshape(n * k, 2),
        "reason": reasons.reshape(n * k),
        "rejected": reasons.reshape(n * k) > 0,
        "round_result": np.repeat(batch.info["round_result"], k).astype(np.int64),
        "match_result": np.repeat(batch.info["match_result"], k).astype(np.int64),
    }
    if mask_in_info:
        out["action_mask"] = batch.buffer("masks")[:, seats].reshape(n * k, -1).view(np.int8).copy()
    return out


class _Shaping:
    """Potential-based shaping (Ng, Harada & Russell 1999): ``gamma * phi(s') - phi(s)``
    added to the reward, with phi = 0 at an episode's end, so optimal policies are
    unchanged. ``potential(obs) -> (rows,)`` takes the rows' observation dict."""

    def __init__(self, potential: Callable, gamma: float) -> None:
        if not callable(potential):
            raise TypeError(f"shaping must be a callable obs -> potentials, not {potential!r}")
        if not 0.0 <= gamma <= 1.0:
            raise ValueError(f"shaping_gamma must be in [0, 1], not {gamma!r}")
        self.potential, self.gamma = potential, gamma
        self.last: Optional[np.ndarray] = None

    def start(self, obs: Dict[str, np.ndarray], rows: Optional[np.ndarray] = None) -> None:
        phi = np.asarray(self.potential(obs), dtype=np.float64)
        if self.last is None or rows is None:
            self.last = phi.copy()
        else:
            self.last[rows] = phi[rows]

    def bonus(self, obs: Dict[str, np.ndarray], done: np.ndarray, fresh: np.ndarray) -> np.ndarray:
        """Per row: ``done`` = the episode ended in this step, ``fresh`` = this step
        began a new episode (NEXT_STEP auto-reset: no shaping across the boundary)."""
        phi = np.asarray(self.potential(obs), dtype=np.float64)
        nxt = np.where(done, 0.0, phi)
        last = phi if self.last is None else self.last
        bonus = np.where(fresh, 0.0, self.gamma * nxt - last)
        self.last = phi
        return bonus


def marks_potential(obs: Dict[str, np.ndarray]) -> np.ndarray:
    """A simple potential for :class:`_Shaping`: 0.1 * (own marks - opponent marks) /
    mark_limit, from the scalars (``own_marks``, ``opp_marks``)."""
    sc = obs["scalars"]
    return 0.1 * (sc[..., 12] - sc[..., 13])


class BlitzVectorEnv(VectorEnv):
    """A Gymnasium ``VectorEnv`` of ``num_envs`` single-agent matches on the native batch.

    The agent plays ``seat`` (X by default) against ``opponent``: a bot name of
    ``tictacblitz.games.blitz.bots.PRESETS`` or a ``BotSpec`` (native, inside the
    ``nogil`` step), ``"wait"``, or a callable ``fn(obs, mask) -> actions`` (a frozen
    network). Observations are the agent seat's (``planes``, ``scalars``,
    ``action_mask``), rewards the agent's. ``metadata["autoreset_mode"]`` says the mode
    (NEXT_STEP by default). ``copy=False`` returns the batch's in-place buffers instead
    of copies.

    :param mask_in_info: carry the legal-action mask in ``info["action_mask"]`` instead
        of the observation (``action_masks()`` gives it either way).
    :param shaping: None (default) or a potential ``phi(obs) -> (num_envs,)``: adds
        ``shaping_gamma * phi(s') - phi(s)`` to the rewards (phi = 0 at an episode's end).
    :param render_mode: None, ``"rgb_array"`` (a tuple of (H, W, 3) uint8 images) or
        ``"ansi"`` (one text block per env).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["rgb_array", "ansi"]}

    def __init__(
        self,
        num_envs: int = 1,
        *,
        opponent: Any = "random",
        seat: Union[str, int, Player] = "X",
        copy: bool = True,
        mask_in_info: bool = False,
        shaping: Optional[Callable] = None,
        shaping_gamma: float = 0.99,
        render_mode: Optional[str] = None,
        **options: Any,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be None, 'rgb_array' or 'ansi', not {render_mode!r}"
            )
        self.render_mode = render_mode
        if seat == "both":
            self._seats: Tuple[int, ...] = (0, 1)
            policies: list = [None, None]
        else:
            self._seats = (_seat(seat),)
            policies = [None, None]
            policies[1 - self._seats[0]] = opponent
        options.setdefault("autoreset_mode", AutoresetMode.NEXT_STEP)
        self.batch = BatchedMatches(num_envs, policies=policies, **options)
        self.metadata = dict(self.metadata, autoreset_mode=self.batch.autoreset_mode)
        self.num_matches = num_envs
        self.num_envs = num_envs * len(self._seats)
        self.copy = copy
        self.mask_in_info = mask_in_info
        if self.batch.masks is None and mask_in_info:
            raise ValueError("mask_in_info needs masks=True")
        self.single_observation_space = observation_space(
            self.batch.rules,
            self.batch.obs_mode,
            mask=not mask_in_info and self.batch.masks is not None,
        )
        self.single_action_space = spaces.Discrete(self.batch.n_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._terminal_mask = np.zeros(self.batch.n_actions, dtype=np.int8)
        self._terminal_mask[0] = 1
        self._shaping = _Shaping(shaping, shaping_gamma) if shaping is not None else None
        self._was_done = np.zeros(self.num_envs, dtype=bool)
        self._full_actions = np.zeros((num_envs, 2), dtype=np.int64)
        self._every_row = np.ones(self.num_envs, dtype=bool)
        self._every_row.flags.writeable = False  # shared by every step's `_key` masks

    # -- views over the agent rows ------------------------------------------------------------
    def _rows(self, arr: np.ndarray) -> np.ndarray:
        """(N, 2, ...) → the agent rows (N * seats, ...): a view for one seat or both."""
        if len(self._seats) == 2:
            return arr.reshape((self.num_envs,) + arr.shape[2:])
        return arr[:, self._seats[0]]

    def _obs(self, source: Dict[str, np.ndarray]) -> Dict[str, np.ndarray]:
        out = {
            k: self._rows(v)
            for k, v in source.items()
            if not (k == "action_mask" and self.mask_in_info)
        }
        if "action_mask" in out:
            out["action_mask"] = out["action_mask"].view(np.int8)
        if self.copy:
            out = {k: v.copy() for k, v in out.items()}
        return out

    def _per_env(self, arr: np.ndarray) -> np.ndarray:
        return np.repeat(arr, len(self._seats)) if len(self._seats) == 2 else arr.copy()

    @property
    def opponent(self) -> Any:
        """The other seat's policy (None in self-play)."""
        return None if len(self._seats) == 2 else self.batch.policies[1 - self._seats[0]]

    def set_opponent(self, opponent: Any) -> None:
        """A new opponent from the next step on (a name, a ``BotSpec`` or a callable);
        call it between episodes, e.g. after a ``reset``, for a league."""
        if len(self._seats) == 2:
            raise ValueError("a self-play env has no opponent: both seats are the agent's")
        self.batch.set_policy(1 - self._seats[0], opponent)

    def action_masks(self) -> np.ndarray:
        """The legal actions of every agent row now, bool (num_envs, n_actions)
        (sb3-contrib's MaskablePPO convention)."""
        return self._rows(self.batch.buffer("masks")).copy()

    # -- gymnasium ----------------------------------------------------------------------------
    def reset(self, *, seed=None, options=None):
        """Gymnasium 1.x reset; ``options={"reset_mask": bool (num_envs,)}`` resets only
        those rows' matches (self-play: a match resets when either of its rows is set)."""
        mask = None
        if options and "reset_mask" in options:
            mask = np.asarray(options["reset_mask"])
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
                raise ValueError(
                    f"options['reset_mask'] must be a bool array of shape "
                    f"({self.num_envs},), not {mask.dtype} {mask.shape}"
                )
            if len(self._seats) == 2:
                mask = mask.reshape(self.num_matches, 2).any(axis=1)
        else:
            super().reset(
                seed=seed if isinstance(seed, (int, np.integer)) or seed is None else None
            )
        if (
            len(self._seats) == 2
            and seed is not None
            and not isinstance(seed, (int, np.integer))
            and len(seed) == self.num_envs
        ):
            seed = np.asarray(seed)[0::2]  # one seed per row: the X row's seeds its match
        obs, _ = self.batch.reset(seed=seed, mask=mask)
        out = self._obs(obs)
        rows = None if mask is None else np.repeat(mask, len(self._seats))
        if rows is None:
            self._was_done[:] = False
        else:
            self._was_done[rows] = False
        if self._shaping is not None:
            self._shaping.start(self._obs_all(obs), rows)
        info = step_info(self.batch, self._seats, self.mask_in_info)
        return out, with_key_masks(info, self._every_row)

    def _obs_all(self, obs: Dict[str, np.ndarray]) -> Dict[str, np.ndarray]:
        return {k: self._rows(v) for k, v in obs.items()}

    def step(self, actions):
        if len(self._seats) == 2:
            arr = np.asarray(actions)
            if arr.shape != (self.num_envs,):
                raise ValueError(f"actions must have shape ({self.num_envs},), not {arr.shape}")
            if arr.dtype.kind not in "iu":
                raise TypeError(f"actions must be integers, not {arr.dtype}")
            self._full_actions.reshape(self.num_envs)[:] = arr
            actions = self._full_actions
        obs, rewards, terminated, truncated, info = self.batch.step(actions)
        infos = with_key_masks(
            step_info(self.batch, self._seats, self.mask_in_info), self._every_row
        )
        reward = self._rows(rewards).astype(np.float64)
        term, trunc = self._per_env(terminated), self._per_env(truncated)
        if self._shaping is not None:
            fresh = (
                self._was_done.copy()
                if self.batch.autoreset_mode == AutoresetMode.NEXT_STEP
                else np.zeros(self.num_envs, bool)
            )
            done = term | trunc
            if "final_ended" in info:
                done = done | self._per_env(info["final_ended"])
            reward = reward + self._shaping.bonus(self._obs_all(obs), done, fresh)
        self._was_done = term | trunc
        if "final_ended" in info and info["final_ended"].any():
            # Gymnasium's layout for a Dict space (SyncVectorEnv's _add_info): a dict of
            # arrays over rows, each key with its `_key` mask of the ended rows
            ended = self._per_env(info["final_ended"])
            mode = self.batch.obs_mode
            final: Dict[str, np.ndarray] = {
                mode: self._rows(info["final_" + mode]).copy(),
                "scalars": self._rows(info["final_scalars"]).copy(),
            }
            if not self.mask_in_info:  # an ended row: nothing but wait
                final["action_mask"] = np.broadcast_to(
                    self._terminal_mask, (self.num_envs, self.batch.n_actions)
                ).copy()
            infos["final_obs"] = with_key_masks(final, ended)
            infos["_final_obs"] = ended
            infos["final_info"] = with_key_masks(final_step_info(self.batch, self._seats), ended)
            infos["_final_info"] = ended
        return self._obs(obs), reward, term, trunc, infos

    def render(self):
        """``rgb_array``: a tuple of (H, W, 3) uint8 images, one per match (X's view);
        ``ansi``: the boards as text, one block per match."""
        from .render import board_rgb, boards_ansi

        if self.render_mode == "rgb_array":
            return tuple(
                board_rgb(self.batch.get_match(i).planes(0)) for i in range(self.num_matches)
            )
        if self.render_mode == "ansi":
            return boards_ansi([self.batch.get_match(i) for i in range(self.num_matches)])
        return None

    # -- snapshots ------------------------------------------------------------------------------
    def get_state(self) -> Dict[str, Any]:
        """The batch's snapshot (:meth:`BatchedMatches.get_state`) and the env's own."""
        return {
            "batch": self.batch.get_state(),
            "was_done": self._was_done.copy(),
            "shaping": None if self._shaping is None else self._shaping.last,
        }

    def set_state(self, state: Dict[str, Any]) -> None:
        self.batch.set_state(state["batch"])
        self._was_done[:] = state["was_done"]
        if self._shaping is not None:
            self._shaping.last = None if state["shaping"] is None else state["shaping"].copy()

    def close_extras(self, **kwargs: Any) -> None:
        pass


class BlitzSelfPlayVectorEnv(BlitzVectorEnv):
    """Self-play: ``num_matches`` matches whose two seats are both the agent's, as a
    Gymnasium ``VectorEnv`` of ``num_envs = 2 * num_matches`` rows: row ``2 i`` is X of
    match i, row ``2 i + 1`` is O (the batch's buffers reshaped, no copy inside).
    Actions ``(num_envs,)``, rewards per row (zero-sum within a match), each row's
    observation from its own seat. Every option of :class:`BlitzVectorEnv` but
    ``opponent`` and ``seat``.

    >>> env = BlitzSelfPlayVectorEnv(4, seed=0)
    >>> obs, info = env.reset(seed=0)
    >>> obs["planes"].shape, env.action_masks().shape
    ((8, 12, 6, 6), (8, 73))
    """

    def __init__(self, num_matches: int = 1, **options: Any) -> None:
        reject_self_play_options(options, "both seats are the agent's")
        super().__init__(num_matches, seat="both", **options)
