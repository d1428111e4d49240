# The batch runner, included by bots.pyx last: play_matches, whole matches between two
# native policies without the GIL, one row a match, and match_record.
#
# Part of the one C module blitz_core.blitz.bots (issue 27, item 4): `include`d, not
# cimported, so the hot helpers stay `cdef inline` in one translation unit and the C
# compiler inlines them across these files as before the split.

cdef object _prepare_matches(RulesC* rc, BotTables* tb, Policy* xp, Policy* op, object rules,
                             object x_spec, object o_spec, object seeds):
    """The set-up of a batch of whole matches: rules, tables, both policies; returns the
    seeds as a contiguous uint64 array (each match reseeds the policies' streams)."""
    fill_rules(rc, rules if rules is not None else default_rules())
    tables_init(tb, rc)
    policy_from(xp, x_spec, 0)
    policy_from(op, o_spec, 0)
    return np.ascontiguousarray(seeds, dtype=np.uint64)


# The per-seat counters of `play_matches`, in the order of its `seat_counts` axis.
SEAT_COUNT_FIELDS = ("decisions", "waits", "placements", "knockouts", "rejected",
                     "retirements", "bombed", "stolen", "bomb", "freeze", "haste", "swap")


def play_matches(rules, x_spec, o_spec, seeds, *, bint random_powerups=True,
                 int stream=DEFAULT_STREAM, bint timing=False):
    """Whole matches between two native policies, as columns (one row a match, the shape
    of every game's runner: issue 27): the batch runs without the GIL from the first
    match to the last (no Python object per match).

    Match i is ``Match(rules, seed=seeds[i], stream=stream)``; the X policy's stream is
    seeded with ``seed ^ SEAT_SALTS[0]``, O's with ``seed ^ SEAT_SALTS[1]``. Returns a
    dict of NumPy arrays over the n matches: ``winner`` (0 X, 1 O, -1 draw), ``rounds``,
    ``round_wins`` (n, 2); per round (the first MAX_RECORD_ROUNDS = 16; rounds not
    played hold -1 / 0) ``round_result`` (n, 16, RESULT_*), ``round_by`` (n, 16, BY_*),
    ``round_end_t`` (n, 16), ``round_knockouts`` (n, 16, seat), ``round_powerups`` (n,
    16, seat, kind: bomb, freeze, haste, swap); per seat ``seat_counts`` (n, seat,
    SEAT_COUNT_FIELDS), ``simulations`` (n, seat) and ``rule_counts`` (n, seat,
    RULE_NAMES: decisions by the rule that chose them); with ``timing`` ``decide_ns``
    (n, seat), the ns spent deciding. :func:`match_record` reads one row as a dict."""
    cdef RulesC rc
    cdef BotTables tb
    cdef MatchState st
    cdef MatchRecord rec
    cdef Policy xp, op
    cdef EventSink sink
    cdef int64_t decide_ns[2]
    cdef int64_t* dns = decide_ns if timing else NULL
    cdef int q, j, k
    check_stream_layout(stream)
    seed_arr = _prepare_matches(&rc, &tb, &xp, &op, rules, x_spec, o_spec, seeds)
    cdef const uint64_t[::1] seed_view = seed_arr
    cdef Py_ssize_t i, n = seed_view.shape[0]
    winner = np.empty(n, dtype=np.int8)
    rounds = np.empty(n, dtype=np.int32)        # max_rounds may be large (R22)
    round_wins = np.empty((n, 2), dtype=np.int32)
    round_result = np.empty((n, MAX_RECORD_ROUNDS), dtype=np.int8)
    round_by = np.empty((n, MAX_RECORD_ROUNDS), dtype=np.int8)
    round_end_t = np.empty((n, MAX_RECORD_ROUNDS), dtype=np.int32)
    round_kos = np.empty((n, MAX_RECORD_ROUNDS, 2), dtype=np.int16)
    round_pus = np.empty((n, MAX_RECORD_ROUNDS, 2, 4), dtype=np.int8)
    counts = np.empty((n, 2, 12), dtype=np.int32)
    sims = np.empty((n, 2), dtype=np.int64)
    rules_used = np.empty((n, 2, RULE_COUNT), dtype=np.int32)
    decide = np.zeros((n if timing else 0, 2), dtype=np.int64)
    cdef int8_t[::1] w = winner
    cdef int32_t[::1] rr = rounds
    cdef int32_t[:, ::1] rw = round_wins
    cdef int8_t[:, ::1] res = round_result
    cdef int8_t[:, ::1] by = round_by
    cdef int32_t[:, ::1] end = round_end_t
    cdef int16_t[:, :, ::1] kos = round_kos
    cdef int8_t[:, :, :, ::1] pus = round_pus
    cdef int32_t[:, :, ::1] cnt = counts
    cdef int64_t[:, ::1] sm = sims
    cdef int32_t[:, :, ::1] ru = rules_used
    cdef int64_t[:, ::1] dn = decide
    cdef SeatCounts* c
    sink.events = NULL
    sink.count = sink.capacity = 0
    try:
        with nogil:
            for i in range(n):
                state_new_match(&st, &rc, seed_view[i], random_powerups, 0, 0, stream, NULL)
                policy_seed(&xp, seed_view[i] ^ SEAT_SALT_X)
                policy_seed(&op, seed_view[i] ^ SEAT_SALT_O)
                decide_ns[0] = decide_ns[1] = 0
                _policy_match(&st, &rc, &tb, &xp, &op, &rec, &sink, dns)
                w[i] = -1 if rec.winner == 2 else rec.winner    # RESULT_DRAW: -1, as every game's
                rr[i] = rec.rounds
                for j in range(MAX_RECORD_ROUNDS):
                    if j < rec.rounds:
                        res[i, j] = rec.round_result[j]
                        by[i, j] = rec.round_by[j]
                        end[i, j] = rec.round_end_t[j]
                    else:
                        res[i, j] = -1
                        by[i, j] = -1
                        end[i, j] = -1
                    for q in range(2):
                        kos[i, j, q] = rec.round_knockouts[j][q]
                        for k in range(4):
                            pus[i, j, q, k] = rec.round_powerups[j][q][k]
                for q in range(2):
                    rw[i, q] = rec.round_wins[q]
                    c = &rec.seat[q]
                    cnt[i, q, 0] = c.decisions
                    cnt[i, q, 1] = c.waits
                    cnt[i, q, 2] = c.placements
                    cnt[i, q, 3] = c.knockouts
                    cnt[i, q, 4] = c.rejected
                    cnt[i, q, 5] = c.retirements
                    cnt[i, q, 6] = c.bombed
                    cnt[i, q, 7] = c.stolen
                    for k in range(4):
                        cnt[i, q, 8 + k] = c.powerups[k]
                    sm[i, q] = c.simulations
                    for k in range(RULE_COUNT):
                        ru[i, q, k] = c.rules[k]
                    if timing:
                        dn[i, q] = decide_ns[q]
    finally:
        free(sink.events)
    cols = {"winner": winner, "rounds": rounds, "round_wins": round_wins,
            "round_result": round_result, "round_by": round_by, "round_end_t": round_end_t,
            "round_knockouts": round_kos, "round_powerups": round_pus,
            "seat_counts": counts, "simulations": sims, "rule_counts": rules_used}
    if timing:
        cols["decide_ns"] = decide
    return cols


