# Bit tricks: the bottom layer of the core (pure functions of bitboards, no rules state).
#
# A board is one uint64; bit i is cell i = row * size + col (R11), rows top to bottom:
#
#            col 0   1   2   3   4   5            (size 6: bits 0..35 used)
#     row 0      0   1   2   3   4   5
#     row 1      6   7   8   9  10  11
#     row 2     12  13  14  15  16  17
#     row 3     18  19  20  21  22  23
#     row 4     24  25  26  27  28  29
#     row 5     30  31  32  33  34  35
#
# There is no guard column (an 8x8 board fills all 64 bits), so a shift that walks off
# the right edge wraps onto the next row. Instead, every direction has a mask of the
# cells where a full window *starts* inside the board; line tests AND with it, which
# throws the wrapped windows away. A window is line_length cells from a start s by a
# step d: across d = 1, down-left d = size-1, down d = size, down-right d = size+1.
# That order is also R10's tie order: among windows with the same lowest cell, the
# smaller step has the lower ascending cell list.
#
# A window "starts" at its lowest cell, so `b & (b >> d) & (b >> 2d) & ...` has a bit
# at s exactly when the whole window from s is in b (Pons' shift-and test, done by
# doubling: `m = b & (b >> d); m & (m >> 2d)` for four).

from libc.stdint cimport uint64_t

cdef extern from "bitops.h" nogil:
    int popcount "blitz_popcount"(uint64_t x)
    int lowest "blitz_lowest"(uint64_t x)

cdef enum:
    MAX_CELLS = 64
    DIRECTIONS = 4

ctypedef struct Geometry:
    int size
    int cells
    int line_length
    uint64_t board                   # every cell of the board
    int step[4]                      # across, down-left, down, down-right (R10 order)
    uint64_t starts[4]               # cells where a full window starts, per direction
    uint64_t neighbours[64]          # the up-to-8 touching cells (R17)


cdef inline void init_geometry(Geometry* g, int size, int line_length) noexcept nogil:
    cdef int row, col, dr, dc, d, r2, c2, last
    cdef int drow[4]
    cdef int dcol[4]
    drow[0] = 0; dcol[0] = 1       # across
    drow[1] = 1; dcol[1] = -1      # down-left
    drow[2] = 1; dcol[2] = 0       # down
    drow[3] = 1; dcol[3] = 1       # down-right
    g.size = size
    g.cells = size * size
    g.line_length = line_length
    g.board = (<uint64_t>0xFFFFFFFFFFFFFFFF) if g.cells == 64 else ((<uint64_t>1 << g.cells) - 1)
    last = line_length - 1
    for d in range(4):
        g.step[d] = drow[d] * size + dcol[d]
        g.starts[d] = 0
        for row in range(size):
            for col in range(size):
                r2 = row + drow[d] * last
                c2 = col + dcol[d] * last
                if 0 <= r2 < size and 0 <= c2 < size:
                    g.starts[d] |= <uint64_t>1 << (row * size + col)
    for row in range(size):
        for col in range(size):
            g.neighbours[row * size + col] = 0
            for dr in range(-1, 2):
                for dc in range(-1, 2):
                    r2 = row + dr
                    c2 = col + dc
                    if (dr or dc) and 0 <= r2 < size and 0 <= c2 < size:
                        g.neighbours[row * size + col] |= <uint64_t>1 << (r2 * size + c2)
    for d in range(size * size, MAX_CELLS):
        g.neighbours[d] = 0


cdef inline uint64_t line_starts(const Geometry* g, uint64_t b, int d) noexcept nogil:
    """Start cells of every complete window of b in direction d.

    By doubling: w marks the starts of runs of `have` cells; w & (w >> have*s) marks
    runs twice as long, and a last shift by the remainder (at most `have`) tops the run
    up to line_length. Four in a row takes two shift-ands, eight takes three."""
    cdef uint64_t w = b
    cdef int have = 1, s = g.step[d], need = g.line_length
    if need == 4:                         # the default game, unrolled
        w &= w >> s
        return w & (w >> (2 * s)) & g.starts[d]
    while have * 2 <= need:
        w &= w >> (have * s)
        have *= 2
    if have < need:
        w &= w >> ((need - have) * s)
    return w & g.starts[d]


