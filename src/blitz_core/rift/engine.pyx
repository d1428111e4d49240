# cython: language_level=3
"""Rift & Grid's native core: G1-G17 on 9-bit sector masks, without the GIL.

The layout is drawn in engine.pxd. Everything that steps a game is a ``noexcept nogil``
function of a ``RiftState`` and a ``RiftRulesC``; ``Core`` is the Python face of one
game and checks every argument before the unchecked functions see it; ``play_matches``
plays whole games between the native policies in one loop.

Imports nothing from ``tictacblitz``: the rules come as the tuple of numbers of
``RiftRules.native()`` (RULES_SCALARS, then the catalogue's length and codes, then the
points of every objective code).
"""

from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int32_t, int16_t, int8_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free
from libc.math cimport sqrtf, logf, expf

from blitz_core.common.bits cimport popcount, lowest, nth_set_bit
from blitz_core.common.rng cimport rng_next, rng_below, rng_unit

import numpy as np

from blitz_core.common.seed_check import check_seed  # tictacblitz.games.rng's, tied by a test

RULES_SCALARS = (
    "sector_win_points", "sector_tie_points", "meta_line_points", "objectives_per_player",
    "energy_start", "energy_max", "energy_idle_gain", "energy_sector_gain",
    "shield_cost", "shield_cooldown", "swap_cost", "swap_cooldown",
    "reveal_cost", "reveal_cooldown",
)
"""The order of the scalar rule numbers ``Core`` and ``play_matches`` take."""

STATE_BYTES = sizeof(RiftState)
NUM_ACTIONS = N_ACTIONS

NATIVE_CODES = {
    "Ability": {"NONE": AB_NONE, "SHIELD": AB_SHIELD, "SWAP": AB_SWAP, "REVEAL": AB_REVEAL},
    "Reason": {
        "GAME_OVER": R_GAME_OVER, "SECTOR_DECIDED": R_SECTOR_DECIDED,
        "WRONG_SECTOR": R_WRONG_SECTOR, "NOT_EMPTY": R_NOT_EMPTY, "NO_ENERGY": R_NO_ENERGY,
        "COOLING_DOWN": R_COOLING_DOWN, "NOTHING_TO_REVEAL": R_NOTHING_TO_REVEAL,
    },
    "Objective": {
        "centre": OBJ_CENTRE, "diagonal_win": OBJ_DIAGONAL_WIN, "shield_win": OBJ_SHIELD_WIN,
        "full_energy": OBJ_FULL_ENERGY, "centre_cells": OBJ_CENTRE_CELLS,
        "two_corners": OBJ_TWO_CORNERS, "two_edges": OBJ_TWO_EDGES,
        "four_sectors": OBJ_FOUR_SECTORS, "clean_sweep": OBJ_CLEAN_SWEEP,
        "swap_win": OBJ_SWAP_WIN, "opposite_corners": OBJ_OPPOSITE_CORNERS,
        "meta_line": OBJ_META_LINE,
    },
}
"""The C enum codes (engine.pxd) by vocabulary and member: tictacblitz.games.rift checks
them against its types when it is imported."""
MAX_SIMULATIONS = 1_000_000
"""The largest search budget a policy takes (simulations a decision)."""
SEAT_SALTS = (0x243F6A8885A308D3, 0x13198A2E03707344)
"""Batch game i's X policy stream is SplitMix64 seeded with ``seeds[i] ^ SEAT_SALTS[0]``,
O's with ``seeds[i] ^ SEAT_SALTS[1]``: what a bot made with ``seed = seeds[i] ^ salt``
starts with, so a batch game equals the same game driven from Python."""

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


# -- the rules engine (noexcept nogil) ---------------------------------------------------

cdef inline uint16_t _decided(const RiftState* st) noexcept nogil:
    return st.won[0] | st.won[1] | st.tied


cdef inline uint16_t _unrevealed(const RiftState* st, int owner) noexcept nogil:
    """G15: the owner's hand items neither revealed nor accomplished."""
    return <uint16_t>(((1 << st.hand_n) - 1) & ~(st.accomplished[owner] | st.revealed[owner]))


cdef void rift_reset(RiftState* st, const RiftRulesC* r, uint64_t seed) noexcept nogil:
    """A fresh game; G12's deal from SplitMix64(seed): X's hand, then O's, each a
    partial Fisher-Yates shuffle of the catalogue in rules order."""
    cdef int p, i, j, a
    cdef int8_t pool[12]
    cdef int8_t tmp
    cdef uint64_t rng = seed
    memset(st, 0, sizeof(RiftState))
    st.active = -1                          # G9: turn 1 is free
    st.result = RESULT_NONE
    st.turn = 1
    st.hand_n = <int8_t>r.per_player
    for p in range(2):
        st.energy[p] = r.energy_start       # G13
        for a in range(N_ABILITIES):
            st.ready[p][a] = 1              # G14: every ability from turn 1
        for i in range(r.n_catalogue):
            pool[i] = r.catalogue[i]
        for i in range(r.per_player):
            j = i + <int>rng_below(&rng, <uint64_t>(r.n_catalogue - i))
            tmp = pool[i]
            pool[i] = pool[j]
            pool[j] = tmp
            st.hand[p][i] = pool[i]


cdef inline int _judge(const RiftState* st, int s) noexcept nogil:
    """G8: 0 open, 1 won by X, 2 won by O, 3 tied."""
    cdef uint8_t lx = LINE_TABLE[st.cells[SYM_X][s]]
    cdef uint8_t lo = LINE_TABLE[st.cells[SYM_O][s]]
    if lx and lo:
        return 3
    if lx:
        return 1
    if lo:
        return 2
    if (st.cells[0][s] | st.cells[1][s] | st.cells[2][s]) == ALL_SECTORS:
        return 3
    return 0


cdef inline void _decide(RiftState* st, int s, int verdict) noexcept nogil:
    """Record a verdict of G8, with what G17 asks of a won sector at that moment."""
    cdef int w
    if verdict == 3:
        st.tied |= <uint16_t>(1 << s)
        return
    w = verdict - 1
    st.won[w] |= <uint16_t>(1 << s)
    if LINE_TABLE[st.cells[w][s]] & DIAGONALS:
        st.won_diag[w] |= <uint16_t>(1 << s)
    if st.cells[1 - w][s] == 0:
        st.won_clean[w] |= <uint16_t>(1 << s)


cdef void rift_judge_all(RiftState* st) noexcept nogil:
    """G8 on every sector of a setup grid (no points, no energy); G16 if all decided."""
    cdef int s, v
    st.won[0] = st.won[1] = st.tied = 0
    st.won_diag[0] = st.won_diag[1] = st.won_clean[0] = st.won_clean[1] = 0
    for s in range(9):
        v = _judge(st, s)
        if v:
            _decide(st, s, v)
    if _decided(st) == ALL_SECTORS:
        _end(st)


cdef inline void _end(RiftState* st) noexcept nogil:
    st.over = 1
    if st.score[0] > st.score[1]:
        st.result = RESULT_X
    elif st.score[1] > st.score[0]:
        st.result = RESULT_O
    else:
        st.result = RESULT_DRAW


cdef int rift_rejection(const RiftState* st, const RiftRulesC* r, int p, int cell,
                        int ab) noexcept nogil:
    """G5: the first reason that applies, in the contract's order, or ACCEPTED."""
    cdef int s = cell // 9
    if st.over:
        return R_GAME_OVER
    if (_decided(st) >> s) & 1:
        return R_SECTOR_DECIDED
    if st.active >= 0 and s != st.active:                   # G4
        return R_WRONG_SECTOR
    if ((st.cells[0][s] | st.cells[1][s] | st.cells[2][s]) >> (cell % 9)) & 1:
        return R_NOT_EMPTY
    if ab != AB_NONE:
        if st.energy[p] < r.cost[ab]:
            return R_NO_ENERGY
        if st.turn < st.ready[p][ab]:
            return R_COOLING_DOWN
        if ab == AB_REVEAL and _unrevealed(st, 1 - p) == 0:
            return R_NOTHING_TO_REVEAL
    return ACCEPTED


cdef int rift_targets(const RiftState* st, uint16_t* out) noexcept nogil:
    """G4: out[s] = the legal target positions of sector s (the same for both seats);
    returns how many there are in all."""
    cdef int s, n = 0
    cdef uint16_t dec = _decided(st)
    memset(out, 0, 9 * sizeof(uint16_t))
    if st.over:
        return 0
    if st.active >= 0:
        out[st.active] = _empty(st, st.active)
        return POP9[out[st.active]]
    for s in range(9):
        if not (dec >> s) & 1:
            out[s] = _empty(st, s)
            n += POP9[out[s]]
    return n


