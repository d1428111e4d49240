"""The games' RL adapters (issue 27, item 1): ``envs/games/<game>.py`` defines the game's
one subclass of :class:`~tictacblitz.envs.native.vector.NativeVectorEnv` over its native
batched stepper, with the faces of :class:`~tictacblitz.envs.native.faces.NativeFaces`
(``make_env``, ``make_vector_env``, ``parallel_env``, ``aec_env``,
``observation_bounds``). Names starting with ``_`` here are an adapter's helpers
(``_blitz_batched.py`` ...). A game with no adapter gets the protocol envs of
:mod:`tictacblitz.envs` (docs/envs.md)."""

from __future__ import annotations

import sys
from typing import Optional, Type

from ...games.adapters import adapter_class
from ..native.vector import NativeVectorEnv

__all__ = ["native_env"]


def native_env(game: str) -> Optional[Type[NativeVectorEnv]]:
    """The game's RL adapter class, or None (the protocol envs serve it).

    :raises ValueError: for an unknown game (naming the registered ones).
    :raises tictacblitz.games.adapters.AdapterError: for a misnamed module here, or one
        without exactly one ``NativeVectorEnv`` subclass."""
    return adapter_class(sys.modules[__name__], game, NativeVectorEnv)
