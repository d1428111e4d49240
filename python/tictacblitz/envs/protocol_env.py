"""RL environments for any registered game, over the Game/State protocol only.

- :class:`GameEnv`: a ``gymnasium.Env``, one seat against one of the game's bots;
- :class:`GameAECEnv`: a PettingZoo ``AECEnv`` for alternating-turn games;
- :class:`GameParallelEnv`: a PettingZoo ``ParallelEnv`` for simultaneous-turn and
  real-time games (its AEC form comes from PettingZoo's own ``parallel_to_aec``).

Observations follow PettingZoo's classic convention: a dict with ``"observation"`` (the
game's ``observation(seat)``, float32 of ``game.observation_shape``) and
``"action_mask"`` (int8 of ``game.num_actions``, 1 where the action is legal now).
Rewards are the game's ``returns()`` at the end (+1 win, -1 loss, 0 draw).

A move the rules reject ends the episode for a turn-based game: the mover loses
(reward -1, the other seat +1), as in PettingZoo's classic games; the mask shows which
moves are legal. In a real-time game a rejection is part of play (another seat got
there first) and the episode goes on.

These run in Python, one protocol call at a time; a game that ships a native batched
stepper (its ``rl`` hook, e.g. Tic Tac Blitz) is served that instead by
:mod:`tictacblitz.envs`.
"""

from __future__ import annotations

import json
import pickle
from typing import Any, Callable, Dict, List, Optional, cast

import gymnasium
import numpy as np
from gymnasium import spaces

from ..games import Game, State, TimeModel, load_game
from ..games.base import check_count
from ..games.native_vector import observation_space as shared_observation_space
from ..games.rng import mix64
from .render import common_info, observation_rgb

__all__ = ["GameEnv", "GameAECEnv", "GameParallelEnv", "GameVectorEnv", "observation_space"]

ILLEGAL_MOVE_REWARD = -1.0


def _game(game: Any, rules: Optional[Dict[str, Any]]) -> Game:
    if isinstance(game, str):
        return load_game(game, rules)
    if rules:
        return game.with_rules(rules)
    return game


def observation_space(game: Game, mask: bool = True) -> spaces.Dict:
    """One seat's observation: the game's tensor and the legal-action mask (without it
    for ``mask=False``: the mask then travels in the info)."""
    return shared_observation_space(game.observation_shape, game.num_actions, mask)


def _observe(state: State, seat: int, mask: bool = True) -> Dict[str, np.ndarray]:
    out = {"observation": state.observation(seat)}
    if mask:
        out["action_mask"] = state.legal_mask(seat).astype(np.int8)
    return out


def _state_space(game: Game) -> spaces.Box:
    return spaces.Box(-np.inf, np.inf, game.observation_shape, np.float32)


def _ansi(state: State) -> str:
    summary = state.summary()
    if "board" in summary:
        return "\n".join(summary["board"])
    return json.dumps(summary, sort_keys=True)


def _seed_of(seed: Optional[int], np_random: np.random.Generator) -> int:
    return int(seed) if seed is not None else int(np_random.integers(0, 2**63))


