"""Rift & Grid's RL adapter: environments over its native batched stepper (docs/rift.md, "RL").

``tictacblitz.envs`` serves these for ``game="rift"`` through the adapter class,
:class:`RiftVectorEnv` (``make_env``, ``make_vector_env``, ``parallel_env``; the AEC face
is PettingZoo's ``parallel_to_aec`` over the parallel one).

- :class:`RiftVectorEnv`: a Gymnasium ``VectorEnv`` of N games, the agent's seat against
  a native bot (any preset, ``hard``'s search included), stepped in one ``nogil`` call
  (``blitz_core.rift.batch``, threads with OpenMP); masks included; every autoreset
  mode; the opponent may be a callable (a frozen network, ``fn(obs, mask) -> actions``);
  ``opponent=None`` is self-play (:class:`RiftSelfPlayVectorEnv`); snapshots (issue 28).
- :class:`RiftEnv`: one game (``gymnasium.make("tictacblitz/Rift-v0")``), the same
  stepper with one env.
- :class:`RiftParallelEnv`: both seats as agents, a PettingZoo ``ParallelEnv`` (the
  game is simultaneous: each step takes both seats' moves), on the same stepper.

Observations, rewards, flags and infos are those of the protocol envs
(``tictacblitz.envs.GameEnv``, ``GameParallelEnv``) for the same match seed: ``{"observation":
float32 (513,), "action_mask": int8 (324,)}`` (``game.OBS_*`` layout, the encoding of
:mod:`.encoding`), reward +1 / -1 / 0 at the end, a rejected move (G5) ends the episode
with -1 for its seat. A game of seed ``s`` has its bot seeded ``mix64(s)``, as the protocol
env seeds it; ``tests/test_rift_rl.py`` holds the paths equal step by step.

>>> env = RiftVectorEnv(4, opponent="greedy")
>>> obs, info = env.reset(seed=0)
>>> obs["observation"].shape, obs["action_mask"].sum(axis=1).tolist()  # 81 x 3 abilities
((4, 513), [243, 243, 243, 243])
"""

from __future__ import annotations

import json
from typing import Any, Dict, Optional, Tuple

import numpy as np

try:
    from gymnasium import spaces
except ImportError as exc:  # pragma: no cover - the `rl` extra is missing
    raise ImportError(
        "tictacblitz.envs.games.rift needs gymnasium (pip install 'tictacblitz[rl]')"
    ) from exc

from blitz_core.rift import batch as _native

from ...games.rift.bots import BOT_NAMES, resolve_bot
from ...games.rift.encoding import NUM_ACTIONS
from ...games.rift.game import GAME_TYPE, OBS_SCALARS, OBSERVATION_SIZE
from ...games.rift.native import NativeRift
from ...games.rift.rules import RiftRules
from ...games.rift.types import MAX_TURNS
from ..native.options import observation_space as shared_observation_space
from ..native.options import reject_self_play_options, rules_of
from ..native.vector import NativeSingleEnv, NativeVectorEnv, RowOutputs
from ._rift_info import REASONS, global_state, info_of

__all__ = [
    "RiftVectorEnv",
    "RiftSelfPlayVectorEnv",
    "observation_bounds",
    "global_state",
    "RiftEnv",
    "RiftParallelEnv",
    "observation_space",
    "info_of",
]

SEATS = GAME_TYPE.seat_names


