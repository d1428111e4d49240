"""The boundary checks every game's batched stepper (``<game>/batch.pyx``) makes before
its ``nogil`` loop: arrays of the right type and length, indices and actions in range.
Bad input is refused here with a ValueError naming the value, so the loops can run
unchecked (no Cython bounds check, no wraparound)."""

from __future__ import annotations

import os
from typing import Any, Dict, Sequence, Tuple

import numpy as np

__all__ = ["reset_args", "step_args", "usable_cores", "snapshot_state", "restore_state"]


def reset_args(num_envs: int, seeds: Any, idx: Any) -> Tuple[np.ndarray, np.ndarray]:
    """``reset(seeds, idx)``'s arguments as (uint64 seeds, int64 env indices): every env
    when ``idx`` is None, else those of ``idx``, one seed each."""
    sv = np.ascontiguousarray(seeds, dtype=np.uint64)
    iv = (
        np.arange(num_envs, dtype=np.int64)
        if idx is None
        else np.ascontiguousarray(idx, dtype=np.int64)
    )
    if sv.shape != (iv.shape[0],) or iv.ndim != 1:
        raise ValueError(f"{iv.shape[0]} envs to reset but {sv.shape[0]} seeds")
    bad = iv[(iv < 0) | (iv >= num_envs)]
    if bad.size:
        raise ValueError(f"env index {bad[0]} out of range")
    return sv, iv


def step_args(
    num_envs: int, actions: Any, reset_seeds: Any, num_actions: int
) -> Tuple[np.ndarray, np.ndarray]:
    """``step(actions, reset_seeds)``'s arguments as (int64 actions in 0..num_actions-1,
    uint64 seeds), one of each per env."""
    av = np.ascontiguousarray(actions, dtype=np.int64)
    rv = np.ascontiguousarray(reset_seeds, dtype=np.uint64)
    if av.shape != (num_envs,) or rv.shape != (num_envs,):
        raise ValueError(f"actions and reset_seeds must have shape ({num_envs},)")
    if num_envs and (av.min() < 0 or av.max() >= num_actions):
        raise ValueError(f"actions must be in 0..{num_actions - 1}")
    return av, rv


def usable_cores() -> int:
    """Every core this process may run on (its CPU affinity; the CPU count elsewhere):
    the steppers' many-thread arm and the lab's default worker count."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def snapshot_state(batch: Any, envs: bytes, buffers: Sequence[str]) -> Dict[str, Any]:
    """A batch's ``get_state()``: its envs' bytes, a copy of each of its ``buffers`` (the
    last step's outputs) and its ``autoreset`` flag."""
    copies = {name: getattr(batch, name).copy() for name in buffers}
    return {"envs": bytes(envs), "buffers": copies, "autoreset": bool(batch.autoreset)}


def restore_state(batch: Any, state: Dict[str, Any], env_bytes: int, buffers: Sequence[str]) -> Any:
    """A batch's ``set_state()`` but the copy of the envs, which the caller makes from
    the bytes returned (``env_bytes`` long: ``num_envs * sizeof(Env)``).

    :raises ValueError: for a snapshot of a batch of another size.
    """
    raw = state["envs"]
    if len(raw) != env_bytes:
        raise ValueError(f"the snapshot is of a batch of another size, not {batch.num_envs}")
    for name in buffers:
        getattr(batch, name)[...] = state["buffers"][name]
    batch.autoreset = state["autoreset"]
    return raw
