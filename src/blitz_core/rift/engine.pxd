# Declarations of Rift & Grid's native core; implemented in engine.pyx.
#
# The state is one flat struct (a clone is a memcpy). Cells are kept per sector as
# 9-bit masks, one per symbol plus grey; sets of sectors (won, tied, decided) are 9-bit
# masks of the same shape on the 3x3 board of sectors (G1, G11):
#
#     bit of a position in a sector      bit of a sector on the board
#            0 | 1 | 2                          0 | 1 | 2
#            3 | 4 | 5                          3 | 4 | 5
#            6 | 7 | 8                          6 | 7 | 8
#
# so one 512-entry table (LINE_TABLE[mask] = the lines the mask holds, bit i = line i
# of tictacblitz.games.rift.types.LINES) answers both G7 and G11.

from libc.stdint cimport uint64_t, uint16_t, uint8_t, int32_t, int16_t, int8_t

cdef enum:
    N_ABILITIES = 4
    N_OBJECTIVES = 12
    N_CELLS = 81
    N_ACTIONS = 324               # 81 * ability + cell (encoding.py)
    ALL_SECTORS = 0x1FF

cdef enum:                        # G3, values of Ability
    AB_NONE = 0
    AB_SHIELD = 1
    AB_SWAP = 2
    AB_REVEAL = 3

cdef enum:                        # symbols of RiftState.cells
    SYM_X = 0
    SYM_O = 1
    SYM_GREY = 2

cdef enum:                        # G5, in checking order; 0 = accepted (Reason.code)
    ACCEPTED = 0
    R_GAME_OVER = 1
    R_SECTOR_DECIDED = 2
    R_WRONG_SECTOR = 3
    R_NOT_EMPTY = 4
    R_NO_ENERGY = 5
    R_COOLING_DOWN = 6
    R_NOTHING_TO_REVEAL = 7

cdef enum:                        # G17, in catalogue order (types.OBJECTIVE_IDS)
    OBJ_CENTRE = 0
    OBJ_DIAGONAL_WIN = 1
    OBJ_SHIELD_WIN = 2
    OBJ_FULL_ENERGY = 3
    OBJ_CENTRE_CELLS = 4
    OBJ_TWO_CORNERS = 5
    OBJ_TWO_EDGES = 6
    OBJ_FOUR_SECTORS = 7
    OBJ_CLEAN_SWEEP = 8
    OBJ_SWAP_WIN = 9
    OBJ_OPPOSITE_CORNERS = 10
    OBJ_META_LINE = 11

cdef enum:                        # RiftState.result
    RESULT_NONE = -1
    RESULT_X = 0
    RESULT_O = 1
    RESULT_DRAW = 2

cdef enum:                        # policies of the native bots
    BOT_RANDOM = 0
    BOT_GREEDY = 1
    BOT_LOOKAHEAD = 2
    BOT_SEARCH = 3                # SM-MCTS (decoupled UCT), see rift_search_move
    BOT_SEARCH_CUT = 4            # the same, rollouts cut and scored (issue 23, item 4)
    BOT_GREEDY_FIXED = 5          # greedy's ability rules before issue 23

cdef enum:
    SEARCH_K = 12                 # candidate moves per seat at a search node

ctypedef struct RiftRulesC:
    int32_t sector_win_points     # G10
    int32_t sector_tie_points     # G10
    int32_t meta_line_points      # G11
    int32_t per_player            # G12 objectives_per_player
    int32_t energy_start          # G13
    int32_t energy_max
    int32_t energy_idle_gain
    int32_t energy_sector_gain
    int32_t cost[4]               # G14, by ability (cost[AB_NONE] = 0)
    int32_t cooldown[4]
    int32_t min_cost              # the cheapest ability (a quick "none only" answer)
    int32_t n_catalogue           # G12: the ids dealt from, as objective codes
    int8_t catalogue[12]
    int32_t points[12]            # G17, by objective code