def observation_bounds(rules: Any = None) -> Tuple[np.ndarray, np.ndarray]:
    """The observation's true bounds under ``rules`` (None: the defaults): one-hot and
    0/1 entries and the energy fractions in [0, 1]; a cooldown left (``/ 10``) at most
    the longest cooldown; a score (``/ 100``) at most every sector, meta line and
    objective's points; the turn (``/ 81``) at most 82/81 (the turn after the last)."""
    r = rules_of(RiftRules, rules)
    high = np.ones(OBSERVATION_SIZE, dtype=np.float32)
    at = OBS_SCALARS
    longest = max(r.shield_cooldown, r.swap_cooldown, r.reveal_cooldown)
    high[at + 2 : at + 8] = max(1.0, longest / 10.0)
    best = (
        9 * max(r.sector_win_points, r.sector_tie_points)
        + 8 * r.meta_line_points
        + sum(r.objective_points.values())
    )
    high[at + 8 : at + 10] = max(1.0, best / 100.0)
    high[at + 10] = (MAX_TURNS + 1) / MAX_TURNS
    return np.zeros(OBSERVATION_SIZE, dtype=np.float32), high


def observation_space(mask: bool = True, rules: Any = None) -> spaces.Dict:
    """One seat's observation space (the protocol env's), bounded by
    :func:`observation_bounds`."""
    bounds = observation_bounds(rules)
    return shared_observation_space((OBSERVATION_SIZE,), NUM_ACTIONS, mask, bounds)


def _opponent(name: Any) -> tuple:
    if name not in BOT_NAMES and not (isinstance(name, str) and ":" in name):  # a player spec
        raise ValueError(f"unknown opponent {name!r}: expected one of {', '.join(BOT_NAMES)}")
    return resolve_bot(name).native()


def _summary(rules: RiftRules, state: bytes) -> Dict[str, Any]:
    engine = NativeRift(rules, 0)
    engine.core.load_state_bytes(state)
    return engine.summary()


class RiftVectorEnv(NativeVectorEnv):
    """``num_envs`` games of Rift & Grid as one Gymnasium ``VectorEnv`` (see the module).

    :param num_envs: N.
    :param opponent: the other seat's bot, a name of ``bots.BOT_NAMES`` (native).
    :param seat: the agent's seat, 0 (X) or 1 (O).
    :param rules: a :class:`RiftRules` or a mapping of overrides.
    :param max_steps: truncate an episode after this many agent steps (None: never).
    :param mask_in_info: the mask in ``info["action_mask"]`` instead of the observation.
    :param num_threads: threads of a step (default 1; results never depend on it).
    :param copy: return copies (default) rather than the stepper's in-place buffers.
    :param seed: seeds the first :meth:`reset` (done here).

    Seeding, auto-reset and the info keys:
    :class:`~tictacblitz.envs.native.vector.NativeVectorEnv`.
    """

    rules_type = RiftRules
    seat_names = SEATS
    num_actions = NUM_ACTIONS

    @classmethod
    def observation_bounds(cls, rules: Any = None) -> Tuple[np.ndarray, np.ndarray]:
        return observation_bounds(rules)

    def observation_space_of(self, mask: bool) -> spaces.Dict:
        return observation_space(mask, self.rules)

    def make_batch(
        self, num_envs: int, bot: Any, seat: int, max_steps: int, num_threads: int
    ) -> Any:
        return _native.RiftBatch(
            num_envs, self.rules.native_params(), bot, seat, max_steps, num_threads
        )

    def bot_spec(self, name: str) -> tuple:
        return _opponent(name)

    def bots_spec_of(self, specs: Tuple[Any, ...]) -> Any:
        return _IDLE if specs[0] is None else specs[0]  # a callable's seat: step_joint

    # -- a callable opponent and self-play (issue 28): both seats through step_joint ------
    def _advance(self, actions: np.ndarray, reset_seeds: np.ndarray) -> None:
        b = self.batch
        if self.self_play:
            rows = actions.reshape(self.num_games, 2)
            b.step_joint(rows[:, 0], rows[:, 1], reset_seeds)
        elif self._callables:
            (other,) = self._callables
            theirs = self._call(other, {"observation": b.obs_other}, b.masks_other.astype(bool))
            x, o = (actions, theirs) if self.seat == 0 else (theirs, actions)
            b.step_joint(x, o, reset_seeds)
        else:
            b.step(actions, reset_seeds)

    def _collect(self) -> RowOutputs:
        b = self.batch
        if self.self_play:
            obs: Dict[str, np.ndarray] = {"observation": _rows(b.obs, b.obs_other)}
            self._row_masks = _rows(b.masks, b.masks_other)
            if not self.mask_in_info:
                obs["action_mask"] = self._row_masks
            return RowOutputs(
                obs,
                _rows(b.rewards, b.rewards_other).astype(np.float64),
                np.repeat(b.terminated, 2),
                np.repeat(b.truncated, 2),
                _rows(b.reasons, b.reasons_other),
                np.repeat(b.steps, 2),
                np.repeat(b.winners, 2),
            )
        out = super()._collect()
        if self._callables and self.seat == 1:  # step_joint's reasons are X's, then O's
            out.reasons = b.reasons_other
        return out

    def summary(self, i: int) -> Dict[str, Any]:
        """Env i's state as the replay result's ``state`` (``RiftState.summary``)."""
        return _summary(self.rules, self.batch.state_bytes(i))

    def describe(self, i: int) -> str:
        return json.dumps(self.summary(i), sort_keys=True)


