# Rift & Grid's native policies (random, greedy, greedy_fixed, lookahead), included by
# engine.pyx after rules.pxi.
#
# Part of the one C module blitz_core.rift.engine (issue 27, item 4): `include`d, not
# cimported, so the hot helpers stay `cdef inline` in one translation unit and the C
# compiler inlines them across these files as before the split.

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
