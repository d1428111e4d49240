# The strong policy (a learned pattern evaluation played one ply deep), included by
# bots.pyx after greedy.pxi.
#
# Part of the one C module blitz_core.blitz.bots (issue 27, item 4): `include`d, not
# cimported, so the hot helpers stay `cdef inline` in one translation unit and the C
# compiler inlines them across these files as before the split.

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
