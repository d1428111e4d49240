# The rules engine (declared in engine.pxd): docs/blitz.md on bitboards, without the GIL.
#
# All of it is C: a match is a MatchState struct, advanced by state_advance_to and changed
# by state_act, emitting EventC records into an optional sink. The Python face (the
# `Match` class, the Rules bridge, serialisation) is match.pyx. docs/engine.md fixes
# what docs/blitz.md leaves open (the random stream, the order of events);
# tictacblitz.games.blitz.reference implements the same contract in plain Python and the
# differential tests hold the two together.

from libc.stdint cimport uint64_t, int64_t, int32_t, uint8_t, INT32_MAX
from libc.stdlib cimport realloc
from libc.string cimport memset

from blitz_core.common.rng cimport rng_next, rng_below, rng_unit, mix64
from blitz_core.blitz.seeds cimport purpose_salt
from blitz_core.blitz.bitboard cimport (
    Geometry, popcount, lowest, nth_set_bit, has_line, lowest_line, timeout_score,
)

# ---------------------------------------------------------------------------------------
# The random stream (R23; docs/engine.md): SplitMix64 from common/rng.pxd.

cdef inline int rng_kind(uint64_t* state, const RulesC* r) noexcept nogil:
    """R14: a powerup kind drawn with the weights (docs/engine.md `kind()`)."""
    cdef double u = rng_unit(state)
    cdef double x = u * r.weight_total
    cdef double acc = 0.0
    cdef int k, last = 0
    for k in range(4):
        if r.weight[k] > 0.0:
            acc += r.weight[k]
            last = k
            if x < acc:
                return k
    return last


# Stream layout 2 (docs/engine.md): a key per purpose, hashed with the round and an index,
# so that a draw does not depend on how many draws came before it (issue 22: two rule
# sets on one seed share every draw the changed rule does not touch).
cdef enum:
    PURPOSE_TIME = 0
    PURPOSE_CELL = 1
    PURPOSE_KIND = 2
    PURPOSE_COIN = 3


cdef inline uint64_t purpose_key(const MatchState* s, int purpose, uint64_t index) noexcept nogil:
    """key_P(round, index) = mix64(match_key ^ salt_P ^ (round << 32) ^ index)."""
    return mix64(s.stream_key ^ purpose_salt(purpose) ^ (<uint64_t>s.round << 32) ^ index)


cdef void state_reseed(MatchState* s, uint64_t fresh) noexcept nogil:
    """Replace the match's chance from here on by a fresh stream (a bot's lookahead must
    not see the real future): layout 1 restarts its one stream at `fresh`; layout 2 keys
    every purpose from `fresh` as if it were the seed, this round's spawn times included."""
    if s.stream == STREAM_LAYOUT_1:
        s.rng = fresh
        return
    s.stream_key = mix64(fresh)
    s.rng = purpose_key(s, PURPOSE_TIME, 0)


cdef inline bint coin_o_first(MatchState* s) noexcept nogil:
    """R3: the same-ms coin; True when O acts first."""
    if s.stream == STREAM_LAYOUT_1:
        return (rng_next(&s.rng) >> 63) != 0
    return (purpose_key(s, PURPOSE_COIN, <uint64_t>s.t) >> 63) != 0


# ---------------------------------------------------------------------------------------
# Events

cdef EventC* grow_and_emit(EventSink* sink, const MatchState* s, int kind, int player, int cell,
                           int32_t until, int code) noexcept nogil:
    cdef EventC* grown
    cdef Py_ssize_t capacity
    if sink.count == sink.capacity:
        capacity = 64 if sink.capacity == 0 else sink.capacity * 2
        grown = <EventC*>realloc(sink.events, capacity * sizeof(EventC))
        if grown == NULL:          # out of memory: keep playing, lose the event
            return NULL
        sink.events = grown
        sink.capacity = capacity
    cdef EventC* e = &sink.events[sink.count]
    sink.count += 1
    e.round = s.round
    e.t = s.t
    e.until = until
    e.kind = kind
    e.player = player
    e.cell = cell
    e.code = code
    e.score_x = 0
    e.score_o = 0
    e.line = 0
    return e


