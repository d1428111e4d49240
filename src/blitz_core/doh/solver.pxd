# The exact solver and the native bots, as other native modules of this game
# (batch.pyx, the RL stepper) cimport them. Definitions in solver.pyx.

from libc.stdint cimport uint64_t, int16_t
from blitz_core.doh.engine cimport DohPos, DOH_ACTIONS
from blitz_core.doh.table cimport Table

ctypedef struct BotSpec:
    int kind                # BOT_RANDOM, BOT_GREEDY, BOT_PERFECT (solver.pyx)
    double error            # probability that one move is the fallback's instead
    int fallback
    double temperature      # perfect: > 0 samples a softmax over the moves' values (issue 23)

# The greedy bot's memo (issue 28: greedy was the batch's slowest opponent, each decision
# playing every move and every reply, ~700 positions). A move's greedy score is a pure
# function of the position, and a Solver's positions (one rules configuration and number
# of players) are named by engine.pxd's pos_key, so a direct-mapped cache keyed by it
# holds each position's scores, indexed by action code; the tie-breaking draws are
# unchanged, so the bot's choices are the same with or without it.
ctypedef struct GreedyEntry:
    uint64_t tag                    # pos_key + 1; 0: empty
    int16_t score[DOH_ACTIONS]      # greedy_move_score of each legal action

ctypedef struct GreedyCache:
    GreedyEntry* entries            # mask + 1 of them (a power of two)
    uint64_t mask

cdef int bot_action(Table* t, const DohPos* p, BotSpec spec, uint64_t seed,
                    GreedyCache* greedy=*) noexcept nogil
cdef BotSpec make_spec(object spec) except *

cdef class Solver:
    cdef Table table
    cdef GreedyCache greedy         # the greedy bot's memo, beside the table it serves
    cdef readonly int pieces_per_size
    cdef readonly int grid
    cdef readonly int players
    cdef object lock
    cdef DohPos _position(self, object position) except *
    cdef int _seat(self, object seat) except -1