ctypedef struct RiftState:
    uint16_t cells[3][9]          # [X, O, grey][sector]: 9-bit position masks
    uint16_t won[2]               # sectors won by X, by O
    uint16_t tied
    uint16_t won_diag[2]          # won sectors whose winner holds a diagonal (diagonal_win)
    uint16_t won_clean[2]         # won sectors where the loser held no cell (clean_sweep)
    uint16_t accomplished[2]      # bit i: hand item i scored (G12)
    uint16_t revealed[2]          # bit i: hand item i revealed (G15)
    uint8_t meta_scored           # G11: lines already scored
    int8_t active                 # G9: the active sector, -1 for a free turn
    int8_t over                   # G16
    int8_t result                 # RESULT_*
    int8_t hand_n                 # G12: objectives per hand
    int8_t hand[2][12]            # objective codes, dealt order
    int32_t turn                  # the next turn to play (1 at the start)
    int32_t energy[2]             # G13
    int32_t ready[2][4]           # G14: first turn each ability can be used
    int32_t score[2]
    int32_t collisions            # counters for the lab (not rules state)
    int32_t greys
    int32_t uses[2][4]            # abilities used, by seat and ability

ctypedef struct TurnReport:
    int16_t target[2]             # final targets after G6 step 2
    int16_t got[2]                # the cell each seat got, -1 for none
    int16_t grey                  # the cell that turned grey, -1 for none
    int8_t swapped_by             # the lone swapper, -1 when no exchange happened
    int8_t shield_won             # the seat whose shield won a collision, -1
    int8_t collision
    uint16_t decided              # sectors decided this turn
    uint8_t meta_new[2]           # meta lines scored this turn, per seat
    uint16_t obj_new[2]           # hand items accomplished this turn, per seat
    int8_t revealed[2]            # the opponent's hand item each seat revealed, -1

ctypedef struct SearchNode:       # one node of the SM-MCTS tree (decoupled UCT)
    int32_t child                 # first child (node index), -1 for none
    int32_t sibling               # next child of the same parent, -1
    int16_t joint                 # the joint move from the parent: i * SEARCH_K + j
    int8_t nk[2]                  # candidate moves per seat (0: not expanded yet)
    int32_t visits
    int16_t code[2][12]           # candidate action codes per seat
    int32_t n[2][12]              # visits per candidate
    float w[2][12]                # summed rewards (1 win, 1/2 draw, 0 loss) per candidate

ctypedef struct SearchPool:       # the tree's storage, reused from decision to decision
    SearchNode* nodes
    int32_t cap
    int32_t used

cdef void rift_reset(RiftState* st, const RiftRulesC* r, uint64_t seed) noexcept nogil
cdef void rift_judge_all(RiftState* st) noexcept nogil
cdef int rift_rejection(const RiftState* st, const RiftRulesC* r, int p, int cell,
                        int ab) noexcept nogil
cdef int rift_targets(const RiftState* st, uint16_t* out) noexcept nogil
cdef int rift_abilities(const RiftState* st, const RiftRulesC* r, int p) noexcept nogil
cdef void rift_resolve(RiftState* st, const RiftRulesC* r, int xc, int xa, int oc, int oa,
                       TurnReport* rep) noexcept nogil
cdef int rift_random_move(const RiftState* st, const RiftRulesC* r, int p,
                          uint64_t* rng) noexcept nogil
cdef int rift_greedy_move(const RiftState* st, const RiftRulesC* r, int p, uint64_t* rng,
                          double error_rate) noexcept nogil
cdef int rift_lookahead_move(const RiftState* st, const RiftRulesC* r, int p, uint64_t* rng,
                             double error_rate) noexcept nogil
cdef int rift_search_move(const RiftState* st, const RiftRulesC* r, int p, uint64_t* rng,
                          double error_rate, int simulations, SearchPool* pool) noexcept nogil
cdef int rift_policy(const RiftState* st, const RiftRulesC* r, int p, int kind,
                     double error_rate, uint64_t* rng, int simulations,
                     SearchPool* pool) noexcept nogil
cdef int rift_load_rules(RiftRulesC* r, object rules) except -1
cdef int rift_pool_init(SearchPool* pool, int simulations) noexcept nogil
cdef void rift_pool_free(SearchPool* pool) noexcept nogil
