"""Gymnasium environments for any registered game, over the Game/State protocol only.

- :class:`GameEnv`: a ``gymnasium.Env``, one seat against the game's bots in every
  other seat (one bot name for all, or one per seat; issue 25: a game of N seats);
- :class:`GameVectorEnv`: Gymnasium's ``SyncVectorEnv`` over :class:`GameEnv` copies.

The PettingZoo faces (every seat an agent) are in :mod:`tictacblitz.envs.multi_agent`.

Observations follow PettingZoo's classic convention: a dict with ``"observation"`` (the
game's ``observation(seat)``, float32 of ``game.observation_shape``) and
``"action_mask"`` (int8 of ``game.num_actions``, 1 where the action is legal now).
Rewards are the game's ``returns()`` at the end (+1 win, -1 loss, 0 draw with two
seats; with N the core's: +1 the winner, -1/(N-1) each loser, 0 a draw).

A move the rules reject ends the episode for a turn-based game: the mover loses
(reward -1; in the PettingZoo faces each other seat gets +1/(N-1), so the rewards still
sum to zero), as in PettingZoo's classic games; the mask shows which moves are legal. In
a real-time game a rejection is part of play (another seat got there first) and the
episode goes on.

These run in Python, one protocol call at a time; a game that ships a native batched
stepper (its ``rl`` hook, e.g. Tic Tac Blitz) is served that instead by
:mod:`tictacblitz.envs`.
"""

from __future__ import annotations

import json
import pickle
from typing import Any, Callable, Dict, List, Optional, Tuple, cast

import gymnasium
import numpy as np
from gymnasium import spaces

from ..games import Game, State, TimeModel, load_game
from ..games.base import check_count
from ..games.rng import mix64
from .games import native_env
from .native.options import NOOP_ACTION, opponents_of, seat_of
from .native.options import observation_space as shared_observation_space
from .render import common_info, observation_rgb

__all__ = ["GameEnv", "GameVectorEnv", "observation_space", "opponent_seed", "ILLEGAL_MOVE_REWARD"]

ILLEGAL_MOVE_REWARD = -1.0


def opponent_seed(match_seed: int, k: int) -> int:
    """The seed of the k-th opponent bot (k = 0 for the first other seat in seat order)
    of the game of ``match_seed``: ``mix64(match_seed) ^ k``, so the one opponent of a
    two-seat game is seeded ``mix64(match_seed)`` as before issue 25 (a native stepper
    seeds its bots the same way)."""
    return mix64(match_seed) ^ k


def game_of(game: Any, rules: Optional[Dict[str, Any]]) -> Game:
    if isinstance(game, str):
        return load_game(game, rules)
    if rules:
        return game.with_rules(rules)
    return game


def observation_bounds(game: Game) -> Optional[Tuple[Any, Any]]:
    """The game's observation bounds, from its RL adapter's ``observation_bounds(rules)``
    (``envs/games/<name>.py``) when it has one; None: unbounded."""
    adapter = native_env(game.type.name)
    return None if adapter is None else adapter.observation_bounds(getattr(game, "rules", None))


def observation_space(game: Game, mask: bool = True) -> spaces.Dict:
    """One seat's observation: the game's tensor (bounded by :func:`observation_bounds`)
    and the legal-action mask (without it for ``mask=False``: the mask then travels in
    the info)."""
    bounds = observation_bounds(game)
    return shared_observation_space(game.observation_shape, game.num_actions, mask, bounds)


def legal_mask(state: State, seat: int) -> np.ndarray:
    """The seat's legal actions (bool); once the game is over, :data:`NOOP_ACTION` alone
    (issue 28: a mask is never empty; the action is ignored)."""
    mask = state.legal_mask(seat)
    if state.is_over():
        mask = np.zeros_like(mask)
        mask[NOOP_ACTION] = True
    return mask


def observe(state: State, seat: int, mask: bool = True) -> Dict[str, np.ndarray]:
    out = {"observation": state.observation(seat)}
    if mask:
        out["action_mask"] = legal_mask(state, seat).astype(np.int8)
    return out


def ansi_text(state: State) -> str:
    summary = state.summary()
    if "board" in summary:
        return "\n".join(summary["board"])
    return json.dumps(summary, sort_keys=True)


def _seed_of(seed: Optional[int], np_random: np.random.Generator) -> int:
    return int(seed) if seed is not None else int(np_random.integers(0, 2**63))


