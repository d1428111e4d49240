"""The ``tictacblitz`` command line.

Each subcommand is one ``_add_<name>`` function that registers its parser and sets
``handler``; :func:`main` dispatches.  Add a subcommand by writing another pair.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, List, Optional

__all__ = ["main", "build_parser"]


class CommandError(Exception):
    """A failure a subcommand reports as one line on stderr, with an exit status."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tictacblitz", description="Tic Tac Blitz engine tools.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_replay(commands)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """Run one subcommand; returns the exit status (0 ok, 2 bad input)."""
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except CommandError as exc:
        print(f"tictacblitz {args.command}: error: {exc}", file=sys.stderr)
        return exc.status


# -- replay --------------------------------------------------------------------------------


def _add_replay(commands: Any) -> None:
    parser = commands.add_parser(
        "replay", help="play a scenario or replay file and print its result as JSON",
        description="Play a scenario/replay file (SCENARIOS.md) and print the result as JSON.")
    parser.add_argument("file", metavar="FILE", help="the scenario JSON file")
    parser.add_argument("--engine", choices=("native", "reference"), default="native",
                        help="the engine to play it on (default: native)")
    parser.set_defaults(handler=_replay)


def _replay(args: argparse.Namespace) -> int:
    from .scenario import load_scenario, run_scenario

    factory = _match_factory(args.engine)
    try:
        with open(args.file, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as exc:
        raise CommandError(f"cannot read {args.file}: {exc.strerror}") from None
    except ValueError as exc:
        raise CommandError(f"{args.file} is not valid JSON: {exc}") from None
    try:
        result = run_scenario(load_scenario(data), factory)
    except (TypeError, ValueError) as exc:  # ScenarioError is a ValueError
        raise CommandError(f"{args.file}: {exc}") from None
    print(json.dumps(result, indent=1))
    return 0


def _match_factory(engine: str) -> Callable[..., Any]:
    if engine == "reference":
        from .reference import ReferenceMatch

        return ReferenceMatch
    from blitz_core.engine import Match

    return Match
