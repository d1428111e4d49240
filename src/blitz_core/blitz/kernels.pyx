# Batch kernels: R10 line detection and R20 timeout scoring over NumPy arrays of
# bitboards, for analysis code and for timing the hot path without per-call overhead.
# Both are the same inline functions the engine uses (bitboard.pxd).

from libc.stdint cimport uint64_t, int8_t, uint8_t

from blitz_core.blitz.bitboard cimport Geometry, init_geometry, has_line, lowest_line, timeout_score

import numpy as np


cdef int _geometry(Geometry* g, object size, object line_length) except -1:
    for name, value in (("size", size), ("line_length", line_length)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an integer, not {value!r}")
    if not 4 <= size <= 8:
        raise ValueError(f"size={size!r}: must be from 4 to 8 (the board is one uint64)")
    if not 1 <= line_length <= size:
        raise ValueError(f"line_length={line_length!r}: must be from 1 to size ({size})")
    init_geometry(g, size, line_length)
    return 0


def has_line_batch(const uint64_t[::1] boards not None, *, size=6, line_length=4):
    """R10 for each board: does it hold `line_length` in a row? Returns a bool array.

    Bits beyond ``size * size`` are ignored (no window reaches them).
    """
    cdef Geometry g
    _geometry(&g, size, line_length)
    cdef Py_ssize_t i, n = boards.shape[0]
    out = np.empty(n, dtype=np.bool_)
    cdef uint8_t[::1] res = out.view(np.uint8)
    with nogil:
        for i in range(n):
            res[i] = has_line(&g, boards[i])
    return out


def lowest_line_batch(const uint64_t[::1] boards not None, *, size=6, line_length=4):
    """R10's reported window of each board as a mask (0 where there is no line)."""
    cdef Geometry g
    _geometry(&g, size, line_length)
    cdef Py_ssize_t i, n = boards.shape[0]
    out = np.empty(n, dtype=np.uint64)
    cdef uint64_t[::1] res = out
    with nogil:
        for i in range(n):
            res[i] = lowest_line(&g, boards[i])
    return out


def timeout_score_batch(const uint64_t[::1] own not None, const uint64_t[::1] opponent not None,
                        *, size=6, line_length=4):
    """R20 for each pair: the player's timeout score against the opponent's set marks.

    Returns an int8 array. ``own`` and ``opponent`` must have the same length.
    """
    cdef Geometry g
    _geometry(&g, size, line_length)
    if own.shape[0] != opponent.shape[0]:
        raise ValueError(f"own and opponent differ in length "
                         f"({own.shape[0]} vs {opponent.shape[0]})")
    cdef Py_ssize_t i, n = own.shape[0]
    out = np.empty(n, dtype=np.int8)
    cdef int8_t[::1] res = out
    with nogil:
        for i in range(n):
            res[i] = <int8_t>timeout_score(&g, own[i], opponent[i])
    return out
