# The batched RL stepper of Tic Tac Doh: N games of `players` seats (D10: 2 to 4), one seat
# each the agent's, every other a native bot (solver.pyx's bot_action; one spec for all of
# them or one per seat), stepped together in one nogil call (docs/doh.md, "RL"; issue 25).
# Observations, masks, rewards and flags are NumPy buffers written in place. Each env owns
# its position and its bots' seed, so a step's results never depend on the number of
# threads (prange, when OpenMP is there), and they equal the protocol env's
# (tictacblitz.envs.GameEnv) for the same match seed: the k-th other seat's bot (k = 0 for
# the first in seat order) of a game of seed s is seeded mix64(s) ^ k, as GameEnv seeds it
# (protocol_env.opponent_seed; with two players mix64(s), as before), and the perfect
# bot's moves depend only on exact scores, never on what a thread's table holds.
#
# A step of env i (the agent's action a):
#   - the env ended at the previous step (autoreset, Gymnasium's NEXT_STEP): it starts the
#     game of reset_seeds[i] instead (the bots in the seats before the agent's move
#     first); reward 0, reason -1;
#   - a rejected action (D6) ends the episode: reward -1, reason = the D6 code;
#   - else the move is played, then the bots move in turn order until it is the agent's
#     turn or the game is over; at the end, the agent's return (DohState.returns: +1 a
#     win, -1/(players-1) a loss, 0 a draw; float64, so it equals the protocol env's);
#   - max_steps > 0: truncated once the episode has that many steps.
#
# Issue 28 (every game the same faces): a seat may be external (spec None: a callable
# opponent, or self-play): the bots stop at its turn (waiting() says which envs wait on
# which seat), observe(seat) writes its observation and play() makes its move; autoreset
# False leaves an ended env alone until reset (Gymnasium's DISABLED); a row that cannot
# act (its game is over, or another seat is to move) has one legal action, NOOP (code 0),
# which is ignored; get_state/set_state copy every env and buffer (snapshots).

from libc.stdint cimport uint64_t, int64_t, int32_t, int8_t, uint8_t
from libc.stdlib cimport calloc, free
from cython.parallel cimport prange, threadid

from blitz_core.common.rng cimport mix64
from blitz_core.doh.engine cimport (
    DohPos, DohRulesC, load_rules, pos_init, pos_play, pos_reason, pos_key, random_action,
    DOH_ONGOING, DOH_DRAW, DOH_ACTIONS,
)
from libc.string cimport memcpy
from blitz_core.doh.observation cimport write_obs, N_PLANES, NOOP_CODE
from blitz_core.doh.solver cimport (
    Table, BotSpec, Solver, GreedyCache, bot_action, make_spec,
)


import numpy as np

from blitz_core.common.batch_args import reset_args, restore_state, snapshot_state, step_args

cdef enum:
    SEATS_MAX = 4           # engine.MAX_PLAYERS (D10)

_BUFFERS = ("obs", "masks", "rewards", "terminated", "truncated", "reasons", "steps",
            "winners", "movers", "move_reasons")
PLANES = N_PLANES
NUM_ACTIONS = DOH_ACTIONS
NOOP = NOOP_CODE


ctypedef struct Env:
    DohPos pos
    uint64_t bot_seed       # mix64(match seed): seat j's bot plays bot_seed ^ salt[j]
    int32_t steps
    uint8_t done            # the episode ended at the last step (reset at the next)


ctypedef struct Bots:
    BotSpec spec[SEATS_MAX]     # seat j's bot (the agent's seat: unused)
    uint64_t salt[SEATS_MAX]    # k, the seat's rank among the other seats (seat order)
    uint8_t external[SEATS_MAX]  # a seat whose moves come from play() (a callable, self-play)
    int seat                    # the agent's


cdef inline void bot_turns(Env* e, Table* t, GreedyCache* g, const Bots* bots) noexcept nogil:
    """The bots move, in turn order (D10), until it is the agent's or an external seat's
    turn or the game is over."""
    cdef int j
    while (e.pos.winner == DOH_ONGOING and e.pos.to_move != bots.seat
           and not bots.external[e.pos.to_move]):
        j = e.pos.to_move
        pos_play(&e.pos, bot_action(t, &e.pos, bots.spec[j], e.bot_seed ^ bots.salt[j], g))


