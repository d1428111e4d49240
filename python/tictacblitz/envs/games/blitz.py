"""Tic Tac Blitz's RL adapter: environments over its native batched stepper (docs/rl.md).

``tictacblitz.envs`` serves these for ``game="blitz"`` through the adapter class,
:class:`BlitzVectorEnv`, a :class:`~tictacblitz.envs.native.vector.NativeVectorEnv`
(issue 27, item 2: Blitz on the shared template; its helpers are the
``envs/games/_blitz_*.py`` modules):

- :class:`BatchedMatches`: N matches stepped together in one ``nogil`` call, NumPy
  buffers written in place (the fast path); every bot preset (``random``, ``greedy``,
  ``search``, ``easy``, ``medium``, ``hard``) or ``BotSpec`` plays a seat natively
  inside that call, a callable ``fn(obs, mask) -> actions`` in Python;
- :class:`BlitzVectorEnv`: a Gymnasium ``VectorEnv`` over it (one seat vs a bot, or a
  callable; ``set_opponent`` between episodes; ``opponent=None``: self-play);
- :func:`BlitzSelfPlayVectorEnv`: both seats of M matches are the learner's (2 M rows);
- :class:`LearnerBatch`: the learner's lean path against a native bot (its seat's
  buffers in place, torch dtypes, zero-copy tensors); :class:`LearnerPool`: send/recv;
- :class:`BlitzEnv`: one match against a bot (``gymnasium.make("tictacblitz/Blitz-v0")``;
  ``gymnasium.make_vec`` with ``vectorization_mode="vector_entry_point"``: the native one);
- :func:`parallel_env`: the PettingZoo ``ParallelEnv`` (both seats);
- :data:`PRESETS`: short rounds, smaller boards, per-round episodes;
- :class:`StateBatch`: clone states into a preallocated batch and roll them forward
  with native bots (search helpers).

:class:`BlitzVectorEnv` takes from ``NativeVectorEnv`` its constructor (the options
every stepper takes; Blitz's own, ``interval_ms``, ``episode``, ``obs`` ..., travel as
``game_options`` to ``make_batch``), ``reset`` (seeding, ``reset_mask``), ``step``,
masks, the info's ``_key`` masks, rendering, snapshots, pickling and the faces. It gives
through the base's hooks: ``native_autoreset`` (its stepper restarts an ended match in
its ``nogil`` call, on the match's own reset stream, and keeps SAME_STEP's final rows),
``_advance``/``_collect`` (self-play rows), ``_rewards`` (shaping), ``_info_rows`` (its
rounds; docs/rl.md), ``describe``/``frame``.
:class:`BlitzEnv` is the shared ``NativeSingleEnv`` over it and the PettingZoo env the
shared ``NativeParallelEnv`` (``envs/native/``).

Needs the ``rl`` extra (gymnasium; pettingzoo for :func:`parallel_env`)."""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from ...games.blitz.rules import Rules
from ...games.blitz.types import Player
from ..native.options import RowOutputs, reject_self_play_options, with_key_masks
from ..native.vector import NativeVectorEnv
from ._blitz_batched import (
    BATCH_OPTIONS,
    N_BITS,
    N_PLANES,
    N_SCALARS,
    SCALAR_NAMES,
    BatchedMatches,
    action_code,
    as_rules,
    decode_action,
    observation_space,
    unpack_bits,
)
from ._blitz_gym import BlitzEnv
from ._blitz_info import _Shaping, final_step_info, marks_potential, step_info
from ._blitz_learner import LearnerBatch, LearnerPool
from ._blitz_presets import PRESETS, preset_options
from ._blitz_render import board_rgb
from ._blitz_states import StateBatch

__all__ = [
    "BatchedMatches",
    "BlitzEnv",
    "BlitzSelfPlayVectorEnv",
    "BlitzVectorEnv",
    "LearnerBatch",
    "LearnerPool",
    "N_BITS",
    "N_PLANES",
    "N_SCALARS",
    "PRESETS",
    "SCALAR_NAMES",
    "StateBatch",
    "action_code",
    "board_rgb",
    "decode_action",
    "marks_potential",
    "observation_space",
    "preset_options",
    "step_info",
    "unpack_bits",
    "make_env",
    "make_vector_env",
    "make_self_play_env",
    "parallel_env",
]


def _parallel_env(preset: Optional[str] = None, **options: Any) -> Any:
    """The PettingZoo ``ParallelEnv`` (both seats; options: :class:`BlitzParallelEnv
    <tictacblitz.envs.games._blitz_parallel.BlitzParallelEnv>`'s)."""
    from ._blitz_parallel import BlitzParallelEnv  # pettingzoo: only for this face

    return BlitzParallelEnv.over(BlitzVectorEnv, **preset_options(preset, options))


