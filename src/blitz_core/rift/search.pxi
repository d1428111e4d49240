# Rift & Grid's SM-MCTS policies (search, search_cut) and the policy dispatch, included
# by engine.pyx after policies.pxi.
#
# Part of the one C module blitz_core.rift.engine (issue 27, item 4): `include`d, not
# cimported, so the hot helpers stay `cdef inline` in one translation unit and the C
# compiler inlines them across these files as before the split.

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
