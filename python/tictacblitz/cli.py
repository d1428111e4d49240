"""The ``tictacblitz`` command line.

Each subcommand is one ``_add_<name>`` function that registers its parser and sets
``handler``; :func:`main` dispatches.  Add a subcommand by writing another pair.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, List, Optional

from .games.options import report_error

__all__ = ["main", "build_parser"]


class CommandError(Exception):
    """A failure a subcommand reports as one line on stderr, with an exit status."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


def _add_lab(module: str) -> Any:
    """The ``register`` of ``tictacblitz.lab.<module>``, imported when it is called."""

    def add(commands: Any) -> None:
        from importlib import import_module

        import_module(f"{__package__}.lab.{module}").register(commands)

    return add


def _add_serve(commands: Any) -> None:
    from .server import register

    register(commands)


# Each subcommand's name and what adds its parser, in the order of ``--help``. The names
# are here, not only in the modules: ``main`` then imports only the module of the command
# it runs (``serve`` without the lab and every game's hooks: issue 27, CI item; it
# started in 0.70 s of CPU instead of 0.53 s).
COMMANDS = (
    ("demo", lambda commands: _add_demo(commands)),
    ("replay", lambda commands: _add_replay(commands)),
    ("players", lambda commands: _add_players(commands)),
    ("simulate", _add_lab("simulate_command")),
    ("sweep", _add_lab("sweep")),
    ("tournament", _add_lab("tournament")),
    ("tune", _add_lab("tune_command")),
    ("serve", _add_serve),
    ("sensitivity", _add_lab("sensitivity_cli")),
    ("evaluate", _add_lab("evaluation")),
)


