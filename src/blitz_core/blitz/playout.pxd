# Declarations of the native playout loop; implemented in playout.pyx.
#
# A playout drives a MatchState with a policy for each seat, without the GIL: at every
# ms where a player's charge is full, the policy picks an action (or waits), both
# players' choices at one ms go through state_act_both (R3), and time jumps straight to
# the next ms where a charge fills or something timed happens.

from libc.stdint cimport uint64_t, int64_t, int32_t
from blitz_core.blitz.engine cimport MatchState, RulesC

ctypedef struct ReadyCache:       # when each player's charge fills, and what that assumed
    int32_t at[2]
    int64_t need[2]
    int32_t emptied[2]
    int32_t frozen_until[2]
    int32_t hasted_until[2]

ctypedef struct PlayoutStats:
    int64_t accepted              # accepted actions
    int64_t rejected
    int64_t rounds

cdef bint random_action(const MatchState* s, const RulesC* r, int player, uint64_t* rng,
                        int* kind, int* cell) noexcept nogil
cdef void random_playout(MatchState* s, const RulesC* r, uint64_t* rng, bint whole_match,
                         PlayoutStats* stats) noexcept nogil
