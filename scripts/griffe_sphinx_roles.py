"""A griffe extension for the API reference (mkdocs.yml): the docstrings cross-reference
in Sphinx's roles (``:class:`Rules```, ``:meth:`~.State.apply```), which Markdown does
not know; they are shown as code, with the ``~`` and leading dots dropped."""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:class|meth|func|attr|mod|data|exc|obj|const):`~?\.?([^`]+)`")


class SphinxRoles(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = ROLE.sub(r"`\1`", obj.docstring.value)