class GameEnv(gymnasium.Env):
    """One seat of a game against one of its bots, as a ``gymnasium.Env``.

    :param game: a registered game's name or a :class:`Game`.
    :param opponent: a bot name of the game (``game.bot_names``), default ``"random"``.
    :param seat: the agent's seat, 0 or 1.
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
        opponent: str = "random",
        seat: int = 0,
        rules: Optional[Dict[str, Any]] = None,
        interval_ms: int = 50,
        max_steps: Optional[int] = None,
        mask_in_info: bool = False,
        shaping: Optional[Callable[[Dict[str, np.ndarray]], float]] = None,
        shaping_gamma: float = 0.99,
        render_mode: Optional[str] = None,
    ) -> None:
        self.game = _game(game, rules)
        if shaping is not None and not callable(shaping):
            raise TypeError(f"shaping must be a callable obs -> potential, not {shaping!r}")
        if not 0.0 <= shaping_gamma <= 1.0:
            raise ValueError(f"shaping_gamma must be in [0, 1], not {shaping_gamma!r}")
        self.shaping, self.shaping_gamma, self._phi = shaping, shaping_gamma, 0.0
        if opponent not in self.game.bot_names:
            raise ValueError(
                f"unknown opponent {opponent!r}: expected one of {', '.join(self.game.bot_names)}"
            )
        if seat not in (0, 1) or isinstance(seat, bool):
            raise ValueError(f"seat must be 0 or 1, not {seat!r}")
        if isinstance(interval_ms, bool) or not isinstance(interval_ms, int) or interval_ms < 1:
            raise ValueError(f"interval_ms must be an integer >= 1, not {interval_ms!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'rgb_array', not {render_mode!r}"
            )
        self.opponent_name, self.seat, self.interval_ms = opponent, seat, interval_ms
        self.max_steps, self.render_mode = max_steps, render_mode
        self.mask_in_info = mask_in_info
        self.observation_space = observation_space(self.game, mask=not mask_in_info)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.state: Optional[State] = None
        self._steps = 0

    # -- gymnasium ----------------------------------------------------------------------
    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        match_seed = _seed_of(seed, self.np_random)
        self.state = self.game.new_state(match_seed)
        self.opponent = self.game.make_bot(self.opponent_name, seed=mix64(match_seed))
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
        state, me, other = self.state, self.seat, 1 - self.seat
        model = self.game.type.time_model
        action = int(action)
        if model is TimeModel.ALTERNATING:
            reason = state.apply(me, action)
        else:
            joint = [None, None]
            joint[me] = action
            if other in state.to_move():
                joint[other] = self.opponent.choose(state, other)
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
        return self.state.legal_mask(self.seat)

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
                    "opponent": self.opponent,
                    "steps": self._steps,
                    "opponent_name": self.opponent_name,
                    "np_random": self.np_random.bit_generator.state,
                }
            )
        except (TypeError, pickle.PicklingError) as exc:
            raise TypeError(
                f"{self.game.type.name}: this env cannot be snapshotted ({exc})"
            ) from None

    def set_state(self, snapshot: bytes) -> None:
        data = pickle.loads(snapshot)
        self.state, self.opponent, self._steps = data["state"], data["opponent"], data["steps"]
        self.opponent_name = data["opponent_name"]
        self.np_random.bit_generator.state = data["np_random"]

    def set_opponent(self, opponent: str) -> None:
        """Another of the game's bots, from the next reset on."""
        if opponent not in self.game.bot_names:
            raise ValueError(
                f"unknown opponent {opponent!r}: expected one of {', '.join(self.game.bot_names)}"
            )
        self.opponent_name = opponent

    def render(self):
        if self.state is None:
            return None
        if self.render_mode == "ansi":
            return _ansi(self.state)
        if self.render_mode == "rgb_array":
            return observation_rgb(self.state.observation(0))
        return None

    # -- helpers ------------------------------------------------------------------------
    def _live(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() first")
        return self.state

    def _observe(self) -> Dict[str, np.ndarray]:
        return _observe(self._live(), self.seat, not self.mask_in_info)

    def _opponent_turns(self) -> None:
        """Alternating games: the opponent moves until it is the agent's turn."""
        state, other = self._live(), 1 - self.seat
        if self.game.type.time_model is not TimeModel.ALTERNATING:
            return
        while not state.is_over() and state.to_move() == (other,):
            move = self.opponent.choose(state, other)
            if move is None:  # a turn-based bot always has a move
                raise RuntimeError(f"the {self.opponent_name} bot passed its turn")
            state.apply(other, move)

    def _info(self, reason: Optional[str], acted: bool = True) -> Dict[str, Any]:
        state = self._live()
        info = common_info(state, self.seat, reason, acted, self._steps)
        if self.mask_in_info:
            info["action_mask"] = state.legal_mask(self.seat).astype(np.int8)
        return info


def _pettingzoo():
    try:
        import pettingzoo
    except ImportError:
        raise ImportError(
            "the PettingZoo environments need pettingzoo (pip install 'tictacblitz[rl]')"
        ) from None
    return pettingzoo


class _Seats:
    """What the two PettingZoo faces share: agents named by the game's seats."""

    metadata: Dict[str, Any] = {
        "render_modes": ["ansi", "rgb_array"],
        "is_parallelizable": True,
        "render_fps": 4,
    }

    def _setup(
        self,
        game: Any,
        rules: Optional[Dict[str, Any]],
        render_mode: Optional[str],
        mask_in_info: bool = False,
    ):
        self.game = _game(game, rules)
        if render_mode is not None and render_mode not in ("ansi", "rgb_array"):
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'rgb_array', not {render_mode!r}"
            )
        self.render_mode = render_mode
        self.mask_in_info = mask_in_info
        self.possible_agents = list(self.game.seat_names)
        self._space = observation_space(self.game, mask=not mask_in_info)
        self.state_space = _state_space(self.game)
        self._actions = spaces.Discrete(self.game.num_actions)
        self.current: Any = None  # the State being played (after reset)

    def observation_space(self, agent: str) -> spaces.Space:
        return self._space

    def action_space(self, agent: str) -> spaces.Space:
        return self._actions

    def seat_of(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def render(self):
        if self.current is None:
            return None
        if self.render_mode == "ansi":
            return _ansi(self.current)
        if self.render_mode == "rgb_array":
            return observation_rgb(self.current.observation(0))
        return None

    def state(self) -> np.ndarray:
        """The global state (``state_space``): seat 0's observation tensor; the games
        are of perfect information, so it holds the whole state."""
        return np.asarray(self.current.observation(0), dtype=np.float32)

    def action_masks(self) -> Dict[str, np.ndarray]:
        """Each agent's legal actions now, bool (num_actions,)."""
        return {a: self.current.legal_mask(i) for i, a in enumerate(self.possible_agents)}

    def _obs_of(self, seat: int) -> Dict[str, np.ndarray]:
        return _observe(self.current, seat, not self.mask_in_info)

    def _info_of(self, seat: int, reason: Optional[str], acted: bool, steps: int) -> Dict[str, Any]:
        info = common_info(self.current, seat, reason, acted, steps)
        if self.mask_in_info:
            info["action_mask"] = self.current.legal_mask(seat).astype(np.int8)
        return info

    def close(self) -> None:
        pass


def GameAECEnv(
    game: Any,
    *,
    rules: Optional[Dict[str, Any]] = None,
    mask_in_info: bool = False,
    render_mode: Optional[str] = None,
):
    """A PettingZoo ``AECEnv`` of an alternating-turn game (both seats are agents)."""
    pettingzoo = _pettingzoo()
    from pettingzoo.utils import AgentSelector

    class _AEC(_Seats, pettingzoo.AECEnv):  # type: ignore[name-defined]
        def __init__(self) -> None:
            super().__init__()
            self._setup(game, rules, render_mode, mask_in_info)
            if self.game.type.time_model is not TimeModel.ALTERNATING:
                raise ValueError(
                    f"{self.game.type.name} is not turn-based: use "
                    "tictacblitz.envs.aec_env (parallel_to_aec) instead"
                )
            self.metadata = {**_Seats.metadata, "name": f"tictacblitz_{self.game.type.name}_v0"}

        def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
            self.current = self.game.new_state(seed if seed is not None else 0)
            self.agents = self.possible_agents[:]
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self._steps = 0
            self.infos = {a: self._info_of(i, None, False, 0) for i, a in enumerate(self.agents)}
            self._selector = AgentSelector(self.agents)
            self.agent_selection = self.possible_agents[self.current.to_move()[0]]

        def observe(self, agent: str) -> Dict[str, np.ndarray]:
            return self._obs_of(self.seat_of(agent))

        def step(self, action) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            seat = self.seat_of(agent)
            self._cumulative_rewards[agent] = 0.0
            reason = self.current.apply(seat, int(action))
            self._steps += 1
            self.infos = {
                a: self._info_of(i, reason if i == seat else None, i == seat, self._steps)
                for i, a in enumerate(self.possible_agents)
            }
            if reason is not None:  # the mover loses (module docstring)
                rewards = {
                    agent: ILLEGAL_MOVE_REWARD,
                    self.possible_agents[1 - seat]: -ILLEGAL_MOVE_REWARD,
                }
                self._finish(rewards)
            elif self.current.is_over():
                returns = self.current.returns()
                self._finish({a: float(returns[i]) for i, a in enumerate(self.possible_agents)})
            else:
                self.rewards = dict.fromkeys(self.agents, 0.0)
                self.agent_selection = self.possible_agents[self.current.to_move()[0]]
            self._accumulate_rewards()

        def _finish(self, rewards: Dict[str, float]) -> None:
            self.rewards = rewards
            self.terminations = dict.fromkeys(self.agents, True)

    return _AEC()


def GameParallelEnv(
    game: Any,
    *,
    rules: Optional[Dict[str, Any]] = None,
    interval_ms: int = 50,
    max_steps: Optional[int] = None,
    mask_in_info: bool = False,
    render_mode: Optional[str] = None,
):
    """A PettingZoo ``ParallelEnv`` of a simultaneous-turn or real-time game."""
    pettingzoo = _pettingzoo()

    class _Parallel(_Seats, pettingzoo.ParallelEnv):  # type: ignore[name-defined]
        def __init__(self) -> None:
            super().__init__()
            self._setup(game, rules, render_mode, mask_in_info)
            if self.game.type.time_model is TimeModel.ALTERNATING:
                raise ValueError(
                    f"{self.game.type.name} is turn-based: use the AEC env "
                    "(tictacblitz.envs.aec_env)"
                )
            self.metadata = {**_Seats.metadata, "name": f"tictacblitz_{self.game.type.name}_v0"}
            self.interval_ms, self.max_steps = interval_ms, max_steps

        def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
            self.current = self.game.new_state(seed if seed is not None else 0)
            self.agents = self.possible_agents[:]
            self._steps = 0
            return (
                {a: self._obs_of(i) for i, a in enumerate(self.agents)},
                {a: self._info_of(i, None, False, 0) for i, a in enumerate(self.agents)},
            )

        def step(self, actions: Dict[str, Any]):
            state = self.current
            joint = tuple(
                None if actions.get(a) is None else int(actions[a]) for a in self.possible_agents
            )
            movers = state.to_move()
            joint = tuple(a if i in movers else None for i, a in enumerate(joint))
            reasons = state.apply_joint(joint)
            real_time = self.game.type.time_model is TimeModel.REAL_TIME
            if real_time and not state.is_over():
                nxt = state.next_decision_t()
                state.advance(0 if nxt == 0 else self.interval_ms)
            self._steps += 1
            rewards = dict.fromkeys(self.agents, 0.0)
            done = state.is_over()
            illegal = [i for i, r in enumerate(reasons) if r is not None] if not real_time else []
            if illegal:  # the mover loses (module docstring)
                done = True
                for i in illegal:
                    rewards[self.possible_agents[i]] += ILLEGAL_MOVE_REWARD
                    rewards[self.possible_agents[1 - i]] -= ILLEGAL_MOVE_REWARD
            elif done:
                returns = state.returns()
                rewards = {a: float(returns[i]) for i, a in enumerate(self.possible_agents)}
            truncated = not done and self.max_steps is not None and self._steps >= self.max_steps
            observations = {a: self._obs_of(i) for i, a in enumerate(self.possible_agents)}
            infos = {
                a: self._info_of(
                    i,
                    reasons[i],
                    joint[i] is not None and not (real_time and joint[i] == 0),
                    self._steps,
                )
                for i, a in enumerate(self.possible_agents)
            }
            terminations = dict.fromkeys(self.agents, done)
            truncations = dict.fromkeys(self.agents, truncated)
            if done or truncated:
                self.agents = []
            return observations, rewards, terminations, truncations, infos

    return _Parallel()


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
        every action allowed, so that a masked distribution is never empty."""
        masks = np.stack([env.action_masks() for env in self.game_envs])
        masks[~masks.any(axis=1)] = True
        return masks

    def set_opponent(self, opponent: str) -> None:
        """Another of the game's bots from each env's next reset on."""
        for env in self.game_envs:
            if opponent not in env.game.bot_names:
                raise ValueError(
                    f"unknown opponent {opponent!r}: expected one of "
                    f"{', '.join(env.game.bot_names)}"
                )
            env.opponent_name = opponent

    def render(self):
        frames = super().render()
        if frames is not None and self.render_mode == "ansi":
            return "\n\n".join(f"env {i}:\n{f}" for i, f in enumerate(frames)) + "\n"
        return frames