class BlitzVectorEnv(NativeVectorEnv):
    """A Gymnasium ``VectorEnv`` of ``num_envs`` single-agent matches on the native batch.

    The agent plays ``seat`` (X by default) against ``opponent``: a bot name of
    ``tictacblitz.games.blitz.bots.PRESETS`` or a ``BotSpec`` (native, inside the
    ``nogil`` step), ``"wait"``, or a callable ``fn(obs, mask) -> actions`` (a frozen
    network); None: self-play (both seats of every match are rows, row ``2 i`` X of match
    i, ``2 i + 1`` its O). Observations are the agent seat's (``planes``, ``scalars``,
    ``action_mask``), rewards the agent's. ``metadata["autoreset_mode"]`` says the mode
    (NEXT_STEP by default). ``copy=False`` returns the batch's in-place buffers instead
    of copies. Other options: :class:`BatchedMatches`'s (``rules``, ``seed``,
    ``interval_ms``, ``episode``, ``autoreset_mode``, ``num_threads`` ...).

    :param mask_in_info: carry the legal-action mask in ``info["action_mask"]`` instead
        of the observation (``action_masks()`` gives it either way).
    :param shaping: None (default) or a potential ``phi(obs) -> (num_envs,)``: adds
        ``shaping_gamma * phi(s') - phi(s)`` to the rewards (phi = 0 at an episode's end).
    :param render_mode: None, ``"rgb_array"`` (a tuple of (H, W, 3) uint8 images) or
        ``"ansi"`` (one text block per env).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["rgb_array", "ansi"]}
    rules_type = Rules
    seat_names = ("X", "O")
    native_autoreset = True
    single_env = BlitzEnv
    parallel_env = staticmethod(_parallel_env)

    def __init__(
        self,
        num_envs: int = 1,
        *,
        opponent: Any = "random",
        seat: Any = "X",
        copy: bool = True,
        mask_in_info: bool = False,
        shaping: Optional[Callable] = None,
        shaping_gamma: float = 0.99,
        render_mode: Optional[str] = None,
        **options: Any,
    ) -> None:
        self.check_options(num_envs, render_mode)
        self.self_play = opponent is None or seat == "both"
        if opponent is None and seat not in ("X", 0, "both"):
            raise ValueError("self-play has no seat: both seats are the agent's")
        self._seats: Tuple[int, ...] = (0, 1) if self.self_play else (int(Player.parse(seat)),)
        self._shaping = _Shaping(shaping, shaping_gamma) if shaping is not None else None
        self._was_done = np.zeros(num_envs * len(self._seats), dtype=bool)  # reset reads it
        self._full_actions = np.zeros((num_envs, 2), dtype=np.int64)
        self.num_matches = num_envs
        self._num_threads = options.pop("num_threads", None)  # None: the batch's adaptive
        self._seed = options.pop("seed", None)  # the batch's own generator's too, as before
        super().__init__(
            num_envs,
            opponent=None if self.self_play else opponent,
            seat=self._seats[0],
            rules=as_rules(options.pop("rules", None)),
            max_steps=options.pop("max_steps", None),
            mask_in_info=mask_in_info,
            num_threads=self._num_threads,
            copy=copy,
            seed=self._seed,
            render_mode=render_mode,
            autoreset_mode=options.pop("autoreset_mode", AutoresetMode.NEXT_STEP),
            game_options=options,
        )
        self._options.update(shaping=shaping, shaping_gamma=shaping_gamma)

    def check_game_options(self, options: Dict[str, Any]) -> Dict[str, Any]:
        """Blitz's own options, :class:`BatchedMatches`'s (``interval_ms``, ``episode``,
        ``obs``, ``masks`` ...; its constructor checks their values)."""
        for name in options:
            if name not in BATCH_OPTIONS:  # else BatchedMatches's TypeError
                raise TypeError(f"BlitzVectorEnv takes no option {name!r}")
        return options

    def make_batch(
        self, num_envs: int, bot: Any, seat: int, max_steps: int, num_threads: int, **own: Any
    ) -> BatchedMatches:
        """The native batch; the other seat's policy (name, ``BotSpec``, callable) runs in it."""
        batch = BatchedMatches(
            num_envs,
            rules=self.rules,
            policies=bot,
            max_steps=max_steps or None,
            num_threads=self._num_threads,
            autoreset_mode=self.autoreset_mode,
            seed=self._seed,
            **own,
        )
        self.num_actions = batch.n_actions
        return batch

    def _bots(self, opponent: Any) -> list:
        """The batch's two seat policies: the learner's seats None (its actions)."""
        return [None, opponent] if self.seat == 0 else [opponent, None]

    def observation_space_of(self, mask: bool) -> spaces.Dict:
        if self.batch.masks is None and self.mask_in_info:
            raise ValueError("mask_in_info needs masks=True")
        return observation_space(
            self.rules, self.batch.obs_mode, mask=mask and self.batch.masks is not None
        )

    # -- the faces tictacblitz.envs serves (NativeFaces), with Blitz's presets --------------
    @classmethod
    def make_env(cls, preset: Optional[str] = None, **options: Any) -> BlitzEnv:
        """The single-agent env (:class:`BlitzEnv`); ``preset``: see :data:`PRESETS`."""
        return BlitzEnv(**preset_options(preset, options))

    @classmethod
    def make_vector_env(
        cls, num_envs: int = 1, preset: Optional[str] = None, **options: Any
    ) -> BlitzVectorEnv:
        """The native vector env; ``opponent=None`` gives the self-play env
        (``2 * num_envs`` rows)."""
        return cls(num_envs, **preset_options(preset, options))

    # -- views over the agent rows ----------------------------------------------------------
    def _rows(self, arr: np.ndarray) -> np.ndarray:
        """(N, 2, ...) → the agent rows (N * seats, ...): a view for one seat or both."""
        if self.self_play:
            return arr.reshape((self.num_envs,) + arr.shape[2:])
        return arr[:, self.seat]

    def _per_env(self, arr: np.ndarray) -> np.ndarray:
        return arr.repeat(2) if self.self_play else arr.copy()

    def _agent_obs(self, source: Dict[str, np.ndarray]) -> Dict[str, np.ndarray]:
        """The agent rows' observation (views; the mask as int8 unless it travels in the
        info)."""
        out = {
            k: self._rows(v)
            for k, v in source.items()
            if not (k == "action_mask" and self.mask_in_info)
        }
        if "action_mask" in out:
            out["action_mask"] = out["action_mask"].view(np.int8)
        return out

    def _collect(self) -> RowOutputs:
        """The rows now (the info keys are Blitz's own, :meth:`_info_rows`)."""
        b = self.batch
        return RowOutputs(
            self._agent_obs(b.observation),
            self._rows(b.rewards).astype(np.float64),
            self._per_env(b.terminated),
            self._per_env(b.truncated),
            None,  # the reasons, steps and winners: Blitz's info keys read the batch's own
            None,
            None,
        )

    def _info_rows(self) -> Dict[str, Any]:
        """Blitz's info keys (its rounds: ``round_result``, ``match_result``; docs/rl.md)."""
        return step_info(self.batch, self._seats)

    def _mask_rows(self) -> np.ndarray:
        return self._rows(self.batch.buffer("masks"))

    def _obs_all(self) -> Dict[str, np.ndarray]:
        return {k: self._rows(v) for k, v in self.batch.observation.items()}

    def set_opponent(self, opponent: Any) -> None:
        """A new opponent from the next step on (a name, a ``BotSpec`` or a callable);
        call it between episodes, e.g. after a ``reset``, for a league."""
        if self.self_play:
            raise ValueError("a self-play env has no opponent: both seats are the agent's")
        self.batch.set_policy(1 - self.seat, opponent)
        self.opponent = self._options["opponent"] = opponent

    # -- gymnasium: reset is NativeVectorEnv's, over the native batch's restart ------------
    def _restart(self, idx: np.ndarray, seeds: np.ndarray) -> None:
        self.episode_seeds[idx] = seeds
        mask = None
        if len(idx) < self.num_games:
            mask = np.zeros(self.num_games, dtype=bool)
            mask[idx] = True
        self.batch.reset(seed=self.episode_seeds, mask=mask)

    def reset(self, *, seed: Any = None, options: Optional[dict] = None):
        """NativeVectorEnv's reset (``reset_mask``; self-play: a match resets when either
        of its rows is set; one seed per row is taken as its X row's)."""
        if self.self_play and seed is not None and not isinstance(seed, (int, np.integer)):
            if len(seed) == self.num_envs:
                seed = np.asarray(seed)[0::2]  # one seed per row: the X row's seeds its match
        obs, info = super().reset(seed=seed, options=options)  # checks the seed first
        rows = None
        if options and "reset_mask" in options:
            rows = np.asarray(options["reset_mask"])
        elif seed is None or isinstance(seed, (int, np.integer)):
            VectorEnv.reset(self, seed=None if seed is None else int(seed))  # np_random
        if rows is not None and self.self_play:  # both rows of a match that resets
            rows = np.repeat(rows.reshape(self.num_games, 2).any(axis=1), 2)
        if rows is None:
            self._was_done[:] = False
        else:
            self._was_done[rows] = False
        if self._shaping is not None:
            self._shaping.start(self._obs_all(), rows)
        return obs, info

    # -- the step: NativeVectorEnv's, with the native stepper's auto-reset (in its nogil
    # call, on each match's own reset stream; SAME_STEP's final rows kept natively) -------
    def _advance(self, actions: np.ndarray, reset_seeds: np.ndarray) -> None:
        if self.self_play:
            self._full_actions.reshape(self.num_envs)[:] = actions
            actions = self._full_actions
        self.batch.step(actions)  # checks the codes' range: nothing changes on a bad one

    def _rewards(self, out: RowOutputs) -> np.ndarray:
        """The rows' rewards (fresh float64 from :meth:`_collect`) and the shaping bonus."""
        reward, done = out.rewards, out.terminated | out.truncated
        if self._shaping is not None:
            next_step = self.autoreset_mode == AutoresetMode.NEXT_STEP
            fresh = self._was_done.copy() if next_step else np.zeros(self.num_envs, bool)
            ended = self.batch.info.get("final_ended")
            shaped = done if ended is None else done | self._per_env(ended)
            reward = reward + self._shaping.bonus(self._obs_all(), shaped, fresh)
        self._was_done = done
        return reward

    def _same_step(self, rewards: np.ndarray, terminated: np.ndarray, truncated: np.ndarray):
        """SAME_STEP, natively: the stepper restarted the ended matches; their final rows
        are its ``final_*`` buffers."""
        infos = self._info()
        ended = self.batch.info.get("final_ended")
        if ended is not None and ended.any():
            self._final(infos, self.batch.info)
        return self._obs(), rewards, terminated, truncated, infos

    def _final(self, infos: Dict[str, Any], info: Dict[str, np.ndarray]) -> None:
        """SAME_STEP, natively: ``final_obs``/``final_info`` in Gymnasium's layout (dicts
        of arrays over rows, each key with its ``_key`` mask of the ended rows)."""
        ended = self._per_env(info["final_ended"])
        keys = (self.batch.obs_mode, "scalars")
        final = {k: self._rows(info["final_" + k]).copy() for k in keys}
        if not self.mask_in_info:  # an ended row: nothing but wait
            final["action_mask"] = np.zeros((self.num_envs, self.num_actions), np.int8)
            final["action_mask"][:, 0] = 1
        infos.update(final_obs=with_key_masks(final, ended), _final_obs=ended, _final_info=ended)
        infos["final_info"] = with_key_masks(final_step_info(self.batch, self._seats), ended)

    def describe(self, i: int) -> str:
        """Match i as text, a block of its own (``ansi``)."""
        from ._blitz_render import board_ansi

        return board_ansi(self.batch.get_match(i)) + "\n"

    def frame(self, i: int) -> np.ndarray:
        """Match i as X sees it, an (H, W, 3) uint8 image (``rgb_array``)."""
        return board_rgb(self.batch.get_match(i).planes(0))

    # -- snapshots: NativeVectorEnv's (options, batch, generator) and the env's own --------
    def get_state(self) -> Dict[str, Any]:
        state = super().get_state()
        state["was_done"] = self._was_done.copy()
        state["shaping"] = None if self._shaping is None else self._shaping.last
        return state

    def set_state(self, state: Dict[str, Any]) -> None:
        super().set_state(state)
        self._was_done[:] = state["was_done"]
        if self._shaping is not None:
            self._shaping.last = None if state["shaping"] is None else state["shaping"].copy()


