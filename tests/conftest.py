"""Fixtures shared by the test modules (plain helpers: browser_support.py, server_support.py,
cluster_support.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Dict, Iterator, List

import pytest

# How many pytest-xdist workers ``-n auto`` starts: one a core and one more. The suite
# leaves cores idle while browsers, servers and real-time rounds wait, and the extra
# worker fills them: in one hour on the quiet 2-core machine, the part of a fresh-clone
# .ci/run after the install (the tests, with the checks and the gate beside them at low
# priority) took 427 s with 2 workers and 387 s with 3, every test passing (issue 27,
# CI item). Two workers a core (4 here), tried when the checks and the gate competed
# with the tests at full priority, did not shorten the run, and a real-time test starved
# of its core failed in one of three runs (a Blitz bot match in the browser drew).
EXTRA_WORKERS = 1


# Each test file's seconds (setup, call and teardown of its tests) in a recorded run of
# the suite: the order pytest-xdist hands the files out, longest first, so that no long
# file starts last and runs alone, and the files that mostly wait (servers, real-time
# rounds) start beside the ones that keep a core busy. Only an order: a stale record
# costs time, not a result. Recorded again with
#   TICTACBLITZ_RECORD_DURATIONS=tests/durations.json python -m pytest -n auto --dist loadfile
DURATIONS = Path(__file__).with_name("durations.json")
SLOW_UNRECORDED_S = 20.0  # a file not in the record with a slow test: what "slow" says
_recorded: Dict[str, float] = {}


def recorded_seconds() -> Dict[str, float]:
    """The record: {path from the repository's root: seconds}."""
    if not DURATIONS.exists():
        return {}
    return {str(k): float(v) for k, v in json.loads(DURATIONS.read_text()).items()}


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: List[pytest.Item]
) -> None:
    """The files longest first by the record (a file not in it: SLOW_UNRECORDED_S if it
    has a slow test, else 0, so last), each file's tests in their own order (issue 27,
    CI item)."""
    seconds = recorded_seconds()
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}

    def weight(item: pytest.Item) -> float:
        default = SLOW_UNRECORDED_S if item.path in slow_files else 0.0
        return seconds.get(item.nodeid.split("::")[0], default)  # the path from the root

    items.sort(key=lambda item: -weight(item))  # stable: a file's tests stay together


def pytest_configure(config: pytest.Config) -> None:
    """Keep that order: pytest-xdist's ``--dist loadfile`` reorders the files, those with
    the most tests first, unless told not to (its ``--no-loadscope-reorder``; the option
    exists only with pytest-xdist). Without this, the record's order was collected and
    then dropped: the longest files (browsers, a cluster) started as late as minute 4 of
    a 5-minute suite."""
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if os.environ.get("TICTACBLITZ_RECORD_DURATIONS"):
        path = report.nodeid.split("::")[0]
        _recorded[path] = _recorded.get(path, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Write the record (TICTACBLITZ_RECORD_DURATIONS: its path) once, from the process
    that saw every report (pytest-xdist's controller, or the only process)."""
    target = os.environ.get("TICTACBLITZ_RECORD_DURATIONS")
    if target and not hasattr(session.config, "workerinput") and _recorded:
        record = {k: round(v, 1) for k, v in sorted(_recorded.items())}
        Path(target).write_text(json.dumps(record, indent=1) + "\n")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: a worker a core and EXTRA_WORKERS more (PYTEST_XDIST_AUTO_NUM_WORKERS,
    when set, still decides, as pytest-xdist documents)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "").isdigit():
        return int(os.environ["PYTEST_XDIST_AUTO_NUM_WORKERS"])
    return len(os.sched_getaffinity(0)) + EXTRA_WORKERS


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium through Playwright, one per module (browser_support.require_browser
    skips a module without them). Not one per test process: Playwright's synchronous API
    runs an event loop in the thread while it is open, and the next modules' own
    ``asyncio.run`` then fails ("cannot be called from a running event loop")."""
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
