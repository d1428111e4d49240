"""The command line: demo, bad arguments, and every module's doctests."""

import doctest
import subprocess
import sys

import pytest

import tictacblitz
from tictacblitz.cli import main
from tictacblitz.games.blitz import bots, rules, streams, types
from tictacblitz.lab import stats


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "tictacblitz", *args], capture_output=True, text=True, timeout=300
    )


def test_demo_prints_events_and_the_result():
    proc = run("demo", "--seed", "3")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "r1   0.000s  round started"
    assert any(" placed X " in line for line in lines) and any(" set O " in line for line in lines)
    assert lines[-1].startswith("match over after ")


def test_demo_quiet_prints_rounds_only(capsys):
    assert (
        main(["demo", "--quiet", "--x", "greedy", "--o", "random", "--rule", "round_ms=20000"]) == 0
    )
    out = capsys.readouterr().out.splitlines()
    events = out[: next(i for i, line in enumerate(out) if line.startswith("final "))]
    assert events and all(" round over " in line or " match over " in line for line in events)


def test_demo_seats_a_bot_in_each_of_three_seats(capsys):
    """Issue 25: the demo names the seats of a 3-player game as simulate does."""
    args = ["demo", "--game", "doh", "--rule", "players=3", "--seat", "third=perfect"]
    assert main([*args, "--seat", "2=easy"]) == 0
    out = capsys.readouterr().out.splitlines()
    players = [line.split()[1] for line in out if line.startswith("move ")]
    assert players[:6] == ["0", "1", "2", "0", "1", "2"]  # D10: turns in seat order
    last = out[-1]
    bots = {"first": "greedy", "second": "easy", "third": "perfect"}
    assert last == "match over: a draw" or any(
        last == f"match over: {seat} ({bot}) wins" for seat, bot in bots.items()
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (["demo", "--game", "doh", "--seat", "third=random"], "this run has 2 seats"),
        (["demo", "--game", "doh", "--seat", "third"], "expected NAME=BOT"),
        (["demo", "--x", "nobot"], "unknown bot"),
        (["demo", "--rule", "set_ms"], "expected NAME=VALUE"),
        (["demo", "--rule", "speed=3"], "unknown rule 'speed'"),
        (["demo", "--rule", "size=12"], "rules.size=12"),
        (["tournament", "--bots", "random,nobot"], "unknown bot"),
        (["tournament", "--matches", "0"], "--matches"),
        (["serve", "--rule", "size=99"], "rules.size=99"),
        (["serve", "--rules", "[1]"], "--rules must be a JSON object"),
        (["serve", "--port", "70000"], "--port 70000"),
        (["simulate", "--matches", "0"], "matches"),
        (["simulate", "--x", "nobot"], "nobot"),
        (["sweep", "--grid", "nosuchrule=1:2:1"], "nosuchrule"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(args, message):
    proc = run(*args)
    assert proc.returncode == 2
    assert message in proc.stderr and proc.stdout == ""


@pytest.mark.parametrize(
    "module", [tictacblitz, rules, types, bots, streams, stats], ids=lambda m: m.__name__
)
def test_doctests(module):
    result = doctest.testmod(module)
    assert result.failed == 0


def test_version_prints_the_one_declared_version():
    proc = run("--version")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"tictacblitz {tictacblitz.__version__}"


def test_version_is_declared_once():
    """pyproject.toml reads the version from ``__version__`` (scikit-build-core's regex
    provider); an installed distribution carries that same version."""
    import importlib.metadata
    import re
    from pathlib import Path

    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11

    root = Path(__file__).resolve().parents[1]
    pyproject = tomllib.loads((root / "pyproject.toml").read_text())
    assert "version" not in pyproject["project"]
    assert "version" in pyproject["project"]["dynamic"]
    provider = pyproject["tool"]["scikit-build"]["metadata"]["version"]
    assert provider["provider"] == "scikit_build_core.metadata.regex"
    init = (root / provider["input"]).read_text()
    declared = re.findall(r'^__version__ = "([^"]+)"$', init, re.M)
    assert declared == [tictacblitz.__version__]
    try:
        dist = importlib.metadata.distribution("tictacblitz")
    except importlib.metadata.PackageNotFoundError:
        return  # a dev tree that was never installed
    imported = Path(tictacblitz.__file__).resolve()
    if Path(str(dist.locate_file("tictacblitz/__init__.py"))).resolve() == imported:
        assert dist.version == tictacblitz.__version__  # the installed package (CI)