cdef inline bint has_line(const Geometry* g, uint64_t b) noexcept nogil:
    """R10: does b hold line_length in a row in any direction?"""
    return (line_starts(g, b, 0) | line_starts(g, b, 1)
            | line_starts(g, b, 2) | line_starts(g, b, 3)) != 0


cdef inline uint64_t window_mask(const Geometry* g, int start, int d) noexcept nogil:
    cdef uint64_t m = 0
    cdef int k
    for k in range(g.line_length):
        m |= <uint64_t>1 << (start + k * g.step[d])
    return m


cdef inline uint64_t lowest_line(const Geometry* g, uint64_t b) noexcept nogil:
    """R10: the complete window whose ascending cell list is lowest, as a mask; 0 if none.

    Lowest start cell first; among equal starts the smaller step (direction order)."""
    cdef int d, best_start = MAX_CELLS, best_d = -1, s
    cdef uint64_t starts
    for d in range(4):
        starts = line_starts(g, b, d)
        if starts:
            s = lowest(starts)
            if s < best_start:
                best_start = s
                best_d = d
    if best_d < 0:
        return 0
    return window_mask(g, best_start, best_d)


cdef inline int timeout_score(const Geometry* g, uint64_t own, uint64_t opp) noexcept nogil:
    """R20: over windows with no opp mark, the most own marks in one; 0 if none qualify.

    Bit-sliced: each window's own count is summed into four bit planes (c0..c3, one bit
    per start cell and direction) with a ripple adder of shifted boards, so no window
    needs a popcount. The maximum over every qualifying start of every direction is then
    read plane by plane from the top: keep the candidates that have the bit, if any do
    (branch-free selects)."""
    cdef uint64_t c0[4]
    cdef uint64_t c1[4]
    cdef uint64_t c2[4]
    cdef uint64_t c3[4]
    cdef uint64_t cand[4]
    cdef uint64_t x, shifted_own, shifted_opp, carry, hit, keep
    cdef int d, k, s, score = 0
    for d in range(4):
        s = g.step[d]
        shifted_own = own
        shifted_opp = opp
        cand[d] = g.starts[d]
        c0[d] = c1[d] = c2[d] = c3[d] = 0
        for k in range(g.line_length):    # the k-th cell of every window at once
            cand[d] &= ~shifted_opp       # an opponent mark anywhere blocks the window
            x = shifted_own
            carry = c0[d] & x
            c0[d] ^= x
            x = c1[d] & carry
            c1[d] ^= carry
            carry = c2[d] & x
            c2[d] ^= x
            c3[d] ^= carry
            shifted_own >>= s
            shifted_opp >>= s
    # Plane 3 (eight), then 2, 1, 0: narrow every direction's candidates together.
    hit = (c3[0] & cand[0]) | (c3[1] & cand[1]) | (c3[2] & cand[2]) | (c3[3] & cand[3])
    keep = <uint64_t>0 - <uint64_t>(hit != 0)
    for d in range(4):
        cand[d] = (cand[d] & c3[d] & keep) | (cand[d] & ~keep)
    score |= 8 & <int>keep
    hit = (c2[0] & cand[0]) | (c2[1] & cand[1]) | (c2[2] & cand[2]) | (c2[3] & cand[3])
    keep = <uint64_t>0 - <uint64_t>(hit != 0)
    for d in range(4):
        cand[d] = (cand[d] & c2[d] & keep) | (cand[d] & ~keep)
    score |= 4 & <int>keep
    hit = (c1[0] & cand[0]) | (c1[1] & cand[1]) | (c1[2] & cand[2]) | (c1[3] & cand[3])
    keep = <uint64_t>0 - <uint64_t>(hit != 0)
    for d in range(4):
        cand[d] = (cand[d] & c1[d] & keep) | (cand[d] & ~keep)
    score |= 2 & <int>keep
    hit = (c0[0] & cand[0]) | (c0[1] & cand[1]) | (c0[2] & cand[2]) | (c0[3] & cand[3])
    keep = <uint64_t>0 - <uint64_t>(hit != 0)
    score |= 1 & <int>keep
    # With no qualifying window every candidate set is empty and every plane misses: 0.
    return score
