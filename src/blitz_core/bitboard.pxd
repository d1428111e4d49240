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
# at s exactly when the whole window from s is in b (Pons' shift-and test).

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
    """Start cells of every complete window of b in direction d."""
    cdef uint64_t w = b
    cdef int k, s = g.step[d]
    for k in range(1, g.line_length):
        w &= b >> (k * s)
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

    Bit-sliced: each window's own count is summed into four bit planes (c0..c3, one
    bit per start cell) with a ripple adder of shifted boards, so no per-window
    popcount is needed; the maximum over qualifying starts is then read plane by plane
    from the top, keeping the candidates that have each bit (branch-free selects)."""
    cdef int d, k, s, bit, best = 0, score
    cdef uint64_t free, x, carry, c0, c1, c2, c3, plane, keep, cand
    for d in range(4):
        s = g.step[d]
        free = g.starts[d]
        c0 = c1 = c2 = c3 = 0
        for k in range(g.line_length):
            free &= ~(opp >> (k * s))
            x = own >> (k * s)
            carry = c0 & x
            c0 ^= x
            x = c1 & carry
            c1 ^= carry
            carry = c2 & x
            c2 ^= x
            c3 ^= carry
        cand = free
        score = 0
        # Highest plane first: keep the candidates holding that bit, if any do.
        plane = c3 & cand
        keep = <uint64_t>0 - <uint64_t>(plane != 0)
        cand = (plane & keep) | (cand & ~keep)
        score |= 8 & <int>keep
        plane = c2 & cand
        keep = <uint64_t>0 - <uint64_t>(plane != 0)
        cand = (plane & keep) | (cand & ~keep)
        score |= 4 & <int>keep
        plane = c1 & cand
        keep = <uint64_t>0 - <uint64_t>(plane != 0)
        cand = (plane & keep) | (cand & ~keep)
        score |= 2 & <int>keep
        plane = c0 & cand
        keep = <uint64_t>0 - <uint64_t>(plane != 0)
        score |= 1 & <int>keep
        # A direction with no qualifying window contributes 0 (cand was 0 throughout).
        if score > best:
            best = score
    return best
