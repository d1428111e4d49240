"""The house's shape, checked: layers look only downward, no import cycles, one folder
per game, and the native core never imports the Python package.

The layers (docs/architecture.md), bottom up:
    games/ (protocol, registry, rng) → games/<name>/ → lab/, envs/, server/ → cli
A game's folder imports nothing of another game's; lab, envs and server import no
game's folder directly (they ask the registry), except through a game's declared hooks.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Dict, Set

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "python" / "tictacblitz"
NATIVE = ROOT / "src" / "blitz_core"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: Dict[str, Path] = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def _runtime_nodes(tree: ast.AST):
    """Every node, except those under ``if TYPE_CHECKING:`` (type-only imports, which
    never run)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def imports_of(name: str) -> Set[str]:
    """Every tictacblitz module ``name`` imports at run time, anywhere in its file (a
    function-level import is still a dependency). Reading ``__version__`` from the
    package is not a dependency on its contents."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: Set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and [a.name for a in node.names] == ["__version__"]:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            targets = [f"{stem}.{alias.name}" for alias in node.names] + [stem]
        else:
            continue
        for target in targets:
            # the deepest tictacblitz module the name refers to
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


GRAPH = {name: imports_of(name) for name in MODULES}


def _ancestors_of(name: str) -> Set[str]:
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def test_no_import_cycles():
    """Tarjan's strongly connected components over the import graph (an edge to a
    module's own parent package is how Python imports a sub-module, not a cycle)."""
    graph = {n: {m for m in deps if m not in _ancestors_of(n)} for n, deps in GRAPH.items()}
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: list = []
    on_stack: Set[str] = set()
    cycles = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert cycles == []


def layer(name: str) -> str:
    parts = name.split(".")
    if len(parts) == 1:
        return "package"
    if parts[1] == "games":
        return (
            f"game:{parts[2]}"
            if len(parts) > 2 and (PACKAGE / "games" / parts[2]).is_dir()
            else "platform"
        )
    return parts[1]


# What each layer may import (besides itself and the layers below the platform).
ALLOWED = {
    "platform": {"platform"},
    "lab": {"platform", "lab"},
    "envs": {"platform", "envs"},
    "server": {"platform", "server"},
    "cli": {"platform", "lab", "server", "envs", "cli"},
    "__main__": {"cli"},
    "package": {"platform", "game:blitz", "lab"},  # `from tictacblitz import Match, ...`
}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_layers_look_only_downward(name):
    own = layer(name)
    for dep in GRAPH[name]:
        other = layer(dep)
        if own.startswith("game:"):
            assert other in (own, "platform"), f"{name} (a game) imports {dep}"
            continue
        if other.startswith("game:"):
            # The lab, envs and server reach a game only through the registry; the
            # exceptions: a game's declared hook module, imported by convention (game,
            # balance, rl; infostate: its hidden information, for the OpenSpiel adapter),
            # and the server's adapter for that game (server/games/<game>*.py).
            game = other.split(":")[1]
            adapter = re.fullmatch(rf"tictacblitz\.server\.games\.{game}(_\w+)?", name)
            assert (
                re.fullmatch(r"tictacblitz\.games\.\w+\.(game|balance|rl|infostate)", dep)
                or adapter
                or own == "package"
            ), f"{name} ({own}) imports the game module {dep}"
            continue
        assert other in ALLOWED.get(own, set()) | {own}, f"{name} ({own}) imports {dep} ({other})"


