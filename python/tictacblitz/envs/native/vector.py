"""What every game's native batched RL stepper shares: :class:`NativeVectorEnv`.

A game's RL adapter (``envs/games/<name>.py``, found by
:func:`tictacblitz.games.adapters.adapter_class`, issue 27) wraps its native batch (a
Cython class that steps N games against native bots in one ``nogil`` call) in its one
subclass of :class:`NativeVectorEnv`, which supplies the Gymnasium ``VectorEnv`` face
once (issue 28: every game the same faces): seeding (game i plays seed ``s + i``),
``reset_mask``, the three autoreset modes (``NEXT_STEP`` natively, ``SAME_STEP`` with
``final_obs`` / ``final_info``, ``DISABLED``), the info keys with their ``_key`` masks,
masks (``action_masks()``, or in ``info``; a row that cannot act has
:data:`NOOP_ACTION`), opponents (bot names, natively, or callables ``fn(obs, mask) ->
actions``, changed between episodes), self-play (``opponent=None``: every seat of every
game is a row the learner drives), snapshots (``get_state``/``set_state``, pickling),
copies or in-place buffers, and ``ansi`` rendering.

The native batch must offer: ``obs``, ``masks``, ``rewards``, ``terminated``,
``truncated``, ``reasons``, ``steps``, ``winners`` (arrays of N rows), ``done()``,
``reset(seeds, indices)``, ``step(actions, reset_seeds)``, ``set_bot(spec)``,
``autoreset`` and ``get_state()``/``set_state()``. A subclass gives ``rules_type``,
``seat_names`` (or ``seats_of(rules)``), ``num_actions``, ``observation_space_of(mask)``,
``make_batch(...)``, ``bot_spec(name)``, ``bots_spec_of(specs)`` when its batch takes
them otherwise, ``describe(i)`` (``frame(i)`` for ``rgb_array``), the callable and
self-play steps (``_advance``, ``_collect``), and, if it has info keys of its own,
``_info_rows`` (Blitz's rounds). A game whose native stepper auto-resets inside its
``nogil`` call on seeds of its own streams (Blitz's) sets ``native_autoreset`` and
gives ``_same_step``; one that shapes its rewards, ``_rewards``.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Sequence, Tuple, Union

import numpy as np

try:
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as exc:  # pragma: no cover - the rl extra is missing
    raise ImportError("the RL environments need gymnasium (pip install 'tictacblitz[rl]')") from exc

from ...games.adapters import check_overrides
from ...games.base import check_count
from .faces import NativeFaces
from .options import (
    INFO_KEYS,
    NOOP_ACTION,
    RowOutputs,
    autoreset_of,
    callable_codes,
    check_render_mode,
    opponents_of,
    reset_seeds,
    rules_of,
    seat_of,
    with_key_masks,
)
from .single import NativeSingleEnv
from .snapshots import NativeSnapshots

__all__ = ["NativeVectorEnv", "NativeSingleEnv", "RowOutputs", "NOOP_ACTION", "INFO_KEYS"]


class NativeVectorEnv(NativeFaces, NativeSnapshots, VectorEnv):
    """``num_envs`` games against native bots (or callables) as one Gymnasium ``VectorEnv``;
    with ``opponent=None`` (self-play) ``num_envs`` games of which every seat is a row,
    row ``k * i + j`` seat j of game i (k seats a game).

    ``reset(seed=s)`` starts game i on the seed ``s + i`` (as Gymnasium's
    ``SyncVectorEnv`` seeds its envs); a game that ended restarts (NEXT_STEP: at the next
    step; SAME_STEP: at once) on a seed drawn from the env's generator;
    :attr:`episode_seeds` holds each game's current seed.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["ansi"]}

    # What a game's subclass sets: its rules class, seat names, number of actions, and
    # (below) observation_space_of, make_batch, bot_spec and describe.
    rules_type: Any = None
    seat_names: Sequence[str] = ()
    num_actions: int = 0
    bot_names: Sequence[str] = ()
    # True: the native stepper restarts an ended game inside its step, on a seed of its own
    # streams, and keeps SAME_STEP's final rows (Blitz's; its _same_step reads them).
    native_autoreset = False
    _row_masks: np.ndarray  # self-play: every row's mask, set by a subclass's _collect

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        check_overrides(cls, NativeVectorEnv)  # a misspelled override fails loudly

    def __init__(
        self,
        num_envs: int = 1,
        *,
        opponent: Any = "random",
        seat: Any = 0,
        rules: Any = None,
        max_steps: Optional[int] = None,
        mask_in_info: bool = False,
        num_threads: Optional[int] = None,
        copy: bool = True,
        seed: Optional[int] = None,
        render_mode: Optional[str] = None,
        autoreset_mode: Union[str, AutoresetMode] = AutoresetMode.NEXT_STEP,
        game_options: Optional[Dict[str, Any]] = None,
    ) -> None:
        """The options every stepper takes (the game's class documents them);
        ``game_options``: a game's own (:meth:`check_game_options`), given to its batch."""
        self.check_options(num_envs, render_mode, max_steps)
        own = self.check_game_options(dict(game_options or {}))
        self._options = {
            "opponent": opponent,
            "seat": seat,
            "rules": rules,
            "max_steps": max_steps,
            "mask_in_info": mask_in_info,
            "copy": copy,
            "render_mode": render_mode,
            "autoreset_mode": autoreset_mode,
            **own,  # a game's constructor takes its own options as keywords
        }
        self.autoreset_mode = autoreset_of(autoreset_mode)
        self.metadata = dict(type(self).metadata, autoreset_mode=self.autoreset_mode)
        self.rules = rules_of(self.rules_type, rules)
        self.seat_names = tuple(self.seats_of(self.rules))
        self.self_play = opponent is None
        if self.self_play and seat != 0:
            raise ValueError("self-play has no seat: every seat is the learner's")
        self.seat = seat_of(seat, self.seat_names)
        self.rows_per_game = len(self.seat_names) if self.self_play else 1
        self._callables: Dict[int, Callable] = {}
        threads = check_count(num_threads, "num_threads", optional=True) or 1
        self.num_games = num_envs
        self.batch = self.make_batch(
            num_envs, self._bots(opponent), self.seat, max_steps or 0, threads, **own
        )
        if not self.native_autoreset:  # (Blitz's batch takes its mode when it is made)
            self.batch.autoreset = self.autoreset_mode is not AutoresetMode.DISABLED
        self.num_envs = num_envs * self.rows_per_game
        self.opponent = opponent
        self.copy = copy
        self.mask_in_info = mask_in_info
        self.render_mode = render_mode
        self.single_observation_space = self.observation_space_of(mask=not mask_in_info)
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.episode_seeds = np.zeros(num_envs, dtype=np.uint64)
        self._rng = np.random.default_rng(seed)
        self._all = np.ones(self.num_envs, dtype=bool)
        self._all.flags.writeable = False  # shared by every step's `_key` masks
        self._ones = np.ones(self.num_envs, dtype=np.int64)
        self._wins = np.zeros((self.num_envs, len(self.seat_names)), dtype=np.int64)
        self._out: Optional[RowOutputs] = None
        self.reset(seed=seed)

    @classmethod
    def check_options(cls, num_envs: Any, render_mode: Any, max_steps: Any = None) -> None:
        """The options every stepper takes, checked before its batch is made."""
        check_count(num_envs, "num_envs")
        check_count(max_steps, "max_steps", optional=True)
        check_render_mode(render_mode, cls.metadata["render_modes"])

    def check_game_options(self, options: Dict[str, Any]) -> Dict[str, Any]:
        """A game's own options (the default: none), checked before its batch is made."""
        if options:
            raise TypeError(f"{type(self).__name__} takes no option {next(iter(options))!r}")
        return options

    # -- what a game supplies ---------------------------------------------------------------
    def observation_space_of(self, mask: bool) -> spaces.Dict:  # pragma: no cover - each game's
        """One row's observation space (``mask``: with ``action_mask``)."""
        raise NotImplementedError

    def seats_of(self, rules: Any) -> Sequence[str]:
        """The seats of a game of these rules (a game whose rules set the number of
        players overrides this; the others have ``seat_names``)."""
        return type(self).seat_names

    def make_batch(  # pragma: no cover - each game's own
        self, num_envs: int, bot: Any, seat: int, max_steps: int, num_threads: int
    ) -> Any:
        """The game's native batch for these options (``max_steps`` 0: no limit; ``bot``:
        :meth:`bots_spec_of`'s, None for a seat a callable or self-play drives); a game
        with options of its own takes :meth:`check_game_options`'s as keywords too."""
        raise NotImplementedError

    def bot_spec(self, name: str) -> Any:  # pragma: no cover - each game's own
        raise NotImplementedError

    def _bots(self, opponent: Any) -> Any:
        """The native specs of ``opponent``; callables (and self-play's seats) are
        external seats, remembered in ``_callables``."""
        n = len(self.seat_names)
        if opponent is None:
            self._callables = {}
            return self.bots_spec_of((None,) * (n - 1))
        names = opponents_of(opponent, self.seat, n, self.bot_names or None)
        others = [j for j in range(n) if j != self.seat]
        resolved = tuple(None if callable(name) else self.bot_spec(name) for name in names)
        self._callables = {j: fn for j, fn in zip(others, names, strict=True) if callable(fn)}
        return self.bots_spec_of(resolved)

    def bots_spec_of(self, specs: Tuple[Any, ...]) -> Any:
        """The other seats' resolved specs (:meth:`bot_spec`'s, in seat order; None for a
        seat a callable or self-play drives) as the native batch takes them: one spec
        with one opponent, else a list (a game overrides this as its batch needs)."""
        return specs[0] if len(specs) == 1 else list(specs)

    def describe(self, i: int) -> str:  # pragma: no cover - each game's own
        raise NotImplementedError

    def _advance(self, actions: np.ndarray, reset_seeds: np.ndarray) -> None:
        """One native step of every game (rows' actions in): the opponents' moves
        included, callables too. The default: native bots only."""
        self.batch.step(actions, reset_seeds)

    def _settle(self) -> None:
        """After a reset: the moves of callable opponents that are to move first."""

    def _collect(self) -> RowOutputs:
        """The rows' outputs now (the default: the batch's own buffers, one row a game)."""
        b = self.batch
        obs: Dict[str, np.ndarray] = {"observation": b.obs}
        if not self.mask_in_info:
            obs["action_mask"] = b.masks
        return RowOutputs(obs, b.rewards, b.terminated, b.truncated, b.reasons, b.steps, b.winners)

    def _call(self, seat: int, obs: Dict[str, np.ndarray], mask: np.ndarray) -> np.ndarray:
        """Seat ``seat``'s callable opponent on every game (``mask`` bool)."""
        out = np.asarray(self._callables[seat](obs, mask))
        return callable_codes(out, seat, self.num_games, self.num_actions)

    # -- buffers ----------------------------------------------------------------------------
    def _obs(self) -> Dict[str, np.ndarray]:
        assert self._out is not None
        out = self._out.obs
        return {k: v.copy() for k, v in out.items()} if self.copy else out

    def _info(self) -> Dict[str, Any]:
        """The step's info: :meth:`_info_rows`, the mask when it travels in the info, and
        each key's ``_key`` mask (every row has every key)."""
        info = self._info_rows()
        if self.mask_in_info:
            info["action_mask"] = self._masks().astype(np.int8)
        return with_key_masks(info, self._all)

    def _info_rows(self) -> Dict[str, Any]:
        """The info keys of every face (``INFO_KEYS``: ``round``, ``t``, ``round_wins``,
        ``reason``, ``rejected``, ``steps``) and the native ones (``winner``, ``seed``),
        arrays over the rows; a game with keys of its own (Blitz's rounds) overrides it."""
        o = self._out
        assert o is not None
        reasons = o.reasons.astype(np.int64)
        steps = o.steps.astype(np.int64)
        k = self.rows_per_game
        seeds = self.episode_seeds.copy() if k == 1 else np.repeat(self.episode_seeds, k)
        return {
            "round": self._ones.copy(),
            "t": steps,
            "round_wins": self._wins.copy(),
            "reason": reasons,
            "rejected": reasons > 0,
            "steps": steps,
            "winner": o.winners.astype(np.int64),
            "seed": seeds,
        }

    def _masks(self) -> np.ndarray:
        if self.mask_in_info or self._out is None or "action_mask" not in self._out.obs:
            return self._mask_rows()
        return self._out.obs["action_mask"]

    def _mask_rows(self) -> np.ndarray:
        """The rows' masks when they travel in the info (self-play: the rows' own, which
        a subclass's ``_collect`` keeps in ``_row_masks``)."""
        return self._row_masks if self.self_play else self.batch.masks

    def action_masks(self) -> np.ndarray:
        """Every row's legal actions now, bool (num_envs, num_actions), MaskablePPO's
        convention; a row that cannot act (its game is over, or another seat is to move)
        has :data:`NOOP_ACTION` alone, so a masked distribution is never empty."""
        return self._masks().astype(bool)

    def set_opponent(self, opponent: Any) -> None:
        """Other opponents from the next step on (between episodes, for a league): the
        ``opponent`` option's forms (:func:`opponents_of`): bot names or callables."""
        if self.self_play:
            raise ValueError("a self-play env has no opponent: every seat is the learner's")
        if opponent is None:
            raise ValueError("opponent None is self-play: make a self-play env instead")
        callables = self._callables
        try:
            self.batch.set_bot(self._bots(opponent))
        except (ValueError, TypeError):
            self._callables = callables
            raise
        self.opponent = opponent
        self._options["opponent"] = opponent

    # -- gymnasium --------------------------------------------------------------------------
    def reset(
        self,
        *,
        seed: Union[None, int, Sequence[int], np.ndarray] = None,
        options: Optional[dict] = None,
    ):
        """Gymnasium 1.x reset; ``options={"reset_mask": bool (num_envs,)}`` resets only
        those rows' games (self-play: a game resets when any of its rows is set).
        ``seed``: an int ``s`` (game i plays ``s + i``), one seed per game, or None
        (drawn from the env's generator)."""
        mask = None
        if options and "reset_mask" in options:
            mask = np.asarray(options["reset_mask"])
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
                raise ValueError(
                    f"options['reset_mask'] must be a bool array of shape "
                    f"({self.num_envs},), not {mask.dtype} {mask.shape}"
                )
            games = np.asarray(mask).reshape(self.num_games, self.rows_per_game).any(axis=1)
            mask = np.asarray(games, dtype=bool)
        idx = np.arange(self.num_games) if mask is None else np.flatnonzero(mask)
        seeds, self._rng = reset_seeds(seed, idx, self.num_games, self._rng)
        if len(idx):
            self._restart(idx, seeds)
        self._out = self._collect()
        return self._obs(), self._info()

    def _restart(self, idx: np.ndarray, seeds: np.ndarray) -> None:
        self.episode_seeds[idx] = seeds
        self.batch.reset(seeds, idx)
        self._settle()

    def step(self, actions: Any):
        arr = np.asarray(actions)
        if arr.shape != (self.num_envs,) or arr.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be {self.num_envs} integers, not {arr.dtype} {arr.shape}"
            )
        reset_seeds = np.zeros(self.num_games, dtype=np.uint64)
        if self.autoreset_mode is AutoresetMode.NEXT_STEP and not self.native_autoreset:
            done = self.batch.done()
            if done.any():
                reset_seeds[done] = self._rng.integers(
                    0, 2**63, size=int(done.sum()), dtype=np.uint64
                )
                self.episode_seeds[done] = reset_seeds[done]
        self._advance(arr.astype(np.int64, copy=False), reset_seeds)  # read, never written
        out = self._out = self._collect()
        rewards = self._rewards(out)
        terminated = out.terminated.copy() if self.copy else out.terminated
        truncated = out.truncated.copy() if self.copy else out.truncated
        if self.autoreset_mode is AutoresetMode.SAME_STEP:
            return self._same_step(rewards, terminated, truncated)
        return self._obs(), rewards, terminated, truncated, self._info()

    def _rewards(self, out: RowOutputs) -> np.ndarray:
        """The step's rewards, float64 (a game that shapes them adds its bonus here)."""
        return out.rewards.astype(np.float64) if self.copy else out.rewards

    def _same_step(self, rewards: np.ndarray, terminated: np.ndarray, truncated: np.ndarray):
        """SAME_STEP: an ended game restarts at once; its rows' final observation and info
        go to ``final_obs``/``final_info`` (Gymnasium's layout: dicts of arrays, with the
        ``_final_obs``/``_final_info`` masks), the step's rewards and flags are kept."""
        ended = terminated | truncated  # a new array: the restart leaves it as it is
        info = self._info()
        if ended.any():
            assert self._out is not None
            final_obs = {k: v.copy() for k, v in self._out.obs.items()}
            final_info = dict(info)
            if not self.copy:  # else step() gave fresh arrays, which the restart keeps
                rewards, terminated, truncated = rewards.copy(), terminated.copy(), truncated.copy()
            games = np.flatnonzero(ended.reshape(self.num_games, self.rows_per_game).any(axis=1))
            seeds = self._rng.integers(0, 2**63, size=len(games), dtype=np.uint64)
            self._restart(games, seeds)
            self._out = self._collect()
            info = self._info()
            info.update(final_obs=with_key_masks(final_obs, ended), _final_obs=ended)
            info.update(final_info=final_info, _final_info=ended)
        return self._obs(), rewards, terminated, truncated, info

    def render(self) -> Any:
        """``ansi``: a game's :meth:`describe` each, after ``env i:``; ``rgb_array`` (a
        game whose ``metadata`` lists it): a tuple of :meth:`frame` images, one a game."""
        if self.render_mode == "rgb_array":
            return tuple(self.frame(i) for i in range(self.num_games))
        if self.render_mode != "ansi":
            return None
        return "\n".join(f"env {i}: {self.describe(i)}" for i in range(self.num_games)) + "\n"

    def frame(self, i: int) -> np.ndarray:  # pragma: no cover - a game that draws
        raise NotImplementedError  # game i as an (H, W, 3) uint8 image (rgb_array)

    def close_extras(self, **kwargs: Any) -> None:
        pass