cdef inline void start_env(Env* e, uint64_t seed, int pieces, int grid, int players, Table* t,
                           GreedyCache* g, const Bots* bots) noexcept nogil:
    pos_init(&e.pos, pieces, grid, players)
    e.bot_seed = mix64(seed)
    e.steps = 0
    e.done = 0
    bot_turns(e, t, g, bots)


cdef class DohBatch:
    """N single-agent Doh games against native bots in the other seats (see the top of
    batch.pyx).

    DohBatch(num_envs, rules, bot_spec, seat, max_steps=0, num_threads=None)

    rules: ``DohRules.native_params()`` (engine.RULES_PARAMS order). bot_spec: one spec
    (kind, error, fallback) for every other seat, or a sequence of players - 1 specs (the
    other seats in seat order).
    """

    cdef Env* envs
    cdef Table** tables
    cdef GreedyCache** greedy           # one per thread: its Solver's (solver.pxd)
    cdef public bint autoreset          # False: an ended env waits for reset (DISABLED)
    cdef readonly int num_envs
    cdef readonly int pieces_per_size
    cdef readonly int grid
    cdef readonly int players
    cdef readonly tuple rules           # DohRules.native_params(), as given
    cdef readonly int seat
    cdef readonly int max_steps
    cdef int nt
    cdef Bots bots
    cdef double loss                    # a loser's return: -1 / (players - 1)
    cdef object solvers                 # one Solver (its table) per thread
    cdef readonly object obs, masks, rewards, terminated, truncated, reasons, steps, winners
    cdef readonly object movers, move_reasons   # play(): the seat that moved, its D6 code
    cdef float[:, :, :, ::1] obs_v
    cdef int8_t[:, ::1] mask_v
    cdef double[::1] reward_v
    cdef uint8_t[::1] term_v, trunc_v
    cdef int8_t[::1] reason_v, winner_v
    cdef int32_t[::1] steps_v
    cdef int8_t[::1] mover_v, move_reason_v

    def __init__(self, int num_envs, object rules, object bot_spec, int seat, int max_steps=0,
                 object num_threads=None):
        cdef DohRulesC r
        if num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, not {num_envs}")
        load_rules(&r, rules)
        if not 0 <= seat < r.players:
            raise ValueError(f"seat must be 0 to {r.players - 1}, not {seat}")
        if max_steps < 0:
            raise ValueError(f"max_steps must be >= 0 (0: never truncate), not {max_steps}")
        self.num_envs, self.pieces_per_size, self.grid = num_envs, r.pieces_per_size, r.grid
        self.players, self.seat, self.max_steps = r.players, seat, max_steps
        self.rules = rules                  # checked: every thread's Solver takes it
        self.loss = -1.0 / (r.players - 1)
        self.tables = NULL
        self.greedy = NULL
        self.autoreset = True
        self.set_threads(num_threads)
        self.set_bot(bot_spec)
        self.envs = <Env*>calloc(num_envs, sizeof(Env))
        if self.envs == NULL:
            raise MemoryError("cannot allocate the batch")
        self.obs = np.zeros((num_envs, N_PLANES, 3, 3), dtype=np.float32)
        self.masks = np.zeros((num_envs, DOH_ACTIONS), dtype=np.int8)
        self.rewards = np.zeros(num_envs, dtype=np.float64)
        self.terminated = np.zeros(num_envs, dtype=bool)
        self.truncated = np.zeros(num_envs, dtype=bool)
        self.reasons = np.full(num_envs, -1, dtype=np.int8)
        self.winners = np.full(num_envs, DOH_ONGOING, dtype=np.int8)
        self.steps = np.zeros(num_envs, dtype=np.int32)
        self.movers = np.full(num_envs, -1, dtype=np.int8)
        self.move_reasons = np.full(num_envs, -1, dtype=np.int8)
        self.mover_v = self.movers
        self.move_reason_v = self.move_reasons
        self.obs_v = self.obs
        self.mask_v = self.masks
        self.reward_v = self.rewards
        self.term_v = self.terminated.view(np.uint8)
        self.trunc_v = self.truncated.view(np.uint8)
        self.reason_v = self.reasons
        self.winner_v = self.winners
        self.steps_v = self.steps

    def __dealloc__(self):
        free(self.envs)
        free(self.tables)
        free(self.greedy)

    def set_threads(self, num_threads=None):
        """Threads of the step (default: one, as Rift's batch and every env face: every
        core with OpenMP's spinning wait collapses beside a busy neighbour, docs/rl.md
        "Threads"); results never depend on it."""
        cdef int i
        n = 1 if num_threads is None else num_threads
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"num_threads must be a positive integer, not {num_threads!r}")
        solvers = [Solver(self.rules) for _ in range(n)]
        cdef Table** tables = <Table**>calloc(n, sizeof(Table*))
        if tables == NULL:
            raise MemoryError("cannot allocate the tables")
        cdef GreedyCache** greedy = <GreedyCache**>calloc(n, sizeof(GreedyCache*))
        if greedy == NULL:
            free(tables)
            raise MemoryError("cannot allocate the greedy caches")
        for i in range(n):
            tables[i] = &(<Solver>solvers[i]).table
            greedy[i] = &(<Solver>solvers[i]).greedy
        free(self.tables)
        free(self.greedy)
        self.tables = tables
        self.greedy = greedy
        self.solvers = solvers
        self.nt = n

    @property
    def num_threads(self):
        return self.nt

    def set_bot(self, bot_spec):
        """Other bots from the next step on: one spec (kind, error, fallback) for every
        other seat, or a sequence of players - 1 (the other seats in seat order); None for
        an external seat (its moves come from play()). Checked in full before anything
        changes."""
        single = bot_spec is None or (isinstance(bot_spec, tuple) and len(bot_spec) == 3
                                      and not isinstance(bot_spec[0], (tuple, list)))
        if single:
            specs = [bot_spec] * (self.players - 1)
        elif isinstance(bot_spec, (tuple, list)) and len(bot_spec) == self.players - 1:
            specs = list(bot_spec)
        else:
            raise ValueError(f"bot_spec must be one spec or {self.players - 1} (one per other "
                             f"seat), not {bot_spec!r}")
        cdef Bots bots
        cdef int j, k = 0
        bots.seat = self.seat
        for j in range(SEATS_MAX):
            bots.spec[j] = make_spec((0, 0.0, 0))
            bots.salt[j] = 0
            bots.external[j] = 0
        for j in range(self.players):
            if j != self.seat:
                if specs[k] is None:
                    bots.external[j] = 1
                else:
                    bots.spec[j] = make_spec(specs[k])
                bots.salt[j] = k
                k += 1
        self.bots = bots

    cdef void _finish(self, Py_ssize_t i) noexcept nogil:
        """Rewards and flags of env i after its step (the agent's side)."""
        cdef Env* e = &self.envs[i]
        cdef int w = e.pos.winner
        self.winner_v[i] = w
        if w != DOH_ONGOING:
            self.term_v[i] = 1
            self.reward_v[i] = 0.0 if w == DOH_DRAW else (1.0 if w == self.seat else self.loss)
            e.done = 1
        elif self.max_steps > 0 and e.steps >= self.max_steps:
            self.trunc_v[i] = 1
            e.done = 1
        write_obs(&e.pos, &self.obs_v[i, 0, 0, 0], &self.mask_v[i, 0], self.seat)

    def reset(self, seeds, idx=None):
        """Envs (all, or the indices ``idx``) start the games of ``seeds`` (uint64, one
        per env reset)."""
        seeds, idx = reset_args(self.num_envs, seeds, idx)
        cdef uint64_t[::1] sv = seeds
        cdef int64_t[::1] iv = idx
        cdef Py_ssize_t k, i, n = iv.shape[0]
        with nogil:
            for k in range(n):
                i = iv[k]
                start_env(&self.envs[i], sv[k], self.pieces_per_size, self.grid, self.players,
                          self.tables[0], self.greedy[0], &self.bots)
                self.mover_v[i] = -1
                self.move_reason_v[i] = -1
                self.reward_v[i] = 0.0
                self.term_v[i] = 0
                self.trunc_v[i] = 0
                self.reason_v[i] = -1
                self.steps_v[i] = 0
                self._finish(i)

    def step(self, actions, reset_seeds):
        """One step of every env: ``actions`` int64 (N,) in 0..74 (checked), and
        ``reset_seeds`` uint64 (N,): the next game's seed of an env that ended at the
        last step (the others' entries are ignored)."""
        actions, reset_seeds = step_args(self.num_envs, actions, reset_seeds, DOH_ACTIONS)
        cdef int64_t[::1] av = actions
        cdef uint64_t[::1] rv = reset_seeds
        cdef Py_ssize_t i, n = self.num_envs
        cdef int nt = self.nt
        if nt == 1:
            with nogil:
                for i in range(n):
                    self._step_one(i, av[i], rv[i], self.tables[0], self.greedy[0], 1)
        else:
            for i in prange(n, nogil=True, num_threads=nt, schedule="static"):
                self._step_one(i, av[i], rv[i], self.tables[threadid()],
                               self.greedy[threadid()], 1)

    def play(self, actions, active, reset_seeds, bint count_step=True):
        """The seat to move plays ``actions[i]`` (int64 (N,)) in every env where
        ``active[i]`` (bool (N,)), whoever it is (an external seat, or self-play's every
        seat); then the bots move as in :meth:`step`. A rejected move ends the episode
        (the mover loses: the agent's reward is -1 if it was the agent's, else
        1/(players - 1)). ``count_step``: the move counts toward ``max_steps`` (an
        external opponent's does not). ``movers``/``move_reasons`` say who moved and how
        it went (-1: the env did not move, or restarted)."""
        actions, reset_seeds = step_args(self.num_envs, actions, reset_seeds, DOH_ACTIONS)
        act = np.ascontiguousarray(active, dtype=bool)
        if act.shape != (self.num_envs,):
            raise ValueError(f"active must be {self.num_envs} bools, not {act.shape}")
        cdef int64_t[::1] av = actions
        cdef uint64_t[::1] rv = reset_seeds
        cdef uint8_t[::1] on = act.view(np.uint8)
        cdef Py_ssize_t i, n = self.num_envs
        with nogil:
            for i in range(n):
                if on[i]:
                    self._step_one(i, av[i], rv[i], self.tables[0], self.greedy[0],
                                   count_step)
                else:
                    self.mover_v[i] = -1
                    self.move_reason_v[i] = -1

    cdef void _step_one(self, Py_ssize_t i, int64_t action, uint64_t reset_seed,
                        Table* t, GreedyCache* g, bint count) noexcept nogil:
        """One move of env i by the seat to move (step(): the agent; play(): any seat);
        ``count``: it counts toward max_steps."""
        cdef Env* e = &self.envs[i]
        cdef int why, mover = e.pos.to_move
        self.reward_v[i] = 0.0
        self.term_v[i] = 0
        self.trunc_v[i] = 0
        self.mover_v[i] = -1
        self.move_reason_v[i] = -1
        if e.done:
            if not self.autoreset:                   # DISABLED: nothing until reset
                self.reason_v[i] = -1
                return
            # NEXT_STEP autoreset: the action is ignored
            start_env(e, reset_seed, self.pieces_per_size, self.grid, self.players, t, g,
                      &self.bots)
            self.reason_v[i] = -1
            self.steps_v[i] = 0
            self._finish(i)
            return
        if count:
            e.steps += 1
            self.steps_v[i] = e.steps
        why = pos_reason(&e.pos, <int>action)
        self.mover_v[i] = mover
        self.move_reason_v[i] = why
        if mover == self.seat:
            self.reason_v[i] = why
        if why != 0:                                 # D6: the mover loses the episode
            self.reward_v[i] = -1.0 if mover == self.seat else -self.loss
            self.term_v[i] = 1
            e.done = 1
            self.winner_v[i] = e.pos.winner
            write_obs(&e.pos, &self.obs_v[i, 0, 0, 0], &self.mask_v[i, 0], self.seat)
            return
        pos_play(&e.pos, <int>action)
        bot_turns(e, t, g, &self.bots)
        self._finish(i)

    def waiting(self):
        """Per env, the external seat it waits on (its game goes on and that seat is to
        move), else -1; int8 (N,)."""
        out = np.full(self.num_envs, -1, dtype=np.int8)
        cdef int8_t[::1] ov = out
        cdef Py_ssize_t i
        cdef Env* e
        for i in range(self.num_envs):
            e = &self.envs[i]
            if (not e.done and e.pos.winner == DOH_ONGOING and e.pos.to_move != self.seat
                    and self.bots.external[e.pos.to_move]):
                ov[i] = e.pos.to_move
        return out

    def to_move(self):
        """Per env, the seat to move, -1 once its game is over; int8 (N,)."""
        out = np.full(self.num_envs, -1, dtype=np.int8)
        cdef int8_t[::1] ov = out
        cdef Py_ssize_t i
        for i in range(self.num_envs):
            if self.envs[i].pos.winner == DOH_ONGOING:
                ov[i] = self.envs[i].pos.to_move
        return out

    def observe(self, int seat, obs_out, mask_out):
        """Every env's observation and mask from ``seat``'s side, written into
        ``obs_out`` (float32 (N, 15, 3, 3), each row contiguous) and ``mask_out`` (int8
        (N, 75))."""
        if not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0 to {self.players - 1}, not {seat}")
        cdef float[:, :, :, ::1] ov = obs_out
        cdef int8_t[:, ::1] mv = mask_out
        if ov.shape[0] != self.num_envs or mv.shape[0] != self.num_envs:
            raise ValueError(f"observe writes {self.num_envs} rows")
        cdef Py_ssize_t i
        with nogil:
            for i in range(self.num_envs):
                write_obs(&self.envs[i].pos, &ov[i, 0, 0, 0], &mv[i, 0], seat)

    def get_state(self):
        """Every env (its position, bots' seed, steps, flags) and the last step's
        buffers: set_state on a batch of the same size and rules continues identically."""
        return snapshot_state(self, (<char*>self.envs)[:self.num_envs * sizeof(Env)], _BUFFERS)

    def set_state(self, state):
        """Resume a :meth:`get_state` snapshot (ValueError for another batch's)."""
        raw = restore_state(self, state, self.num_envs * sizeof(Env), _BUFFERS)
        cdef const unsigned char[::1] src = raw
        memcpy(self.envs, &src[0], len(raw))

    def position_keys(self):
        """Each env's position key (engine.pos_key; engine.Position.from_key rebuilds it
        with the batch's rules and players), uint64 (N,)."""
        out = np.empty(self.num_envs, dtype=np.uint64)
        cdef uint64_t[::1] ov = out
        cdef Py_ssize_t i
        for i in range(self.num_envs):
            ov[i] = pos_key(&self.envs[i].pos)
        return out

    def done(self):
        """Which envs ended at the last step (they restart at the next), bool (N,)."""
        out = np.zeros(self.num_envs, dtype=bool)
        cdef uint8_t[::1] ov = out.view(np.uint8)
        cdef Py_ssize_t i
        for i in range(self.num_envs):
            ov[i] = self.envs[i].done
        return out

    def sample_actions(self, uint64_t seed):
        """A uniformly random legal action per env (int64 (N,)) from the stream
        mix64(seed + i) of env i; 0 for an env whose game is over (any action will do:
        it is ignored, or rejected)."""
        out = np.zeros(self.num_envs, dtype=np.int64)
        cdef int64_t[::1] ov = out
        cdef Py_ssize_t i
        cdef uint64_t rng
        with nogil:
            for i in range(self.num_envs):
                if self.envs[i].pos.winner == DOH_ONGOING and self.envs[i].pos.to_move == self.seat:
                    rng = mix64(seed + <uint64_t>i)
                    ov[i] = random_action(&self.envs[i].pos, &rng)
        return out
