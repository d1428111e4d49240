"""Rift & Grid's RL hook: environments over its native batched stepper (docs/rift.md, "RL").

``tictacblitz.envs`` serves these for ``game="rift"``: it looks for ``make_env``,
``make_vector_env`` and ``parallel_env`` here (the AEC face is PettingZoo's
``parallel_to_aec`` over :func:`parallel_env`).

- :class:`RiftVectorEnv`: a Gymnasium ``VectorEnv`` of N games, the agent's seat against
  a native bot (any preset, ``hard``'s search included), stepped in one ``nogil`` call
  (``blitz_core.rift.batch``, threads with OpenMP); masks included; Gymnasium's
  NEXT_STEP autoreset.
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
from typing import Any, Dict, List, Optional

import numpy as np

try:
    from gymnasium import spaces
except ImportError as exc:  # pragma: no cover - the `rl` extra is missing
    raise ImportError(
        "tictacblitz.games.rift.rl needs gymnasium (pip install 'tictacblitz[rl]')"
    ) from exc

from blitz_core.rift import batch as _native

from ..native_vector import (
    NativeSingleEnv,
    NativeVectorEnv,
    check_count,
    rules_of,
    step_info,
)
from ..native_vector import observation_space as shared_observation_space
from .bots import BOT_NAMES, resolve_bot
from .encoding import NUM_ACTIONS
from .game import GAME_TYPE, OBSERVATION_SIZE
from .native import NativeRift
from .rules import RiftRules
from .types import Reason

__all__ = [
    "RiftVectorEnv",
    "RiftEnv",
    "RiftParallelEnv",
    "observation_space",
    "make_env",
    "make_vector_env",
    "parallel_env",
    "info_of",
]

REASONS = tuple(r.value for r in Reason)
SEATS = GAME_TYPE.seat_names


def observation_space(mask: bool = True) -> spaces.Dict:
    """One seat's observation space (the protocol env's)."""
    return shared_observation_space((OBSERVATION_SIZE,), NUM_ACTIONS, mask)


def _opponent(name: Any) -> tuple:
    if name not in BOT_NAMES and not (isinstance(name, str) and ":" in name):  # a player spec
        raise ValueError(f"unknown opponent {name!r}: expected one of {', '.join(BOT_NAMES)}")
    return resolve_bot(name).native()


def info_of(reason: int, steps: int) -> Dict[str, Any]:
    """The protocol env's info of one step (:func:`~tictacblitz.games.native_vector.step_info`)."""
    return step_info(REASONS, reason, steps)


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
    :class:`~tictacblitz.games.native_vector.NativeVectorEnv`.
    """

    rules_type = RiftRules
    seat_names = SEATS
    num_actions = NUM_ACTIONS

    @classmethod
    def observation_space_of(cls, mask: bool) -> spaces.Dict:
        return observation_space(mask)

    def make_batch(
        self, num_envs: int, bot: Any, seat: int, max_steps: int, num_threads: int
    ) -> Any:
        return _native.RiftBatch(num_envs, self.rules.native(), bot, seat, max_steps, num_threads)

    def bot_spec(self, name: str) -> tuple:
        return _opponent(name)

    def summary(self, i: int) -> Dict[str, Any]:
        """Env i's state as the replay result's ``state`` (``RiftState.summary``)."""
        return _summary(self.rules, self.batch.state_bytes(i))

    def describe(self, i: int) -> str:
        return json.dumps(self.summary(i), sort_keys=True)


class RiftEnv(NativeSingleEnv):
    """One game of Rift & Grid against a bot (the stepper with one env); options as
    :class:`RiftVectorEnv`'s. ``reset(seed=s)`` plays the game of seed ``s`` (the protocol
    env's ``GameEnv.reset(seed=s)``), its bot seeded ``mix64(s)``."""

    vector_type = RiftVectorEnv
    reasons = REASONS


def _pettingzoo() -> Any:
    try:
        import pettingzoo
    except ImportError:
        raise ImportError(
            "the PettingZoo environments need pettingzoo (pip install 'tictacblitz[rl]')"
        ) from None
    return pettingzoo


