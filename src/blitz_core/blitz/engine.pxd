# Declarations of the rules engine; implemented in engine.pyx.
#
# The engine is C structs and `nogil` functions: a RulesC (the numbers of a Rules, plus
# what is derived from them once) and a MatchState (everything that changes in a match,
# in one flat struct so that a clone is a memcpy). Bots and batched rollouts cimport
# these functions and step states without the GIL; the Python class `Match` in
# engine.pyx is the thin, validating face of the same functions.

from libc.stdint cimport uint64_t, int64_t, int32_t, uint8_t, int8_t
from blitz_core.blitz.bitboard cimport Geometry, popcount

# Codes shared with tictacblitz/types.py (Player, PowerupKind, Reason, EventKind).
cdef enum:
    PLAYER_X = 0
    PLAYER_O = 1
    NO_PLAYER = -1

cdef enum:
    KIND_BOMB = 0
    KIND_FREEZE = 1
    KIND_HASTE = 2
    KIND_SWAP = 3

cdef enum:
    ACT_PLACE = 0
    ACT_KNOCKOUT = 1

cdef enum:                        # R7, in checking order; 0 = accepted
    ACCEPTED = 0
    REASON_ROUND_OVER = 1
    REASON_NOT_CHARGED = 2
    REASON_OCCUPIED = 3
    REASON_CRATER = 4
    REASON_NOT_OPPONENT_MARK = 5
    REASON_ALREADY_SET = 6

cdef enum:
    EV_ROUND_STARTED = 0
    EV_PLACED = 1
    EV_SET = 2
    EV_KNOCKED_OUT = 3
    EV_CRATER_CLEARED = 4
    EV_RETIRED = 5
    EV_POWERUP_SPAWNED = 6
    EV_POWERUP_CLAIMED = 7
    EV_POWERUP_BURNED_OUT = 8
    EV_BOMBED = 9
    EV_STOLEN = 10
    EV_FREEZE_STARTED = 11
    EV_FREEZE_ENDED = 12
    EV_HASTE_STARTED = 13
    EV_HASTE_ENDED = 14
    EV_ROUND_OVER = 15
    EV_MATCH_OVER = 16
    EV_REJECTED = 17

cdef enum:                        # round and match results
    RESULT_X = 0
    RESULT_O = 1
    RESULT_DRAW = 2
    RESULT_NONE = -1

cdef enum:                        # how a round ended (RoundEnd)
    BY_LINE = 0
    BY_DOUBLE_LINE = 1
    BY_TIMEOUT = 2

cdef enum:
    NO_TIME = -1                  # an effect or spawn that is not running


ctypedef struct RulesC:
    Geometry geo                  # R10, R11: windows and neighbourhoods
    int32_t round_ms
    int32_t rounds_to_win
    int32_t max_rounds
    int32_t set_ms
    int32_t crater_ms
    int32_t mark_limit            # clamped to 65: no board holds more than 64
    int32_t powerup_max           # clamped to 64
    int32_t spawn_min_ms
    int32_t spawn_span            # spawn_max_ms - spawn_min_ms + 1
    int32_t powerup_ms
    int32_t freeze_ms
    int32_t haste_ms
    int32_t swap_max              # clamped to 8: a cell has 8 neighbours
    int64_t speed[4]              # R5 units per ms: normal, frozen, hasted, both
    int64_t need_place            # R5 units of a placement refill
    int64_t need_knockout
    double weight[4]              # R14, by kind
    double weight_total
    bint spawns_possible          # R16 can put a powerup on the board at all


ctypedef struct MatchState:
    uint64_t set_marks[2]         # R8: set marks per player
    uint64_t setting[2]           # R6: marks still setting per player
    uint64_t craters              # R9
    uint64_t powerups[4]          # R14: one board per kind
    int32_t deadline[64]          # per cell: set ms (setting mark), end (crater), burnout (powerup)
    uint8_t age[64]               # R12: the owner's age stamp of a mark (smaller = older)
    uint64_t rng                  # R23: SplitMix64 state (layout 2: this round's spawn times)
    uint64_t stream_key           # layout 2: mix64(seed), the match key of every purpose key
    int64_t charge_units[2]       # R5: units gathered since the charge emptied
    int64_t charge_need[2]        # R5: units the refill needs (0: full)
    int32_t frozen_until[2]       # R18: frozen while t < frozen_until
    int32_t hasted_until[2]       # R19
    int32_t acted_t[2]            # the ms of this round a player last acted at (one per ms)
    int32_t full_since[2]         # R5: the ms the charge became full (valid while full)
    int32_t t                     # R1: ms since the round started
    int32_t next_spawn_t          # R16: ms the next spawn is due, NO_TIME when off
    int32_t spawn_index           # layout 2: due spawns so far this round (skipped ones too)
    int32_t next_timed_t          # the next timed ms (a cache: exact unless timed_stale)
    int32_t round                 # 1-based
    int32_t round_wins[2]
    uint8_t next_age[2]           # the next age stamp per player
    uint8_t random_powerups       # R16 on (else powerups come from spawn_powerup)
    uint8_t stream                # the stream layout, 1 or 2 (docs/engine.md)
    uint8_t timed_stale           # something timed went early: next_timed_t may be early
    uint8_t round_over
    uint8_t match_over
    int8_t round_result           # RESULT_*, for the round that ended
    int8_t round_by               # BY_*
    int8_t match_result           # RESULT_*


