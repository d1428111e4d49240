"""The command line's face of the registry: ``--game NAME`` and ``--rule NAME=VALUE``.

Every command that plays a game (simulate, sweep, tournament, demo, serve) adds these
two options with :func:`add_game_arguments` and turns them into a validated game with
:func:`game_from_arguments`: one parser for the whole command line (issue 22, item 6).

A rule that is a mapping (Blitz's ``powerup_weights``, Rift's ``objective_points``) is
changed one entry at a time with ``NAME.KEY=VALUE`` (the other entries keep their
values), or as a whole with ``NAME={...}`` (JSON): the game then fills the entries not
given (Blitz: weight 0, R14; Rift: the default points), and
:func:`replaced_mapping_notes` says, in one line, which entries that changed.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Tuple

from .base import unknown_rule
from .protocol import Game
from .registry import DEFAULT_GAME, available_games, load_game

__all__ = [
    "add_game_arguments",
    "game_from_arguments",
    "parse_rule_assignments",
    "replaced_mapping_notes",
    "report_error",
]


def report_error(command: str, message: str) -> int:
    """Print the command line's one-line error, ``tictacblitz COMMAND: error: MESSAGE``
    (``tictacblitz: error: MESSAGE`` for the top level, ``command`` empty), on stderr
    and return the exit status 2: the one format of every command's bad input (issue
    27: it was written out in cli.py, the serve command, lab/command.py and the
    parsers' errors, lab/edges.py)."""
    where = f"tictacblitz {command}" if command else "tictacblitz"
    print(f"{where}: error: {message}", file=sys.stderr)
    return 2


def _split(pairs: Iterable[str]) -> List[Tuple[str, Optional[str], Any, str]]:
    """``(name, key or None, value, pair)`` of every ``NAME[.KEY]=VALUE`` string."""
    out = []
    for pair in pairs:
        target, sep, text = pair.partition("=")
        target = target.strip()
        if not sep or not target:
            raise ValueError(f"rule {pair!r}: expected NAME=VALUE or NAME.KEY=VALUE")
        name, dot, key = target.partition(".")
        if dot and (not name or not key):
            raise ValueError(f"rule {pair!r}: expected NAME.KEY=VALUE")
        try:
            value = json.loads(text)
        except ValueError:
            raise ValueError(f"rule {pair!r}: {text!r} is not a number or JSON value") from None
        out.append((name, key if dot else None, value, pair))
    return out


def parse_rule_assignments(
    pairs: Iterable[str], current: Optional[Mapping[str, Any]] = None
) -> Dict[str, Any]:
    """``NAME=VALUE`` and ``NAME.KEY=VALUE`` strings → a dict of rule overrides, each
    value read as JSON. ``NAME.KEY=VALUE`` changes one entry of the mapping rule
    ``NAME``, the others kept as ``current`` (the rules being changed, as a dict) has
    them; pairs apply in order.

    >>> parse_rule_assignments(["set_ms=1200", 'powerup_weights={"bomb": 2}'])
    {'set_ms': 1200, 'powerup_weights': {'bomb': 2}}
    >>> weights = {"powerup_weights": {"bomb": 1, "swap": 1}}
    >>> parse_rule_assignments(["powerup_weights.bomb=2"], weights)
    {'powerup_weights': {'bomb': 2, 'swap': 1}}

    :raises ValueError: for a malformed pair, a value that is not JSON, or ``NAME.KEY``
        where ``NAME`` is not a mapping rule. (Whether the names and values are valid
        rules is for the game to say.)
    """
    overrides: Dict[str, Any] = {}
    for name, key, value, pair in _split(pairs):
        if key is None:
            overrides[name] = value
            continue
        if current is None:
            raise ValueError(f"rule {pair!r}: NAME.KEY needs the rules it changes")
        if name not in current:
            raise ValueError(unknown_rule(name, current))
        base = overrides.get(name, current[name])
        if not isinstance(base, Mapping):
            mappings = [n for n, v in current.items() if isinstance(v, Mapping)]
            shown = ", ".join(mappings) if mappings else "none in this game"
            raise ValueError(
                f"rule {pair!r}: {name} is not a mapping rule, so it has no KEY "
                f"(mapping rules: {shown})"
            )
        overrides[name] = {**base, key: value}
    return overrides


def replaced_mapping_notes(
    pairs: Iterable[str], before: Mapping[str, Any], after: Mapping[str, Any]
) -> List[str]:
    """One line for every ``NAME={...}`` that replaced a mapping rule and so changed
    entries it did not name (Blitz's R14: a missing weight is 0), e.g. ``powerup_weights
    replaced: freeze, haste, swap now 0; use powerup_weights.bomb=2 to change one entry``.
    ``before``/``after``: the rules (as dicts) without and with the changes."""
    notes = []
    for name, key, value, _ in _split(pairs):
        if key is not None or not isinstance(value, Mapping):
            continue
        old, new = before.get(name), after.get(name)
        if not isinstance(old, Mapping) or not isinstance(new, Mapping):
            continue
        changed = [k for k in new if k not in value and new[k] != old.get(k)]
        if not changed:
            continue
        values = {new[k] for k in changed}
        now = f"now {next(iter(values))}" if len(values) == 1 else "changed"
        example = next(iter(value.items()), None)
        hint = (
            f"; use --rule {name}.{example[0]}={json.dumps(example[1])} to change one entry"
            if example is not None
            else ""
        )
        notes.append(f"{name} replaced: {', '.join(changed)} {now}{hint}")
    return notes


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
        help="change one rule number, value as JSON, e.g. --rule set_ms=1200; one entry "
        "of a mapping rule with NAME.KEY=VALUE (--rule powerup_weights.bomb=2); "
        "NAME={...} replaces the whole mapping (a note says what that changed) "
        "(repeatable; names in docs/rules/)",
    )


def _stderr_note(line: str) -> None:
    print(f"tictacblitz: note: {line}", file=sys.stderr)


def game_with_assignments(
    name: str,
    pairs: List[str],
    option: str = "--rule",
    note: Callable[[str], None] = _stderr_note,
) -> Game:
    """Game ``name`` with its default rules changed by ``pairs`` (``NAME[.KEY]=VALUE``);
    ``note`` gets one line per mapping a pair replaced (:func:`replaced_mapping_notes`).

    :raises ValueError: one line naming the bad option and value.
    """
    try:
        default = load_game(name)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"--game: {exc}") from None
    before = default.rules.to_dict()
    try:
        overrides = parse_rule_assignments(pairs, before)
        game = load_game(name, overrides)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{option}: {exc}") from None
    for line in replaced_mapping_notes(pairs, before, game.rules.to_dict()):
        note(line)
    return game


def game_from_arguments(
    args: argparse.Namespace, note: Callable[[str], None] = _stderr_note
) -> Game:
    """The game ``--game`` names with the ``--rule`` changes applied (a line on stderr for
    a mapping a ``--rule`` replaced).

    :raises ValueError: one line naming the bad option and value (the caller prints it
        and exits 2).
    """
    return game_with_assignments(args.game, list(args.rule), "--rule", note)