def build_parser(only: Optional[str] = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or of ``only`` (one of :data:`COMMANDS`' names)."""
    from . import __version__

    parser = argparse.ArgumentParser(
        prog="tictacblitz",
        description="Simulate, play, replay and serve the tic-tac-toe games of the platform "
        "(--game NAME; see `tictacblitz demo --help` for the games).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, add in COMMANDS:
        if only is None or name == only:
            add(commands)
    # Every parser's own errors (a non-number for a number, an unknown option) are one
    # line, `tictacblitz COMMAND: error: ...`, like the commands' other errors.
    from .lab.edges import one_line_errors

    one_line_errors(parser, "")
    for name, sub in commands.choices.items():
        one_line_errors(sub, name)
    return parser


def _command_of(argv: List[str]) -> Optional[str]:
    """The subcommand ``argv`` names first, if it is one (else None: every parser is built,
    for ``--help``, ``--version`` and the error naming the choices)."""
    names = {name for name, _ in COMMANDS}
    return argv[0] if argv and argv[0] in names else None


def main(argv: Optional[List[str]] = None) -> int:
    """Run one subcommand; returns the exit status (0 ok, 2 bad input)."""
    try:
        words = sys.argv[1:] if argv is None else list(argv)
        args = build_parser(_command_of(words)).parse_args(words)
    except KeyboardInterrupt:  # Ctrl-C while the commands' modules import: as in __main__
        print("tictacblitz: interrupted before any work; nothing written", file=sys.stderr)
        return 130
    try:
        return args.handler(args)
    except CommandError as exc:
        report_error(args.command, str(exc))
        return exc.status
    except BrokenPipeError:
        # The reader went away (`... | head`): stop quietly, as other tools do, and
        # point stdout at /dev/null so the interpreter's final flush cannot fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


# -- demo ----------------------------------------------------------------------------------


def _add_demo(commands: Any) -> None:
    from .games.options import add_game_arguments
    from .lab.edges import seed_number

    parser = commands.add_parser(
        "demo",
        help="play one match between bots and print what happens",
        description="Play one match between bots, one a seat, through the game protocol, "
        "printing every event as it happens and the result.",
    )
    parser.add_argument(
        "--x", default=None, metavar="BOT", help="the first seat's bot (default: greedy)"
    )
    parser.add_argument(
        "--o", default=None, metavar="BOT", help="the second seat's bot (default: random)"
    )
    parser.add_argument(
        "--seat",
        action="append",
        metavar="NAME=BOT",
        help="the bot of one seat, by the game's seat name or number (--seat third=greedy), "
        "as in simulate; repeatable; seats nobody names: greedy first, random after",
    )
    parser.add_argument(
        "--seed", type=seed_number, default=1, metavar="S", help="match seed (default: 1)"
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--quiet", action="store_true", help="print only the ends of rounds and of the match"
    )
    parser.set_defaults(handler=_demo)


_LEAD_KEYS = ("player", "cell")  # shown bare after the event's kind


def describe_event(event: dict) -> str:
    """One line for a person: ``r1   2.950s  set X [3, 3]`` (a timed game) or
    ``move 4  placed ...`` (a turn-based one)."""
    if "round" in event and "t" in event:
        head = f"r{event['round']} {event['t'] / 1000:7.3f}s  "
    elif "turn" in event:
        head = f"turn {event['turn']}  "
    else:
        head = ""
    words = [event["kind"].replace("_", " ")]
    words += [str(event[key]) for key in _LEAD_KEYS if key in event]
    words += [
        f"{key}={value}"
        for key, value in event.items()
        if key not in ("round", "t", "turn", "kind", *_LEAD_KEYS)
    ]
    return head + " ".join(words)


def _demo(args: argparse.Namespace) -> int:
    from .games.options import game_from_arguments
    from .games.play import play_out

    try:
        game = game_from_arguments(args)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    from .lab.command import seat_arguments
    from .lab.seating import seat_bots

    try:
        chosen = seat_arguments(args, game)  # --x, --o and --seat, as simulate reads them
        chosen.setdefault(0, ("greedy", "the default"))  # the demo's match: greedy first,
        names = seat_bots(chosen, game.seat_names, game.num_players, "random")  # random after
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    bots = [game.make_bot(name, seed=args.seed + seat) for seat, name in enumerate(names)]

    def show(events: List[dict]) -> None:
        for event in events:
            if not args.quiet or event["kind"].endswith("_over"):
                print(describe_event(event))

    state = play_out(game.new_state(args.seed), bots, on_events=show)
    summary = state.summary()
    # A picture where the game's summary has one (rows of text: Blitz's board, Rift's
    # grid), then the rest of the summary as JSON.
    pictures = {
        k: v
        for k, v in summary.items()
        if isinstance(v, list) and v and all(isinstance(row, str) for row in v)
    }
    for key, rows in pictures.items():
        print(f"final {key}:")
        for row in rows:
            print("   " + row)
    rest = {k: v for k, v in summary.items() if k not in pictures}
    print("final state: " + json.dumps(rest, sort_keys=True))
    winner = state.winner()
    won = f"{game.seat_names[winner]} ({names[winner]}) wins" if winner is not None else ""
    result = won or "a draw"
    length = f" after {summary['round']} rounds" if "round" in summary else ""
    print(f"match over{length}: {result}")
    return 0


# -- players -------------------------------------------------------------------------------


def _add_players(commands: Any) -> None:
    from .games.options import add_game_arguments

    parser = commands.add_parser(
        "players",
        help="list a game's player parameters and presets (the BOT:NAME=VALUE,... syntax)",
        description="List the player model of a game: the parameters a player spec "
        "(BOT:NAME=VALUE,..., wherever a bot is named: --x, --o, --seat, --bots) may set, "
        "their units, ranges and meaning, and the human-level presets (issue 23).",
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--check", metavar="SPEC", default=None, help="parse SPEC and print its parameters"
    )
    parser.set_defaults(handler=_players)


def _players(args: argparse.Namespace) -> int:
    from .games.options import game_from_arguments
    from .games.players import explain_players, format_value, player_model

    try:
        game = game_from_arguments(args)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    model = player_model(game.type.name)
    if args.check is None:
        print(explain_players(game.type.name))
        return 0
    if model is None:
        raise CommandError(f"game {game.type.name!r} has no player parameters")
    try:
        model.resolve(args.check)
        values = model.values(args.check)
    except (TypeError, ValueError) as exc:
        raise CommandError(str(exc)) from None
    base, _ = model.parse(args.check)
    shown = {
        k: v if p is None else format_value(p, v)
        for k, v in values.items()
        for p in [model.param(k)]
    }
    print(json.dumps({"bot": base, **shown}, sort_keys=True, ensure_ascii=False))
    return 0


# -- replay --------------------------------------------------------------------------------


def _add_replay(commands: Any) -> None:
    parser = commands.add_parser(
        "replay",
        help="play a scenario or replay file and print its result as JSON",
        description="Play a scenario/replay file of any game (docs/replay-format.md) and print "
        "the result as JSON.",
    )
    parser.add_argument("file", metavar="FILE", help="the scenario JSON file")
    parser.add_argument(
        "--engine",
        choices=("native", "reference"),
        default="native",
        help="the engine to play it on: the native one or the game's pure-Python "
        "reference (default: native)",
    )
    parser.set_defaults(handler=_replay)


def _replay(args: argparse.Namespace) -> int:
    from .games import ReplayError, available_games, load_game

    try:
        with open(args.file, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as exc:
        raise CommandError(f"cannot read {args.file}: {exc.strerror}") from None
    except ValueError as exc:
        raise CommandError(f"{args.file} is not valid JSON: {exc}") from None
    # The file names its game; a file without "game" is Tic Tac Blitz (replay-format.md).
    name = data.get("game", "blitz") if isinstance(data, dict) else "blitz"
    if name not in available_games():
        raise CommandError(
            f"{args.file}: unknown game {name!r}; expected one of {', '.join(available_games())}"
        )
    game = load_game(name)
    try:
        if args.engine == "reference":
            result = game.replay(data, engine="reference")
        else:
            result = game.replay(data)
    except ReplayError as exc:
        raise CommandError(f"{args.file}: {exc}") from None
    print(json.dumps(result, indent=1))
    return 0
