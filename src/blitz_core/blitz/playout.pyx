# The native playout loop with the random policy (declared in playout.pxd).
#
# The random policy: whenever charged, pick uniformly among the legal actions, listed as
# every legal placement in ascending cell order, then every legal knock-out in ascending
# cell order, with `below(n)` of its own SplitMix64 stream (docs/engine.md). A charged
# player with no legal action waits. tictacblitz.games.blitz.playout mirrors this loop in Python
# over the public API, so the reference model can play the very same matches.

from libc.stdint cimport uint64_t, int32_t, INT32_MAX

from blitz_core.blitz.bitboard cimport popcount, nth_set_bit
from blitz_core.blitz.seeds cimport random_policy_salt
from blitz_core.common.rng cimport rng_below
from blitz_core.blitz.engine cimport (
    MatchState, RulesC, DEFAULT_STREAM, state_new_match, state_next_round, state_next_timed_t,
    state_advance_to,
    state_act, state_act_both, state_charge_full, state_charge_ready_t, state_legal_mask, ACT_PLACE,
    ACT_KNOCKOUT, ACCEPTED,
)
from blitz_core.blitz.match cimport Match, fill_rules, default_rules

import numpy as np

from blitz_core.blitz.match import check_stream_layout


cdef uint64_t SALT = random_policy_salt()      # seeds.pxd
POLICY_SEED_SALT = SALT
"""The random policy's stream is seeded with ``seed ^ POLICY_SEED_SALT``."""


cdef bint random_action(const MatchState* s, const RulesC* r, int player, uint64_t* rng,
                        int* kind, int* cell) noexcept nogil:
    """Uniform over the legal actions; False (and no draw) when there is none."""
    if not state_charge_full(s, player):       # half the calls: not charged, nothing to do
        return False
    cdef uint64_t places = state_legal_mask(s, r, player, ACT_PLACE)
    cdef uint64_t knockouts = state_legal_mask(s, r, player, ACT_KNOCKOUT)
    cdef int n_places = popcount(places)
    cdef int n = n_places + popcount(knockouts)
    cdef uint64_t k
    if n == 0:
        return False
    k = rng_below(rng, <uint64_t>n)
    if k < <uint64_t>n_places:
        kind[0] = ACT_PLACE
        cell[0] = nth_set_bit(places, k)
    else:
        kind[0] = ACT_KNOCKOUT
        cell[0] = nth_set_bit(knockouts, k - n_places)
    return True


cdef inline void forget_ready(ReadyCache* ready) noexcept nogil:
    ready.need[0] = ready.need[1] = -1


cdef inline int32_t charge_ready_t(ReadyCache* ready, const MatchState* s, const RulesC* r,
                                   int p) noexcept nogil:
    """state_charge_ready_t, recomputed only when the refill or the player's speed
    changed since the last answer (a new action, a freeze or haste starting or ending)."""
    if (ready.need[p] != s.charge_need[p] or ready.emptied[p] != s.acted_t[p]
            or ready.frozen_until[p] != s.frozen_until[p]
            or ready.hasted_until[p] != s.hasted_until[p]
            or ready.at[p] < s.t):
        ready.at[p] = state_charge_ready_t(s, r, p)
        ready.need[p] = s.charge_need[p]
        ready.emptied[p] = s.acted_t[p]
        ready.frozen_until[p] = s.frozen_until[p]
        ready.hasted_until[p] = s.hasted_until[p]
    return ready.at[p]


cdef inline void count(PlayoutStats* stats, int reason) noexcept nogil:
    if reason == ACCEPTED:
        stats.accepted += 1
    else:
        stats.rejected += 1


