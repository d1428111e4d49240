# The exact solver and the native bots, as other native modules of this game
# (batch.pyx, the RL stepper) cimport them. Definitions in solver.pyx.

from libc.stdint cimport uint64_t
from blitz_core.doh.engine cimport DohPos
from blitz_core.doh.table cimport Table

ctypedef struct BotSpec:
    int kind                # BOT_RANDOM, BOT_GREEDY, BOT_PERFECT (solver.pyx)
    double error            # probability that one move is the fallback's instead
    int fallback
    double temperature      # perfect: > 0 samples a softmax over the moves' values (issue 23)

cdef int bot_action(Table* t, const DohPos* p, BotSpec spec, uint64_t seed) noexcept nogil
cdef BotSpec make_spec(object spec) except *

cdef class Solver:
    cdef Table table
    cdef readonly int pieces_per_size
    cdef readonly int grid
    cdef readonly int players
    cdef object lock
    cdef DohPos _position(self, object position) except *
    cdef int _seat(self, object seat) except -1