cdef int rift_abilities(const RiftState* st, const RiftRulesC* r, int p) noexcept nogil:
    """G5: the abilities seat p may use now, as a mask by ability (bit 0: none)."""
    return _abilities(st, r, p)


cdef inline int _abilities(const RiftState* st, const RiftRulesC* r, int p) noexcept nogil:
    cdef int e = st.energy[p], t = st.turn
    if st.over:
        return 0
    if e < r.min_cost:                     # the common case in random play: none only
        return 1
    return (1
            | ((e >= r.cost[AB_SHIELD]) & (t >= st.ready[p][AB_SHIELD])) << AB_SHIELD
            | ((e >= r.cost[AB_SWAP]) & (t >= st.ready[p][AB_SWAP])) << AB_SWAP
            | ((e >= r.cost[AB_REVEAL]) & (t >= st.ready[p][AB_REVEAL])
               & (_unrevealed(st, 1 - p) != 0)) << AB_REVEAL)


cdef inline bint _holds(const RiftState* st, const RiftRulesC* r, int code, int p,
                        int shield_won, int swapped_by, int won_now) noexcept nogil:
    """G17: whether objective `code` of seat p holds at step 5 of this turn. A won
    sector never changes again, so what it was "won with" is kept at decision time."""
    cdef uint16_t won = st.won[p]
    cdef int s, n
    if code == OBJ_CENTRE:
        return (won >> 4) & 1
    if code == OBJ_DIAGONAL_WIN:
        return st.won_diag[p] != 0
    if code == OBJ_SHIELD_WIN:
        return shield_won == p
    if code == OBJ_FULL_ENERGY:
        return st.energy[p] == r.energy_max
    if code == OBJ_CENTRE_CELLS:
        n = 0
        for s in range(9):
            n += (st.cells[p][s] >> 4) & 1
        return n >= 3
    if code == OBJ_TWO_CORNERS:
        return POP9[won & CORNERS] >= 2
    if code == OBJ_TWO_EDGES:
        return POP9[won & EDGES] >= 2
    if code == OBJ_FOUR_SECTORS:
        return POP9[won] >= 4
    if code == OBJ_CLEAN_SWEEP:
        return st.won_clean[p] != 0
    if code == OBJ_SWAP_WIN:
        return swapped_by == p and won_now > 0
    if code == OBJ_OPPOSITE_CORNERS:
        return (won & 0x101) == 0x101 or (won & 0x044) == 0x044
    if code == OBJ_META_LINE:
        return LINE_TABLE[won] != 0
    return False


cdef inline void _judge_changed(RiftState* st, const RiftRulesC* r, int s, TurnReport* rep,
                                int* won_now) noexcept nogil:
    """G8 on a sector that changed this turn, with its G10 points."""
    cdef int v = _judge(st, s)
    if v == 0:
        return
    _decide(st, s, v)
    rep.decided |= <uint16_t>(1 << s)
    if v == 3:
        st.score[0] += r.sector_tie_points
        st.score[1] += r.sector_tie_points
    else:
        st.score[v - 1] += r.sector_win_points
        won_now[v - 1] += 1


cdef void rift_resolve(RiftState* st, const RiftRulesC* r, int xc, int xa, int oc, int oa,
                       TurnReport* rep) noexcept nogil:
    """G6: resolve one turn from two legal moves (unchecked: callers check G4/G5)."""
    _resolve(st, r, xc, xa, oc, oa, rep)


cdef inline void _resolve(RiftState* st, const RiftRulesC* r, int xc, int xa, int oc, int oa,
                          TurnReport* rep) noexcept nogil:
    """rift_resolve's body, inlined into the batch loop (whose report is dropped)."""
    cdef int ab[2]
    cdef int tgt[2]
    cdef int won_now[2]
    cdef int p, s, v, w, t, i, code, gain
    cdef int sec[2]
    cdef int pos[2]
    cdef bint quiet
    cdef uint16_t pending
    cdef uint8_t lines
    ab[0] = xa
    ab[1] = oa
    tgt[0] = xc
    tgt[1] = oc
    won_now[0] = won_now[1] = 0
    rep.grey = -1
    rep.got[0] = rep.got[1] = -1
    rep.swapped_by = -1
    rep.shield_won = -1
    rep.decided = 0
    rep.revealed[0] = rep.revealed[1] = -1

    # 1. Costs: pay, start the cooldown (G14). Branch-free: "none" costs 0, and its
    #    ready slot, never read, just takes the turn (random play can't predict these).
    for p in range(2):
        st.energy[p] -= r.cost[ab[p]]
        st.ready[p][ab[p]] = st.turn + r.cooldown[ab[p]]
        st.uses[p][ab[p]] += 1

    # 2. Swap: a lone swap exchanges the targets; two swaps cancel.
    w = (xa == AB_SWAP) ^ (oa == AB_SWAP)
    tgt[0] = oc if w else xc
    tgt[1] = xc if w else oc
    if w:
        rep.swapped_by = 0 if xa == AB_SWAP else 1
    rep.target[0] = <int16_t>tgt[0]
    rep.target[1] = <int16_t>tgt[1]
    sec[0] = <unsigned>tgt[0] // 9
    sec[1] = <unsigned>tgt[1] // 9
    pos[0] = <unsigned>tgt[0] - 9 * sec[0]
    pos[1] = <unsigned>tgt[1] - 9 * sec[1]

    # 3. Placement: a collision goes to a lone shield, else greys (a shield without a
    #    collision does nothing).
    rep.collision = tgt[0] == tgt[1]
    if not rep.collision:
        for p in range(2):
            st.cells[p][sec[p]] |= <uint16_t>(1 << pos[p])
            rep.got[p] = <int16_t>tgt[p]
    else:
        st.collisions += 1
        if (xa == AB_SHIELD) != (oa == AB_SHIELD):
            w = 0 if xa == AB_SHIELD else 1
            st.cells[w][sec[0]] |= <uint16_t>(1 << pos[0])
            rep.got[w] = <int16_t>tgt[0]
            rep.shield_won = <int8_t>w
        else:
            st.cells[SYM_GREY][sec[0]] |= <uint16_t>(1 << pos[0])
            rep.grey = <int16_t>tgt[0]
            st.greys += 1

    # 4. Sectors that changed, in sector order (G8, G10).
    s = sec[0]
    v = sec[1]
    if v < s:
        s, v = v, s
    _judge_changed(st, r, s, rep, won_now)
    if v != s:
        _judge_changed(st, r, v, rep, won_now)

    # 5. Meta lines (G11), energy (G13), objectives (G12, G17), reveal (G15).
    rep.meta_new[0] = rep.meta_new[1] = 0
    if rep.decided or st.turn == 1:       # a line completes only with a decided sector
        for p in range(2):                # (or in a setup: turn 1 looks at everything)
            lines = LINE_TABLE[st.won[p]] & ~st.meta_scored
            rep.meta_new[p] = lines
            st.meta_scored |= lines
            st.score[p] += POP9[lines] * r.meta_line_points
    for p in range(2):
        gain = (st.energy[p] + (ab[p] == AB_NONE) * r.energy_idle_gain
                + r.energy_sector_gain * won_now[p])
        st.energy[p] = r.energy_max if gain > r.energy_max else gain
    # Objectives: only what can have changed is looked at. Without a decided sector, a
    # shield-won collision or a centre cell taken, only full_energy can newly hold.
    # (Turn 1 looks at everything: a setup may already meet an objective.) Every
    # condition only grows with won sectors and owned cells, so this loses nothing.
    quiet = (st.turn > 1 and rep.decided == 0 and rep.shield_won < 0
             and pos[0] != 4 and pos[1] != 4)
    for p in range(2):
        rep.obj_new[p] = 0
        if quiet and st.energy[p] != r.energy_max:
            continue
        pending = <uint16_t>(((1 << st.hand_n) - 1) & ~st.accomplished[p])
        while pending:
            i = lowest(pending)
            pending &= pending - 1
            code = st.hand[p][i]
            if quiet and code != OBJ_FULL_ENERGY:
                continue
            if _holds(st, r, code, p, rep.shield_won, rep.swapped_by, won_now[p]):
                st.accomplished[p] |= <uint16_t>(1 << i)
                rep.obj_new[p] |= <uint16_t>(1 << i)
                st.score[p] += r.points[code]
    for p in range(2):
        if ab[p] == AB_REVEAL:
            pending = _unrevealed(st, 1 - p)
            if pending:
                i = lowest(pending)
                st.revealed[1 - p] |= <uint16_t>(1 << i)
                rep.revealed[p] = <int8_t>i

    # 6. Next sector: the position of X's final target (G9); then the end (G16).
    t = pos[0]
    st.active = <int8_t>(-1 if (_decided(st) >> t) & 1 else t)
    st.turn += 1
    if _decided(st) == ALL_SECTORS:
        _end(st)


