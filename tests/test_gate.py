"""The instruction-count performance gate (benches/gate.py): its verdict, and that it bites."""

from __future__ import annotations

import json
import shutil
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

BENCHES = Path(__file__).resolve().parent.parent / "benches"
sys.path.insert(0, str(BENCHES))
import gate  # noqa: E402

BASE = {"kernels": 1_000_000, "playout_native": 5_000_000}


# -- the comparison (pure) -----------------------------------------------------------------


def test_identical_counts_pass():
    assert gate.compare(BASE, dict(BASE)) == []


def test_growth_within_tolerance_passes():
    assert gate.compare(BASE, {"kernels": 1_029_999, "playout_native": 5_150_000}) == []


def test_growth_beyond_tolerance_fails_naming_the_workload():
    failures = gate.compare(BASE, {"kernels": 1_030_001, "playout_native": 5_000_000})
    assert len(failures) == 1
    assert failures[0].startswith("kernels:") and "+3.00%" in failures[0]


def test_every_grown_workload_is_reported():
    failures = gate.compare(BASE, {"kernels": 2_000_000, "playout_native": 6_000_000})
    assert [f.split(":")[0] for f in failures] == ["kernels", "playout_native"]


def test_getting_faster_passes():
    assert gate.compare(BASE, {"kernels": 500_000, "playout_native": 1}) == []


def test_a_workload_missing_from_the_measurement_fails():
    failures = gate.compare(BASE, {"kernels": 1_000_000})
    assert failures == ["playout_native: in the baseline but not measured"]


def test_a_new_workload_does_not_fail():
    assert gate.compare(BASE, {**BASE, "brand_new": 123}) == []


def test_the_tolerance_is_a_parameter():
    assert gate.compare(BASE, {**BASE, "kernels": 1_020_000}, tolerance=0.01)
    assert gate.compare(BASE, {**BASE, "kernels": 1_020_000}) == []


def test_table_shows_each_workload_and_its_change():
    text = gate.table(BASE, {"kernels": 1_100_000, "playout_native": 4_000_000, "new": 5})
    lines = text.splitlines()
    assert lines[0].split() == ["workload", "baseline", "Ir", "now", "Ir", "change"]
    row = {line.split()[0]: line for line in lines[1:]}
    assert "+10.00%" in row["kernels"] and row["kernels"].rstrip().endswith("FAIL")
    assert "-20.00%" in row["playout_native"] and "faster" in row["playout_native"]
    assert row["new"].rstrip().endswith("new")


def test_slow_variant_adds_about_ten_percent():
    assert gate.slow_reps(40) == 44
    assert gate.slow_reps(20) == 22
    assert gate.slow_reps(10) == 11
    assert gate.slow_reps(3) == 4


def test_check_exits_1_on_a_regression_and_0_otherwise(tmp_path, monkeypatch, capsys):
    baseline = tmp_path / "baseline.json"
    gate.write_baseline(dict(BASE), baseline)
    assert json.loads(baseline.read_text())["workloads"] == BASE
    monkeypatch.setattr(gate, "valgrind_available", lambda: True)
    grown = {**BASE, "kernels": 1_100_000}
    monkeypatch.setattr(
        gate,
        "measure_all",
        lambda names, runs=1, jobs=0: ({n: grown[n] for n in names}, dict.fromkeys(names, 0.0)),
    )
    both = ["kernels", "playout_native"]
    assert gate.main(["check", "--baseline", str(baseline), *both]) == 1
    assert "performance gate FAILED" in capsys.readouterr().out
    assert gate.main(["check", "--baseline", str(baseline), "playout_native"]) == 0
    # update rewrites the baseline; afterwards the same counts pass
    assert gate.main(["update", "--baseline", str(baseline), *both]) == 0
    assert json.loads(baseline.read_text())["workloads"] == grown
    assert gate.main(["check", "--baseline", str(baseline), *both]) == 0


def test_every_workload_is_listed(capsys):
    assert gate.main(["list"]) == 0
    out = capsys.readouterr().out
    for name in gate.WORKLOADS:
        assert name in out


def _string_bytes(env, argv):
    """What the run's stack starts with: argv and environment strings, NUL-ended, and the
    executable's name once more."""
    total = sum(len(a.encode()) + 1 for a in argv) + len(argv[0].encode()) + 1
    return total + sum(len(k.encode()) + len(v.encode()) + 2 for k, v in env.items())


def test_the_runs_environment_is_its_own_not_the_callers(monkeypatch):
    monkeypatch.setenv("SOME_CALLERS_VARIABLE", "x" * 500)
    monkeypatch.delenv("PYTHONPATH", raising=False)
    env = gate._environment()
    assert "SOME_CALLERS_VARIABLE" not in env and "PYTHONPATH" not in env
    assert env["PYTHONHASHSEED"] == "0" and "GLIBC_TUNABLES" in env
    monkeypatch.setenv("PYTHONPATH", "/some/dev/tree")  # the development tree still works
    assert gate._environment()["PYTHONPATH"] == "/some/dev/tree"


def test_the_strings_are_padded_to_the_same_size_wherever_the_gate_is_installed():
    env = gate._environment()
    short = ["/v/bin/python", "/r/benches/gate.py", "run", "kernels"]
    long = ["/a/much/longer/folder/.venv/bin/python", "/a/much/longer/folder/gate.py", "run"]
    for argv in (short, long):
        padded = gate._padded(env, argv)
        assert _string_bytes(padded, argv) == gate.STACK_STRINGS
        assert set(padded) - set(env) == {"GATE_PAD"}
    with pytest.raises(RuntimeError, match="bytes of strings"):
        gate._padded(env, ["/" + "x" * gate.STACK_STRINGS, "run"])


# -- the real thing: callgrind sees a deliberately slowed workload -------------------------


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_the_gate_fails_a_workload_slowed_by_ten_percent():
    # 40 reps against 44, not 10 against 11: the reps after the first cost a little more
    # than the mean (garbage collection is off, so memory grows), and that excess weighs
    # less over more reps: +11.05 % measured at 40/44 (67.0 M instructions, then 74.4 M),
    # where a fresh clone once measured +12.26 % at 10/11 (issue 27). The reps are cheap
    # beside the process's setup, which the empty run takes away.
    # --only: the three runs set up the kernels alone, not every workload (48 CPU s for
    # the test before, 39 after, at load 9-13); the measured region is the same, and
    # measured so: 67.0 M instructions, then 73.8 M, +10.10 % (the empty run: 702 M).
    alone = ["--only", "kernels"]
    runs = [
        ["--empty", *alone],
        ["kernels", *alone, "--reps", "40"],
        ["kernels", *alone, "--reps", "40", "--slow"],
    ]
    with ThreadPoolExecutor(max_workers=2) as pool:
        empty, normal, slow = pool.map(gate.count_instructions, runs)
    normal -= empty
    slow -= empty
    assert normal > 1_000_000  # the measured region is there
    growth = slow / normal - 1
    # 44 reps instead of 40: +10 % of the same work (each rep runs the same kernels on the
    # same boards), give or take the excess above. What matters is that the growth is far
    # above the gate's 3 % bound and about the size made: the bounds are wide on purpose.
    assert 0.06 < growth < 0.20, growth
    assert gate.compare({"kernels": normal}, {"kernels": slow}) != []
    assert gate.compare({"kernels": normal}, {"kernels": normal}) == []
