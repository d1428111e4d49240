# The native half of a policy's exact exploitability in Tic Tac Doh (2 players; the Python
# face and the definition are tictacblitz.games.doh.exploitability, docs/rl.md
# "Evaluation").
#
# The game graph is layered by ply: every move places one piece (D3), so a position of
# ply k only leads to positions of ply k + 1, and a layer is an array of position keys
# (engine.pxd's pos_key: translation-free, D2, but *not* symmetry-reduced, since a policy
# need not treat the 8 images of a position alike). Python walks the layers forward
# (expand: every legal move of every state, as an edge list; observe: the policy's
# observation of a batch of states, queried once per state), then backs the values up
# layer by layer (backup: a best response maximises, the policy averages over its
# probabilities). Every loop here runs without the GIL.

from libc.stdint cimport uint64_t, int8_t, int16_t, int64_t

from blitz_core.common.bits cimport lowest, popcount
from blitz_core.doh.engine cimport (
    DohPos, DohRulesC, load_rules, pos_init, pos_play, pos_key, pos_from_key, empty_targets,
    targets_for, bit_cell, DOH_ONGOING, DOH_DRAW, DOH_ACTIONS,
)
from blitz_core.doh.observation cimport write_obs, N_PLANES, NOOP_CODE

import numpy as np

ONGOING = DOH_ONGOING
DRAW = DOH_DRAW


cdef int _two_player_rules(DohRulesC* r, object rules) except -1:
    """load_rules, and the one more check of this module: its positions are of 2 players."""
    load_rules(r, rules)
    if r.players != 2:
        raise ValueError(f"rules.players={r.players}: the best response is for 2 players")
    return 0


def start_key(rules):
    """The key of the empty table (D1: a full stash) of ``rules``
    (``DohRules.native_params()``)."""
    cdef DohRulesC r
    _two_player_rules(&r, rules)
    cdef DohPos p
    pos_init(&p, r.pieces_per_size, r.grid, 2)
    return pos_key(&p)


cdef int _load(DohPos* p, uint64_t key, int pieces, int grid) noexcept nogil:
    return pos_from_key(p, key, pieces, grid, 2)


def expand(keys, rules):
    """Every legal move of every state of a layer.

    keys: uint64 (n,) position keys of 2-player positions of ``rules``
    (``DohRules.native_params()``). Returns
    (winner int8 (n,): ONGOING, DRAW or the winning seat (D7-D9); to_move int8 (n,);
    offsets int64 (n + 1,): state i's moves are edges offsets[i]..offsets[i+1] (none
    once over); actions int16 (E,); children uint64 (E,): the key after the move).
    :raises ValueError: for a key that is no position of these rules."""
    cdef DohRulesC r
    _two_player_rules(&r, rules)
    cdef int pieces_per_size = r.pieces_per_size, grid = r.grid
    cdef const uint64_t[::1] kv = np.ascontiguousarray(keys, dtype=np.uint64)
    cdef Py_ssize_t n = kv.shape[0], i
    winner = np.empty(n, dtype=np.int8)
    to_move = np.empty(n, dtype=np.int8)
    offsets = np.zeros(n + 1, dtype=np.int64)
    cdef int8_t[::1] wv = winner, tv = to_move
    cdef int64_t[::1] ov = offsets
    cdef DohPos p, child
    cdef uint64_t empties, m
    cdef int s, bad = -1, a
    cdef int64_t e
    with nogil:
        for i in range(n):
            if _load(&p, kv[i], pieces_per_size, grid) != 0:
                bad = i
                break
            wv[i] = p.winner
            tv[i] = p.to_move
            ov[i + 1] = ov[i]
            empties = empty_targets(&p)
            for s in range(3):
                ov[i + 1] += popcount(targets_for(&p, s, empties))
    if bad >= 0:
        raise ValueError(f"key {kv[bad]:#x} is not a position of pieces_per_size="
                         f"{pieces_per_size}, grid={grid}")
    actions = np.empty(offsets[n], dtype=np.int16)
    children = np.empty(offsets[n], dtype=np.uint64)
    cdef int16_t[::1] av = actions
    cdef uint64_t[::1] cv = children
    with nogil:
        for i in range(n):
            _load(&p, kv[i], pieces_per_size, grid)
            e = ov[i]
            empties = empty_targets(&p)
            for s in range(3):
                m = targets_for(&p, s, empties)
                while m:
                    a = 25 * s + bit_cell(lowest(m))
                    m &= m - 1
                    child = p
                    pos_play(&child, a)
                    av[e] = a
                    cv[e] = pos_key(&child)
                    e += 1
    return winner, to_move, offsets, actions, children


