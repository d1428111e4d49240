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


# ---------------------------------------------------------------------------------------
# Small helpers

cdef inline int pick(uint64_t m, uint64_t* rng) noexcept nogil:
    """A uniformly drawn cell of the non-empty mask m (one draw; none for one cell)."""
    cdef int n = popcount(m)
    if n == 1:
        return lowest(m)
    return nth_set_bit(m, rng_below(rng, <uint64_t>n))


cdef inline int earliest(const MatchState* s, uint64_t m) noexcept nogil:
    """The setting mark of m that sets first (R6), lowest cell on ties."""
    cdef int c, best = -1
    cdef int32_t best_t = 0x7FFFFFFF
    while m:
        c = lowest(m)
        m &= m - 1
        if s.deadline[c] < best_t:
            best_t = s.deadline[c]
            best = c
    return best


cdef inline uint64_t all_powerups(const MatchState* s) noexcept nogil:
    return s.powerups[0] | s.powerups[1] | s.powerups[2] | s.powerups[3]


cdef inline int powerup_at(const MatchState* s, uint64_t bit) noexcept nogil:
    cdef int k
    for k in range(4):
        if s.powerups[k] & bit:
            return k
    return -1


cdef void tables_init(BotTables* tb, const RulesC* r) noexcept nogil:
    """Every window of R11 as a mask, from the geometry's start masks."""
    cdef const Geometry* g = &r.geo
    cdef int d, k, c
    cdef uint64_t starts, w
    tb.n_windows = 0
    for d in range(4):
        starts = g.starts[d]
        while starts:
            c = lowest(starts)
            starts &= starts - 1
            w = 0
            for k in range(g.line_length):
                w |= <uint64_t>1 << (c + k * g.step[d])
            tb.window[tb.n_windows] = w
            tb.n_windows += 1


cdef void policy_init(Policy* pol, int kind, int32_t reaction_ms, double error_rate,
                      int32_t budget, uint64_t seed) noexcept nogil:
    pol.kind = kind
    pol.reaction_ms = reaction_ms
    pol.error_rate = error_rate
    pol.budget = budget
    pol.horizon_ms = C_DEFAULT_HORIZON_MS
    pol.candidates = C_DEFAULT_CANDIDATES
    pol.reaction_sd = 0
    pol.attention = 1.0
    pol.blind = False
    policy_seed(pol, seed)


# policy_seed (bots.pxd): a policy's streams for one match, its choices and its reactions'
# key; inline there, so the batched stepper (rollouts.pyx) seeds its seats' keys alike.


cdef enum:
    MAX_REACTION_MS = 60000       # the longest drawn reaction (the player model's range)
    NORMAL_LEVELS = 4096          # the quantiles of a standard normal a reaction draws from

cdef double NORMAL_Q[NORMAL_LEVELS]


def _fill_normal_quantiles():
    """NORMAL_Q[i]: the standard normal's quantile at (i + 1/2) / 4096, so a uniform
    12-bit draw is a normal one (to within 1/4096 in probability; the table's standard
    deviation is 0.998): cheaper than Box-Muller's logarithm, root and cosine."""
    from statistics import NormalDist
    normal = NormalDist()
    for i in range(NORMAL_LEVELS):
        NORMAL_Q[i] = normal.inv_cdf((i + 0.5) / NORMAL_LEVELS)


_fill_normal_quantiles()


cdef int32_t reaction_at(const Policy* pol, int64_t since) noexcept nogil:
    """The reaction of the bot to a charge full since ``since`` ms (issue 23, item 2):
    ``reaction_ms`` exactly when its spread is 0 (every bot before the player model);
    else a draw of a lognormal with mean ``reaction_ms`` and standard deviation
    ``reaction_sd`` (right-skewed and positive, as human reaction times are), rounded to
    a ms and capped at 60 s. The draw is a pure function of the bot's seed and ``since``
    (one hash of its reactions' key and the reaction's start), so a bot keeps no memory:
    asked twice, or from Python (NativeBot) and in the native loop, it reacts alike."""
    cdef double x
    if pol.reaction_sd == 0:
        return pol.reaction_ms
    # One hash of (seed, since): its top 12 bits pick a standard normal quantile.
    x = floor(exp(pol.reaction_mu + pol.reaction_sigma
                  * NORMAL_Q[mix64(pol.reaction_key ^ <uint64_t>since) >> 52]) + 0.5)
    if x > MAX_REACTION_MS:
        return MAX_REACTION_MS
    return <int32_t>x


cdef uint64_t winning_cells(const RulesC* r, uint64_t m) noexcept nogil:
    """Cells not in m that would complete a line with m (R10): Pons'
    compute_winning_position on this layout. For each direction and each position k of
    the missing cell, the windows whose other cells are all in m, shifted to k."""
    cdef const Geometry* g = &r.geo
    cdef int d, k, j, s, n = g.line_length
    cdef uint64_t w, out = 0
    for d in range(4):
        s = g.step[d]
        for k in range(n):
            w = g.starts[d]
            for j in range(n):
                if j != k:
                    w &= m >> (j * s)
            out |= w << (k * s)
    return out & ~m & g.board


# ---------------------------------------------------------------------------------------
# Greedy

cdef void build_scores(const BotTables* tb, const MatchState* s, int p, uint64_t places,
                       uint64_t own_set, uint64_t own_setting, int32_t* score) noexcept nogil:
    """Per placeable cell: how much a mark there builds and blocks.

    Building: every window without opponent marks through the cell is worth 4**(own set
    marks in it) plus 2 per own setting mark (build from set marks). Blocking: every
    window without own marks is worth 4**(opponent set marks) - 1 plus 1 per opponent
    setting mark. More windows through a cell (the centre) score more by themselves."""
    cdef uint64_t theirs = s.set_marks[1 - p] | s.setting[1 - p]
    cdef uint64_t mine = s.set_marks[p] | s.setting[p]
    cdef uint64_t w, free_cells
    cdef int i, c, v
    memset(score, 0, 64 * sizeof(int32_t))
    for i in range(tb.n_windows):
        w = tb.window[i]
        free_cells = w & places
        if not free_cells:
            continue
        v = 0
        if not (w & theirs):
            v += (1 << (2 * popcount(w & own_set))) + 2 * popcount(w & own_setting)
        if not (w & mine):
            v += (1 << (2 * popcount(w & s.set_marks[1 - p]))) - 1 + popcount(w & s.setting[1 - p])
        while free_cells:
            c = lowest(free_cells)
            free_cells &= free_cells - 1
            score[c] += v


