# The paranoid solver of Tic Tac Doh (issue 25 item 3; DOH.md "Solving"): the value of a
# position for one seat when that seat maximises its outcome and every other seat, a
# coalition, minimises it. With 3 or 4 players this turns the game into a two-sided one
# (the seat against the rest) that alpha-beta can solve exactly; with 2 players it is the
# negamax of solver.pyx seen from a fixed side (tests/doh check they agree).
#
# Scores are from the seat's side, whoever moves: WIN - d for a win of the seat d plies
# from now, -(WIN - d) for a loss (any other seat wins) d plies from now, 0 for a draw.
# The seat maximises it (the best value, then the fastest win, the slowest loss); the
# coalition minimises it (docs/doh.md, "Three and four players: the exact answer").
# The seat to move follows from the position (D10: ply mod players; nobody goes out
# mid-game, D9 only ends it), so a node is the seat's (max) or the coalition's (min).
# Entries share the Solver's table (table.pxd), the seat folded into the key.

from libc.stdint cimport uint64_t

from blitz_core.common.bits cimport lowest
from blitz_core.common.rng cimport rng_below
from blitz_core.doh.engine cimport (
    DohPos, pos_play, pos_canonical_key, empty_targets, targets_for, completions, bit_cell,
    DOH_ONGOING, DOH_DRAW,
)
from blitz_core.doh.table cimport (
    Table, table_cutoff, table_store, seat_tag, WIN, INF, FLAG_EXACT, FLAG_LOWER,
    FLAG_UPPER,
)

cdef enum:
    NO_ACTION = -1


cdef inline int farther(int y) noexcept nogil:
    """A position's score seen one ply earlier: the same result, one ply further away."""
    if y > 0:
        return y - 1
    if y < 0:
        return y + 1
    return 0


cdef inline int nearer(int v) noexcept nogil:
    """The inverse of farther: the child's window bound for a parent's bound v (scores
    are 0 or at least WIN - 31 from 0, so the two are exact inverses on scores)."""
    if v > 0:
        return v + 1
    if v < 0:
        return v - 1
    return 0


cdef inline int over_score(const DohPos* child, int seat) noexcept nogil:
    """The seat's score of a move that ended the game (D7-D9: one ply), INF if not over."""
    if child.winner == DOH_ONGOING:
        return INF
    if child.winner == DOH_DRAW:
        return 0
    return WIN - 1 if child.winner == seat else 1 - WIN


cdef int paranoid_search(Table* t, const DohPos* p, int seat, int alpha, int beta) noexcept nogil:
    """Alpha-beta over an ongoing position, `seat` maximising, the others minimising:
    the seat's score, exact if inside (alpha, beta), else a bound on the side that
    failed (fail-soft)."""
    cdef uint64_t empties = empty_targets(p)
    cdef uint64_t moves[3]
    cdef bint maximising = p.to_move == seat
    cdef int s
    t.nodes += 1
    for s in range(3):
        moves[s] = targets_for(p, s, empties)
        if moves[s] & completions(p.counts[s]):
            # D7 now, by the seat or by a member of the coalition: nothing is faster
            return WIN - 1 if maximising else 1 - WIN
    cdef uint64_t key = pos_canonical_key(p) | seat_tag(seat)
    cdef int stored, flag
    if table_cutoff(t, key, &alpha, &beta, &stored):
        return stored
    cdef int alpha0 = alpha, beta0 = beta, v
    cdef int best = -INF if maximising else INF
    cdef uint64_t m
    cdef DohPos child
    for s in range(3):
        m = moves[s]
        while m:
            child = p[0]
            pos_play(&child, 25 * s + bit_cell(lowest(m)))
            m &= m - 1
            v = over_score(&child, seat)
            if v == INF:
                v = farther(paranoid_search(t, &child, seat, nearer(alpha), nearer(beta)))
            if maximising:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            elif v < best:
                best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                table_store(t, key, best, FLAG_LOWER if maximising else FLAG_UPPER)
                return best
    if best <= alpha0:
        flag = FLAG_UPPER
    elif best >= beta0:
        flag = FLAG_LOWER
    else:
        flag = FLAG_EXACT
    table_store(t, key, best, flag)
    return best


cdef int paranoid_exact(Table* t, const DohPos* p, int seat) noexcept nogil:
    """The seat's exact paranoid score of a position (WIN / -WIN / 0 once over)."""
    if p.winner == DOH_DRAW:
        return 0
    if p.winner != DOH_ONGOING:
        return WIN if p.winner == seat else -WIN
    return paranoid_search(t, p, seat, -INF, INF)


cdef int paranoid_move_score(Table* t, const DohPos* p, int action, int seat) noexcept nogil:
    """The seat's exact score of playing a legal `action` in an ongoing position."""
    cdef DohPos child = p[0]
    pos_play(&child, action)
    cdef int v = over_score(&child, seat)
    if v == INF:
        v = farther(paranoid_search(t, &child, seat, -INF, INF))
    return v


cdef int paranoid_action(Table* t, const DohPos* p, uint64_t* rng) noexcept nogil:
    """The perfect bot of 3-4 players: a move keeping the paranoid score of the seat to
    move (its best value against the coalition, then the fastest win, the slowest loss);
    ties broken uniformly with rng. The root's exact score first, then one null-window
    test per move: a move is best iff its child scores at least nearer(best) (no child
    scores more, best being the maximum)."""
    cdef int seat = p.to_move
    cdef int best = paranoid_exact(t, p, seat), target = nearer(best), v, s, a
    cdef int chosen = NO_ACTION, ties = 0
    cdef uint64_t empties = empty_targets(p), m
    cdef DohPos child
    for s in range(3):
        m = targets_for(p, s, empties)
        while m:
            a = 25 * s + bit_cell(lowest(m))
            m &= m - 1
            child = p[0]
            pos_play(&child, a)
            v = over_score(&child, seat)
            if v == INF:
                v = best if paranoid_search(t, &child, seat, target - 1, target) >= target \
                    else best - 1
            if v == best:
                ties += 1
                if ties == 1 or rng_below(rng, ties) == 0:
                    chosen = a
    return chosen
