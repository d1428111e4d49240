# cython: language_level=3
# The batched RL stepper of Rift & Grid: N games stepped together in one nogil call
# (docs/rift.md, "RL"). Observations, masks, rewards and flags are NumPy buffers written
# in place. Each env owns its state, its locks and its bot's stream, so a step's results
# never depend on the number of threads (prange, when OpenMP is there), and they equal
# the protocol envs' (tictacblitz.envs.GameEnv / GameParallelEnv) for the same match
# seed: the bot of a game of seed s is seeded mix64(s), as GameEnv seeds it.
#
# Two ways to step:
#   - step(actions, reset_seeds): the agent's seat against the native bot (the Gymnasium
#     faces). The bot chooses first from the turn's state (as GameEnv asks it before
#     apply_joint), then both moves are checked: a rejected agent move (G5) ends the
#     episode with reward -1 (the bot's move stays locked, as the protocol's apply_joint
#     leaves it); else the turn resolves (G6); at the end +1 / -1 / 0 from the agent's
#     side. An env that ended at the previous step restarts on reset_seeds[i]
#     (Gymnasium's NEXT_STEP autoreset; reward 0, reason -1).
#   - step_joint(x, o): both seats are agents (the PettingZoo face): -1 for a seat that
#     does not act; a locked seat's entry is ignored; a rejected move ends the episode
#     (-1 for its seat, +1 for the other), as GameParallelEnv does.
# max_steps > 0: truncated once the episode has that many steps.
#
# Issue 28 (every game the same faces): step_joint also serves a callable opponent and
# self-play (reset_seeds: NEXT_STEP autoreset as step's); autoreset False leaves an ended
# env alone until reset (Gymnasium's DISABLED); an ended game's mask has one legal action,
# NOOP (code 0), which is ignored; get_state/set_state copy every env and buffer.

from libc.stdint cimport uint64_t, int64_t, int32_t, int16_t, int8_t, uint8_t, uint16_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset, memcpy
from cython.parallel cimport prange, threadid

from blitz_core.common.bits cimport lowest
from blitz_core.common.rng cimport mix64
from blitz_core.rift.engine cimport (
    RiftState, RiftRulesC, TurnReport, SearchPool, rift_reset, rift_rejection, rift_targets,
    rift_abilities, rift_resolve, rift_policy, rift_load_rules, rift_pool_free,
    N_CELLS, N_ACTIONS, N_ABILITIES, RESULT_NONE, RESULT_DRAW,
)

import os

import numpy as np

from blitz_core.common.batch_args import (joint_args, reset_args, restore_state, snapshot_state,
                                          step_args)

cdef enum:
    OBS_SIZE = 513                # game.OBSERVATION_SIZE (its OBS_* offsets below)
    OBS_CELLS = 0
    OBS_SECTORS = 324
    OBS_ACTIVE = 360
    OBS_TARGETS = 370
    OBS_SCALARS = 451
    OBS_OBJECTIVES = 464
    OBS_HIDDEN = 512
    NOOP_CODE = 0                 # the one legal action of an ended game (ignored)

OBSERVATION_SIZE = OBS_SIZE
NUM_ACTIONS = N_ACTIONS
NOOP = NOOP_CODE
_BUFFERS = ("obs", "masks", "obs_other", "masks_other", "rewards", "rewards_other",
            "terminated", "truncated", "reasons", "reasons_other", "steps", "winners")
OFFSETS = {"OBS_CELLS": OBS_CELLS, "OBS_SECTORS": OBS_SECTORS, "OBS_ACTIVE": OBS_ACTIVE,
           "OBS_TARGETS": OBS_TARGETS, "OBS_SCALARS": OBS_SCALARS,
           "OBS_OBJECTIVES": OBS_OBJECTIVES, "OBS_HIDDEN": OBS_HIDDEN}
"""The observation layout, tied to game.py's OBS_* constants by a test."""


ctypedef struct Env:
    RiftState st
    uint64_t bot_rng              # the bot's stream, seeded mix64(match seed)
    int16_t locked[2]             # a locked move's code per seat, -1 for none
    int32_t steps
    uint8_t done                  # the episode ended at the last step (reset at the next)