cdef int best_knockout(const BotTables* tb, const MatchState* s, int p, uint64_t targets,
                       int need) noexcept nogil:
    """The setting opponent mark of `targets` in the most dangerous window free of own
    marks (most opponent marks, then most set ones), counting only windows with at least
    `need` opponent marks; earliest to set on ties. -1 if none qualifies."""
    cdef uint64_t mine = s.set_marks[p] | s.setting[p]
    cdef uint64_t theirs = s.set_marks[1 - p] | s.setting[1 - p]
    cdef uint64_t w, m, best_mask = 0
    cdef int i, n, v, best = -1
    for i in range(tb.n_windows):
        w = tb.window[i]
        m = w & targets
        if not m or (w & mine):
            continue
        n = popcount(w & theirs)
        if n < need:
            continue
        v = n * 16 + popcount(w & s.set_marks[1 - p])
        if v > best:
            best = v
            best_mask = m
        elif v == best:
            best_mask |= m
    if best < 0:
        return -1
    return earliest(s, best_mask)


cdef int place_powerup_or_build(Policy* pol, const BotTables* tb, const MatchState* s,
                                const RulesC* r, int p, uint64_t places, uint64_t own_set,
                                uint64_t own_setting, int* kind, int* cell) noexcept nogil:
    """Greedy's last two rules (powerup, build); RULE_NONE when no placement is legal
    (only knock-outs are, and none is worth it: wait, leave lone marks alone)."""
    cdef int o = 1 - p, n = r.geo.line_length, i, c, k, v, best
    cdef uint64_t opp_set = s.set_marks[o]
    cdef uint64_t theirs = opp_set | s.setting[o]
    cdef uint64_t m, w, best_mask, bit
    cdef int32_t score[64]
    cdef bint near_line
    # 6. Powerups worth a detour: a bomb touching two or more opponent set marks, a swap
    #    next to an opponent set mark, a freeze or haste while one or two from a line.
    m = places & all_powerups(s)
    if m:
        best = 0
        best_mask = 0
        v = 0
        for i in range(tb.n_windows):      # own progress: most own marks in an open window
            w = tb.window[i]
            if not (w & theirs):
                k = popcount(w & (own_set | own_setting))
                if k > v:
                    v = k
        near_line = v >= n - 2
        while m:
            c = lowest(m)
            m &= m - 1
            bit = <uint64_t>1 << c
            k = powerup_at(s, bit)
            i = popcount(r.geo.neighbours[c] & opp_set)
            if k == KIND_BOMB:
                i = 20 + i if i >= 2 else 0
            elif k == KIND_SWAP:
                i = 10 + i if i >= 1 else 0
            else:                          # freeze, haste
                i = 15 if near_line else 0
            if i > best:
                best = i
                best_mask = bit
            elif i == best and i > 0:
                best_mask |= bit
        if best > 0:
            kind[0] = ACT_PLACE
            cell[0] = pick(best_mask, &pol.rng)
            return RULE_POWERUP
    # 7. Build: the placement that builds most from set marks and blocks best.
    if places:
        build_scores(tb, s, p, places, own_set, own_setting, score)
        best = -1
        best_mask = 0
        m = places
        while m:
            c = lowest(m)
            m &= m - 1
            if score[c] > best:
                best = score[c]
                best_mask = <uint64_t>1 << c
            elif score[c] == best:
                best_mask |= <uint64_t>1 << c
        kind[0] = ACT_PLACE
        cell[0] = pick(best_mask, &pol.rng)
        return RULE_BUILD
    return RULE_NONE


cdef int greedy_core(Policy* pol, const BotTables* tb, const MatchState* s, const RulesC* r,
                     int p, uint64_t places, uint64_t kos, int* kind, int* cell) noexcept nogil:
    """The greedy rules, in priority order (docs/bots.md); the position has a legal action."""
    cdef int o = 1 - p, n = r.geo.line_length, i, c
    cdef uint64_t own_set = s.set_marks[p], own_setting = s.setting[p]
    cdef uint64_t opp_set = s.set_marks[o]
    cdef uint64_t mine = own_set | own_setting
    cdef uint64_t theirs = opp_set | s.setting[o]
    cdef uint64_t oldest = 0, m, w
    # R12: at the limit a placement retires the oldest mark, so placements are judged
    # as if it were gone ("check the faded mark").
    if popcount(mine) >= r.mark_limit:
        c = state_oldest(s, p)
        if c >= 0:
            oldest = <uint64_t>1 << c
    own_set &= ~oldest
    own_setting &= ~oldest

    # 1. Always knock out the unset last mark of the opponent's four (R9, R10).
    #    (Rules 1 and 3 answer the opponent's line about to complete: a blind decision,
    #    the player model's lapse of attention, issue 23, skips them.)
    m = 0 if pol.blind else kos & winning_cells(r, opp_set)
    if m:
        kind[0] = ACT_KNOCKOUT
        cell[0] = earliest(s, m)
        return RULE_KO_FOUR
    # 2. A cell completing a line of own set marks: every mark there must be knocked
    #    out, so keep dropping marks into such cells (make more threats than they answer).
    m = places & winning_cells(r, own_set)
    if m:
        kind[0] = ACT_PLACE
        cell[0] = pick(m, &pol.rng)
        return RULE_THREAT
    # 3. Block with set marks: a mark in the gap of three opponent set marks.
    m = 0 if pol.blind else places & winning_cells(r, opp_set)
    if m:
        kind[0] = ACT_PLACE
        cell[0] = pick(m, &pol.rng)
        return RULE_BLOCK
    # 4. Knock out a mark that gives the opponent line_length - 1 in a window with no
    #    own mark (room for the last one). Lone marks are left alone.
    if kos and n >= 2:
        c = best_knockout(tb, s, p, kos, n - 1)
        if c >= 0:
            kind[0] = ACT_KNOCKOUT
            cell[0] = c
            return RULE_KO_THREE
    # 5. At the limit, if the oldest mark holds up one of the best own lines (a window
    #    free of opponent marks and line_length - 2 or more own marks), knock something
    #    out instead of placing (the most dangerous setting mark).
    if oldest and kos and n >= 2:
        for i in range(tb.n_windows):
            w = tb.window[i]
            if (w & oldest) and not (w & theirs) and popcount(w & mine) >= n - 2:
                kind[0] = ACT_KNOCKOUT
                cell[0] = best_knockout(tb, s, p, kos, 0)
                if cell[0] < 0:
                    cell[0] = earliest(s, kos)
                return RULE_RETIRE_GUARD
    return place_powerup_or_build(pol, tb, s, r, p, places, own_set, own_setting, kind, cell)


cdef inline int before_deciding(Policy* pol, const MatchState* s, const RulesC* r, int player,
                                uint64_t* places, uint64_t* kos, int* kind,
                                int* cell) noexcept nogil:
    """What greedy and strong do first: RULE_NONE with nothing legal (wait), RULE_ERROR
    after a slip (a random legal action, at the policy's error rate), else -1 (decide),
    with the legal placements and knock-outs in places/kos."""
    places[0] = state_legal_mask(s, r, player, ACT_PLACE)
    kos[0] = state_legal_mask(s, r, player, ACT_KNOCKOUT)
    if not (places[0] | kos[0]):
        return RULE_NONE
    if pol.error_rate > 0.0 and rng_unit(&pol.rng) < pol.error_rate:
        random_action(s, r, player, &pol.rng, kind, cell)
        return RULE_ERROR
    return -1


