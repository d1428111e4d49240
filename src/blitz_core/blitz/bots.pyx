# The native bots (declared in bots.pxd): random, greedy and search policies over a
# MatchState, and a policy-driven match loop, all without the GIL.
#
# Timing is human-like (the bot interface of docs/bots.md): a policy is asked when its
# charge is full, waits `reaction_ms` after the charge filled, then decides on the state
# at that ms. Both seats decide on the same state; two actions at one ms go through
# state_act_both (R3). Time then jumps to the next ms where a charge fills, a reaction
# delay runs out or something timed happens (R2), so nothing is stepped ms by ms.
#
# Greedy is the seed's "Strategy" and "When to Knock Out" as an ordered list of rules
# (RULE_* in bots.pxd); search runs decoupled simultaneous-move rollouts: each
# simulation clones the state (a struct copy), gives it a fresh random stream (the
# future spawns and coins are unknown to a player), applies one candidate action
# together with the opponent's greedy reply at the same ms, and plays greedy vs greedy
# for `horizon_ms`; UCB1 spreads the budget over the candidates.

from libc.stdint cimport uint64_t, int64_t, int32_t, int16_t, int8_t
from libc.string cimport memset
from libc.math cimport sqrt, log, exp, floor
from libc.stdlib cimport free
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from blitz_core.blitz.bitboard cimport Geometry, popcount, lowest, nth_set_bit, timeout_score
from blitz_core.blitz.seeds cimport seat_salt
from blitz_core.common.rng cimport rng_next, rng_below, rng_unit, mix64
from blitz_core.blitz.engine cimport (
    MatchState, RulesC, EventSink, EventC, DEFAULT_STREAM, state_new_match, state_reseed,
    state_next_round, state_next_event_t,
    state_advance_to, state_act, state_act_both, state_charge_full, state_charge_ready_t,
    state_legal_mask, state_oldest, PLAYER_X, PLAYER_O, ACT_PLACE, ACT_KNOCKOUT, ACCEPTED, NO_TIME,
    KIND_BOMB, KIND_FREEZE, KIND_HASTE, KIND_SWAP, EV_PLACED, EV_KNOCKED_OUT, EV_RETIRED,
    EV_POWERUP_CLAIMED, EV_BOMBED, EV_STOLEN, EV_REJECTED,
)
from blitz_core.blitz.match cimport Match, fill_rules, default_rules
from blitz_core.blitz.playout cimport random_action

import numpy as np

from blitz_core.common.seed_check import check_seed  # tictacblitz.games.rng's, tied by a test

from blitz_core.blitz.match import NATIVE_CODES, check_stream_layout


# The policies' streams are seeded with the match seed xor a salt per seat (seeds.pxd).
cdef uint64_t SEAT_SALT_X = seat_salt(0)
cdef uint64_t SEAT_SALT_O = seat_salt(1)
SEAT_SALTS = (SEAT_SALT_X, SEAT_SALT_O)

RULE_NAMES = ("none", "error", "ko_four", "threat", "block", "ko_three", "retire_guard",
              "powerup", "build", "random", "search", "strong")
KIND_CODES = {"random": BOT_RANDOM, "greedy": BOT_GREEDY, "search": BOT_SEARCH,
              "strong": BOT_STRONG}

cdef enum:
    C_DEFAULT_BUDGET = 64         # search: simulations per decision
    C_DEFAULT_HORIZON_MS = 3000   # search: game time a rollout plays
    C_DEFAULT_CANDIDATES = 6      # search: actions compared
cdef double ROLLOUT_ERROR = 0.05  # the rollout policies' error rate (keeps rollouts diverse)
DEFAULT_BUDGET = C_DEFAULT_BUDGET
DEFAULT_HORIZON_MS = C_DEFAULT_HORIZON_MS
DEFAULT_CANDIDATES = C_DEFAULT_CANDIDATES


# -- the parts, by concern (one C module: see each file's head) ------------------------

include "greedy.pxi"
include "strong.pxi"
include "loop.pxi"
include "search.pxi"
include "face.pxi"
include "matches.pxi"
