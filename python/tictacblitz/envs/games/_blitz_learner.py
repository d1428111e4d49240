"""The learner's path at stepper speed (issue 28 item 2): one seat against a native bot.

:class:`LearnerBatch` is the lean face of the native batch for a training loop: the
learner's actions in, and out, into buffers allocated once and written in place by the
``nogil`` step, only the learner seat's observation, mask, reward and flags: no per-step
Python allocation, no copies, no info dict (ask :meth:`LearnerBatch.info` when wanted).
Every buffer has a dtype torch takes (``bits`` as int64, float32 planes and scalars,
bool masks and flags), and :meth:`LearnerBatch.tensors` gives them as torch tensors
sharing that memory (DLPack, zero-copy; torch optional).

:class:`LearnerPool` is the EnvPool-style asynchronous face: ``send(actions)`` starts a
group's step on a worker thread (the step releases the GIL), ``recv()`` waits for the
oldest group; docs/rl.md says when it pays (Speed).

>>> batch = LearnerBatch(4, opponent="easy", seed=0)
>>> obs, rewards, terminated, truncated = batch.step(batch.sample_actions())
>>> obs["bits"].dtype, obs["action_mask"].shape, rewards.dtype
(dtype('int64'), (4, 73), dtype('float32'))
"""

from __future__ import annotations

from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Deque, Dict, List, Optional, Tuple, Union

import numpy as np

from ...games.blitz.types import Player
from ._blitz_batched import BatchedMatches, _resolve_policy

__all__ = ["LearnerBatch", "LearnerPool"]

Buffers = Tuple[Dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray]


def _board(buffer: np.ndarray) -> np.ndarray:
    """The board buffer in a dtype torch takes: uint64 bits viewed as int64 (no copy)."""
    return buffer.view(np.int64) if buffer.dtype == np.uint64 else buffer


def _check_native(opponent: Any) -> None:
    if opponent is None or callable(_resolve_policy(opponent)):
        raise ValueError(
            f"a LearnerBatch opponent is native (a bot name, a BotSpec, 'random' or 'wait'), "
            f"not {opponent!r}; for a callable opponent use BlitzVectorEnv"
        )


class LearnerBatch:
    """``num_envs`` matches, the learner in ``seat`` against a native ``opponent``.

    :param opponent: a bot name, a ``BotSpec``, ``"random"`` or ``"wait"`` (native only:
        a callable opponent needs its own observation, see :class:`BlitzVectorEnv`).
    :param obs: ``"bits"`` (default: int64 (N, 11) bitboards, bit ``cell``; the cheap
        one) or ``"planes"`` (float32 (N, 12, size, size)).
    :param options: the other options of :class:`BatchedMatches` (``rules``, ``seed``,
        ``autoreset_mode``, ``episode``, ``max_steps``, ``num_threads``, ...).

    Buffers (attributes, written in place by :meth:`reset` and :meth:`step`):
    ``obs`` (``bits`` or ``planes``, ``scalars`` float32 (N, 14), ``action_mask`` bool
    (N, n_actions)), ``rewards`` float32 (N,), ``terminated`` / ``truncated`` bool (N,);
    with SAME_STEP auto-reset ``final_obs`` (the observation an episode ended on) and
    ``final_ended`` bool (N,).
    """

    def __init__(
        self,
        num_envs: int,
        *,
        opponent: Any = "easy",
        seat: Union[str, int, Player] = "X",
        obs: str = "bits",
        **options: Any,
    ) -> None:
        _check_native(opponent)
        self.seat = int(Player.parse(seat))
        policies: List[Any] = [None, None]
        policies[1 - self.seat] = opponent
        self.batch = BatchedMatches(
            num_envs, policies=policies, obs=obs, observe=(self.seat,), **options
        )
        self.num_envs = num_envs
        self.n_actions = self.batch.n_actions
        self.obs_mode = obs
        native = self.batch._native
        board = _board(self.batch.buffer(obs))
        self.obs: Dict[str, np.ndarray] = {obs: board[:, 0], "scalars": native.scalars[:, 0]}
        if native.masks is not None:
            self.obs["action_mask"] = native.masks[:, 0]
        self.rewards = np.zeros(num_envs, dtype=np.float32)
        self.terminated: np.ndarray = native.terminated
        self.truncated: np.ndarray = native.truncated
        self.final_obs: Optional[Dict[str, np.ndarray]] = None
        self.final_ended: Optional[np.ndarray] = native.final_ended
        if native.final_ended is not None:
            fboard = _board(self.batch.buffer("final_" + obs))
            fscalars = self.batch.buffer("final_scalars")
            self.final_obs = {obs: fboard[:, 0], "scalars": fscalars[:, 0]}
        self._actions = np.zeros((num_envs, 2), dtype=np.int64)
        self._sampled = np.zeros((num_envs, 2), dtype=np.int64)
        self._seat_rewards = native.rewards[:, self.seat]
        self._step = native.step
        self._out: Buffers = (self.obs, self.rewards, self.terminated, self.truncated)
        self._tensors: Optional[Dict[str, Any]] = None

    def reset(self, seed: Any = None, mask: Optional[np.ndarray] = None) -> Buffers:
        """New matches (``BatchedMatches.reset``: an int seed s gives env i seed s + i)."""
        self.batch.reset(seed=seed, mask=mask)
        np.copyto(self.rewards, self._seat_rewards)
        return self._out

    def step(self, actions: Any) -> Buffers:
        """One step: the learner's (N,) integer codes (NumPy, a list, or a CPU torch
        tensor), the opponent natively, ``interval_ms`` of game time. Returns
        ``(obs, rewards, terminated, truncated)``: the buffers themselves.

        :raises ValueError: for a wrong shape or an out-of-range code (no env changes).
        :raises TypeError: for non-integer actions."""
        arr = np.asarray(actions)
        if arr.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, not {arr.dtype}")
        if arr.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), not {arr.shape}")
        self._actions[:, self.seat] = arr
        self._step(self._actions)
        np.copyto(self.rewards, self._seat_rewards)
        return self._out

    def sample_actions(self) -> np.ndarray:
        """Random legal codes for the learner's seat (each env's own stream): a view,
        overwritten by the next call."""
        return self.batch._native.sample_actions(self._sampled, True)[:, self.seat]

    def action_masks(self) -> np.ndarray:
        """The legal actions now, bool (N, n_actions) (a copy)."""
        return self.obs["action_mask"].copy()

    def set_opponent(self, opponent: Any) -> None:
        """A native opponent from the next step on (between episodes)."""
        _check_native(opponent)
        self.batch.set_policy(1 - self.seat, opponent)

    def info(self) -> Dict[str, np.ndarray]:
        """The last step's info keys of every face (docs/rl.md), allocated on demand."""
        from ._blitz_info import step_info

        return step_info(self.batch, (self.seat,))

    def tensors(self) -> Dict[str, Any]:
        """The buffers as torch tensors sharing their memory (``torch.from_dlpack``):
        ``obs`` keys, ``rewards``, ``terminated``, ``truncated`` (and ``final_*``). Made
        once; every step rewrites them in place. Needs torch."""
        if self._tensors is None:
            import torch

            arrays = dict(self.obs)
            arrays.update(rewards=self.rewards, terminated=self.terminated)
            arrays["truncated"] = self.truncated
            if self.final_obs is not None and self.final_ended is not None:
                arrays.update({"final_" + k: v for k, v in self.final_obs.items()})
                arrays["final_ended"] = self.final_ended
            self._tensors = {k: torch.from_dlpack(v) for k, v in arrays.items()}
        return self._tensors

    @property
    def num_threads(self) -> int:
        return self.batch.num_threads