# -- policies (noexcept nogil) ------------------------------------------------------------

cdef int rift_random_move(const RiftState* st, const RiftRulesC* r, int p,
                          uint64_t* rng) noexcept nogil:
    return _random_move(st, r, p, rng)


cdef inline int _random_move(const RiftState* st, const RiftRulesC* r, int p,
                             uint64_t* rng) noexcept nogil:
    """Uniform over the legal action codes: a uniform legal target (G4) and,
    independently, a uniform usable ability (G5), both from one draw (the same as
    uniform over their product); -1 once the game is over."""
    cdef int s, n, ti
    cdef uint32_t ai
    cdef uint16_t m, dec
    cdef uint16_t em[9]
    cdef int am = _abilities(st, r, p)
    if st.over:
        return -1
    if st.active >= 0:
        s = st.active
        m = _empty(st, s)
        ti = NTH9[m][_below_pair(rng, POP9[m], POP9[am], &ai)]
    else:                                  # a free turn: every open sector (G4)
        dec = _decided(st)
        n = 0
        for s in range(9):                 # branch-free: a decided sector offers nothing
            em[s] = _empty(st, s) & <uint16_t>(0 - (((~dec) >> s) & 1))
            n += POP9[em[s]]
        ti = <int>_below_pair(rng, <uint32_t>n, POP9[am], &ai)
        for s in range(9):
            if ti < POP9[em[s]]:
                ti = NTH9[em[s]][ti]
                break
            ti -= POP9[em[s]]
    return N_CELLS * NTH9[am][ai] + 9 * s + ti


cdef inline uint16_t _win_cells(uint16_t own, uint16_t empty) noexcept nogil:
    """The empty positions that would complete a line of `own` (G7)."""
    cdef uint16_t out = 0, missing
    cdef int i
    for i in range(8):
        missing = LINE_MASKS[i] & ~own
        if POP9[missing] == 1 and (missing & empty):
            out |= missing
    return out


cdef int _cell_scores(const RiftState* st, int p, int* cells, int* scores,
                      uint16_t watch, bint centres) noexcept nogil:
    """Every legal target of seat p with its greedy score, in cell order; returns how many.

    Score of a cell: +100 if it wins its sector now (+50 more if that completes a meta
    line, G11), +60 if it blocks the opponent's win there, +2 per open line through it
    (+3 more with an own symbol on it); for X, whose final target names the next sector
    (G9): -40 if it sends the opponent where it wins at once, +8 if X can, -6 for a
    free turn. Greedy (only) also passes the opponent's known pending objectives (G15):
    `watch`, the sectors whose win would advance one (+WATCH_BLOCK on a block there), and
    `centres` for centre_cells (+WATCH_CENTRE on a centre cell, position 4)."""
    cdef uint16_t targets[9]
    cdef int s, q, i, k = 0, score
    cdef uint16_t own, opp, empty, mine, theirs, bit, m, dec, nown, nempty
    if rift_targets(st, targets) == 0:
        return 0
    dec = _decided(st)
    for s in range(9):
        m = targets[s]
        if not m:
            continue
        own = st.cells[p][s]
        opp = st.cells[1 - p][s]
        empty = ALL_SECTORS & ~(own | opp | st.cells[SYM_GREY][s])
        mine = _win_cells(own, empty)
        theirs = _win_cells(opp, empty)
        while m:
            q = lowest(m)
            m &= m - 1
            bit = <uint16_t>(1 << q)
            score = 0
            if mine & bit:
                score += 100
                if LINE_TABLE[st.won[p] | (1 << s)] & ~LINE_TABLE[st.won[p]]:
                    score += 50                                  # G11 meta line too
            if theirs & bit:
                score += 60
                if (watch >> s) & 1:
                    score += WATCH_BLOCK                         # G15: a known objective
            if centres and q == 4:
                score += WATCH_CENTRE
            for i in range(8):                                   # open lines through q
                if (LINE_MASKS[i] & bit) and not (LINE_MASKS[i] & (opp | st.cells[SYM_GREY][s])):
                    score += 2 + (3 if LINE_MASKS[i] & own else 0)
            if p == 0:                                           # G9: X names the sector
                if (dec >> q) & 1 or (q == s and (mine & bit)):
                    score -= 6                                   # a free turn for O
                else:
                    nown = st.cells[1 - p][q]
                    nempty = ALL_SECTORS & ~(st.cells[0][q] | st.cells[1][q] | st.cells[2][q])
                    if q == s:
                        nempty &= ~bit
                    if _win_cells(nown, nempty):
                        score -= 40
                    if _win_cells(st.cells[p][q] | (bit if q == s else 0), nempty):
                        score += 8
            cells[k] = 9 * s + q
            scores[k] = score
            k += 1
    return k


cdef int _greedy_scan(const RiftState* st, int p, uint64_t* rng, int avoid,
                      int* other, uint16_t watch, bint centres) noexcept nogil:
    """The greedy target of seat p: the legal cell of highest score (_cell_scores), ties
    broken by `rng` in cell order (the first one when rng is NULL). `*other` gets the
    best cell that is not `avoid`. -1 when there is no legal target."""
    cdef int cells[81]
    cdef int scores[81]
    cdef int n = _cell_scores(st, p, cells, scores, watch, centres)
    cdef int k, best = -1000000, best_cell = -1, ties = 0, best_other = -1000000
    other[0] = -1
    for k in range(n):
        if cells[k] != avoid and scores[k] > best_other:
            best_other = scores[k]
            other[0] = cells[k]
        if scores[k] > best:
            best = scores[k]
            best_cell = cells[k]
            ties = 1
        elif scores[k] == best:
            ties += 1
            if rng != NULL and _below(rng, <uint32_t>ties) == 0:
                best_cell = cells[k]
    return best_cell


cdef inline bint _contested(const RiftState* st, int cell) noexcept nogil:
    """Whether a cell completes a line for either side (both want it: a likely collision)."""
    cdef int s = cell // 9
    cdef uint16_t empty = _empty(st, s)
    return ((_win_cells(st.cells[0][s], empty) | _win_cells(st.cells[1][s], empty))
            >> (cell % 9)) & 1


cdef int rift_greedy_fixed_move(const RiftState* st, const RiftRulesC* r, int p,
                                uint64_t* rng, double error_rate) noexcept nogil:
    """Greedy as it was before issue 23 (``greedy_fixed``): the greedy target; shield it
    when a collision is likely (_contested), else reveal whenever affordable, whatever
    the costs. Kept to measure the new greedy against, and for the lab's older figures."""
    cdef int other, am, best
    if st.over:
        return -1
    if error_rate > 0.0 and rng_unit(rng) < error_rate:
        return rift_random_move(st, r, p, rng)
    best = _greedy_scan(st, p, rng, -1, &other, 0, False)
    am = _abilities(st, r, p)
    if (am >> AB_SHIELD) & 1 and _contested(st, best):
        return N_CELLS * AB_SHIELD + best
    if (am >> AB_REVEAL) & 1:
        return N_CELLS * AB_REVEAL + best
    return best


# Greedy's price list (issue 23, item 4): what an ability is worth, in the units of the
# greedy cell score (+100 a sector won now), against what its energy is worth. Chosen by
# paired matches against greedy_fixed and lookahead (docs/rift.md, "Bots").
cdef float P_LIKELY = 0.8         # a collision on the opponent's greedy target (x 1/ties)
cdef float P_MAYBE = 0.1          # ... at least, on a contested cell (_contested)
cdef float WIN_GAIN = 100.0       # a collision won on a cell that wins the sector now
cdef float OWN_GAIN = 100.0       # a collision won on any other cell the opponent wants
cdef float OBJ_WEIGHT = 6.0       # a pending objective point of the own hand (G17)
cdef float ENERGY_PRICE = 9.0     # an energy point spent (G13), and the idle gain forgone
cdef float FULL_ENERGY_PRICE = 6.0  # more per point while full_energy is pending (G17)
cdef float REVEAL_GAIN = 60.0     # knowing one more opponent objective (G15)
cdef int WATCH_BLOCK = 25         # greedy's block bonus in a sector a known objective needs
cdef int WATCH_CENTRE = 10        # ... a centre cell when centre_cells is known


