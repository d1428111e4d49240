# cython: language_level=3
"""Rift & Grid's native core: G1-G17 on 9-bit sector masks, without the GIL.

The layout is drawn in engine.pxd. Everything that steps a game is a ``noexcept nogil``
function of a ``RiftState`` and a ``RiftRulesC`` (rules.pxi over tables.pxi; the
policies in policies.pxi and search.pxi); ``Core`` is the Python face of one game and
checks every argument before the unchecked functions see it (core.pxi);
``play_matches`` plays whole games between the native policies in one loop
(matches.pxi). The parts are included into this one C module (issue 27, item 4).

Imports nothing from ``tictacblitz``: the rules come as the tuple of numbers of
``RiftRules.native_params()`` (RULES_SCALARS, then the catalogue's length and codes, then the
points of every objective code).
"""

from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int32_t, int16_t, int8_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free
from libc.math cimport sqrtf, logf, expf

from blitz_core.common.bits cimport popcount, lowest, nth_set_bit
from blitz_core.common.rng cimport rng_next, rng_below, rng_unit

import numpy as np

from blitz_core.common.seed_check import check_seed  # tictacblitz.games.rng's, tied by a test

RULES_SCALARS = (
    "sector_win_points", "sector_tie_points", "meta_line_points", "objectives_per_player",
    "energy_start", "energy_max", "energy_idle_gain", "energy_sector_gain",
    "shield_cost", "shield_cooldown", "swap_cost", "swap_cooldown",
    "reveal_cost", "reveal_cooldown",
)
"""The order of the scalar rule numbers ``Core`` and ``play_matches`` take."""

STATE_BYTES = sizeof(RiftState)
NUM_ACTIONS = N_ACTIONS

NATIVE_CODES = {
    "Ability": {"NONE": AB_NONE, "SHIELD": AB_SHIELD, "SWAP": AB_SWAP, "REVEAL": AB_REVEAL},
    "Reason": {
        "GAME_OVER": R_GAME_OVER, "SECTOR_DECIDED": R_SECTOR_DECIDED,
        "WRONG_SECTOR": R_WRONG_SECTOR, "NOT_EMPTY": R_NOT_EMPTY, "NO_ENERGY": R_NO_ENERGY,
        "COOLING_DOWN": R_COOLING_DOWN, "NOTHING_TO_REVEAL": R_NOTHING_TO_REVEAL,
    },
    "Objective": {
        "centre": OBJ_CENTRE, "diagonal_win": OBJ_DIAGONAL_WIN, "shield_win": OBJ_SHIELD_WIN,
        "full_energy": OBJ_FULL_ENERGY, "centre_cells": OBJ_CENTRE_CELLS,
        "two_corners": OBJ_TWO_CORNERS, "two_edges": OBJ_TWO_EDGES,
        "four_sectors": OBJ_FOUR_SECTORS, "clean_sweep": OBJ_CLEAN_SWEEP,
        "swap_win": OBJ_SWAP_WIN, "opposite_corners": OBJ_OPPOSITE_CORNERS,
        "meta_line": OBJ_META_LINE,
    },
}
"""The C enum codes (engine.pxd) by vocabulary and member: tictacblitz.games.rift checks
them against its types when it is imported."""
MAX_SIMULATIONS = 1_000_000
"""The largest search budget a policy takes (simulations a decision)."""
SEAT_SALTS = (0x243F6A8885A308D3, 0x13198A2E03707344)
"""Batch game i's X policy stream is SplitMix64 seeded with ``seeds[i] ^ SEAT_SALTS[0]``,
O's with ``seeds[i] ^ SEAT_SALTS[1]``: what a bot made with ``seed = seeds[i] ^ salt``
starts with, so a batch game equals the same game driven from Python."""


# -- the parts, by concern (one C module: see each file's head) ------------------------

include "tables.pxi"
include "rules.pxi"
include "policies.pxi"
include "search.pxi"
include "core.pxi"
include "matches.pxi"
