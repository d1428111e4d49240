# The search policy (UCB1 over simultaneous-move rollouts) and the policy dispatch,
# included by bots.pyx.
#
# Part of the one C module blitz_core.blitz.bots (issue 27, item 4): `include`d, not
# cimported, so the hot helpers stay `cdef inline` in one translation unit and the C
# compiler inlines them across these files as before the split.

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
