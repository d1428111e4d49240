# The paranoid solver of Tic Tac Doh for 2-4 players (issue 25; DOH.md "Solving"),
# as solver.pyx (the perfect bot, the Solver's methods) cimports it. Definitions in
# paranoid.pyx.

from libc.stdint cimport uint64_t
from blitz_core.doh.engine cimport DohPos
from blitz_core.doh.table cimport Table

cdef int paranoid_search(Table* t, const DohPos* p, int seat, int alpha, int beta) noexcept nogil
cdef int paranoid_exact(Table* t, const DohPos* p, int seat) noexcept nogil
cdef int paranoid_move_score(Table* t, const DohPos* p, int action, int seat) noexcept nogil
cdef int paranoid_action(Table* t, const DohPos* p, uint64_t* rng) noexcept nogil
