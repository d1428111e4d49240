# Batched stepping and rollouts: many matches advanced together in one nogil call.
#
# Layer: above the rules engine (engine.pxd) and the native random policy (playout.pxd),
# below the Python environments (tictacblitz.envs). Two faces:
#
#   BatchStepper  N matches stepped on a fixed decision interval (an RL batch): actions
#                 per seat in, observations / masks / rewards / flags written in place
#                 into NumPy arrays, with auto-reset. docs/rl.md is its contract.
#   StateBatch    N bare MatchStates for users' own planners: clone a match into slots
#                 (a memcpy each), roll every slot forward with native bots until the
#                 round (or match) ends, read the results as arrays.
#
# Determinism: every env owns its MatchState and its random streams (match stream R23,
# one policy stream per seat, a reset stream for auto-reset seeds), and no env reads
# another's memory, so prange may split the batch over any number of threads and the
# results are identical.

from libc.stdint cimport uint64_t, int64_t, int32_t, uint8_t, int8_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport calloc, free
from cython.parallel cimport prange

from blitz_core.blitz.bitboard cimport popcount, lowest
from blitz_core.blitz.seeds cimport seat_salt, reset_salt, sample_salt
from blitz_core.common.rng cimport rng_next
from blitz_core.common.autothreads cimport (
    AutoThreads, auto_init, auto_threads, auto_record, clock_ns,
)
from blitz_core.blitz.engine cimport (
    MatchState, RulesC, DEFAULT_STREAM, state_new_match, state_next_round, state_next_event_t,
    state_advance_to, state_act, state_act_both, state_charge_full, state_charge_ready_t,
    state_legal_mask, state_oldest, ACT_PLACE, ACT_KNOCKOUT, ACCEPTED, RESULT_X, RESULT_O,
    RESULT_NONE,
)
from blitz_core.blitz.match cimport Match, fill_rules, default_rules
from blitz_core.blitz.playout cimport random_action
from blitz_core.blitz.bots cimport (
    Policy, BotTables, tables_init, policy_from, policy_seed, policy_decide, reaction_at,
    RULE_NONE,
)
from blitz_core.blitz.match import check_stream_layout
from blitz_core.common.batch_args import env_indices, seed_array, usable_cores

import numpy as np


# -- constants shared with tictacblitz.envs ------------------------------------------------
cdef enum:
    N_PLANES = 12                 # the planes of Match.planes (float32 observation)
    N_BITS = 11                   # the bitboard observation: planes 0-8, 10, 11 as masks
    N_SCALARS = 14                # charges, effects, clock, round wins, marks

cdef enum:                        # gymnasium.vector.AutoresetMode
    AUTORESET_NEXT_STEP = 0
    AUTORESET_SAME_STEP = 1
    AUTORESET_DISABLED = 2

cdef enum:                        # who picks a seat's actions
    POLICY_EXTERNAL = 0           # the caller's action array
    POLICY_RANDOM = 1             # the native random policy (playout.pyx)
    POLICY_WAIT = 2               # never acts
    POLICY_NATIVE = 3             # a native bot (bots.pxd Policy: greedy, search, presets)

cdef enum:
    OBS_PLANES = 0
    OBS_BITS = 1

cdef enum:                        # Slot.done
    LIVE = 0
    TERMINATED = 1
    TRUNCATED = 2

# Stream salts (seeds.pxd, shared with bots.pyx so that a seed gives the same policy
# streams in every runner): a match of seed s uses s for R23 (exactly Match(seed=s)),
# s ^ seat_salt(seat) for the native seat policies; an env reset with seed s draws the
# seeds of its later (auto-reset) matches from s ^ reset_salt(), and sample_actions from
# s ^ sample_salt().
cdef uint64_t SALT_X = seat_salt(0)
cdef uint64_t SALT_O = seat_salt(1)
cdef uint64_t SALT_RESET = reset_salt()
cdef uint64_t SALT_SAMPLE = sample_salt()

PLANES = N_PLANES
BITS = N_BITS
SCALARS = N_SCALARS
NEXT_STEP, SAME_STEP, DISABLED = AUTORESET_NEXT_STEP, AUTORESET_SAME_STEP, AUTORESET_DISABLED
POLICIES = {"external": POLICY_EXTERNAL, "random": POLICY_RANDOM, "wait": POLICY_WAIT}
SEED_SALTS = {"X": SALT_X, "O": SALT_O, "reset": SALT_RESET, "sample": SALT_SAMPLE}


ctypedef struct Slot:             # one env of a BatchStepper: its whole memory
    MatchState st
    uint64_t reset_rng            # draws the seed of the env's next match (auto-reset)
    uint64_t sample_rng           # sample_actions' stream
    uint64_t policy_rng[2]        # native seat policies
    uint64_t reaction_key[2]      # their reactions' keys (bots.pxd policy_seed), per match
    uint64_t match_seed
    int64_t rejected[2]           # R7 rejections since the batch was made
    int32_t steps                 # steps in the current episode
    uint8_t done                  # LIVE, TERMINATED or TRUNCATED (waiting for a reset)


ctypedef struct Config:
    int32_t interval              # ms of game time per step
    int32_t max_steps             # truncation (0: none)
    int autoreset
    bint round_episodes           # an episode is a round (else a whole match)
    bint random_powerups
    int stream                    # the stream layout of every match (docs/engine.md)
    float round_reward
    float match_reward
    int policy[2]
    Policy pol[2]                 # POLICY_NATIVE: the bot's parameters (its rng is the slot's)
    int obs_mode
    bint write_masks
    int n_obs                     # the seats whose observation and mask are written ...
    int obs_seat[2]               # ... in this order: buffers are (N, n_obs, ...)
    int cells
    int n_actions                 # 1 + 2 * cells
    double inv_round_ms           # reciprocals for the scalars (multiplies, not divides)
    double inv_rounds_to_win
    double inv_max_rounds
    double inv_mark_limit
    double inv_freeze
    double inv_haste


ctypedef struct Out:              # the NumPy buffers, written in place; NULL = not kept
    float* rewards                # (N, 2)
    uint8_t* terminated           # (N,)
    uint8_t* truncated            # (N,)
    int8_t* round_result          # (N,) RESULT_* of a round that ended in the step, else -1
    int8_t* match_result          # (N,)
    int8_t* reasons               # (N, 2) -1 no action, 0 accepted, else the R7 code
    float* planes                 # (N, n_obs, 12, cells)
    uint64_t* bits                # (N, n_obs, 11)
    float* scalars                # (N, n_obs, 14)
    uint8_t* masks                # (N, n_obs, n_actions)
    float* final_planes           # SAME_STEP: the observation an episode ended on
    uint64_t* final_bits
    float* final_scalars
    uint8_t* final_ended          # (N,) an episode ended (and was reset) in the step


