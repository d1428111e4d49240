"""What the lab needs of a game beyond the protocol, found in one place:
:func:`hooks_for`, the one accessor every lab module uses.

A game's lab-facing code is its :class:`~tictacblitz.lab.adapter.LabAdapter` subclass in
``tictacblitz.lab.games.<name>`` (issue 27, item 1: it used to be the module-level names
of ``tictacblitz.games.<name>.balance``, inside the game's folder). The adapter is found
by the registry's one lookup, :func:`~tictacblitz.games.adapters.adapter_class`, which
refuses a misspelled ``lab/games`` folder; the base refuses a misspelled hook when the
adapter class is defined. A registered game with no lab adapter gets the base's
defaults: its bots and rules work, its runs fail with one line naming the missing
adapter.

The lab switches on :class:`~tictacblitz.games.protocol.GameType` facts only, never on
a game's name.
"""

from __future__ import annotations

from functools import lru_cache

import tictacblitz.lab.games as lab_games

from ..games.adapters import AdapterError, adapter_class
from ..games.registry import available_games
from .adapter import HOOKS, LabAdapter

__all__ = ["GameHooks", "hooks_for", "HOOKS", "HookError", "LabAdapter"]

GameHooks = LabAdapter
"""The type :func:`hooks_for` returns (the name callers annotate with)."""

HookError = AdapterError
"""A game's adapter misspells a hook, or gives one of the wrong kind."""


class _NoLabAdapter(LabAdapter):
    """A registered game without ``tictacblitz.lab.games.<name>``: the lab's defaults."""


@lru_cache(maxsize=None)
def hooks_for(name: str) -> LabAdapter:
    """The lab adapter of the registered game ``name`` (an instance, cached).

    :raises ValueError: for an unknown game (naming the registered ones), or a
        misspelled adapter (:class:`~tictacblitz.games.adapters.AdapterError`).
    """
    if not isinstance(name, str) or name not in available_games():
        raise ValueError(f"unknown game {name!r}: expected one of {', '.join(available_games())}")
    cls = adapter_class(lab_games, name, LabAdapter) or _NoLabAdapter
    return cls(name)