cdef int greedy_decide(Policy* pol, const BotTables* tb, const MatchState* s, const RulesC* r,
                       int player, int* kind, int* cell) noexcept nogil:
    """Greedy's action now (RULE_* that chose it), or RULE_NONE to wait."""
    cdef uint64_t places, kos
    cdef int early = before_deciding(pol, s, r, player, &places, &kos, kind, cell)
    if early != -1:
        return early
    if pol.attention < 1.0:  # drawn only then: an attentive bot's stream is unchanged
        pol.blind = rng_unit(&pol.rng) >= pol.attention
    return greedy_core(pol, tb, s, r, player, places, kos, kind, cell)


# ---------------------------------------------------------------------------------------
# Strong: a learned pattern evaluation played one ply deep (issue 23 item 2)
#
# Every legal action gets a score, the sum over the windows (R11) through its cell of a
# table entry indexed by the window's counts (own set, own setting, opponent set,
# opponent setting: 5**4 entries, one table for placements, one for knock-outs), plus a
# few extras (knock-out tempo, the target's time to set, powerups). The highest score
# is played, ties drawn from the policy's stream. The tables are learned
# (scripts/train_strong.py) and loaded from package data by the Python face before the
# first strong policy is made (set_strong_weights).

cdef enum:
    SW_TABLE = 625               # 5**4 window states
    SW_EXTRA = 16
    SX_KO_BIAS = 0               # every knock-out (its longer refill, R5)
    SX_KO_TIME = 1               # 4: target sets within a place refill, a ko refill, two, later
    SX_POWERUP = 5               # 4: claiming a bomb, freeze, haste, swap
    SX_BOMB_SET = 9              # per opponent set mark a bomb would remove
    SX_BOMB_SETTING = 10         # per opponent setting mark a bomb would remove
    SX_SWAP_SET = 11             # per opponent set mark a swap would steal (up to swap_max)
    SX_NEAR_LINE = 12            # freeze or haste while line_length - 2 from a line
    SX_WAIT = 13                 # only knock-outs legal: knock out if the best beats this

cdef double SW_PLACE[625]
cdef double SW_KO[625]
cdef double SW_X[16]
cdef bint SW_LOADED = False


def set_strong_weights(place, knockout, extra):
    """Load the strong policy's tables (625, 625 and 16 floats): once, from package
    data, before a strong policy plays (tictacblitz.games.blitz.bots does it)."""
    global SW_LOADED
    cdef int i
    place = np.ascontiguousarray(place, dtype=np.float64).ravel()
    knockout = np.ascontiguousarray(knockout, dtype=np.float64).ravel()
    extra = np.ascontiguousarray(extra, dtype=np.float64).ravel()
    if place.shape[0] != SW_TABLE or knockout.shape[0] != SW_TABLE or extra.shape[0] != SW_EXTRA:
        raise ValueError(f"strong weights must be {SW_TABLE}, {SW_TABLE} and {SW_EXTRA} "
                         f"floats, not {place.shape[0]}, {knockout.shape[0]}, {extra.shape[0]}")
    if not (np.isfinite(place).all() and np.isfinite(knockout).all() and np.isfinite(extra).all()):
        raise ValueError("strong weights must be finite")
    for i in range(SW_TABLE):
        SW_PLACE[i] = place[i]
        SW_KO[i] = knockout[i]
    for i in range(SW_EXTRA):
        SW_X[i] = extra[i]
    SW_LOADED = True


