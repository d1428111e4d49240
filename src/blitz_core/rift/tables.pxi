# Rift & Grid's lookup tables (G7/G11 lines, popcounts, n-th set bits), built once at
# import, and the bit helpers over them; included by engine.pyx first.
#
# Part of the one C module blitz_core.rift.engine (issue 27, item 4): `include`d, not
# cimported, so the hot helpers stay `cdef inline` in one translation unit and the C
# compiler inlines them across these files as before the split.

# -- tables built once at import ---------------------------------------------------------

cdef uint16_t LINE_MASKS[8]
LINE_MASKS[:] = [0x007, 0x038, 0x1C0, 0x049, 0x092, 0x124, 0x111, 0x054]
# rows, columns, diagonals: the order of types.LINES
cdef enum:
    DIAGONALS = 0xC0              # line numbers 6 and 7
    CORNERS = 0x145               # sectors 0, 2, 6, 8
    EDGES = 0x0AA                 # sectors 1, 3, 5, 7

cdef uint8_t LINE_TABLE[512]      # G7/G11: mask -> set of full lines
cdef uint8_t POP9[512]            # popcount of a 9-bit mask (one load on the hot path)
cdef uint8_t NTH9[512][9]         # NTH9[m][n]: the n-th set position of m (n < POP9[m])


cdef void _build_tables() noexcept nogil:
    cdef int m, i
    cdef uint8_t lines
    for m in range(512):
        lines = 0
        for i in range(8):
            if (m & LINE_MASKS[i]) == LINE_MASKS[i]:
                lines |= <uint8_t>(1 << i)
        LINE_TABLE[m] = lines
        POP9[m] = <uint8_t>popcount(m)
        for i in range(POP9[m]):
            NTH9[m][i] = <uint8_t>nth_set_bit(m, i)


_build_tables()


cdef inline uint32_t _below(uint64_t* rng, uint32_t n) noexcept nogil:
    """Exactly uniform on [0, n), n > 0, for the policies' streams (Lemire's
    multiply-shift with rejection: a division only for a draw in the biased zone, which
    has probability below n / 2**32). The G12 deal uses rng_below, the shared one."""
    cdef uint64_t m = (rng_next(rng) >> 32) * <uint64_t>n
    cdef uint32_t threshold
    if <uint32_t>m < n:
        threshold = (<uint32_t>0 - n) % n
        while <uint32_t>m < threshold:
            m = (rng_next(rng) >> 32) * <uint64_t>n
    return <uint32_t>(m >> 32)


cdef inline uint32_t _below_pair(uint64_t* rng, uint32_t n, uint32_t k,
                                 uint32_t* second) noexcept nogil:
    """Two independent exact draws, on [0, n) and [0, k), from one 64-bit word: the high
    half for the first, the low half for the second (each by _below's method; when either
    half lands in its biased zone, the whole word is drawn again, which keeps the pair
    uniform on the product)."""
    cdef uint64_t word, a, b
    while True:
        word = rng_next(rng)
        a = (word >> 32) * <uint64_t>n
        b = (word & 0xFFFFFFFFULL) * <uint64_t>k
        if (<uint32_t>a >= n or <uint32_t>a >= (<uint32_t>0 - n) % n) and \
           (<uint32_t>b >= k or <uint32_t>b >= (<uint32_t>0 - k) % k):
            second[0] = <uint32_t>(b >> 32)
            return <uint32_t>(a >> 32)


cdef inline uint16_t _empty(const RiftState* st, int s) noexcept nogil:
    return <uint16_t>(ALL_SECTORS & ~(st.cells[0][s] | st.cells[1][s] | st.cells[2][s]))


def line_table():
    """The 512-entry table, for the tests that tie it to types.LINES."""
    return bytes([LINE_TABLE[m] for m in range(512)])