# -- observations ----------------------------------------------------------------------------
# Everything about a player is computed once per env and step, then laid out twice: as
# that player's "own" half and as the other seat's "opponent" half.

ctypedef struct PlayerFacts:
    float charge                  # R5 refill progress in [0, 1]
    float full                    # R4
    float frozen                  # R18 time left / freeze_ms
    float hasted                  # R19
    float wins                    # round wins / rounds_to_win (R22)
    float marks                   # marks / mark_limit (R12)
    int oldest                    # R12: the next mark to retire, -1 below the limit


cdef inline void player_facts(const MatchState* s, const RulesC* r, const Config* cf, int p,
                              PlayerFacts* f) noexcept nogil:
    cdef int32_t t = s.t
    cdef int marks = popcount(s.set_marks[p] | s.setting[p])
    if s.charge_need[p] == 0 or s.charge_units[p] >= s.charge_need[p]:
        f.charge = 1.0
        f.full = 1.0
    else:
        f.charge = <float>(<double>s.charge_units[p] / <double>s.charge_need[p])
        f.full = 0.0
    f.frozen = <float>((s.frozen_until[p] - t) * cf.inv_freeze) if t < s.frozen_until[p] else 0.0
    f.hasted = <float>((s.hasted_until[p] - t) * cf.inv_haste) if t < s.hasted_until[p] else 0.0
    f.wins = <float>(s.round_wins[p] * cf.inv_rounds_to_win)
    f.marks = <float>(marks * cf.inv_mark_limit)
    f.oldest = state_oldest(s, p) if marks >= r.mark_limit else -1


cdef inline void write_scalars(float* sc, const PlayerFacts* own, const PlayerFacts* opp,
                               float clock, float round_) noexcept nogil:
    sc[0] = own.charge
    sc[1] = opp.charge
    sc[2] = own.full
    sc[3] = opp.full
    sc[4] = own.frozen
    sc[5] = own.hasted
    sc[6] = opp.frozen
    sc[7] = opp.hasted
    sc[8] = clock
    sc[9] = own.wins
    sc[10] = opp.wins
    sc[11] = round_
    sc[12] = own.marks
    sc[13] = opp.marks


cdef inline void scatter(float* plane, uint64_t m) noexcept nogil:
    cdef int c
    while m:
        c = lowest(m)
        m &= m - 1
        plane[c] = 1.0


cdef void write_planes(const MatchState* s, const RulesC* r, int p, const PlayerFacts* own,
                       const PlayerFacts* opp, float* planes) noexcept nogil:
    """Seat p's planes, exactly as Match.planes(p)."""
    cdef int o = 1 - p, cells = r.geo.cells, c, k
    cdef uint64_t m
    memset(planes, 0, N_PLANES * cells * sizeof(float))
    scatter(planes, s.set_marks[p])
    scatter(planes + cells, s.setting[p])
    scatter(planes + 2 * cells, s.set_marks[o])
    scatter(planes + 3 * cells, s.setting[o])
    scatter(planes + 4 * cells, s.craters)
    for k in range(4):
        scatter(planes + (5 + k) * cells, s.powerups[k])
    if r.set_ms > 0:                               # R6: setting progress in [0, 1)
        m = s.setting[0] | s.setting[1]
        while m:
            c = lowest(m)
            m &= m - 1
            planes[9 * cells + c] = 1.0 - <float>(s.deadline[c] - s.t) / r.set_ms
    if own.oldest >= 0:
        planes[10 * cells + own.oldest] = 1.0
    if opp.oldest >= 0:
        planes[11 * cells + opp.oldest] = 1.0


cdef inline uint64_t bit_of(int c) noexcept nogil:
    return (<uint64_t>1 << c) if c >= 0 else 0


cdef void write_bits(const MatchState* s, int p, const PlayerFacts* own, const PlayerFacts* opp,
                     uint64_t* bits) noexcept nogil:
    cdef int o = 1 - p, k
    bits[0] = s.set_marks[p]
    bits[1] = s.setting[p]
    bits[2] = s.set_marks[o]
    bits[3] = s.setting[o]
    bits[4] = s.craters
    for k in range(4):
        bits[5 + k] = s.powerups[k]
    bits[9] = bit_of(own.oldest)
    bits[10] = bit_of(opp.oldest)


cdef inline void spread(uint8_t* out, uint64_t m, int n) noexcept nogil:
    """out[c] = bit c of m for c < n: eight cells at a time (each byte of the product
    holds one bit: replicate, isolate bit i in byte i, carry it to the byte's low bit)."""
    cdef int c = 0
    cdef uint64_t v
    while c + 8 <= n:
        v = ((((m >> c) & 0xFF) * 0x0101010101010101ULL) & 0x8040201008040201ULL)
        v = ((v + 0x7F7F7F7F7F7F7F7FULL) >> 7) & 0x0101010101010101ULL
        memcpy(out + c, &v, 8)
        c += 8
    while c < n:
        out[c] = <uint8_t>((m >> c) & 1)
        c += 1


cdef inline void write_mask(const MatchState* s, const RulesC* r, int p,
                            uint8_t* mask) noexcept nogil:
    """Action codes: 0 wait (always legal), 1 + c place on c, 1 + cells + c knock out c."""
    mask[0] = 1
    spread(mask + 1, state_legal_mask(s, r, p, ACT_PLACE), r.geo.cells)
    spread(mask + 1 + r.geo.cells, state_legal_mask(s, r, p, ACT_KNOCKOUT), r.geo.cells)


