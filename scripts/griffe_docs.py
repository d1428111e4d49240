"""griffe extensions for the API reference (mkdocs.yml, mkdocstrings).

- ``SphinxRoles``: the docstrings cross-reference in Sphinx's roles (``:class:`Rules```,
  ``:meth:`~.State.apply```), which Markdown does not know; they are shown as code, with
  the ``~`` and leading dots dropped. Doctest blocks (a paragraph that starts with
  ``>>>``) become code blocks, as reST shows them.
- ``NamespaceSubpackages``: ``tictacblitz.lab`` is a namespace package (a folder without
  ``__init__.py``) inside a regular package, which griffe does not descend into; this
  declares such folders as namespace packages so their modules are found.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import griffe

ROLE = re.compile(r":(?:class|meth|func|attr|mod|data|exc|obj|const):`~?\.?([^`]+)`")


def _fence_doctests(text: str) -> str:
    out: list[str] = []
    in_block = in_fence = False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        if not in_fence and not in_block and line.startswith(">>>"):
            out.append("```pycon")
            in_block = True
        elif in_block and not line.strip():
            out.append("```")
            in_block = False
        out.append(line)
    if in_block:
        out.append("```")
    return "\n".join(out)


class SphinxRoles(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            text = _fence_doctests(obj.docstring.value)
            obj.docstring.value = ROLE.sub(r"`\1`", text)


class NamespaceSubpackages(griffe.Extension):
    def on_module_instance(self, *, mod: griffe.Module, **kwargs: Any) -> None:
        if not mod.is_package or isinstance(mod.filepath, list) or mod.filepath is None:
            return
        for sub in sorted(Path(mod.filepath).parent.iterdir()):
            if sub.is_dir() and not (sub / "__init__.py").exists() and any(sub.glob("*.py")):
                mod.set_member(sub.name, griffe.Module(sub.name, filepath=[sub], parent=mod))
