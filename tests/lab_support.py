"""What the lab's tests share: a small game registered for one test by its folder only
(the way a new game plugs in: docs/architecture.md), and ``simulate`` driven through its
command line."""

from __future__ import annotations

import argparse
import contextlib
import sys
import textwrap
from pathlib import Path
from typing import Iterator, Optional

import tictacblitz.games as games_pkg
from tictacblitz.games import registry
from tictacblitz.lab import hooks as lab_hooks


@contextlib.contextmanager
def registered_game(
    where: Path, name: str, game_py: str, balance_py: Optional[str] = None
) -> Iterator[str]:
    """The game ``name`` (its ``game.py`` source, and a ``balance.py`` if given) in a
    folder under ``where``, registered while the block runs, gone after it."""
    folder = where / name
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "game.py").write_text(textwrap.dedent(game_py))
    if balance_py is not None:
        (folder / "balance.py").write_text(textwrap.dedent(balance_py))
    games_pkg.__path__.append(str(where))
    registry.available_games.cache_clear()
    lab_hooks.hooks_for.cache_clear()
    try:
        assert name in registry.available_games()
        yield name
    finally:
        games_pkg.__path__.remove(str(where))
        registry.available_games.cache_clear()
        lab_hooks.hooks_for.cache_clear()
        for module in [m for m in sys.modules if m.startswith(f"tictacblitz.games.{name}")]:
            del sys.modules[module]


def run_simulate(argv, capsys):
    """``tictacblitz simulate ...`` through its parser: (exit status, stdout, stderr)."""
    from tictacblitz.lab import simulate_command as sim

    parser = argparse.ArgumentParser(prog="tictacblitz")
    sim.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    status = args.handler(args)
    out = capsys.readouterr()
    return status, out.out, out.err