cdef inline int32_t refill_ms(const MatchState* s, const RulesC* r, int p,
                              int64_t need) noexcept nogil:
    """Ms a refill of `need` units takes if it starts now at the current speed (R5)."""
    cdef int64_t rate = r.speed[0]
    if s.frozen_until[p] > s.t:
        rate = r.speed[1]
    elif s.hasted_until[p] > s.t:
        rate = r.speed[2]
    return <int32_t>((need + rate - 1) // rate)


cdef inline int count4(uint64_t m) noexcept nogil:
    """A count for the tables: at most 4 (longer lines than R10's 4 count their
    first four marks alike; the tables were learned on lines of 4)."""
    cdef int c = popcount(m)
    return c if c < 4 else 4


cdef inline int window_state(uint64_t own_set, uint64_t own_setting, uint64_t opp_set,
                             uint64_t opp_setting, bint longer) noexcept nogil:
    """A window's entry in the 5**4 tables, from its marks by owner and state; `longer`:
    lines longer than 4 (only they can hold more than 4 of a kind)."""
    if longer:
        return (count4(own_set) * 125 + count4(own_setting) * 25 + count4(opp_set) * 5
                + count4(opp_setting))
    return (popcount(own_set) * 125 + popcount(own_setting) * 25 + popcount(opp_set) * 5
            + popcount(opp_setting))


cdef int strong_core(Policy* pol, const BotTables* tb, const MatchState* s, const RulesC* r,
                     int p, uint64_t places, uint64_t kos, int* kind, int* cell) noexcept nogil:
    cdef int o = 1 - p, n = r.geo.line_length, i, c, k, v, idx, idx_ko
    cdef uint64_t own_set = s.set_marks[p], own_setting = s.setting[p]
    cdef uint64_t opp_set = s.set_marks[o], opp_setting = s.setting[o]
    cdef uint64_t mine, theirs, oldest = 0, m, w, best_mask = 0, bit
    cdef double score[64]
    cdef double best, x
    cdef int32_t t_place, t_ko, left
    cdef bint near_line = False, ko_best = False, want_near
    if popcount(own_set | own_setting) >= r.mark_limit:
        c = state_oldest(s, p)
        if c >= 0:
            oldest = <uint64_t>1 << c
    # Placements are judged as if the oldest own mark were gone (R12), knock-outs on
    # the board as it is (a knock-out retires nothing).
    mine = (own_set | own_setting) & ~oldest
    theirs = opp_set | opp_setting
    want_near = (places & (s.powerups[KIND_FREEZE] | s.powerups[KIND_HASTE])) != 0
    memset(score, 0, 64 * sizeof(double))
    for i in range(tb.n_windows):
        w = tb.window[i]
        if not ((places | kos) & w):
            continue
        idx = window_state(w & own_set & ~oldest, w & own_setting & ~oldest, w & opp_set,
                           w & opp_setting, n > 4)
        if want_near and not (w & theirs) and popcount(w & mine) >= n - 2:
            near_line = True
        m = w & places
        if m:
            x = SW_PLACE[idx]
            while m:
                c = lowest(m)
                m &= m - 1
                score[c] += x
        m = w & kos
        if m:
            idx_ko = idx
            if w & oldest:             # a knock-out retires nothing: count the oldest
                idx_ko = window_state(w & own_set, w & own_setting, w & opp_set, w & opp_setting,
                                      n > 4)
            x = SW_KO[idx_ko]
            while m:
                c = lowest(m)
                m &= m - 1
                score[c] += x
    # Knock-outs: tempo and the target's time to set.
    best = -1e300
    if kos:
        t_place = refill_ms(s, r, p, r.need_place) + pol.reaction_ms
        t_ko = refill_ms(s, r, p, r.need_knockout) + pol.reaction_ms
        m = kos
        while m:
            c = lowest(m)
            m &= m - 1
            left = s.deadline[c] - s.t
            k = 0 if left <= t_place else (1 if left <= t_ko else (2 if left <= 2 * t_ko else 3))
            x = score[c] + SW_X[SX_KO_BIAS] + SW_X[SX_KO_TIME + k]
            if x > best:
                best = x
                best_mask = <uint64_t>1 << c
            elif x == best:
                best_mask |= <uint64_t>1 << c
        ko_best = True
        if not places and best < SW_X[SX_WAIT]:
            return RULE_NONE
    # Placements: the window tables and the powerups.
    m = places
    while m:
        c = lowest(m)
        m &= m - 1
        bit = <uint64_t>1 << c
        x = score[c]
        if all_powerups(s) & bit:
            k = powerup_at(s, bit)
            x += SW_X[SX_POWERUP + k]
            if k == KIND_BOMB:
                x += (SW_X[SX_BOMB_SET] * popcount(r.geo.neighbours[c] & opp_set)
                      + SW_X[SX_BOMB_SETTING] * popcount(r.geo.neighbours[c] & opp_setting))
            elif k == KIND_SWAP:
                v = popcount(r.geo.neighbours[c] & opp_set)
                x += SW_X[SX_SWAP_SET] * (v if v < r.swap_max else r.swap_max)
            elif near_line:
                x += SW_X[SX_NEAR_LINE]
        if x > best:
            best = x
            best_mask = bit
            ko_best = False
        elif x == best and not ko_best:
            best_mask |= bit
    kind[0] = ACT_KNOCKOUT if ko_best else ACT_PLACE
    cell[0] = pick(best_mask, &pol.rng)
    return RULE_STRONG


cdef int strong_decide(Policy* pol, const BotTables* tb, const MatchState* s, const RulesC* r,
                       int player, int* kind, int* cell) noexcept nogil:
    cdef uint64_t places, kos
    cdef int early = before_deciding(pol, s, r, player, &places, &kos, kind, cell)
    if early != -1:
        return early
    return strong_core(pol, tb, s, r, player, places, kos, kind, cell)


# ---------------------------------------------------------------------------------------
# The round loop (real matches and rollouts alike)

cdef inline void tally(MatchRecord* rec, EventSink* sink) noexcept nogil:
    cdef Py_ssize_t i
    cdef EventC* e
    cdef int r
    for i in range(sink.count):
        e = &sink.events[i]
        r = e.round - 1               # per-round counts: the first MAX_RECORD_ROUNDS rounds
        if e.kind == EV_PLACED:
            rec.seat[e.player].placements += 1
        elif e.kind == EV_KNOCKED_OUT:
            rec.seat[e.player].knockouts += 1
            if 0 <= r < MAX_RECORD_ROUNDS:
                rec.round_knockouts[r][e.player] += 1
        elif e.kind == EV_REJECTED:
            rec.seat[e.player].rejected += 1
        elif e.kind == EV_RETIRED:
            rec.seat[e.player].retirements += 1
        elif e.kind == EV_POWERUP_CLAIMED:
            rec.seat[e.player].powerups[e.code] += 1
            if 0 <= r < MAX_RECORD_ROUNDS and rec.round_powerups[r][e.player][e.code] < 127:
                rec.round_powerups[r][e.player][e.code] += 1
        elif e.kind == EV_BOMBED:                 # player = the mark's owner
            rec.seat[1 - e.player].bombed += 1
        elif e.kind == EV_STOLEN:                 # player = the new owner
            rec.seat[e.player].stolen += 1


cdef void play_round(MatchState* s, const RulesC* r, const BotTables* tb, Policy** pols,
                     int32_t until_t, MatchRecord* rec, EventSink* sink,
                     int64_t* decide_ns) noexcept nogil:
    """Play the current round with two policies until it ends (or ms `until_t`).

    `rec` and `sink` (both or neither) count what happens; `decide_ns` (or NULL) sums
    the time spent deciding."""
    cdef int32_t full_since[2]
    cdef int32_t react_due[2]     # full_since + this reaction (drawn once a charge fill)
    cdef int32_t next_t, ready, due
    cdef int kinds[2]
    cdef int cells[2]
    cdef int rule[2]
    cdef int p, xr = 0, orr = 0
    cdef int64_t sims
    cdef timespec t0, t1
    full_since[0] = NO_TIME
    full_since[1] = NO_TIME
    kinds[0] = kinds[1] = cells[0] = cells[1] = 0
    while not s.round_over and s.t < until_t:
        for p in range(2):
            rule[p] = RULE_NONE
            if state_charge_full(s, p):
                if full_since[p] == NO_TIME:
                    full_since[p] = s.t
                    react_due[p] = s.t + reaction_at(pols[p], s.t)
                if s.t >= react_due[p]:
                    sims = 0
                    if decide_ns != NULL:
                        clock_gettime(CLOCK_MONOTONIC, &t0)
                    rule[p] = policy_decide(pols[p], tb, s, r, p, &kinds[p], &cells[p], &sims)
                    if decide_ns != NULL:
                        clock_gettime(CLOCK_MONOTONIC, &t1)
                        decide_ns[p] += ((t1.tv_sec - t0.tv_sec) * 1000000000
                                         + (t1.tv_nsec - t0.tv_nsec))
                    if rec != NULL:
                        rec.seat[p].decisions += 1
                        rec.seat[p].rules[rule[p]] += 1
                        rec.seat[p].simulations += sims
                        if rule[p] == RULE_NONE:
                            rec.seat[p].waits += 1
            else:
                full_since[p] = NO_TIME
        if sink != NULL:
            sink.count = 0
        if rule[0] != RULE_NONE and rule[1] != RULE_NONE:
            state_act_both(s, r, kinds[0], cells[0], kinds[1], cells[1], &xr, &orr, sink)
        elif rule[0] != RULE_NONE:
            xr = state_act(s, r, PLAYER_X, kinds[0], cells[0], sink)
        elif rule[1] != RULE_NONE:
            orr = state_act(s, r, PLAYER_O, kinds[1], cells[1], sink)
        if rec != NULL and sink != NULL:
            tally(rec, sink)
        # An accepted action empties the charge: the reaction delay starts again from
        # the refill (at once with a refill of 0 ms). A rejected one costs nothing (R7).
        if rule[0] != RULE_NONE and xr == ACCEPTED:
            full_since[0] = s.t if state_charge_full(s, 0) else NO_TIME
            react_due[0] = s.t + reaction_at(pols[0], s.t)  # read only while full
        if rule[1] != RULE_NONE and orr == ACCEPTED:
            full_since[1] = s.t if state_charge_full(s, 1) else NO_TIME
            react_due[1] = s.t + reaction_at(pols[1], s.t)
        if s.round_over:
            break
        # The next ms anything can happen: a charge filling, a reaction running out,
        # something timed (R2); never this ms again (one action per player per ms).
        next_t = state_next_event_t(s, r)
        for p in range(2):
            if not state_charge_full(s, p):
                full_since[p] = NO_TIME
                ready = state_charge_ready_t(s, r, p)
                if ready < next_t:
                    next_t = ready
            elif full_since[p] != NO_TIME:
                due = react_due[p]
                if s.t < due < next_t:
                    next_t = due
        # A player who acted is asked again the next ms (a rejected action costs
        # nothing, R7, so it may act again at once); a Python bot is driven the same way.
        if next_t <= s.t or rule[0] != RULE_NONE or rule[1] != RULE_NONE:
            next_t = s.t + 1
        if next_t > until_t:
            next_t = until_t
        state_advance_to(s, r, next_t, NULL)


cdef void policy_match(MatchState* s, const RulesC* r, const BotTables* tb, Policy* x,
                       Policy* o, MatchRecord* rec, EventSink* scratch) noexcept nogil:
    """Play the match in `s` to its end (R22) and fill `rec`. `scratch` is a reusable
    event buffer (events are read after each action to count what happened)."""
    _policy_match(s, r, tb, x, o, rec, scratch, NULL)


cdef void _policy_match(MatchState* s, const RulesC* r, const BotTables* tb, Policy* x,
                        Policy* o, MatchRecord* rec, EventSink* scratch,
                        int64_t* decide_ns) noexcept nogil:
    cdef Policy* pols[2]
    cdef int i
    pols[0] = x
    pols[1] = o
    memset(rec, 0, sizeof(MatchRecord))
    while True:
        play_round(s, r, tb, pols, r.round_ms + 1, rec, scratch, decide_ns)
        i = s.round - 1
        if i < MAX_RECORD_ROUNDS:
            rec.round_result[i] = s.round_result
            rec.round_by[i] = s.round_by
            rec.round_end_t[i] = s.t
        if s.match_over:
            break
        state_next_round(s, r, NULL)
    rec.winner = s.match_result
    rec.rounds = s.round
    rec.round_wins[0] = s.round_wins[0]
    rec.round_wins[1] = s.round_wins[1]


# ---------------------------------------------------------------------------------------
# Search

cdef double evaluate(const MatchState* s, const RulesC* r, int p) noexcept nogil:
    """A rollout's value for p in [0, 1]: the round result if it ended, else the R20
    timeout scores and the open threat cells of both sides."""
    cdef int o = 1 - p, mine, theirs, tm, tt
    cdef double v
    if s.round_over:
        if s.round_result == p:
            return 1.0
        if s.round_result == o:
            return 0.0
        return 0.5
    mine = timeout_score(&r.geo, s.set_marks[p], s.set_marks[o])
    theirs = timeout_score(&r.geo, s.set_marks[o], s.set_marks[p])
    tm = popcount(winning_cells(r, s.set_marks[p]) & ~(s.set_marks[o] | s.setting[o]))
    tt = popcount(winning_cells(r, s.set_marks[o]) & ~(s.set_marks[p] | s.setting[p]))
    v = 0.5 + 0.06 * (mine - theirs) + 0.08 * ((tm if tm < 3 else 3) - (tt if tt < 3 else 3))
    if v < 0.05:
        return 0.05
    if v > 0.95:
        return 0.95
    return v


cdef inline int add_candidate(int* ck, int* cc, int n, int most, int kind, int cell) noexcept nogil:
    cdef int i
    if n >= most or cell < 0:
        return n
    for i in range(n):
        if ck[i] == kind and cc[i] == cell:
            return n
    ck[n] = kind
    cc[n] = cell
    return n + 1


cdef int search_decide(Policy* pol, const BotTables* tb, const MatchState* s, const RulesC* r,
                       int p, int* kind, int* cell, int64_t* sims) noexcept nogil:
    cdef int o = 1 - p, n = 0, i, j, c, k, most, okind = 0, ocell = 0, orule, xr, orr
    cdef int ck[SEARCH_MAX_CANDIDATES]
    cdef int cc[SEARCH_MAX_CANDIDATES]
    cdef int visits[SEARCH_MAX_CANDIDATES]
    cdef double total[SEARCH_MAX_CANDIDATES]
    cdef int32_t score[64]
    cdef uint64_t places = state_legal_mask(s, r, p, ACT_PLACE)
    cdef uint64_t kos = state_legal_mask(s, r, p, ACT_KNOCKOUT)
    cdef uint64_t m, own_set, own_setting, oldest = 0
    cdef Policy rollout[2]
    cdef Policy* pols[2]
    cdef MatchState st
    cdef double ucb, best_ucb, logn
    cdef bint opp_acts
    if not (places | kos):
        return RULE_NONE
    if pol.error_rate > 0.0 and rng_unit(&pol.rng) < pol.error_rate:
        random_action(s, r, p, &pol.rng, kind, cell)
        return RULE_ERROR
    most = pol.candidates
    if most > SEARCH_MAX_CANDIDATES:
        most = SEARCH_MAX_CANDIDATES
    if most < 1:
        most = 1
    # Candidates: greedy's choice, the cells that complete or block a line, knock-outs
    # of the most dangerous setting marks, powerups, then the best-building cells.
    rollout[0].error_rate = 0.0
    rollout[0].blind = False
    rollout[0].rng = rng_next(&pol.rng)
    k = greedy_core(&rollout[0], tb, s, r, p, places, kos, &ck[0], &cc[0])
    if k == RULE_NONE:
        return RULE_NONE
    n = 1
    own_set = s.set_marks[p]
    own_setting = s.setting[p]
    if popcount(own_set | own_setting) >= r.mark_limit:
        c = state_oldest(s, p)
        if c >= 0:
            oldest = <uint64_t>1 << c
    m = places & (winning_cells(r, own_set & ~oldest) | winning_cells(r, s.set_marks[o]))
    while m:
        n = add_candidate(ck, cc, n, most, ACT_PLACE, lowest(m))
        m &= m - 1
    if kos:
        n = add_candidate(ck, cc, n, most, ACT_KNOCKOUT, best_knockout(tb, s, p, kos, 0))
    m = places & all_powerups(s)
    while m:
        n = add_candidate(ck, cc, n, most, ACT_PLACE, lowest(m))
        m &= m - 1
    if places:
        build_scores(tb, s, p, places, own_set & ~oldest, own_setting & ~oldest, score)
        while n < most:
            j = -1
            m = places
            while m:
                c = lowest(m)
                m &= m - 1
                if score[c] >= 0 and (j < 0 or score[c] > score[j]):
                    j = c
            if j < 0:
                break
            score[j] = -1
            n = add_candidate(ck, cc, n, most, ACT_PLACE, j)
    if n == 1 or pol.budget <= 0:
        kind[0] = ck[0]
        cell[0] = cc[0]
        return RULE_SEARCH
    for i in range(n):
        visits[i] = 0
        total[i] = 0.0
    pols[0] = &rollout[0]
    pols[1] = &rollout[1]
    for k in range(2):
        rollout[k].kind = BOT_GREEDY
        rollout[k].reaction_ms = 0
        rollout[k].reaction_sd = 0    # rollouts react at once (reaction_at reads it)
        rollout[k].attention = 1.0    # and see every threat
        rollout[k].blind = False
        rollout[k].error_rate = ROLLOUT_ERROR
        rollout[k].budget = 0
    opp_acts = state_charge_full(s, o) and (state_legal_mask(s, r, o, ACT_PLACE)
                                            | state_legal_mask(s, r, o, ACT_KNOCKOUT)) != 0
    for k in range(pol.budget):
        # UCB1: each candidate once, then the most promising (mean + exploration).
        if k < n:
            i = k
        else:
            logn = log(<double>k)
            best_ucb = -1.0
            i = 0
            for j in range(n):
                ucb = total[j] / visits[j] + 0.5 * sqrt(logn / visits[j])
                if ucb > best_ucb:
                    best_ucb = ucb
                    i = j
        st = s[0]
        state_reseed(&st, rng_next(&pol.rng))    # the future is unknown: a fresh stream
        rollout[0].rng = rng_next(&pol.rng)
        rollout[1].rng = rng_next(&pol.rng)
        # The opponent's simultaneous reply at this ms (decoupled: it cannot see ours).
        if opp_acts:
            orule = greedy_decide(&rollout[o], tb, &st, r, o, &okind, &ocell)
        else:
            orule = RULE_NONE
        if orule != RULE_NONE:
            if p == PLAYER_X:
                state_act_both(&st, r, ck[i], cc[i], okind, ocell, &xr, &orr, NULL)
            else:
                state_act_both(&st, r, okind, ocell, ck[i], cc[i], &xr, &orr, NULL)
        else:
            state_act(&st, r, p, ck[i], cc[i], NULL)
        if not st.round_over:
            state_advance_to(&st, r, st.t + 1, NULL)
            play_round(&st, r, tb, pols, s.t + pol.horizon_ms, NULL, NULL, NULL)
        visits[i] += 1
        total[i] += evaluate(&st, r, p)
    sims[0] += pol.budget
    # The most visited candidate (UCB's robust choice); the higher mean on ties.
    j = 0
    for i in range(1, n):
        if visits[i] > visits[j] or (visits[i] == visits[j]
                                     and total[i] / visits[i] > total[j] / visits[j]):
            j = i
    kind[0] = ck[j]
    cell[0] = cc[j]
    return RULE_SEARCH


# ---------------------------------------------------------------------------------------

cdef int policy_decide(Policy* pol, const BotTables* tb, const MatchState* s, const RulesC* r,
                       int player, int* kind, int* cell, int64_t* sims) noexcept nogil:
    """The policy's action now (a RULE_* code) or RULE_NONE to wait. Adds the rollouts
    it ran to `sims`."""
    if pol.kind == BOT_RANDOM:
        if random_action(s, r, player, &pol.rng, kind, cell):
            return RULE_RANDOM
        return RULE_NONE
    if pol.kind == BOT_SEARCH:
        return search_decide(pol, tb, s, r, player, kind, cell, sims)
    if pol.kind == BOT_STRONG:
        return strong_decide(pol, tb, s, r, player, kind, cell)
    return greedy_decide(pol, tb, s, r, player, kind, cell)


# ---------------------------------------------------------------------------------------
# The Python face (tictacblitz.games.blitz.bots wraps these)

cdef int policy_from(Policy* pol, object spec, uint64_t seed) except -1:
    """spec: (kind name, reaction_ms, error_rate, budget, horizon_ms, candidates[,
    reaction_sd]): the spread is optional (0: a fixed reaction)."""
    kind, reaction_ms, error_rate, budget, horizon_ms, candidates = spec[:6]
    reaction_sd = spec[6] if len(spec) > 6 else 0
    attention = spec[7] if len(spec) > 7 else 1.0
    if not 0.0 <= attention <= 1.0:
        raise ValueError(f"attention={attention!r}: must be from 0 to 1")
    if attention < 1.0 and kind != "greedy":
        raise ValueError(f"attention={attention!r}: only greedy's rules model attention "
                         f"(not {kind})")
    if not 0 <= reaction_sd <= MAX_REACTION_MS:
        raise ValueError(f"reaction_sd={reaction_sd!r}: must be from 0 to {MAX_REACTION_MS}")
    if reaction_sd and not 0 < reaction_ms <= MAX_REACTION_MS:
        raise ValueError(f"reaction_ms={reaction_ms!r}: a reaction with a spread needs a "
                         f"mean from 1 to {MAX_REACTION_MS}")
    if kind not in KIND_CODES:
        raise ValueError(f"unknown bot kind {kind!r}: expected random, greedy, search or strong")
    if kind == "strong" and not SW_LOADED:
        raise ValueError("the strong bot's weights are not loaded: call set_strong_weights "
                         "(tictacblitz.games.blitz.bots loads the shipped ones)")
    if not 0 <= reaction_ms <= 10_000_000:
        raise ValueError(f"reaction_ms={reaction_ms!r}: must be from 0 to 10000000")
    if not 0.0 <= error_rate <= 1.0:
        raise ValueError(f"error_rate={error_rate!r}: must be from 0 to 1")
    if not 0 <= budget <= 1_000_000:
        raise ValueError(f"budget={budget!r}: must be from 0 to 1000000")
    if not 1 <= horizon_ms <= 10_000_000:
        raise ValueError(f"horizon_ms={horizon_ms!r}: must be from 1 to 10000000")
    if not 1 <= candidates <= SEARCH_MAX_CANDIDATES:
        raise ValueError(f"candidates={candidates!r}: must be from 1 to {SEARCH_MAX_CANDIDATES}")
    policy_init(pol, KIND_CODES[kind], reaction_ms, error_rate, budget, seed)
    pol.horizon_ms = horizon_ms
    pol.candidates = candidates
    pol.reaction_sd = reaction_sd
    pol.attention = attention
    if reaction_sd:  # the lognormal of mean reaction_ms and deviation reaction_sd
        sigma2 = log(1.0 + (<double>reaction_sd / reaction_ms) ** 2)
        pol.reaction_mu = log(<double>reaction_ms) - 0.5 * sigma2
        pol.reaction_sigma = sqrt(sigma2)
    return 0


cdef class NativePolicy:
    """One native policy with its own random stream, deciding on a Match's state."""
    cdef Policy pol
    cdef BotTables tb
    cdef object _tables_for

    def __init__(self, spec, seed=0):
        policy_from(&self.pol, spec, <uint64_t>check_seed(seed))
        self._tables_for = None

    @property
    def reaction_ms(self):
        return self.pol.reaction_ms

    def reaction_at(self, int64_t since):
        """The bot's reaction (ms) to a charge full since ``since`` (bots.pyx
        reaction_at: the same draw the native loop makes)."""
        return reaction_at(&self.pol, since)

    def decide(self, Match match, int seat):
        """(rule name, kind code, cell index, simulations) for `seat` now; kind and
        cell are -1 for a wait. The caller checks the charge and the reaction delay."""
        cdef int kind = -1, cell = -1, rule
        cdef int64_t sims = 0
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 (X) or 1 (O), not {seat!r}")
        key = (match.rules.size, match.rules.line_length)
        if self._tables_for != key:
            tables_init(&self.tb, &match.rc)
            self._tables_for = key
        with nogil:
            rule = policy_decide(&self.pol, &self.tb, &match.st, &match.rc, seat,
                                 &kind, &cell, &sims)
        if rule == RULE_NONE:
            kind = cell = -1
        return RULE_NAMES[rule], kind, cell, sims


_SEAT_FIELDS = ("decisions", "waits", "placements", "knockouts", "rejected", "retirements",
                "bombed", "stolen", "simulations")
# Record keys of the powerup kinds, in code order, from the engine's one table.
_POWERUP_KEYS = tuple(name.lower() for name, _ in sorted(NATIVE_CODES["PowerupKind"].items(),
                                                         key=lambda item: item[1]))


cdef dict _seat_dict(SeatCounts* c):
    cdef int k
    out = {"decisions": c.decisions, "waits": c.waits, "placements": c.placements,
           "knockouts": c.knockouts, "rejected": c.rejected, "retirements": c.retirements,
           "bombed": c.bombed, "stolen": c.stolen, "simulations": c.simulations}
    out["powerups"] = {_POWERUP_KEYS[k]: c.powerups[k] for k in range(4)}
    out["rules"] = {RULE_NAMES[k]: c.rules[k] for k in range(RULE_COUNT) if c.rules[k]}
    return out


cdef dict _record_dict(MatchRecord* rec, uint64_t seed):
    cdef int i
    letters = ("X", "O", "draw")
    bys = ("line", "double_line", "timeout")
    rounds = []
    for i in range(min(rec.rounds, MAX_RECORD_ROUNDS)):
        rounds.append({"round": i + 1, "result": letters[rec.round_result[i]],
                       "by": bys[rec.round_by[i]], "end_t": rec.round_end_t[i]})
    return {"seed": seed, "winner": letters[rec.winner], "rounds": rec.rounds,
            "round_wins": {"X": rec.round_wins[0], "O": rec.round_wins[1]},
            "round_results": rounds,
            "X": _seat_dict(&rec.seat[0]), "O": _seat_dict(&rec.seat[1])}


cdef object _prepare_matches(RulesC* rc, BotTables* tb, Policy* xp, Policy* op, object rules,
                             object x_spec, object o_spec, object seeds):
    """The set-up of a batch of whole matches: rules, tables, both policies; returns the
    seeds as a contiguous uint64 array (each match reseeds the policies' streams)."""
    fill_rules(rc, rules if rules is not None else default_rules())
    tables_init(tb, rc)
    policy_from(xp, x_spec, 0)
    policy_from(op, o_spec, 0)
    return np.ascontiguousarray(seeds, dtype=np.uint64)


def play_matches(rules, x_spec, o_spec, seeds, *, bint random_powerups=True,
                 bint records=False, bint timing=False, int stream=DEFAULT_STREAM):
    """Whole matches between two native policies, without the GIL.

    Match i is ``Match(rules, seed=seeds[i], stream=stream)``; the X policy's stream is seeded with
    ``seed ^ SEAT_SALTS[0]``, O's with ``seed ^ SEAT_SALTS[1]``. Returns a dict: NumPy
    arrays ``winner`` (0 X, 1 O, 2 draw), ``x_rounds``, ``o_rounds``, ``rounds``; the
    seats' summed counters ``X`` and ``O``; with ``records`` the per-match record
    dicts; with ``timing`` the seconds spent deciding per seat (``decide_s``)."""
    cdef RulesC rc
    cdef BotTables tb
    cdef MatchState st
    cdef MatchRecord rec
    cdef SeatCounts totals[2]
    cdef Policy xp, op
    cdef EventSink sink
    cdef int64_t decide_ns[2]
    cdef int64_t* dns = NULL
    cdef int q
    check_stream_layout(stream)
    seed_arr = _prepare_matches(&rc, &tb, &xp, &op, rules, x_spec, o_spec, seeds)
    cdef const uint64_t[::1] seed_view = seed_arr
    cdef Py_ssize_t i, n = seed_view.shape[0]
    winner = np.empty(n, dtype=np.int8)
    x_rounds = np.empty(n, dtype=np.int32)      # max_rounds may be large (R22)
    o_rounds = np.empty(n, dtype=np.int32)
    rounds = np.empty(n, dtype=np.int32)
    cdef signed char[::1] w = winner
    cdef int32_t[::1] xr = x_rounds
    cdef int32_t[::1] orr = o_rounds
    cdef int32_t[::1] rr = rounds
    memset(totals, 0, sizeof(totals))
    decide_ns[0] = decide_ns[1] = 0
    if timing:
        dns = decide_ns
    sink.events = NULL
    sink.count = sink.capacity = 0
    out_records = [] if records else None
    try:
        for i in range(n):
            with nogil:
                state_new_match(&st, &rc, seed_view[i], random_powerups, 0, 0, stream, NULL)
                policy_seed(&xp, seed_view[i] ^ SEAT_SALT_X)
                policy_seed(&op, seed_view[i] ^ SEAT_SALT_O)
                _policy_match(&st, &rc, &tb, &xp, &op, &rec, &sink, dns)
                w[i] = rec.winner
                xr[i] = rec.round_wins[0]
                orr[i] = rec.round_wins[1]
                rr[i] = rec.rounds
                for q in range(2):
                    _add_counts(&totals[q], &rec.seat[q])
            if records:
                out_records.append(_record_dict(&rec, seed_view[i]))
    finally:
        free(sink.events)
    out = {"winner": winner, "x_rounds": x_rounds, "o_rounds": o_rounds, "rounds": rounds,
           "X": _seat_dict(&totals[0]), "O": _seat_dict(&totals[1])}
    if records:
        out["records"] = out_records
    if timing:
        out["decide_s"] = (decide_ns[0] / 1e9, decide_ns[1] / 1e9)
    return out


cdef inline void _add_counts(SeatCounts* a, const SeatCounts* b) noexcept nogil:
    cdef int k
    a.decisions += b.decisions
    a.waits += b.waits
    a.placements += b.placements
    a.knockouts += b.knockouts
    a.rejected += b.rejected
    a.retirements += b.retirements
    a.bombed += b.bombed
    a.stolen += b.stolen
    a.simulations += b.simulations
    for k in range(4):
        a.powerups[k] += b.powerups[k]
    for k in range(RULE_COUNT):
        a.rules[k] += b.rules[k]


# The per-seat counters of `play_match_columns`, in the order of its `seat_counts` axis.
SEAT_COUNT_FIELDS = ("decisions", "waits", "placements", "knockouts", "rejected",
                     "retirements", "bombed", "stolen", "bomb", "freeze", "haste", "swap")


def play_match_columns(rules, x_spec, o_spec, seeds, *, bint random_powerups=True,
                       int stream=DEFAULT_STREAM):
    """Whole matches between two native policies, as columns: the batch runs without
    the GIL from the first match to the last (no Python object per match).

    Match i is the match ``play_matches`` plays for ``seeds[i]``. Returns a dict of NumPy
    arrays over the n matches: ``winner``, ``rounds``, ``round_wins`` (n, 2);
    per round (the first MAX_RECORD_ROUNDS = 16; rounds not played hold -1 / 0)
    ``round_result`` (n, 16, RESULT_*), ``round_by`` (n, 16, BY_*), ``round_end_t``
    (n, 16), ``round_knockouts`` (n, 16, seat), ``round_powerups`` (n, 16, seat, kind:
    bomb, freeze, haste, swap); per seat ``seat_counts`` (n, seat, SEAT_COUNT_FIELDS) and
    ``simulations`` (n, seat)."""
    cdef RulesC rc
    cdef BotTables tb
    cdef MatchState st
    cdef MatchRecord rec
    cdef Policy xp, op
    cdef EventSink sink
    cdef int q, j, k
    check_stream_layout(stream)
    seed_arr = _prepare_matches(&rc, &tb, &xp, &op, rules, x_spec, o_spec, seeds)
    cdef const uint64_t[::1] seed_view = seed_arr
    cdef Py_ssize_t i, n = seed_view.shape[0]
    winner = np.empty(n, dtype=np.int8)
    rounds = np.empty(n, dtype=np.int32)        # max_rounds may be large (R22)
    round_wins = np.empty((n, 2), dtype=np.int32)
    round_result = np.empty((n, MAX_RECORD_ROUNDS), dtype=np.int8)
    round_by = np.empty((n, MAX_RECORD_ROUNDS), dtype=np.int8)
    round_end_t = np.empty((n, MAX_RECORD_ROUNDS), dtype=np.int32)
    round_kos = np.empty((n, MAX_RECORD_ROUNDS, 2), dtype=np.int16)
    round_pus = np.empty((n, MAX_RECORD_ROUNDS, 2, 4), dtype=np.int8)
    counts = np.empty((n, 2, 12), dtype=np.int32)
    sims = np.empty((n, 2), dtype=np.int64)
    cdef int8_t[::1] w = winner
    cdef int32_t[::1] rr = rounds
    cdef int32_t[:, ::1] rw = round_wins
    cdef int8_t[:, ::1] res = round_result
    cdef int8_t[:, ::1] by = round_by
    cdef int32_t[:, ::1] end = round_end_t
    cdef int16_t[:, :, ::1] kos = round_kos
    cdef int8_t[:, :, :, ::1] pus = round_pus
    cdef int32_t[:, :, ::1] cnt = counts
    cdef int64_t[:, ::1] sm = sims
    cdef SeatCounts* c
    sink.events = NULL
    sink.count = sink.capacity = 0
    try:
        with nogil:
            for i in range(n):
                state_new_match(&st, &rc, seed_view[i], random_powerups, 0, 0, stream, NULL)
                policy_seed(&xp, seed_view[i] ^ SEAT_SALT_X)
                policy_seed(&op, seed_view[i] ^ SEAT_SALT_O)
                _policy_match(&st, &rc, &tb, &xp, &op, &rec, &sink, NULL)
                w[i] = rec.winner
                rr[i] = rec.rounds
                for j in range(MAX_RECORD_ROUNDS):
                    if j < rec.rounds:
                        res[i, j] = rec.round_result[j]
                        by[i, j] = rec.round_by[j]
                        end[i, j] = rec.round_end_t[j]
                    else:
                        res[i, j] = -1
                        by[i, j] = -1
                        end[i, j] = -1
                    for q in range(2):
                        kos[i, j, q] = rec.round_knockouts[j][q]
                        for k in range(4):
                            pus[i, j, q, k] = rec.round_powerups[j][q][k]
                for q in range(2):
                    rw[i, q] = rec.round_wins[q]
                    c = &rec.seat[q]
                    cnt[i, q, 0] = c.decisions
                    cnt[i, q, 1] = c.waits
                    cnt[i, q, 2] = c.placements
                    cnt[i, q, 3] = c.knockouts
                    cnt[i, q, 4] = c.rejected
                    cnt[i, q, 5] = c.retirements
                    cnt[i, q, 6] = c.bombed
                    cnt[i, q, 7] = c.stolen
                    for k in range(4):
                        cnt[i, q, 8 + k] = c.powerups[k]
                    sm[i, q] = c.simulations
    finally:
        free(sink.events)
    return {"winner": winner, "rounds": rounds, "round_wins": round_wins,
            "round_result": round_result, "round_by": round_by, "round_end_t": round_end_t,
            "round_knockouts": round_kos, "round_powerups": round_pus,
            "seat_counts": counts, "simulations": sims}


cdef int _seat(int seat) except -1:
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 (X) or 1 (O), not {seat!r}")
    return seat


def winning_cells_mask(Match match, int seat):
    """The cells that would complete a line of `seat`'s set marks (R10), as a mask."""
    return winning_cells(&match.rc, match.st.set_marks[_seat(seat)])


def time_reactions(spec, int repeats, seed=0):
    """Seconds per reaction drawn by a policy (reaction_at over ``repeats`` charge
    times): the player model's cost next to a decision's, for benchmarks (issue 23)."""
    cdef Policy pol
    cdef int64_t _i, total = 0
    cdef timespec t0, t1
    if repeats < 1:
        raise ValueError(f"repeats must be >= 1, not {repeats}")
    policy_from(&pol, spec, <uint64_t>check_seed(seed))
    with nogil:
        clock_gettime(CLOCK_MONOTONIC, &t0)
        for _i in range(repeats):
            total += reaction_at(&pol, _i)
        clock_gettime(CLOCK_MONOTONIC, &t1)
    elapsed = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9
    return {"seconds_per_reaction": elapsed / repeats, "mean_ms": total / repeats}


def time_decisions(Match match, spec, int seat, int repeats, seed=0):
    """Seconds per decision of a policy on `match`'s current state (repeated `repeats`
    times, the policy's stream running on): for benchmarks."""
    cdef Policy pol
    cdef BotTables tb
    cdef int kind = 0, cell = 0, _i
    cdef int64_t sims = 0
    cdef timespec t0, t1
    _seat(seat)
    if repeats < 1:
        raise ValueError(f"repeats must be >= 1, not {repeats}")
    policy_from(&pol, spec, <uint64_t>check_seed(seed))
    tables_init(&tb, &match.rc)
    with nogil:
        clock_gettime(CLOCK_MONOTONIC, &t0)
        for _i in range(repeats):
            policy_decide(&pol, &tb, &match.st, &match.rc, seat, &kind, &cell, &sims)
        clock_gettime(CLOCK_MONOTONIC, &t1)
    elapsed = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9
    return {"seconds_per_decision": elapsed / max(repeats, 1), "simulations": sims}