cdef inline EventC* emit(EventSink* sink, const MatchState* s, int kind, int player, int cell,
                         int32_t until, int code) noexcept nogil:
    """Record an event, if anyone listens (playouts pass no sink: one test, no call)."""
    if sink == NULL:
        return NULL
    return grow_and_emit(sink, s, kind, player, cell, until, code)


# ---------------------------------------------------------------------------------------
# Small queries

cdef inline int speed_index(const MatchState* s, int p, int32_t t) noexcept nogil:
    """R5: 0 normal, 1 frozen, 2 hasted, 3 both, for the ms [t, t+1)."""
    return (t < s.frozen_until[p]) | ((t < s.hasted_until[p]) << 1)


cdef int state_oldest(const MatchState* s, int player) noexcept nogil:
    """R12: the player's oldest mark (the next to retire), or -1 without marks."""
    return oldest_in(s, s.set_marks[player] | s.setting[player])


cdef inline int oldest_in(const MatchState* s, uint64_t m) noexcept nogil:
    """The oldest mark of m (R12 ages; m holds one player's marks), or -1."""
    cdef int c, best = -1, best_age = 256
    while m:
        c = lowest(m)
        m &= m - 1
        if s.age[c] < best_age:
            best_age = s.age[c]
            best = c
    return best