ctypedef struct EventC:
    int32_t round
    int32_t t
    int32_t until                 # NO_TIME when the kind has none
    uint8_t kind                  # EV_*
    int8_t player                 # NO_PLAYER when the kind has none
    int8_t cell                   # -1 when the kind has none
    int8_t code                   # powerup kind, reason code, or round end (BY_*)
    int8_t score_x                # R20 timeout scores
    int8_t score_o
    uint64_t line                 # R10 winning window as a mask


ctypedef struct EventSink:        # a growable event buffer; NULL sink = no events
    EventC* events
    Py_ssize_t count
    Py_ssize_t capacity


# -- the engine, nogil ---------------------------------------------------------------------

cdef enum:
    STREAM_LAYOUT_1 = 1           # one SplitMix64 stream per match (recordings without "stream")
    STREAM_LAYOUT_2 = 2           # streams by purpose, keyed by round (issue 22)
    DEFAULT_STREAM = 2            # what a new match uses

cdef void state_new_match(MatchState* s, const RulesC* r, uint64_t seed, bint random_powerups,
                          uint64_t setup_x, uint64_t setup_o, int stream,
                          EventSink* sink) noexcept nogil
cdef void state_reseed(MatchState* s, uint64_t fresh) noexcept nogil
cdef void state_next_round(MatchState* s, const RulesC* r, EventSink* sink) noexcept nogil
cdef int32_t state_next_event_t(MatchState* s, const RulesC* r) noexcept nogil
cdef void state_advance_to(MatchState* s, const RulesC* r, int32_t target,
                           EventSink* sink) noexcept nogil
cdef int state_act(MatchState* s, const RulesC* r, int player, int kind, int cell,
                   EventSink* sink) noexcept nogil
cdef void state_act_both(MatchState* s, const RulesC* r, int x_kind, int x_cell, int o_kind,
                         int o_cell, int* x_reason, int* o_reason, EventSink* sink) noexcept nogil
cdef bint state_spawn(MatchState* s, const RulesC* r, int kind, int cell,
                      EventSink* sink) noexcept nogil
cdef int state_check(const MatchState* s, const RulesC* r, int player, int kind,
                     int cell) noexcept nogil
cdef int32_t state_charge_ready_t(const MatchState* s, const RulesC* r, int player) noexcept nogil
cdef int state_oldest(const MatchState* s, int player) noexcept nogil

# -- tiny queries, inline in every module that cimports them (the hot path's helpers) -----
cdef inline uint64_t all_marks(const MatchState* s) noexcept nogil:
    return s.set_marks[0] | s.set_marks[1] | s.setting[0] | s.setting[1]


cdef inline uint64_t all_powerups(const MatchState* s) noexcept nogil:
    return s.powerups[0] | s.powerups[1] | s.powerups[2] | s.powerups[3]


cdef inline int32_t state_next_timed_t(MatchState* s, const RulesC* r) noexcept nogil:
    """state_next_event_t through the cache: a rescan only after something timed was
    removed (a knock-out, a claim, a retirement), not on every call."""
    if s.timed_stale:
        s.next_timed_t = state_next_event_t(s, r)
        s.timed_stale = 0
    return s.next_timed_t


cdef inline bint state_charge_full(const MatchState* s, int player) noexcept nogil:
    """R4: can the player act now?"""
    return s.charge_units[player] >= s.charge_need[player]


cdef inline int state_marks(const MatchState* s, int player) noexcept nogil:
    return popcount(s.set_marks[player] | s.setting[player])


cdef inline uint64_t state_legal_mask(const MatchState* s, const RulesC* r, int player,
                                      int kind) noexcept nogil:
    """The cells where an action of `kind` would be accepted now (state_check's rules)."""
    if s.round_over or s.charge_units[player] < s.charge_need[player]:
        return 0
    if kind == ACT_PLACE:
        return r.geo.board & ~(all_marks(s) | s.craters)      # R6: no mark, no crater
    return s.setting[1 - player]                              # R9: opponent's setting marks
