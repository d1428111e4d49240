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

from blitz_core.common.bits cimport popcount, lowest, nth_set_bit


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
    drow[0] = 0                    # across
    dcol[0] = 1
    drow[1] = 1                    # down-left
    dcol[1] = -1
    drow[2] = 1                    # down
    dcol[2] = 0
    drow[3] = 1                    # down-right
    dcol[3] = 1
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

    Bit-sliced "at least k" planes: at_least[k] has a bit at every start cell (of any
    direction: only existence matters) whose window is free of opp marks and holds at
    least k own marks, so no window needs a popcount; the score is the largest k whose
    plane is not empty. Four in a row has its own unrolled path."""
    if g.line_length == 4:
        return timeout_score_4(g, own, opp)
    cdef uint64_t at_least[9]           # across all directions; index 0 unused
    cdef uint64_t per_dir[9]            # this direction; per_dir[0] = every start
    cdef uint64_t free, x, o
    cdef int d, j, k, s, n = g.line_length, score = 0
    for k in range(n + 1):
        at_least[k] = 0
    for d in range(4):
        s = g.step[d]
        free = g.starts[d]
        x = own
        o = opp
        per_dir[0] = ~(<uint64_t>0)
        for k in range(1, n + 1):
            per_dir[k] = 0
        for j in range(n):              # the j-th cell of every window at once
            free &= ~o                  # an opponent mark anywhere blocks the window
            for k in range(j + 1, 0, -1):
                per_dir[k] |= per_dir[k - 1] & x
            x >>= s
            o >>= s
        for k in range(1, n + 1):
            at_least[k] |= per_dir[k] & free
    for k in range(1, n + 1):
        if at_least[k]:
            score = k
    return score


cdef inline int timeout_score_4(const Geometry* g, uint64_t own, uint64_t opp) noexcept nogil:
    """timeout_score for line_length 4, unrolled: own marks per window counted in pairs."""
    cdef uint64_t ge1 = 0, ge2 = 0, ge3 = 0, ge4 = 0, free, x0, x1, x2, x3
    cdef uint64_t any01, both01, any23, both23
    cdef int d, s
    for d in range(4):
        s = g.step[d]
        free = g.starts[d] & ~(opp | (opp >> s) | (opp >> (2 * s)) | (opp >> (3 * s)))
        x0 = own
        x1 = own >> s
        x2 = own >> (2 * s)
        x3 = own >> (3 * s)
        any01 = x0 | x1
        both01 = x0 & x1
        any23 = x2 | x3
        both23 = x2 & x3
        ge1 |= free & (any01 | any23)
        ge2 |= free & (both01 | both23 | (any01 & any23))
        ge3 |= free & ((both01 & any23) | (both23 & any01))
        ge4 |= free & both01 & both23
    return 4 if ge4 else (3 if ge3 else (2 if ge2 else (1 if ge1 else 0)))
