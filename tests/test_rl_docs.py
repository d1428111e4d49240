"""docs/rl.md's Python blocks run as written (each in its own namespace)."""

import os
import re
from pathlib import Path

import pytest

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

DOC = Path(__file__).resolve().parents[1] / "docs" / "rl.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_rl_doc_python_blocks_run(index):
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    exec(compile(BLOCKS[index], f"{DOC}#block{index}", "exec"), {"__name__": "rl_doc"})


def test_the_doc_has_its_blocks():
    assert len(BLOCKS) >= 7