cdef inline float _pending_points(const RiftState* st, const RiftRulesC* r, int p,
                                  int code) noexcept nogil:
    """The points of objective `code` if it is in p's hand and not accomplished, else 0."""
    cdef int i
    for i in range(st.hand_n):
        if st.hand[p][i] == code and not (st.accomplished[p] >> i) & 1:
            return <float>r.points[code]
    return 0.0


cdef inline void _known_needs(const RiftState* st, int q, uint16_t* sectors,
                              bint* centres) noexcept nogil:
    """What q's revealed, pending objectives (G15) want: the sectors whose win advances
    one, and whether centre cells do (centre_cells)."""
    cdef int i, code
    cdef uint16_t known = st.revealed[q] & ~st.accomplished[q]
    sectors[0] = 0
    centres[0] = False
    for i in range(st.hand_n):
        if not (known >> i) & 1:
            continue
        code = st.hand[q][i]
        if code == OBJ_CENTRE:
            sectors[0] |= 0x010
        elif code == OBJ_TWO_CORNERS or code == OBJ_OPPOSITE_CORNERS:
            sectors[0] |= CORNERS
        elif code == OBJ_TWO_EDGES:
            sectors[0] |= EDGES
        elif code == OBJ_FOUR_SECTORS or code == OBJ_META_LINE or code == OBJ_DIAGONAL_WIN:
            sectors[0] |= ALL_SECTORS
        elif code == OBJ_CENTRE_CELLS:
            centres[0] = True


cdef inline float _energy_cost(const RiftState* st, const RiftRulesC* r, int p,
                               int ab) noexcept nogil:
    """What spending ability `ab`'s cost is worth to greedy: its energy (G14) plus the
    idle gain forgone (G13, nothing when already at the max), dearer while full_energy
    is a pending objective of the own hand."""
    cdef int e = st.energy[p]
    cdef int forgone = r.energy_max - e
    cdef float price = ENERGY_PRICE
    if forgone > r.energy_idle_gain:
        forgone = r.energy_idle_gain
    if _pending_points(st, r, p, OBJ_FULL_ENERGY) > 0.0:
        price += FULL_ENERGY_PRICE
    return price * <float>(r.cost[ab] + forgone)


ctypedef struct Forecast:         # the opponent's greedy targets, for greedy's prices
    int n                         # legal targets
    int top                       # the best greedy score
    int ties                      # targets at that score (greedy draws among them)
    int first                     # the first of them in cell order (-1: none)
    int cells[81]
    int scores[81]


cdef inline void _forecast(const RiftState* st, int q, Forecast* f) noexcept nogil:
    """Seat q's greedy scores (without the known-objective bonuses it cannot know
    greedy would add) and their best: one scan for all of greedy's price estimates."""
    cdef int k
    f.n = _cell_scores(st, q, f.cells, f.scores, 0, False)
    f.top = -1000000
    f.ties = 0
    f.first = -1
    for k in range(f.n):
        if f.scores[k] > f.top:
            f.top = f.scores[k]
            f.ties = 1
            f.first = f.cells[k]
        elif f.scores[k] == f.top:
            f.ties += 1


cdef inline float _top_share(const Forecast* f, int cell) noexcept nogil:
    """The chance that the forecast seat's greedy target is `cell`: 1/k when `cell` is
    one of the k cells tied at its best greedy score (greedy breaks ties uniformly)."""
    cdef int k
    for k in range(f.n):
        if f.cells[k] == cell:
            return 1.0 / <float>f.ties if f.scores[k] == f.top else 0.0
    return 0.0


cdef int rift_greedy_move(const RiftState* st, const RiftRulesC* r, int p, uint64_t* rng,
                          double error_rate) noexcept nogil:
    """The greedy policy (issue 23, item 4): the greedy target (_greedy_scan), with a
    block in a sector a known opponent objective needs worth more; then, when an ability
    is usable (G5), the one of best net value, if any is positive. Each is priced by
    _energy_cost and valued in greedy-score units against the opponent's greedy target
    (the chance that a cell is it: _top_share, 1/k for one of k tied best cells):
    - shield: the chance of a collision on the target (P_LIKELY times that share, at
      least P_MAYBE when the cell completes a line for either side, _contested) times
      the gain of owning the cell rather than greying it (WIN_GAIN when it wins the
      sector, else OWN_GAIN), plus a pending shield_win;
    - swap: when the opponent's predicted target (first of its ties) would win the
      sector for p (the opponent blocking it), swap from the best other cell and take
      it (G6.2): P_LIKELY times its share times WIN_GAIN plus a pending swap_win;
    - reveal: REVEAL_GAIN (greedy uses what it learns: blocks where a known objective
      needs a sector).
    With probability `error_rate` it plays `rift_random_move` instead."""
    cdef int other, am, best, predicted, s, choice
    cdef float value, top, pc, share
    cdef Forecast fc
    cdef uint16_t watch
    cdef bint centres
    if st.over:
        return -1
    if error_rate > 0.0 and rng_unit(rng) < error_rate:
        return rift_random_move(st, r, p, rng)
    _known_needs(st, 1 - p, &watch, &centres)
    am = _abilities(st, r, p)
    if am == 1:                            # no ability usable: the target alone
        return _greedy_scan(st, p, rng, -1, &other, watch, centres)
    _forecast(st, 1 - p, &fc)
    predicted = fc.first                   # as _greedy_scan without a stream picks it
    best = _greedy_scan(st, p, rng, predicted, &other, watch, centres)
    share = _top_share(&fc, best)
    choice = best
    top = 0.0
    if (am >> AB_SHIELD) & 1:
        pc = P_LIKELY * share              # the opponent's greedy target, 1/ties
        if pc < P_MAYBE and _contested(st, best):
            pc = P_MAYBE
        s = best // 9
        value = OWN_GAIN
        if (_win_cells(st.cells[p][s], _empty(st, s)) >> (best % 9)) & 1:
            value = WIN_GAIN
        value = pc * (value + OBJ_WEIGHT * _pending_points(st, r, p, OBJ_SHIELD_WIN))
        value -= _energy_cost(st, r, p, AB_SHIELD)
        if value > top:
            top = value
            choice = N_CELLS * AB_SHIELD + best
    if (am >> AB_SWAP) & 1 and other >= 0 and predicted >= 0:
        s = predicted // 9
        if (_win_cells(st.cells[p][s], _empty(st, s)) >> (predicted % 9)) & 1:
            value = P_LIKELY * _top_share(&fc, predicted) * (
                WIN_GAIN + OBJ_WEIGHT * _pending_points(st, r, p, OBJ_SWAP_WIN))
            value -= _energy_cost(st, r, p, AB_SWAP)
            if value > top:
                top = value
                choice = N_CELLS * AB_SWAP + other
    if (am >> AB_REVEAL) & 1:
        value = REVEAL_GAIN - _energy_cost(st, r, p, AB_REVEAL)
        if value > top:
            choice = N_CELLS * AB_REVEAL + best
    return choice


cdef int rift_lookahead_move(const RiftState* st, const RiftRulesC* r, int p, uint64_t* rng,
                             double error_rate) noexcept nogil:
    """Greedy that predicts the opponent's greedy target and answers it: when that
    target is a cell where p would win the sector (the opponent blocking it), p swaps
    from its best other cell and so takes it (G6.2, the swap_win way); otherwise it
    plays greedy's target and shield. It keeps its energy for those (no reveal)."""
    cdef int other, ignored, am, best, predicted, s
    if st.over:
        return -1
    if error_rate > 0.0 and rng_unit(rng) < error_rate:
        return rift_random_move(st, r, p, rng)
    predicted = _greedy_scan(st, 1 - p, NULL, -1, &ignored, 0, False)
    best = _greedy_scan(st, p, rng, predicted, &other, 0, False)
    am = _abilities(st, r, p)
    if (am >> AB_SWAP) & 1 and other >= 0 and predicted >= 0:
        s = predicted // 9
        if (_win_cells(st.cells[p][s], _empty(st, s)) >> (predicted % 9)) & 1:
            return N_CELLS * AB_SWAP + other
    if (am >> AB_SHIELD) & 1 and _contested(st, best):
        return N_CELLS * AB_SHIELD + best
    return best


# -- SM-MCTS: the `search` policy (noexcept nogil) ------------------------------------------
#
# Decoupled UCT over joint moves (Lanctot et al., "Monte Carlo Tree Search in
# Simultaneous Move Games"): one tree whose nodes hold, for each seat, a short list of
# candidate moves with their own visit counts and reward sums; each seat picks its move by
# UCB1 on its own statistics, the pair is resolved (G6), and the child of that joint move
# is followed or created. A simulation starts by *determinizing* the opponent's hidden
# objectives (below), goes down the tree, adds one node, finishes the game with the cheap
# rollout policy and backs the result up (1 win, 1/2 draw, 0 loss, from each seat's view).

