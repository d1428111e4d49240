# The salts of Tic Tac Blitz's seeded streams: the one declaration (docs/engine.md).
#
# A match of seed s draws its chance (R23: spawns, the R3 coin) from s itself (stream
# layout 1) or from four streams by purpose keyed by mix64(s) xor a purpose salt, the
# round and an index (layout 2: spawn times, spawn cells, spawn kinds, the coin; docs/engine.md,
# issue 22). Every other stream is SplitMix64 seeded with s xor a salt, so that no two
# streams of one match are the same stream:
#   - each seat's bot policy (bots.pyx play_matches, rollouts.pyx native opponents):
#     s ^ seat_salt(seat), so one seed gives one match whichever runner plays it;
#   - the random playout's single policy for both seats (playout.pyx): s ^ RANDOM_POLICY;
#   - an env's auto-reset seeds and its sample_actions (rollouts.pyx): s ^ RESET / SAMPLE.

from libc.stdint cimport uint64_t


cdef inline uint64_t seat_salt(int seat) noexcept nogil:
    return 0x8BB84B93962EACC9ULL if seat == 0 else 0x4B33A62ED433D4A3ULL


cdef inline uint64_t random_policy_salt() noexcept nogil:
    return 0xD1B54A32D192ED03ULL


cdef inline uint64_t reset_salt() noexcept nogil:
    return 0x9FB21C651E98DF25ULL


cdef inline uint64_t sample_salt() noexcept nogil:
    return 0xC13FA9A902A6328FULL


# Stream layout 2 (docs/engine.md "Stream layout 2"): the purpose salts, in the order of
# the purpose numbers of engine.pyx (spawn times, spawn cells, spawn kinds, the R3 coin).
cdef inline uint64_t purpose_salt(int purpose) noexcept nogil:
    if purpose == 0:
        return 0x5851F42D4C957F2DULL
    if purpose == 1:
        return 0x2545F4914F6CDD1DULL
    if purpose == 2:
        return 0x4F1BBCDCBFA53E0BULL
    return 0x9E6C63D0676A9A99ULL
