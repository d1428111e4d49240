"""The tests that need a tool from outside Python (node, redis-server, chromium) skip
without it on a developer's machine but fail under CI=true, where .ci/run installs them:
a CI run never passes by skipping them (issue 27, CI item)."""

from __future__ import annotations

import pytest

import browser_support
import cluster_support
import node_support


@pytest.fixture
def no_tools(monkeypatch, tmp_path):
    """A PATH with nothing on it, and no chromium found."""
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(browser_support, "CHROMIUM", None)


GUARDS = {
    "node": node_support.require_node,
    "redis-server": cluster_support.require_redis,
    "chromium": browser_support.require_browser,
}


def outcome(guard) -> BaseException:
    """What ``guard`` raised: caught whole, since a skip raised inside ``pytest.raises``
    would skip this test instead of failing it."""
    try:
        guard()
    except BaseException as exc:  # noqa: BLE001 (pytest's skip and fail are BaseExceptions)
        return exc
    raise AssertionError("the guard let the test run without its tool")


@pytest.mark.parametrize("tool", sorted(GUARDS))
def test_a_missing_tool_fails_under_ci(no_tools, monkeypatch, tool):
    monkeypatch.setenv("CI", "true")
    raised = outcome(GUARDS[tool])
    assert isinstance(raised, pytest.fail.Exception), repr(raised)
    assert f"CI=true and no {tool} on PATH" in str(raised)


@pytest.mark.parametrize("tool", sorted(GUARDS))
@pytest.mark.parametrize("ci", [None, "false"])
def test_a_missing_tool_skips_elsewhere(no_tools, monkeypatch, tool, ci):
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    assert isinstance(outcome(GUARDS[tool]), pytest.skip.Exception)


def test_ci_run_installs_each_tool():
    """.ci/run installs what the guards above ask for when it is missing."""
    script = (browser_support.ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for command, package in (
        ("node", "nodejs"),
        ("redis-server", "redis-server"),
        ("chromium", "chromium"),
    ):
        assert f'command -v {command} >/dev/null || need="$need {package}"' in script
    assert "apt-get install -y $need" in script
