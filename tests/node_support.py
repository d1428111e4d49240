"""What the Node tests of the browser client's logic share: the ``node`` binary.

Without node the calling module is skipped, unless CI=true: .ci/run installs node
(Debian's nodejs), so there a missing node is a failure, not a silent skip (issue 27).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest


def require_node() -> str:
    """The path of ``node``; skips the calling module without it (fails under CI=true)."""
    node = shutil.which("node")
    if node:
        return node
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail("CI=true and no node on PATH: .ci/run installs it", pytrace=False)
    pytest.skip("node is not installed", allow_module_level=True)


JS = Path(__file__).resolve().parent.parent / "python" / "tictacblitz" / "server" / "static" / "js"
"""The browser client's modules (the shell; ``games/<name>/`` holds each game's view)."""


def node_json(script: str, *args: str) -> Any:
    """Run ``script`` as an ES module under node with ``args`` as its ``process.argv[1:]``
    and return the JSON of the last line it prints (the test fails on node's error)."""
    proc = subprocess.run(
        [require_node(), "--input-type=module", "-e", script, *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])
