"""Batched matches for reinforcement learning (the Gymnasium faces: :mod:`.blitz`).

:class:`BatchedMatches` steps N matches together in one native, ``nogil`` call (over
threads with OpenMP), on a fixed decision interval of game time; observations, masks,
rewards and flags are NumPy arrays written in place; every bot preset plays a seat
inside that call. :class:`StateBatch` rolls cloned states on with native bots.
docs/rl.md is the contract: observation layout, action codes, rewards, auto-reset.

>>> import numpy as np
>>> batch = BatchedMatches(8, seed=0)
>>> actions = batch.sample_actions()               # random legal codes, (8, 2)
>>> obs, rewards, terminated, truncated, info = batch.step(actions)
>>> obs["planes"].shape, rewards.shape
((8, 2, 12, 6, 6), (8, 2))
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, Dict, Optional, Sequence, Tuple, Union

import numpy as np

from ...games.base import check_count
from ...games.blitz.encoding import action_code, decode_action
from ...games.blitz.rules import Rules
from ...games.blitz.types import Player
from ...games.rng import check_seed, check_seeds
from ..native.options import autoreset_of

try:
    from gymnasium.vector import AutoresetMode
except ImportError as exc:  # pragma: no cover - the `rl` extra is missing
    raise ImportError(
        "tictacblitz.envs.games.blitz needs gymnasium (pip install 'tictacblitz[rl]')"
    ) from exc

from blitz_core.blitz import rollouts as _native

from ._blitz_buffers import BatchBuffers
from ._blitz_spaces import (
    N_BITS,
    N_PLANES,
    N_SCALARS,
    SCALAR_NAMES,
    observation_space,
    unpack_bits,
)

__all__ = [
    "BatchedMatches",
    "N_PLANES",
    "N_BITS",
    "unpack_bits",
    "N_SCALARS",
    "SCALAR_NAMES",
    "action_code",
    "decode_action",
    "observation_space",
]

_AUTORESET = {
    AutoresetMode.NEXT_STEP: _native.NEXT_STEP,
    AutoresetMode.SAME_STEP: _native.SAME_STEP,
    AutoresetMode.DISABLED: _native.DISABLED,
}
_NATIVE_POLICIES = ("random", "wait")


def as_rules(rules: Union[None, Rules, Dict[str, Any]]) -> Rules:
    """``rules=`` as every face takes it: None (the defaults), a :class:`Rules`, or a
    dict of its fields (``gymnasium.make(..., rules={"size": 4})``).

    :raises ValueError: naming a field that is not one, or a value out of range."""
    if rules is None:
        return Rules()
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, dict):
        return Rules.from_dict(rules)  # names an unknown rule
    raise TypeError(f"rules must be a Rules, a dict of its fields or None, not {rules!r}")


def _resolve_policy(policy: Any) -> Any:
    """A seat's policy → what the native stepper takes (None, "random", "wait", a
    native spec tuple) or a callable (called in Python every step)."""
    if policy is None or policy in _NATIVE_POLICIES:
        return policy
    from ...games.blitz.bots import BotSpec, resolve

    if callable(policy) and not isinstance(policy, (type, BotSpec)):
        return policy

    if isinstance(policy, (str, BotSpec)):
        return resolve(policy).native()  # ValueError lists the presets
    if isinstance(policy, tuple) and len(policy) == 6:
        return policy
    raise TypeError(
        f"a policy is None, a bot name, a BotSpec or a callable "
        f"(obs, mask) -> actions, not {policy!r}"
    )


class BatchedMatches(BatchBuffers):
    """N matches of one rules configuration, stepped together natively (docs/rl.md).

    :param num_envs: N.
    :param rules: a :class:`Rules` or a dict of its fields (default rules if None).
    :param seed: seeds the first :meth:`reset` (done here): env i plays seed + i.
    :param interval_ms: game time per step (default 50 ms).
    :param autoreset_mode: ``AutoresetMode.NEXT_STEP`` (default), ``SAME_STEP`` or
        ``DISABLED`` (or their lower-case names).
    :param episode: ``"match"`` (default: rounds follow each other inside an episode) or
        ``"round"`` (each round is an episode; the match goes on across resets).
    :param round_reward: reward for winning a round (the loser gets minus it).
    :param match_reward: extra reward for winning the match, on its last step.
    :param policies: per seat (X, O), who acts: None (the caller's ``actions``), a bot
        name of ``tictacblitz.games.blitz.bots.PRESETS`` (``random``, ``greedy``,
        ``search``, ``easy``, ``medium``, ``hard``), a ``BotSpec``, ``"wait"`` (all
        native, inside the ``nogil`` step), or a callable ``fn(obs, mask) -> actions``
        called every step with that seat's observation dict (arrays (N, ...)) and legal
        mask (bool (N, n_actions), None when ``masks=False``), returning (N,) codes.
    :param obs: ``"planes"`` (float32 (N, 2, 12, size, size)) or ``"bits"`` (uint64
        (N, 2, 11) bitboards; cheaper, no setting-progress plane).
    :param masks: write the legal-action masks (N, 2, 1 + 2 * cells) every step.
    :param max_steps: truncate an episode after this many steps (None: never).
    :param num_threads: OpenMP threads. None (the default): measured, one thread or every
        usable core, whichever steps faster now (docs/rl.md, Threads); never the
        collapse of every core on a shared machine. Results never depend on it.
    :param observe: the seats whose observation and mask are written, in buffer order:
        ``(0, 1)`` (default, buffers (N, 2, ...)), or one seat, ``(0,)`` or ``(1,)``
        (buffers (N, 1, ...): a learner against a native bot, half the work). A
        callable policy's seat must be observed.
    :raises ValueError: for an option out of range.
    """

    def __init__(
        self,
        num_envs: int,
        *,
        rules: Union[None, Rules, Dict[str, Any]] = None,
        seed: Optional[int] = None,
        interval_ms: int = 50,
        autoreset_mode: Union[str, AutoresetMode] = AutoresetMode.NEXT_STEP,
        episode: str = "match",
        round_reward: float = 1.0,
        match_reward: float = 1.0,
        policies: Sequence[Any] = (None, None),
        obs: str = "planes",
        masks: bool = True,
        max_steps: Optional[int] = None,
        num_threads: Optional[int] = None,
        random_powerups: bool = True,
        observe: Sequence[int] = (0, 1),
    ) -> None:
        check_count(num_envs, "num_envs")
        check_count(num_threads, "num_threads", optional=True)
        if episode not in ("match", "round"):
            raise ValueError(f"episode must be 'match' or 'round', not {episode!r}")
        check_count(max_steps, "max_steps", optional=True)
        if len(policies) != 2:
            raise ValueError(f"policies must give one per seat (X, O), not {policies!r}")
        self.rules = as_rules(rules)
        self._options = dict(  # noqa: C408
            num_envs=num_envs,
            rules=self.rules,
            interval_ms=interval_ms,
            autoreset_mode=autoreset_mode,
            episode=episode,
            round_reward=round_reward,
            match_reward=match_reward,
            obs=obs,
            masks=masks,
            max_steps=max_steps,
            num_threads=num_threads,
            random_powerups=random_powerups,
            observe=tuple(observe),
        )
        self.autoreset_mode = autoreset_of(autoreset_mode)  # the modes every face takes
        self.episode = episode
        self.obs_mode = obs
        self._native = _native.BatchStepper(
            self.rules,
            num_envs,
            interval_ms=interval_ms,
            autoreset=_AUTORESET[self.autoreset_mode],
            round_episodes=episode == "round",
            round_reward=round_reward,
            match_reward=match_reward,
            policies=(None, None),
            obs=obs,
            masks=masks,
            max_steps=max_steps or 0,
            num_threads=num_threads,
            random_powerups=random_powerups,
            observe=tuple(observe),
        )
        self.observe: Tuple[int, ...] = self._native.observe
        self.num_envs = num_envs
        self.n_actions = self._native.n_actions
        self._actions = np.zeros((num_envs, 2), dtype=np.int64)
        self._policies: list = [None, None]
        self._callables: Dict[int, Callable] = {}
        for seat, policy in enumerate(policies):
            self.set_policy(seat, policy)
        self._rng = np.random.default_rng(seed)
        self.reset(seed=seed)

    # -- who plays ------------------------------------------------------------------------
    @property
    def policies(self) -> Tuple[Any, Any]:
        """Per seat, as given: None, a name, a BotSpec or a callable."""
        return (self._policies[0], self._policies[1])

    @property
    def external_seats(self) -> Tuple[int, ...]:
        """The seats whose actions the caller passes to :meth:`step`."""
        return tuple(s for s in (0, 1) if self._policies[s] is None)

    def set_policy(self, seat: Union[int, str, Player], policy: Any) -> None:
        """Who plays ``seat`` from the next step on (see ``policies``). Meant for
        between episodes (a league's next opponent); a native bot's stream is its
        env's seat stream, reseeded from the match seed at every new match."""
        seat = int(Player.parse(seat))
        resolved = _resolve_policy(policy)
        self._callables.pop(seat, None)
        if callable(resolved):
            if seat not in self.observe:
                raise ValueError(
                    f"a callable policy needs its seat observed: seat {seat} is not in "
                    f"observe={self.observe}"
                )
            self._callables[seat] = resolved
            self._native.set_policy(seat, None)  # the native step reads the action buffer
        else:
            self._native.set_policy(seat, resolved)
        self._policies[seat] = policy

    # -- stepping ---------------------------------------------------------------------------
    def reset(
        self,
        seed: Union[None, int, Sequence[int], np.ndarray] = None,
        mask: Optional[np.ndarray] = None,
    ):
        """Envs start a new match. ``seed``: an int s (env i plays seed s + i), one seed
        per env, or None (seeds drawn from the batch's generator). ``mask`` (bool (N,),
        Gymnasium's ``reset_mask``): only those envs; the others keep going.

        Returns ``(observation, info)``: the in-place buffers."""
        if mask is None:
            idx = None
            count = self.num_envs
        else:
            mask = np.asarray(mask)
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
                raise ValueError(
                    f"reset mask must be a bool array of shape ({self.num_envs},), "
                    f"not {mask.dtype} {mask.shape}"
                )
            idx = np.flatnonzero(mask)
            count = len(idx)
        seeds: Any
        if seed is None:
            seeds = self._rng.integers(0, 2**63, size=count, dtype=np.uint64)
        elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            base = check_seed(seed)
            if idx is None:
                self._rng = np.random.default_rng(base)
                seeds = base
            else:
                with np.errstate(over="ignore"):  # env i plays s + i, modulo 2**64
                    seeds = idx.astype(np.uint64) + np.uint64(base)
        else:
            seeds = np.asarray(seed)
            if seeds.shape != (self.num_envs,):
                raise ValueError(f"seeds must be an int or {self.num_envs} integers, not {seed!r}")
            seeds = check_seeds(seeds)
            if idx is not None:
                seeds = seeds[idx]
        if count:
            self._native.reset(seeds, idx)
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
        external = list(self.external_seats)
        if external or self._callables:
            buf = self._actions
            if external:
                if actions is None:
                    raise ValueError("step needs actions for the caller's seats")
                arr = np.asarray(actions)
                if arr.dtype.kind not in "iu":
                    raise TypeError(f"actions must be integers, not {arr.dtype}")
                if len(external) == 1 and arr.shape == (self.num_envs,):
                    buf[:, external[0]] = arr
                elif arr.shape == (self.num_envs, 2):
                    if arr.dtype == np.int64 and arr.flags.c_contiguous and not self._callables:
                        buf = arr
                    else:
                        buf[:] = arr
                else:
                    raise ValueError(
                        f"actions must have shape ({self.num_envs}, 2), not {arr.shape}"
                    )
            for seat, fn in self._callables.items():
                buf[:, seat] = self._call(seat, fn)
            self._native.step(buf)
        else:
            self._native.step(None)
        return (
            self.observation,
            self._native.rewards,
            self._native.terminated,
            self._native.truncated,
            self.info,
        )

    def _call(self, seat: int, fn: Callable) -> np.ndarray:
        row = self.observe.index(seat)
        obs = {k: v[:, row] for k, v in self.observation.items() if k != "action_mask"}
        mask = self._native.masks[:, row] if self._native.masks is not None else None
        out = np.asarray(fn(obs, mask))
        if out.shape != (self.num_envs,) or out.dtype.kind not in "iu":
            raise ValueError(
                f"the callable policy of seat {seat} must return {self.num_envs} "
                f"integer codes, not {out.dtype} {out.shape}"
            )
        return out

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

    # -- snapshots ----------------------------------------------------------------------------
    def get_state(self) -> Dict[str, Any]:
        """A snapshot of the whole batch: every env's match, its random streams (chance,
        both seats' bot streams, auto-reset and sampling), counters, the last step's
        buffers, the seat policies and the batch's seed generator. :meth:`set_state`
        (on this batch or one made with the same options) resumes it identically;
        ``pickle`` does the same through it (a callable policy must be picklable)."""
        return {
            "options": dict(self._options),
            "native": self._native.get_state(),
            "policies": tuple(self._policies),
            "rng": self._rng.bit_generator.state,
        }

    def set_state(self, state: Dict[str, Any]) -> None:
        """Resume a :meth:`get_state` snapshot. :raises ValueError: when the snapshot is
        of a batch with other options (size, rules, observation)."""
        mine, theirs = dict(self._options), dict(state["options"])
        mine.pop("num_threads"), theirs.pop("num_threads")
        theirs.setdefault("observe", (0, 1))  # a snapshot from before the option
        if mine != theirs:
            diff = sorted(k for k in mine if mine[k] != theirs.get(k))
            raise ValueError(f"the snapshot is of a batch with other options: {', '.join(diff)}")
        self._native.set_state(state["native"])
        for seat, policy in enumerate(state["policies"]):
            self.set_policy(seat, policy)
        self._rng.bit_generator.state = state["rng"]

    def __getstate__(self) -> Dict[str, Any]:
        return self.get_state()

    def __setstate__(self, state: Dict[str, Any]) -> None:
        options = dict(state["options"])
        BatchedMatches.__init__(self, options.pop("num_envs"), **options)
        self.set_state(state)


# BlitzVectorEnv's own options: the batch's but NativeVectorEnv's and ``policies``.
BATCH_OPTIONS = frozenset(inspect.signature(BatchedMatches.__init__).parameters) - set(
    "self num_envs rules seed autoreset_mode max_steps num_threads policies".split()
)
