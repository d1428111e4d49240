# The exact solver of Tic Tac Doh, the native bots and the whole-match loop.
#
# Scores (from the side to move): WIN - d for a win d plies from now, -(WIN - d) for a
# loss d plies from now, 0 for a draw (D8: a draw always ends when the stash is empty,
# so its distance is the pieces left). Maximising this one integer keeps the best value
# and, among equal values, wins in the fewest moves and loses in the most (docs/doh.md,
# "The solver"). Negamax with alpha-beta; the transposition table is keyed by the
# canonical key of engine.pxd (translation-free by construction, smallest of the 8
# symmetric images) and stores fail-soft bounds (table.pxd). With 3 or 4 players
# (D10) the exact answer is each seat's paranoid value (paranoid.pyx: the seat against
# a coalition of the others, scored the same way from the seat's side); the perfect
# bot plays it there, and this negamax with 2 players.

from libc.stdint cimport uint64_t, int8_t, int16_t
from libc.stdlib cimport calloc, free
from libc.math cimport exp

from blitz_core.common.bits cimport lowest
from blitz_core.common.rng cimport rng_below, rng_unit, mix64
from blitz_core.doh.paranoid cimport paranoid_exact, paranoid_move_score, paranoid_action
from blitz_core.doh.table cimport (
    Table, table_cutoff, table_store, WIN, INF, FLAG_EXACT, FLAG_LOWER,
    FLAG_UPPER,
)
from blitz_core.doh.engine cimport (
    DohPos, DohRulesC, Position, load_rules, pos_init, pos_play, pos_reason, pos_key,
    pos_canonical_key, empty_targets, targets_for, completions, bit_cell, random_action, has_line,
    DOH_ONGOING, DOH_DRAW, DOH_ACTIONS,
)

import threading

import numpy as np

from blitz_core.common.seed_check import check_seed  # tictacblitz.games.rng's, tied by a test

cdef enum:
    NO_ACTION = -1
    GREEDY_ENTRIES = 1 << 14    # per Solver: solver.pxd's GreedyCache, ~2.6 MB

# The bots' kinds (bots.py names them).
cdef enum:
    BOT_RANDOM = 0
    BOT_GREEDY = 1
    BOT_PERFECT = 2

# How a game ended (play_matches' `end` column): D7 a line, D8 the stash ran out, D9 the
# player to move had no legal move.
cdef enum:
    END_LINE = 0
    END_STASH_EMPTY = 1
    END_NO_MOVE = 2

WIN_SCORE = WIN
KIND_CODES = {"random": BOT_RANDOM, "greedy": BOT_GREEDY, "perfect": BOT_PERFECT}
END_NAMES = ("line", "stash_empty", "no_move")


cdef inline int end_code(const DohPos* p) noexcept nogil:
    """How a finished game ended: END_LINE (D7), END_STASH_EMPTY (D8), END_NO_MOVE (D9)."""
    if p.winner == DOH_DRAW:
        return END_STASH_EMPTY
    if has_line(p.counts[0]) or has_line(p.counts[1]) or has_line(p.counts[2]):
        return END_LINE
    return END_NO_MOVE


# Table, BotSpec and the Solver's fields are declared in solver.pxd (batch.pyx cimports them).


cdef inline int child_score(int x) noexcept nogil:
    """The mover's score of a move whose resulting position scores x for the opponent:
    the result one ply further away, from the other side."""
    if x > 0:
        return -x + 1
    if x < 0:
        return -x - 1
    return 0


cdef inline int child_bound(int v) noexcept nogil:
    """The inverse of child_score: the child's window bound for the mover's bound v."""
    if v > 0:
        return -(v + 1)
    if v < 0:
        return -v + 1
    return 0