class LearnerPool:
    """EnvPool-style asynchronous stepping: ``num_groups`` :class:`LearnerBatch` groups of
    ``group_size`` envs; ``send(actions)`` starts the step of the group whose
    observation the caller last received (first ``reset``: group 0 first), ``recv()``
    returns the oldest group's buffers once its step is done, with its index. So the
    learner computes one group's actions while another steps, on another core.

    Group g's envs have seeds ``seed + g * group_size + i``. Don't read a group's
    buffers between its ``send`` and its ``recv``.
    """

    def __init__(
        self, group_size: int, num_groups: int = 2, *, seed: int = 0, **options: Any
    ) -> None:
        if num_groups < 1:
            raise ValueError(f"num_groups must be >= 1, not {num_groups!r}")
        options.setdefault("num_threads", 1)  # one core steps, the other is the learner's
        self.groups = [
            LearnerBatch(group_size, seed=seed + g * group_size, **options)
            for g in range(num_groups)
        ]
        self._pool = ThreadPoolExecutor(max_workers=1)
        self._pending: Deque[Tuple[int, Future]] = deque()
        self._ready: Deque[int] = deque()

    def reset(self, seed: int = 0) -> None:
        """Every group starts new matches; then :meth:`recv` returns them in order."""
        self._drain()
        for g, batch in enumerate(self.groups):
            batch.reset(seed=seed + g * batch.num_envs)
        self._ready = deque(range(len(self.groups)))

    def send(self, actions: Any, group: Optional[int] = None) -> None:
        """Start the step of ``group`` (default: the group last received) with its
        learner's actions; returns at once."""
        g = self._last if group is None else group
        self._pending.append((g, self._pool.submit(self.groups[g].step, actions)))

    def recv(self) -> Tuple[Buffers, int]:
        """The oldest group's ``(obs, rewards, terminated, truncated)`` and its index,
        waiting for its step if needed."""
        if self._ready:
            g = self._ready.popleft()
            out = self.groups[g]._out
        else:
            if not self._pending:
                raise RuntimeError("recv() without a send() (or reset()) to wait for")
            g, fut = self._pending.popleft()
            out = fut.result()
        self._last = g
        return out, g

    def _drain(self) -> None:
        while self._pending:
            self._pending.popleft()[1].result()

    def close(self) -> None:
        self._drain()
        self._pool.shutdown()
