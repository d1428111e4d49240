"""Reinforcement-learning environments over the native batched stepper (docs/rl.md).

- :class:`BatchedMatches`: N matches stepped together in one ``nogil`` call, NumPy
  buffers written in place (the fast path).
- :class:`BlitzVectorEnv`: a Gymnasium ``VectorEnv`` over it (one seat vs a bot).
- ``gymnasium.make("tictacblitz/Blitz-v0")``: one match against a bot
  (:class:`BlitzEnv`); ``gymnasium.make_vec("tictacblitz/Blitz-v0", num_envs=N,
  vectorization_mode="vector_entry_point")`` gives the native :class:`BlitzVectorEnv`.
- :func:`parallel_env`: the PettingZoo ``ParallelEnv`` (both seats).
- :class:`StateBatch`: clone states into a preallocated batch and roll them forward
  with native bots (search helpers).

Needs the ``rl`` extra (gymnasium; pettingzoo for :func:`parallel_env`).
"""

from __future__ import annotations

import gymnasium

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
    "parallel_env",
]

ENV_ID = "tictacblitz/Blitz-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point="tictacblitz.envs.gym_env:BlitzEnv",
        vector_entry_point="tictacblitz.envs.batched:BlitzVectorEnv",
    )


def parallel_env(**options):
    """The PettingZoo ``ParallelEnv`` (PettingZoo's ``parallel_env`` convention).

    Options: see :class:`tictacblitz.envs.pettingzoo_env.BlitzParallelEnv`."""
    from .pettingzoo_env import BlitzParallelEnv

    return BlitzParallelEnv(**options)
