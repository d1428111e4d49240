"""The fourth game's folders, registered with the package the way a game's own folders are.

Under ``tests/fourth_game/`` every folder named ``games`` mirrors one of the package's
``games`` folders: ``games/`` is ``tictacblitz.games``, ``server/games/`` is
``tictacblitz.server.games``, ``lab/games/`` ``tictacblitz.lab.games`` ... :func:`registered`
adds each to its package's ``__path__`` (so the registry and each layer's adapter
lookup find ``tictactoe`` there, as they would find a folder of the package itself:
no file of the package names it) and takes it away afterwards.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from pathlib import Path
from typing import Any, Iterator, List, Tuple

__all__ = ["GAME", "HERE", "layer_folders", "registered"]

GAME = "tictactoe"
HERE = Path(__file__).resolve().parent


def layer_folders() -> List[Tuple[str, Path]]:
    """``(package, folder)`` for every ``games`` folder here (``tictacblitz.`` plus its
    path, dotted)."""
    found = []
    for folder in sorted(HERE.rglob("games")):
        if folder.is_dir() and "__pycache__" not in folder.parts:
            found.append((".".join(("tictacblitz", *folder.relative_to(HERE).parts)), folder))
    return found


def _clear_caches() -> None:
    """Empty the platform's and the layers' lru caches (the registry's game list, a
    layer's adapters of a game): they would keep what they found before or during the
    registration. A game's own caches (a solver's table) know no other game: kept."""
    for name, module in list(sys.modules.items()):
        if not name.startswith("tictacblitz.") or module is None:
            continue
        parts = name.split(".")
        if parts[1] == "games" and len(parts) > 3:  # inside a game's folder
            continue
        for value in vars(module).values():
            if hasattr(value, "cache_clear") and getattr(value, "__module__", None) == name:
                value.cache_clear()


@contextlib.contextmanager
def registered() -> Iterator[str]:
    """The fourth game registered by its folders while the block runs, gone after it.

    :raises ModuleNotFoundError: for a folder here that mirrors no package folder.
    """
    added: List[Tuple[Any, str]] = []  # (a package's __path__, the folder added)
    try:
        for package, folder in layer_folders():
            path = importlib.import_module(package).__path__
            path.append(str(folder))
            added.append((path, str(folder)))
        _clear_caches()
        yield GAME
    finally:
        for path, folder in added:
            path.remove(folder)
        _clear_caches()
        for name in [m for m in sys.modules if f".games.{GAME}" in m]:
            del sys.modules[name]
        for package, _ in layer_folders():  # an imported submodule is its parent's attribute
            if hasattr(sys.modules.get(package), GAME):
                delattr(sys.modules[package], GAME)
