"""Tic Tac Doh's RL hook: environments over its native batched stepper (docs/doh.md, "RL").

``tictacblitz.envs`` serves these for ``game="doh"``: it looks for ``make_env`` and
``make_vector_env`` here (and the optional ``parallel_env`` and ``aec_env``, which Doh
leaves to the generic layer).

- :class:`DohVectorEnv`: a Gymnasium ``VectorEnv`` of N games, the agent's seat against
  native bots in the other seats (``players`` 2 to 4, D10: one bot name for all or one
  per seat), stepped in one ``nogil`` call (``blitz_core.doh.batch``, threads with
  OpenMP); masks included; Gymnasium's NEXT_STEP autoreset.
- :class:`DohEnv`: one game (``gymnasium.make("tictacblitz/Doh-v0")``), the same stepper
  with one env.
- PettingZoo: ``tictacblitz.envs.aec_env("doh")`` and ``parallel_env("doh")`` are the
  platform's protocol ``GameAECEnv`` and ``GameParallelEnv`` (every seat is an agent; in
  the parallel one only the seat to move acts; a game imports nothing above it, so this
  module defines neither).

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

try:
    from gymnasium import spaces
except ImportError as exc:  # pragma: no cover - the `rl` extra is missing
    raise ImportError(
        "tictacblitz.games.doh.rl needs gymnasium (pip install 'tictacblitz[rl]')"
    ) from exc

from blitz_core.doh import batch as _native
from blitz_core.doh.engine import Position

from ..native_vector import NativeSingleEnv, NativeVectorEnv, step_info
from ..native_vector import observation_space as shared_observation_space
from .bots import BOT_NAMES, bot_spec
from .encoding import NUM_ACTIONS, OBSERVATION_SHAPE
from .replay import position_summary
from .rules import DohRules
from .types import REASONS, SEATS

__all__ = [
    "DohVectorEnv",
    "DohEnv",
    "observation_space",
    "make_env",
    "make_vector_env",
    "info_of",
]


def observation_space(mask: bool = True) -> spaces.Dict:
    """One seat's observation space (the protocol env's: ``tictacblitz.envs.observation_space``)."""
    return shared_observation_space(OBSERVATION_SHAPE, NUM_ACTIONS, mask)


def _opponent(name: Any) -> tuple:
    if name not in BOT_NAMES and not (isinstance(name, str) and ":" in name):  # a player spec
        raise ValueError(f"unknown opponent {name!r}: expected one of {', '.join(BOT_NAMES)}")
    return bot_spec(name)


def info_of(reason: int, steps: int, players: int = 2) -> Dict[str, Any]:
    """The protocol env's info of one step (:func:`~tictacblitz.games.native_vector.step_info`)."""
    return step_info(REASONS, reason, steps, players)


class DohVectorEnv(NativeVectorEnv):
    """``num_envs`` games of Tic Tac Doh as one Gymnasium ``VectorEnv`` (see the module).

    :param num_envs: N.
    :param opponent: the other seats' bots: a name of ``bots.BOT_NAMES`` (native) for
        all of them, or one per other seat
        (:func:`~tictacblitz.games.native_vector.opponents_of`). With 3-4 players
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

    Seeding, auto-reset and the info keys:
    :class:`~tictacblitz.games.native_vector.NativeVectorEnv`.
    """

    rules_type = DohRules
    num_actions = NUM_ACTIONS
    bot_names = BOT_NAMES

    @classmethod
    def observation_space_of(cls, mask: bool) -> spaces.Dict:
        return observation_space(mask)

    def seats_of(self, rules: DohRules) -> Sequence[str]:
        return SEATS[: rules.players]  # D10

    def make_batch(
        self, num_envs: int, bot: Any, seat: int, max_steps: int, num_threads: int
    ) -> Any:
        grid = (self.rules.pieces_per_size, self.rules.grid)
        players = self.rules.players
        return _native.DohBatch(num_envs, *grid, bot, seat, max_steps, num_threads, players)

    def bot_spec(self, name: str) -> tuple:
        return _opponent(name)

    def bots_spec(self, names: Tuple[str, ...]) -> List[tuple]:
        return [self.bot_spec(name) for name in names]

    def describe(self, i: int) -> str:
        return str(position_summary(self._position(int(self.batch.position_keys()[i]))))

    def _position(self, key: int) -> Position:
        rules = self.rules
        return Position.from_key(key, rules.pieces_per_size, rules.grid, rules.players)


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


# -- the hook ------------------------------------------------------------------------------------


def make_env(**options: Any) -> DohEnv:
    """One seat against a bot (:class:`DohEnv`)."""
    return DohEnv(**options)


def make_vector_env(num_envs: int = 1, **options: Any) -> DohVectorEnv:
    """The native vector env (:class:`DohVectorEnv`)."""
    return DohVectorEnv(num_envs, **options)
