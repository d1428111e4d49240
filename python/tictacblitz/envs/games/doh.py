"""Tic Tac Doh's RL adapter: environments over its native batched stepper (docs/doh.md, "RL").

``tictacblitz.envs`` serves these for ``game="doh"`` through the adapter class,
:class:`DohVectorEnv` (``make_env``, ``make_vector_env``; ``parallel_env`` and
``aec_env`` are left to the protocol layer).

- :class:`DohVectorEnv`: a Gymnasium ``VectorEnv`` of N games, the agent's seat against
  native bots in the other seats (``players`` 2 to 4, D10: one bot name for all or one
  per seat), stepped in one ``nogil`` call (``blitz_core.doh.batch``, threads with
  OpenMP); masks included; every autoreset mode; opponents may be callables (a frozen
  network, ``fn(obs, mask) -> actions``); ``opponent=None`` is self-play (every seat of
  every game a row: :class:`DohSelfPlayVectorEnv`); snapshots (issue 28).
- :class:`DohEnv`: one game (``gymnasium.make("tictacblitz/Doh-v0")``), the same stepper
  with one env.
- PettingZoo: ``tictacblitz.envs.aec_env("doh")`` and ``parallel_env("doh")`` are the
  platform's protocol ``GameAECEnv`` and ``GameParallelEnv`` (every seat is an agent; in
  the parallel one only the seat to move acts).

Observations, rewards and flags are those of the protocol env
(``tictacblitz.envs.GameEnv``) for the same match seed: ``{"observation": float32
(15, 3, 3), "action_mask": int8 (75,)}`` (encoding.py), the agent's return at the end
(+1 a win, -1/(players-1) a loss, 0 a draw), a rejected move (D6) ends the episode with
-1. A game of seed ``s`` has the k-th other seat's bot seeded ``mix64(s) ^ k`` (the
first: ``mix64(s)``), as the protocol env seeds them; ``tests/doh/test_doh_rl.py`` holds
the two paths equal step by step.

>>> env = DohVectorEnv(4, opponent="greedy")
>>> obs, info = env.reset(seed=0)
>>> obs["observation"].shape, obs["action_mask"].sum(axis=1).tolist()
((4, 15, 3, 3), [3, 3, 3, 3])
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence, Tuple

import numpy as np

try:
    from gymnasium import spaces
except ImportError as exc:  # pragma: no cover - the `rl` extra is missing
    raise ImportError(
        "tictacblitz.envs.games.doh needs gymnasium (pip install 'tictacblitz[rl]')"
    ) from exc

from blitz_core.doh import batch as _native
from blitz_core.doh.engine import Position

from ...games.doh.bots import BOT_NAMES, bot_spec
from ...games.doh.encoding import NUM_ACTIONS, OBSERVATION_SHAPE
from ...games.doh.replay import position_summary
from ...games.doh.rules import DohRules
from ...games.doh.types import REASONS, SEATS
from ..native.options import observation_space as shared_observation_space
from ..native.options import reject_self_play_options, step_info
from ..native.vector import NativeSingleEnv, NativeVectorEnv, RowOutputs

__all__ = [
    "DohVectorEnv",
    "DohSelfPlayVectorEnv",
    "DohEnv",
    "observation_bounds",
    "observation_space",
    "info_of",
]


def observation_bounds(rules: Any = None) -> Tuple[float, float]:
    """The observation's true bounds: one-hot planes, the stash as a fraction of
    ``pieces_per_size`` and the to-move plane are all in [0, 1] (encoding.py)."""
    return (0.0, 1.0)


def observation_space(mask: bool = True) -> spaces.Dict:
    """One seat's observation space (the protocol env's: ``tictacblitz.envs.observation_space``)."""
    return shared_observation_space(OBSERVATION_SHAPE, NUM_ACTIONS, mask, observation_bounds())


def _opponent(name: Any) -> tuple:
    if name not in BOT_NAMES and not (isinstance(name, str) and ":" in name):  # a player spec
        raise ValueError(f"unknown opponent {name!r}: expected one of {', '.join(BOT_NAMES)}")
    return bot_spec(name)


def info_of(reason: int, steps: int, players: int = 2) -> Dict[str, Any]:
    """The protocol env's info of one step (:func:`~tictacblitz.envs.native.options.step_info`)."""
    return step_info(REASONS, reason, steps, players)


