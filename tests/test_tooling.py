"""The maintenance checks stay wired: .ci/run runs every check and fails on any, the
pre-commit hooks run the same, every guide is a page of the documentation site, every
native module ships a stub, and the public API modules are the strict ones.

The checks themselves (ruff, mypy, cython-lint, stubtest, mkdocs) run in
scripts/check.sh; this file only keeps them from being unplugged quietly.
"""

from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEST_COMMAND = "python -m pytest -n auto --dist loadfile"
CHECKS = ("ruff", "format", "mypy", "cython-lint", "stubs", "js", "docs")


def test_ci_runs_every_check_and_fails_on_any():
    """After the install, the checks start beside the tests (at a low priority: .ci/run),
    and their exit status is CI's when they fail."""
    lines = [
        line.strip()
        for line in (ROOT / ".ci" / "run").read_text().splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    install = lines.index('pip install ".[test]"')
    (check,) = [i for i, line in enumerate(lines) if "scripts/check.sh " in line]
    (tests,) = [i for i, line in enumerate(lines) if line.startswith(TEST_COMMAND)]
    assert install < check < tests and "nice -n 19 " in lines[check]
    assert lines[check + 1] == "checks=$!" and 'wait "$checks" || checks_status=$?' in lines
    assert any(line.startswith('[ "$checks_status" -eq 0 ] ||') for line in lines)
    script = (ROOT / "scripts" / "check.sh").read_text()
    default = re.search(r"checks=\(([^)]*)\)\n", script.split("[ ${#checks[@]} -gt 0 ]")[1])
    assert default is not None and tuple(default.group(1).split()) == CHECKS
    for check in CHECKS:
        assert re.search(rf"^    {re.escape(check)}\)", script, re.M), check


def test_pre_commit_runs_the_same_checks():
    yaml = pytest.importorskip("yaml")
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    (repo,) = config["repos"]
    assert repo["repo"] == "local"  # nothing is downloaded
    entries = " | ".join(hook["entry"] for hook in repo["hooks"])
    for tool in (
        "ruff check",
        "ruff format --check",
        "mypy",
        "cython-lint",
        "check_stubs.sh",
        "check.sh js",
        "check.sh docs",
    ):
        assert tool in entries, tool


def test_ci_and_the_readme_run_the_suite_the_same_way():
    """One command, on every core (pytest-xdist, whole files to a worker): .ci/run runs
    the README's."""
    readme = (ROOT / "README.md").read_text()
    assert f'pip install ".[test]" && {TEST_COMMAND}\n' in readme


def test_every_guide_is_a_page_of_the_site():
    yaml = pytest.importorskip("yaml")
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)

    def pages(node):
        if isinstance(node, str):
            yield node
        elif isinstance(node, list):
            for item in node:
                yield from pages(item)
        elif isinstance(node, dict):
            for value in node.values():
                yield from pages(value)

    nav = set(pages(config["nav"]))
    docs = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    assert docs == nav, f"not in the nav: {sorted(docs - nav)}; no such page: {sorted(nav - docs)}"


def test_every_native_module_ships_a_stub():
    sources = sorted((ROOT / "src" / "blitz_core").glob("*/*.pyx"))
    assert sources
    missing = [
        s.relative_to(ROOT).as_posix() for s in sources if not s.with_suffix(".pyi").exists()
    ]
    assert not missing, f"native modules without a .pyi stub: {missing}"


def test_the_public_api_is_type_checked_strictly():
    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    (strict,) = [o for o in config["overrides"] if o.get("disallow_untyped_defs")]
    for module in strict["module"]:
        parts = module.split(".")
        path = ROOT / "python" / Path(*parts)
        assert path.with_suffix(".py").exists() or (path / "__init__.py").exists(), module
    assert {
        "tictacblitz",
        "tictacblitz.games.protocol",
        "tictacblitz.games.registry",
        "tictacblitz.games.blitz.game",
    } <= set(strict["module"])


# -- the CI's time (issue 27, CI item) -------------------------------------------------------


