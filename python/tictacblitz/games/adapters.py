"""One way for every layer to find a game's adapter: :func:`adapter_class`.

Each layer above the games (the lab, the RL envs, the server, the load tool) owns its
per-game code in its own ``games`` package: ``tictacblitz.<layer>.games.<game>`` (a
module, or a package whose ``__init__`` holds the adapter). That module defines exactly
one subclass of the layer's typed base (``LabAdapter``, ``NativeVectorEnv``,
``GameAdapter`` ...), and the layer asks for it here, by the game's registered name
(issue 27, item 1: six lookup conventions became this one).

It fails loudly, never silently falling back:

- a module or package in a layer's ``games`` folder whose name is no registered game (a
  misspelled ``bliz.py``) is refused whenever that layer looks up any adapter;
  names starting with ``_`` are the layer's shared helpers, not adapters;
- an adapter module with no subclass of the base, or with two, is refused;
- :func:`check_overrides` refuses a subclass whose public name is a near miss of one
  of the base's names (``record_field`` for ``record_fields``): the layer's base calls
  it from ``__init_subclass__``.

A game with no adapter in a layer gets None: the layer decides whether that means its
generic default (the envs' protocol env) or "not served" (one line naming the game).
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import Iterable, List, Optional, Tuple, Type, TypeVar

from .registry import available_games

__all__ = ["AdapterError", "adapter_class", "adapter_names", "check_overrides", "edits"]

T = TypeVar("T")

NEAR_MISS_EDITS = 2
"""A public name this many edits or fewer from a base's name (ignoring case and
underscores) is taken for a misspelling of it."""


class AdapterError(ValueError):
    """A layer's ``games`` folder names no registered game, an adapter module has not
    exactly one adapter class, or an adapter misspells one of its base's names."""


def edits(a: str, b: str) -> int:
    """Levenshtein's distance: the fewest one-letter insertions, deletions and changes
    that turn ``a`` into ``b``."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (ca != cb))
    return row[-1]


def _folded(name: str) -> str:
    return name.replace("_", "").casefold()


def near_misses(name: str, known: Iterable[str]) -> List[str]:
    """The names of ``known`` that ``name`` is a misspelling of (none if it is one)."""
    known = list(known)
    if name in known:
        return []
    return [k for k in known if edits(_folded(name), _folded(k)) <= NEAR_MISS_EDITS]


def adapter_names(layer_games: ModuleType) -> Tuple[str, ...]:
    """The adapters in a layer's ``games`` package (``tictacblitz.lab.games``), by folder.

    :raises AdapterError: for a module or package there that names no registered game.
    """
    games = available_games()
    found: List[str] = []
    for module in pkgutil.iter_modules(layer_games.__path__):
        if module.name.startswith("_"):
            continue
        if module.name not in games:
            near = near_misses(module.name, games)
            hint = f" (did you mean {' or '.join(near)}?)" if near else ""
            raise AdapterError(
                f"{layer_games.__name__}.{module.name} adapts no registered game{hint}: "
                f"the games are {', '.join(games)}"
            )
        found.append(module.name)
    return tuple(sorted(found))


def adapter_class(layer_games: ModuleType, game: str, base: Type[T]) -> Optional[Type[T]]:
    """The one subclass of ``base`` defined by ``<layer_games>.<game>``, or None when the
    layer has no adapter for the game.

    :raises ValueError: for an unknown game (naming the registered ones).
    :raises AdapterError: for a misnamed adapter module in the layer, or an adapter
        module that defines no subclass of ``base`` or more than one.
    """
    if not isinstance(game, str) or game not in available_games():
        raise ValueError(f"unknown game {game!r}: expected one of {', '.join(available_games())}")
    if game not in adapter_names(layer_games):
        return None
    module = importlib.import_module(f"{layer_games.__name__}.{game}")
    classes = [
        value
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, base)
        and value is not base
        and value.__module__.startswith(module.__name__)
        and not getattr(value, "__abstract_adapter__", False)
    ]
    if len(classes) != 1:
        names = ", ".join(c.__name__ for c in classes) or "none"
        raise AdapterError(
            f"{module.__name__} must define exactly one {base.__name__} subclass, found {names}"
        )
    return classes[0]


def check_overrides(cls: type, base: type) -> None:
    """Refuse ``cls`` (a subclass of ``base``) if one of its own public names is a near
    miss of a name ``base`` declares: a misspelled hook would otherwise leave the base's
    default in force, silently.

    :raises AdapterError: one line naming every such name and what it misses.
    """
    declared = {name for klass in base.__mro__ for name in vars(klass) if not name.startswith("_")}
    problems = []
    for name in sorted(vars(cls)):
        if name.startswith("_") or name in declared:
            continue
        near = near_misses(name, declared)
        if near:
            problems.append(
                f"{name} is no {base.__name__} name (did you mean {' or '.join(near)}?)"
            )
    if problems:
        raise AdapterError(f"{cls.__module__}.{cls.__qualname__}: {'; '.join(problems)}")
