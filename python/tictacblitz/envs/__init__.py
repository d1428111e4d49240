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

A game with an RL adapter (``envs/games/<name>.py``, defining its one subclass of
:class:`~tictacblitz.envs.native.vector.NativeVectorEnv`, found by
:func:`~tictacblitz.envs.games.native_env`, issue 27) is served by it: Blitz's, Doh's and
Rift's run N games in one native ``nogil`` call. A face the adapter leaves as None
(``parallel_env``, ``aec_env``) is the protocol one (:class:`GameAECEnv` for an
alternating game, :class:`GameParallelEnv`). Every other game gets the protocol
environments of :mod:`tictacblitz.envs.protocol_env` and
:mod:`tictacblitz.envs.multi_agent`.

Needs the ``rl`` extra (gymnasium; pettingzoo for the PettingZoo faces).
"""

from __future__ import annotations

from typing import Any

import gymnasium

from ..games import DEFAULT_GAME, TimeModel, available_games, game_type
from .games import native_env
from .multi_agent import GameAECEnv, GameParallelEnv
from .protocol_env import GameEnv, GameVectorEnv, observation_space
from .render import observation_rgb

__all__ = [
    "make_env",
    "make_vector_env",
    "parallel_env",
    "aec_env",
    "env_id",
    "native_env",
    "GameEnv",
    "GameAECEnv",
    "GameParallelEnv",
    "GameVectorEnv",
    "observation_space",
    "observation_rgb",
]


def env_id(game: str) -> str:
    """The Gymnasium id of a game's single-agent env: ``tictacblitz/Blitz-v0``."""
    return f"tictacblitz/{game.capitalize()}-v0"


def make_env(game: str = DEFAULT_GAME, **options: Any) -> gymnasium.Env:
    """One seat of ``game`` against bots in the others (options: the adapter's or
    :class:`GameEnv`'s)."""
    adapter = native_env(game)  # ValueError for an unknown game
    return adapter.make_env(**options) if adapter is not None else GameEnv(game, **options)


def make_vector_env(game: str = DEFAULT_GAME, num_envs: int = 1, **options: Any):
    """``num_envs`` single-agent envs as one Gymnasium ``VectorEnv``: the game's native
    one where it has it, else :class:`GameVectorEnv` (Gymnasium's ``SyncVectorEnv`` over
    :class:`GameEnv`, with ``action_masks()``)."""
    adapter = native_env(game)
    if adapter is not None:
        return adapter.make_vector_env(num_envs, **options)
    return GameVectorEnv(game, num_envs, **options)


def parallel_env(game: str = DEFAULT_GAME, **options: Any):
    """Every seat as a PettingZoo ``ParallelEnv``: the game's adapter's ``parallel_env``
    if it has one, else :class:`GameParallelEnv`."""
    adapter = native_env(game)
    if adapter is not None and adapter.parallel_env is not None:
        return adapter.parallel_env(**options)
    return GameParallelEnv(game, **options)


def aec_env(game: str = DEFAULT_GAME, **options: Any):
    """Every seat as a PettingZoo ``AECEnv``: the game's adapter's ``aec_env`` if it has
    one, else :class:`GameAECEnv` for an alternating game (Doh: its adapter serves the
    Gymnasium faces natively and leaves the AEC face to the protocol), else PettingZoo's
    ``parallel_to_aec`` over :func:`parallel_env`."""
    adapter = native_env(game)
    if adapter is not None and adapter.aec_env is not None:
        return adapter.aec_env(**options)
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