cdef int search(Table* t, const DohPos* p, int alpha, int beta) noexcept nogil:
    """Negamax with alpha-beta over an ongoing position: its score (see the top), exact
    if inside (alpha, beta), else a bound on the side that failed (fail-soft)."""
    cdef uint64_t empties = empty_targets(p)
    cdef uint64_t moves[3]
    cdef int s
    t.nodes += 1
    for s in range(3):
        moves[s] = targets_for(p, s, empties)
        if moves[s] & completions(p.counts[s]):
            return WIN - 1              # D7 now: nothing is faster (and it is exact)
    cdef uint64_t key = pos_canonical_key(p)
    cdef int stored
    if table_cutoff(t, key, &alpha, &beta, &stored):
        return stored
    cdef int alpha0 = alpha, best = -INF, v, mover = p.to_move
    cdef uint64_t m
    cdef DohPos child
    for s in range(3):
        m = moves[s]
        while m:
            child = p[0]
            pos_play(&child, 25 * s + bit_cell(lowest(m)))
            m &= m - 1
            if child.winner == mover:
                v = WIN - 1                 # D9: the opponent is left without a move
            elif child.winner == DOH_DRAW:
                v = 0                       # D8
            else:
                v = child_score(search(t, &child, child_bound(beta), child_bound(alpha)))
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        table_store(t, key, best, FLAG_LOWER)
                        return best
    table_store(t, key, best, FLAG_UPPER if best <= alpha0 else FLAG_EXACT)
    return best


cdef inline int exact_score(Table* t, const DohPos* p) noexcept nogil:
    """The exact score of a position (0 for a draw over; -(WIN) for a lost one: the game
    ended with the other seat's move)."""
    if p.winner == DOH_DRAW:
        return 0
    if p.winner != DOH_ONGOING:
        return WIN if p.winner == p.to_move else -WIN
    return search(t, p, -INF, INF)


cdef inline int terminal_move_score(const DohPos* child, int mover) noexcept nogil:
    """The mover's score of a move that ended the game, else INF (not over)."""
    if child.winner == mover:
        return WIN - 1
    if child.winner == DOH_DRAW:
        return 0
    return INF


cdef int perfect_action(Table* t, const DohPos* p, uint64_t* rng) noexcept nogil:
    """A move keeping the best score (the best value, the fastest win, the slowest loss);
    ties broken uniformly with rng. The root's exact score first, then one null-window
    test per move: a move is best iff its child scores exactly child_bound(best)."""
    cdef int best = exact_score(t, p), target = child_bound(best), v, s, a
    cdef int chosen = NO_ACTION, ties = 0, mover = p.to_move
    cdef uint64_t empties = empty_targets(p), m
    cdef DohPos child
    for s in range(3):
        m = targets_for(p, s, empties)
        while m:
            a = 25 * s + bit_cell(lowest(m))
            m &= m - 1
            child = p[0]
            pos_play(&child, a)
            v = terminal_move_score(&child, mover)
            if v == INF:
                v = best if search(t, &child, target, target + 1) <= target else best - 1
            if v == best:
                ties += 1
                if ties == 1 or rng_below(rng, ties) == 0:
                    chosen = a
    return chosen


cdef inline bint can_win_now(const DohPos* p) noexcept nogil:
    """D7: the side to move has a move completing a line."""
    cdef uint64_t empties = empty_targets(p)
    cdef int s
    for s in range(3):
        if targets_for(p, s, empties) & completions(p.counts[s]):
            return True
    return False


cdef int greedy_move_score(const DohPos* p, int action) noexcept nogil:
    """The greedy bot's score of one move: 1000 it wins now (D7, D9); 0 it ends in a
    draw (D8); -1000 the next player then has a win (it hands one over); else the next
    player's replies are counted that do not hand the mover a win in turn: 500 when
    there are none (the opponent is cornered), else minus their number."""
    cdef DohPos child, grand
    cdef int mover = p.to_move, other = (p.to_move + 1) % p.players, safe = 0, s
    cdef uint64_t empties, m
    child = p[0]
    pos_play(&child, action)
    if child.winner == mover:
        return 1000
    if child.winner == DOH_DRAW:
        return 0
    if can_win_now(&child):
        return -1000
    empties = empty_targets(&child)
    for s in range(3):
        m = targets_for(&child, s, empties)
        while m:
            grand = child
            pos_play(&grand, 25 * s + bit_cell(lowest(m)))
            m &= m - 1
            if grand.winner == other:
                return -1000                # D9 after the reply: the opponent wins
            if grand.winner == DOH_DRAW or not can_win_now(&grand):
                safe += 1
    return 500 if safe == 0 else -safe