cdef void write_obs(const Slot* sl, const RulesC* r, const Config* cf, float* planes,
                    uint64_t* bits, float* scalars, uint8_t* masks, Py_ssize_t i) noexcept nogil:
    cdef const MatchState* s = &sl.st
    cdef PlayerFacts f[2]
    cdef int p, j
    cdef Py_ssize_t row
    cdef Py_ssize_t plane_len = N_PLANES * cf.cells
    cdef float clock = <float>(s.t * cf.inv_round_ms)
    cdef float round_ = <float>(s.round * cf.inv_max_rounds)
    player_facts(s, r, cf, 0, &f[0])
    player_facts(s, r, cf, 1, &f[1])
    for j in range(cf.n_obs):        # only the observed seats (a learner's alone: half the work)
        p = cf.obs_seat[j]
        row = cf.n_obs * i + j
        write_scalars(scalars + row * N_SCALARS, &f[p], &f[1 - p], clock, round_)
        if planes != NULL:
            write_planes(s, r, p, &f[p], &f[1 - p], planes + row * plane_len)
        if bits != NULL:
            write_bits(s, p, &f[p], &f[1 - p], bits + row * N_BITS)
        if masks != NULL:
            write_mask(s, r, p, masks + row * cf.n_actions)


# -- one env ---------------------------------------------------------------------------------

cdef void new_match(Slot* sl, const RulesC* r, const Config* cf, uint64_t seed) noexcept nogil:
    state_new_match(&sl.st, r, seed, cf.random_powerups, 0, 0, cf.stream, NULL)
    sl.match_seed = seed
    sl.policy_rng[0] = seed ^ SALT_X
    sl.policy_rng[1] = seed ^ SALT_O
    cdef Policy seeded              # the seats' reaction keys, as play_matches seeds them
    cdef int p
    for p in range(2):
        policy_seed(&seeded, sl.policy_rng[p])
        sl.reaction_key[p] = seeded.reaction_key
    sl.steps = 0
    sl.done = LIVE


cdef void seed_slot(Slot* sl, const RulesC* r, const Config* cf, uint64_t seed) noexcept nogil:
    sl.reset_rng = seed ^ SALT_RESET
    sl.sample_rng = seed ^ SALT_SAMPLE
    new_match(sl, r, cf, seed)


cdef void restart(Slot* sl, const RulesC* r, const Config* cf) noexcept nogil:
    """Auto-reset: the next round of a round episode, else a new match (its seed drawn
    from the env's reset stream)."""
    if cf.round_episodes and sl.st.round_over and not sl.st.match_over:
        state_next_round(&sl.st, r, NULL)
        sl.steps = 0
        sl.done = LIVE
    else:
        new_match(sl, r, cf, rng_next(&sl.reset_rng))


cdef inline bint decode(int64_t code, int cells, int* kind, int* cell) noexcept nogil:
    if code == 0:
        return False
    if code <= cells:
        kind[0] = ACT_PLACE
        cell[0] = <int>(code - 1)
    else:
        kind[0] = ACT_KNOCKOUT
        cell[0] = <int>(code - 1 - cells)
    return True


cdef inline float sign_of(int result) noexcept nogil:
    """The reward sign for X of a round or match result (zero-sum: O gets minus)."""
    if result == RESULT_X:
        return 1.0
    if result == RESULT_O:
        return -1.0
    return 0.0


cdef inline bint native_act(Slot* sl, const RulesC* r, const Config* cf, const BotTables* tb,
                            int p, int* kind, int* cell) noexcept nogil:
    """A native bot's action for seat p now, with the timing of play_matches (bots.pyx
    play_round) and NativeBot: asked while its charge is full, from ``reaction_ms``
    after the charge filled (R5, ``full_since``); its stream is the slot's seat stream."""
    cdef const MatchState* s = &sl.st
    cdef Policy pol
    cdef int64_t sims = 0
    cdef int rule
    if not state_charge_full(s, p):
        return False
    pol = cf.pol[p]
    pol.reaction_key = sl.reaction_key[p]
    # the player model's reaction (issue 23): reaction_ms itself when it has no spread
    if s.t < s.full_since[p] + reaction_at(&pol, s.full_since[p]):
        return False
    pol.rng = sl.policy_rng[p]
    rule = policy_decide(&pol, tb, s, r, p, kind, cell, &sims)
    sl.policy_rng[p] = pol.rng
    return rule != RULE_NONE


cdef void step_env(Slot* sl, const RulesC* r, const Config* cf, const BotTables* tb,
                   const Out* o, Py_ssize_t i, const int64_t* actions) noexcept nogil:
    cdef MatchState* s = &sl.st
    cdef int kinds[2]
    cdef int cells_[2]
    cdef bint acts[2]
    cdef int p, xr = 0, orr = 0
    cdef float reward = 0.0
    cdef bint term = False, trunc = False
    cdef int8_t* reasons = o.reasons + 2 * i
    o.round_result[i] = RESULT_NONE
    o.match_result[i] = RESULT_NONE
    reasons[0] = -1
    reasons[1] = -1
    if o.final_ended != NULL:
        o.final_ended[i] = 0
    if sl.done != LIVE:
        if cf.autoreset == AUTORESET_NEXT_STEP:     # this step is the reset: actions ignored
            restart(sl, r, cf)
        else:                                       # DISABLED: nothing happens until reset()
            term = sl.done == TERMINATED
            trunc = sl.done == TRUNCATED
    else:
        for p in range(2):
            acts[p] = False
            if cf.policy[p] == POLICY_EXTERNAL:
                acts[p] = decode(actions[2 * i + p], cf.cells, &kinds[p], &cells_[p])
            elif cf.policy[p] == POLICY_RANDOM:
                acts[p] = random_action(s, r, p, &sl.policy_rng[p], &kinds[p], &cells_[p])
            elif cf.policy[p] == POLICY_NATIVE:
                acts[p] = native_act(sl, r, cf, tb, p, &kinds[p], &cells_[p])
        if acts[0] and acts[1]:                     # R3: one coin orders them
            state_act_both(s, r, kinds[0], cells_[0], kinds[1], cells_[1], &xr, &orr, NULL)
            reasons[0] = <int8_t>xr
            reasons[1] = <int8_t>orr
        elif acts[0]:
            reasons[0] = <int8_t>state_act(s, r, 0, kinds[0], cells_[0], NULL)
        elif acts[1]:
            reasons[1] = <int8_t>state_act(s, r, 1, kinds[1], cells_[1], NULL)
        for p in range(2):
            if reasons[p] > 0:
                sl.rejected[p] += 1
        if not s.round_over:
            state_advance_to(s, r, s.t + cf.interval, NULL)
        sl.steps += 1
        if s.round_over:
            o.round_result[i] = s.round_result
            reward = cf.round_reward * sign_of(s.round_result)
            if s.match_over:                        # R22
                o.match_result[i] = s.match_result
                reward += cf.match_reward * sign_of(s.match_result)
                term = True
            elif cf.round_episodes:
                term = True
            else:                                   # R21: the match goes on at once
                state_next_round(s, r, NULL)
        if not term and cf.max_steps > 0 and sl.steps >= cf.max_steps:
            trunc = True
        if term or trunc:
            sl.done = TERMINATED if term else TRUNCATED
            if cf.autoreset == AUTORESET_SAME_STEP:
                write_obs(sl, r, cf, o.final_planes, o.final_bits, o.final_scalars, NULL, i)
                o.final_ended[i] = 1
                restart(sl, r, cf)
    o.rewards[2 * i] = reward
    o.rewards[2 * i + 1] = -reward
    o.terminated[i] = term
    o.truncated[i] = trunc
    write_obs(sl, r, cf, o.planes, o.bits, o.scalars, o.masks, i)