class DohVectorEnv(NativeVectorEnv):
    """``num_envs`` games of Tic Tac Doh as one Gymnasium ``VectorEnv`` (see the module).

    :param num_envs: N.
    :param opponent: the other seats' bots: a name of ``bots.BOT_NAMES`` (native) or a
        callable ``fn(obs, mask) -> actions`` (called with that seat's observation dict
        and bool mask over every game, returning one code a game; only the games where
        that seat is to move use theirs; a rejected move loses it the game) for all of
        them, or one per other seat; None: self-play (:class:`DohSelfPlayVectorEnv`)
        (:func:`~tictacblitz.envs.native.options.opponents_of`). With 3-4 players
        ``perfect`` and the presets built on it (``medium``, ``hard``) play the paranoid
        solver's moves for their own seat (docs/doh.md).
    :param seat: the agent's seat, 0 to ``players - 1`` or its name (``first`` ...).
    :param rules: a :class:`DohRules` or a mapping of overrides (``players`` among them).
    :param max_steps: truncate an episode after this many agent steps (None: never).
    :param mask_in_info: the mask in ``info["action_mask"]`` instead of the observation.
    :param num_threads: threads of a step (default 1; results never depend on it). A step
        of 1,024 envs is ~0.2 ms of work, so more threads pay off only for large batches
        on idle cores (docs/doh.md, "RL").
    :param copy: return copies (default) rather than the stepper's in-place buffers.
    :param seed: seeds the first :meth:`reset` (done here).
    :param autoreset_mode: Gymnasium's ``AutoresetMode`` (or its name): NEXT_STEP
        (default), SAME_STEP (``final_obs``/``final_info``) or DISABLED.

    Seeding, auto-reset and the info keys:
    :class:`~tictacblitz.envs.native.vector.NativeVectorEnv`.
    """

    rules_type = DohRules
    num_actions = NUM_ACTIONS
    bot_names = BOT_NAMES

    @classmethod
    def observation_bounds(cls, rules: Any = None) -> Tuple[float, float]:
        return observation_bounds(rules)

    def observation_space_of(self, mask: bool) -> spaces.Dict:
        return observation_space(mask)

    def seats_of(self, rules: DohRules) -> Sequence[str]:
        return SEATS[: rules.players]  # D10

    def make_batch(
        self, num_envs: int, bot: Any, seat: int, max_steps: int, num_threads: int
    ) -> Any:
        params = self.rules.native_params()
        return _native.DohBatch(num_envs, params, bot, seat, max_steps, num_threads)

    def bot_spec(self, name: str) -> tuple:
        return _opponent(name)

    def bots_spec_of(self, specs: Tuple[Any, ...]) -> List[Any]:
        return list(specs)

    # -- callable opponents and self-play (issue 28) --------------------------------------
    def _scratch(self) -> Tuple[np.ndarray, np.ndarray]:
        if not hasattr(self, "_seat_obs"):
            n = self.num_games
            self._seat_obs = np.zeros((n,) + OBSERVATION_SHAPE, dtype=np.float32)
            self._seat_mask = np.zeros((n, NUM_ACTIONS), dtype=np.int8)
        return self._seat_obs, self._seat_mask

    def _advance(self, actions: np.ndarray, reset_seeds: np.ndarray) -> None:
        if self.self_play:
            rows = actions.reshape(self.num_games, self.rows_per_game)
            movers = self.batch.to_move().astype(np.int64).clip(min=0)
            chosen = rows[np.arange(self.num_games), movers]
            self.batch.play(chosen, self._all_games(), reset_seeds, True)
            return
        self.batch.step(actions, reset_seeds)
        self._settle()

    def _all_games(self) -> np.ndarray:
        return np.ones(self.num_games, dtype=bool)

    def _settle(self) -> None:
        """The callable opponents move, in turn, until every game waits on the agent or
        is over (a native bot in between moves inside play)."""
        if not self._callables:
            return
        waiting = self.batch.waiting()
        zeros = np.zeros(self.num_games, dtype=np.uint64)
        while (waiting >= 0).any():
            moves = np.zeros(self.num_games, dtype=np.int64)
            obs, mask = self._scratch()
            for seat in np.unique(waiting[waiting >= 0]).tolist():
                self.batch.observe(seat, obs, mask)
                chosen = self._call(seat, {"observation": obs}, mask.astype(bool))
                moves[waiting == seat] = chosen[waiting == seat]
            self.batch.play(moves, waiting >= 0, zeros, False)
            waiting = self.batch.waiting()

    def _collect(self) -> RowOutputs:
        if not self.self_play:
            return super()._collect()
        b, n, k = self.batch, self.num_games, self.rows_per_game
        obs = np.empty((n, k) + OBSERVATION_SHAPE, dtype=np.float32)
        masks = np.empty((n, k, NUM_ACTIONS), dtype=np.int8)
        seat_obs, seat_mask = self._scratch()
        for seat in range(k):
            b.observe(seat, seat_obs, seat_mask)
            obs[:, seat], masks[:, seat] = seat_obs, seat_mask
        rewards = np.zeros((n, k))
        ended = b.terminated
        winners = b.winners.astype(np.int64)
        seats = np.arange(k)
        won = ended[:, None] & (winners[:, None] == seats)
        lost = ended[:, None] & (winners[:, None] >= 0) & ~won
        rewards[won] = 1.0
        rewards[lost] = -1.0 / (k - 1)
        movers = b.movers.astype(np.int64)
        rejected = b.move_reasons > 0
        if rejected.any():  # D6: the mover loses, the others share its loss
            at_fault = rejected[:, None] & (movers[:, None] == seats)
            rewards[rejected] = 1.0 / (k - 1)
            rewards[at_fault] = -1.0
        reasons = np.full((n, k), -1, dtype=np.int64)
        moved = movers >= 0
        reasons[moved, movers[moved]] = b.move_reasons[moved]
        rows: Dict[str, np.ndarray] = {"observation": obs.reshape((n * k,) + OBSERVATION_SHAPE)}
        self._row_masks = masks.reshape(n * k, NUM_ACTIONS)
        if not self.mask_in_info:
            rows["action_mask"] = self._row_masks
        return RowOutputs(
            rows,
            rewards.reshape(n * k),
            np.repeat(b.terminated, k),
            np.repeat(b.truncated, k),
            reasons.reshape(n * k),
            np.repeat(b.steps, k),
            np.repeat(b.winners, k),
        )

    def describe(self, i: int) -> str:
        return str(position_summary(self._position(int(self.batch.position_keys()[i]))))

    def _position(self, key: int) -> Position:
        return Position.from_key(key, self.rules.native_params())


