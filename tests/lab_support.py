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
import tictacblitz.lab.games as lab_games_pkg
from tictacblitz.games import registry
from tictacblitz.lab import hooks as lab_hooks

LAB_ADAPTER = """\
from tictacblitz.games.{name}.game import play_matches as _play_matches
from tictacblitz.lab.adapter import LabAdapter


class {title}Lab(LabAdapter):
    def play_matches(self, rules, seat_bots, seeds, **options):
        return _play_matches(rules, seat_bots, seeds, **options)

{body}
"""


@contextlib.contextmanager
def registered_game(
    where: Path, name: str, game_py: str, lab_body: Optional[str] = None
) -> Iterator[str]:
    """The game ``name`` (its ``game.py`` source) in a folder under ``where``, and its lab
    adapter (``lab/games/<name>.py``: a :class:`~tictacblitz.lab.adapter.LabAdapter`
    whose runner is the game's ``play_matches``, with ``lab_body`` added to the class
    body), registered while the block runs, gone after it."""
    folder = where / name
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "game.py").write_text(textwrap.dedent(game_py))
    lab = where / "lab_games"
    lab.mkdir(exist_ok=True)
    body = textwrap.indent(textwrap.dedent(lab_body or "pass"), "    ")
    (lab / f"{name}.py").write_text(LAB_ADAPTER.format(name=name, title=name.title(), body=body))
    games_pkg.__path__.append(str(where))
    lab_games_pkg.__path__.append(str(lab))
    registry.available_games.cache_clear()
    lab_hooks.hooks_for.cache_clear()
    try:
        assert name in registry.available_games()
        yield name
    finally:
        games_pkg.__path__.remove(str(where))
        lab_games_pkg.__path__.remove(str(lab))
        registry.available_games.cache_clear()
        lab_hooks.hooks_for.cache_clear()
        for module in [
            m
            for m in sys.modules
            if m.startswith((f"tictacblitz.games.{name}", f"tictacblitz.lab.games.{name}"))
        ]:
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