cdef void random_playout(MatchState* s, const RulesC* r, uint64_t* rng, bint whole_match,
                         PlayoutStats* stats) noexcept nogil:
    """Play the current round (or the whole match) out with the random policy."""
    cdef int xk = 0, xc = 0, ok = 0, oc = 0, xr, orr, p
    cdef bint x_acts, o_acts, waiting
    cdef int32_t next_t
    cdef ReadyCache ready
    while True:
        forget_ready(&ready)
        while not s.round_over:
            x_acts = random_action(s, r, 0, rng, &xk, &xc)
            o_acts = random_action(s, r, 1, rng, &ok, &oc)
            if x_acts and o_acts:
                state_act_both(s, r, xk, xc, ok, oc, &xr, &orr, NULL)
                count(stats, xr)
                count(stats, orr)
            elif x_acts:
                count(stats, state_act(s, r, 0, xk, xc, NULL))
            elif o_acts:
                count(stats, state_act(s, r, 1, ok, oc, NULL))
            if s.round_over:
                break
            # The next decision: a charge filling; and while a player is charged but had
            # nothing legal to do, the next timed event (R2), which may change that. A
            # timed ms where nobody is charged needs no decision (advance_to still runs
            # it): nobody could act there. Never this ms.
            next_t = INT32_MAX
            waiting = False
            for p in range(2):
                if state_charge_full(s, p):
                    waiting = True
                else:
                    next_t = min(next_t, charge_ready_t(&ready, s, r, p))
            if waiting:
                next_t = min(next_t, state_next_timed_t(s, r))
            if next_t <= s.t:
                next_t = s.t + 1
            state_advance_to(s, r, next_t, NULL)
        stats.rounds += 1
        if s.match_over or not whole_match:
            return
        state_next_round(s, r, NULL)


def random_matches(rules=None, seeds=None, *, int n=0, bint random_powerups=True,
                   int stream=DEFAULT_STREAM):
    """Play whole matches between two random players in the native loop.

    ``seeds`` (an array of ints) or ``n`` (seeds 0..n-1) name the matches; match ``i``
    uses its seed for the match stream (R23) and ``seed ^ POLICY_SEED_SALT`` for the
    players. Returns a dict of NumPy arrays: ``winner`` (0 X, 1 O, 2 draw),
    ``x_rounds``, ``o_rounds``, ``rounds``, and totals ``accepted`` / ``rejected``.
    """
    cdef RulesC rc
    cdef MatchState st
    cdef PlayoutStats stats
    cdef uint64_t rng
    check_stream_layout(stream)
    if rules is None:
        rules = default_rules()
    fill_rules(&rc, rules)
    if seeds is None:
        if n < 0:
            raise ValueError(f"n must be >= 0, not {n}")
        seeds = np.arange(n, dtype=np.uint64)
    cdef const uint64_t[::1] seed_view = np.ascontiguousarray(seeds, dtype=np.uint64)
    cdef Py_ssize_t i, count_ = seed_view.shape[0]
    winner = np.empty(count_, dtype=np.int8)
    x_rounds = np.empty(count_, dtype=np.int32)   # max_rounds may be large (R22)
    o_rounds = np.empty(count_, dtype=np.int32)
    rounds = np.empty(count_, dtype=np.int32)
    cdef signed char[::1] w = winner
    cdef int32_t[::1] xr = x_rounds
    cdef int32_t[::1] orr = o_rounds
    cdef int32_t[::1] rr = rounds
    stats.accepted = stats.rejected = stats.rounds = 0
    with nogil:
        for i in range(count_):
            state_new_match(&st, &rc, seed_view[i], random_powerups, 0, 0, stream, NULL)
            rng = seed_view[i] ^ SALT
            random_playout(&st, &rc, &rng, True, &stats)
            w[i] = st.match_result
            xr[i] = st.round_wins[0]
            orr[i] = st.round_wins[1]
            rr[i] = st.round
    return {"winner": winner, "x_rounds": x_rounds, "o_rounds": o_rounds, "rounds": rounds,
            "accepted": stats.accepted, "rejected": stats.rejected}


def play_random(Match match, seed, *, bint whole_match=True):
    """Play `match` on with two random players in the native loop (no events kept).

    The same seed plays the same match as tictacblitz.games.blitz.playout.play_random."""
    cdef uint64_t rng = (<uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)) ^ SALT
    cdef PlayoutStats stats
    stats.accepted = stats.rejected = stats.rounds = 0
    while True:
        with nogil:
            random_playout(&match.st, &match.rc, &rng, False, &stats)
        match._after_call()          # one round at a time: the match keeps its history
        if match.st.match_over or not whole_match:
            break
        with nogil:
            state_next_round(&match.st, &match.rc, NULL)
    return {"accepted": stats.accepted, "rejected": stats.rejected}