cdef void write_obs(const Env* e, const RiftRulesC* r, int me, float* obs,
                    int8_t* mask) noexcept nogil:
    """game.RiftState.observation(me) and legal_mask(me), written natively."""
    cdef const RiftState* st = &e.st
    cdef int s, q, v, a, k, j, seat, base, code, at, hidden = 0, am
    cdef uint16_t targets[9]
    cdef uint16_t m
    cdef double top = r.energy_max if r.energy_max > 1 else 1
    cdef int other = 1 - me
    memset(obs, 0, OBS_SIZE * sizeof(float))
    memset(mask, 0, N_ACTIONS)
    for s in range(9):
        for q in range(9):
            v = 0
            if (st.cells[0][s] >> q) & 1:
                v = 1
            elif (st.cells[1][s] >> q) & 1:
                v = 2
            elif (st.cells[2][s] >> q) & 1:
                v = 3
            if me == 1 and (v == 1 or v == 2):
                v = 3 - v
            obs[OBS_CELLS + 4 * (9 * s + q) + v] = 1.0
        v = 1 if (st.won[0] >> s) & 1 else 2 if (st.won[1] >> s) & 1 else \
            3 if (st.tied >> s) & 1 else 0
        if me == 1 and (v == 1 or v == 2):
            v = 3 - v
        obs[OBS_SECTORS + 4 * s + v] = 1.0
    if not st.over:
        obs[OBS_ACTIVE + (9 if st.active < 0 else st.active)] = 1.0
        rift_targets(st, targets)
        am = rift_abilities(st, r, me)
        for s in range(9):
            m = targets[s]
            while m:
                q = lowest(m)
                m &= m - 1
                obs[OBS_TARGETS + 9 * s + q] = 1.0
                for a in range(N_ABILITIES):
                    if (am >> a) & 1:
                        mask[N_CELLS * a + 9 * s + q] = 1
    obs[OBS_SCALARS + 0] = <float>(st.energy[me] / top)
    obs[OBS_SCALARS + 1] = <float>(st.energy[other] / top)
    k = 2
    for j in range(2):
        seat = me if j == 0 else other
        for a in range(1, N_ABILITIES):
            v = st.ready[seat][a] - st.turn
            obs[OBS_SCALARS + k] = <float>((v if v > 0 else 0) / 10.0)
            k += 1
    obs[OBS_SCALARS + 8] = <float>(st.score[me] / 100.0)
    obs[OBS_SCALARS + 9] = <float>(st.score[other] / 100.0)
    obs[OBS_SCALARS + 10] = <float>(st.turn / 81.0)
    obs[OBS_SCALARS + 11] = 1.0 if e.locked[me] >= 0 else 0.0
    obs[OBS_SCALARS + 12] = 1.0 if e.locked[other] >= 0 else 0.0
    for j in range(2):
        seat = me if j == 0 else other
        base = 0 if j == 0 else 2
        for k in range(st.hand_n):
            code = st.hand[seat][k]
            at = OBS_OBJECTIVES + 4 * code + base
            if seat == me or (st.accomplished[seat] >> k) & 1 or (st.revealed[seat] >> k) & 1:
                obs[at] = 1.0
                obs[at + 1] = 1.0 if (st.accomplished[seat] >> k) & 1 else 0.0
            else:
                hidden += 1
    obs[OBS_HIDDEN] = <float>(hidden / <double>(r.per_player if r.per_player > 1 else 1))
    if st.over:
        mask[NOOP_CODE] = 1                               # issue 28: never an empty mask


