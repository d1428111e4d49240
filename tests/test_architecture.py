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


def _runtime_nodes(tree: ast.AST, type_only: bool = False):
    """Every node, except those under ``if TYPE_CHECKING:`` (type-only imports, which
    never run) unless ``type_only``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if not type_only and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def imports_of(name: str, type_only: bool = False) -> Set[str]:
    """Every tictacblitz module ``name`` imports at run time, anywhere in its file (a
    function-level import is still a dependency); with ``type_only``, also those under
    ``if TYPE_CHECKING:``. Reading ``__version__`` from the package is not a dependency
    on its contents."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: Set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8")), type_only):
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
# The same, counting type-only imports too: the cycle test's graph (issue 27, item 4: a
# circle lobby -> room -> seats -> room, room -> lobby ran through callbacks at run time,
# and its back edges were TYPE_CHECKING imports, which the runtime graph does not see).
TYPED_GRAPH = {name: imports_of(name, type_only=True) for name in MODULES}


def _ancestors_of(name: str) -> Set[str]:
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def import_cycles(full_graph: Dict[str, Set[str]]) -> list:
    """Tarjan's strongly connected components over an import graph (an edge to a
    module's own parent package is how Python imports a sub-module, not a cycle): each
    component of more than one module, sorted."""
    graph = {n: {m for m in deps if m not in _ancestors_of(n)} for n, deps in full_graph.items()}
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
    return cycles


def test_no_import_cycles():
    """No circle among the modules, counting every import: at module level, inside a
    function, and under ``if TYPE_CHECKING:`` (a type-only back edge is how a run-time
    circle through callbacks hides: issue 27, item 4)."""
    assert import_cycles(TYPED_GRAPH) == []


def test_the_cycle_check_sees_type_only_and_function_local_imports(tmp_path):
    """A circle whose edges are an import under ``if TYPE_CHECKING:`` and one inside a
    function is found (the run-time graph sees only the second)."""
    fake = {"tictacblitz.fake_a": tmp_path / "a.py", "tictacblitz.fake_b": tmp_path / "b.py"}
    fake["tictacblitz.fake_a"].write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
        "    from tictacblitz.fake_b import B\n"
    )
    fake["tictacblitz.fake_b"].write_text("def f():\n    from tictacblitz.fake_a import A\n")
    MODULES.update(fake)
    try:
        runtime = {name: imports_of(name) for name in fake}
        typed = {name: imports_of(name, type_only=True) for name in fake}
    finally:
        for name in fake:
            del MODULES[name]
    assert import_cycles(runtime) == []
    assert import_cycles(typed) == [sorted(fake)]


def test_one_process_or_a_cluster_is_decided_once():
    """Issue 27, item 4: the server's web layer asked ``cluster is not None`` a dozen
    times. Now ``server/scope.py`` is the one place a process alone and a process of a
    cluster differ: the only module that imports ``server/cluster.py`` (besides the
    cluster's own modules and the serve command's option checks, ``server/__init__``),
    and no server module reads ``app.state.cluster`` (they ask ``app.state.scope``)."""
    cluster = "tictacblitz.server.cluster"
    importers = sorted(
        name
        for name, deps in TYPED_GRAPH.items()
        if cluster in deps and not name.startswith(f"{cluster}_")
    )
    assert importers == ["tictacblitz.server", "tictacblitz.server.scope"]
    readers = []
    for name, path in MODULES.items():
        if not name.startswith("tictacblitz.server"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and node.attr == "cluster"
                and isinstance(node.ctx, ast.Load)
                and isinstance(node.value, ast.Attribute)
                and node.value.attr == "state"
            ):
                readers.append(f"{name}:{node.lineno}")
    assert readers == []


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


SERVER_SIDE = "(server|loadtest)"  # the layers whose adapters are per-game folders of their own

