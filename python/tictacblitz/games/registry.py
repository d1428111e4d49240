"""The registry of games: ``load_game("doh")`` and ``available_games()``.

A game is a sub-package ``tictacblitz.games.<name>`` whose ``game`` module defines
``GAME_TYPE`` (a :class:`~tictacblitz.games.protocol.GameType` whose ``name`` is the
folder's name) and ``make_game(rules=None)``. Adding such a folder registers the game:
the registry finds it, and every consumer (the lab, envs, server, replay, the
conformance suite) then serves it. Games are imported on first use, so loading one
does not import the others, and listing them imports none.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Optional, Tuple

from .protocol import Game, GameType

__all__ = ["available_games", "load_game", "game_type", "game_module", "DEFAULT_GAME"]

DEFAULT_GAME = "blitz"


@lru_cache(maxsize=None)
def available_games() -> Tuple[str, ...]:
    """The registered games' names, sorted (the default game first)."""
    from . import __path__ as games_path

    # Listed by folder, never imported: a game's package may need its native build, and
    # the platform layer imports without any (issue 27, item 2).
    found = [
        m.name
        for m in pkgutil.iter_modules(games_path)
        if m.ispkg and (Path(getattr(m.module_finder, "path", "")) / m.name / "game.py").is_file()
    ]
    return tuple(sorted(found, key=lambda n: (n != DEFAULT_GAME, n)))


def _game_module(name: object) -> Any:
    if not isinstance(name, str):
        raise TypeError(f"a game name is a string, not {type(name).__name__}")
    if name not in available_games():
        raise ValueError(f"unknown game {name!r}: expected one of {', '.join(available_games())}")
    module = importlib.import_module(f"{__package__}.{name}.game")
    if module.GAME_TYPE.name != name:  # one source: the folder names the game
        raise RuntimeError(
            f"game folder {name!r} declares GAME_TYPE.name {module.GAME_TYPE.name!r}"
        )
    return module


def game_type(name: str) -> GameType:
    """The :class:`GameType` of a registered game. :raises ValueError: unknown name."""
    declared: GameType = _game_module(name).GAME_TYPE
    return declared


def load_game(name: str = DEFAULT_GAME, rules: Optional[Mapping[str, Any]] = None) -> Game:
    """The game ``name`` with its default rules changed by ``rules`` (a mapping of rule
    names to values, validated by the game).

    :raises ValueError: for an unknown game or a bad rule value (naming it).
    :raises TypeError: for a value of the wrong type.
    """
    game: Game = _game_module(name).make_game(rules)
    return game


def game_module(name: str, part: str) -> Optional[Any]:
    """The game's module ``tictacblitz.games.<name>.<part>`` (``rl``, ``exploitability``,
    ...), or None when the game has none: the layers above find a game's optional parts
    by this convention (a game imports nothing above it).

    :raises ValueError: for an unknown game.
    """
    game_type(name)
    module = f"{__package__}.{name}.{part}"
    return importlib.import_module(module) if importlib.util.find_spec(module) else None