def match_record(cols, Py_ssize_t i, seed):
    """Row ``i`` of :func:`play_matches`' columns as one match's record: ``seed``,
    ``winner`` (``"X"``, ``"O"`` or ``"draw"``), ``rounds``, ``round_wins``,
    ``round_results`` and per seat (``"X"``, ``"O"``) its counters, powerups claimed by
    kind and decisions by rule."""
    letters = ("X", "O", "draw")
    bys = ("line", "double_line", "timeout")
    played = min(int(cols["rounds"][i]), MAX_RECORD_ROUNDS)
    rounds = [{"round": j + 1, "result": letters[cols["round_result"][i, j]],
               "by": bys[cols["round_by"][i, j]], "end_t": int(cols["round_end_t"][i, j])}
              for j in range(played)]
    record = {"seed": seed, "winner": letters[cols["winner"][i]], "rounds": int(cols["rounds"][i]),
              "round_wins": {"X": int(cols["round_wins"][i, 0]),
                             "O": int(cols["round_wins"][i, 1])},
              "round_results": rounds}
    for q, seat in enumerate(("X", "O")):
        counts = cols["seat_counts"][i, q]
        record[seat] = {SEAT_COUNT_FIELDS[k]: int(counts[k]) for k in range(8)}
        record[seat]["simulations"] = int(cols["simulations"][i, q])
        record[seat]["powerups"] = {_POWERUP_KEYS[k]: int(counts[8 + k]) for k in range(4)}
        record[seat]["rules"] = {RULE_NAMES[k]: int(v)
                                 for k, v in enumerate(cols["rule_counts"][i, q]) if v}
    return record