def BlitzSelfPlayVectorEnv(num_matches: int = 1, **options: Any) -> BlitzVectorEnv:
    """Self-play: ``num_matches`` matches whose two seats are both the agent's, as a
    Gymnasium ``VectorEnv`` of ``num_envs = 2 * num_matches`` rows: row ``2 i`` is X of
    match i, row ``2 i + 1`` is O (the batch's buffers reshaped, no copy inside).
    Actions ``(num_envs,)``, rewards per row (zero-sum within a match), each row's
    observation from its own seat. Every option of :class:`BlitzVectorEnv` but
    ``opponent`` and ``seat``.

    >>> env = BlitzSelfPlayVectorEnv(4, seed=0)
    >>> obs, info = env.reset(seed=0)
    >>> obs["planes"].shape, env.action_masks().shape
    ((8, 12, 6, 6), (8, 73))
    """
    reject_self_play_options(options, "both seats are the agent's")
    return BlitzVectorEnv(num_matches, opponent=None, **options)


def make_self_play_env(num_matches: int = 1, preset: Optional[str] = None, **options: Any):
    """Both seats are the learner's: :func:`BlitzSelfPlayVectorEnv`."""
    return BlitzSelfPlayVectorEnv(num_matches, **preset_options(preset, options))


BlitzEnv.vector_type = BlitzVectorEnv  # the one-match face is the stepper with one match

# The adapter's faces under the names docs/rl.md shows (``make_env("tiny")`` ...).
make_env = BlitzVectorEnv.make_env
make_vector_env = BlitzVectorEnv.make_vector_env
parallel_env = _parallel_env