cdef enum:
    TOP_PLAIN = 6                 # candidates: the best 6 targets by the greedy score,
    TOP_SHIELD = 3                # the best 3 shielded, the best 2 swapped
    TOP_SWAP = 2                  # and the best 1 with reveal (when usable): at most 12

cdef float UCB_C = 0.8            # exploration constant of UCB1 (rewards in [0, 1])


cdef int rift_pool_init(SearchPool* pool, int simulations) noexcept nogil:
    """Room for a tree of `simulations` simulations (one node each, plus the root);
    returns 0, or -1 when memory is short (the search then plays greedy)."""
    cdef int32_t need = simulations + 1
    if pool.nodes != NULL and pool.cap >= need:
        return 0
    free(pool.nodes)
    pool.nodes = <SearchNode*>malloc(need * sizeof(SearchNode))
    pool.cap = need if pool.nodes != NULL else 0
    return 0 if pool.nodes != NULL else -1


cdef void rift_pool_free(SearchPool* pool) noexcept nogil:
    free(pool.nodes)
    pool.nodes = NULL
    pool.cap = 0


cdef inline int _new_node(SearchPool* pool, int joint) noexcept nogil:
    cdef int i
    cdef SearchNode* nd
    if pool.used >= pool.cap:
        return -1
    i = pool.used
    pool.used += 1
    nd = &pool.nodes[i]
    nd.child = -1
    nd.sibling = -1
    nd.joint = <int16_t>joint
    nd.nk[0] = nd.nk[1] = 0
    nd.visits = 0
    return i


cdef int _candidates(const RiftState* st, const RiftRulesC* r, int p,
                     int16_t* out) noexcept nogil:
    """The moves the search considers for seat p (at most SEARCH_K, the first one always
    a plain move): the TOP_PLAIN best targets by greedy's score as plain moves, the
    TOP_SHIELD best with shield, the TOP_SWAP best with swap and the best with reveal,
    each ability only when usable (G5)."""
    cdef int cells[81]
    cdef int scores[81]
    cdef int order[TOP_PLAIN]
    cdef int n = _cell_scores(st, p, cells, scores, 0, False)
    cdef int i, j, k = 0, top = 0, am
    for i in range(n):                          # insertion into the best TOP_PLAIN
        j = top if top < TOP_PLAIN else TOP_PLAIN - 1
        if top == TOP_PLAIN and scores[i] <= scores[order[j]]:
            continue
        while j > 0 and scores[order[j - 1]] < scores[i]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
        if top < TOP_PLAIN:
            top += 1
    for i in range(top):
        out[k] = <int16_t>cells[order[i]]
        k += 1
    am = _abilities(st, r, p)
    if (am >> AB_SHIELD) & 1:
        for i in range(min(top, TOP_SHIELD)):
            out[k] = <int16_t>(N_CELLS * AB_SHIELD + cells[order[i]])
            k += 1
    if (am >> AB_SWAP) & 1:
        for i in range(min(top, TOP_SWAP)):
            out[k] = <int16_t>(N_CELLS * AB_SWAP + cells[order[i]])
            k += 1
    if (am >> AB_REVEAL) & 1 and top > 0:
        out[k] = <int16_t>(N_CELLS * AB_REVEAL + cells[order[0]])
        k += 1
    return k


cdef inline int _rollout_move(const RiftState* st, int p, uint64_t* rng) noexcept nogil:
    """The rollouts' policy (plain moves only): in the active sector, a cell that wins it
    for seat p if there is one, else (half the time) one that blocks the opponent's win,
    else a uniform target; in a free turn a uniform target of any open sector."""
    cdef int s, n, ti
    cdef uint16_t m, w, dec
    cdef uint16_t em[9]
    cdef uint64_t word
    if st.active >= 0:
        s = st.active
        m = _empty(st, s)
        word = rng_next(rng)
        w = _win_cells(st.cells[p][s], m)
        if not w and (word & 1):
            w = _win_cells(st.cells[1 - p][s], m)
        if not w:
            w = m
        return 9 * s + NTH9[w][<int>(((word >> 32) * POP9[w]) >> 32)]
    dec = _decided(st)
    n = 0
    for s in range(9):
        em[s] = _empty(st, s) & <uint16_t>(0 - (((~dec) >> s) & 1))
        n += POP9[em[s]]
    ti = <int>_below(rng, <uint32_t>n)
    for s in range(9):
        if ti < POP9[em[s]]:
            return 9 * s + NTH9[em[s]][ti]
        ti -= POP9[em[s]]
    return -1


# The cut rollouts of `search_cut` (issue 23, item 4): a rollout stops after CUT_HORIZON
# turns and the state is scored by _eval_x; the numbers were chosen by paired matches
# against greedy (docs/rift.md, "Bots").
cdef int CUT_HORIZON = 4
cdef float EVAL_SCALE = 6.0       # points of lead that make a 73 % favourite (logistic)
cdef float THREAT_POINTS = 3.0    # an open sector where only one side threatens a line
cdef float CUT_UCB_C = 0.3        # its exploration constant (the full search keeps UCB_C)
cdef float ENERGY_POINTS = 0.3    # a point of energy (G13)


cdef inline float _eval_x(const RiftState* st, const RiftRulesC* r) noexcept nogil:
    """X's expected reward of an unfinished state: a logistic of X's lead in points
    (scores, G10-G12) plus, in each open sector, THREAT_POINTS for the side that alone
    threatens to complete a line there (G7), plus ENERGY_POINTS a point of energy."""
    cdef float d = <float>(st.score[0] - st.score[1])
    cdef int s
    cdef uint16_t dec = _decided(st), empty
    cdef bint tx, to
    for s in range(9):
        if (dec >> s) & 1:
            continue
        empty = _empty(st, s)
        tx = _win_cells(st.cells[0][s], empty) != 0
        to = _win_cells(st.cells[1][s], empty) != 0
        d += THREAT_POINTS * (<float>tx - <float>to)
    d += ENERGY_POINTS * <float>(st.energy[0] - st.energy[1])
    return 1.0 / (1.0 + expf(-d / EVAL_SCALE))


cdef inline float _reward_x(const RiftState* st) noexcept nogil:
    """X's reward of a finished game: 1 win, 1/2 draw, 0 loss."""
    if st.result == RESULT_X:
        return 1.0
    if st.result == RESULT_O:
        return 0.0
    return 0.5


cdef void _rollout(RiftState* st, const RiftRulesC* r, uint64_t* rng,
                   int horizon) noexcept nogil:
    """Plays on with _rollout_move to the end, or for `horizon` turns when it is > 0."""
    cdef TurnReport rep
    cdef int xc, oc
    cdef int stop = st.turn + horizon if horizon > 0 else 1 << 30
    while not st.over and st.turn < stop:
        xc = _rollout_move(st, 0, rng)
        oc = _rollout_move(st, 1, rng)
        _resolve(st, r, xc, AB_NONE, oc, AB_NONE, &rep)


cdef void _determinize(RiftState* st, const RiftRulesC* r, int q, uint64_t* rng) noexcept nogil:
    """Replace seat q's hidden objectives (neither revealed nor accomplished, G12/G15)
    by a draw from what the other seat's information set allows: distinct catalogue ids,
    none of q's known ones, and none whose condition already holds (those would have
    been accomplished, G17's conditions only grow; full_energy after turn 1 too). The
    draw is uniform over such hands, as the deal is (G12), in the hidden slots' order."""
    cdef int8_t pool[12]
    cdef int n = 0, i, j, k, code, hidden_n = 0
    cdef int8_t tmp
    cdef bint known
    cdef uint16_t hidden = _unrevealed(st, q)
    if not hidden:
        return
    hidden_n = popcount(hidden)
    for i in range(r.n_catalogue):
        code = r.catalogue[i]
        known = False
        for k in range(st.hand_n):
            if not (hidden >> k) & 1 and st.hand[q][k] == code:
                known = True
        if known:
            continue
        if st.turn > 1 and code != OBJ_SHIELD_WIN and code != OBJ_SWAP_WIN \
                and _holds(st, r, code, q, -1, -1, 0):
            continue
        pool[n] = <int8_t>code
        n += 1
    if n < hidden_n:                   # a setup the filter cannot explain: keep the deal
        return
    j = 0
    for k in range(st.hand_n):
        if not (hidden >> k) & 1:
            continue
        i = j + <int>_below(rng, <uint32_t>(n - j))
        tmp = pool[i]
        pool[i] = pool[j]
        pool[j] = tmp
        st.hand[q][k] = pool[j]
        j += 1


