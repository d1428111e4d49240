# The policy-driven round and match loop (real matches and rollouts alike), included by
# bots.pyx.
#
# Part of the one C module blitz_core.blitz.bots (issue 27, item 4): `include`d, not
# cimported, so the hot helpers stay `cdef inline` in one translation unit and the C
# compiler inlines them across these files as before the split.

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
