"""The faces a game's RL adapter serves to :mod:`tictacblitz.envs` (issue 27, item 1):
:class:`NativeFaces`, a base of :class:`~tictacblitz.envs.native.vector.NativeVectorEnv`.

What the game modules' ``rl`` hooks exposed as module functions (``make_env``,
``make_vector_env``, ``parallel_env``, ``aec_env``, ``observation_bounds``) are the
adapter class's: classmethods with the defaults below, or attributes. A face an adapter
leaves as None is the protocol one (``GameParallelEnv``, ``GameAECEnv``).
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Optional

__all__ = ["NativeFaces"]


class NativeFaces:
    """The classmethods and attributes :mod:`tictacblitz.envs` asks of a game's adapter."""

    single_env: ClassVar[Optional[type]] = None
    """The game's one-game ``gymnasium.Env`` (a ``NativeSingleEnv``), for :meth:`make_env`."""

    parallel_env: ClassVar[Optional[Callable[..., Any]]] = None
    """A PettingZoo ``ParallelEnv`` factory over the native stepper (None: the protocol
    ``GameParallelEnv``)."""

    aec_env: ClassVar[Optional[Callable[..., Any]]] = None
    """A PettingZoo ``AECEnv`` factory (None: ``GameAECEnv`` for an alternating game,
    else PettingZoo's ``parallel_to_aec`` over the parallel face)."""

    @classmethod
    def make_env(cls, **options: Any) -> Any:
        """One seat against bots (``gymnasium.make("tictacblitz/<Game>-v0")``)."""
        if cls.single_env is None:  # pragma: no cover - every adapter sets it
            raise NotImplementedError(f"{cls.__name__} has no single-game env")
        return cls.single_env(**options)

    @classmethod
    def make_vector_env(cls, num_envs: int = 1, **options: Any) -> Any:
        """The native vector env of ``num_envs`` games (``gymnasium.make_vec``)."""
        return cls(num_envs, **options)  # type: ignore[call-arg]

    @classmethod
    def observation_bounds(cls, rules: Any = None) -> Any:
        """The observation's true bounds ``(low, high)`` under ``rules`` (None: unbounded),
        which the protocol env's observation space takes too."""
        return None