cdef inline int _ucb_pick(const SearchNode* nd, int p, const RiftState* st,
                          const RiftRulesC* r, float log_n, float c) noexcept nogil:
    """Seat p's move at a node: the first candidate not tried yet, else the best UCB1
    value; a candidate this determinization makes illegal (reveal with nothing left to
    reveal) is skipped (the first candidate, a plain move, is always legal)."""
    cdef int i, best = 0, code
    cdef float v, top = -1.0
    for i in range(nd.nk[p]):
        code = nd.code[p][i]
        if code >= N_CELLS * AB_REVEAL and \
                rift_rejection(st, r, p, code - N_CELLS * AB_REVEAL, AB_REVEAL) != ACCEPTED:
            continue
        if nd.n[p][i] == 0:
            return i
        v = nd.w[p][i] / nd.n[p][i] + c * sqrtf(log_n / nd.n[p][i])
        if v > top:
            top = v
            best = i
    return best


cdef int rift_search_move(const RiftState* st, const RiftRulesC* r, int p, uint64_t* rng,
                          double error_rate, int simulations, SearchPool* pool) noexcept nogil:
    """The `search` policy for seat p: decoupled UCT (SM-MCTS) over joint moves with
    `simulations` simulations, each on a fresh determinization of the opponent's hidden
    objectives; the root candidate visited most is played. With probability `error_rate`
    a uniformly random legal move instead; greedy when the pool has no room."""
    return _search(st, r, p, rng, error_rate, simulations, pool, 0)


cdef int _search(const RiftState* st, const RiftRulesC* r, int p, uint64_t* rng,
                 double error_rate, int simulations, SearchPool* pool,
                 int horizon) noexcept nogil:
    """rift_search_move with rollouts of at most `horizon` turns (0: to the end), an
    unfinished one scored by _eval_x (`search_cut`)."""
    cdef RiftState sim
    cdef TurnReport rep
    cdef SearchNode* nd
    cdef int path_node[96]
    cdef int path_i[96]
    cdef int path_j[96]
    cdef int depth, d, node, child, i, j, joint, best, _sim, code, other, xa, oa
    cdef float rx, rw
    cdef float c = UCB_C if horizon == 0 else CUT_UCB_C
    if st.over:
        return -1
    if error_rate > 0.0 and rng_unit(rng) < error_rate:
        return rift_random_move(st, r, p, rng)
    if simulations < 1 or pool == NULL or rift_pool_init(pool, simulations) != 0:
        return rift_greedy_fixed_move(st, r, p, rng, 0.0)
    pool.used = 0
    node = _new_node(pool, 0)
    nd = &pool.nodes[node]
    nd.nk[0] = <int8_t>_candidates(st, r, 0, nd.code[0])
    nd.nk[1] = <int8_t>_candidates(st, r, 1, nd.code[1])
    for d in range(2):
        for i in range(nd.nk[d]):
            nd.n[d][i] = 0
            nd.w[d][i] = 0.0
    if nd.nk[p] == 1:
        return nd.code[p][0]
    for _sim in range(simulations):
        sim = st[0]
        _determinize(&sim, r, 1 - p, rng)
        node = 0
        depth = 0
        while True:
            nd = &pool.nodes[node]
            if nd.nk[0] == 0:                        # first visit: its candidates
                nd.nk[0] = <int8_t>_candidates(&sim, r, 0, nd.code[0])
                nd.nk[1] = <int8_t>_candidates(&sim, r, 1, nd.code[1])
                for d in range(2):
                    for i in range(nd.nk[d]):
                        nd.n[d][i] = 0
                        nd.w[d][i] = 0.0
            rw = logf(<float>(nd.visits + 1))
            i = _ucb_pick(nd, 0, &sim, r, rw, c)
            j = _ucb_pick(nd, 1, &sim, r, rw, c)
            path_node[depth] = node
            path_i[depth] = i
            path_j[depth] = j
            depth += 1
            code = nd.code[0][i]
            other = nd.code[1][j]
            xa = code // N_CELLS
            oa = other // N_CELLS
            _resolve(&sim, r, code - N_CELLS * xa, xa, other - N_CELLS * oa, oa, &rep)
            if sim.over or depth >= 96:
                break
            joint = i * SEARCH_K + j
            child = nd.child
            while child >= 0 and pool.nodes[child].joint != joint:
                child = pool.nodes[child].sibling
            if child < 0:                            # a new leaf: add it, then roll out
                child = _new_node(pool, joint)
                if child >= 0:
                    nd = &pool.nodes[node]
                    pool.nodes[child].sibling = nd.child
                    nd.child = child
                break
            node = child
        _rollout(&sim, r, rng, horizon)
        rx = _reward_x(&sim) if sim.over else _eval_x(&sim, r)
        for d in range(depth):
            nd = &pool.nodes[path_node[d]]
            nd.visits += 1
            nd.n[0][path_i[d]] += 1
            nd.w[0][path_i[d]] += rx
            nd.n[1][path_j[d]] += 1
            nd.w[1][path_j[d]] += 1.0 - rx
    nd = &pool.nodes[0]
    best = 0
    for i in range(1, nd.nk[p]):
        if nd.n[p][i] > nd.n[p][best] or (nd.n[p][i] == nd.n[p][best]
                                          and nd.w[p][i] > nd.w[p][best]):
            best = i
    return nd.code[p][best]


cdef inline int _policy(const RiftState* st, const RiftRulesC* r, int p, int kind,
                        double error_rate, uint64_t* rng, int simulations,
                        SearchPool* pool) noexcept nogil:
    if kind == BOT_GREEDY:
        return rift_greedy_move(st, r, p, rng, error_rate)
    if kind == BOT_LOOKAHEAD:
        return rift_lookahead_move(st, r, p, rng, error_rate)
    if kind == BOT_SEARCH:
        return rift_search_move(st, r, p, rng, error_rate, simulations, pool)
    if kind == BOT_SEARCH_CUT:
        return _search(st, r, p, rng, error_rate, simulations, pool, CUT_HORIZON)
    if kind == BOT_GREEDY_FIXED:
        return rift_greedy_fixed_move(st, r, p, rng, error_rate)
    return _random_move(st, r, p, rng)


cdef int rift_policy(const RiftState* st, const RiftRulesC* r, int p, int kind,
                     double error_rate, uint64_t* rng, int simulations,
                     SearchPool* pool) noexcept nogil:
    """A native policy's action code (BOT_* kind; -1 once the game is over), for the other
    native modules (the RL stepper)."""
    return _policy(st, r, p, kind, error_rate, rng, simulations, pool)


# -- the Python boundary ------------------------------------------------------------------

