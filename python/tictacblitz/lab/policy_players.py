"""A policy as a tournament player: ``policy:PATH`` (issue 28, "Evaluation").

:func:`with_policies` wraps a game's hooks so that the tournament takes a player spec
``policy:PATH`` (a model file, :mod:`.policies`) like a bot name. Its matches against a
bot are played through the game's RL vector env (the policy sees what it trained on,
:func:`.evaluation.play_seat`), one env per match seed; every other pair is the native
runner's as before. Two players; one policy meets bots, not another policy. A pair with
a policy has only the ``winner`` column, so the game's per-pair means (e.g. Blitz's
rounds) are left out of a tournament that has one.
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import Any, Callable, Dict, Optional, Sequence

import numpy as np

from .cost import Pilot
from .cost import run_pilot as native_pilot
from .evaluation import play_seat
from .policies import Policy, load_policy

__all__ = ["PREFIX", "is_policy", "with_policies", "run_pilot"]

PREFIX = "policy:"


def is_policy(name: Any) -> bool:
    return isinstance(name, str) and name.startswith(PREFIX)


@lru_cache(maxsize=16)
def _policy(name: str) -> Policy:
    return load_policy(name[len(PREFIX) :])


class PolicyHooks:
    """The game's hooks, with ``policy:PATH`` players (everything else delegated); made
    only for a job with a policy among its players (:func:`with_policies`)."""

    def __init__(self, hooks: Any) -> None:
        self._hooks = hooks

    def __getattr__(self, name: str) -> Any:
        return getattr(self._hooks, name)

    def check_bot(self, bot: Any) -> None:
        self.checked_bot(bot)

    def checked_bot(self, bot: Any) -> Any:
        if is_policy(bot):
            _policy(bot)  # ValueError: one line naming the file
            return bot
        return self._hooks.checked_bot(bot)

    def resolve_bot(self, bot: Any) -> Any:
        return (bot, bot) if is_policy(bot) else self._hooks.resolve_bot(bot)

    def slow_bot(self, bot: Any) -> bool:
        return is_policy(bot) or self._hooks.slow_bot(bot)

    def describe_bot(self, bot: Any) -> Dict[str, Any]:
        if is_policy(bot):
            return {"policy": bot[len(PREFIX) :]}
        return dict(self._hooks.describe_bot(bot))

    @property
    def pair_means(self) -> Dict[str, str]:
        return {}  # a policy's matches give the winner alone (play_matches below)

    @property
    def play_matches(self) -> Callable[..., Dict[str, Any]]:
        native = self._hooks.play_matches
        game = self._hooks.name

        def play(rules: Any, seating: Sequence[Any], seeds: Any, **options: Any) -> Dict[str, Any]:
            seats = [k for k, x in enumerate(seating) if is_policy(x)]
            if not seats:
                return dict(native(rules, seating, seeds, **options))
            if len(seating) != 2 or len(seats) != 1:
                raise ValueError("a policy plays a two-player tournament against bots only")
            seat = seats[0]
            seeds = np.asarray(seeds, dtype=np.uint64)
            if not len(seeds):
                return {"winner": np.zeros(0, dtype=np.int8)}
            result = play_seat(
                _policy(seating[seat]), game, seating[1 - seat], seat,
                len(seeds), seeds, {"rules": rules},
            )  # fmt: skip
            winner = np.where(result > 0, seat, np.where(result < 0, 1 - seat, -1))
            return {"winner": winner.astype(np.int8)}

        return play


def with_policies(hooks: Any, names: Sequence[Any]) -> Any:
    """``hooks`` taking ``policy:PATH`` players, when ``names`` has one (else as is)."""
    return PolicyHooks(hooks) if any(is_policy(n) for n in names) else hooks


def run_pilot(
    hooks: Any,
    rules: Any,
    seat_bots: Sequence[Any],
    seeds: Any,
    options: Optional[Dict[str, Any]] = None,
) -> Pilot:
    """:func:`.cost.run_pilot`, and for a seating with a policy the same timing without
    the game's summary (its columns are the winner's alone)."""
    if not any(is_policy(x) for x in seat_bots):
        return native_pilot(hooks, rules, seat_bots, seeds, options)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    hooks.play_matches(rules, tuple(seat_bots), np.asarray(seeds, dtype=np.uint64))
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return Pilot(len(seeds), cpu, wall, None)
