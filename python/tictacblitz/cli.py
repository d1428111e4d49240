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
    _add_demo(commands)
    _add_replay(commands)
    from .server import register as add_serve
    from .lab.simulation import register as add_simulate
    from .lab.sweep import register as add_sweep
    from .lab.tournament import register as add_tournament

    add_simulate(commands)
    add_sweep(commands)
    add_tournament(commands)
    add_serve(commands)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """Run one subcommand; returns the exit status (0 ok, 2 bad input)."""
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except CommandError as exc:
        print(f"tictacblitz {args.command}: error: {exc}", file=sys.stderr)
        return exc.status


# -- demo ----------------------------------------------------------------------------------


def _add_demo(commands: Any) -> None:
    parser = commands.add_parser(
        "demo", help="play one match between two bots and print what happens",
        description="Play one match between two bots through the public API, printing "
                    "every event as it happens and the result.")
    parser.add_argument("--x", default="greedy", metavar="BOT", help="X's bot (default: greedy)")
    parser.add_argument("--o", default="random", metavar="BOT", help="O's bot (default: random)")
    parser.add_argument("--seed", type=int, default=1, metavar="S", help="match seed (default: 1)")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                        help="override a rule number, e.g. --rule set_ms=1200 (repeatable)")
    parser.add_argument("--quiet", action="store_true", help="print only round and match results")
    parser.set_defaults(handler=_demo)


def rules_from_args(pairs: List[str]) -> Any:
    """``--rule NAME=VALUE`` pairs → a validated Rules, or a CommandError (exit 2)."""
    from .games.blitz.rules import Rules

    try:
        return Rules.from_assignments(pairs)
    except (TypeError, ValueError) as exc:
        raise CommandError(str(exc)) from None


def describe_event(event: Any) -> str:
    """One line for a person: ``r1  2.950s  X set (3, 3)``."""
    data = event.to_dict()
    words = [data["kind"].replace("_", " ")]
    for key in ("player", "cell", "powerup", "reason", "result", "by", "line", "scores", "until"):
        if key in data:
            value = data[key]
            words.append(f"{key}={value}" if key in ("until", "reason", "by", "scores", "line") else str(value))
    return f"r{event.round} {event.t / 1000:7.3f}s  " + " ".join(words)


def _demo(args: argparse.Namespace) -> int:
    from .games.blitz.bots import BOT_NAMES, make_bot
    from .games.blitz.types import EventKind
    from tictacblitz.games.blitz import Match

    rules = rules_from_args(args.rule)
    for seat, name in (("--x", args.x), ("--o", args.o)):
        if name not in BOT_NAMES:
            raise CommandError(f"{seat} {name!r}: unknown bot; expected one of {', '.join(BOT_NAMES)}")
    from .games.blitz.bots import drive

    shown = (EventKind.ROUND_OVER, EventKind.MATCH_OVER)

    def show(events: Any) -> None:
        for event in events:
            if not args.quiet or event.kind in shown:
                print(describe_event(event))

    match = Match(rules, seed=args.seed)
    show(match.events)
    drive(match, make_bot(args.x, seed=args.seed), make_bot(args.o, seed=args.seed + 1), on_events=show)
    print("final board of the last round:")
    for row in match.board_text():
        print("   " + row)
    wins = match.round_wins
    result = "a draw" if match.match_result is None else f"{match.match_result.letter} ({args.x if match.match_result == 0 else args.o}) wins"
    print(f"match over after {match.round} rounds: {result}, round wins X {wins[0]} - O {wins[1]}")
    return 0


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
    from .games.blitz.scenario import load_scenario, run_scenario

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
        from .games.blitz.reference import ReferenceMatch

        return ReferenceMatch
    from tictacblitz.games.blitz import Match

    return Match
