"""Reinforcement-learning environments for every registered game (docs/rl.md).

Adapters over the Game/State protocol, one entry point per face, each taking
``game=NAME`` (default ``"blitz"``):

- :func:`make_env`: a single-agent ``gymnasium.Env``, one seat against the game's bots
  in the other seats; ``gymnasium.make("tictacblitz/<Game>-v0")`` for every game
  (``Blitz-v0``, ...);
- :func:`make_vector_env`: a Gymnasium ``VectorEnv`` (``gymnasium.make_vec``);
- :func:`parallel_env`: a PettingZoo ``ParallelEnv``, one agent per seat (an alternating
  game's step is the move of the seat to move);
- :func:`aec_env`: a PettingZoo ``AECEnv``, one agent per seat (any game: alternating
  games directly, the others through PettingZoo's ``parallel_to_aec``).

A game of N seats (``Game.seat_names``; Doh has 2 to 4 by its ``players`` rule) has N
agents in the PettingZoo faces, and N - 1 bots against the single agent.

A game whose folder has an ``rl`` hook module (``tictacblitz.games.<name>.rl``,
providing ``make_env`` and ``make_vector_env``, and optionally ``parallel_env`` and
``aec_env``) is served by it: Tic Tac Blitz's and Tic Tac Doh's run N games in one
native ``nogil`` call. A face the hook lacks is the protocol one (:class:`GameAECEnv`
for an alternating game, :class:`GameParallelEnv`). Every other game gets the protocol
environments of :mod:`tictacblitz.envs.protocol_env` and
:mod:`tictacblitz.envs.multi_agent`.

Needs the ``rl`` extra (gymnasium; pettingzoo for the PettingZoo faces).
"""

from __future__ import annotations

from typing import Any, Optional

import gymnasium

from ..games import DEFAULT_GAME, TimeModel, available_games, game_type
from ..games.registry import game_module
from .multi_agent import GameAECEnv, GameParallelEnv
from .protocol_env import GameEnv, GameVectorEnv, observation_space
from .render import observation_rgb

__all__ = [
    "make_env",
    "make_vector_env",
    "parallel_env",
    "aec_env",
    "env_id",
    "rl_hook",
    "GameEnv",
    "GameAECEnv",
    "GameParallelEnv",
    "GameVectorEnv",
    "observation_space",
    "observation_rgb",
]


def rl_hook(game: str) -> Optional[Any]:
    """The game's native RL module (``tictacblitz.games.<game>.rl``), or None."""
    return game_module(game, "rl")  # ValueError for an unknown game


def env_id(game: str) -> str:
    """The Gymnasium id of a game's single-agent env: ``tictacblitz/Blitz-v0``."""
    return f"tictacblitz/{game.capitalize()}-v0"


def make_env(game: str = DEFAULT_GAME, **options: Any) -> gymnasium.Env:
    """One seat of ``game`` against bots in the others (options: the hook's or
    :class:`GameEnv`'s)."""
    hook = rl_hook(game)
    return hook.make_env(**options) if hook is not None else GameEnv(game, **options)


def make_vector_env(game: str = DEFAULT_GAME, num_envs: int = 1, **options: Any):
    """``num_envs`` single-agent envs as one Gymnasium ``VectorEnv``: the game's native
    one where it has it, else :class:`GameVectorEnv` (Gymnasium's ``SyncVectorEnv`` over
    :class:`GameEnv`, with ``action_masks()``)."""
    hook = rl_hook(game)
    if hook is not None:
        return hook.make_vector_env(num_envs=num_envs, **options)
    return GameVectorEnv(game, num_envs, **options)


def parallel_env(game: str = DEFAULT_GAME, **options: Any):
    """Every seat as a PettingZoo ``ParallelEnv``: the game's ``rl`` hook's
    ``parallel_env`` if it has one, else :class:`GameParallelEnv`."""
    hook = rl_hook(game)
    if hook is not None and hasattr(hook, "parallel_env"):
        return hook.parallel_env(**options)
    return GameParallelEnv(game, **options)


def aec_env(game: str = DEFAULT_GAME, **options: Any):
    """Every seat as a PettingZoo ``AECEnv``: the game's ``rl`` hook's ``aec_env`` if it
    has one, else :class:`GameAECEnv` for an alternating game (Doh: its hook serves the
    Gymnasium faces natively and leaves the AEC face to the protocol), else PettingZoo's
    ``parallel_to_aec`` over :func:`parallel_env`."""
    hook = rl_hook(game)
    if hook is not None and hasattr(hook, "aec_env"):
        return hook.aec_env(**options)
    if game_type(game).time_model is TimeModel.ALTERNATING:
        return GameAECEnv(game, **options)
    from pettingzoo.utils.conversions import parallel_to_aec

    return parallel_to_aec(parallel_env(game, **options))


for _name in available_games():
    if env_id(_name) not in gymnasium.registry:
        gymnasium.register(
            id=env_id(_name),
            entry_point=make_env,
            kwargs={"game": _name},
            vector_entry_point=make_vector_env,
        )
del _name
