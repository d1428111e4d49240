"""Search helpers over Tic Tac Blitz's native states: :class:`StateBatch`, for
:mod:`tictacblitz.envs.games.blitz`."""

from __future__ import annotations

from blitz_core.blitz import rollouts as _native

from ._blitz_batched import _NATIVE_POLICIES, _resolve_policy

__all__ = ["StateBatch"]


class StateBatch(_native.StateBatch):
    """N match states for planners (``blitz_core.blitz.rollouts.StateBatch``), whose
    ``rollout`` also takes bot names and ``BotSpec``s: a preset such as ``"greedy"`` or
    ``"hard"`` rolls out natively (``nogil``, over threads) exactly as ``play_matches``
    plays it; ``"random"`` and ``"wait"`` are the fast native playout policies.

    >>> from tictacblitz import Match
    >>> batch = StateBatch(n=8)
    >>> batch.load(Match(seed=3))
    >>> out = batch.rollout(("greedy", "easy"), seeds=0, until="match")
    >>> sorted(set(out["match_result"].tolist())) <= [0, 1, 2]
    True
    """

    def rollout(self, policies=("random", "random"), seeds=0, *, until="round", num_threads=None):
        if len(policies) != 2:
            raise ValueError(f"policies must name one policy per seat, not {policies!r}")
        resolved = tuple(
            p if p is None or p in _NATIVE_POLICIES or isinstance(p, tuple) else _resolve_policy(p)
            for p in policies
        )
        for p in resolved:
            if callable(p):
                raise ValueError("rollout policies are native: a bot name, a BotSpec or 'wait'")
        return super().rollout(resolved, seeds, until=until, num_threads=num_threads)