def RiftParallelEnv(
    *,
    rules: Any = None,
    max_steps: Optional[int] = None,
    mask_in_info: bool = False,
    render_mode: Optional[str] = None,
    interval_ms: Optional[int] = None,
) -> Any:
    """Both seats of Rift & Grid as a PettingZoo ``ParallelEnv`` over the native stepper
    (``GameParallelEnv``'s behaviour: agents ``"X"`` and ``"O"``; a seat whose action is
    missing does not act, and the turn resolves once both have locked a move; a rejected
    move ends the episode, -1 for its seat and +1 for the other). ``interval_ms`` is
    accepted for the generic signature and ignored (the game has no clock)."""
    pettingzoo = _pettingzoo()
    if render_mode is not None and render_mode != "ansi":
        raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
    game_rules = rules_of(RiftRules, rules)
    limit = check_count(max_steps, "max_steps", optional=True) or 0

    class _Parallel(pettingzoo.ParallelEnv):  # type: ignore[name-defined]
        metadata = {
            "render_modes": ["ansi"],
            "is_parallelizable": True,
            "render_fps": 4,
            "name": "tictacblitz_rift_v0",
        }

        def __init__(self) -> None:
            self.rules = game_rules
            self.render_mode = render_mode
            self.mask_in_info = mask_in_info
            self.max_steps = max_steps
            self.possible_agents: List[str] = list(SEATS)
            self.agents: List[str] = []
            self._space = observation_space(mask=not mask_in_info)
            self._actions = spaces.Discrete(NUM_ACTIONS)
            self.state_space = spaces.Box(-np.inf, np.inf, (OBSERVATION_SIZE,), np.float32)
            self.batch = _native.RiftBatch(1, game_rules.native(), (0, 0.0, 0), 0, limit, 1)
            self.batch.reset(np.zeros(1, dtype=np.uint64))

        def observation_space(self, agent: str) -> spaces.Space:
            return self._space

        def action_space(self, agent: str) -> spaces.Space:
            return self._actions

        def seat_of(self, agent: str) -> int:
            return self.possible_agents.index(agent)

        def _obs_of(self, seat: int) -> Dict[str, np.ndarray]:
            b = self.batch
            out = {"observation": (b.obs if seat == 0 else b.obs_other)[0].copy()}
            if not self.mask_in_info:
                out["action_mask"] = (b.masks if seat == 0 else b.masks_other)[0].copy()
            return out

        def _info_of(self, seat: int) -> Dict[str, Any]:
            b = self.batch
            info = info_of(int((b.reasons if seat == 0 else b.reasons_other)[0]), int(b.steps[0]))
            if self.mask_in_info:
                info["action_mask"] = (b.masks if seat == 0 else b.masks_other)[0].copy()
            return info

        def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
            self.batch.reset(np.array([0 if seed is None else int(seed)], dtype=np.uint64))
            self.agents = self.possible_agents[:]
            return (
                {a: self._obs_of(i) for i, a in enumerate(self.agents)},
                {a: self._info_of(i) for i, a in enumerate(self.agents)},
            )

        def step(self, actions: Dict[str, Any]):
            joint = [
                -1 if actions.get(a) is None else int(actions[a]) for a in self.possible_agents
            ]
            for code in joint:
                if code >= NUM_ACTIONS:
                    raise ValueError(f"action code {code!r} out of range [0, {NUM_ACTIONS})")
            b = self.batch
            b.step_joint(np.array([joint[0]]), np.array([joint[1]]))
            rewards = {"X": float(b.rewards[0]), "O": float(b.rewards_other[0])}
            done, truncated = bool(b.terminated[0]), bool(b.truncated[0])
            observations = {a: self._obs_of(i) for i, a in enumerate(self.possible_agents)}
            infos = {a: self._info_of(i) for i, a in enumerate(self.possible_agents)}
            terminations = dict.fromkeys(self.agents, done)
            truncations = dict.fromkeys(self.agents, truncated)
            if done or truncated:
                self.agents = []
            return observations, rewards, terminations, truncations, infos

        def state(self) -> np.ndarray:
            """The global state (``state_space``): X's observation tensor."""
            return self.batch.obs[0].copy()

        def action_masks(self) -> Dict[str, np.ndarray]:
            b = self.batch
            return {"X": b.masks[0].astype(bool), "O": b.masks_other[0].astype(bool)}

        def locked(self) -> tuple:
            """The seats' locked moves this turn ``(x, o)``, None where not locked."""
            return self.batch.locked(0)

        def summary(self) -> Dict[str, Any]:
            return _summary(self.rules, self.batch.state_bytes(0))

        def render(self):
            if self.render_mode != "ansi":
                return None
            return json.dumps(self.summary(), sort_keys=True)

        def close(self) -> None:
            pass

    return _Parallel()


# -- the hook ------------------------------------------------------------------------------


def make_env(**options: Any) -> RiftEnv:
    """One seat against a bot (:class:`RiftEnv`)."""
    return RiftEnv(**options)


def make_vector_env(num_envs: int = 1, **options: Any) -> RiftVectorEnv:
    """The native vector env (:class:`RiftVectorEnv`)."""
    return RiftVectorEnv(num_envs, **options)


def parallel_env(**options: Any) -> Any:
    """Both seats as a PettingZoo ``ParallelEnv`` (:func:`RiftParallelEnv`)."""
    return RiftParallelEnv(**options)
