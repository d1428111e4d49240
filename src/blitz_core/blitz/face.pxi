# The native bots' Python face (tictacblitz.games.blitz.bots wraps it): NativePolicy and
# the timing helpers, included by bots.pyx.
#
# Part of the one C module blitz_core.blitz.bots (issue 27, item 4): `include`d, not
# cimported, so the hot helpers stay `cdef inline` in one translation unit and the C
# compiler inlines them across these files as before the split.

# ---------------------------------------------------------------------------------------
# The Python face (tictacblitz.games.blitz.bots wraps these)

cdef int policy_from(Policy* pol, object spec, uint64_t seed) except -1:
    """spec: (kind name, reaction_ms, error_rate, budget, horizon_ms, candidates[,
    reaction_sd]): the spread is optional (0: a fixed reaction)."""
    kind, reaction_ms, error_rate, budget, horizon_ms, candidates = spec[:6]
    reaction_sd = spec[6] if len(spec) > 6 else 0
    attention = spec[7] if len(spec) > 7 else 1.0
    if not 0.0 <= attention <= 1.0:
        raise ValueError(f"attention={attention!r}: must be from 0 to 1")
    if attention < 1.0 and kind != "greedy":
        raise ValueError(f"attention={attention!r}: only greedy's rules model attention "
                         f"(not {kind})")
    if not 0 <= reaction_sd <= MAX_REACTION_MS:
        raise ValueError(f"reaction_sd={reaction_sd!r}: must be from 0 to {MAX_REACTION_MS}")
    if reaction_sd and not 0 < reaction_ms <= MAX_REACTION_MS:
        raise ValueError(f"reaction_ms={reaction_ms!r}: a reaction with a spread needs a "
                         f"mean from 1 to {MAX_REACTION_MS}")
    if kind not in KIND_CODES:
        raise ValueError(f"unknown bot kind {kind!r}: expected random, greedy, search or strong")
    if kind == "strong" and not SW_LOADED:
        raise ValueError("the strong bot's weights are not loaded: call set_strong_weights "
                         "(tictacblitz.games.blitz.bots loads the shipped ones)")
    if not 0 <= reaction_ms <= 10_000_000:
        raise ValueError(f"reaction_ms={reaction_ms!r}: must be from 0 to 10000000")
    if not 0.0 <= error_rate <= 1.0:
        raise ValueError(f"error_rate={error_rate!r}: must be from 0 to 1")
    if not 0 <= budget <= 1_000_000:
        raise ValueError(f"budget={budget!r}: must be from 0 to 1000000")
    if not 1 <= horizon_ms <= 10_000_000:
        raise ValueError(f"horizon_ms={horizon_ms!r}: must be from 1 to 10000000")
    if not 1 <= candidates <= SEARCH_MAX_CANDIDATES:
        raise ValueError(f"candidates={candidates!r}: must be from 1 to {SEARCH_MAX_CANDIDATES}")
    policy_init(pol, KIND_CODES[kind], reaction_ms, error_rate, budget, seed)
    pol.horizon_ms = horizon_ms
    pol.candidates = candidates
    pol.reaction_sd = reaction_sd
    pol.attention = attention
    if reaction_sd:  # the lognormal of mean reaction_ms and deviation reaction_sd
        sigma2 = log(1.0 + (<double>reaction_sd / reaction_ms) ** 2)
        pol.reaction_mu = log(<double>reaction_ms) - 0.5 * sigma2
        pol.reaction_sigma = sqrt(sigma2)
    return 0


cdef class NativePolicy:
    """One native policy with its own random stream, deciding on a Match's state."""
    cdef Policy pol
    cdef BotTables tb
    cdef object _tables_for

    def __init__(self, spec, seed=0):
        policy_from(&self.pol, spec, <uint64_t>check_seed(seed))
        self._tables_for = None

    @property
    def reaction_ms(self):
        return self.pol.reaction_ms

    def reaction_at(self, int64_t since):
        """The bot's reaction (ms) to a charge full since ``since`` (bots.pyx
        reaction_at: the same draw the native loop makes)."""
        return reaction_at(&self.pol, since)

    def decide(self, Match match, int seat):
        """(rule name, kind code, cell index, simulations) for `seat` now; kind and
        cell are -1 for a wait. The caller checks the charge and the reaction delay."""
        cdef int kind = -1, cell = -1, rule
        cdef int64_t sims = 0
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 (X) or 1 (O), not {seat!r}")
        key = (match.rules.size, match.rules.line_length)
        if self._tables_for != key:
            tables_init(&self.tb, &match.rc)
            self._tables_for = key
        with nogil:
            rule = policy_decide(&self.pol, &self.tb, &match.st, &match.rc, seat,
                                 &kind, &cell, &sims)
        if rule == RULE_NONE:
            kind = cell = -1
        return RULE_NAMES[rule], kind, cell, sims


_SEAT_FIELDS = ("decisions", "waits", "placements", "knockouts", "rejected", "retirements",
                "bombed", "stolen", "simulations")
# Record keys of the powerup kinds, in code order, from the engine's one table.
_POWERUP_KEYS = tuple(name.lower() for name, _ in sorted(NATIVE_CODES["PowerupKind"].items(),
                                                         key=lambda item: item[1]))


cdef int _seat(int seat) except -1:
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 (X) or 1 (O), not {seat!r}")
    return seat


def winning_cells_mask(Match match, int seat):
    """The cells that would complete a line of `seat`'s set marks (R10), as a mask."""
    return winning_cells(&match.rc, match.st.set_marks[_seat(seat)])


def time_reactions(spec, int repeats, seed=0):
    """Seconds per reaction drawn by a policy (reaction_at over ``repeats`` charge
    times): the player model's cost next to a decision's, for benchmarks (issue 23)."""
    cdef Policy pol
    cdef int64_t _i, total = 0
    cdef timespec t0, t1
    if repeats < 1:
        raise ValueError(f"repeats must be >= 1, not {repeats}")
    policy_from(&pol, spec, <uint64_t>check_seed(seed))
    with nogil:
        clock_gettime(CLOCK_MONOTONIC, &t0)
        for _i in range(repeats):
            total += reaction_at(&pol, _i)
        clock_gettime(CLOCK_MONOTONIC, &t1)
    elapsed = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9
    return {"seconds_per_reaction": elapsed / repeats, "mean_ms": total / repeats}


def time_decisions(Match match, spec, int seat, int repeats, seed=0):
    """Seconds per decision of a policy on `match`'s current state (repeated `repeats`
    times, the policy's stream running on): for benchmarks."""
    cdef Policy pol
    cdef BotTables tb
    cdef int kind = 0, cell = 0, _i
    cdef int64_t sims = 0
    cdef timespec t0, t1
    _seat(seat)
    if repeats < 1:
        raise ValueError(f"repeats must be >= 1, not {repeats}")
    policy_from(&pol, spec, <uint64_t>check_seed(seed))
    tables_init(&tb, &match.rc)
    with nogil:
        clock_gettime(CLOCK_MONOTONIC, &t0)
        for _i in range(repeats):
            policy_decide(&pol, &tb, &match.st, &match.rc, seat, &kind, &cell, &sims)
        clock_gettime(CLOCK_MONOTONIC, &t1)
    elapsed = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9
    return {"seconds_per_decision": elapsed / max(repeats, 1), "simulations": sims}