class GameEnv(gymnasium.Env):
    """One seat of a game against its bots in the other seats, as a ``gymnasium.Env``.

    :param game: a registered game's name or a :class:`Game`.
    :param opponent: a bot name of the game (``game.bot_names``, default ``"random"``)
        for every other seat, or one per other seat (N - 1 names in seat order, or N
        with None at the agent's seat: :func:`~tictacblitz.envs.native.options.opponents_of`).
        The k-th opponent is seeded :func:`opponent_seed`.
    :param seat: the agent's seat, 0 to N - 1 or its name (``game.seat_names``).
    :param rules: rule overrides (validated by the game).
    :param interval_ms: real-time games only: game time per step (default 50).
    :param max_steps: truncate after this many steps (None: play to the end).
    :param mask_in_info: the legal-action mask in ``info["action_mask"]`` instead of
        the observation (``action_masks()`` gives it either way).
    :param shaping: None (default) or a potential ``phi(obs) -> float``: adds
        ``shaping_gamma * phi(s') - phi(s)`` to each reward (phi = 0 at the end).
    :param render_mode: None, ``"ansi"`` or ``"rgb_array"`` (the observation tensor as
        an image, :func:`tictacblitz.envs.render.observation_rgb`).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        game: Any = "blitz",
        *,
        opponent: Any = "random",
        seat: Any = 0,
        rules: Optional[Dict[str, Any]] = None,
        interval_ms: int = 50,
        max_steps: Optional[int] = None,
        mask_in_info: bool = False,
        shaping: Optional[Callable[[Dict[str, np.ndarray]], float]] = None,
        shaping_gamma: float = 0.99,
        render_mode: Optional[str] = None,
    ) -> None:
        self.game = game_of(game, rules)
        if shaping is not None and not callable(shaping):
            raise TypeError(f"shaping must be a callable obs -> potential, not {shaping!r}")
        if not 0.0 <= shaping_gamma <= 1.0:
            raise ValueError(f"shaping_gamma must be in [0, 1], not {shaping_gamma!r}")
        self.shaping, self.shaping_gamma, self._phi = shaping, shaping_gamma, 0.0
        self.seat_names: Tuple[str, ...] = tuple(self.game.seat_names)
        self.seat = seat_of(seat, self.seat_names)
        self.opponent_seats = tuple(k for k in range(len(self.seat_names)) if k != self.seat)
        self.opponent_names = self._opponents(opponent)
        if isinstance(interval_ms, bool) or not isinstance(interval_ms, int) or interval_ms < 1:
            raise ValueError(f"interval_ms must be an integer >= 1, not {interval_ms!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'rgb_array', not {render_mode!r}"
            )
        self.interval_ms = interval_ms
        self.max_steps, self.render_mode = max_steps, render_mode
        self.mask_in_info = mask_in_info
        self.observation_space = observation_space(self.game, mask=not mask_in_info)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.state: Optional[State] = None
        self.bots: Dict[int, Any] = {}  # seat -> its bot (after reset)
        self._steps = 0

    # -- gymnasium ----------------------------------------------------------------------
    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        match_seed = _seed_of(seed, self.np_random)
        self.state = self.game.new_state(match_seed)
        self.bots = {
            seat: self.game.make_bot(name, seed=opponent_seed(match_seed, k))
            for k, (seat, name) in enumerate(
                zip(self.opponent_seats, self.opponent_names, strict=True)
            )
        }
        self._steps = 0
        self._opponent_turns()
        obs = self._observe()
        if self.shaping is not None:
            self._phi = float(self.shaping(obs))
        return obs, self._info(None, acted=False)

    def step(self, action):
        obs, reward, terminated, truncated, info = self._step(action)
        if self.shaping is not None:  # potential-based: phi = 0 at the end
            nxt = 0.0 if terminated or truncated else float(self.shaping(obs))
            reward = reward + self.shaping_gamma * nxt - self._phi
            self._phi = nxt
        return obs, reward, terminated, truncated, info

    def _step(self, action):
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        state, me = self.state, self.seat
        model = self.game.type.time_model
        action = int(action)
        if model is TimeModel.ALTERNATING:
            reason = state.apply(me, action)
        else:
            joint: List[Optional[int]] = [None] * len(self.seat_names)
            joint[me] = action
            for other in state.to_move():
                if other != me:
                    joint[other] = self.bots[other].choose(state, other)
            reason = state.apply_joint(tuple(joint))[me]
            if model is TimeModel.REAL_TIME and not state.is_over():
                nxt = state.next_decision_t()
                state.advance(0 if nxt == 0 else self.interval_ms)
        self._steps += 1
        acted = not (model is TimeModel.REAL_TIME and action == 0)
        if reason is not None and model is not TimeModel.REAL_TIME:
            return (self._observe(), ILLEGAL_MOVE_REWARD, True, False, self._info(reason, acted))
        self._opponent_turns()
        terminated = state.is_over()
        reward = state.returns()[me] if terminated else 0.0
        truncated = not terminated and self.max_steps is not None and self._steps >= self.max_steps
        return (
            self._observe(),
            float(reward),
            terminated,
            bool(truncated),
            self._info(reason, acted),
        )

    def action_masks(self) -> np.ndarray:
        """The legal actions now as a bool array (sb3-contrib's MaskablePPO calls this)."""
        if self.state is None:
            raise RuntimeError("call reset() before action_masks()")
        return legal_mask(self.state, self.seat)

    def get_state(self) -> bytes:
        """A snapshot (the game state, the opponent bot with its stream, the step count,
        ``np_random``) that :meth:`set_state` resumes identically.

        :raises TypeError: when the game's state or bot cannot be pickled."""
        if self.state is None:
            raise RuntimeError("call reset() before get_state()")
        try:
            return pickle.dumps(
                {
                    "state": self.state,
                    "bots": self.bots,
                    "steps": self._steps,
                    "opponent_names": self.opponent_names,
                    "np_random": self.np_random.bit_generator.state,
                }
            )
        except (TypeError, pickle.PicklingError) as exc:
            raise TypeError(
                f"{self.game.type.name}: this env cannot be snapshotted ({exc})"
            ) from None

    def set_state(self, snapshot: bytes) -> None:
        data = pickle.loads(snapshot)
        self.state, self.bots, self._steps = data["state"], data["bots"], data["steps"]
        self.opponent_names = data["opponent_names"]
        self.np_random.bit_generator.state = data["np_random"]

    def set_opponent(self, opponent: Any) -> None:
        """Other bots of the game from the next reset on (the ``opponent`` option's forms)."""
        self.opponent_names = self._opponents(opponent)

    def render(self):
        if self.state is None:
            return None
        if self.render_mode == "ansi":
            return ansi_text(self.state)
        if self.render_mode == "rgb_array":
            return observation_rgb(self.state.observation(0))
        return None

    # -- helpers ------------------------------------------------------------------------
    def _live(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() first")
        return self.state

    def _observe(self) -> Dict[str, np.ndarray]:
        return observe(self._live(), self.seat, not self.mask_in_info)

    def _opponents(self, opponent: Any) -> Tuple[str, ...]:
        return opponents_of(opponent, self.seat, len(self.seat_names), self.game.bot_names)

    def _opponent_turns(self) -> None:
        """Alternating games: the other seats' bots move, in turn order, until it is the
        agent's turn or the game is over."""
        state = self._live()
        if self.game.type.time_model is not TimeModel.ALTERNATING:
            return
        while not state.is_over() and self.seat not in state.to_move():
            (other,) = state.to_move()
            move = self.bots[other].choose(state, other)
            if move is None:  # a turn-based bot always has a move
                raise RuntimeError(f"the {self.seat_names[other]} seat's bot passed its turn")
            state.apply(other, move)

    def _info(self, reason: Optional[str], acted: bool = True) -> Dict[str, Any]:
        state = self._live()
        info = common_info(state, self.seat, reason, acted, self._steps)
        if self.mask_in_info:
            info["action_mask"] = legal_mask(state, self.seat).astype(np.int8)
        return info


class GameVectorEnv(gymnasium.vector.SyncVectorEnv):
    """Gymnasium's ``SyncVectorEnv`` over :class:`GameEnv` copies, with the
    conventions of the native vector envs: ``action_masks()`` (num_envs, num_actions),
    ``reset(options={"reset_mask": ...})`` (Gymnasium's own), ``render()`` (a tuple of
    frames for ``"rgb_array"``, one text for ``"ansi"``) and ``set_opponent``.

    :param game: a registered game's name or a :class:`Game`.
    :param num_envs: how many envs.
    :param options: :class:`GameEnv`'s.
    """

    def __init__(self, game: Any, num_envs: int = 1, **options: Any) -> None:
        check_count(num_envs, "num_envs")
        super().__init__([lambda: GameEnv(game, **options) for _ in range(num_envs)])

    @property
    def game_envs(self) -> List[GameEnv]:
        """The sub-envs (``envs``, typed)."""
        return [cast(GameEnv, env) for env in self.envs]

    def action_masks(self) -> np.ndarray:
        """Every env's legal actions now, bool (num_envs, num_actions). An env whose
        episode ended (its next step is the auto-reset, which ignores the action) has
        the no-op alone (:func:`legal_mask`), so a masked distribution is never empty."""
        masks = np.stack([env.action_masks() for env in self.game_envs])
        masks[~masks.any(axis=1)] = True
        return masks

    def set_opponent(self, opponent: Any) -> None:
        """Other bots of the game from each env's next reset on (:class:`GameEnv`'s
        ``opponent`` forms); checked once, before any env changes."""
        envs = self.game_envs
        names = envs[0]._opponents(opponent)
        for env in envs:
            env.opponent_names = names

    def render(self):
        frames = super().render()
        if frames is not None and self.render_mode == "ansi":
            return "\n\n".join(f"env {i}:\n{f}" for i, f in enumerate(frames)) + "\n"
        return frames
