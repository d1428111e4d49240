# Rift & Grid's Python face, included by engine.pyx: the rules' crossing into native code
# and Core, one game whose every argument is checked before the unchecked functions see it.
#
# Part of the one C module blitz_core.rift.engine (issue 27, item 4): `include`d, not
# cimported, so the hot helpers stay `cdef inline` in one translation unit and the C
# compiler inlines them across these files as before the split.

# -- the Python boundary ------------------------------------------------------------------

cdef int _int_arg(object value, str what, long low, long high) except? -1:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{what} must be an integer, not {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{what}={value!r} is outside {low}-{high}")
    return <int>value


cdef int _load_rules(RiftRulesC* r, object rules) except -1:
    """Fill a RiftRulesC from RiftRules.native_params()'s tuple, checking every number so that
    nothing unchecked reaches the nogil code."""
    cdef int i, n, base
    values = tuple(rules)
    if len(values) < 15:
        raise ValueError(
            f"rules: expected the numbers of RiftRules.native_params(), got {len(values)} values")
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
        """:param rules: ``RiftRules.native_params()``; :param deal: ``(X codes, O codes)``
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
