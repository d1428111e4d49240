"""The command line's face of the registry: ``--game NAME`` and ``--rule NAME=VALUE``.

Every command that plays a game (simulate, sweep, tournament, demo, serve) adds these
two options with :func:`add_game_arguments` and turns them into a validated game with
:func:`game_from_arguments`: one parser for the whole command line.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Dict, Iterable

from .protocol import Game
from .registry import DEFAULT_GAME, available_games, load_game

__all__ = ["add_game_arguments", "game_from_arguments", "parse_rule_assignments"]


def parse_rule_assignments(pairs: Iterable[str]) -> Dict[str, Any]:
    """``NAME=VALUE`` strings → a dict of rule overrides, each value read as JSON.

    >>> parse_rule_assignments(["set_ms=1200", 'powerup_weights={"bomb": 2}'])
    {'set_ms': 1200, 'powerup_weights': {'bomb': 2}}

    :raises ValueError: for a pair without ``=`` or a value that is not JSON. (Whether
        the name and value are valid rules is for the game to say.)
    """
    overrides: Dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"rule {pair!r}: expected NAME=VALUE")
        try:
            overrides[name.strip()] = json.loads(text)
        except ValueError:
            raise ValueError(f"rule {pair!r}: {text!r} is not a number or JSON value") from None
    return overrides


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--game`` and ``--rule`` (repeatable) to a command's parser."""
    parser.add_argument(
        "--game",
        default=DEFAULT_GAME,
        metavar="NAME",
        help=f"the game to play: {', '.join(available_games())} (default: {DEFAULT_GAME})",
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one rule number, value as JSON, e.g. --rule set_ms=1200 "
        "(repeatable; names in docs/rules/)",
    )


def game_from_arguments(args: argparse.Namespace) -> Game:
    """The game ``--game`` names with the ``--rule`` changes applied.

    :raises ValueError: one line naming the bad option and value (the caller prints it
        and exits 2).
    """
    try:
        overrides = parse_rule_assignments(args.rule)
    except ValueError as exc:
        raise ValueError(f"--rule: {exc}") from None
    try:
        return load_game(args.game, overrides)
    except (TypeError, ValueError) as exc:
        option = "--game" if args.game not in available_games() else "--rule"
        raise ValueError(f"{option}: {exc}") from None
