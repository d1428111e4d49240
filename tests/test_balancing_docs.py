"""Every code block of docs/simulate.md and docs/balancing.md runs, at a small size
(issue 14): shell blocks line by line through ``python -m tictacblitz``, Python blocks in
order in one namespace per page. Match counts are cut down, output paths go to a
temporary folder, and each block says which extra it needs (an extra pyproject has).

A block fenced as ``text`` is a synopsis or a deployment recipe, not code to run.
"""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

ROOT = Path(__file__).resolve().parents[1]
DOCS = ("docs/simulate.md", "docs/balancing.md")
SMALL = 4
ENV = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
NEEDS = re.compile(r"^# needs: pip install (?:\.|'\.\[(?P<extras>[\w,]+)\]')\s*$")


def blocks(page):
    text = (ROOT / page).read_text(encoding="utf-8")
    return re.findall(r"```(\w*)\n(.*?)```", text, re.S)


def extras():
    return set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    )


def small(code):
    """The block at test size: a few matches, every bot."""
    code = re.sub(r"--matches \d[\d_]*", f"--matches {SMALL}", code)
    code = re.sub(r"(simulate\()\d[\d_]*", rf"\g<1>{SMALL}", code)
    code = re.sub(r"(matches=)\d[\d_]*", rf"\g<1>{SMALL}", code)
    code = (
        re.sub(r'("\w+": )\d+(?=[,}])', rf"\g<1>{SMALL}", code) if "matches = {" in code else code
    )
    return code


@pytest.mark.parametrize("page", DOCS)
def test_every_block_says_what_it_needs(page):
    found = [(lang, code) for lang, code in blocks(page) if lang in ("sh", "python")]
    assert found, page
    for lang, code in found:
        match = NEEDS.match(code.splitlines()[0])
        assert match, f"{page}: a {lang} block without '# needs: pip install ...': {code[:80]!r}"
        for extra in (match.group("extras") or "").split(","):
            assert not extra or extra in extras(), f"{page}: no extra {extra!r} in pyproject"
    for lang, _ in blocks(page):
        assert lang in ("sh", "python", "text"), f"{page}: a ```{lang} block"


def needed(code):
    extra = NEEDS.match(code.splitlines()[0]).group("extras") or ""
    if "cluster" in extra.split(","):
        pytest.importorskip("distributed")


@pytest.mark.slow
@pytest.mark.parametrize("page", DOCS)
def test_shell_blocks_run(page, tmp_path):
    ran = 0
    for lang, code in blocks(page):
        if lang != "sh":
            continue
        needed(code)
        for line in code.splitlines():
            line = line.split("  #")[0].strip()
            if not line.startswith("tictacblitz "):
                continue
            argv = shlex.split(small(line))[1:]
            for flag in ("--out",):
                if flag in argv:
                    i = argv.index(flag) + 1
                    argv[i] = str(tmp_path / f"{ran}-{os.path.basename(argv[i].rstrip('/'))}")
            proc = subprocess.run(
                [sys.executable, "-m", "tictacblitz", *argv],
                cwd=tmp_path,
                env=ENV,
                capture_output=True,
                text=True,
                timeout=600,
            )
            assert proc.returncode == 0, f"{line}\n{proc.stderr}"
            assert proc.stdout.strip() and "Traceback" not in proc.stderr
            ran += 1
    assert ran >= 1


@pytest.mark.parametrize("page", DOCS)
def test_python_blocks_run(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYTHONPATH", ENV["PYTHONPATH"])  # Dask's worker processes
    (tmp_path / "docs" / "img").mkdir(parents=True)
    namespace: dict = {}
    ran = 0
    for lang, code in blocks(page):
        if lang != "python":
            continue
        needed(code)
        exec(compile(small(code), page, "exec"), namespace)
        ran += 1
    assert ran >= 1
    if page.endswith("balancing.md"):
        assert (tmp_path / "docs" / "img" / "balancing_by_bot.png").stat().st_size > 10_000
        assert set(namespace["answers"]) == {"easy", "medium", "hard", "search", "greedy"}


def test_the_case_study_s_figures_are_in_the_docs():
    text = (ROOT / "docs" / "balancing.md").read_text(encoding="utf-8")
    for image in re.findall(r"\]\((img/[\w.]+\.png)\)", text):
        assert (ROOT / "docs" / image).is_file(), image
    assert "set_ms" in text and "recharge_knockout_ms" in text and "95 %" in text
