# Rift & Grid's rules core (G1-G17), included by engine.pyx: the noexcept nogil
# functions that set up, judge and resolve a game (over tables.pxi).
#
# Part of the one C module blitz_core.rift.engine (issue 27, item 4): `include`d, not
# cimported, so the hot helpers stay `cdef inline` in one translation unit and the C
# compiler inlines them across these files as before the split.

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