cdef void sample_env(Slot* sl, const RulesC* r, int64_t* out, Py_ssize_t i,
                     const bint* seats) noexcept nogil:
    """A uniformly random legal action code per seat in ``seats`` (wait when nothing is
    legal; the other seats get 0 and draw nothing)."""
    cdef int p, kind = 0, cell = 0
    for p in range(2):
        if (seats[p] and sl.done == LIVE
                and random_action(&sl.st, r, p, &sl.sample_rng, &kind, &cell)):
            out[2 * i + p] = 1 + cell + (r.geo.cells if kind == ACT_KNOCKOUT else 0)
        else:
            out[2 * i + p] = 0


# -- rollouts with native bots (search helpers) -----------------------------------------------

ctypedef struct RolloutStats:
    int64_t accepted
    int64_t rejected


cdef void rollout_state(MatchState* s, const RulesC* r, const int* policy, uint64_t* rngs,
                        bint whole_match, RolloutStats* stats, const Policy* pols,
                        const BotTables* tb) noexcept nogil:
    """Play on with a native policy per seat until the round (or the match) ends; time
    jumps to the next ms anything can happen. ``"random"`` acts at every ms a charge is
    full; a native bot (POLICY_NATIVE, ``pols[p]``) is driven as play_matches drives it
    (bots.pyx play_round): asked from ``reaction_ms`` after its charge filled, and again
    the next ms after it acted, so a whole match plays exactly as in play_matches."""
    cdef int kinds[2]
    cdef int cells_[2]
    cdef bint acts[2]
    cdef int p, xr = 0, orr = 0, reason
    cdef int32_t next_t, ready, due
    cdef bint asked
    cdef Policy pol
    cdef int64_t sims = 0
    while True:
        while not s.round_over:
            asked = False
            for p in range(2):
                acts[p] = False
                if policy[p] == POLICY_RANDOM:
                    acts[p] = random_action(s, r, p, &rngs[p], &kinds[p], &cells_[p])
                elif (policy[p] == POLICY_NATIVE and state_charge_full(s, p)
                      and s.t >= s.full_since[p] + pols[p].reaction_ms):
                    pol = pols[p]
                    pol.rng = rngs[p]
                    acts[p] = policy_decide(&pol, tb, s, r, p, &kinds[p], &cells_[p],
                                            &sims) != RULE_NONE
                    rngs[p] = pol.rng
                    asked = asked or acts[p]
            if acts[0] and acts[1]:
                state_act_both(s, r, kinds[0], cells_[0], kinds[1], cells_[1], &xr, &orr, NULL)
                stats.accepted += (xr == ACCEPTED) + (orr == ACCEPTED)
                stats.rejected += (xr != ACCEPTED) + (orr != ACCEPTED)
            elif acts[0] or acts[1]:
                p = 0 if acts[0] else 1
                reason = state_act(s, r, p, kinds[p], cells_[p], NULL)
                stats.accepted += reason == ACCEPTED
                stats.rejected += reason != ACCEPTED
            if s.round_over:
                break
            next_t = state_next_event_t(s, r)
            for p in range(2):
                if policy[p] != POLICY_WAIT and not state_charge_full(s, p):
                    ready = state_charge_ready_t(s, r, p)
                    if ready < next_t:
                        next_t = ready
                elif policy[p] == POLICY_NATIVE:
                    due = s.full_since[p] + pols[p].reaction_ms
                    if s.t < due < next_t:
                        next_t = due
            if next_t <= s.t or asked:
                next_t = s.t + 1
            state_advance_to(s, r, next_t, NULL)
        if s.match_over or not whole_match:
            return
        state_next_round(s, r, NULL)


cdef tuple _native_spec(Policy* pol, object policy, bint spread=True):
    """A native bot spec (``BotSpec.native()``: kind, reaction_ms, error_rate, budget,
    horizon_ms, candidates[, reaction_sd, attention]) into ``pol``, validated by bots.pyx
    (a ValueError names the field); returns the spec as a tuple. ``spread``: whether a
    reaction spread may be given (the stepper's seats draw theirs per match; the search
    helpers' rollouts react at fixed times)."""
    spec = tuple(policy)
    if not spread and len(spec) > 6 and spec[6]:
        raise ValueError(f"reaction_sd={spec[6]!r}: rollouts play fixed reactions")
    policy_from(pol, spec, 0)
    return spec


cdef int _threads(object num_threads) except -1:
    if num_threads is None:
        return usable_cores()
    if isinstance(num_threads, bool) or not isinstance(num_threads, int) or num_threads < 1:
        raise ValueError(f"num_threads must be a positive integer, not {num_threads!r}")
    return num_threads


cdef int _policy(object name) except -1:
    if name is None:
        return POLICY_EXTERNAL
    if isinstance(name, str) and name in POLICIES:
        return POLICIES[name]
    raise ValueError(f"unknown native policy {name!r}: expected one of {sorted(POLICIES)} or None")


cdef enum:
    SERIAL_BELOW = 256            # smaller batches skip the thread team (same results)


