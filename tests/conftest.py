"""Fixtures shared by the test modules (plain helpers: browser_support.py, server_support.py,
cluster_support.py)."""

from __future__ import annotations

from typing import Iterator, List

import pytest


def pytest_collection_modifyitems(items: List[pytest.Item]) -> None:
    """The files with a slow test first (in their own order, then the rest in theirs): with
    pytest-xdist handing out whole files (--dist loadfile), a slow file started last would
    keep one core busy while the other waits (issue 27, CI item)."""
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)


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


@pytest.fixture
def redis_port() -> Iterator[int]:
    """The port of a Redis of the test's own (Debian's ``redis-server`` on loopback, in
    memory), stopped after the test."""
    from cluster_support import free_port
    from tictacblitz.loadtest.procs import start_redis

    port = free_port()
    server = start_redis(port)
    try:
        yield port
    finally:
        server.terminate()
        server.wait(timeout=10)
