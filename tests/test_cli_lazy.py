"""``tictacblitz COMMAND`` imports only what its command needs (cli.py, ``COMMANDS``;
issue 27, CI item): ``serve``, started by the tests of a cluster 18 times, imported the
lab and every game's hooks (58 ``tictacblitz.lab`` modules) to build parsers it never
used. Counted in a fresh interpreter, not timed."""

from __future__ import annotations

import json
import subprocess
import sys

from tictacblitz.cli import COMMANDS, build_parser

PROBE = """
import json, sys
from tictacblitz.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m.startswith(("tictacblitz.lab.",
                                                                  "tictacblitz.games.")))))
"""


def loaded_by(*argv: str) -> list:
    from tictacblitz.loadtest.procs import child_env

    out = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        env=child_env(),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,  # a bound, not a measure: the probe takes about a second
    ).stdout
    return json.loads(out.splitlines()[-1])


def test_serve_imports_neither_the_lab_nor_another_games_hooks() -> None:
    loaded = loaded_by("serve", "--help")
    assert [m for m in loaded if m.startswith("tictacblitz.lab.")] == ["tictacblitz.lab.edges"]
    assert not [
        m for m in loaded if m.startswith(("tictacblitz.games.doh", "tictacblitz.games.rift"))
    ]
    # Every command is still there for --help, and a lab command still finds its own.
    assert "tictacblitz.lab.simulate_command" in loaded_by("simulate", "--help")


def test_the_commands_table_names_every_parser_once() -> None:
    names = [name for name, _ in COMMANDS]
    assert len(set(names)) == len(names)
    whole = build_parser()
    choices = next(a for a in whole._actions if a.dest == "command").choices
    assert list(choices) == names
    for name in names:  # each alone builds just its own
        alone = next(a for a in build_parser(name)._actions if a.dest == "command").choices
        assert list(alone) == [name]
