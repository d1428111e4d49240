# The exact solvers' transposition table (solver.pyx's negamax, paranoid.pyx's paranoid
# search): one 64-bit word per entry, open addressing with linear probing, doubling at
# half full. A slot holds
#     tag = key + 1 (0 marks an empty slot) | (score + 128) << SCORE_SHIFT | flag << FLAG_SHIFT
# where key is the canonical position key of engine.pxd (at most 48 bits), with the
# paranoid search's seat folded in above it (seat_tag): one table serves the 2-player
# negamax (no seat bits) and every seat's paranoid search without mixing their entries.
# Scores are within +-WIN (8 bits with the offset); the flag says what the score is.

from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free

from blitz_core.common.rng cimport mix64

cdef enum:
    WIN = 100               # a win now scores WIN - 1 (the move is one ply)
    INF = 1000
    FLAG_EXACT = 1
    FLAG_LOWER = 2          # the value is at least the stored score
    FLAG_UPPER = 3          # the value is at most the stored score
    KEY_BITS = 48           # the canonical key (engine.pxd's pos_key: at most 48 bits)
    TAG_BITS = 51           # key + 1 with the paranoid seat tag (3 bits) above the key
    SCORE_SHIFT = 51
    FLAG_SHIFT = 59

ctypedef struct Table:
    uint64_t* slots         # tag | (score + 128) << SCORE_SHIFT | flag << FLAG_SHIFT; 0: empty
    uint64_t mask           # capacity - 1 (a power of two)
    uint64_t used
    uint64_t nodes          # positions searched (interior nodes expanded), ever
    bint full               # an allocation failed: the table stops growing


cdef inline uint64_t seat_tag(int seat) noexcept nogil:
    """The bits that make a paranoid entry of `seat` (0..3) a key of its own: seat + 1
    above the 48 key bits (a negamax key has none)."""
    return (<uint64_t>(seat + 1)) << KEY_BITS


cdef inline bint table_grow(Table* t) noexcept nogil:
    cdef uint64_t capacity = (t.mask + 1) * 2, i, j, e
    cdef uint64_t* fresh = <uint64_t*>calloc(capacity, sizeof(uint64_t))
    if fresh == NULL:
        t.full = True
        return False
    for i in range(t.mask + 1):
        e = t.slots[i]
        if e:
            j = mix64(e & ((<uint64_t>1 << TAG_BITS) - 1)) & (capacity - 1)
            while fresh[j]:
                j = (j + 1) & (capacity - 1)
            fresh[j] = e
    free(t.slots)
    t.slots = fresh
    t.mask = capacity - 1
    return True


cdef inline uint64_t* table_find(Table* t, uint64_t key) noexcept nogil:
    """The slot holding `key`, or the empty slot where it would go (linear probing)."""
    cdef uint64_t tag = key + 1
    cdef uint64_t j = mix64(tag) & t.mask
    cdef uint64_t e
    while True:
        e = t.slots[j]
        if e == 0 or (e & ((<uint64_t>1 << TAG_BITS) - 1)) == tag:
            return &t.slots[j]
        j = (j + 1) & t.mask


cdef inline int slot_score(uint64_t e) noexcept nogil:
    return <int>((e >> SCORE_SHIFT) & 0xFF) - 128


cdef inline int slot_flag(uint64_t e) noexcept nogil:
    return <int>(e >> FLAG_SHIFT)


cdef inline void table_store(Table* t, uint64_t key, int score, int flag) noexcept nogil:
    cdef uint64_t* slot
    if 2 * (t.used + 1) > t.mask + 1 and not t.full:
        table_grow(t)
    slot = table_find(t, key)
    if slot[0] == 0:
        if 2 * (t.used + 1) > t.mask + 1 and t.full and 4 * (t.used + 1) > 3 * (t.mask + 1):
            return                      # out of memory and 3/4 full: keep probing short
        t.used += 1
    slot[0] = ((key + 1) | ((<uint64_t>(score + 128)) << SCORE_SHIFT)
               | ((<uint64_t>flag) << FLAG_SHIFT))


cdef inline bint table_cutoff(Table* t, uint64_t key, int* alpha, int* beta,
                              int* score) noexcept nogil:
    """The table's answer for `key` in the window (alpha, beta): True with `score` set
    when the stored entry settles the node (exact, or a bound outside the window); else
    False, with the window narrowed by a stored bound (both searches probe this way)."""
    cdef uint64_t e = table_find(t, key)[0]
    cdef int stored, flag
    if not e:
        return False
    stored = slot_score(e)
    flag = slot_flag(e)
    if flag == FLAG_EXACT:
        score[0] = stored
        return True
    if flag == FLAG_LOWER and stored > alpha[0]:
        alpha[0] = stored
    elif flag == FLAG_UPPER and stored < beta[0]:
        beta[0] = stored
    if alpha[0] >= beta[0]:
        score[0] = stored
        return True
    return False
