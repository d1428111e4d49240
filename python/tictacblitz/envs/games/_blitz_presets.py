"""Tic Tac Blitz's RL hook: environments over its native batched stepper (docs/rl.md).

``tictacblitz.envs`` serves these for ``game="blitz"`` (``make_env``,
``make_vector_env``, ``parallel_env`` below are the hook it looks for); a game without
such a hook gets the generic protocol environments of ``tictacblitz.envs``.


- :class:`BatchedMatches`: N matches stepped together in one ``nogil`` call, NumPy
  buffers written in place (the fast path); every bot preset (``random``, ``greedy``,
  ``search``, ``easy``, ``medium``, ``hard``) or ``BotSpec`` plays a seat natively
  inside that call, a callable ``fn(obs, mask) -> actions`` in Python;
- :class:`BlitzVectorEnv`: a Gymnasium ``VectorEnv`` over it (one seat vs a bot, or a
  callable; ``set_opponent`` between episodes);
- :class:`BlitzSelfPlayVectorEnv`: both seats of M matches are the learner's (2 M rows);
- :class:`LearnerBatch`: the learner's lean path against a native bot (its seat's
  buffers in place, torch dtypes, zero-copy tensors); :class:`LearnerPool`: send/recv;
- :class:`BlitzEnv`: one match against a bot (``gymnasium.make("tictacblitz/Blitz-v0")``);
  ``gymnasium.make_vec("tictacblitz/Blitz-v0", num_envs=N,
  vectorization_mode="vector_entry_point")`` gives the native :class:`BlitzVectorEnv`;
- :func:`parallel_env`: the PettingZoo ``ParallelEnv`` (both seats);
- :data:`PRESETS`: short rounds, smaller boards, per-round episodes;
- :class:`StateBatch`: clone states into a preallocated batch and roll them forward
  with native bots (search helpers).

Every face has ``action_masks()``, ``mask_in_info``, the same info keys, ``rgb_array``
rendering and snapshots (``get_state``/``set_state``, pickling); docs/rl.md.

Needs the ``rl`` extra (gymnasium; pettingzoo for :func:`parallel_env`).
"""

from __future__ import annotations

from typing import Any, Dict, Optional

from ..rules import Rules
from .batched import (
    N_BITS,
    N_PLANES,
    N_SCALARS,
    SCALAR_NAMES,
    BatchedMatches,
    StateBatch,
    action_code,
    decode_action,
    observation_space,
    unpack_bits,
)
from .gym_env import BlitzEnv
from .learner import LearnerBatch, LearnerPool
from .render import board_rgb
from .vector_env import BlitzSelfPlayVectorEnv, BlitzVectorEnv, marks_potential

__all__ = [
    "BatchedMatches",
    "BlitzEnv",
    "BlitzSelfPlayVectorEnv",
    "BlitzVectorEnv",
    "LearnerBatch",
    "LearnerPool",
    "N_BITS",
    "N_PLANES",
    "N_SCALARS",
    "PRESETS",
    "SCALAR_NAMES",
    "StateBatch",
    "action_code",
    "board_rgb",
    "decode_action",
    "marks_potential",
    "observation_space",
    "preset_options",
    "unpack_bits",
    "make_env",
    "make_vector_env",
    "make_self_play_env",
    "parallel_env",
]

PRESETS: Dict[str, Dict[str, Any]] = {
    "standard": {},
    "short": {"rules": {"round_ms": 10_000, "rounds_to_win": 1, "max_rounds": 1}},
    "small": {"rules": {"size": 4, "line_length": 3}},
    "rounds": {"episode": "round"},
    "tiny": {
        "rules": {
            "size": 4,
            "line_length": 3,
            "round_ms": 10_000,
            "rounds_to_win": 1,
            "max_rounds": 1,
        }
    },
}
"""Episodes a learner can start on (docs/rl.md), each a set of env options:

- ``standard``: the full game (6x6, lines of 4, 45 s rounds, first to 3 rounds);
- ``short``: one 10 s round is the whole match (at most 200 steps of 50 ms);
- ``small``: a 4x4 board with lines of 3 (the rest unchanged);
- ``rounds``: the full game, but each round is an episode (``episode="round"``);
- ``tiny``: ``small`` and ``short`` together: one 10 s round on 4x4, lines of 3.
"""


def preset_options(preset: Optional[str], options: Dict[str, Any]) -> Dict[str, Any]:
    """The options of ``preset`` (:data:`PRESETS`) under ``options`` (which win; a
    ``rules`` option replaces the preset's rules)."""
    if preset is None:
        return dict(options)
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}: expected one of {', '.join(PRESETS)}")
    out = dict(PRESETS[preset])
    if "rules" in out:
        out["rules"] = Rules(**out["rules"])
    out.update(options)
    return out


def make_env(preset: Optional[str] = None, **options):
    """The single-agent env (:class:`BlitzEnv`); ``preset``: see :data:`PRESETS`."""
    return BlitzEnv(**preset_options(preset, options))


def make_vector_env(num_envs: int = 1, preset: Optional[str] = None, **options):
    """The native vector env (:class:`BlitzVectorEnv`); ``opponent=None`` gives the
    self-play env (:class:`BlitzSelfPlayVectorEnv`, ``2 * num_envs`` rows)."""
    options = preset_options(preset, options)
    if "opponent" in options and options["opponent"] is None:
        options.pop("opponent")
        return BlitzSelfPlayVectorEnv(num_envs, **options)
    return BlitzVectorEnv(num_envs=num_envs, **options)


def make_self_play_env(num_matches: int = 1, preset: Optional[str] = None, **options):
    """Both seats are the learner's: :class:`BlitzSelfPlayVectorEnv`."""
    return BlitzSelfPlayVectorEnv(num_matches, **preset_options(preset, options))


def parallel_env(preset: Optional[str] = None, **options):
    """The PettingZoo ``ParallelEnv`` (PettingZoo's ``parallel_env`` convention).

    Options: see :class:`tictacblitz.games.blitz.rl.pettingzoo_env.BlitzParallelEnv`."""
    from .pettingzoo_env import BlitzParallelEnv

    return BlitzParallelEnv(**preset_options(preset, options))