cdef int _int_arg(object value, str what, long low, long high) except? -1:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{what} must be an integer, not {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{what}={value!r} is outside {low}-{high}")
    return <int>value


cdef int _load_rules(RiftRulesC* r, object rules) except -1:
    """Fill a RiftRulesC from RiftRules.native()'s tuple, checking every number so that
    nothing unchecked reaches the nogil code."""
    cdef int i, n, base
    values = tuple(rules)
    if len(values) < 15:
        raise ValueError(
            f"rules: expected the numbers of RiftRules.native(), got {len(values)} values")
    n = _int_arg(values[14], "rules catalogue length", 0, N_OBJECTIVES)
    if len(values) != 15 + n + N_OBJECTIVES:
        raise ValueError(f"rules: expected {15 + n + N_OBJECTIVES} numbers, got {len(values)}")
    names = RULES_SCALARS
    for i in range(14):
        _int_arg(values[i], f"rules.{names[i]}", 0, 1_000_000)
    memset(r, 0, sizeof(RiftRulesC))
    r.sector_win_points = values[0]
    r.sector_tie_points = values[1]
    r.meta_line_points = values[2]
    r.per_player = values[3]
    r.energy_start = values[4]
    r.energy_max = values[5]
    r.energy_idle_gain = values[6]
    r.energy_sector_gain = values[7]
    r.cost[AB_SHIELD], r.cooldown[AB_SHIELD] = values[8], values[9]
    r.cost[AB_SWAP], r.cooldown[AB_SWAP] = values[10], values[11]
    r.cost[AB_REVEAL], r.cooldown[AB_REVEAL] = values[12], values[13]
    if r.per_player > n:
        raise ValueError(f"rules.objectives_per_player={r.per_player} exceeds the catalogue ({n})")
    r.min_cost = min(r.cost[AB_SHIELD], r.cost[AB_SWAP], r.cost[AB_REVEAL])
    if r.energy_start > r.energy_max:
        raise ValueError(f"rules.energy_start={r.energy_start} exceeds energy_max ({r.energy_max})")
    r.n_catalogue = n
    seen = set()
    for i in range(n):
        r.catalogue[i] = _int_arg(values[15 + i], "rules objective code", 0, N_OBJECTIVES - 1)
        if r.catalogue[i] in seen:
            raise ValueError(f"rules: objective code {r.catalogue[i]} listed twice")
        seen.add(r.catalogue[i])
    base = 15 + n
    for i in range(N_OBJECTIVES):
        r.points[i] = _int_arg(values[base + i], "rules objective points", 0, 1_000_000)
    return 0


cdef int rift_load_rules(RiftRulesC* r, object rules) except -1:
    """_load_rules for the other native modules (checks every number)."""
    return _load_rules(r, rules)


def _seed64(seed):
    return check_seed(seed)


cdef class Core:
    """One game on the native engine. Every method checks its arguments (a bad one
    raises ValueError/TypeError naming it and changes nothing)."""

    cdef RiftState st
    cdef RiftRulesC r

    def __init__(self, rules, seed=0, deal=None, setup=None):
        """:param rules: ``RiftRules.native()``; :param deal: ``(X codes, O codes)``
        replacing the seeded deal; :param setup: 81 cell codes by cell id (0 empty,
        1 X, 2 O, 3 grey)."""
        cdef int p, i, c
        _load_rules(&self.r, rules)
        rift_reset(&self.st, &self.r, _seed64(seed))
        if deal is not None:
            if len(deal) != 2:
                raise ValueError(f"deal must be two hands, not {deal!r}")
            for p in range(2):
                hand = tuple(deal[p])
                if len(hand) != self.r.per_player:
                    raise ValueError(f"deal hand {p} has {len(hand)} objectives, "
                                     f"not {self.r.per_player}")
                if len(set(hand)) != len(hand):
                    raise ValueError(f"deal hand {p} deals an objective twice: {hand!r}")
                for i in range(len(hand)):
                    self.st.hand[p][i] = _int_arg(hand[i], "objective code", 0, N_OBJECTIVES - 1)
        if setup is not None:
            codes = tuple(setup)
            if len(codes) != N_CELLS:
                raise ValueError(f"setup must have 81 cells, not {len(codes)}")
            for i in range(N_CELLS):
                c = _int_arg(codes[i], f"setup cell {i}", 0, 3)
                if c:
                    self.st.cells[c - 1][i // 9] |= <uint16_t>(1 << (i % 9))
            rift_judge_all(&self.st)

    # -- reading ----------------------------------------------------------------------
    @property
    def turn(self):
        return self.st.turn

    @property
    def active(self):
        return None if self.st.active < 0 else self.st.active

    @property
    def over(self):
        return bool(self.st.over)

    @property
    def result(self):
        """0 X, 1 O, 2 draw, None while the game goes on (G16)."""
        return None if self.st.result == RESULT_NONE else self.st.result

    @property
    def score(self):
        return (self.st.score[0], self.st.score[1])

    @property
    def energy(self):
        return (self.st.energy[0], self.st.energy[1])

    def ready(self, int player):
        """(shield, swap, reveal): the first turn each can be used (G14)."""
        _check_player(player)
        return tuple(self.st.ready[player][a] for a in range(1, N_ABILITIES))

    def hand(self, int player):
        """((objective code, accomplished, revealed), ...) in dealt order."""
        _check_player(player)
        return tuple((self.st.hand[player][i], bool((self.st.accomplished[player] >> i) & 1),
                      bool((self.st.revealed[player] >> i) & 1)) for i in range(self.st.hand_n))

    def cells(self):
        """81 codes by cell id: 0 empty, 1 X, 2 O, 3 grey."""
        out = bytearray(N_CELLS)
        cdef int i, k
        for i in range(N_CELLS):
            for k in range(3):
                if (self.st.cells[k][i // 9] >> (i % 9)) & 1:
                    out[i] = k + 1
        return bytes(out)

    def sectors(self):
        """9 codes: 0 open, 1 won by X, 2 won by O, 3 tied."""
        cdef int s
        return tuple(1 if (self.st.won[0] >> s) & 1 else 2 if (self.st.won[1] >> s) & 1
                     else 3 if (self.st.tied >> s) & 1 else 0 for s in range(9))

    def counters(self):
        """{"collisions", "greys", "uses": ((X by ability), (O by ability))}."""
        return {"collisions": self.st.collisions, "greys": self.st.greys,
                "uses": tuple(tuple(self.st.uses[p][a] for a in range(N_ABILITIES))
                              for p in range(2))}

    def rejection(self, player, cell, ability):
        """G5: 0 if the move would be accepted, else the reason's code (Reason.code)."""
        cdef int p = _int_arg(player, "player", 0, 1)
        cdef int c = _int_arg(cell, "cell", 0, N_CELLS - 1)
        cdef int a = _int_arg(ability, "ability", 0, N_ABILITIES - 1)
        return rift_rejection(&self.st, &self.r, p, c, a)

    def legal_mask(self, player):
        """A bool array of the 324 action codes (81 * ability + cell) accepted now."""
        cdef int p = _int_arg(player, "player", 0, 1)
        out = np.zeros(N_ACTIONS, dtype=np.uint8)
        cdef uint8_t[::1] view = out
        cdef uint16_t targets[9]
        cdef int s, q, a
        cdef uint16_t m
        rift_targets(&self.st, targets)
        cdef int am = rift_abilities(&self.st, &self.r, p)
        for a in range(N_ABILITIES):
            if not (am >> a) & 1:
                continue
            for s in range(9):
                m = targets[s]
                while m:
                    q = lowest(m)
                    m &= m - 1
                    view[N_CELLS * a + 9 * s + q] = 1
        return out.view(np.bool_)

    # -- changing ---------------------------------------------------------------------
    def resolve(self, x_cell, x_ability, o_cell, o_ability):
        """G6 on two moves, each checked first (ValueError naming the rejected one).
        Returns the TurnReport as a dict."""
        cdef int xc = _int_arg(x_cell, "X cell", 0, N_CELLS - 1)
        cdef int xa = _int_arg(x_ability, "X ability", 0, N_ABILITIES - 1)
        cdef int oc = _int_arg(o_cell, "O cell", 0, N_CELLS - 1)
        cdef int oa = _int_arg(o_ability, "O ability", 0, N_ABILITIES - 1)
        cdef TurnReport rep
        cdef int why = rift_rejection(&self.st, &self.r, 0, xc, xa)
        if why:
            raise ValueError(f"X's move ({xc}, {xa}) is rejected (reason code {why})")
        why = rift_rejection(&self.st, &self.r, 1, oc, oa)
        if why:
            raise ValueError(f"O's move ({oc}, {oa}) is rejected (reason code {why})")
        rift_resolve(&self.st, &self.r, xc, xa, oc, oa, &rep)
        return {"target": (rep.target[0], rep.target[1]), "got": (rep.got[0], rep.got[1]),
                "grey": rep.grey, "swapped_by": rep.swapped_by, "shield_won": rep.shield_won,
                "collision": bool(rep.collision), "decided": rep.decided,
                "meta_new": (rep.meta_new[0], rep.meta_new[1]),
                "obj_new": (rep.obj_new[0], rep.obj_new[1]),
                "revealed": (rep.revealed[0], rep.revealed[1])}

    def choose(self, player, kind, double error_rate, rng_state, simulations=0):
        """A native policy's action code for `player` (kind 0 random, 1 greedy,
        2 lookahead, 3 search and 4 search_cut with `simulations`, 5 greedy_fixed) and
        the policy stream's next state:
        ``(code, state)``; code -1 once the game is over."""
        cdef int p = _int_arg(player, "player", 0, 1)
        cdef int k = _int_arg(kind, "bot kind", 0, BOT_GREEDY_FIXED)
        cdef int sims = _int_arg(simulations, "simulations", 0, MAX_SIMULATIONS)
        if not 0.0 <= error_rate <= 1.0:
            raise ValueError(f"error_rate={error_rate!r} is outside 0-1")
        cdef uint64_t rng = _seed64(rng_state)
        cdef SearchPool pool
        cdef int code
        pool.nodes = NULL
        pool.cap = pool.used = 0
        with nogil:
            code = _policy(&self.st, &self.r, p, k, error_rate, &rng, sims, &pool)
            rift_pool_free(&pool)
        return code, rng

    def clone(self):
        cdef Core twin = Core.__new__(Core)
        twin.st = self.st
        twin.r = self.r
        return twin

    def state_bytes(self):
        """The raw RiftState (its layout is this build's; to_bytes adds a version)."""
        return (<char*>&self.st)[:sizeof(RiftState)]

    def load_state_bytes(self, data):
        """Replace the state by ``state_bytes()`` output, after checking it is sound."""
        cdef RiftState tmp
        cdef const unsigned char[::1] view
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError(f"state bytes must be bytes, not {type(data).__name__}")
        if len(data) != sizeof(RiftState):
            raise ValueError(f"state bytes of length {len(data)}, expected {sizeof(RiftState)}")
        view = bytes(data)
        memcpy(&tmp, &view[0], sizeof(RiftState))
        _check_state(&tmp, &self.r)
        self.st = tmp


cdef int _check_state(const RiftState* st, const RiftRulesC* r) except -1:
    """Refuse a struct the nogil code could misread: every mask inside its 9 bits (they
    index the 512-entry tables), sectors decided once, hands of these rules, a game not
    over that has a legal target (G4) and a game over with every sector decided (G16)."""
    cdef int p, i, k, s
    cdef uint16_t hand_mask, dec
    cdef uint16_t targets[9]
    if not -1 <= st.active <= 8 or st.hand_n != r.per_player or not 1 <= st.turn <= 1000:
        raise ValueError("state bytes are not a Rift state of these rules")
    hand_mask = <uint16_t>((1 << st.hand_n) - 1)
    for p in range(2):
        for i in range(st.hand_n):
            if not 0 <= st.hand[p][i] < N_OBJECTIVES:
                raise ValueError("state bytes hold an unknown objective")
        if (st.accomplished[p] | st.revealed[p]) & ~hand_mask:
            raise ValueError("state bytes mark objectives outside the hand")
        if (st.won[p] | st.won_diag[p] | st.won_clean[p]) > ALL_SECTORS:
            raise ValueError("state bytes hold a bad sector set")
        if (st.won_diag[p] | st.won_clean[p]) & ~st.won[p]:
            raise ValueError("state bytes hold a bad sector set")
    if st.tied > ALL_SECTORS or (st.won[0] & st.won[1]) or ((st.won[0] | st.won[1]) & st.tied):
        raise ValueError("state bytes decide a sector twice")
    for k in range(3):
        for s in range(9):
            if st.cells[k][s] > ALL_SECTORS:
                raise ValueError("state bytes hold a bad sector mask")
    if st.over not in (0, 1) or not -1 <= st.result <= 2 or (st.over == 1) != (st.result >= 0):
        raise ValueError("state bytes hold a bad result")
    dec = _decided(st)
    if st.active >= 0 and (dec >> st.active) & 1:
        raise ValueError("state bytes name a decided sector as active")
    if st.over != (dec == ALL_SECTORS) or (not st.over and rift_targets(st, targets) == 0):
        raise ValueError("state bytes of a game that can neither go on nor has ended")
    return 0


cdef int _check_player(int player) except -1:
    if player != 0 and player != 1:
        raise ValueError(f"unknown player {player!r}: expected 0 (X) or 1 (O)")
    return 0


def play_matches(rules, int x_kind, double x_error, int o_kind, double o_error, seeds,
                 int x_simulations=0, int o_simulations=0):
    """Whole games between two native policies (kind 0 random, 1 greedy, 2 lookahead,
    3 search and 4 search_cut with ``x_simulations``/``o_simulations``, 5
    greedy_fixed), without the GIL. Game i is
    ``Core(rules, seeds[i])``; the policies' streams start as SEAT_SALTS says. Returns
    NumPy columns: ``winner`` (0 X, 1 O, -1 draw), ``turns``, ``collisions``,
    ``greys``, ``score_x``, ``score_o``, ``objectives_x``/``_o`` (accomplished),
    ``shield_x``, ``swap_x``, ``reveal_x`` (and ``_o``) uses, ``shield_wins_x``/``_o``
    (collisions won with a lone shield), ``swaps_x``/``_o`` (lone swaps that exchanged
    the targets), ``dealt_x``/``_o`` and ``done_x``/``_o`` (the objective codes dealt and
    accomplished, as bit masks by code) and ``points_x``/``_o`` (objective points)."""
    cdef RiftRulesC r
    cdef RiftState st
    cdef uint64_t xr, orr, seed
    cdef int xc, oc, xa, oa, p, k
    cdef int32_t dealt, done, pts
    cdef int32_t shield_w[2]
    cdef int32_t swaps[2]
    cdef SearchPool pool
    for kind, what in ((x_kind, "x_kind"), (o_kind, "o_kind")):
        if kind not in (BOT_RANDOM, BOT_GREEDY, BOT_LOOKAHEAD, BOT_SEARCH, BOT_SEARCH_CUT,
                        BOT_GREEDY_FIXED):
            raise ValueError(f"{what}={kind!r}: expected 0 (random), 1 (greedy), "
                             f"2 (lookahead), 3 (search), 4 (search_cut) or "
                             f"5 (greedy_fixed)")
    for err, what in ((x_error, "x_error"), (o_error, "o_error")):
        if not 0.0 <= err <= 1.0:
            raise ValueError(f"{what}={err!r} is outside 0-1")
    for sims, what in ((x_simulations, "x_simulations"), (o_simulations, "o_simulations")):
        if not 0 <= sims <= MAX_SIMULATIONS:
            raise ValueError(f"{what}={sims!r} is outside 0-{MAX_SIMULATIONS}")
    _load_rules(&r, rules)
    seed_arr = np.ascontiguousarray(
        np.asarray([_seed64(s) for s in seeds] if not isinstance(seeds, np.ndarray) else seeds)
        .astype(np.uint64, casting="unsafe"))
    cdef const uint64_t[::1] sv = seed_arr
    cdef Py_ssize_t i, n = sv.shape[0]
    names = ("turns", "collisions", "greys", "score_x", "score_o", "objectives_x",
             "objectives_o", "shield_x", "swap_x", "reveal_x", "shield_o", "swap_o", "reveal_o",
             "shield_wins_x", "shield_wins_o", "swaps_x", "swaps_o", "dealt_x", "dealt_o",
             "done_x", "done_o", "points_x", "points_o")
    cols = {}
    out_arr = np.zeros((len(names), n), dtype=np.int32)
    cdef int32_t[:, ::1] out = out_arr
    winner = np.zeros(n, dtype=np.int8)
    cdef int8_t[::1] w = winner
    cdef uint64_t sx0 = SEAT_SALTS[0], sx1 = SEAT_SALTS[1]
    cdef TurnReport rep
    pool.nodes = NULL
    pool.cap = pool.used = 0
    with nogil:
        for i in range(n):
            seed = sv[i]
            rift_reset(&st, &r, seed)
            xr = seed ^ sx0
            orr = seed ^ sx1
            shield_w[0] = shield_w[1] = swaps[0] = swaps[1] = 0
            while not st.over:
                xc = _policy(&st, &r, 0, x_kind, x_error, &xr, x_simulations, &pool)
                oc = _policy(&st, &r, 1, o_kind, o_error, &orr, o_simulations, &pool)
                xa = (xc >= N_CELLS) + (xc >= 2 * N_CELLS) + (xc >= 3 * N_CELLS)
                oa = (oc >= N_CELLS) + (oc >= 2 * N_CELLS) + (oc >= 3 * N_CELLS)
                _resolve(&st, &r, xc - N_CELLS * xa, xa, oc - N_CELLS * oa, oa, &rep)
                if rep.shield_won >= 0:
                    shield_w[rep.shield_won] += 1
                if rep.swapped_by >= 0:
                    swaps[rep.swapped_by] += 1
            w[i] = -1 if st.result == RESULT_DRAW else st.result
            out[0, i] = st.turn - 1
            out[1, i] = st.collisions
            out[2, i] = st.greys
            out[3, i] = st.score[0]
            out[4, i] = st.score[1]
            out[5, i] = popcount(st.accomplished[0])
            out[6, i] = popcount(st.accomplished[1])
            for p in range(2):
                for k in range(1, N_ABILITIES):
                    out[7 + 3 * p + k - 1, i] = st.uses[p][k]
                out[13 + p, i] = shield_w[p]
                out[15 + p, i] = swaps[p]
                dealt = done = pts = 0
                for k in range(st.hand_n):
                    dealt |= 1 << st.hand[p][k]
                    if (st.accomplished[p] >> k) & 1:
                        done |= 1 << st.hand[p][k]
                        pts += r.points[st.hand[p][k]]
                out[17 + p, i] = dealt
                out[19 + p, i] = done
                out[21 + p, i] = pts
        rift_pool_free(&pool)
    for k, name in enumerate(names):
        cols[name] = out_arr[k]
    cols["winner"] = winner
    return cols
