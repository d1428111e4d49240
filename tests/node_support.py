"""What the Node tests of the browser client's logic share: the ``node`` binary.

Without node the calling module is skipped, unless CI=true: .ci/run installs node
(Debian's nodejs), so there a missing node is a failure, not a silent skip (issue 27).
"""

from __future__ import annotations

import os
import shutil

import pytest


def require_node() -> str:
    """The path of ``node``; skips the calling module without it (fails under CI=true)."""
    node = shutil.which("node")
    if node:
        return node
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail("CI=true and no node on PATH: .ci/run installs it", pytrace=False)
    pytest.skip("node is not installed", allow_module_level=True)