_IDLE = (0, 0.0, 0)  # the native bot of a seat a callable plays (never asked)


def _rows(mine: np.ndarray, other: np.ndarray) -> np.ndarray:
    """Self-play rows: game i's X (the batch's seat 0) then its O."""
    return np.stack([mine, other], axis=1).reshape((-1,) + mine.shape[1:])


def RiftSelfPlayVectorEnv(num_games: int = 1, **options: Any) -> RiftVectorEnv:
    """Self-play: ``num_games`` games whose both seats are the learner's, as a Gymnasium
    ``VectorEnv`` of ``2 * num_games`` rows (row ``2 i`` is X of game i, ``2 i + 1`` its
    O, each with its own seat's observation, mask and reward; zero-sum within a game).
    Both moves of a game lock in one step (G6); a rejected move (G5) loses its seat the
    game. Options: :class:`RiftVectorEnv`'s but ``opponent`` and ``seat``."""
    reject_self_play_options(options, "both seats are the learner's")
    return RiftVectorEnv(num_games, opponent=None, **options)


class RiftEnv(NativeSingleEnv):
    """One game of Rift & Grid against a bot (the stepper with one env); options as
    :class:`RiftVectorEnv`'s. ``reset(seed=s)`` plays the game of seed ``s`` (the protocol
    env's ``GameEnv.reset(seed=s)``), its bot seeded ``mix64(s)``."""

    vector_type = RiftVectorEnv
    reasons = REASONS


def RiftParallelEnv(
    *,
    rules: Any = None,
    max_steps: Optional[int] = None,
    mask_in_info: bool = False,
    render_mode: Optional[str] = None,
    interval_ms: Optional[int] = None,
) -> Any:
    """Both seats of Rift & Grid as a PettingZoo ``ParallelEnv`` over the native stepper
    (:class:`~tictacblitz.envs.games._rift_parallel.RiftParallel`, the shared
    ``NativeParallelEnv``; ``GameParallelEnv``'s behaviour: agents ``"X"`` and ``"O"``; a
    seat whose action is missing does not act, and the turn resolves once both have
    locked a move; a rejected move ends the episode, -1 for its seat and +1 for the
    other). ``interval_ms`` is accepted for the generic signature and ignored (the game
    has no clock)."""
    from ._rift_parallel import RiftParallel  # pettingzoo: only for this face

    options = {"rules": rules, "max_steps": max_steps, "mask_in_info": mask_in_info}
    return RiftParallel.over(RiftVectorEnv, render_mode=render_mode, **options)


# The adapter's other faces (make_env, parallel_env), defined above it in this module.
RiftVectorEnv.single_env = RiftEnv
RiftVectorEnv.parallel_env = staticmethod(RiftParallelEnv)