cdef const int16_t* greedy_scores(GreedyCache* cache, const DohPos* p) noexcept nogil:
    """Every legal move's greedy_move_score, from the cache or computed into it."""
    cdef uint64_t key = pos_key(p), empties, m
    cdef GreedyEntry* e = &cache.entries[mix64(key) & cache.mask]
    cdef int s, a
    if e.tag != key + 1:
        empties = empty_targets(p)
        for s in range(3):
            m = targets_for(p, s, empties)
            while m:
                a = 25 * s + bit_cell(lowest(m))
                m &= m - 1
                e.score[a] = <int16_t>greedy_move_score(p, a)
        e.tag = key + 1
    return e.score


cdef int greedy_action(const DohPos* p, uint64_t* rng, GreedyCache* cache) noexcept nogil:
    """Win now if possible; else never hand the opponent a win; else leave the opponent
    the fewest safe replies. Ties broken uniformly with rng. ``cache`` (may be NULL)
    memoises the scores (solver.pxd)."""
    cdef uint64_t empties = empty_targets(p), m
    cdef int s, a, v, best = -INF - 1, chosen = NO_ACTION, ties = 0
    cdef const int16_t* scores = NULL
    for s in range(3):
        m = targets_for(p, s, empties) & completions(p.counts[s])
        while m:                            # D7 wins first: no need to look further
            a = 25 * s + bit_cell(lowest(m))
            m &= m - 1
            ties += 1
            if ties == 1 or rng_below(rng, ties) == 0:
                chosen = a
    if chosen != NO_ACTION:
        return chosen
    if cache != NULL:
        scores = greedy_scores(cache, p)
    for s in range(3):
        m = targets_for(p, s, empties)
        while m:
            a = 25 * s + bit_cell(lowest(m))
            m &= m - 1
            v = scores[a] if scores != NULL else greedy_move_score(p, a)
            if v > best:
                best = v
                ties = 1
                chosen = a
            elif v == best:
                ties += 1
                if rng_below(rng, ties) == 0:
                    chosen = a
    return chosen


cdef int softmax_action(Table* t, const DohPos* p, uint64_t* rng,
                        double temperature) noexcept nogil:
    """The player model's perfect bot at a temperature (issue 23): a move drawn with
    probability proportional to exp(value / temperature), value the move's exact score
    for the mover over WIN: near +1 a win, 0 a draw, near -1 a loss, a ply sooner or
    later 0.01 apart (the paranoid score with 3-4 players). Near 0 it plays the perfect
    bot's moves (the best value, the fastest win, the slowest loss); high, nearly
    uniformly."""
    cdef double weight[DOH_ACTIONS]
    cdef int action[DOH_ACTIONS]
    cdef int n = 0, s, a, v, i, mover = p.to_move
    cdef double total = 0.0, x, top = -2.0
    cdef uint64_t empties = empty_targets(p), m
    cdef DohPos child
    for s in range(3):
        m = targets_for(p, s, empties)
        while m:
            a = 25 * s + bit_cell(lowest(m))
            m &= m - 1
            if p.players > 2:
                v = paranoid_move_score(t, p, a, mover)
            else:
                child = p[0]
                pos_play(&child, a)
                v = terminal_move_score(&child, mover)
                if v == INF:
                    v = child_score(search(t, &child, -INF, INF))
            action[n] = a
            weight[n] = <double>v / WIN
            if weight[n] > top:
                top = weight[n]
            n += 1
    for i in range(n):
        weight[i] = exp((weight[i] - top) / temperature)  # the best value weighs 1
        total += weight[i]
    x = rng_unit(rng) * total
    for i in range(n):
        x -= weight[i]
        if x < 0.0:
            return action[i]
    return action[n - 1]


cdef inline uint64_t decision_stream(uint64_t seed, const DohPos* p) noexcept nogil:
    """A bot's random stream for one decision: a pure function of its seed and the
    position (so a bot's play never depends on what it saw before)."""
    return mix64(seed ^ mix64(pos_key(p) + 0x9E3779B97F4A7C15ULL))


