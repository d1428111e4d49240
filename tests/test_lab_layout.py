"""The lab's shape (issue 11): focused modules, no import cycle, no Blitz name in the
game-agnostic layer, and every Blitz fact the balance hooks use from its one source.

The game-agnostic modules are ``lab/*.py``; each game's lab code lives in its adapter
under ``lab/games/<game>`` (issue 27, item 1), the one place a game may be named."""

import ast
import os

import numpy as np
import pytest

from tictacblitz.games import rng
from tictacblitz.games.blitz import bots
from tictacblitz.games.blitz.reference import SplitMix64 as BlitzStream
from tictacblitz.games.blitz.rules import Rules
from tictacblitz.games.blitz.types import Player, PowerupKind, RoundEnd
from tictacblitz.lab import stats
from tictacblitz.lab.games.blitz import balance
from tictacblitz.lab.games.blitz.metrics import Metrics

LAB = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python", "tictacblitz", "lab"
)
MODULES = sorted(f[:-3] for f in os.listdir(LAB) if f.endswith(".py"))
MAX_LINES = 350
ADAPTERS = sorted(
    os.path.relpath(os.path.join(folder, f), LAB)
    for folder, _, files in os.walk(os.path.join(LAB, "games"))
    for f in files
    if f.endswith(".py")
)
"""The per-game modules (lab/games/): each under the house's 400 lines."""


def source(name):
    with open(os.path.join(LAB, f"{name}.py"), encoding="utf-8") as fh:
        return fh.read()


def lab_imports(name):
    """The lab modules ``name`` imports, at module level or inside functions."""
    found = set()
    for node in ast.walk(ast.parse(source(name))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
            "tictacblitz.lab."
        ):
            found.add(node.module.split(".")[2])
    return found & set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_no_god_module(name):
    assert len(source(name).splitlines()) <= MAX_LINES


@pytest.mark.parametrize("path", ADAPTERS)
def test_no_god_module_among_the_adapters(path):
    with open(os.path.join(LAB, path), encoding="utf-8") as fh:
        assert len(fh.read().splitlines()) < 400, path


def test_no_import_cycle_in_the_lab():
    graph = {m: lab_imports(m) for m in MODULES}
    state = {}

    def visit(m, path):
        if state.get(m) == "done":
            return
        assert state.get(m) != "open", f"import cycle: {' -> '.join(path + [m])}"
        state[m] = "open"
        for n in sorted(graph[m]):
            visit(n, path + [m])
        state[m] = "done"

    for m in MODULES:
        visit(m, [])
    assert "simulation" not in graph["distributed"] and "distributed" not in graph["jobs"]


BLITZ_NAMES = {"Rules", "Player", "PowerupKind", "RoundEnd", "BotSpec", "Match", "ActionKind"}
BLITZ_STRINGS = {*bots.PRESETS, *(k.key for k in PowerupKind), "blitz"}


def code_nodes(tree):
    """Every node but docstrings (their examples may show a game's bots)."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [n for n in ast.walk(tree) if id(n) not in docstrings]


@pytest.mark.parametrize("name", MODULES)
def test_the_lab_names_no_blitz_type_bot_or_powerup(name):
    tree = ast.parse(source(name))
    for node in code_nodes(tree):
        if isinstance(node, ast.ImportFrom):
            assert "blitz" not in (node.module or ""), f"{name} imports {node.module}"
        elif isinstance(node, ast.Name):
            assert node.id not in BLITZ_NAMES, f"{name} names {node.id}"
        elif isinstance(node, ast.Attribute):
            assert node.attr not in BLITZ_NAMES, f"{name} names .{node.attr}"
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            assert node.value not in BLITZ_STRINGS, f"{name} writes {node.value!r}"


def test_blitz_balance_facts_come_from_their_one_source():
    from blitz_core.blitz.bots import SEAT_COUNT_FIELDS

    assert balance.KINDS == tuple(k.key for k in PowerupKind)
    assert SEAT_COUNT_FIELDS[-len(balance.KINDS) :] == balance.KINDS  # native axis order
    assert balance.RESULTS[:2] == tuple(p.name for p in Player)
    assert balance.ENDS == tuple(e.value for e in RoundEnd)
    cols = balance.play_matches(None, ("greedy", "greedy"), np.arange(4, dtype=np.uint64))
    assert cols["round_result"].shape[1] == balance.MAX_RECORD_ROUNDS
    assert cols["round_powerups"].shape[-1] == len(balance.KINDS)

    names = [n for n, _ in balance.record_fields()]
    assert all(f"round_{k.key}_{s}" in names for k in PowerupKind for s in "xo")
    assert set(Metrics(Rules()).to_dict()["powerups"]) == set(balance.KINDS)


def test_one_splitmix64_for_every_game_and_the_lab():
    assert stats.mix64 is rng.mix64
    assert issubclass(BlitzStream, rng.SplitMix64)
    a, b = rng.SplitMix64(42), BlitzStream(42)
    assert [a.next() for _ in range(5)] == [b.next() for _ in range(5)]
    assert rng.SplitMix64(0).next() == rng.mix64(0) == 0xE220A8397B1DCDAF
    weights = (1.0, 0.0, 2.0, 1.0)
    assert [rng.SplitMix64(s).weighted(weights) for s in range(200)] == [
        int(BlitzStream(s).kind(weights)) for s in range(200)
    ]
    z = np.arange(100, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    assert [int(v) for v in rng.mix64_array(z)] == [rng.mix64(int(v)) for v in z]
