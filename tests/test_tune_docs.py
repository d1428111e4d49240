"""Every code block of docs/tune.md runs, at a small size (as tests/test_balancing_docs.py
does for the balancing pages): shell blocks through the ``tictacblitz`` command's entry
point, ``cli.main``, in this process (a subprocess each re-imported the package, numpy,
optuna and matplotlib; tests/test_cli_edges.py runs ``python -m tictacblitz`` itself),
with a budget of a few matches, Python blocks with ``trials``/``matches`` cut down, each
in a temporary folder (the default study file lands there)."""

import re
import shlex
from pathlib import Path

import pytest

from tictacblitz.cli import main

pytest.importorskip("optuna")

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "tune.md"
BUDGET = ["--trials", "2", "--matches", "4", "--confirm", "1", "--confirm-matches", "4"]


def blocks():
    return re.findall(r"```(\w*)\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)


def test_every_runnable_block_says_what_it_needs():
    found = [(lang, code) for lang, code in blocks() if lang in ("sh", "python")]
    assert len(found) == 3
    assert all(code.startswith("# needs: pip install .\n") for _, code in found)
    assert all(lang in ("sh", "python", "text") for lang, _ in blocks())


def _small(args):
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("--trials", "--matches", "--confirm", "--confirm-matches"):
            skip = True
            continue
        out.append(a)
    return out + BUDGET


@pytest.mark.parametrize("k", [0, 1])
def test_the_shell_examples_run(tmp_path, monkeypatch, capsys, k):
    code = [c for lang, c in blocks() if lang == "sh"][k]
    line = " ".join(part.strip() for part in code.replace("\\\n", " ").splitlines()[1:])
    args = shlex.split(line)
    assert args[:2] == ["tictacblitz", "tune"]
    monkeypatch.chdir(tmp_path)
    assert main([*_small(args[1:]), "--no-progress"]) == 0, capsys.readouterr().err
    printed = capsys.readouterr().out
    assert "best: " in printed and "the base rules" in printed
    if "--objective" in args:
        assert list(tmp_path.glob("*-pareto.png"))


def test_the_python_example_runs(tmp_path, monkeypatch):
    code = next(c for lang, c in blocks() if lang == "python")
    code = re.sub(r"trials=\d+", "trials=2", code)
    code = re.sub(r"matches=\d+", "matches=4", code)
    monkeypatch.chdir(tmp_path)
    namespace = {}
    exec(compile(code, str(PAGE), "exec"), namespace)
    assert namespace["best"].verdicts and (tmp_path / "tune.db").exists()
