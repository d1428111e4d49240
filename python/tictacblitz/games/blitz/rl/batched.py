"""Batched matches for reinforcement learning, and a Gymnasium ``VectorEnv`` over them.

:class:`BatchedMatches` steps N matches together in one native, ``nogil`` call (over
threads with OpenMP), on a fixed decision interval of game time; observations, masks,
rewards and flags are NumPy arrays written in place. :class:`BlitzVectorEnv` is the
single-agent Gymnasium face of the same batch (the other seat played by a bot).
docs/rl.md is the contract: observation layout, action codes, rewards, auto-reset.

>>> import numpy as np
>>> batch = BatchedMatches(8, seed=0)
>>> actions = batch.sample_actions()               # random legal codes, (8, 2)
>>> obs, rewards, terminated, truncated, info = batch.step(actions)
>>> obs["planes"].shape, rewards.shape
((8, 2, 12, 6, 6), (8, 2))
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple, Union

import numpy as np

from ..rules import Rules
from ..encoding import action_code, decode_action, num_actions
from ..types import Action, ActionKind, Player

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as exc:  # pragma: no cover - the `rl` extra is missing
    raise ImportError(
        "tictacblitz.games.blitz.rl needs gymnasium (pip install 'tictacblitz[rl]')"
    ) from exc

from blitz_core.blitz import rollouts as _native

__all__ = [
    "BatchedMatches",
    "BlitzVectorEnv",
    "N_PLANES",
    "N_BITS",
    "unpack_bits",
    "N_SCALARS",
    "SCALAR_NAMES",
    "action_code",
    "decode_action",
    "observation_space",
]

N_PLANES: int = _native.PLANES
"""Planes of the ``"planes"`` observation, as ``Match.planes``: 0 own set, 1 own setting,
2 opponent set, 3 opponent setting, 4 craters, 5-8 powerups (bomb, freeze, haste, swap),
9 setting progress, 10 own next to retire, 11 opponent's next to retire (R12)."""

N_BITS: int = _native.BITS
"""Bitboards of the ``"bits"`` observation: planes 0-8, 10 and 11 as uint64 masks."""

SCALAR_NAMES: Tuple[str, ...] = (
    "own_charge", "opp_charge", "own_charge_full", "opp_charge_full",
    "own_frozen", "own_hasted", "opp_frozen", "opp_hasted",
    "clock", "own_round_wins", "opp_round_wins", "round", "own_marks", "opp_marks",
)
N_SCALARS: int = _native.SCALARS
assert len(SCALAR_NAMES) == N_SCALARS


def unpack_bits(bits: np.ndarray, size: int = 6) -> np.ndarray:
    """The ``"bits"`` observation as boolean planes: ``(..., N_BITS)`` uint64 masks →
    ``(..., N_BITS, size, size)``, bit ``row * size + col`` of each mask (R11) at
    ``[row, col]`` (planes 0-8, 10, 11 of :data:`N_PLANES`, in that order)."""
    bits = np.ascontiguousarray(bits, dtype=np.uint64)
    flat = np.unpackbits(bits.view(np.uint8).reshape(bits.shape + (8,)), axis=-1, bitorder="little")
    return flat[..., : size * size].reshape(bits.shape + (size, size)).astype(bool)

_AUTORESET = {
    AutoresetMode.NEXT_STEP: _native.NEXT_STEP,
    AutoresetMode.SAME_STEP: _native.SAME_STEP,
    AutoresetMode.DISABLED: _native.DISABLED,
}
_NATIVE_POLICIES = ("random", "wait")


def observation_space(rules: Rules, obs: str = "planes") -> spaces.Dict:
    """The observation space of one seat of one env."""
    n_actions = num_actions(rules)
    board: spaces.Space
    if obs == "planes":
        board = spaces.Box(0.0, 1.0, (N_PLANES, rules.size, rules.size), np.float32)
    else:
        board = spaces.Box(0, np.iinfo(np.uint64).max, (N_BITS,), np.uint64)
    return spaces.Dict({
        obs: board,
        "scalars": spaces.Box(0.0, 1.0, (N_SCALARS,), np.float32),
        "action_mask": spaces.MultiBinary(n_actions),
    })


def _autoreset(mode) -> int:
    if isinstance(mode, str):
        try:
            mode = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP,
                    "disabled": AutoresetMode.DISABLED}[mode.lower()]
        except KeyError:
            raise ValueError(f"unknown autoreset mode {mode!r}: next_step, same_step or disabled") from None
    if mode not in _AUTORESET:
        raise ValueError(f"unknown autoreset mode {mode!r}")
    return _AUTORESET[mode]