def observe(keys, rules, int seat):
    """The env's observation of `seat` in each state of ``rules``
    (``DohRules.native_params()``; encoding.py's planes, as the batched env's write_obs in
    batch.pyx writes them; tests hold the two equal) and the legal mask: (obs float32
    (n, 15, 3, 3), mask bool (n, 75), all False unless `seat` is to move in an ongoing
    state)."""
    cdef DohRulesC r
    _two_player_rules(&r, rules)
    cdef int pieces_per_size = r.pieces_per_size, grid = r.grid
    cdef const uint64_t[::1] kv = np.ascontiguousarray(keys, dtype=np.uint64)
    cdef Py_ssize_t n = kv.shape[0], i
    obs = np.zeros((n, N_PLANES, 3, 3), dtype=np.float32)
    mask = np.zeros((n, DOH_ACTIONS), dtype=np.bool_)
    cdef float[:, :, :, ::1] o = obs
    cdef int8_t[:, ::1] mv = mask.view(np.int8)
    cdef DohPos p
    cdef int bad = -1
    with nogil:
        for i in range(n):
            if _load(&p, kv[i], pieces_per_size, grid) != 0:
                bad = i
                break
            write_obs(&p, &o[i, 0, 0, 0], &mv[i, 0], seat)
            if p.winner != DOH_ONGOING or p.to_move != seat:
                mv[i, NOOP_CODE] = 0        # observe's contract: no legal move here
    if bad >= 0:
        raise ValueError(f"key {kv[bad]:#x} is not a position of pieces_per_size="
                         f"{pieces_per_size}, grid={grid}")
    return obs, mask


def backup(winner, to_move, offsets, child_index, probs, next_values, int responder):
    """The values of one layer for the best response playing seat `responder`.

    A finished state is worth +1 if the responder won, -1 if the policy's seat won, 0
    for a draw (D7-D9). An ongoing state where the responder moves is worth its best
    child; where the policy moves, the probability-weighted sum over its children
    (probs: float64 per edge; edges of the responder's states are not read; a child
    index < 0 is an edge the policy never plays). Returns (values float64 (n,), best
    int64 (n,): the responder's best edge in its states, the policy's most probable
    edge in its states, -1 once over)."""
    cdef const int8_t[::1] wv = winner, tv = to_move
    cdef const int64_t[::1] ov = offsets, civ = child_index
    cdef const double[::1] pv = probs
    cdef const double[::1] nv = next_values
    cdef Py_ssize_t n = wv.shape[0], i
    values = np.empty(n, dtype=np.float64)
    best = np.full(n, -1, dtype=np.int64)
    cdef double[::1] vv = values
    cdef int64_t[::1] bv = best
    cdef int64_t e, arg
    cdef double acc, top, v
    with nogil:
        for i in range(n):
            if wv[i] != DOH_ONGOING:
                vv[i] = 0.0 if wv[i] == DOH_DRAW else (1.0 if wv[i] == responder else -1.0)
                continue
            arg = -1
            if tv[i] == responder:
                top = -2.0
                for e in range(ov[i], ov[i + 1]):
                    v = nv[civ[e]]
                    if v > top:
                        top = v
                        arg = e
                vv[i] = top
            else:
                acc = 0.0
                top = -1.0
                for e in range(ov[i], ov[i + 1]):
                    if civ[e] >= 0:
                        acc += pv[e] * nv[civ[e]]
                        if pv[e] > top:
                            top = pv[e]
                            arg = e
                vv[i] = acc
            bv[i] = arg
    return values, best
