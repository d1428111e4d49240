"""The lab's command-line pieces: the options ``simulate`` and ``sweep`` share
(:func:`add_common_arguments`, :func:`job_arguments`, :func:`job_from_arguments`,
:func:`connect`, :func:`report_error`).

``--game NAME`` and ``--rule NAME=VALUE`` come from the one parser of the command line,
:mod:`tictacblitz.games.options`. Every argument is checked before any match is played;
a bad one is one line on stderr and exit status 2 (:func:`report_error`).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable, Dict, Optional, Tuple

from ..games.options import add_game_arguments, game_from_arguments, report_error
from ..games.players import player_model
from ..games.protocol import Game
from ..games.registry import DEFAULT_GAME
from .edges import seed_number, whole_number
from .hooks import hooks_for
from .jobs import SimulationJob, default_workers, prepare
from .seating import EVERY, num_players, parse_seat, seat_bots, seat_choices, seat_keys

__all__ = [
    "add_common_arguments",
    "add_yes_argument",
    "ArgumentProblem",
    "job_arguments",
    "job_from_arguments",
    "parsed_arguments",
    "connect",
    "report_error",
    "progress_wanted",
    "seat_arguments",
]


class ArgumentProblem(ValueError):
    """A bad command-line argument (exit status 2)."""


def add_common_arguments(parser: argparse.ArgumentParser, *, matches: int) -> None:
    """The arguments ``simulate`` and ``sweep`` share (with ``--game`` and ``--rule``)."""
    default_bots = ", ".join(hooks_for(DEFAULT_GAME).bot_names)
    parser.add_argument(
        "--matches",
        type=whole_number(),
        default=matches,
        metavar="N",
        help=f"matches to play (default: {matches})",
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--x",
        default=None,
        metavar="BOT",
        help=f"the first seat's bot, the same as --seat 1=BOT: a name or a player spec "
        f"BOT:NAME=VALUE,... (tictacblitz players --game G lists them) (default: the "
        f"game's default; {DEFAULT_GAME}: one of {default_bots})",
    )
    parser.add_argument(
        "--o",
        default=None,
        metavar="BOT",
        help="the second seat's bot, the same as --seat 2=BOT (default: the game's default)",
    )
    parser.add_argument(
        "--seat",
        action="append",
        default=[],
        metavar="NAME=BOT",
        help="the bot of one seat, by the game's seat name or number (--seat third=random, "
        "--seat 3=random), or of every seat no other option names (--seat all=random); "
        "repeatable; a seat nobody names gets the game's default bot",
    )
    parser.add_argument(
        "--seed",
        type=seed_number,
        default=0,
        metavar="S",
        help="master seed; match i's seed is derived from S and i (default: 0)",
    )
    parser.add_argument(
        "--workers",
        type=whole_number(),
        default=None,
        metavar="W",
        help="threads (default: every core); results do not depend on it",
    )
    parser.add_argument(
        "--chunk-size",
        type=whole_number(),
        default=None,
        metavar="C",
        help="matches a task (default: chosen from N and W); results do not depend on it",
    )
    parser.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="run the chunks on this Dask scheduler (tcp://host:8786) instead of threads",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_yes_argument(parser)
    parser.add_argument(
        "--explain", action="store_true", help="after the table, explain every metric and its unit"
    )


def add_yes_argument(parser: argparse.ArgumentParser) -> None:
    """``--yes``: start a run estimated above ten minutes without asking (issue 22, item 7)."""
    parser.add_argument(
        "--yes",
        action="store_true",
        help="before playing, a pilot of a few matches on other seeds (not counted) "
        "estimates the run's CPU and wall time (printed on stderr); a run over 10 min "
        "asks to confirm when stdin is a terminal: --yes starts it without asking",
    )


def job_arguments(args: argparse.Namespace, seated: bool = True) -> Dict[str, Any]:
    """Validated keyword arguments of :func:`~tictacblitz.lab.simulation.simulate` from
    parsed arguments: ``game`` (a name), ``rules`` (the game's rules object), ``bots``
    (one name a seat: ``--x``, ``--o``, ``--seat``; None unless ``seated``: a sweep seats
    each point), ``matches``, ``seed``, ``workers``, ``chunk_size``.

    :raises ArgumentProblem: with a message naming the bad argument.
    """
    _, kwargs = parsed_arguments(args, seated)
    try:
        prepare(**kwargs)
    except (TypeError, ValueError) as exc:
        raise ArgumentProblem(str(exc)) from None
    return kwargs


def job_from_arguments(
    args: argparse.Namespace, options: Callable[[str], Dict[str, Any]]
) -> SimulationJob:
    """The checked job of ``simulate``'s command line, checked once
    (:func:`~tictacblitz.lab.jobs.prepare`, on the game ``--game`` and ``--rule`` gave:
    its rules are not validated again); ``options(game name)``: the runner options,
    checked for that game.

    :raises ArgumentProblem: with a message naming the bad argument.
    """
    game, kwargs = parsed_arguments(args, True, checked=False)  # prepare checks the bots
    kwargs.update(game=game, rules=None, options=options(kwargs["game"]))
    try:
        return prepare(**kwargs)
    except (TypeError, ValueError) as exc:
        raise ArgumentProblem(str(exc)) from None


def parsed_arguments(
    args: argparse.Namespace, seated: bool, checked: bool = True
) -> Tuple[Game, Dict[str, Any]]:
    """(the game with ``--rule`` applied, the keyword arguments of :func:`job_arguments`),
    parsed but not yet given to :func:`~tictacblitz.lab.jobs.prepare`. Unless
    ``checked``, a player spec is left for ``prepare`` to check (it is then checked
    once), with ``seat_labels`` naming the option that gave each seat's bot.

    :raises ArgumentProblem: with a message naming the bad argument.
    """
    try:
        game = game_from_arguments(args)
    except ValueError as exc:
        raise ArgumentProblem(str(exc)) from None
    hooks = hooks_for(game.type.name)
    try:
        chosen = seat_arguments(args, hooks, checked)  # checked even when the seats come later
        bots = (
            None
            if not seated
            else seat_bots(
                chosen,
                game.type.seat_names,
                num_players(game),
                hooks.default_bot,
            )
        )
    except ValueError as exc:
        raise ArgumentProblem(str(exc)) from None
    labels = {}
    if not checked and bots is not None:
        keys = seat_keys(game.type.seat_names, len(bots))
        labels["seat_labels"] = [
            option_of(chosen.get(k, chosen.get(EVERY, (None, key)))[1])
            for k, key in enumerate(keys)
        ]
    if args.matches < 1:
        raise ArgumentProblem(f"--matches must be >= 1, not {args.matches}")
    if args.workers is not None and args.workers < 1:
        raise ArgumentProblem(f"--workers must be >= 1, not {args.workers}")
    if args.chunk_size is not None and args.chunk_size < 1:
        raise ArgumentProblem(f"--chunk-size must be >= 1, not {args.chunk_size}")
    workers = args.workers if args.workers is not None else default_workers()
    return game, {
        "matches": args.matches,
        "bots": bots,
        "rules": game.rules,
        "seed": args.seed,
        "game": hooks.name,
        "workers": workers,
        "chunk_size": args.chunk_size,
        **labels,
    }


def option_of(shown: str) -> str:
    """How an error names a seat's bot: ``--x`` (or ``--o``) for those options, the
    whole ``--seat NAME=BOT`` for a seat option, a seat's key for a default bot (what
    :func:`~tictacblitz.lab.seating.seat_choices` names)."""
    return shown if shown.startswith("--seat") else shown.split(" ")[0]


def seat_arguments(
    args: argparse.Namespace, hooks: Any, checked: bool = True
) -> Dict[int, Tuple[str, str]]:
    """The bots the command line names, by seat index (``--x``, ``--o``, ``--seat``:
    :func:`~tictacblitz.lab.seating.seat_choices`); unless ``checked``, a player spec is
    taken unread (the caller's job checks it). :raises ValueError: one line."""
    given = [(f, k, b) for f, k, b in (("--x", "x", args.x), ("--o", "o", args.o)) if b]
    given += [("--seat", *parse_seat(text)) for text in getattr(args, "seat", None) or []]
    model = player_model(hooks.type.name)  # a player spec (issue 23): the game's model checks it
    check: Optional[Callable[[str], Any]] = model.resolve if model is not None else None
    if not checked and check is not None:
        check = _unread  # a spec: the job's prepare() resolves every seat's bot, once
    return seat_choices(given, hooks.type.seat_names, hooks.bot_names, check)


def _unread(bot: str) -> str:
    """Any bot text, taken as it is (:func:`seat_arguments` unchecked)."""
    return bot


def connect(address: Optional[str]) -> Any:
    """A Dask client for ``--scheduler ADDRESS`` (None: no client)."""
    if address is None:
        return None
    try:
        from distributed import Client
    except ImportError:
        raise ArgumentProblem(
            "--scheduler needs dask[distributed]: pip install 'tictacblitz[cluster]'"
        ) from None
    try:
        return Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise ArgumentProblem(f"--scheduler {address!r}: cannot connect: {exc}") from None


def progress_wanted(args: argparse.Namespace) -> bool:
    """A progress bar unless ``--no-progress`` or stderr is not a terminal."""
    return not args.no_progress and sys.stderr.isatty()
