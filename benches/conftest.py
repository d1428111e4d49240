"""pytest configuration of the benchmark suite (benches/).

Run from the repository root (see docs/performance.md):

    python -m pytest benches/ --benchmark-only          # installed package
    PYTHONPATH=python python -m pytest benches/ --benchmark-only   # dev build

* ``bench_*.py`` files are collected here (the project's pytest config only looks at
  tests/), so ``benches/`` can be passed as a directory;
* the development tree (``python/`` with its ``blitz_core`` link) is used when no
  installed package is importable;
* every benchmark records user-level figures (ns/board, matches/s, ...) in
  ``benchmark.extra_info`` and in a session table printed at the end of the run
  (``--bench-figures=FILE`` also writes it as JSON).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

try:
    import blitz_core.blitz.engine  # noqa: F401
except ImportError:
    sys.path.insert(0, str(ROOT / "python"))
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))


def pytest_addoption(parser):
    parser.addoption(
        "--bench-figures",
        default=None,
        metavar="FILE",
        help="also write the benchmark figures table as JSON to FILE",
    )


def pytest_collect_file(file_path, parent):
    # Files named on the command line are collected by pytest itself already.
    if (
        file_path.suffix == ".py"
        and file_path.name.startswith("bench_")
        and not parent.session.isinitpath(file_path)
    ):
        return pytest.Module.from_parent(parent, path=file_path)
    return None


# -- the figures table ---------------------------------------------------------------------

_FIGURES: list = []


class Figures:
    """What one benchmark reports: each figure goes to extra_info and to the table."""

    def __init__(self, benchmark, name: str):
        self.benchmark = benchmark
        self.name = name

    def add(self, key: str, value, *, unit: str = "", target: str = "", met=None):
        if isinstance(value, float):
            value = float(f"{value:.4g}")
        self.benchmark.extra_info[key] = value
        if target:
            self.benchmark.extra_info[key + "_target"] = target
            self.benchmark.extra_info[key + "_met"] = met
        _FIGURES.append(
            {
                "benchmark": self.name,
                "figure": key,
                "value": value,
                "unit": unit,
                "target": target,
                "met": met,
            }
        )


@pytest.fixture
def figures(benchmark, request):
    return Figures(benchmark, request.node.name)


def median_s(benchmark):
    """The benchmark's median seconds per call (None when benchmarks are disabled)."""
    stats = getattr(benchmark, "stats", None)
    if stats is None:
        return None
    return stats.stats.median


def vector_env_steps(benchmark, figures, env, steps=50):
    """A native vector env (``copy=False``) stepped ``steps`` times per round, the agent
    playing random legal moves sampled natively: ``env_steps_per_s`` (Python's
    ``step()`` included; each round is 2 * steps steps of N envs, half through
    ``env.step``) and ``native_steps_per_s`` (the batch's step alone)."""
    import time

    import numpy as np

    n = env.num_envs
    counter = iter(range(10**9))
    native = []

    def run():
        for _ in range(steps):
            actions = env.batch.sample_actions(next(counter))
            t0 = time.perf_counter()
            env.batch.step(actions, np.zeros(n, dtype=np.uint64) + np.uint64(next(counter)))
            native.append(time.perf_counter() - t0)
            env.step(env.batch.sample_actions(next(counter)))

    benchmark.pedantic(run, rounds=5, warmup_rounds=1)
    med = median_s(benchmark)
    if med is not None:
        figures.add("env_steps_per_s", 2 * steps * n / med, unit="steps/s")
        figures.add("native_steps_per_s", n / float(np.median(native)), unit="steps/s")


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not _FIGURES:
        return
    tr = terminalreporter
    tr.section("tictacblitz benchmark figures (medians)")
    rows = [("benchmark", "figure", "value", "target", "met")]
    for f in _FIGURES:
        met = "" if f["met"] is None else ("yes" if f["met"] else "NO")
        rows.append(
            (f["benchmark"], f["figure"], f"{f['value']} {f['unit']}".strip(), f["target"], met)
        )
    widths = [max(len(str(r[i])) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        tr.write_line("  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    path = config.getoption("--bench-figures")
    if path:
        Path(path).write_text(json.dumps(_FIGURES, indent=1) + "\n")
        tr.write_line(f"figures written to {path}")


# -- the speed-of-light C kernels ----------------------------------------------------------

SOL_FLAGS = ["-O3", "-ffp-contract=off", "-shared", "-fPIC"]  # the package's flags (CMakeLists.txt)


@pytest.fixture(scope="session")
def speed_of_light(tmp_path_factory):
    """benches/speed_of_light.c compiled with the package's flags and loaded by ctypes."""
    import ctypes

    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        pytest.skip("no C compiler: the speed-of-light reference kernels are skipped")
    out = tmp_path_factory.mktemp("sol") / "speed_of_light.so"
    cmd = [cc, *SOL_FLAGS, "-o", str(out), str(HERE / "speed_of_light.c")]
    try:
        subprocess.run(cmd, check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"cannot compile speed_of_light.c ({' '.join(cmd)}): {exc}")
    lib = ctypes.CDLL(str(out))
    p = ctypes.c_void_p
    for name in ("sol_has_line_windows", "sol_has_line_shift", "sol_lowest_line_shift"):
        getattr(lib, name).argtypes = [p, p, ctypes.c_size_t]
        getattr(lib, name).restype = None
    for name in ("sol_timeout_score_windows", "sol_timeout_score_shift"):
        getattr(lib, name).argtypes = [p, p, p, ctypes.c_size_t]
        getattr(lib, name).restype = None
    lib.command = " ".join(cmd)
    return lib