cdef class BatchStepper:
    """N matches on one rules configuration, stepped together (docs/rl.md).

    The low-level native batch behind ``tictacblitz.envs.games.blitz.BatchedMatches``: options are
    validated there. Buffers are attributes (NumPy arrays written in place by
    ``reset``/``step``); ``step`` returns nothing.
    """

    cdef RulesC rc
    cdef Slot* slots
    cdef readonly Py_ssize_t n
    cdef Config cf
    cdef BotTables tb
    cdef object _specs
    cdef Out out
    cdef AutoThreads at
    cdef readonly object rules
    cdef readonly object rewards, terminated, truncated, round_result, match_result, reasons
    cdef readonly object planes, bits, scalars, masks
    cdef readonly object final_planes, final_bits, final_scalars, final_ended
    cdef object _no_actions

    def __cinit__(self):
        self.slots = NULL

    def __dealloc__(self):
        free(self.slots)

    def __init__(self, rules, Py_ssize_t n, *, int interval_ms=50,
                 int autoreset=AUTORESET_NEXT_STEP,
                 bint round_episodes=False, double round_reward=1.0, double match_reward=1.0,
                 policies=(None, None), obs="planes", bint masks=True, int max_steps=0,
                 num_threads=None, bint random_powerups=True, int stream=DEFAULT_STREAM,
                 observe=(0, 1)):
        cdef int p
        if rules is None:
            rules = default_rules()
        fill_rules(&self.rc, rules)
        if n < 1:
            raise ValueError(f"n must be >= 1, not {n}")
        if interval_ms < 1:
            raise ValueError(f"interval_ms must be >= 1, not {interval_ms}")
        check_stream_layout(stream)
        if autoreset not in (AUTORESET_NEXT_STEP, AUTORESET_SAME_STEP, AUTORESET_DISABLED):
            raise ValueError(f"unknown autoreset mode {autoreset!r}")
        if obs not in ("planes", "bits"):
            raise ValueError(f"obs must be 'planes' or 'bits', not {obs!r}")
        if max_steps < 0:
            raise ValueError(f"max_steps must be >= 0 (0: none), not {max_steps}")
        if len(policies) != 2:
            raise ValueError(f"policies must name one policy per seat (X, O), not {policies!r}")
        self.rules = rules
        self.n = n
        auto_init(&self.at, 0 if num_threads is None else _threads(num_threads), usable_cores())
        observe = tuple(observe)
        if observe not in ((0, 1), (1, 0), (0,), (1,)):
            raise ValueError(f"observe must be the seats to observe, (0, 1), (0,) or (1,), "
                             f"not {observe!r}")
        self.cf.n_obs = len(observe)
        for p in range(self.cf.n_obs):
            self.cf.obs_seat[p] = observe[p]
        self.cf.interval = interval_ms
        self.cf.max_steps = max_steps
        self.cf.autoreset = autoreset
        self.cf.round_episodes = round_episodes
        self.cf.random_powerups = random_powerups
        self.cf.stream = stream
        self.cf.round_reward = <float>round_reward
        self.cf.match_reward = <float>match_reward
        tables_init(&self.tb, &self.rc)
        self._specs = [None, None]
        for p in range(2):
            self.set_policy(p, policies[p])
        self.cf.obs_mode = OBS_PLANES if obs == "planes" else OBS_BITS
        self.cf.write_masks = masks
        self.cf.cells = self.rc.geo.cells
        self.cf.n_actions = 1 + 2 * self.rc.geo.cells
        self.cf.inv_round_ms = 1.0 / self.rc.round_ms
        self.cf.inv_rounds_to_win = 1.0 / self.rc.rounds_to_win
        self.cf.inv_max_rounds = 1.0 / self.rc.max_rounds
        self.cf.inv_mark_limit = 1.0 / self.rc.mark_limit
        self.cf.inv_freeze = 1.0 / self.rc.freeze_ms if self.rc.freeze_ms > 0 else 0.0
        self.cf.inv_haste = 1.0 / self.rc.haste_ms if self.rc.haste_ms > 0 else 0.0
        self.slots = <Slot*>calloc(n, sizeof(Slot))
        if self.slots == NULL:
            raise MemoryError(f"cannot allocate {n} envs")
        size = self.rc.geo.size
        self.rewards = np.zeros((n, 2), dtype=np.float32)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.truncated = np.zeros(n, dtype=np.bool_)
        self.round_result = np.full(n, -1, dtype=np.int8)
        self.match_result = np.full(n, -1, dtype=np.int8)
        self.reasons = np.full((n, 2), -1, dtype=np.int8)
        k = self.cf.n_obs
        self.scalars = np.zeros((n, k, N_SCALARS), dtype=np.float32)
        self.masks = np.zeros((n, k, self.cf.n_actions), dtype=np.bool_) if masks else None
        self._no_actions = np.zeros((n, 2), dtype=np.int64)
        same = autoreset == AUTORESET_SAME_STEP
        self.planes = self.bits = self.final_planes = self.final_bits = None
        self.final_scalars = self.final_ended = None
        if self.cf.obs_mode == OBS_PLANES:
            self.planes = np.zeros((n, k, N_PLANES, size, size), dtype=np.float32)
            if same:
                self.final_planes = np.zeros_like(self.planes)
        else:
            self.bits = np.zeros((n, k, N_BITS), dtype=np.uint64)
            if same:
                self.final_bits = np.zeros_like(self.bits)
        if same:
            self.final_scalars = np.zeros_like(self.scalars)
            self.final_ended = np.zeros(n, dtype=np.bool_)
        self._bind()

    cdef void _bind(self):
        self.out.rewards = <float*><size_t>self.rewards.ctypes.data
        self.out.terminated = <uint8_t*><size_t>self.terminated.ctypes.data
        self.out.truncated = <uint8_t*><size_t>self.truncated.ctypes.data
        self.out.round_result = <int8_t*><size_t>self.round_result.ctypes.data
        self.out.match_result = <int8_t*><size_t>self.match_result.ctypes.data
        self.out.reasons = <int8_t*><size_t>self.reasons.ctypes.data
        self.out.scalars = <float*><size_t>self.scalars.ctypes.data
        self.out.masks = (<uint8_t*><size_t>self.masks.ctypes.data
                          if self.masks is not None else NULL)
        self.out.planes = (<float*><size_t>self.planes.ctypes.data
                           if self.planes is not None else NULL)
        self.out.bits = <uint64_t*><size_t>self.bits.ctypes.data if self.bits is not None else NULL
        self.out.final_planes = (<float*><size_t>self.final_planes.ctypes.data
                                 if self.final_planes is not None else NULL)
        self.out.final_bits = (<uint64_t*><size_t>self.final_bits.ctypes.data
                               if self.final_bits is not None else NULL)
        self.out.final_scalars = (<float*><size_t>self.final_scalars.ctypes.data
                                  if self.final_scalars is not None else NULL)
        self.out.final_ended = (<uint8_t*><size_t>self.final_ended.ctypes.data
                                if self.final_ended is not None else NULL)

    @property
    def n_actions(self):
        return self.cf.n_actions

    @property
    def observe(self):
        """The seats whose observation and mask are written, in buffer order."""
        return tuple(self.cf.obs_seat[p] for p in range(self.cf.n_obs))

    @property
    def num_threads(self):
        """The threads of the next step: the fixed count, or the measured choice
        (``threads_auto``: one thread or every usable core, whichever steps faster;
        common/autothreads.pxd). Setting a count fixes it; setting None measures again,
        from scratch, as at construction."""
        return auto_threads(&self.at)

    @num_threads.setter
    def num_threads(self, value):
        if value is None:
            auto_init(&self.at, 0, usable_cores())
        else:
            self.at.fixed = _threads(value)

    @property
    def threads_auto(self):
        """Whether the thread count is measured (``num_threads=None``, the default)."""
        return self.at.fixed == 0

    @property
    def thread_means(self):
        """The measured ns per step of one thread and of every core (0: not yet)."""
        return (self.at.mean[0], self.at.mean[1])

    @property
    def interval_ms(self):
        return self.cf.interval

    @property
    def autoreset(self):
        return self.cf.autoreset

    @property
    def state_bytes(self):
        """Native bytes per env (its Slot: MatchState + streams + counters)."""
        return sizeof(Slot)

    def set_policy(self, int seat, policy):
        """Who plays ``seat`` from the next step on: None (the caller's actions),
        ``"random"``, ``"wait"``, or a native bot spec, the 6-tuple of
        ``BotSpec.native()`` (kind, reaction_ms, error_rate, budget, horizon_ms,
        candidates). The seat's stream is the env's (``match_seed ^ SEED_SALTS[seat]``,
        reseeded at every new match), so one seed plays as in ``play_matches``."""
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 (X) or 1 (O), not {seat!r}")
        if policy is None or isinstance(policy, str):
            self.cf.policy[seat] = _policy(policy)
            self._specs[seat] = policy
            return
        spec = _native_spec(&self.cf.pol[seat], policy)
        self.cf.policy[seat] = POLICY_NATIVE
        self._specs[seat] = spec

    @property
    def policies(self):
        """Per seat: None, "random", "wait" or the native bot spec tuple."""
        return tuple(self._specs)

    def reset(self, seeds, indices=None):
        """Env i starts a new match with seed ``seeds[k]`` for the k-th of ``indices``
        (every env by default); an int s seeds the k-th env s + k. Other envs keep
        their state and last outputs (Gymnasium's ``reset_mask``)."""
        cdef const int64_t[::1] idx = env_indices(self.n, indices)  # common/batch_args
        cdef Py_ssize_t k, i, m = idx.shape[0]
        cdef const uint64_t[::1] sv = seed_array(seeds, m)
        cdef Slot* sl
        sel = np.asarray(idx)
        self.rewards[sel] = 0
        self.terminated[sel] = False
        self.truncated[sel] = False
        self.round_result[sel] = -1
        self.match_result[sel] = -1
        self.reasons[sel] = -1
        if self.final_ended is not None:
            self.final_ended[sel] = False
        with nogil:
            for k in range(m):
                i = idx[k]
                sl = &self.slots[i]
                seed_slot(sl, &self.rc, &self.cf, sv[k])
                sl.rejected[0] = sl.rejected[1] = 0
                write_obs(sl, &self.rc, &self.cf, self.out.planes, self.out.bits,
                          self.out.scalars, self.out.masks, i)

    _BUFFERS = ("rewards", "terminated", "truncated", "round_result", "match_result",
                "reasons", "planes", "bits", "scalars", "masks", "final_planes",
                "final_bits", "final_scalars", "final_ended")

    def get_state(self):
        """A snapshot of the whole batch: every env's native memory (match states,
        every random stream: chance, seat policies, auto-reset, sampling; counters)
        and the last step's outputs. ``set_state`` resumes it exactly."""
        cdef bytes raw = (<char*>self.slots)[:self.n * sizeof(Slot)]
        return {"n": self.n, "slot_bytes": <Py_ssize_t>sizeof(Slot), "slots": raw,
                "policies": tuple(self._specs),
                "buffers": {k: getattr(self, k).copy() for k in self._BUFFERS
                            if getattr(self, k) is not None}}

    def set_state(self, state):
        """Resume a ``get_state`` snapshot of a batch of the same size, rules and
        options (the seat policies are restored too)."""
        cdef bytes raw = state["slots"]
        if (state["n"] != self.n or state["slot_bytes"] != sizeof(Slot)
                or len(raw) != self.n * sizeof(Slot)):
            raise ValueError(f"the snapshot is of {state['n']} envs of "
                             f"{state['slot_bytes']} bytes, "
                             f"this batch has {self.n} of {sizeof(Slot)}")
        for k, v in state["buffers"].items():
            buf = getattr(self, k)
            if buf is None or buf.shape != v.shape:
                raise ValueError(f"the snapshot's {k} buffer does not fit this batch's options")
        for seat in range(2):
            self.set_policy(seat, state["policies"][seat])
        memcpy(self.slots, <char*>raw, self.n * sizeof(Slot))
        for k, v in state["buffers"].items():
            getattr(self, k)[...] = v

    def step(self, actions=None):
        """One decision step of every env. ``actions``: int64 (N, 2) C-contiguous codes
        (only the columns of external seats are read); None when no seat is external.

        :raises ValueError: for a wrong shape or a code outside [0, n_actions), before
            any env changes.
        """
        cdef const int64_t[:, ::1] av
        cdef Py_ssize_t i, bad = -1, n = self.n
        cdef int nt = auto_threads(&self.at), p
        cdef int64_t code, top = self.cf.n_actions, start = 0
        cdef bint timed = n >= SERIAL_BELOW  # a small batch runs serially: nothing to measure
        if actions is None:
            if self.cf.policy[0] == POLICY_EXTERNAL or self.cf.policy[1] == POLICY_EXTERNAL:
                raise ValueError("step needs actions: a seat takes its actions from the caller")
            actions = self._no_actions
        av = actions
        if av.shape[0] != n or av.shape[1] != 2:
            raise ValueError(f"actions must have shape ({n}, 2), not {tuple(actions.shape)}")
        with nogil:                     # R7: malformed codes never reach the engine
            for i in range(n):
                for p in range(2):
                    if self.cf.policy[p] == POLICY_EXTERNAL:
                        code = av[i, p]
                        if code < 0 or code >= top:
                            bad = i
                if bad >= 0:
                    break
        if bad >= 0:
            raise ValueError(f"env {bad}: action codes {list(actions[bad])} out of range: "
                             f"0 wait, 1..{top - 1} (1 + cell place, 1 + cells + cell knock out)")
        if timed:
            start = clock_ns()
        if n < SERIAL_BELOW or nt <= 1:
            with nogil:
                for i in range(n):
                    step_env(&self.slots[i], &self.rc, &self.cf, &self.tb, &self.out, i, &av[0, 0])
        else:
            for i in prange(n, nogil=True, num_threads=nt, schedule="static"):
                step_env(&self.slots[i], &self.rc, &self.cf, &self.tb, &self.out, i, &av[0, 0])
        if timed:
            auto_record(&self.at, clock_ns() - start)

    def sample_actions(self, out=None, bint external_only=False):
        """A uniformly random legal action code per env and seat (each env's own stream),
        into ``out`` (int64 (N, 2)) or a new array. ``external_only``: only for the
        seats whose actions the caller passes (the others get 0 and draw nothing: a
        learner against a native bot samples half as much)."""
        cdef bint seats[2]
        for p in range(2):
            seats[p] = not external_only or self.cf.policy[p] == POLICY_EXTERNAL
        if out is None:
            out = np.empty((self.n, 2), dtype=np.int64)
        cdef int64_t[:, ::1] ov = out
        cdef Py_ssize_t i, n = self.n
        cdef int nt = auto_threads(&self.at)
        if ov.shape[0] != n or ov.shape[1] != 2:
            raise ValueError(f"out must have shape ({n}, 2)")
        if nt <= 1 or n < SERIAL_BELOW:
            with nogil:
                for i in range(n):
                    sample_env(&self.slots[i], &self.rc, &ov[0, 0], i, seats)
        else:
            for i in prange(n, nogil=True, num_threads=nt, schedule="static"):
                sample_env(&self.slots[i], &self.rc, &ov[0, 0], i, seats)
        return out

    def rejections(self):
        """R7 rejections per env and seat since the last reset(), int64 (N, 2)."""
        out = np.empty((self.n, 2), dtype=np.int64)
        cdef int64_t[:, ::1] ov = out
        cdef Py_ssize_t i
        for i in range(self.n):
            ov[i, 0] = self.slots[i].rejected[0]
            ov[i, 1] = self.slots[i].rejected[1]
        return out

    def info_arrays(self):
        """Per-env ``round``, ``t``, ``round_wins`` (N, 2), ``match_seed`` and ``steps``."""
        cdef Py_ssize_t i
        rounds = np.empty(self.n, dtype=np.int32)
        ts = np.empty(self.n, dtype=np.int32)
        wins = np.empty((self.n, 2), dtype=np.int32)
        seeds = np.empty(self.n, dtype=np.uint64)
        steps = np.empty(self.n, dtype=np.int32)
        for i in range(self.n):
            rounds[i] = self.slots[i].st.round
            ts[i] = self.slots[i].st.t
            wins[i, 0] = self.slots[i].st.round_wins[0]
            wins[i, 1] = self.slots[i].st.round_wins[1]
            seeds[i] = self.slots[i].match_seed
            steps[i] = self.slots[i].steps
        return {"round": rounds, "t": ts, "round_wins": wins, "match_seed": seeds, "steps": steps}

    def get_match(self, Py_ssize_t i):
        """An independent ``Match`` holding a copy of env i's state (no round history)."""
        if not 0 <= i < self.n:
            raise IndexError(f"env {i} out of range (n={self.n})")
        return _match_of(&self.rc, &self.slots[i].st, self.rules, self.slots[i].match_seed)

    def sync_match(self, Py_ssize_t i, Match match):
        """Overwrite ``match``'s state with env i's (the same object keeps its identity:
        for Python bots that remember the match they play)."""
        if not 0 <= i < self.n:
            raise IndexError(f"env {i} out of range (n={self.n})")
        if match.rules != self.rules:
            raise ValueError("the match has other rules than the batch")
        memcpy(&match.st, &self.slots[i].st, sizeof(MatchState))

    def set_match(self, Py_ssize_t i, Match match):
        """Env i continues from a copy of ``match``'s state (same rules needed)."""
        if not 0 <= i < self.n:
            raise IndexError(f"env {i} out of range (n={self.n})")
        if match.rules != self.rules:
            raise ValueError("the match has other rules than the batch")
        memcpy(&self.slots[i].st, &match.st, sizeof(MatchState))
        self.slots[i].done = LIVE
        self.slots[i].steps = 0
        write_obs(&self.slots[i], &self.rc, &self.cf, self.out.planes, self.out.bits,
                  self.out.scalars, self.out.masks, i)


