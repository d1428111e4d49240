# Declarations of the native bots; implemented in bots.pyx.
#
# A bot is a Policy struct (its kind, its human-like timing and its own random stream)
# and a `nogil` decision function over a MatchState. `policy_match` plays a whole match
# between two policies without the GIL and fills a MatchRecord: no Python objects, and no
# allocation per decision (the only buffer is the caller's EventSink, reused per action).
# The layer sits above the engine (engine.pxd) and is what batched simulations call.

from libc.stdint cimport uint64_t, int64_t, int32_t, int16_t, int8_t
from blitz_core.blitz.engine cimport MatchState, RulesC, EventSink
from blitz_core.common.rng cimport mix64

cdef enum:
    BOT_RANDOM = 0
    BOT_GREEDY = 1
    BOT_SEARCH = 2
    BOT_STRONG = 3

cdef enum:                       # which greedy rule chose an action (docs/bots.md)
    RULE_NONE = 0                # no legal action: wait
    RULE_ERROR = 1               # the error rate fired: a uniformly random legal action
    RULE_KO_FOUR = 2             # knock out the unset last mark of the opponent's four
    RULE_THREAT = 3              # place on a cell that completes a line of own set marks
    RULE_BLOCK = 4               # place in the gap of the opponent's three set marks
    RULE_KO_THREE = 5            # knock out a mark giving the opponent three in an open window
    RULE_RETIRE_GUARD = 6        # at the mark limit with a valuable oldest mark: knock out instead
    RULE_POWERUP = 7             # claim a powerup worth claiming
    RULE_BUILD = 8               # place where the set marks build most (and block best)
    RULE_RANDOM = 9              # the random bot's choice
    RULE_SEARCH = 10             # the search bot's choice
    RULE_STRONG = 11             # the strong bot's choice (its learned evaluation)
    RULE_COUNT = 12

cdef enum:
    MAX_WINDOWS = 256            # 8x8 board, every direction, line_length 1 at most
    MAX_RECORD_ROUNDS = 16       # per-round results kept in a MatchRecord
    SEARCH_MAX_CANDIDATES = 10


ctypedef struct Policy:
    int32_t kind                 # BOT_*
    int32_t reaction_ms          # acts this many ms after its charge fills
    double error_rate            # chance of a uniformly random legal action instead
    int32_t budget               # search: simulations per decision
    int32_t horizon_ms           # search: how far a rollout plays (ms of game time)
    int32_t candidates           # search: actions considered (<= SEARCH_MAX_CANDIDATES)
    uint64_t rng                 # its own SplitMix64 stream (engine.pxd rng_next)
    int32_t reaction_sd          # the spread of its reactions (0: always reaction_ms)
    uint64_t reaction_key        # its reactions' key: mix64(seed ^ "REACTNOW")
    double reaction_mu           # the lognormal's log-mean and log-deviation (spread > 0)
    double reaction_sigma
    double attention             # greedy: the chance a decision notices the opponent's threats
    bint blind                   # greedy: this decision did not (drawn by greedy_decide)


ctypedef struct BotTables:       # built once per RulesC: every window as a mask (R11)
    int32_t n_windows
    uint64_t window[256]


ctypedef struct SeatCounts:      # what one seat did in a match
    int32_t decisions            # times the policy was asked while charged
    int32_t waits                # ... and chose to wait
    int32_t placements           # accepted placements
    int32_t knockouts            # accepted knock-outs
    int32_t rejected             # rejected actions (R7)
    int32_t retirements          # own marks retired by the mark limit (R12)
    int32_t powerups[4]          # powerups claimed, by kind (R14, R15)
    int32_t bombed               # opponent marks removed by own bombs (R17)
    int32_t stolen               # opponent marks stolen by own swaps (R17)
    int32_t rules[12]            # decisions by the rule that chose them (RULE_*)
    int64_t simulations          # search rollouts run


ctypedef struct MatchRecord:
    int8_t winner                # RESULT_X, RESULT_O or RESULT_DRAW (R22)
    int32_t rounds               # rounds played (max_rounds may be large, R22)
    int32_t round_wins[2]
    int8_t round_result[16]      # per round (first MAX_RECORD_ROUNDS): RESULT_*
    int8_t round_by[16]          # BY_LINE, BY_DOUBLE_LINE, BY_TIMEOUT
    int32_t round_end_t[16]      # ms the round ended
    int16_t round_knockouts[16][2]   # per round and seat: accepted knock-outs (R9)
    int8_t round_powerups[16][2][4]  # per round and seat: powerups claimed, by kind (R15)
    SeatCounts seat[2]


cdef void tables_init(BotTables* tb, const RulesC* r) noexcept nogil
cdef void policy_init(Policy* pol, int kind, int32_t reaction_ms, double error_rate,
                      int32_t budget, uint64_t seed) noexcept nogil
cdef int32_t reaction_at(const Policy* pol, int64_t since) noexcept nogil
cdef int policy_from(Policy* pol, object spec, uint64_t seed) except -1


cdef inline void policy_seed(Policy* pol, uint64_t seed) noexcept nogil:
    """Seed a policy's streams for one match: its choices and its reactions' key (what
    policy_init does with its seed, so NativeBot(seed) plays the same reactions)."""
    pol.rng = seed
    pol.reaction_key = mix64(seed ^ 0x52454143544E4F57ULL)  # "REACTNOW"
cdef uint64_t winning_cells(const RulesC* r, uint64_t marks) noexcept nogil
cdef int greedy_decide(Policy* pol, const BotTables* tb, const MatchState* s, const RulesC* r,
                       int player, int* kind, int* cell) noexcept nogil
cdef int policy_decide(Policy* pol, const BotTables* tb, const MatchState* s, const RulesC* r,
                       int player, int* kind, int* cell, int64_t* sims) noexcept nogil
cdef void policy_match(MatchState* s, const RulesC* r, const BotTables* tb, Policy* x,
                       Policy* o, MatchRecord* rec, EventSink* scratch) noexcept nogil
