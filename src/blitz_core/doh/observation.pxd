# One seat's observation of a Doh position (encoding.py's planes) and its legal mask, as
# the native modules write them: the batched env (batch.pyx) and the exact best
# response's observe (best_response.pyx), which tests hold equal to encoding.py.

from libc.stdint cimport uint64_t, int8_t

from blitz_core.common.bits cimport lowest
from blitz_core.doh.engine cimport (
    DohPos, empty_targets, targets_for, counts_bits, bit_cell, DOH_ONGOING, DOH_ACTIONS,
)

cdef enum:
    N_PLANES = 15           # encoding.OBSERVATION_SHAPE[0]
    NOOP_CODE = 0           # the one legal action of a row that cannot act (ignored)


cdef inline void write_obs(const DohPos* p, float* obs, int8_t* mask, int seat) noexcept nogil:
    """DohState.observation(seat) and legal_mask(seat) (encoding.py's planes); a seat
    that cannot act has NOOP_CODE alone in its mask (issue 28: never an empty mask)."""
    cdef int i, s, code, counts
    cdef float frac
    cdef uint64_t empties, m
    for i in range(N_PLANES * 9):
        obs[i] = 0.0
    for i in range(9):
        code = <int>((p.board >> (4 * i)) & 15)
        obs[code * 9 + i] = 1.0                           # D4: what it holds
        counts = counts_bits(code)
        for s in range(3):
            if (counts >> s) & 1:
                obs[(10 + s) * 9 + i] = 1.0               # D5: what it counts as
    for s in range(3):
        frac = (<float>p.stash[s]) / (<float>p.pieces_per_size)
        for i in range(3):
            obs[13 * 9 + 3 * s + i] = frac                # the stash, row s
    for i in range(DOH_ACTIONS):
        mask[i] = 0
    if p.winner == DOH_ONGOING and p.to_move == seat:
        for i in range(9):
            obs[14 * 9 + i] = 1.0
        empties = empty_targets(p)
        for s in range(3):
            m = targets_for(p, s, empties)
            while m:
                mask[25 * s + bit_cell(lowest(m))] = 1
                m &= m - 1
    else:
        mask[NOOP_CODE] = 1
