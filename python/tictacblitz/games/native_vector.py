"""What every game's native batched RL stepper shares: :class:`NativeVectorEnv`.

A game's ``rl`` hook (``games/<name>/rl.py``) wraps its native batch (a Cython class
that steps N games against a native bot in one ``nogil`` call) in a subclass of
:class:`NativeVectorEnv`, which supplies the Gymnasium ``VectorEnv`` face once: seeding
(env i plays seed ``s + i``), ``reset_mask``, NEXT_STEP auto-reset with seeds from the
env's generator, the info keys, masks (``action_masks()``, or in ``info``), opponents
changed between episodes, copies or in-place buffers, and ``ansi`` rendering, and the
constructor with the options every stepper takes (``opponent``, ``seat``, ``rules``,
``max_steps``, ``mask_in_info``, ``num_threads``, ``copy``, ``seed``, ``render_mode``).
The agent has one seat of the game's N (issue 25): ``seat`` names it, ``opponent`` is one
bot name for every other seat or one per other seat (:func:`opponents_of`).

The native batch must offer: ``obs``, ``masks``, ``rewards``, ``terminated``,
``truncated``, ``reasons``, ``steps``, ``winners`` (arrays of N rows), ``done()``,
``reset(seeds, indices)``, ``step(actions, reset_seeds)`` and ``set_bot(spec)``.
A subclass gives ``rules_type``, ``seat_names`` (or ``seats_of(rules)`` when a rules
option sets the number of players), ``num_actions``, ``observation_space_of(mask)``,
``make_batch(...)`` (its native batch for the options), ``bot_spec(name)`` (the native bot
of a name, ``ValueError`` for an unknown one), ``bots_spec(names)`` when it has more than
one opponent, and ``describe(i)`` (env i as one line of text).
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple, Union

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as exc:  # pragma: no cover - the rl extra is missing
    raise ImportError("the RL environments need gymnasium (pip install 'tictacblitz[rl]')") from exc

from .base import check_count

__all__ = [
    "NativeVectorEnv",
    "NativeSingleEnv",
    "check_count",
    "step_info",
    "observation_space",
    "rules_of",
    "seat_of",
    "opponents_of",
]


def step_info(
    reasons: Sequence[str], reason: int, steps: int, num_players: int = 2
) -> Dict[str, Any]:
    """The protocol env's info of one step of a turn-based game (docs/rl.md): ``reason``
    -1 no action, 0 accepted, else the 1-based position in ``reasons`` (the game's
    ``GameType.reasons``); ``rejected`` the reason itself; ``round_wins`` one 0 a seat
    (a game without rounds)."""
    return {
        "round": 1,
        "t": int(steps),
        "round_wins": (0,) * num_players,
        "reason": int(reason),
        "rejected": reasons[reason - 1] if reason > 0 else None,
        "steps": int(steps),
    }


def observation_space(shape: Sequence[int], num_actions: int, mask: bool = True) -> spaces.Dict:
    """One seat's observation: the game's tensor of ``shape`` and the legal-action mask
    (without it for ``mask=False``: the mask then travels in the info)."""
    fields: Dict[str, spaces.Space] = {
        "observation": spaces.Box(-np.inf, np.inf, tuple(shape), np.float32)
    }
    if mask:
        fields["action_mask"] = spaces.Box(0, 1, (num_actions,), np.int8)
    return spaces.Dict(fields)


def rules_of(rules_type: Any, rules: Any) -> Any:
    """A stepper's ``rules=`` option: None (the defaults), a ``rules_type``, or a mapping
    of overrides (``rules_type.from_dict`` checks them)."""
    if rules is None:
        return rules_type()
    return rules if isinstance(rules, rules_type) else rules_type.from_dict(rules)


def seat_of(seat: Any, seat_names: Sequence[str]) -> int:
    """An env's ``seat=`` option, a seat's index (0 to N-1) or its name, as the index.

    :raises ValueError: naming the bad value.
    """
    n = len(seat_names)
    if isinstance(seat, bool) or seat not in (*range(n), *seat_names):
        indices = "0 or 1" if n == 2 else f"0 to {n - 1}"
        names = ", ".join(seat_names)
        raise ValueError(f"seat must be {indices} or a seat's name ({names}), not {seat!r}")
    return list(seat_names).index(seat) if isinstance(seat, str) else int(seat)


def opponents_of(
    opponent: Any, seat: int, num_players: int, bot_names: Optional[Sequence[str]]
) -> Tuple[str, ...]:
    """An env's ``opponent=`` option as one bot name per other seat, in seat order (the
    agent's seat skipped; a name may be a player spec, ``greedy:error=10%``, issue 23,
    which the game's bots check): one name for all of them, ``num_players - 1`` names (the
    other seats in order), or ``num_players`` entries with ``None`` at the agent's seat.

    >>> opponents_of("greedy", 1, 3, ("random", "greedy"))
    ('greedy', 'greedy')
    >>> opponents_of(["random", None, "greedy"], 1, 3, ("random", "greedy"))
    ('random', 'greedy')

    :raises ValueError: naming the bad value (an unknown bot, a wrong count); with
        ``bot_names`` None the names are left to the caller to check.
    """
    if isinstance(opponent, str):
        names: Tuple[Any, ...] = (opponent,) * (num_players - 1)
    elif isinstance(opponent, Sequence) and len(opponent) == num_players - 1:
        names = tuple(opponent)
    elif isinstance(opponent, Sequence) and len(opponent) == num_players and opponent[seat] is None:
        names = tuple(name for k, name in enumerate(opponent) if k != seat)
    else:
        raise ValueError(
            f"opponent must be a bot name or a list of {num_players - 1} (the other seats in "
            f"order) or {num_players} (None at the agent's seat {seat}), not {opponent!r}"
        )
    if bot_names is not None:
        for name in names:  # a player spec (BOT:NAME=VALUE,...) the game's bots check
            if not isinstance(name, str) or (name not in bot_names and ":" not in name):
                known = ", ".join(bot_names)
                raise ValueError(f"unknown opponent {name!r}: expected one of {known}")
    return names


class NativeVectorEnv(VectorEnv):
    """``num_envs`` games against a native bot as one Gymnasium ``VectorEnv``.

    ``reset(seed=s)`` starts env i on the game of seed ``s + i`` (as Gymnasium's
    ``SyncVectorEnv`` seeds its envs); an env that ended restarts at the next step
    (NEXT_STEP) on a seed drawn from the env's generator; :attr:`episode_seeds` holds
    each env's current game seed.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["ansi"]}

    # What a game's subclass sets: its rules class, seat names, number of actions, and
    # (below) observation_space, make_batch, bot_spec and describe.
    rules_type: Any = None
    seat_names: Sequence[str] = ()
    num_actions: int = 0
    bot_names: Sequence[str] = ()

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
    ) -> None:
        """The options every stepper takes (the game's class documents them)."""
        self.check_options(num_envs, render_mode, max_steps)
        self.rules = rules_of(self.rules_type, rules)
        self.seat_names = tuple(self.seats_of(self.rules))
        self.seat = seat_of(seat, self.seat_names)
        threads = check_count(num_threads, "num_threads", optional=True) or 1
        self.batch = self.make_batch(
            num_envs, self._bots(opponent), self.seat, max_steps or 0, threads
        )
        self.num_envs = num_envs
        self.opponent = opponent
        self.copy = copy
        self.mask_in_info = mask_in_info
        self.render_mode = render_mode
        self.single_observation_space = self.observation_space_of(mask=not mask_in_info)
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.episode_seeds = np.zeros(num_envs, dtype=np.uint64)
        self._rng = np.random.default_rng(seed)
        self._all = np.ones(num_envs, dtype=bool)
        self.reset(seed=seed)

    @staticmethod
    def check_options(num_envs: Any, render_mode: Any, max_steps: Any = None) -> None:
        """The options every stepper takes, checked before its batch is made."""
        check_count(num_envs, "num_envs")
        check_count(max_steps, "max_steps", optional=True)
        if render_mode is not None and render_mode not in NativeVectorEnv.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")

    # -- what a game supplies ---------------------------------------------------------------
    @classmethod
    def observation_space_of(cls, mask: bool) -> spaces.Dict:  # pragma: no cover - each game's
        raise NotImplementedError

    def seats_of(self, rules: Any) -> Sequence[str]:
        """The seats of a game of these rules (a game whose rules set the number of
        players overrides this; the others have ``seat_names``)."""
        return type(self).seat_names

    def make_batch(  # pragma: no cover - each game's own
        self, num_envs: int, bot: Any, seat: int, max_steps: int, num_threads: int
    ) -> Any:
        """The game's native batch for these options (``max_steps`` 0: no limit; ``bot``:
        :meth:`bots_spec`'s)."""
        raise NotImplementedError

    def bot_spec(self, name: str) -> Any:  # pragma: no cover - each game's own
        raise NotImplementedError

    def bots_spec(self, names: Tuple[str, ...]) -> Any:
        """The native bots of the other seats (``names``: one per seat, in seat order):
        with one opponent its :meth:`bot_spec`; a game of more players overrides this."""
        if len(names) != 1:  # pragma: no cover - a game of N > 2 seats overrides this
            raise ValueError(f"{type(self).__name__} has one opponent, not {len(names)}")
        return self.bot_spec(names[0])

    def _bots(self, opponent: Any) -> Any:
        names = opponents_of(opponent, self.seat, len(self.seat_names), self.bot_names or None)
        return self.bots_spec(names)

    def describe(self, i: int) -> str:  # pragma: no cover - each game's own
        raise NotImplementedError

    # -- buffers ----------------------------------------------------------------------------
    def _obs(self) -> Dict[str, np.ndarray]:
        out: Dict[str, np.ndarray] = {"observation": self.batch.obs}
        if not self.mask_in_info:
            out["action_mask"] = self.batch.masks
        return {k: v.copy() for k, v in out.items()} if self.copy else out

    def _info(self) -> Dict[str, Any]:
        b = self.batch
        info: Dict[str, Any] = {
            "reason": b.reasons.astype(np.int64),
            "_reason": self._all,
            "steps": b.steps.astype(np.int64),
            "_steps": self._all,
            "winner": b.winners.astype(np.int64),
            "_winner": self._all,
            "seed": self.episode_seeds.copy(),
            "_seed": self._all,
        }
        if self.mask_in_info:
            info["action_mask"], info["_action_mask"] = b.masks.copy(), self._all
        return info

    def action_masks(self) -> np.ndarray:
        """Every env's legal actions now, bool (num_envs, num_actions), MaskablePPO's
        convention; an env whose episode ended allows every action (its next step is
        the reset), so a masked distribution is never empty."""
        masks = self.batch.masks.astype(bool)
        masks[~masks.any(axis=1)] = True
        return masks

    def set_opponent(self, opponent: Any) -> None:
        """Other bots from the next step on (between episodes, for a league): the
        ``opponent`` option's forms (:func:`opponents_of`)."""
        self.batch.set_bot(self._bots(opponent))
        self.opponent = opponent

    # -- gymnasium --------------------------------------------------------------------------
    def reset(
        self,
        *,
        seed: Union[None, int, Sequence[int], np.ndarray] = None,
        options: Optional[dict] = None,
    ):
        """Gymnasium 1.x reset; ``options={"reset_mask": bool (num_envs,)}`` resets only
        those envs. ``seed``: an int ``s`` (env i plays ``s + i``), one seed per env, or
        None (drawn from the env's generator)."""
        mask = None
        if options and "reset_mask" in options:
            mask = np.asarray(options["reset_mask"])
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
                raise ValueError(
                    f"options['reset_mask'] must be a bool array of shape "
                    f"({self.num_envs},), not {mask.dtype} {mask.shape}"
                )
        idx = np.arange(self.num_envs) if mask is None else np.flatnonzero(mask)
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            self._rng = np.random.default_rng(int(seed))
            seeds = np.uint64(int(seed) & 0xFFFFFFFFFFFFFFFF) + idx.astype(np.uint64)
        elif seed is None:
            seeds = self._rng.integers(0, 2**63, size=len(idx), dtype=np.uint64)
        else:
            all_seeds = np.asarray(seed)
            if all_seeds.shape != (self.num_envs,) or all_seeds.dtype.kind not in "iu":
                raise ValueError(
                    f"seed must be an int, None or {self.num_envs} integers, not {seed!r}"
                )
            seeds = all_seeds.astype(np.uint64)[idx]
        if len(idx):
            self.episode_seeds[idx] = seeds
            self.batch.reset(seeds, idx)
        return self._obs(), self._info()

    def step(self, actions: Any):
        arr = np.asarray(actions)
        if arr.shape != (self.num_envs,) or arr.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be {self.num_envs} integers, not {arr.dtype} {arr.shape}"
            )
        done = self.batch.done()
        reset_seeds = np.zeros(self.num_envs, dtype=np.uint64)
        if done.any():
            reset_seeds[done] = self._rng.integers(0, 2**63, size=int(done.sum()), dtype=np.uint64)
            self.episode_seeds[done] = reset_seeds[done]
        self.batch.step(arr.astype(np.int64), reset_seeds)
        b = self.batch
        rewards = b.rewards.astype(np.float64) if self.copy else b.rewards
        terminated = b.terminated.copy() if self.copy else b.terminated
        truncated = b.truncated.copy() if self.copy else b.truncated
        return self._obs(), rewards, terminated, truncated, self._info()

    def render(self) -> Any:
        """``ansi``: one line a env."""
        if self.render_mode != "ansi":
            return None
        return "\n".join(f"env {i}: {self.describe(i)}" for i in range(self.num_envs)) + "\n"

    def close_extras(self, **kwargs: Any) -> None:
        pass