cdef Match _match_of(const RulesC* rc, const MatchState* st, object rules, uint64_t seed):
    cdef Match m = Match.__new__(Match)
    memcpy(&m.rc, rc, sizeof(RulesC))
    memcpy(&m.st, st, sizeof(MatchState))
    m._rules = rules
    m._seed = int(seed)
    m._setup = None
    m._rounds = ()
    m._script = None
    return m


cdef class StateBatch:
    """N match states in one block, for planners: ``load`` clones a match into slots
    (a memcpy each), ``rollout`` plays every slot on with native bots, nogil and over
    threads, until its round (or match) ends.

    >>> from tictacblitz import Match
    >>> batch = StateBatch(n=64)
    >>> batch.load(Match(seed=3))
    >>> result = batch.rollout(("random", "random"), seeds=0)
    >>> sorted(set(result["round_result"].tolist())) <= [0, 1, 2]
    True
    """

    cdef RulesC rc
    cdef MatchState* states
    cdef readonly Py_ssize_t n
    cdef readonly object rules
    cdef object _seeds
    cdef BotTables tb

    def __cinit__(self):
        self.states = NULL

    def __dealloc__(self):
        free(self.states)

    def __init__(self, rules=None, Py_ssize_t n=1):
        if rules is None:
            rules = default_rules()
        if n < 1:
            raise ValueError(f"n must be >= 1, not {n}")
        fill_rules(&self.rc, rules)
        self.rules = rules
        self.n = n
        tables_init(&self.tb, &self.rc)
        self.states = <MatchState*>calloc(n, sizeof(MatchState))
        if self.states == NULL:
            raise MemoryError(f"cannot allocate {n} states")
        self._seeds = np.zeros(n, dtype=np.uint64)
        cdef Py_ssize_t i
        for i in range(n):               # every slot starts as a fresh match (seed 0)
            state_new_match(&self.states[i], &self.rc, 0, True, 0, 0, DEFAULT_STREAM, NULL)

    def __len__(self):
        return self.n

    cdef Py_ssize_t[::1] _indices(self, indices):
        if indices is None:
            return np.arange(self.n, dtype=np.intp)
        arr = np.atleast_1d(np.asarray(indices, dtype=np.intp))
        if arr.size and (arr.min() < 0 or arr.max() >= self.n):
            raise IndexError(f"slot indices out of range (n={self.n})")
        return np.ascontiguousarray(arr)

    def load(self, Match match, indices=None):
        """Copy ``match``'s state into the given slots (default: every slot)."""
        if match.rules != self.rules:
            raise ValueError("the match has other rules than the batch")
        cdef Py_ssize_t[::1] idx = self._indices(indices)
        cdef Py_ssize_t k
        with nogil:
            for k in range(idx.shape[0]):
                memcpy(&self.states[idx[k]], &match.st, sizeof(MatchState))
        self._seeds[np.asarray(idx)] = match.seed & 0xFFFFFFFFFFFFFFFF

    def copy_from(self, StateBatch source, src_indices, dst_indices):
        """``self[dst[k]] = source[src[k]]`` for every k (same rules)."""
        if source.rules != self.rules:
            raise ValueError("the batches have other rules")
        cdef Py_ssize_t[::1] src = source._indices(src_indices)
        cdef Py_ssize_t[::1] dst = self._indices(dst_indices)
        cdef Py_ssize_t k
        if src.shape[0] != dst.shape[0]:
            raise ValueError("src_indices and dst_indices differ in length")
        with nogil:
            for k in range(src.shape[0]):
                memcpy(&self.states[dst[k]], &source.states[src[k]], sizeof(MatchState))
        self._seeds[np.asarray(dst)] = source._seeds[np.asarray(src)]

    def match(self, Py_ssize_t i):
        """Slot i as an independent ``Match`` (no round history)."""
        if not 0 <= i < self.n:
            raise IndexError(f"slot {i} out of range (n={self.n})")
        return _match_of(&self.rc, &self.states[i], self.rules, self._seeds[i])

    def rollout(self, policies=("random", "random"), seeds=0, *, until="round", num_threads=None):
        """Play every slot on with a native policy per seat until its round ends
        (``until="round"``) or its match (``"match"``). A policy is ``"random"`` (acts at
        every ms a charge is full), ``"wait"``, or a native bot spec (the 6-tuple of
        ``BotSpec.native()``: greedy, search, any preset), driven as ``play_matches``
        drives it: a slot loaded with ``Match(seed=s)`` and rolled out with ``seeds=s``
        and ``until="match"`` plays the match ``play_matches`` plays for seed s.

        ``seeds`` (an int s → s, s+1, ... or one per slot) seed the policies: slot i's X
        plays from ``seeds[i] ^ SALT_X``, O from ``seeds[i] ^ SALT_O``. Returns arrays:
        ``round_result`` / ``match_result`` (0 X, 1 O, 2 draw, -1 none), ``round``,
        ``t``, ``round_wins`` (N, 2), and totals ``accepted`` / ``rejected``.
        """
        cdef int pol[2]
        cdef Policy specs[2]
        cdef int p, nt = _threads(num_threads)
        cdef bint whole
        if until not in ("round", "match"):
            raise ValueError(f"until must be 'round' or 'match', not {until!r}")
        whole = until == "match"
        if len(policies) != 2:
            raise ValueError(f"policies must name one policy per seat, not {policies!r}")
        memset(specs, 0, sizeof(specs))
        for p in range(2):
            if policies[p] is not None and not isinstance(policies[p], str):
                _native_spec(&specs[p], policies[p], False)
                pol[p] = POLICY_NATIVE
                continue
            pol[p] = _policy(policies[p])
            if pol[p] == POLICY_EXTERNAL:
                raise ValueError("rollout policies are native: 'random', 'wait' or a bot spec")
        cdef const uint64_t[::1] sv = seed_array(seeds, self.n)
        cdef Py_ssize_t i, n = self.n
        acc = np.zeros(n, dtype=np.int64)
        rej = np.zeros(n, dtype=np.int64)
        cdef int64_t[::1] accv = acc
        cdef int64_t[::1] rejv = rej
        if nt <= 1 or n < 2:
            with nogil:
                for i in range(n):
                    _rollout_slot(&self.states[i], &self.rc, pol, sv[i], whole, &accv[i],
                                  &rejv[i], specs, &self.tb)
        else:
            for i in prange(n, nogil=True, num_threads=nt, schedule="dynamic"):
                _rollout_slot(&self.states[i], &self.rc, pol, sv[i], whole, &accv[i], &rejv[i],
                              specs, &self.tb)
        out = self.results()
        out["accepted"] = int(acc.sum())
        out["rejected"] = int(rej.sum())
        return out

    def results(self):
        """Per slot: ``round_result``, ``match_result``, ``round``, ``t``, ``round_wins``."""
        cdef Py_ssize_t i
        cdef MatchState* s
        rr = np.empty(self.n, dtype=np.int8)
        mr = np.empty(self.n, dtype=np.int8)
        rounds = np.empty(self.n, dtype=np.int32)
        ts = np.empty(self.n, dtype=np.int32)
        wins = np.empty((self.n, 2), dtype=np.int32)
        for i in range(self.n):
            s = &self.states[i]
            rr[i] = s.round_result if s.round_over else RESULT_NONE
            mr[i] = s.match_result if s.match_over else RESULT_NONE
            rounds[i] = s.round
            ts[i] = s.t
            wins[i, 0] = s.round_wins[0]
            wins[i, 1] = s.round_wins[1]
        return {"round_result": rr, "match_result": mr, "round": rounds, "t": ts,
                "round_wins": wins}


cdef void _rollout_slot(MatchState* s, const RulesC* r, const int* pol, uint64_t seed,
                        bint whole, int64_t* accepted, int64_t* rejected, const Policy* specs,
                        const BotTables* tb) noexcept nogil:
    cdef uint64_t rngs[2]
    cdef RolloutStats stats
    rngs[0] = seed ^ SALT_X
    rngs[1] = seed ^ SALT_O
    stats.accepted = 0
    stats.rejected = 0
    rollout_state(s, r, pol, rngs, whole, &stats, specs, tb)
    accepted[0] = stats.accepted
    rejected[0] = stats.rejected
