"""Fixtures shared by the test modules (plain helpers: browser_support.py, server_support.py,
cluster_support.py)."""

from __future__ import annotations

import os
from typing import Iterator, List

import pytest

# How many pytest-xdist workers ``-n auto`` starts per core. Two a core (tried in issue 27
# to fill the suite's waits: browsers, servers, real-time rounds) did not shorten .ci/run
# from a fresh clone on the quiet 2-core machine (7 min 50 s to 9 min 9 s of tests, 11 min
# 18 s to 12 min 33 s in all, against 7 min 47 s and 12 min 7 s with one a core and 160
# fewer tests), and a real-time test starved of its core failed in one of three runs (a
# Blitz bot match in the browser drew instead of X winning; a load-test attacker sent too
# little): one a core.
WORKERS_PER_CORE = 1


def pytest_collection_modifyitems(items: List[pytest.Item]) -> None:
    """The files with a slow test first (in their own order, then the rest in theirs): with
    pytest-xdist handing out whole files (--dist loadfile), a slow file started last would
    keep one core busy while the other waits (issue 27, CI item)."""
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: WORKERS_PER_CORE workers a core (PYTEST_XDIST_AUTO_NUM_WORKERS, when
    set, still decides, as pytest-xdist documents)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "").isdigit():
        return int(os.environ["PYTEST_XDIST_AUTO_NUM_WORKERS"])
    return WORKERS_PER_CORE * len(os.sched_getaffinity(0))


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