class _PythonBot:
    """A seat played by ``tictacblitz.games.blitz.bots`` bots through the Python API (the slow path):
    one bot per env (a bot times its reactions per match), each asked at every step on a
    ``Match`` that mirrors its env (one object per env, updated in place)."""

    def __init__(self, name: str, seat: int, num_envs: int, seed: int = 0) -> None:
        try:
            from .. import bots
        except ImportError:
            raise ValueError(
                f"unknown opponent {name!r}: the native ones are {list(_NATIVE_POLICIES)} "
                "(tictacblitz.games.blitz.bots is not available)"
            ) from None
        self._make = bots.make_bot
        self.name = name
        self.seat = Player(seat)
        self.reset(np.arange(num_envs, dtype=np.uint64) + np.uint64(seed))

    def reset(self, match_seeds: np.ndarray) -> None:
        """Fresh bots, seeded by their envs' match seeds: a seeded reset replays."""
        self.bots = [self._make(self.name, seed=int(s) % 2**63) for s in match_seeds]
        self.matches: list = [None] * len(match_seeds)

    def actions(self, batch: "BatchedMatches", out: np.ndarray) -> None:
        size = batch.rules.size
        for i, bot in enumerate(self.bots):
            match = self.matches[i]
            if match is None:
                match = self.matches[i] = batch.get_match(i)
            else:
                batch._native.sync_match(i, match)
            out[i, self.seat] = action_code(bot.decide(match, self.seat).action, size)


