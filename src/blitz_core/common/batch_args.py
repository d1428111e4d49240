"""The boundary checks every game's batched stepper (``<game>/batch.pyx``) makes before
its ``nogil`` loop: arrays of the right type and length, indices and actions in range.
Bad input is refused here with a ValueError naming the value, so the loops can run
unchecked (no Cython bounds check, no wraparound)."""

from __future__ import annotations

import os
from typing import Any, Dict, Sequence, Tuple

import numpy as np

from .seed_check import check_seed

__all__ = [
    "env_indices",
    "integers",
    "joint_args",
    "reset_args",
    "restore_state",
    "seed_array",
    "snapshot_state",
    "step_args",
    "usable_cores",
]


def integers(values: Any, what: str, dtype: Any) -> np.ndarray:
    """``values`` as a contiguous array of ``dtype``. :raises ValueError: naming ``what``
    for values that are not integers (a float or a bool array is not cast silently)."""
    arr = np.asarray(values)
    if arr.size and arr.dtype.kind not in "iu":
        raise ValueError(f"{what} must be integers, not {arr.dtype} values")
    if np.dtype(dtype).kind == "u" and arr.dtype.kind == "i" and arr.size and arr.min() < 0:
        first = int(np.flatnonzero(arr.reshape(-1) < 0)[0])
        check_seed(int(arr.reshape(-1)[first]), f"{what}[{first}]")  # raises, naming it
    return np.ascontiguousarray(arr, dtype=dtype)


def seed_array(seeds: Any, n: int) -> np.ndarray:
    """An int or ``n`` integers as ``n`` uint64 seeds (an int s gives s, s+1, ..., as
    Gymnasium does). :raises ValueError: for another shape or a seed outside
    ``[0, 2**64)``, naming it."""
    if isinstance(seeds, (int, np.integer)) and not isinstance(seeds, bool):
        base = check_seed(seeds)
        with np.errstate(over="ignore"):  # env i plays s + i, modulo 2**64
            return np.arange(n, dtype=np.uint64) + np.uint64(base)
    arr = np.asarray(seeds)
    if arr.shape != (n,) or (n and arr.dtype.kind not in "iu"):
        raise ValueError(f"seeds must be an int or {n} integers, not {seeds!r}")
    return integers(arr, "seeds", np.uint64)


def env_indices(num_envs: int, idx: Any) -> np.ndarray:
    """The envs a call acts on as int64 indices: every env when ``idx`` is None.
    :raises ValueError: for an index outside ``0..num_envs-1``, naming it."""
    if idx is None:
        return np.arange(num_envs, dtype=np.int64)
    iv = integers(np.atleast_1d(idx), "env indices", np.int64)
    if iv.ndim != 1:
        raise ValueError(f"env indices must be one list of indices, not shape {iv.shape}")
    bad = iv[(iv < 0) | (iv >= num_envs)]
    if bad.size:
        raise ValueError(f"env index {bad[0]} out of range (0..{num_envs - 1})")
    return iv


def reset_args(num_envs: int, seeds: Any, idx: Any) -> Tuple[np.ndarray, np.ndarray]:
    """``reset(seeds, idx)``'s arguments as (uint64 seeds, int64 env indices): every env
    when ``idx`` is None, else those of ``idx``, one seed each."""
    iv = env_indices(num_envs, idx)
    sv = integers(seeds, "seeds", np.uint64)
    if sv.shape != (iv.shape[0],):
        raise ValueError(f"{iv.shape[0]} envs to reset but {sv.size} seeds")
    return sv, iv


def step_args(
    num_envs: int, actions: Any, reset_seeds: Any, num_actions: int
) -> Tuple[np.ndarray, np.ndarray]:
    """``step(actions, reset_seeds)``'s arguments as (int64 actions in 0..num_actions-1,
    uint64 seeds), one of each per env."""
    av = integers(actions, "actions", np.int64)
    rv = integers(reset_seeds, "reset_seeds", np.uint64)
    if av.shape != (num_envs,) or rv.shape != (num_envs,):
        raise ValueError(f"actions and reset_seeds must have shape ({num_envs},)")
    if num_envs and (av.min() < 0 or av.max() >= num_actions):
        raise ValueError(f"actions must be in 0..{num_actions - 1}")
    return av, rv


def joint_args(
    num_envs: int, x_actions: Any, o_actions: Any, reset_seeds: Any, num_actions: int
) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``step_joint(x_actions, o_actions, reset_seeds)``'s arguments: int64 actions per
    seat, -1 for a seat that does not act, else in 0..num_actions-1, and uint64 seeds
    (zeros when ``reset_seeds`` is None), one of each per env."""
    seats = (integers(x_actions, "x_actions", np.int64), integers(o_actions, "o_actions", np.int64))
    for name, av in zip(("x_actions", "o_actions"), seats, strict=True):
        if av.shape != (num_envs,):
            raise ValueError(f"{name} must have shape ({num_envs},), not {av.shape}")
        if num_envs and (av.min() < -1 or av.max() >= num_actions):
            raise ValueError(f"{name} must be -1 or in 0..{num_actions - 1}")
    if reset_seeds is None:
        rv = np.zeros(num_envs, dtype=np.uint64)
    else:
        rv = integers(reset_seeds, "reset_seeds", np.uint64)
        if rv.shape != (num_envs,):
            raise ValueError(f"reset_seeds must have shape ({num_envs},), not {rv.shape}")
    return seats[0], seats[1], rv


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
