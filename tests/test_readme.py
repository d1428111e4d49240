"""The README's Python tour runs as written (one namespace, blocks in order)."""

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_blocks_run():
    pytest.importorskip("gymnasium")
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 4
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)
    match = namespace["match"]
    assert match.board_text()[2] == "...X.."
    assert namespace["decision"].next_t >= match.t
