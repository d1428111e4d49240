"""PettingZoo environments for any registered game: every seat is an agent.

- :class:`GameAECEnv`: a PettingZoo ``AECEnv`` for alternating-turn games, one agent per
  seat of the game (``game.seat_names``: two for Blitz and Rift, two to four for Doh);
  the agent to move is the seat the game waits for, in its turn order;
- :class:`GameParallelEnv`: a PettingZoo ``ParallelEnv``: simultaneous-turn and
  real-time games (its AEC form comes from PettingZoo's own ``parallel_to_aec``), and
  alternating games, where a step is one move: only the seat to move acts (the others'
  masks are all zeros and their actions are ignored; issue 25).

Rewards are the game's ``returns()`` on the step that ends it (+1 the winner, -1/(N-1)
each loser, 0 all for a draw: zero-sum for any N). A move the rules reject ends the
episode for a turn-based game: -1 for the seat that made it, +1/(N-1) for each other
(zero-sum too; with two seats -1 and +1, as before). When the game is over every agent
is terminated at once.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, cast

import numpy as np
from gymnasium import spaces

from ..games import TimeModel
from .native.options import next_game_seed
from .protocol_env import (
    ILLEGAL_MOVE_REWARD,
    ansi_text,
    game_of,
    legal_mask,
    observation_space,
    observe,
)
from .render import common_info, observation_rgb

__all__ = ["GameAECEnv", "GameParallelEnv", "illegal_move_rewards"]


def illegal_move_rewards(num_players: int, at_fault: Sequence[int]) -> List[float]:
    """Each seat's reward when the seats ``at_fault`` made moves the rules reject: -1 for
    each of them, and +1/(N-1) to every other seat per fault (zero-sum).

    >>> illegal_move_rewards(2, [0])
    [-1.0, 1.0]
    >>> illegal_move_rewards(3, [1])
    [0.5, -1.0, 0.5]
    """
    rewards = [0.0] * num_players
    share = -ILLEGAL_MOVE_REWARD / (num_players - 1)
    for seat in at_fault:
        for other in range(num_players):
            rewards[other] += ILLEGAL_MOVE_REWARD if other == seat else share
    return rewards


def pettingzoo_module() -> Any:
    """PettingZoo, imported on first use (it is the rl extra's): one line naming the extra
    when it is missing."""
    try:
        import pettingzoo
    except ImportError:
        raise ImportError(
            "the PettingZoo environments need pettingzoo (pip install 'tictacblitz[rl]')"
        ) from None
    return pettingzoo


class _Seats:
    """What the two PettingZoo faces share: one agent per seat, named by the game."""

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
        self.game = game_of(game, rules)
        if render_mode is not None and render_mode not in ("ansi", "rgb_array"):
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'rgb_array', not {render_mode!r}"
            )
        self.render_mode = render_mode
        self.mask_in_info = mask_in_info
        self.possible_agents = list(self.game.seat_names)
        self._space = observation_space(self.game, mask=not mask_in_info)
        obs_box = cast(spaces.Box, self._space["observation"])
        if self.game.type.perfect_information:
            self.state_space = obs_box
        else:  # every seat's observation, flattened (state())
            seats = len(self.possible_agents)
            self.state_space = spaces.Box(
                np.tile(obs_box.low.ravel(), seats), np.tile(obs_box.high.ravel(), seats)
            )
        self._actions = spaces.Discrete(self.game.num_actions)
        self.current: Any = None  # the State being played (after reset)
        self._seeds: Optional[np.random.Generator] = None
        self.metadata = {**_Seats.metadata, "name": f"tictacblitz_{self.game.type.name}_v0"}

    def observation_space(self, agent: str) -> spaces.Space:
        return self._space

    def _game_seed(self, seed: Optional[int]) -> int:
        """A reset's game seed (:func:`~tictacblitz.envs.native.options.next_game_seed`)."""
        self._seeds, game_seed = next_game_seed(self._seeds, seed)
        return game_seed

    def action_space(self, agent: str) -> spaces.Space:
        return self._actions

    def seat_of(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def render(self):
        if self.current is None:
            return None
        if self.render_mode == "ansi":
            return ansi_text(self.current)
        if self.render_mode == "rgb_array":
            return observation_rgb(self.current.observation(0))
        return None

    def state(self) -> np.ndarray:
        """The true global state (``state_space``): seat 0's observation tensor in a game
        of perfect information (it holds the whole state); else every seat's, in seat
        order, flattened, so that each seat's secrets are in it (issue 28: Rift's
        objectives)."""
        if self.game.type.perfect_information:
            return np.asarray(self.current.observation(0), dtype=np.float32)
        seats = range(len(self.possible_agents))
        return np.concatenate(
            [np.asarray(self.current.observation(i), np.float32).ravel() for i in seats]
        )

    def action_masks(self) -> Dict[str, np.ndarray]:
        """Each agent's legal actions now, bool (num_actions,)."""
        return {a: legal_mask(self.current, i) for i, a in enumerate(self.possible_agents)}

    def _obs_of(self, seat: int) -> Dict[str, np.ndarray]:
        return observe(self.current, seat, not self.mask_in_info)

    def _info_of(self, seat: int, reason: Optional[str], acted: bool, steps: int) -> Dict[str, Any]:
        info = common_info(self.current, seat, reason, acted, steps)
        if self.mask_in_info:
            info["action_mask"] = legal_mask(self.current, seat).astype(np.int8)
        return info

    def _end_rewards(self) -> Dict[str, float]:
        returns = self.current.returns()
        return {a: float(returns[i]) for i, a in enumerate(self.possible_agents)}

    def close(self) -> None:
        pass


def GameAECEnv(
    game: Any,
    *,
    rules: Optional[Dict[str, Any]] = None,
    mask_in_info: bool = False,
    render_mode: Optional[str] = None,
):
    """A PettingZoo ``AECEnv`` of an alternating-turn game (every seat is an agent)."""
    pettingzoo = pettingzoo_module()

    class _AEC(_Seats, pettingzoo.AECEnv):  # type: ignore[name-defined]
        def __init__(self) -> None:
            super().__init__()
            self._setup(game, rules, render_mode, mask_in_info)
            if self.game.type.time_model is not TimeModel.ALTERNATING:
                raise ValueError(
                    f"{self.game.type.name} is not turn-based: use "
                    "tictacblitz.envs.aec_env (parallel_to_aec) instead"
                )

        def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
            self.current = self.game.new_state(self._game_seed(seed))
            self.agents = self.possible_agents[:]
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self._steps = 0
            self.infos = {a: self._info_of(i, None, False, 0) for i, a in enumerate(self.agents)}
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
                rewards = illegal_move_rewards(len(self.possible_agents), [seat])
                self._finish(dict(zip(self.possible_agents, rewards, strict=True)))
            elif self.current.is_over():
                self._finish(self._end_rewards())
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
    """A PettingZoo ``ParallelEnv`` of any game (an alternating game's step is the move
    of the seat to move; the others' actions are ignored: see the module)."""
    pettingzoo = pettingzoo_module()

    class _Parallel(_Seats, pettingzoo.ParallelEnv):  # type: ignore[name-defined]
        def __init__(self) -> None:
            super().__init__()
            self._setup(game, rules, render_mode, mask_in_info)
            self.interval_ms, self.max_steps = interval_ms, max_steps

        def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
            self.current = self.game.new_state(self._game_seed(seed))
            self.agents = self.possible_agents[:]
            self._steps = 0
            return (
                {a: self._obs_of(i) for i, a in enumerate(self.agents)},
                {a: self._info_of(i, None, False, 0) for i, a in enumerate(self.agents)},
            )

        def step(self, actions: Dict[str, Any]):
            state = self.current
            model = self.game.type.time_model
            movers = state.to_move()
            joint = tuple(
                None if actions.get(a) is None or i not in movers else int(actions[a])
                for i, a in enumerate(self.possible_agents)
            )
            if model is TimeModel.ALTERNATING:  # one seat moves: the others are ignored
                reasons: List[Optional[str]] = [None] * len(joint)
                for i, action in enumerate(joint):
                    if action is not None:
                        reasons[i] = state.apply(i, action)
            else:
                reasons = list(state.apply_joint(joint))
            real_time = model is TimeModel.REAL_TIME
            if real_time and not state.is_over():
                nxt = state.next_decision_t()
                state.advance(0 if nxt == 0 else self.interval_ms)
            self._steps += 1
            rewards = dict.fromkeys(self.agents, 0.0)
            done = state.is_over()
            illegal = [i for i, r in enumerate(reasons) if r is not None] if not real_time else []
            if illegal:  # the mover loses (module docstring)
                done = True
                values = illegal_move_rewards(len(self.possible_agents), illegal)
                rewards = dict(zip(self.possible_agents, values, strict=True))
            elif done:
                rewards = self._end_rewards()
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