cdef int bot_action(Table* t, const DohPos* p, BotSpec spec, uint64_t seed,
                    GreedyCache* greedy=NULL) noexcept nogil:
    """The bot's move in an ongoing position (``greedy``: the greedy bot's memo, or NULL)."""
    cdef uint64_t rng = decision_stream(seed, p)
    cdef int kind = spec.kind
    if spec.error > 0.0 and rng_unit(&rng) < spec.error:
        kind = spec.fallback
    if kind == BOT_PERFECT:
        if spec.temperature > 0.0 and kind == spec.kind:  # an erroneous move stays its own
            return softmax_action(t, p, &rng, spec.temperature)
        if p.players > 2:
            return paranoid_action(t, p, &rng)      # issue 25: the paranoid value
        return perfect_action(t, p, &rng)
    if kind == BOT_GREEDY:
        return greedy_action(p, &rng, greedy)
    return random_action(p, &rng)


cdef BotSpec make_spec(object spec) except *:
    """(kind, error, fallback[, temperature]) -> BotSpec, checked."""
    cdef BotSpec out
    if not isinstance(spec, tuple) or len(spec) not in (3, 4):
        raise TypeError(f"a bot spec is (kind, error, fallback[, temperature]), not {spec!r}")
    kind, error, fallback = spec[:3]
    temperature = spec[3] if len(spec) == 4 else 0.0
    if (isinstance(temperature, bool) or not isinstance(temperature, (int, float))
            or not 0.0 <= temperature <= 1000.0):
        raise ValueError(f"a bot's temperature is a number from 0 to 1000, not {temperature!r}")
    if temperature > 0.0 and kind != BOT_PERFECT:
        raise ValueError(f"temperature={temperature!r}: only the perfect bot has one")
    for value in (kind, fallback):
        if (isinstance(value, bool) or not isinstance(value, (int, np.integer))
                or not 0 <= value <= 2):
            raise ValueError(f"a bot kind is 0 (random), 1 (greedy) or 2 (perfect), not {value!r}")
    if isinstance(error, bool) or not isinstance(error, (int, float)) or not 0.0 <= error <= 1.0:
        raise ValueError(f"a bot's error rate is a number from 0 to 1, not {error!r}")
    out.kind = kind
    out.error = error
    out.fallback = fallback
    out.temperature = temperature
    return out


cdef inline bint blocks_next_line(const DohPos* p, int action) noexcept nogil:
    """Whether `action` leaves the next player no line to complete at once (or ends the
    game itself): the kingmaking test of play_matches."""
    cdef DohPos child = p[0]
    pos_play(&child, action)
    return child.winner != DOH_ONGOING or not can_win_now(&child)


cdef inline int was_kingmade(const DohPos* before) noexcept nogil:
    """1 if the player to move in `before` (the one who moved just before the winner
    of a game won by a line) had a legal move that left the winner no line to complete
    at once (docs/doh.md, "Kingmaking"), else 0."""
    cdef uint64_t empties = empty_targets(before), m
    cdef int s
    for s in range(3):
        m = targets_for(before, s, empties)
        while m:
            if blocks_next_line(before, 25 * s + bit_cell(lowest(m))):
                return 1
            m &= m - 1
    return 0


cdef uint64_t _seed(object seed) except? 0:
    return <uint64_t>check_seed(seed)


