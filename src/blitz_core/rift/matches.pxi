# Rift & Grid's batch runner, included by engine.pyx: play_matches, whole games between
# two native policies in one loop without the GIL.
#
# Part of the one C module blitz_core.rift.engine (issue 27, item 4): `include`d, not
# cimported, so the hot helpers stay `cdef inline` in one translation unit and the C
# compiler inlines them across these files as before the split.

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
