# Bit tricks every native game core is written in: pure functions of a uint64.
# (Declarations only; the C side is bitops.h beside this file.)

from libc.stdint cimport uint64_t

cdef extern from "bitops.h" nogil:
    int popcount "blitz_popcount"(uint64_t x)
    int lowest "blitz_lowest"(uint64_t x)


cdef inline int nth_set_bit(uint64_t m, uint64_t n) noexcept nogil:
    """The index of the n-th (from 0) set bit of m, which has more than n set bits."""
    while n:
        m &= m - 1
        n -= 1
    return lowest(m)
