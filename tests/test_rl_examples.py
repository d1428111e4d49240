"""The RL examples run (examples/): the NumPy baseline at a tiny size, MaskablePPO
when sb3-contrib is installed."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")

ROOT = Path(__file__).resolve().parents[1]


def _load(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_the_numpy_baseline_runs_and_writes_its_curve(tmp_path):
    example = _load("linear_reinforce")
    out = tmp_path / "curve.png"
    data = tmp_path / "curve.json"
    assert (
        example.main(
            [
                "--iters",
                "2",
                "2",
                "--envs",
                "16",
                "--horizon",
                "40",
                "--eval",
                "16",
                "--out",
                str(out),
                "--json",
                str(data),
            ]
        )
        == 0
    )
    curve = json.loads(data.read_text())["curve"]
    assert [c["opponent"] for c in curve] == ["random", "random", "easy", "easy"]
    assert all(0.0 <= c["lo"] <= c["hi"] <= 1.0 for c in curve)
    written = out if out.exists() else out.with_suffix(".csv")
    assert written.exists() and written.stat().st_size > 0
    p, lo, hi = example.wilson(30, 100)
    assert p == 0.3 and abs(lo - 0.2189) < 1e-3 and abs(hi - 0.3958) < 1e-3


@pytest.mark.slow
def test_the_maskable_ppo_example():
    pytest.importorskip("sb3_contrib")
    example = _load("maskable_ppo")
    assert example.main(["--timesteps", "1024", "--eval", "2"]) == 0
