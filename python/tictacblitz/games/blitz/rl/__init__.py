"""Tic Tac Blitz's RL hook: environments over its native batched stepper (docs/rl.md).

``tictacblitz.envs`` serves these for ``game="blitz"`` (``make_env``,
``make_vector_env``, ``parallel_env`` below are the hook it looks for); a game without
such a hook gets the generic protocol environments of ``tictacblitz.envs``.


- :class:`BatchedMatches`: N matches stepped together in one ``nogil`` call, NumPy
  buffers written in place (the fast path).
- :class:`BlitzVectorEnv`: a Gymnasium ``VectorEnv`` over it (one seat vs a bot).
- :class:`BlitzEnv`: one match against a bot (``gymnasium.make("tictacblitz/Blitz-v0")``);
  ``gymnasium.make_vec("tictacblitz/Blitz-v0", num_envs=N,
  vectorization_mode="vector_entry_point")`` gives the native :class:`BlitzVectorEnv`.
- :func:`parallel_env`: the PettingZoo ``ParallelEnv`` (both seats).
- :class:`StateBatch`: clone states into a preallocated batch and roll them forward
  with native bots (search helpers).

Needs the ``rl`` extra (gymnasium; pettingzoo for :func:`parallel_env`).
"""

from __future__ import annotations

from blitz_core.blitz.rollouts import StateBatch

from .batched import (
    N_BITS,
    N_PLANES,
    N_SCALARS,
    SCALAR_NAMES,
    BatchedMatches,
    BlitzVectorEnv,
    action_code,
    decode_action,
    observation_space,
    unpack_bits,
)
from .gym_env import BlitzEnv

__all__ = [
    "BatchedMatches",
    "BlitzEnv",
    "BlitzVectorEnv",
    "N_BITS",
    "N_PLANES",
    "N_SCALARS",
    "SCALAR_NAMES",
    "StateBatch",
    "action_code",
    "decode_action",
    "observation_space",
    "unpack_bits",
    "make_env",
    "make_vector_env",
    "parallel_env",
]

def make_env(**options):
    """The single-agent env (:class:`BlitzEnv`)."""
    return BlitzEnv(**options)


def make_vector_env(num_envs: int = 1, **options):
    """The native vector env (:class:`BlitzVectorEnv`)."""
    return BlitzVectorEnv(num_envs=num_envs, **options)


def parallel_env(**options):
    """The PettingZoo ``ParallelEnv`` (PettingZoo's ``parallel_env`` convention).

    Options: see :class:`tictacblitz.games.blitz.rl.pettingzoo_env.BlitzParallelEnv`."""
    from .pettingzoo_env import BlitzParallelEnv

    return BlitzParallelEnv(**options)
