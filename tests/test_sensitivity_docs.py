"""Every code block of docs/sensitivity.md runs, at a small size (as tests/test_tune_docs.py
does for docs/tune.md): shell blocks through the ``tictacblitz`` command's entry point,
``cli.main``, in this process (a subprocess each re-imported the package, numpy, SALib
and matplotlib; tests/test_cli_edges.py runs ``python -m tictacblitz`` itself), with 2
trajectories, 4 matches a rule set and a Sobol N of 2, the Python block with its sizes
cut down, each in a temporary folder (the default --out lands there)."""

import re
import shlex
from pathlib import Path

import pytest

from tictacblitz.cli import main

pytest.importorskip("SALib")

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "sensitivity.md"
SIZED = {"--trajectories": "2", "--matches": "4", "--sobol-samples": "2"}


def blocks():
    return re.findall(r"```(\w*)\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)


def commands():
    """Every ``tictacblitz sensitivity`` line of the shell blocks, continuations joined."""
    out = []
    for lang, code in blocks():
        if lang == "sh":
            joined = code.replace("\\\n", " ")
            out += [shlex.split(line) for line in joined.splitlines() if line.strip()[:1] != "#"]
    return out


def test_every_runnable_block_says_what_it_needs():
    found = [(lang, code) for lang, code in blocks() if lang in ("sh", "python")]
    assert len(found) == 4
    assert all(code.startswith("# needs: pip install .") for _, code in found)
    assert all(lang in ("sh", "python", "text") for lang, _ in blocks())
    assert len(commands()) == 4


def _small(args):
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in SIZED:
            skip = True
            continue
        out.append(a)
    return out + [a for pair in SIZED.items() for a in pair]


@pytest.mark.parametrize("k", range(4))
def test_the_shell_examples_run(tmp_path, monkeypatch, capsys, k):
    args = commands()[k]
    assert args[:2] == ["tictacblitz", "sensitivity"]
    monkeypatch.chdir(tmp_path)
    assert main([*_small(args[1:]), "--yes", "--no-progress"]) == 0, capsys.readouterr().err
    printed = capsys.readouterr().out
    assert "Morris mu*" in printed and "wrote sensitivity.json" in printed
    out = tmp_path / (args[args.index("--out") + 1] if "--out" in args else "sensitivity")
    assert (out / "sensitivity.json").is_file() and list(out.glob("tornado_*.png"))


def test_the_python_example_runs(tmp_path, monkeypatch):
    code = next(c for lang, c in blocks() if lang == "python")
    code = re.sub(r"trajectories=\d+", "trajectories=2", code)
    code = re.sub(r"matches=\d+", "matches=4", code)
    monkeypatch.chdir(tmp_path)
    namespace = {}
    exec(compile(code, str(PAGE), "exec"), namespace)
    result = namespace["result"]
    assert result.ranking("decisiveness") and (tmp_path / "sens" / "sensitivity.json").is_file()