cdef class Solver:
    """The exact solver for one rules configuration, with its transposition table
    (kept across calls: every answer makes the next one cheaper). Thread-safe: calls
    on one Solver are serialised by a lock; the search itself runs without the GIL."""

    def __init__(self, rules, int initial_bits=16):
        """:param rules: ``DohRules.native_params()`` (engine.RULES_PARAMS order)."""
        cdef DohRulesC r
        load_rules(&r, rules)
        if not 4 <= initial_bits <= 30:
            raise ValueError(f"initial_bits must be from 4 to 30, not {initial_bits}")
        self.pieces_per_size = r.pieces_per_size
        self.grid = r.grid
        self.players = r.players
        free(self.table.slots)          # NULL unless __init__ runs again
        self.table.slots = <uint64_t*>calloc((<uint64_t>1) << initial_bits, sizeof(uint64_t))
        if self.table.slots == NULL:
            raise MemoryError("cannot allocate the transposition table")
        self.table.mask = ((<uint64_t>1) << initial_bits) - 1
        self.table.used = 0
        self.table.nodes = 0
        self.table.full = False
        free(self.greedy.entries)
        self.greedy.entries = <GreedyEntry*>calloc(GREEDY_ENTRIES, sizeof(GreedyEntry))
        if self.greedy.entries == NULL:
            raise MemoryError("cannot allocate the greedy bot's memo")
        self.greedy.mask = GREEDY_ENTRIES - 1
        self.lock = threading.Lock()

    def __dealloc__(self):
        free(self.table.slots)
        free(self.greedy.entries)

    cdef DohPos _position(self, object position) except *:
        if self.table.slots == NULL:
            raise RuntimeError("this Solver was not initialised (call Solver(...))")
        if not isinstance(position, Position):
            raise TypeError(f"expected a blitz_core.doh.engine.Position, "
                            f"not {type(position).__name__}")
        cdef Position pos = position
        if (pos.pos.pieces_per_size != self.pieces_per_size or pos.pos.grid != self.grid
                or pos.pos.players != self.players):
            raise ValueError(f"position of pieces_per_size={pos.pos.pieces_per_size}, "
                             f"grid={pos.pos.grid}, players={pos.pos.players} given to a solver "
                             f"of pieces_per_size={self.pieces_per_size}, grid={self.grid}, "
                             f"players={self.players}")
        return pos.pos

    @property
    def nodes(self):
        """Positions expanded by the search so far (all calls)."""
        return self.table.nodes

    @property
    def entries(self):
        """Positions stored in the transposition table."""
        return self.table.used

    @property
    def memory_bytes(self):
        """Bytes of the transposition table (8 per slot)."""
        return (self.table.mask + 1) * 8

    def score(self, position):
        """The exact score of `position` for its side to move (see value())."""
        cdef DohPos p = self._position(position)
        self._check_two_players()
        cdef int out
        with self.lock:
            with nogil:
                out = exact_score(&self.table, &p)
        return out

    def value(self, position):
        """(value, distance) for the side to move: value +1 win, 0 draw, -1 loss under
        perfect play; distance: plies to the end."""
        cdef int s = self.score(position)
        cdef DohPos p = self._position(position)
        if s > 0:
            return 1, WIN - s
        if s < 0:
            return -1, WIN + s
        return 0, p.stash[0] + p.stash[1] + p.stash[2]

    def action_scores(self, position):
        """int16 array of 75: each legal action's exact score for the mover (see the
        top of solver.pyx); -32768 for an illegal action."""
        cdef DohPos p = self._position(position)
        self._check_two_players()
        out = np.full(DOH_ACTIONS, -32768, dtype=np.int16)
        cdef int16_t[::1] view = out
        cdef DohPos child
        cdef int a, v
        with self.lock:
            with nogil:
                for a in range(DOH_ACTIONS):
                    if pos_reason(&p, a) != 0:
                        continue
                    child = p
                    pos_play(&child, a)
                    v = terminal_move_score(&child, p.to_move)
                    if v == INF:
                        v = child_score(search(&self.table, &child, -INF, INF))
                    view[a] = v
        return out

    cdef int _seat(self, object seat) except -1:
        if (isinstance(seat, bool) or not isinstance(seat, (int, np.integer))
                or not 0 <= seat < self.players):
            raise ValueError(f"a seat of {self.players} players is an integer from 0 to "
                             f"{self.players - 1}, not {seat!r}")
        return <int>seat

    def paranoid_score(self, position, seat):
        """The exact paranoid score of `position` for `seat` (paranoid.pyx): the seat
        maximises, every other seat minimises; WIN - d / -(WIN - d) / 0 from the seat's
        side (d plies to the end; a loss is any other seat's win)."""
        cdef DohPos p = self._position(position)
        cdef int who = self._seat(seat), out
        with self.lock:
            with nogil:
                out = paranoid_exact(&self.table, &p, who)
        return out

    def paranoid_value(self, position, seat):
        """(value, distance) of paranoid_score: value +1 the seat wins, 0 draw, -1 another
        seat wins, against a coalition of all the others; distance: plies to the end."""
        cdef int s = self.paranoid_score(position, seat)
        cdef DohPos p = self._position(position)
        if s > 0:
            return 1, WIN - s
        if s < 0:
            return -1, WIN + s
        return 0, p.stash[0] + p.stash[1] + p.stash[2]

    def paranoid_action_scores(self, position, seat):
        """int16 array of 75: each legal action's exact paranoid score for `seat` (the
        action played by the seat to move); -32768 for an illegal action."""
        cdef DohPos p = self._position(position)
        cdef int who = self._seat(seat), a
        out = np.full(DOH_ACTIONS, -32768, dtype=np.int16)
        cdef int16_t[::1] view = out
        with self.lock:
            with nogil:
                for a in range(DOH_ACTIONS):
                    if pos_reason(&p, a) == 0:
                        view[a] = paranoid_move_score(&self.table, &p, a, who)
        return out

    def choose(self, position, spec, seed):
        """The move of the bot `spec` = (kind, error, fallback) with this seed, or -1
        if the game is over."""
        cdef DohPos p = self._position(position)
        cdef BotSpec b = make_spec(spec)
        cdef uint64_t s = _seed(seed)
        cdef int out
        if p.winner != DOH_ONGOING:
            return NO_ACTION
        with self.lock:
            with nogil:
                out = bot_action(&self.table, &p, b, s, &self.greedy)
        return out

    def _check_two_players(self):
        if self.players != 2:
            raise ValueError(f"the negamax score is for two players, not {self.players} "
                             f"(paranoid_score answers 3-4)")

    def play_matches(self, specs, seeds, int opening=-1):
        """Whole games between bots, one per seat (specs: a sequence of `players` bot
        specs, seat order), without the GIL: game i is played by bots seeded seeds[i]
        (every seat: each decision's stream mixes in the position).
        opening (0 S, 1 M, 2 L; -1 the bot's choice): the first move is a piece of that
        size, on the first legal square of the window (any square is the same position
        up to a translation, D2), whatever the first bot would play (issue 22: both arms
        of an A/B with the same first piece).
        Returns (winner int8: the seat, -1 draw; moves int16; first_piece int8: S=0 M=1
        L=2; end int8: END_NAMES' index, 0 line D7, 1 stash empty D8, 2 no move D9;
        kingmade int8: with 3-4 players, 1 when a game won by a line could have been
        stopped by the player who moved just before the winner (was_kingmade), else 0)."""
        if self.table.slots == NULL:
            raise RuntimeError("this Solver was not initialised (call Solver(...))")
        if isinstance(specs, (str, bytes)) or len(specs) != self.players:
            raise ValueError(f"one bot spec per seat ({self.players}), not {specs!r}")
        cdef BotSpec spec_of[4]
        cdef int k
        for k in range(self.players):
            spec_of[k] = make_spec(specs[k])
        seeds_arr = np.ascontiguousarray(seeds)
        if seeds_arr.ndim != 1 or not (np.issubdtype(seeds_arr.dtype, np.integer)
                                       or seeds_arr.size == 0):
            raise TypeError("seeds must be a 1-d array of integers")
        cdef uint64_t[::1] seed_view = seeds_arr.astype(np.uint64)
        cdef Py_ssize_t n = seed_view.shape[0], i
        winner = np.empty(n, dtype=np.int8)
        moves = np.empty(n, dtype=np.int16)
        first = np.empty(n, dtype=np.int8)
        end = np.empty(n, dtype=np.int8)
        kingmade = np.zeros(n, dtype=np.int8)
        cdef int8_t[::1] w_view = winner, f_view = first, e_view = end, k_view = kingmade
        cdef int16_t[::1] m_view = moves
        cdef DohPos p, before_last, before_that
        cdef int a, players = self.players
        if opening < -1 or opening > 2:
            raise ValueError(f"opening must be -1 (free), 0 S, 1 M or 2 L, not {opening}")
        with self.lock:
            with nogil:
                for i in range(n):
                    pos_init(&p, self.pieces_per_size, self.grid, players)
                    f_view[i] = -1
                    while p.winner == DOH_ONGOING:
                        if p.ply == 0 and opening >= 0:
                            a = opening * 25
                            while pos_reason(&p, a) != 0:
                                a += 1
                        else:
                            a = bot_action(&self.table, &p, spec_of[p.to_move], seed_view[i],
                                           &self.greedy)
                        if p.ply == 0:
                            f_view[i] = a // 25
                        if players > 2:         # kingmaking looks two moves back
                            before_that = before_last
                            before_last = p
                        pos_play(&p, a)
                    w_view[i] = p.winner
                    m_view[i] = p.ply
                    e_view[i] = end_code(&p)
                    if players > 2 and e_view[i] == END_LINE and p.ply >= 2:
                        k_view[i] = was_kingmade(&before_that)
        return winner, moves, first, end, kingmade
