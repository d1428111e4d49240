"""docs/architecture.md's checklist for adding a game is true: every folder it names
exists, each Python folder is the package its layer's lookup searches, and the fourth
game fills every layer's folder it uses under the name the checklist gives."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from fourth_game_folders import GAME, HERE, layer_folders

ROOT = HERE.parent.parent
PACKAGE = ROOT / "python" / "tictacblitz"
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
CHECKLIST = DOC[DOC.index("## Adding a game") :].split("\n## ")[0]
NAMED = re.findall(r"`([^`\s]*<game>[^`\s]*)`", CHECKLIST)
"""The paths the checklist gives, ``<game>`` standing for the game's name."""


def test_every_folder_the_checklist_names_is_there() -> None:
    assert len(NAMED) >= 8
    for path in NAMED:
        parent = path.split("<game>")[0].rsplit("/", 1)[0]  # benches/bench_<game>.py: benches
        assert (ROOT / parent).is_dir() or (PACKAGE / parent).is_dir(), path


def test_each_python_folder_is_the_package_its_layer_searches() -> None:
    """``python/tictacblitz/<layer>/games/<game>`` is where ``tictacblitz.<layer>.games``
    (the package the layer's lookup lists) is."""
    python = [p for p in NAMED if p.startswith("python/tictacblitz/") and "/static/" not in p]
    assert len(python) >= 5
    for path in python:
        folder = Path(path.split("<game>")[0])
        package = ".".join(folder.parts[1:])
        # Where the package is, in the source tree or installed (CI installs it): the
        # folder the checklist names, below python/.
        found = Path(importlib.import_module(package).__file__).parent
        assert found.parts[-len(folder.parts[1:]) :] == folder.parts[1:], path
        assert (ROOT / folder).is_dir(), path


def test_the_fourth_game_fills_the_checklist_s_folders_and_only_those() -> None:
    filled = []
    for _, folder in layer_folders():
        layer = folder.relative_to(HERE).as_posix()
        for entry in folder.iterdir():
            if entry.name == "__pycache__":
                continue
            assert entry.name in (GAME, f"{GAME}.py"), entry  # nothing but the game's own
            kind = "/" if entry.is_dir() else ".py"
            filled.append(f"python/tictacblitz/{layer}/<game>{kind}")
    assert sorted(filled) == [
        "python/tictacblitz/games/<game>/",
        "python/tictacblitz/lab/games/<game>.py",
        "python/tictacblitz/server/games/<game>/",
    ]
    assert set(filled) <= set(NAMED)
