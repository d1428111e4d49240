"""Every code block of docs/simulate.md and docs/balancing.md runs, at a small size
(issue 14): shell blocks line by line through the ``tictacblitz`` command's entry point
(``cli.main``, in this process: the 19 commands re-imported the package, numpy, pandas
and matplotlib, a subprocess each; tests/test_cli_edges.py runs ``python -m
tictacblitz`` itself), Python blocks in order in one namespace per page. Match counts are
cut down, output paths go to a temporary folder, and each block says which extra it
needs (an extra pyproject has).

A block fenced as ``text`` is a synopsis or a deployment recipe, not code to run; one
that starts with ``# output`` right after a shell block shows lines of that block's last
command's output, and the command's output at the small size must hold a line of the
same *shape* for each (the same words, every number free: issue 24 item 3), so a doc
cannot show a row the command no longer prints.
"""

import os
import re
import shlex
from pathlib import Path

import pytest
import tomllib

from cli_support import in_process

ROOT = Path(__file__).resolve().parents[1]
DOCS = ("docs/simulate.md", "docs/balancing.md")
SMALL = 4
SMALL_BY_PAGE = {"docs/balancing.md": 40}
"""Matches at test size for a command whose output a block shows: the case study's
output blocks show intervals and per-round means, which need a few rounds of every kind
(a handful of matches leaves some empty). Every other command runs at ``SMALL``: only
that it runs is checked (issue 27, CI item: 40 matches of Rift's ``expert`` alone took
6 CPU s)."""
ENV = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
NEEDS = re.compile(r"^# needs: pip install (?:\.|'\.\[(?P<extras>[\w,]+)\]')\s*$")


def blocks(page):
    text = (ROOT / page).read_text(encoding="utf-8")
    return re.findall(r"```(\w*)\n(.*?)```", text, re.S)


def extras():
    return set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    )


def small(code, size=SMALL):
    """The block at test size: a few matches, every bot."""
    code = re.sub(r"--matches \d[\d_]*", f"--matches {size}", code)
    code = re.sub(r"--confirm-matches \d[\d_]*", f"--confirm-matches {2 * size}", code)
    code = re.sub(r"(simulate\()\d[\d_]*", rf"\g<1>{size}", code)
    code = re.sub(r"(matches=)\d[\d_]*", rf"\g<1>{size}", code)
    code = re.sub(r"^(MATCHES = )\d[\d_]*", rf"\g<1>{size}", code, flags=re.M)
    code = re.sub(r'("\w+": )\d+(?=[,}])', rf"\g<1>{size}", code) if "matches = {" in code else code
    return code


NUMBER = re.compile(r"[+\-\u2212]?\d[\d,]*(?:\.\d+)?")


def shape(line):
    """A printed line with every number as N and the marks that depend on the sample
    (``*`` significant, ``(unpaired)``) left out, spaces collapsed."""
    line = NUMBER.sub("N", line.replace("(unpaired)", "").replace("*", ""))
    return " ".join(line.split())


def shown_outputs(page):
    """``{index of a shell block: the shape of each line its output block shows}``."""
    found = blocks(page)
    out = {}
    for i, (lang, code) in enumerate(found):
        if lang == "text" and code.startswith("# output") and i and found[i - 1][0] == "sh":
            lines = [ln for ln in code.splitlines()[1:] if ln.strip() and ln.strip() != "..."]
            out[i - 1] = [shape(ln) for ln in lines]
    return out


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
def test_shell_blocks_run(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ran = 0
    outputs = shown_outputs(page)
    for index, (lang, code) in enumerate(blocks(page)):
        if lang != "sh":
            continue
        needed(code)
        lines = [ln.split("  #")[0].strip() for ln in code.splitlines()]
        lines = [ln for ln in lines if ln.startswith("tictacblitz ")]
        stdout = ""
        for k, line in enumerate(lines):
            # the last command's output is the one an output block shows
            shown = index in outputs and k == len(lines) - 1
            argv = shlex.split(small(line, SMALL_BY_PAGE.get(page, SMALL) if shown else SMALL))[1:]
            for flag in ("--out",):
                if flag in argv:
                    i = argv.index(flag) + 1
                    argv[i] = str(tmp_path / f"{ran}-{os.path.basename(argv[i].rstrip('/'))}")
            proc = in_process(*argv)
            assert proc.returncode == 0, f"{line}\n{proc.stderr}"
            assert proc.stdout.strip() and "Traceback" not in proc.stderr
            stdout = proc.stdout
            ran += 1
        printed = {shape(ln) for ln in stdout.splitlines()}
        for want in outputs.get(index, ()):
            assert want in printed, (
                f"{page}: the output block shows a line the command does not print "
                f"(shape {want!r}) after:\n{code}"
            )
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
        exec(compile(small(code, SMALL_BY_PAGE.get(page, SMALL)), page, "exec"), namespace)
        ran += 1
    assert ran >= 1
    if page.endswith("balancing.md"):
        assert (tmp_path / "docs" / "img" / "balancing_levers.png").stat().st_size > 10_000
        assert set(namespace["levels"]) == {"casual", "club", "expert"}
        # every point of the levers figure measured every target metric with an interval
        for targets in namespace["points"].values():
            assert targets["line_share_ci"] and targets["match_s_ci"]


def test_the_case_study_s_figures_are_in_the_docs():
    text = (ROOT / "docs" / "balancing.md").read_text(encoding="utf-8")
    for image in re.findall(r"\]\((img/[\w.]+\.png)\)", text):
        assert (ROOT / "docs" / image).is_file(), image
    assert "set_ms" in text and "reveal_cost" in text and "95 %" in text
    # every measured figure says how it was measured (issue 24 item 3: matches, seed, load)
    for note in re.findall(r"^\*Measured:(.*?)\*", text, re.M | re.S):
        note = " ".join(note.split())
        assert re.search(r"[\d,]+ matches", note) and "seed" in note and "load" in note, note
    assert len(re.findall(r"^\*Measured:", text, re.M)) >= 4


def test_output_blocks_follow_a_command():
    """An output block sits right after the shell block it shows (else nothing checks it)."""
    found = blocks("docs/balancing.md")
    shown = [
        i for i, (lang, code) in enumerate(found) if lang == "text" and code.startswith("# output")
    ]
    assert shown, "docs/balancing.md shows no command output"
    for i in shown:
        assert i and found[i - 1][0] == "sh", found[i][1][:80]