def test_the_native_core_imports_nothing_from_the_package():
    offenders = []
    for path in sorted(NATIVE.rglob("*")):
        # (.pyi stubs may name the package's types: they describe what the package hands
        # down and are never imported at run time.)
        # (.pxi: the parts a module includes by concern, issue 27 item 4: rift/engine, blitz/bots.)
        if path.suffix not in (".pyx", ".pxd", ".pxi", ".py"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.match(r"\s*(from|import|cimport)\s+tictacblitz\b", line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}")
    assert offenders == []


def test_one_folder_per_game_on_both_sides():
    from tictacblitz.games import available_games

    for name in available_games():
        assert (PACKAGE / "games" / name / "game.py").is_file()
        assert (PACKAGE / "games" / name / "reference.py").is_file(), (
            f"{name} has no pure-Python reference engine"
        )
        assert (NATIVE / name).is_dir(), f"{name} has no native core in src/blitz_core/{name}"


# Besides the games' folders, the modules that are one game's adapter by nature: they may
# import that game's native core at import time (issue 27 moves them into per-layer
# folders; until then, named here). ``__main__`` runs the CLI when imported.
GAME_ADAPTERS = re.compile(r"tictacblitz\.(server\.games\.\w+|envs\.openspiel(_\w+)?|__main__)")

CORE_PLATFORM = ("protocol", "registry", "base", "options", "play", "rng", "players")
"""Platform modules that need nothing beyond NumPy: no optional extra excuses them."""

# Run in a fresh interpreter where the native package cannot be imported at all.
_WITHOUT_NATIVE = """
import importlib, json, sys
sys.modules["blitz_core"] = None  # any `import blitz_core...` now raises ImportError
out = {"failed": {}, "skipped": {}}
import tictacblitz
from tictacblitz.games import registry
out["games"] = list(registry.available_games())
for name in json.loads(sys.argv[1]):
    try:
        importlib.import_module(name)
    except ImportError as exc:  # an optional extra (gymnasium, starlette) is no failure
        kind = "failed" if "blitz_core" in str(exc) else "skipped"
        out[kind][name] = str(exc)
try:
    from tictacblitz import Match
    out["match"] = None
except ImportError as exc:
    out["match"] = str(exc)
out["native_loaded"] = sorted(m for m, v in sys.modules.items() if m.startswith("blitz_core") and v)
print(json.dumps(out))
"""


def test_the_platform_imports_without_any_native_build():
    """Issue 27, item 2: the package's ``__init__`` imported Blitz, so ``from
    tictacblitz.games import registry`` failed without Blitz's native build. The
    platform, the lab, envs and server import without it (the per-game adapters aside),
    the registry lists the games by folder, and a Blitz name asked of the package gives
    one line naming the missing build."""
    names = sorted(
        n
        for n in MODULES
        if not layer(n).startswith("game:")
        and not GAME_ADAPTERS.fullmatch(n)
        and n != "tictacblitz"
    )
    assert "tictacblitz.games.registry" in names and "tictacblitz.lab.hooks" in names
    proc = subprocess.run(
        [sys.executable, "-c", _WITHOUT_NATIVE, json.dumps(names)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(PACKAGE.parent)},
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout)
    assert out["failed"] == {}
    assert out["native_loaded"] == []
    assert out["games"] == ["blitz", "doh", "rift"]
    core = {f"tictacblitz.games.{m}" for m in CORE_PLATFORM}
    assert core <= set(names) and not core & set(out["skipped"])  # no extra excuses these
    message = out["match"]
    assert message is not None and "\n" not in message
    assert "tictacblitz.Match" in message and "native build 'blitz_core" in message


# The RL faces still kept in the game layer: gymnasium classes are their base classes
# (issue 27 moves them to envs/; until then, named here). No other game module may need
# gymnasium or pettingzoo.
RL_FACES = re.compile(r"tictacblitz\.games\.(native_vector|native_single|\w+\.rl(\..+)?)")

_WITHOUT_RL = """
import importlib, json, sys
for name in ("gymnasium", "pettingzoo"):
    sys.modules[name] = None  # any import of them now raises ImportError
failed = {}
for name in json.loads(sys.argv[1]):
    try:
        importlib.import_module(name)
    except ImportError as exc:
        failed[name] = str(exc)
print(json.dumps(failed))
"""


def test_the_game_layer_imports_without_gymnasium_or_pettingzoo():
    """Issue 27, item 1: gymnasium was imported under games/ (``native_options.py``, the
    spaces every RL face shares, at import time). Every module of the games' folders and
    of the platform imports with both blocked, the RL faces aside."""
    names = sorted(
        n
        for n in MODULES
        if (layer(n) == "platform" or layer(n).startswith("game:")) and not RL_FACES.fullmatch(n)
    )
    assert "tictacblitz.games.native_options" in names and "tictacblitz.games.doh.game" in names
    proc = subprocess.run(
        [sys.executable, "-c", _WITHOUT_RL, json.dumps(names)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(PACKAGE.parent)},
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout) == {}


def test_no_game_module_is_handed_a_module():
    """Issue 27, item 1: the lab handed games whole modules (``Metrics(rules, stats)``,
    ``record_fields(pa)``). A game's hooks now take plain values: no parameter of a
    balance module's function is named after a module it used to be handed."""
    handed = {"stats", "pa", "pyarrow", "np", "numpy"}
    found = []
    for name, path in MODULES.items():
        if not (layer(name).startswith("game:") and ".balance" in name):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found += [f"{name}.{node.name}({a.arg})" for a in node.args.args if a.arg in handed]
    assert found == []