cdef int32_t state_charge_ready_t(const MatchState* s, const RulesC* r, int player) noexcept nogil:
    """R5: the ms the charge is full, if no new effect starts meanwhile."""
    cdef int64_t units = s.charge_units[player]
    cdef int64_t need = s.charge_need[player]
    cdef int64_t rate, k
    cdef int32_t tt = s.t, change
    if units < need and s.frozen_until[player] <= tt and s.hasted_until[player] <= tt:
        rate = r.speed[0]                       # the common case: normal speed throughout
        return <int32_t>(tt + (need - units + rate - 1) // rate)
    while units < need:
        rate = r.speed[speed_index(s, player, tt)]
        change = INT32_MAX
        if tt < s.frozen_until[player] < change:
            change = s.frozen_until[player]
        if tt < s.hasted_until[player] < change:
            change = s.hasted_until[player]
        k = (need - units + rate - 1) // rate
        if tt + k <= change:
            return <int32_t>(tt + k)
        units += rate * (change - tt)
        tt = change
    return tt


# ---------------------------------------------------------------------------------------
# R12: ages. A stamp per mark, counting up per player; stamps are uint8, so before the
# counter runs out the player's marks (at most 64) are renumbered 0..n-1 in age order.

cdef void renumber_ages(MatchState* s, int p, uint64_t marks) noexcept nogil:
    cdef uint8_t stamp = 0
    cdef int c
    while marks:
        c = oldest_in(s, marks)
        marks &= ~(<uint64_t>1 << c)
        s.age[c] = stamp      # oldest_in compares only the marks not yet renumbered
        stamp += 1
    s.next_age[p] = stamp


cdef inline void give_age(MatchState* s, int p, int cell) noexcept nogil:
    """The mark on `cell` becomes p's newest (placement or steal)."""
    if s.next_age[p] == 255:
        renumber_ages(s, p, (s.set_marks[p] | s.setting[p]) & ~(<uint64_t>1 << cell))
    s.age[cell] = s.next_age[p]
    s.next_age[p] += 1


# ---------------------------------------------------------------------------------------
# Timed events

cdef inline void note_deadline(MatchState* s, int32_t t) noexcept nogil:
    if t < s.next_timed_t:
        s.next_timed_t = t


cdef int32_t state_next_event_t(MatchState* s, const RulesC* r) noexcept nogil:
    """The exact next ms after t at which something timed happens (R2), or NO_TIME."""
    cdef int32_t t = s.t, best = r.round_ms
    cdef uint64_t m = s.setting[0] | s.setting[1] | s.craters | all_powerups(s)
    cdef int c, p
    if s.round_over:
        return NO_TIME
    while m:
        c = lowest(m)
        m &= m - 1
        if s.deadline[c] < best:
            best = s.deadline[c]
    for p in range(2):
        if t < s.frozen_until[p] < best:
            best = s.frozen_until[p]
        if t < s.hasted_until[p] < best:
            best = s.hasted_until[p]
    if t < s.next_spawn_t < best:
        best = s.next_spawn_t
    return best


cdef void end_round(MatchState* s, const RulesC* r, int result, int by, uint64_t line,
                    EventSink* sink) noexcept nogil:
    """R10/R20 end the round; R22 may end the match."""
    cdef EventC* e
    cdef int winner = RESULT_NONE
    s.round_over = 1
    s.round_result = result
    s.round_by = by
    if result != RESULT_DRAW:
        s.round_wins[result] += 1
    e = emit(sink, s, EV_ROUND_OVER, result if result != RESULT_DRAW else NO_PLAYER, -1,
             NO_TIME, by)
    if e != NULL:
        e.line = line
        if by == BY_TIMEOUT:
            e.score_x = timeout_score(&r.geo, s.set_marks[0], s.set_marks[1])
            e.score_o = timeout_score(&r.geo, s.set_marks[1], s.set_marks[0])
    # R22: first to rounds_to_win; after max_rounds, more round wins; else a draw.
    if s.round_wins[0] >= r.rounds_to_win:
        winner = RESULT_X
    elif s.round_wins[1] >= r.rounds_to_win:
        winner = RESULT_O
    elif s.round >= r.max_rounds:
        if s.round_wins[0] > s.round_wins[1]:
            winner = RESULT_X
        elif s.round_wins[1] > s.round_wins[0]:
            winner = RESULT_O
        else:
            winner = RESULT_DRAW
    if winner != RESULT_NONE:
        s.match_over = 1
        s.match_result = winner
        emit(sink, s, EV_MATCH_OVER, winner if winner != RESULT_DRAW else NO_PLAYER, -1,
             NO_TIME, winner)


cdef bint check_lines(MatchState* s, const RulesC* r, bint check_x, bint check_o,
                      EventSink* sink) noexcept nogil:
    """R10: a line of set marks wins the round; lines for both at once draw it."""
    cdef bint x_line = check_x and has_line(&r.geo, s.set_marks[0])
    cdef bint o_line = check_o and has_line(&r.geo, s.set_marks[1])
    if x_line and o_line:
        end_round(s, r, RESULT_DRAW, BY_DOUBLE_LINE, 0, sink)
    elif x_line:
        end_round(s, r, RESULT_X, BY_LINE, lowest_line(&r.geo, s.set_marks[0]), sink)
    elif o_line:
        end_round(s, r, RESULT_O, BY_LINE, lowest_line(&r.geo, s.set_marks[1]), sink)
    else:
        return False
    return True


cdef void random_spawn(MatchState* s, const RulesC* r, EventSink* sink) noexcept nogil:
    """R16 at its due ms (docs/engine.md: cell, then kind, then the next due time)."""
    cdef uint64_t empty, bit, draws
    cdef int cell, kind
    if popcount(all_powerups(s)) < r.powerup_max:
        empty = r.geo.board & ~(all_marks(s) | s.craters | all_powerups(s))
        if empty:
            if s.stream == STREAM_LAYOUT_1:
                cell = nth_set_bit(empty, rng_below(&s.rng, <uint64_t>popcount(empty)))
                kind = rng_kind(&s.rng, r)
            else:
                # Layout 2: the spawn's own cell stream proposes board cells until one is
                # empty (a priority order that does not depend on the board), and its own
                # kind stream draws the kind.
                draws = purpose_key(s, PURPOSE_CELL, <uint64_t>s.spawn_index)
                while True:
                    cell = <int>rng_below(&draws, <uint64_t>r.geo.cells)
                    if empty >> cell & 1:
                        break
                draws = purpose_key(s, PURPOSE_KIND, <uint64_t>s.spawn_index)
                kind = rng_kind(&draws, r)
            bit = <uint64_t>1 << cell
            s.powerups[kind] |= bit
            s.deadline[cell] = s.t + r.powerup_ms
            note_deadline(s, s.deadline[cell])
            emit(sink, s, EV_POWERUP_SPAWNED, NO_PLAYER, cell, s.deadline[cell], kind)
    s.spawn_index += 1
    s.next_spawn_t = s.t + r.spawn_min_ms + <int32_t>rng_below(&s.rng, <uint64_t>r.spawn_span)


cdef void process_ms(MatchState* s, const RulesC* r, bint lines_anyway,
                     EventSink* sink) noexcept nogil:
    """R2 steps 1-5 at the current ms."""
    cdef int32_t t = s.t, later = r.round_ms, d
    cdef uint64_t m, due = 0, ending = 0, bit
    cdef bint now
    cdef int c, p, k
    # One pass over everything with a timer finds what ends now, and the soonest of the
    # rest (for the next-timed-ms cache, finished after step 4).
    # (Branch-free: whether a timer ends now is a coin toss to the branch predictor.)
    m = s.setting[0] | s.setting[1] | s.craters | all_powerups(s)
    while m:
        bit = m & (<uint64_t>0 - m)
        c = lowest(m)
        m ^= bit
        d = s.deadline[c]
        now = d == t
        ending |= bit & (<uint64_t>0 - <uint64_t>now)
        d = INT32_MAX if now else d
        later = d if d < later else later
    # 1. setting marks whose time is up become set (R6, R8).
    due = ending & (s.setting[0] | s.setting[1])
    m = due
    while m:
        c = lowest(m)
        m &= m - 1
        bit = <uint64_t>1 << c
        p = PLAYER_X if s.setting[0] & bit else PLAYER_O
        s.setting[p] &= ~bit
        s.set_marks[p] |= bit
        emit(sink, s, EV_SET, p, c, NO_TIME, 0)
    # 2. Only a mark becoming set can complete a line (or a setup, at ms 0), and only
    # for its owner: the other player's board did not change since the last check.
    if lines_anyway:
        due = s.set_marks[0] | s.set_marks[1]
    if due and check_lines(s, r, (s.set_marks[0] & due) != 0, (s.set_marks[1] & due) != 0, sink):
        return
    # 3. Expiries: craters, powerups, then freeze X, O, haste X, O.
    m = ending & s.craters
    s.craters &= ~m
    while m:
        c = lowest(m)
        m &= m - 1
        emit(sink, s, EV_CRATER_CLEARED, NO_PLAYER, c, NO_TIME, 0)
    m = ending & all_powerups(s)
    while m:
        c = lowest(m)
        m &= m - 1
        bit = <uint64_t>1 << c
        for k in range(4):
            if s.powerups[k] & bit:
                s.powerups[k] &= ~bit
                emit(sink, s, EV_POWERUP_BURNED_OUT, NO_PLAYER, c, NO_TIME, k)
    for p in range(2):
        if s.frozen_until[p] == t:
            emit(sink, s, EV_FREEZE_ENDED, p, -1, NO_TIME, 0)
    for p in range(2):
        if s.hasted_until[p] == t:
            emit(sink, s, EV_HASTE_ENDED, p, -1, NO_TIME, 0)
    for p in range(2):
        if t < s.frozen_until[p] < later:
            later = s.frozen_until[p]
        if t < s.hasted_until[p] < later:
            later = s.hasted_until[p]
    s.next_timed_t = later
    s.timed_stale = 0
    # 4. R16 (a gap of 0 makes the next spawn due at this same ms); a new powerup's
    # burn-out lowers the cache through note_deadline.
    while s.next_spawn_t == t:
        random_spawn(s, r, sink)
    if t < s.next_spawn_t < s.next_timed_t:
        s.next_timed_t = s.next_spawn_t
    # 5. The round clock (R20).
    if t >= r.round_ms:
        end_round(s, r,
                  _timeout_result(&r.geo, s.set_marks[0], s.set_marks[1]),
                  BY_TIMEOUT, 0, sink)


cdef inline int _timeout_result(const Geometry* g, uint64_t x, uint64_t o) noexcept nogil:
    cdef int sx = timeout_score(g, x, o)
    cdef int so = timeout_score(g, o, x)
    if sx > so:
        return RESULT_X
    if so > sx:
        return RESULT_O
    return RESULT_DRAW


cdef void state_advance_to(MatchState* s, const RulesC* r, int32_t target,
                           EventSink* sink) noexcept nogil:
    """R1: run every timed ms up to `target` (or the round's end) in order."""
    cdef int32_t step_to, dt, nxt
    cdef int64_t rate, missing
    cdef int p
    if target > r.round_ms:
        target = r.round_ms
    while s.t < target and not s.round_over:
        nxt = s.next_timed_t
        step_to = nxt if nxt < target else target
        dt = step_to - s.t
        for p in range(2):       # R5: the speed of [t, t+1) holds until the next timed ms
            if s.charge_units[p] < s.charge_need[p]:
                rate = r.speed[speed_index(s, p, s.t)]
                missing = s.charge_need[p] - s.charge_units[p]
                if missing <= rate * dt:
                    # Full at the first ms whose gathered units reach the need: mostly
                    # this step's last ms (loops jump to charge_ready_t), else divide.
                    if missing > rate * (dt - 1):
                        s.full_since[p] = step_to
                    else:
                        s.full_since[p] = <int32_t>(s.t + (missing + rate - 1) // rate)
                    s.charge_units[p] = s.charge_need[p]
                else:
                    s.charge_units[p] += rate * dt
        s.t = step_to
        if step_to == nxt:
            process_ms(s, r, False, sink)


# ---------------------------------------------------------------------------------------
# Round and match set-up (R21)

cdef void reset_round(MatchState* s, const RulesC* r) noexcept nogil:
    cdef int p
    for p in range(2):
        s.set_marks[p] = 0
        s.setting[p] = 0
        s.charge_units[p] = 0       # R4: full (0 of 0 units)
        s.charge_need[p] = 0
        s.frozen_until[p] = NO_TIME
        s.hasted_until[p] = NO_TIME
        s.acted_t[p] = NO_TIME
        s.full_since[p] = 0
        s.next_age[p] = 0
    s.craters = 0
    for p in range(4):
        s.powerups[p] = 0
    s.t = 0
    s.round_over = 0
    s.round_result = RESULT_NONE
    s.round_by = -1


cdef void start_round(MatchState* s, const RulesC* r, bint lines_anyway,
                      EventSink* sink) noexcept nogil:
    emit(sink, s, EV_ROUND_STARTED, NO_PLAYER, -1, NO_TIME, 0)
    s.spawn_index = 0
    if s.stream != STREAM_LAYOUT_1:
        s.rng = purpose_key(s, PURPOSE_TIME, 0)      # layout 2: this round's spawn times
    if s.random_powerups and r.spawns_possible:
        s.next_spawn_t = r.spawn_min_ms + <int32_t>rng_below(&s.rng, <uint64_t>r.spawn_span)
    else:
        s.next_spawn_t = NO_TIME
    s.next_timed_t = 0
    process_ms(s, r, lines_anyway, sink)


cdef void state_new_match(MatchState* s, const RulesC* r, uint64_t seed, bint random_powerups,
                          uint64_t setup_x, uint64_t setup_o, int stream,
                          EventSink* sink) noexcept nogil:
    cdef uint64_t m
    cdef int c
    memset(s, 0, sizeof(MatchState))
    s.rng = seed
    s.stream = STREAM_LAYOUT_1 if stream == STREAM_LAYOUT_1 else STREAM_LAYOUT_2
    s.stream_key = mix64(seed)
    s.round = 1
    s.random_powerups = random_powerups
    s.match_result = RESULT_NONE
    reset_round(s, r)
    s.set_marks[0] = setup_x
    s.set_marks[1] = setup_o
    m = setup_x | setup_o          # docs/replay-format.md: setup marks age in reading order
    while m:
        c = lowest(m)
        m &= m - 1
        give_age(s, PLAYER_X if setup_x >> c & 1 else PLAYER_O, c)
    start_round(s, r, True, sink)


cdef void state_next_round(MatchState* s, const RulesC* r, EventSink* sink) noexcept nogil:
    s.round += 1
    reset_round(s, r)
    start_round(s, r, False, sink)


# ---------------------------------------------------------------------------------------
# Actions (R4-R9, R12, R15, R17-R19)

cdef int state_check(const MatchState* s, const RulesC* r, int player, int kind,
                     int cell) noexcept nogil:
    """R7: the rejection reason of an action now, or ACCEPTED."""
    cdef uint64_t bit = <uint64_t>1 << cell
    cdef int opponent = 1 - player
    if s.round_over:
        return REASON_ROUND_OVER
    if s.charge_units[player] < s.charge_need[player]:
        return REASON_NOT_CHARGED
    if kind == ACT_PLACE:
        if all_marks(s) & bit:
            return REASON_OCCUPIED
        if s.craters & bit:
            return REASON_CRATER
        return ACCEPTED
    if not (s.setting[opponent] | s.set_marks[opponent]) & bit:
        return REASON_NOT_OPPONENT_MARK
    if s.set_marks[opponent] & bit:
        return REASON_ALREADY_SET
    return ACCEPTED


cdef inline void land_mark(MatchState* s, const RulesC* r, int p, int cell, int event_kind,
                           EventSink* sink) noexcept nogil:
    """A mark becomes p's newest, setting for set_ms (R6; stolen marks too, R17)."""
    cdef uint64_t bit = <uint64_t>1 << cell
    give_age(s, p, cell)
    if r.set_ms == 0:
        s.set_marks[p] |= bit
        emit(sink, s, event_kind, p, cell, s.t, 0)
        emit(sink, s, EV_SET, p, cell, NO_TIME, 0)
    else:
        s.setting[p] |= bit
        s.deadline[cell] = s.t + r.set_ms
        note_deadline(s, s.deadline[cell])
        emit(sink, s, event_kind, p, cell, s.deadline[cell], 0)


cdef int steal(MatchState* s, const RulesC* r, int p, uint64_t* source, uint64_t near,
               int most, EventSink* sink) noexcept nogil:
    """R17 swap: up to `most` of the marks of `source` on `near`, oldest first, become
    p's newest marks (setting again). Returns how many were stolen."""
    cdef uint64_t m = source[0] & near, bit
    cdef int c, n = 0
    while n < most and m:
        c = oldest_in(s, m)
        bit = <uint64_t>1 << c
        m &= ~bit
        source[0] &= ~bit
        land_mark(s, r, p, c, EV_STOLEN, sink)
        n += 1
    return n


cdef void claim_powerup(MatchState* s, const RulesC* r, int p, int cell, int kind,
                        EventSink* sink) noexcept nogil:
    """R15: the powerup triggers at once, after the mark lands, before R12."""
    cdef int o = 1 - p, c, n
    cdef uint64_t near = r.geo.neighbours[cell], m
    s.powerups[kind] &= ~(<uint64_t>1 << cell)
    s.timed_stale = 1               # its burn-out (and maybe set times below) are gone
    emit(sink, s, EV_POWERUP_CLAIMED, p, cell, NO_TIME, kind)
    if kind == KIND_BOMB:           # R17: every touching opponent mark, no craters
        m = (s.set_marks[o] | s.setting[o]) & near
        s.set_marks[o] &= ~m
        s.setting[o] &= ~m
        while m:
            c = lowest(m)
            m &= m - 1
            emit(sink, s, EV_BOMBED, o, c, NO_TIME, 0)
    elif kind == KIND_SWAP:         # R17: set marks first, then oldest first
        n = steal(s, r, p, &s.set_marks[o], near, r.swap_max, sink)
        steal(s, r, p, &s.setting[o], near, r.swap_max - n, sink)
    elif kind == KIND_FREEZE:       # R18: restarts, never stacks
        if r.freeze_ms > 0:
            s.frozen_until[o] = s.t + r.freeze_ms
            note_deadline(s, s.frozen_until[o])
            emit(sink, s, EV_FREEZE_STARTED, o, -1, s.frozen_until[o], 0)
    else:                           # R19
        if r.haste_ms > 0:
            s.hasted_until[p] = s.t + r.haste_ms
            note_deadline(s, s.hasted_until[p])
            emit(sink, s, EV_HASTE_STARTED, p, -1, s.hasted_until[p], 0)


cdef int state_act(MatchState* s, const RulesC* r, int p, int kind, int cell,
                   EventSink* sink) noexcept nogil:
    """One player's action now: R7's checks, then R4-R9, R12, R15, R17-R19."""
    cdef int reason = state_check(s, r, p, kind, cell)
    cdef uint64_t bit = <uint64_t>1 << cell
    cdef int o = 1 - p, k, c
    if not s.round_over:
        s.acted_t[p] = s.t
    if reason != ACCEPTED:
        emit(sink, s, EV_REJECTED, p, cell, NO_TIME, reason)   # R7: changes nothing
        return reason
    s.charge_units[p] = 0                                     # R4
    s.full_since[p] = s.t                                     # (a refill of 0 ms: full at once)
    if kind == ACT_PLACE:
        s.charge_need[p] = r.need_place                       # R5
        land_mark(s, r, p, cell, EV_PLACED, sink)
        if all_powerups(s) & bit:
            for k in range(4):
                if s.powerups[k] & bit:
                    claim_powerup(s, r, p, cell, k, sink)
                    break
        while popcount(s.set_marks[p] | s.setting[p]) > r.mark_limit:   # R12, R13
            c = state_oldest(s, p)
            bit = <uint64_t>1 << c
            if s.setting[p] & bit:
                s.timed_stale = 1
            s.set_marks[p] &= ~bit
            s.setting[p] &= ~bit
            emit(sink, s, EV_RETIRED, p, c, NO_TIME, 0)
        if r.set_ms == 0:                                     # R10: set as it lands
            check_lines(s, r, True, True, sink)
    else:
        s.charge_need[p] = r.need_knockout
        s.setting[o] &= ~bit                                  # R9
        s.timed_stale = 1
        if r.crater_ms > 0:
            s.craters |= bit
            s.deadline[cell] = s.t + r.crater_ms
            note_deadline(s, s.deadline[cell])
            emit(sink, s, EV_KNOCKED_OUT, p, cell, s.deadline[cell], 0)
        else:
            emit(sink, s, EV_KNOCKED_OUT, p, cell, NO_TIME, 0)
    return ACCEPTED


cdef void state_act_both(MatchState* s, const RulesC* r, int x_kind, int x_cell, int o_kind,
                         int o_cell, int* x_reason, int* o_reason, EventSink* sink) noexcept nogil:
    """R3: both at one ms, in an order drawn by a fair coin (only in a live round)."""
    if not s.round_over and coin_o_first(s):
        o_reason[0] = state_act(s, r, PLAYER_O, o_kind, o_cell, sink)
        x_reason[0] = state_act(s, r, PLAYER_X, x_kind, x_cell, sink)
    else:
        x_reason[0] = state_act(s, r, PLAYER_X, x_kind, x_cell, sink)
        o_reason[0] = state_act(s, r, PLAYER_O, o_kind, o_cell, sink)


cdef bint state_spawn(MatchState* s, const RulesC* r, int kind, int cell,
                      EventSink* sink) noexcept nogil:
    """A scripted powerup (docs/replay-format.md): in place of R2 step 4, ignoring powerup_max."""
    cdef uint64_t bit = <uint64_t>1 << cell
    if s.round_over or r.powerup_ms == 0:
        return False
    if (all_marks(s) | s.craters | all_powerups(s)) & bit:
        return False
    s.powerups[kind] |= bit
    s.deadline[cell] = s.t + r.powerup_ms
    note_deadline(s, s.deadline[cell])
    emit(sink, s, EV_POWERUP_SPAWNED, NO_PLAYER, cell, s.deadline[cell], kind)
    return True
