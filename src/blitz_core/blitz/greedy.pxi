# The native bots' small helpers (tables, reaction times, winning cells) and the greedy
# policy, included by bots.pyx first.
#
# Part of the one C module blitz_core.blitz.bots (issue 27, item 4): `include`d, not
# cimported, so the hot helpers stay `cdef inline` in one translation unit and the C
# compiler inlines them across these files as before the split.

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