class NativeSingleEnv(gymnasium.Env):
    """One game against a bot as a ``gymnasium.Env``: the game's stepper with one env
    (``vector_type``, a :class:`NativeVectorEnv`). ``reset(seed=s)`` plays the game of
    seed ``s`` (as the protocol env's ``GameEnv.reset(seed=s)`` does)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}
    vector_type: type
    reasons: Sequence[str] = ()

    def __init__(
        self,
        *,
        opponent: Any = "random",
        seat: Any = 0,
        rules: Any = None,
        max_steps: Optional[int] = None,
        mask_in_info: bool = False,
        render_mode: Optional[str] = None,
    ) -> None:
        self.vec = self.vector_type(
            1,
            opponent=opponent,
            seat=seat,
            rules=rules,
            max_steps=max_steps,
            mask_in_info=mask_in_info,
            num_threads=1,
            render_mode=render_mode,
        )
        self.render_mode = render_mode
        self.observation_space = self.vec.single_observation_space
        self.action_space = self.vec.single_action_space
        self.seat, self.rules = self.vec.seat, self.vec.rules
        self._over = True

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        match_seed = int(seed) if seed is not None else int(self.np_random.integers(0, 2**63))
        obs, _ = self.vec.reset(seed=[match_seed])
        self._over = False
        return self._one(obs), self._info()

    def step(self, action: Any):
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        obs, rewards, terminated, truncated, _ = self.vec.step(np.array([int(action)]))
        self._over = bool(terminated[0] or truncated[0])
        return (
            self._one(obs),
            float(rewards[0]),
            bool(terminated[0]),
            bool(truncated[0]),
            self._info(),
        )

    def _one(self, obs: Dict[str, np.ndarray]) -> Dict[str, np.ndarray]:
        return {k: v[0] for k, v in obs.items()}

    def _info(self) -> Dict[str, Any]:
        b = self.vec.batch
        info = step_info(self.reasons, int(b.reasons[0]), int(b.steps[0]), len(self.vec.seat_names))
        if self.vec.mask_in_info:
            info["action_mask"] = b.masks[0].copy()
        return info

    def action_masks(self) -> np.ndarray:
        return np.asarray(self.vec.action_masks()[0])

    def set_opponent(self, opponent: Any) -> None:
        self.vec.set_opponent(opponent)

    @property
    def match_seed(self) -> int:
        return int(self.vec.episode_seeds[0])

    def render(self) -> Any:
        if self.render_mode != "ansi":
            return None
        return self.vec.describe(0)
