"""Tic Tac Blitz's RL observation layout (docs/rl.md): the planes, the bitboards, the
scalars and one seat's observation space, for :mod:`tictacblitz.envs.games.blitz`."""

from __future__ import annotations

from typing import Dict, Tuple

import numpy as np
from gymnasium import spaces

from blitz_core.blitz import rollouts as _native

from ...games.blitz.encoding import num_actions
from ...games.blitz.rules import Rules

__all__ = ["N_BITS", "N_PLANES", "N_SCALARS", "SCALAR_NAMES", "observation_space", "unpack_bits"]


N_PLANES: int = _native.PLANES
"""Planes of the ``"planes"`` observation, as ``Match.planes``: 0 own set, 1 own setting,
2 opponent set, 3 opponent setting, 4 craters, 5-8 powerups (bomb, freeze, haste, swap),
9 setting progress, 10 own next to retire, 11 opponent's next to retire (R12)."""

N_BITS: int = _native.BITS
"""Bitboards of the ``"bits"`` observation: planes 0-8, 10 and 11 as uint64 masks."""

SCALAR_NAMES: Tuple[str, ...] = (
    "own_charge",
    "opp_charge",
    "own_charge_full",
    "opp_charge_full",
    "own_frozen",
    "own_hasted",
    "opp_frozen",
    "opp_hasted",
    "clock",
    "own_round_wins",
    "opp_round_wins",
    "round",
    "own_marks",
    "opp_marks",
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


def observation_space(rules: Rules, obs: str = "planes", mask: bool = True) -> spaces.Dict:
    """The observation space of one seat of one env (``mask=False``: without
    ``action_mask``, when the mask travels in the info)."""
    n_actions = num_actions(rules)
    board: spaces.Space
    if obs == "planes":
        board = spaces.Box(0.0, 1.0, (N_PLANES, rules.size, rules.size), np.float32)
    else:
        board = spaces.Box(0, np.iinfo(np.uint64).max, (N_BITS,), np.uint64)
    fields: Dict[str, spaces.Space] = {
        obs: board,
        "scalars": spaces.Box(0.0, 1.0, (N_SCALARS,), np.float32),
    }
    if mask:
        # One mask space on every game's faces (issue 28): int8 0/1, as the other games'
        fields["action_mask"] = spaces.Box(0, 1, (n_actions,), np.int8)
    return spaces.Dict(fields)
