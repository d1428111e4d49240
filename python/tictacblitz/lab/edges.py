"""The edges of the lab's commands, for the person at the terminal: a number option that
is not a number, a bad option, Ctrl-C, an output path that cannot be written. Each is one
line on stderr and an exit status, never a traceback:

- a bad option or value (``--matches abc``): ``tictacblitz simulate: error: ...``, exit 2
  (:func:`one_line_errors`, :func:`whole_number`);
- Ctrl-C: ``tictacblitz simulate: interrupted after N of M matches; nothing written``,
  exit 130 (:func:`guarded`; the runner's threads are daemons, so nothing waits for a
  chunk still in native code);
- output paths are checked before any match is played (``records.check_out_path``,
  ``sweep.check_out_dir``).

A closed pipe (``... | head``) is the command line's (``tictacblitz.cli.main``).
"""

from __future__ import annotations

import argparse
import sys
from typing import Callable, List, NoReturn, Optional, Sequence, Tuple

from ..games.options import report_error
from ..games.rng import check_seed

__all__ = [
    "whole_number",
    "seed_number",
    "one_line_errors",
    "guarded",
    "Interrupted",
    "INTERRUPTED",
]

INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT), as shells report it."""


def whole_number(minimum: Optional[int] = None) -> Callable[[str], int]:
    """An argparse ``type``: a whole number (at least ``minimum``), else one line."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if minimum is not None and value < minimum:
            raise argparse.ArgumentTypeError(f"must be >= {minimum}, not {value}")
        return value

    parse.__name__ = "whole number"
    return parse


def seed_number(text: str) -> int:
    """An argparse ``type`` for ``--seed``: a whole number :func:`check_seed` takes, else
    its one line (a negative seed, refused everywhere, never reaches a command)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    try:
        return check_seed(value)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


seed_number.__name__ = "seed"


def one_line_errors(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    """Make ``parser``'s own errors (an unknown option, a missing or malformed value)
    one line like the command's others: ``tictacblitz COMMAND: error: MESSAGE``, exit 2."""

    def error(message: str) -> NoReturn:
        text = message[len("argument ") :] if message.startswith("argument ") else message
        where = f"tictacblitz {command}" if command else "tictacblitz"
        raise SystemExit(report_error(command, f"{text} (see {where} --help)"))

    parser.error = error  # type: ignore[method-assign]
    parse_known = parser.parse_known_args

    def strict(
        args: Optional[Sequence[str]] = None, namespace: Optional[argparse.Namespace] = None
    ) -> Tuple[argparse.Namespace, List[str]]:
        # A subcommand's unknown option is its own error (argparse leaves it to the
        # top-level parser, which prints its usage too).
        parsed, extras = parse_known(args, namespace)
        if extras:
            error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras

    parser.parse_known_args = strict  # type: ignore[method-assign,assignment]
    return parser


def guarded(
    command: str, handler: Callable[[argparse.Namespace], int]
) -> Callable[[argparse.Namespace], int]:
    """``handler`` with Ctrl-C turned into one line on stderr and exit status 130."""

    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except KeyboardInterrupt as exc:
            text = str(exc) or "interrupted before any match was played; nothing written"
            print(f"tictacblitz {command}: {text}", file=sys.stderr, flush=True)
            return INTERRUPTED

    run.__doc__ = handler.__doc__
    run.__wrapped__ = handler  # type: ignore[attr-defined]
    return run


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run: ``done`` of ``total`` matches were played, nothing was
    written (a ``KeyboardInterrupt``, so code that catches that still does)."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__(f"interrupted after {done:,} of {total:,} matches; nothing written")
        self.done, self.total = done, total
