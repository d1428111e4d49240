"""The ``tictacblitz`` command run in the test's own process, through ``cli.main``: the
entry point the console script calls and ``python -m tictacblitz`` runs (its
``__main__`` only passes the status to the shell: tests/test_cli_edges.py checks that).
A subprocess a case re-imported the package, numpy, pandas and matplotlib each time
(issue 27, CI item)."""

from __future__ import annotations

import contextlib
import io
import subprocess

from tictacblitz.cli import main


def in_process(*args: str) -> subprocess.CompletedProcess:
    """``tictacblitz ARGS`` as ``subprocess.run`` gives it: the exit status (``main``'s,
    or the parser's ``SystemExit``: --help, a bad option) and what was printed."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(list(args))
        except SystemExit as exit_:
            status = 0 if exit_.code is None else exit_.code
    return subprocess.CompletedProcess(list(args), status, out.getvalue(), err.getvalue())