cdef class RiftBatch:
    """N games of Rift & Grid stepped together (see the module comment).

    :param num_envs: N.
    :param rules: ``RiftRules.native_params()``.
    :param bot_spec: ``(kind, error_rate, simulations)``: the native bot (BotSpec.native()).
    :param seat: the agent's seat for :meth:`step` (0 X, 1 O).
    :param max_steps: truncate after this many steps (0: never).
    :param num_threads: threads of a step (None: 1).
    """

    cdef Env* envs
    cdef SearchPool* pools                # one per thread (the search bot's tree)
    cdef RiftRulesC r
    cdef public bint autoreset            # False: an ended env waits for reset (DISABLED)
    cdef readonly int num_envs
    cdef readonly int seat
    cdef readonly int max_steps
    cdef int nt
    cdef int kind, sims
    cdef double error
    cdef readonly object obs, masks, obs_other, masks_other, rewards, rewards_other
    cdef readonly object terminated, truncated, reasons, reasons_other, steps, winners
    cdef float[:, ::1] obs_v, obs2_v
    cdef int8_t[:, ::1] mask_v, mask2_v
    cdef float[::1] reward_v, reward2_v
    cdef uint8_t[::1] term_v, trunc_v
    cdef int8_t[::1] reason_v, reason2_v, winner_v
    cdef int32_t[::1] steps_v

    def __init__(self, int num_envs, rules, bot_spec, int seat=0, int max_steps=0,
                 num_threads=None):
        if num_envs < 1:
            raise ValueError(f"num_envs must be >= 1, not {num_envs}")
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, not {seat}")
        if max_steps < 0:
            raise ValueError(f"max_steps must be >= 0, not {max_steps}")
        rift_load_rules(&self.r, rules)
        self.autoreset = True
        self.set_bot(bot_spec)
        self.num_envs = num_envs
        self.seat = seat
        self.max_steps = max_steps
        self.envs = <Env*>calloc(num_envs, sizeof(Env))
        if self.envs == NULL:
            raise MemoryError()
        self.obs = np.zeros((num_envs, OBS_SIZE), dtype=np.float32)
        self.obs_other = np.zeros((num_envs, OBS_SIZE), dtype=np.float32)
        self.masks = np.zeros((num_envs, N_ACTIONS), dtype=np.int8)
        self.masks_other = np.zeros((num_envs, N_ACTIONS), dtype=np.int8)
        self.rewards = np.zeros(num_envs, dtype=np.float32)
        self.rewards_other = np.zeros(num_envs, dtype=np.float32)
        self.terminated = np.zeros(num_envs, dtype=np.bool_)
        self.truncated = np.zeros(num_envs, dtype=np.bool_)
        self.reasons = np.full(num_envs, -1, dtype=np.int8)
        self.reasons_other = np.full(num_envs, -1, dtype=np.int8)
        self.steps = np.zeros(num_envs, dtype=np.int32)
        self.winners = np.full(num_envs, -2, dtype=np.int8)
        self.obs_v = self.obs
        self.obs2_v = self.obs_other
        self.mask_v = self.masks
        self.mask2_v = self.masks_other
        self.reward_v = self.rewards
        self.reward2_v = self.rewards_other
        self.term_v = self.terminated.view(np.uint8)
        self.trunc_v = self.truncated.view(np.uint8)
        self.reason_v = self.reasons
        self.reason2_v = self.reasons_other
        self.steps_v = self.steps
        self.winner_v = self.winners
        self.set_threads(num_threads)

    def __dealloc__(self):
        cdef int i
        if self.pools != NULL:
            for i in range(self.nt):
                rift_pool_free(&self.pools[i])
            free(self.pools)
        free(self.envs)

    def set_threads(self, num_threads=None):
        """Threads of a step (None: 1); results never depend on it."""
        cdef int n = 1 if num_threads is None else int(num_threads)
        cdef int i
        if n < 1:
            raise ValueError(f"num_threads must be >= 1, not {num_threads!r}")
        n = min(n, os.cpu_count() or 1, self.num_envs)
        pools = <SearchPool*>calloc(n, sizeof(SearchPool))
        if pools == NULL:
            raise MemoryError()
        if self.pools != NULL:
            for i in range(self.nt):
                rift_pool_free(&self.pools[i])
            free(self.pools)
        self.pools = pools
        self.nt = n

    @property
    def num_threads(self):
        return self.nt

    def set_bot(self, bot_spec):
        """Another bot ``(kind, error_rate, simulations)`` from the next step on."""
        kind, error, sims = bot_spec
        if kind not in (0, 1, 2, 3, 4, 5):
            raise ValueError(f"bot kind {kind!r}: expected 0-5")
        if not 0.0 <= error <= 1.0:
            raise ValueError(f"bot error_rate {error!r} is outside 0-1")
        if not 0 <= sims <= 1_000_000 or (kind in (3, 4) and sims < 1):
            raise ValueError(f"bot simulations {sims!r}: expected 1-1000000 for a search")
        self.kind, self.error, self.sims = kind, error, sims

    # -- one env ---------------------------------------------------------------------------
    cdef void _start(self, Env* e, uint64_t seed) noexcept nogil:
        rift_reset(&e.st, &self.r, seed)
        e.bot_rng = mix64(seed)
        e.locked[0] = e.locked[1] = -1
        e.steps = 0
        e.done = 0

    cdef void _write(self, Py_ssize_t i) noexcept nogil:
        cdef Env* e = &self.envs[i]
        write_obs(e, &self.r, self.seat, &self.obs_v[i, 0], &self.mask_v[i, 0])
        write_obs(e, &self.r, 1 - self.seat, &self.obs2_v[i, 0], &self.mask2_v[i, 0])
        self.winner_v[i] = -2 if e.st.result == RESULT_NONE else \
            (-1 if e.st.result == RESULT_DRAW else e.st.result)

    cdef void _clear(self, Py_ssize_t i) noexcept nogil:
        self.reward_v[i] = 0.0
        self.reward2_v[i] = 0.0
        self.term_v[i] = 0
        self.trunc_v[i] = 0

    cdef int _lock(self, Env* e, int p, int code) noexcept nogil:
        """Lock seat p's move unless rejected; returns G5's code (0 accepted)."""
        cdef int why = rift_rejection(&e.st, &self.r, p, code % N_CELLS, code // N_CELLS)
        if why == 0:
            e.locked[p] = <int16_t>code
        return why

    cdef void _resolve_if_locked(self, Env* e) noexcept nogil:
        cdef TurnReport rep
        cdef int x = e.locked[0], o = e.locked[1]
        if x >= 0 and o >= 0:
            rift_resolve(&e.st, &self.r, x % N_CELLS, x // N_CELLS, o % N_CELLS, o // N_CELLS,
                         &rep)
            e.locked[0] = e.locked[1] = -1

    cdef void _end_flags(self, Py_ssize_t i, bint rejected) noexcept nogil:
        """Rewards and flags after a step with no rejection (the game's end, truncation)."""
        cdef Env* e = &self.envs[i]
        cdef int res = e.st.result
        if rejected:
            return
        if e.st.over:
            self.term_v[i] = 1
            e.done = 1
            if res != RESULT_DRAW:
                self.reward_v[i] = 1.0 if res == self.seat else -1.0
                self.reward2_v[i] = -self.reward_v[i]
        elif self.max_steps > 0 and e.steps >= self.max_steps:
            self.trunc_v[i] = 1
            e.done = 1

    cdef bint _restart_if_done(self, Py_ssize_t i, uint64_t seed) noexcept nogil:
        """Env i if its episode ended at the last step: NEXT_STEP autoreset starts the
        game of ``seed``, DISABLED leaves it until reset(); True then (the step does
        nothing more)."""
        cdef Env* e = &self.envs[i]
        if not e.done:
            return False
        self.reason_v[i] = -1
        self.reason2_v[i] = -1
        if self.autoreset:
            self._start(e, seed)
            self.steps_v[i] = 0
            self._write(i)
        return True

    cdef void _step_one(self, Py_ssize_t i, int64_t action, uint64_t reset_seed,
                        SearchPool* pool) noexcept nogil:
        cdef Env* e = &self.envs[i]
        cdef int why, other = 1 - self.seat, bot
        self._clear(i)
        if self._restart_if_done(i, reset_seed):     # the action is ignored
            return
        bot = rift_policy(&e.st, &self.r, other, self.kind, self.error, &e.bot_rng,
                          self.sims, pool)
        e.steps += 1
        self.steps_v[i] = e.steps
        why = self._lock(e, self.seat, <int>action)
        self._lock(e, other, bot)
        self.reason_v[i] = why
        self.reason2_v[i] = 0
        if why != 0:                                 # G5: the agent loses the episode
            self.reward_v[i] = -1.0
            self.reward2_v[i] = 1.0
            self.term_v[i] = 1
            e.done = 1
        else:
            self._resolve_if_locked(e)
        self._end_flags(i, why != 0)
        self._write(i)

    cdef void _joint_one(self, Py_ssize_t i, int64_t xa, int64_t oa, bint restart,
                         uint64_t reset_seed) noexcept nogil:
        cdef Env* e = &self.envs[i]
        cdef int why[2]
        cdef int64_t act[2]
        cdef int p
        cdef bint rejected = False
        self._clear(i)
        if restart and self._restart_if_done(i, reset_seed):
            return
        act[0] = xa
        act[1] = oa
        for p in range(2):
            why[p] = -1
            if act[p] >= 0 and e.locked[p] < 0 and not e.st.over:
                why[p] = self._lock(e, p, <int>act[p])
        e.steps += 1
        self.steps_v[i] = e.steps
        self.reason_v[i] = why[0]                    # per seat X, O here
        self.reason2_v[i] = why[1]
        for p in range(2):
            if why[p] > 0:                           # the mover loses (GameParallelEnv)
                rejected = True
                if p == self.seat:
                    self.reward_v[i] -= 1.0
                    self.reward2_v[i] += 1.0
                else:
                    self.reward2_v[i] -= 1.0
                    self.reward_v[i] += 1.0
        if rejected:
            self.term_v[i] = 1
            e.done = 1
        else:
            self._resolve_if_locked(e)
        self._end_flags(i, rejected)
        self._write(i)

    # -- the batch -------------------------------------------------------------------------
    def reset(self, seeds, idx=None):
        """Envs (all, or the indices ``idx``) start the games of ``seeds`` (uint64, one per
        env reset)."""
        seeds, idx = reset_args(self.num_envs, seeds, idx)
        cdef uint64_t[::1] sv = seeds
        cdef int64_t[::1] iv = idx
        cdef Py_ssize_t k, i, n = iv.shape[0]
        with nogil:
            for k in range(n):
                i = iv[k]
                self._start(&self.envs[i], sv[k])
                self._clear(i)
                self.reason_v[i] = -1
                self.reason2_v[i] = -1
                self.steps_v[i] = 0
                self._write(i)

    def step(self, actions, reset_seeds):
        """One step of every env against the bot: ``actions`` int64 (N,) in 0..323
        (checked), ``reset_seeds`` uint64 (N,): the next game's seed of an env that ended
        at the last step (the others' entries are ignored)."""
        actions, reset_seeds = step_args(self.num_envs, actions, reset_seeds, N_ACTIONS)
        cdef int64_t[::1] av = actions
        cdef uint64_t[::1] rv = reset_seeds
        cdef Py_ssize_t i, n = self.num_envs
        cdef int nt = self.nt
        if nt == 1:
            with nogil:
                for i in range(n):
                    self._step_one(i, av[i], rv[i], &self.pools[0])
        else:
            for i in prange(n, nogil=True, num_threads=nt, schedule="static"):
                self._step_one(i, av[i], rv[i], &self.pools[threadid()])

    def step_joint(self, x_actions, o_actions, reset_seeds=None):
        """One step of every env with both seats agents: int64 (N,) each, -1 for a seat
        that does not act (a locked seat's entry is ignored). ``reasons``/``rewards``
        then hold X's side and ``reasons_other``/``rewards_other`` O's when the batch's
        seat is 0 (swapped when it is 1). ``reset_seeds`` (uint64 (N,)): an env that
        ended at the last step restarts on its entry (NEXT_STEP, as :meth:`step`); None
        (the PettingZoo face): never."""
        x_actions, o_actions, seeds = joint_args(self.num_envs, x_actions, o_actions,
                                                 reset_seeds, N_ACTIONS)
        cdef int64_t[::1] xv = x_actions
        cdef int64_t[::1] ov = o_actions
        cdef uint64_t[::1] rv = seeds
        cdef bint restart = reset_seeds is not None
        cdef Py_ssize_t i, n = self.num_envs
        with nogil:
            for i in range(n):
                self._joint_one(i, xv[i], ov[i], restart, rv[i])

    def get_state(self):
        """Every env (its state, locks, bot stream, steps, flags) and the last step's
        buffers: set_state on a batch of the same size and rules continues identically."""
        return snapshot_state(self, (<char*>self.envs)[:self.num_envs * sizeof(Env)], _BUFFERS)

    def set_state(self, state):
        """Resume a :meth:`get_state` snapshot (ValueError for another batch's)."""
        raw = restore_state(self, state, self.num_envs * sizeof(Env), _BUFFERS)
        cdef const unsigned char[::1] src = raw
        memcpy(self.envs, &src[0], len(raw))

    def done(self):
        """Which envs ended at the last step (they restart at the next), bool (N,)."""
        out = np.zeros(self.num_envs, dtype=bool)
        cdef uint8_t[::1] dv = out.view(np.uint8)
        cdef Py_ssize_t i
        for i in range(self.num_envs):
            dv[i] = self.envs[i].done
        return out

    def locked(self, Py_ssize_t i):
        """Env i's locked moves ``(x, o)`` (None for a seat not locked)."""
        if not 0 <= i < self.num_envs:
            raise ValueError(f"env index {i} out of range")
        return tuple(None if self.envs[i].locked[p] < 0 else self.envs[i].locked[p]
                     for p in range(2))

    def state_bytes(self, Py_ssize_t i):
        """Env i's RiftState, as ``engine.Core.state_bytes`` gives it (for rendering)."""
        if not 0 <= i < self.num_envs:
            raise ValueError(f"env index {i} out of range")
        return (<char*>&self.envs[i].st)[:sizeof(RiftState)]

    def sample_actions(self, uint64_t seed):
        """A uniformly random legal action of the agent per env (int64 (N,)) from the
        stream mix64(seed + i) of env i; 0 for an env whose game is over."""
        out = np.zeros(self.num_envs, dtype=np.int64)
        cdef int64_t[::1] av = out
        cdef Py_ssize_t i
        cdef uint64_t rng
        with nogil:
            for i in range(self.num_envs):
                if not self.envs[i].st.over:
                    rng = mix64(seed + <uint64_t>i)
                    av[i] = rift_policy(&self.envs[i].st, &self.r, self.seat, 0, 0.0, &rng, 0,
                                        NULL)
        return out