# What each layer may import (besides itself and the layers below the platform).
ALLOWED = {
    "platform": {"platform"},
    "lab": {"platform", "lab", "envs"},  # evaluation plays a policy in a game's RL adapter
    "envs": {"platform", "envs"},
    "server": {"platform", "server"},
    "loadtest": {"platform", "server", "loadtest"},  # a tool beside the server (issue 27)
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
            # exceptions: a game's declared hook module, imported by convention (game, rl;
            # infostate: its hidden information, for the OpenSpiel adapter), and the
            # adapters of the server, the load tool and the lab for that game
            # (server/games/<game>/, loadtest/games/<game>.py, lab/games/<game>: issue 27).
            game = other.split(":")[1]
            adapter = re.fullmatch(
                rf"tictacblitz\.({SERVER_SIDE}\.games\.{game}(\.\w+)?|lab\.games\.{game}(\..+)?)",
                name,
            )
            # the envs' RL adapter of that game and its helpers (issue 27, item 1)
            adapter = adapter or re.fullmatch(rf"tictacblitz\.envs\.games\._?{game}(_\w+)?", name)
            assert (
                re.fullmatch(r"tictacblitz\.games\.\w+\.(game|rl|infostate)", dep)
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
GAME_ADAPTERS = re.compile(
    r"tictacblitz\.(server\.games\.\w+(\.\w+)?|loadtest\.games\.\w+|lab\.games\.[a-z]\w*(\..+)?"
    r"|envs\.games\.\w+|envs\.openspiel(_\w+)?|(loadtest\.)?__main__)"
)

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


# Issue 27, item 1: the RL faces left the game layer for envs/ (envs/native/, and each
# game's adapter in envs/games/<game>.py): no module of games/ may need gymnasium or
# pettingzoo, not even inside a function.
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

RL_LIBRARIES = ("gymnasium", "pettingzoo")


def _game_layer() -> list:
    return sorted(n for n in MODULES if layer(n) == "platform" or layer(n).startswith("game:"))


def test_the_game_layer_imports_without_gymnasium_or_pettingzoo():
    """Issue 27, item 1: gymnasium was imported under games/ (``native_vector.py``, the
    games' ``rl`` hooks). Every module of the games' folders and of the platform imports
    with both blocked."""
    names = _game_layer()
    assert "tictacblitz.games.registry" in names and "tictacblitz.games.doh.game" in names
    proc = subprocess.run(
        [sys.executable, "-c", _WITHOUT_RL, json.dumps(names)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(PACKAGE.parent)},
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout) == {}


def test_nothing_under_games_names_gymnasium_or_pettingzoo():
    """Issue 27, item 1, read from the source: no import of gymnasium or pettingzoo
    anywhere in a module under ``games/``, a function's lazy import included (the
    import test above only runs the module's top level)."""
    found = []
    for name in _game_layer():
        for node in ast.walk(ast.parse(MODULES[name].read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                targets = [node.module or ""]
            else:
                continue
            found += [f"{name}: {t}" for t in targets if t.split(".")[0] in RL_LIBRARIES]
    assert found == []


ENVS_GAMES = PACKAGE / "envs" / "games"


def test_per_game_rl_code_lives_only_under_envs_games():
    """Issue 27, items 1-2: a game's RL adapter is ``envs/games/<game>.py`` (helpers
    ``envs/games/_<game>_*.py``), one ``NativeVectorEnv`` subclass found by the shared
    lookup; no ``rl`` module or package is left in a game's folder, and no module
    elsewhere subclasses the envs' native bases."""
    from tictacblitz.envs.games import native_env
    from tictacblitz.games import available_games

    leftovers = [
        str(p.relative_to(PACKAGE))
        for game in available_games()
        for p in (PACKAGE / "games" / game).glob("rl*")
        if p.suffix == ".py" or any(p.glob("*.py"))  # (a stale __pycache__ is no module)
    ]
    assert leftovers == []
    for path in ENVS_GAMES.glob("*.py"):
        stem = path.stem
        if stem == "__init__":
            continue
        owner = stem[1:].split("_")[0] if stem.startswith("_") else stem
        assert owner in available_games(), f"envs/games/{path.name} belongs to no game"
    for game in available_games():
        adapter = native_env(game)
        assert adapter is not None and adapter.__module__ == f"tictacblitz.envs.games.{game}"
    bases = {"NativeVectorEnv", "NativeSingleEnv"}
    outside = []
    for name, path in MODULES.items():
        if name.startswith(("tictacblitz.envs.games.", "tictacblitz.envs.native")):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                named = {ast.unparse(b).rpartition(".")[2] for b in node.bases}
                outside += [f"{name}.{node.name}"] if named & bases else []
    assert outside == []


def test_no_game_module_is_handed_a_module():
    """Issue 27, item 1: the lab handed games whole modules (``Metrics(rules, stats)``,
    ``record_fields(pa)``). A game's lab hooks (its adapter, lab/games/<game>) take
    plain values: no parameter of their functions is named after a module it used to be
    handed."""
    handed = {"stats", "pa", "pyarrow", "np", "numpy"}
    found = []
    adapters = [n for n in MODULES if n.startswith("tictacblitz.lab.games.")]
    assert "tictacblitz.lab.games.doh.balance" in adapters
    for name, path in MODULES.items():
        if name not in adapters:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found += [f"{name}.{node.name}({a.arg})" for a in node.args.args if a.arg in handed]
    assert found == []


# -- the server's and the load tool's per-game code (issue 27, items 1 and 4) --------------

SERVER_GAMES = PACKAGE / "server" / "games"
LOADTEST_GAMES = PACKAGE / "loadtest" / "games"


def _game_folders() -> Set[str]:
    return {p.name for p in (PACKAGE / "games").iterdir() if (p / "game.py").is_file()}


def _named_after_a_game_outside_games(layer_name: str) -> list:
    """The layer's modules outside its ``games`` package named after a game (``blitz_x``)."""
    prefix = f"tictacblitz.{layer_name}."
    return [
        name
        for name in sorted(MODULES)
        if name.startswith(prefix)
        and not name.startswith(prefix + "games")
        and any(name.rpartition(".")[2].startswith(g) for g in _game_folders())
    ]


def test_server_per_game_code_lives_only_in_its_game_package():
    """``server/games/`` holds one package per game (``<game>/``, its adapter and helpers)
    and nothing else: no flat ``<game>_*.py`` modules, no generic code (the interface
    and the lookup are ``server/adapter.py``). Each package defines exactly one
    ``GameAdapter`` subclass, found by the shared lookup."""
    from tictacblitz.games.adapters import adapter_class
    from tictacblitz.server import games
    from tictacblitz.server.adapter import GameAdapter

    games_here = _game_folders()
    entries = {p.name for p in SERVER_GAMES.iterdir() if p.name != "__pycache__"}
    assert entries - {"__init__.py"} <= games_here, entries
    assert all((SERVER_GAMES / g / "__init__.py").is_file() for g in entries - {"__init__.py"})
    init = (SERVER_GAMES / "__init__.py").read_text(encoding="utf-8")
    assert not [n for n in ast.parse(init).body if not isinstance(n, ast.Expr)], (
        "server/games/__init__.py holds only its docstring"
    )
    assert _named_after_a_game_outside_games("server") == []
    for game in sorted(entries - {"__init__.py"}):
        found = adapter_class(games, game, GameAdapter)
        assert found is not None and found.__module__ == f"tictacblitz.server.games.{game}"


def test_load_tool_per_game_code_lives_only_in_loadtest_games():
    """The load tool is a package of its own (``tictacblitz.loadtest``), its per-game
    clients only ``loadtest/games/<game>.py``; the server package keeps no ``load*``
    module and never imports the tool (the tool may import the server's protocol)."""
    from tictacblitz.loadtest import games as load_games
    from tictacblitz.loadtest.client import LoadClient, client_class

    assert not list((PACKAGE / "server").rglob("*load*.py"))
    entries = {p.stem for p in LOADTEST_GAMES.glob("*.py")} - {"__init__"}
    assert entries and entries <= _game_folders(), entries
    assert not [p for p in LOADTEST_GAMES.iterdir() if p.is_dir() and p.name != "__pycache__"]
    for game in sorted(entries):
        assert client_class(game).__module__ == f"{load_games.__name__}.{game}"
        assert issubclass(client_class(game), LoadClient)
    assert _named_after_a_game_outside_games("loadtest") == []


def test_the_server_never_imports_the_load_tool():
    offenders = {
        name: sorted(d for d in GRAPH[name] if d.startswith("tictacblitz.loadtest"))
        for name in MODULES
        if name.startswith("tictacblitz.server")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


@pytest.mark.parametrize("layer_name", ["server", "loadtest"])
def test_only_the_adapters_import_a_games_internals(layer_name):
    """No generic module of the server or the load tool imports anything of a game's
    folder (``tictacblitz.games.<game>.*``): only ``<layer>/games/<game>`` does, and
    only its own game's."""
    prefix = f"tictacblitz.{layer_name}"
    offenders = []
    for name in sorted(MODULES):
        if not (name == prefix or name.startswith(prefix + ".")):
            continue
        adapter = re.fullmatch(rf"{re.escape(prefix)}\.games\.(\w+)(\..+)?", name)
        for dep in GRAPH[name]:
            game = layer(dep).partition(":")[2]
            if game and not (adapter and adapter.group(1) == game):
                offenders.append(f"{name} imports {dep}")
    assert offenders == []
    assert any(n.startswith(f"{prefix}.games.") for n in MODULES)  # the check saw adapters


# -- the lab's adapters (issue 27, items 1 and 4) ------------------------------------------------

LAB_GAMES = "tictacblitz.lab.games"


def test_the_labs_per_game_code_is_only_under_lab_games():
    """Each game's lab code (its balance hooks, metrics, reports) moved out of games/<g>/
    into its lab adapter: no module of a game's folder is lab-facing any more, nothing
    under games/ imports from the lab, and every adapter folder names a registered game
    and holds exactly one LabAdapter (the registry's one lookup)."""
    from tictacblitz.games import available_games
    from tictacblitz.games.adapters import adapter_class, adapter_names
    from tictacblitz.lab import games as lab_games
    from tictacblitz.lab.adapter import LabAdapter

    lab_facing = [n for n in MODULES if layer(n).startswith("game:") and ".balance" in n]
    assert lab_facing == []
    upward = sorted(
        f"{name} imports {dep}"
        for name in MODULES
        if name.startswith("tictacblitz.games")
        for dep in GRAPH[name]
        if layer(dep) == "lab"
    )
    assert upward == []
    assert adapter_names(lab_games) == tuple(available_games())
    for game in available_games():
        cls = adapter_class(lab_games, game, LabAdapter)
        assert cls is not None and cls.__module__ == f"{LAB_GAMES}.{game}", game


def test_no_lab_module_outside_its_adapters_imports_a_games_internals():
    """The game-agnostic lab (lab/*.py) reaches a game only through the registry and its
    adapter (``hooks_for``): no import of ``tictacblitz.games.<g>.*``, declared hook
    modules included; only lab/games/<g> imports game <g>, and no other game's."""
    found = []
    for name in MODULES:
        if layer(name) != "lab":
            continue
        adapter = re.fullmatch(rf"{re.escape(LAB_GAMES)}\.(\w+)(\..+)?", name)
        for dep in GRAPH[name]:
            other = layer(dep)
            if not other.startswith("game:"):
                continue
            if adapter is None or other != f"game:{adapter.group(1)}":
                found.append(f"{name} imports {dep}")
    assert found == []