class BatchedMatches:
    """N matches of one rules configuration, stepped together natively (docs/rl.md).

    :param num_envs: N.
    :param rules: a :class:`Rules` (default rules if None).
    :param seed: seeds the first :meth:`reset` (done here): env i plays seed + i.
    :param interval_ms: game time per step (default 50 ms).
    :param autoreset_mode: ``AutoresetMode.NEXT_STEP`` (default), ``SAME_STEP`` or
        ``DISABLED`` (or their lower-case names).
    :param episode: ``"match"`` (default: rounds follow each other inside an episode) or
        ``"round"`` (each round is an episode; the match goes on across resets).
    :param round_reward: reward for winning a round (the loser gets minus it).
    :param match_reward: extra reward for winning the match, on its last step.
    :param policies: per seat (X, O), who acts: None (the caller's ``actions``),
        ``"random"`` or ``"wait"`` (native), or a ``tictacblitz.games.blitz.bots`` name (Python).
    :param obs: ``"planes"`` (float32 (N, 2, 12, size, size)) or ``"bits"`` (uint64
        (N, 2, 11) bitboards; cheaper, no setting-progress plane).
    :param masks: write the legal-action masks (N, 2, 1 + 2 * cells) every step.
    :param max_steps: truncate an episode after this many steps (None: never).
    :param num_threads: OpenMP threads (default: every core). Results never depend on it.
    :raises ValueError: for an option out of range.
    """

    def __init__(
        self,
        num_envs: int,
        *,
        rules: Optional[Rules] = None,
        seed: Optional[int] = None,
        interval_ms: int = 50,
        autoreset_mode: Union[str, AutoresetMode] = AutoresetMode.NEXT_STEP,
        episode: str = "match",
        round_reward: float = 1.0,
        match_reward: float = 1.0,
        policies: Sequence[Optional[str]] = (None, None),
        obs: str = "planes",
        masks: bool = True,
        max_steps: Optional[int] = None,
        num_threads: Optional[int] = None,
        random_powerups: bool = True,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, not {num_envs!r}")
        if episode not in ("match", "round"):
            raise ValueError(f"episode must be 'match' or 'round', not {episode!r}")
        if max_steps is not None and (not isinstance(max_steps, int) or max_steps < 1):
            raise ValueError(f"max_steps must be a positive integer or None, not {max_steps!r}")
        if len(policies) != 2:
            raise ValueError(f"policies must give one per seat (X, O), not {policies!r}")
        self.rules = rules if rules is not None else Rules()
        native_policies = []
        self._bots = []
        for seat, policy in enumerate(policies):
            if policy is None or policy in _NATIVE_POLICIES:
                native_policies.append(policy)
            else:
                self._bots.append(_PythonBot(policy, seat, num_envs, seed or 0))
                native_policies.append(None)
        self.policies = tuple(policies)
        self._external = [seat for seat, p in enumerate(policies) if p is None]
        self.autoreset_mode = next(k for k, v in _AUTORESET.items() if v == _autoreset(autoreset_mode))
        self.episode = episode
        self.obs_mode = obs
        self._native = _native.BatchStepper(
            self.rules, num_envs, interval_ms=interval_ms, autoreset=_autoreset(autoreset_mode),
            round_episodes=episode == "round", round_reward=round_reward,
            match_reward=match_reward, policies=tuple(native_policies), obs=obs, masks=masks,
            max_steps=max_steps or 0, num_threads=num_threads, random_powerups=random_powerups,
        )
        self.num_envs = num_envs
        self.n_actions = self._native.n_actions
        self._actions = np.zeros((num_envs, 2), dtype=np.int64)
        self._rng = np.random.default_rng(seed)
        self.reset(seed=seed)

    # -- the buffers, written in place ------------------------------------------------------
    @property
    def num_threads(self) -> int:
        return self._native.num_threads

    @num_threads.setter
    def num_threads(self, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"num_threads must be a positive integer, not {value!r}")
        self._native.num_threads = value

    @property
    def interval_ms(self) -> int:
        return self._native.interval_ms

    @property
    def planes(self) -> Optional[np.ndarray]:
        return self._native.planes

    @property
    def bits(self) -> Optional[np.ndarray]:
        return self._native.bits

    @property
    def scalars(self) -> np.ndarray:
        return self._native.scalars

    @property
    def masks(self) -> Optional[np.ndarray]:
        return self._native.masks

    @property
    def rewards(self) -> np.ndarray:
        return self._native.rewards

    @property
    def terminated(self) -> np.ndarray:
        return self._native.terminated

    @property
    def truncated(self) -> np.ndarray:
        return self._native.truncated

    @property
    def observation(self) -> Dict[str, np.ndarray]:
        """The in-place buffers, by name: ``planes`` or ``bits``, ``scalars``,
        ``action_mask`` (if masks are on). Indexed [env, seat, ...]."""
        out = {self.obs_mode: getattr(self._native, self.obs_mode), "scalars": self._native.scalars}
        if self._native.masks is not None:
            out["action_mask"] = self._native.masks
        return out

    @property
    def info(self) -> Dict[str, np.ndarray]:
        """The in-place per-step info: ``round_result`` / ``match_result`` (0 X, 1 O,
        2 draw, -1 none ended this step), ``reasons`` (N, 2: -1 no action, 0 accepted,
        else the R7 rejection code); with SAME_STEP also ``final_ended`` and the final
        observation buffers (``final_planes``/``final_bits``, ``final_scalars``)."""
        n = self._native
        out = {"round_result": n.round_result, "match_result": n.match_result, "reasons": n.reasons}
        if n.final_ended is not None:
            out["final_ended"] = n.final_ended
            out["final_" + self.obs_mode] = getattr(n, "final_" + self.obs_mode)
            out["final_scalars"] = n.final_scalars
        return out

    @property
    def state_bytes(self) -> int:
        """Native bytes per env besides the observation buffers."""
        return self._native.state_bytes

    # -- stepping ---------------------------------------------------------------------------
    def reset(self, seed: Union[None, int, Sequence[int], np.ndarray] = None):
        """Every env starts a new match. ``seed``: an int s (env i plays seed s + i), one
        seed per env, or None (seeds drawn from the batch's generator).

        Returns ``(observation, info)``: the in-place buffers."""
        if seed is None:
            seeds = self._rng.integers(0, 2**63, size=self.num_envs, dtype=np.uint64)
        else:
            if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
                self._rng = np.random.default_rng(int(seed))
            seeds = seed
        self._native.reset(seeds)
        if self._bots:
            match_seeds = self._native.info_arrays()["match_seed"]
            for bot in self._bots:
                bot.reset(match_seeds)
        return self.observation, self.info

    def step(self, actions: Optional[np.ndarray] = None):
        """One decision step of every env: actions at the current ms (R3 when both act),
        then ``interval_ms`` of game time.

        :param actions: integer codes, shape (N, 2) (or (N,) when only one seat is the
            caller's); 0 wait, ``1 + cell`` place, ``1 + cells + cell`` knock out.
        :returns: ``(observation, rewards (N, 2), terminated (N,), truncated (N,), info)``,
            every array a buffer that the next call overwrites.
        :raises ValueError: for a wrong shape or an out-of-range code (no env changes).
        :raises TypeError: for a non-integer array.
        """
        if self._external or self._bots:
            buf = self._actions
            if self._external:
                if actions is None:
                    raise ValueError("step needs actions for the caller's seats")
                arr = np.asarray(actions)
                if arr.dtype.kind not in "iu":
                    raise TypeError(f"actions must be integers, not {arr.dtype}")
                if len(self._external) == 1 and arr.shape == (self.num_envs,):
                    buf[:, self._external[0]] = arr
                elif arr.shape == (self.num_envs, 2):
                    if arr.dtype == np.int64 and arr.flags.c_contiguous and not self._bots:
                        buf = arr
                    else:
                        buf[:] = arr
                else:
                    raise ValueError(f"actions must have shape ({self.num_envs}, 2), not {arr.shape}")
            if self._bots:
                if buf is not self._actions:
                    self._actions[:] = buf
                    buf = self._actions
                for bot in self._bots:
                    buf[:, bot.seat] = 0
                    bot.actions(self, buf)
            self._native.step(buf)
        else:
            self._native.step(None)
        return self.observation, self._native.rewards, self._native.terminated, self._native.truncated, self.info

    def sample_actions(self, out: Optional[np.ndarray] = None) -> np.ndarray:
        """Uniformly random legal action codes (N, 2), natively, from each env's stream."""
        return self._native.sample_actions(out)

    def rejections(self) -> np.ndarray:
        """R7 rejections per env and seat since the last reset (int64 (N, 2))."""
        return self._native.rejections()

    def state_info(self) -> Dict[str, np.ndarray]:
        """Per env: ``round``, ``t``, ``round_wins`` (N, 2), ``match_seed``, ``steps``."""
        return self._native.info_arrays()

    def get_match(self, i: int):
        """A :class:`tictacblitz.Match` holding a copy of env i's state (no round history)."""
        return self._native.get_match(i)

    def set_match(self, i: int, match) -> None:
        """Env i continues from a copy of ``match``'s state."""
        self._native.set_match(i, match)


def _seat(seat: Union[str, int, Player]) -> int:
    return int(Player.parse(seat))


class BlitzVectorEnv(VectorEnv):
    """A Gymnasium ``VectorEnv`` of ``num_envs`` single-agent matches on the native batch.

    The agent plays ``seat`` (X by default) against ``opponent`` (``"random"``: the
    native random policy; ``"wait"``; or a ``tictacblitz.games.blitz.bots`` name). Observations are
    the agent seat's (``planes``, ``scalars``, ``action_mask``), rewards the agent's.
    ``metadata["autoreset_mode"]`` says the mode (NEXT_STEP by default). ``copy=False``
    returns the batch's in-place buffers instead of copies.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1,
        *,
        opponent: str = "random",
        seat: Union[str, int, Player] = "X",
        copy: bool = True,
        **options: Any,
    ) -> None:
        self._seat = _seat(seat)
        policies = [None, None]
        policies[1 - self._seat] = opponent
        options.setdefault("autoreset_mode", AutoresetMode.NEXT_STEP)
        self.batch = BatchedMatches(num_envs, policies=policies, **options)
        self.metadata = dict(self.metadata, autoreset_mode=self.batch.autoreset_mode)
        self.num_envs = num_envs
        self.copy = copy
        self.single_observation_space = observation_space(self.batch.rules, self.batch.obs_mode)
        self.single_action_space = spaces.Discrete(self.batch.n_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._terminal_mask = np.zeros(self.batch.n_actions, dtype=np.int8)
        self._terminal_mask[0] = 1

    def _obs(self, source: Dict[str, np.ndarray]) -> Dict[str, np.ndarray]:
        s = self._seat
        out = {k: v[:, s] for k, v in source.items()}
        if "action_mask" in out:
            out["action_mask"] = out["action_mask"].view(np.int8)
        if self.copy:
            out = {k: v.copy() for k, v in out.items()}
        return out

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        obs, _ = self.batch.reset(seed=seed)
        return self._obs(obs), {}

    def step(self, actions):
        obs, rewards, terminated, truncated, info = self.batch.step(actions)
        s = self._seat
        infos: Dict[str, Any] = {
            "round_result": info["round_result"].copy(),
            "match_result": info["match_result"].copy(),
            "rejected": info["reasons"][:, s] > 0,
        }
        if "final_ended" in info and info["final_ended"].any():
            ended = info["final_ended"].copy()
            final = np.full(self.num_envs, None, dtype=object)
            mode = self.batch.obs_mode
            for i in np.flatnonzero(ended):
                final[i] = {
                    mode: info["final_" + mode][i, s].copy(),
                    "scalars": info["final_scalars"][i, s].copy(),
                    "action_mask": self._terminal_mask.copy(),   # nothing but wait
                }
            infos["final_obs"] = final
            infos["_final_obs"] = ended
            infos["final_info"] = {}
            infos["_final_info"] = ended
        return (self._obs(obs), rewards[:, s].astype(np.float64), terminated.copy(),
                truncated.copy(), infos)

    def close_extras(self, **kwargs: Any) -> None:
        pass
