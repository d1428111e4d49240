# The one random stream of the native cores: SplitMix64 (Steele, Lea and Flood 2014).
# Every seeded stream of every game (a match's chance, a bot's choices, an env's resets)
# is one of these; the Python twin is tictacblitz.games.rng.SplitMix64, and the native and
# reference engines' differential tests tie the two (every R23 draw goes through both).
# docs/engine.md fixes how each stream is seeded.

from libc.stdint cimport uint64_t

cdef inline uint64_t rng_next(uint64_t* state) noexcept nogil:
    state[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t rng_below(uint64_t* state, uint64_t n) noexcept nogil:
    """Exactly uniform on [0, n): reject the (2**64 mod n) lowest draws.

    That threshold is below n, so a draw >= n is always kept: the division that
    computes it is needed only for the rare draws below n."""
    cdef uint64_t r
    while True:
        r = rng_next(state)
        if r >= n or r >= (<uint64_t>0 - n) % n:
            return r % n


cdef inline double rng_unit(uint64_t* state) noexcept nogil:
    """Uniform on [0, 1) from the top 53 bits of one draw."""
    return <double>(rng_next(state) >> 11) * (1.0 / 9007199254740992.0)


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    """One SplitMix64 step from state z, as a hash of a 64-bit word (tictacblitz.games.rng
    .mix64, how seeds are derived from a master seed): rng_next on a copy of z."""
    z += 0x9E3779B97F4A7C15ULL
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)