def DohSelfPlayVectorEnv(num_games: int = 1, **options: Any) -> DohVectorEnv:
    """Self-play: ``num_games`` games whose every seat is the learner's, as a Gymnasium
    ``VectorEnv`` of ``players * num_games`` rows (row ``players * i + j`` is seat j of
    game i, its observation from that seat). A step plays the action of the row whose
    seat is to move; the other rows have the no-op alone in their mask
    (``NOOP_ACTION``) and their actions are ignored. Rewards per row at the end (+1 the
    winner, -1/(players-1) each loser; a rejected move: -1 its row, +1/(players-1) the
    others). Options: :class:`DohVectorEnv`'s but ``opponent`` and ``seat``."""
    reject_self_play_options(options, "every seat is the learner's")
    return DohVectorEnv(num_games, opponent=None, **options)


class DohEnv(NativeSingleEnv):
    """One game of Tic Tac Doh against bots (the stepper with one env); options as
    :class:`DohVectorEnv`'s. ``reset(seed=s)`` plays the game of seed ``s`` (the protocol
    env's ``GameEnv.reset(seed=s)``), its bots seeded as the protocol env's."""

    vector_type = DohVectorEnv
    reasons = REASONS

    @property
    def position(self) -> Position:
        """The current position (a copy), for inspection."""
        return self.vec._position(int(self.vec.batch.position_keys()[0]))


DohVectorEnv.single_env = DohEnv  # the adapter's one-game face (make_env)