def test_ci_runs_the_gate_beside_the_tests_at_low_priority_and_its_status_is_cis():
    """The gate counts instructions (neither load nor priority changes them), so .ci/run
    starts it, at the lowest priority, before the tests and waits for it after them; a
    failing gate must still fail CI."""
    script = (ROOT / ".ci" / "run").read_text()
    lines = [line.strip() for line in script.splitlines()]
    start = next(i for i, line in enumerate(lines) if "benches/gate.py check" in line)
    assert lines[start].endswith("&") and "nice -n 19 " in lines[start]
    (tests,) = [i for i, line in enumerate(lines) if line.startswith(TEST_COMMAND)]
    assert start < tests
    # benches/ compiled before the gate starts: the tests' collection must not change its
    # import path under it (an empty run compiling, a full run reading the .pyc).
    assert lines.index("python -m compileall -q benches") < start
    waited = lines.index('wait "$gate" || gate_status=$?')
    assert tests < waited and lines[-1] == 'exit "$gate_status"'
    # Its own process group by job control, in CI's session: a new session (setsid) is a
    # scheduling group of its own, where nice 19 ranks the gate only against itself.
    assert lines.index("set -m") < start < lines.index("set +m") < tests
    assert not [line for line in lines if line.startswith("setsid")]


def test_ci_installs_the_system_packages_beside_pip_and_waits_for_them_before_the_tests():
    """apt runs in the background while pip installs (.ci/run); the tests, the gate
    (valgrind) and the checks (node) start only after it ended, and its failure is CI's."""
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    (apt,) = [i for i, line in enumerate(lines) if line.startswith("(apt-get update &&")]
    assert lines[apt].endswith("&") and lines[apt + 1] == "apt=$!"
    install = lines.index('pip install ".[test]"')
    waited = lines.index('wait "$apt" || apt_status=$?')
    failed = next(
        i for i, line in enumerate(lines) if line.startswith('[ "$apt_status" -eq 0 ] ||')
    )
    gate = next(i for i, line in enumerate(lines) if "benches/gate.py check" in line)
    (tests,) = [i for i, line in enumerate(lines) if line.startswith(TEST_COMMAND)]
    assert apt < install < waited < failed < gate < tests


def load_conftest():
    # tests/conftest.py by its path: `import conftest` may give another folder's conftest
    # (tests/fourth_game/ has one), whichever a worker imported first.
    spec = importlib.util.spec_from_file_location("tests_conftest", ROOT / "tests" / "conftest.py")
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    return conftest


def test_auto_starts_a_worker_a_core_and_one_more_unless_told(monkeypatch):
    conftest = load_conftest()
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    cores = len(os.sched_getaffinity(0))
    assert conftest.pytest_xdist_auto_num_workers(None) == cores + 1
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "3")
    assert conftest.pytest_xdist_auto_num_workers(None) == 3


class FakeItem:
    def __init__(self, name: str, slow: bool = False) -> None:
        self.path = ROOT / "tests" / name
        self.nodeid = f"tests/{name}::test_it"
        self.slow = slow

    def get_closest_marker(self, name: str):
        return name == "slow" and self.slow or None


def test_files_are_handed_out_longest_first_by_the_record(monkeypatch):
    conftest = load_conftest()
    record = {"tests/test_b.py": 5.0, "tests/test_c.py": 50.0}
    monkeypatch.setattr(conftest, "recorded_seconds", lambda: record)
    items = [
        FakeItem("test_a.py"),
        FakeItem("test_b.py"),
        FakeItem("test_b.py"),
        FakeItem("test_c.py"),
        FakeItem("test_d.py", slow=True),  # not in the record: a slow file's 20 s
    ]
    b1, b2 = items[1], items[2]
    conftest.pytest_collection_modifyitems(None, None, items)
    assert [item.path.name for item in items] == [
        "test_c.py",
        "test_d.py",
        "test_b.py",
        "test_b.py",
        "test_a.py",
    ]
    assert items[2:4] == [b1, b2]  # a file's tests in their own order


def test_pytest_xdist_is_told_to_keep_that_order():
    """pytest-xdist's loadfile hands out files by their number of tests unless
    ``loadscopereorder`` is off: the conftest turns it off (where the option exists)."""
    conftest = load_conftest()
    config = SimpleNamespace(option=SimpleNamespace(loadscopereorder=True))
    conftest.pytest_configure(config)
    assert config.option.loadscopereorder is False
    without_xdist = SimpleNamespace(option=SimpleNamespace())
    conftest.pytest_configure(without_xdist)
    assert not hasattr(without_xdist.option, "loadscopereorder")


def test_the_duration_record_names_only_test_files_of_the_suite():
    conftest = load_conftest()
    record = conftest.recorded_seconds()
    assert len(record) > 100  # a whole run's
    missing = [path for path in record if not (ROOT / path).is_file()]
    assert missing == [], f"tests/durations.json names files that are gone: {missing}"
    assert all(seconds >= 0 for seconds in record.values())
