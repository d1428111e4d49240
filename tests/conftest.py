"""Fixtures shared by the test modules (plain helpers: browser_support.py, server_support.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium through Playwright, one per module (browser_support.require_browser
    skips a module without them)."""
    from playwright import sync_api

    from browser_support import CHROMIUM, LAUNCH_ARGS

    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield b
        b.close()
