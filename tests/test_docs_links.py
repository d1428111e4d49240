"""The documentation stands alone: every link in README.md and docs/**/*.md points to a
file of this repository that exists (and, for a link to a heading, to a heading that
exists), no link leaves the repository, and no page mentions the ``../shared`` folder
that a clone does not have.

It also holds docs/blitz.md to the code: every rule id R1-R23 is a heading, and
the "Rule settings" table lists every field of ``Rules`` with its default.

Nothing is allowlisted: a link to a page that is not written yet fails until the page
exists.  Only the settings-table test needs the package to import (it is skipped
otherwise).
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
RULES_PAGE = ROOT / "docs" / "blitz.md"
RULES_PY = ROOT / "python" / "tictacblitz" / "games" / "blitz" / "rules.py"


def doc_id(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# -- reading Markdown ---------------------------------------------------------------------

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
COMMENT = re.compile(r"<!--.*?-->", re.S)

INLINE_LINK = re.compile(r"\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
REFERENCE_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)", re.M)
AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s]*)>")
BARE_URL = re.compile(r"(?<![\w/(<\"'])((?:https?|ftp)://[^\s<>()\"']+|www\.[^\s<>()\"']+)")
HTML_ATTR = re.compile(r"\b(?:href|src)\s*=\s*[\"']([^\"']*)[\"']", re.I)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def prose(text: str, *, spans: bool = False) -> str:
    """The text outside fenced code blocks, code spans and HTML comments (line count kept;
    ``spans=True`` keeps code spans, which a heading's anchor is made of).

    Links are only links outside code: ``http://127.0.0.1:8000`` in a code block is text.
    """
    lines, fence = [], None
    for line in text.split("\n"):
        match = FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)
            lines.append("")
        elif fence is not None:
            if line.strip().startswith(fence[0] * len(fence)) and set(line.strip()) <= {fence[0]}:
                fence = None
            lines.append("")
        else:
            lines.append(line)
    out = "\n".join(lines)
    out = COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), out)
    if spans:
        return out
    return CODE_SPAN.sub(lambda m: " " * len(m.group(0)), out)


def links(text: str):
    """``(line number, target)`` of every link and image in a Markdown text."""
    body = prose(text)
    found = []
    for pattern in (INLINE_LINK, REFERENCE_DEF, AUTOLINK, BARE_URL, HTML_ATTR):
        for match in pattern.finditer(body):
            target = match.group(1).strip()
            if target.startswith("<") and target.endswith(">"):
                target = target[1:-1]
            found.append((body.count("\n", 0, match.start()) + 1, target))
    return sorted(found)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text, lower case, without punctuation
    (``-`` and ``_`` stay), spaces turned into hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").strip().lower()
    kept = [
        ch for ch in text if ch.isalnum() or ch in "-_ " or unicodedata.category(ch).startswith("M")
    ]
    return "".join(kept).replace(" ", "-")


def headings(text: str):
    """The text of every ATX and setext heading, outside code."""
    lines = prose(text, spans=True).split("\n")
    out = []
    for i, line in enumerate(lines):
        atx = re.match(r"^ {0,3}#{1,6}(?:\s+(.*?))?\s*$", line)
        if atx:
            out.append(re.sub(r"\s+#+$", "", atx.group(1) or ""))
        elif (
            i + 1 < len(lines)
            and line.strip()
            and not line.lstrip().startswith(("-", "*", "|", ">"))
            and re.match(r"^ {0,3}(=+|-+)\s*$", lines[i + 1])
        ):
            out.append(line.strip())
    return out


def anchors(path: Path) -> set:
    text = path.read_text(encoding="utf-8")
    seen: dict = {}
    result = set()
    for heading in headings(text):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        result.add(base if count == 0 else f"{base}-{count}")
    result.update(re.findall(r"\b(?:id|name)\s*=\s*[\"']([^\"']+)[\"']", text))
    return result


def leaves_repository(target: str) -> bool:
    """An address of another site, or a path outside (or not relative to) the repository."""
    return bool(SCHEME.match(target)) or target.startswith(("//", "/", "www."))


def check_link(source: Path, target: str):
    """None if ``target``, linked from ``source``, resolves inside the repository; else
    why not."""
    if not target:
        return "an empty link"
    if leaves_repository(target):
        return f"{target!r} leaves the repository"
    path_part, _, fragment = target.partition("#")
    path_part = path_part.partition("?")[0]
    resolved = (source.parent / unquote(path_part)).resolve() if path_part else source
    try:
        resolved.relative_to(ROOT)
    except ValueError:
        return f"{target!r} leaves the repository (resolves to {resolved})"
    if not resolved.exists():
        return f"{target!r}: no such file {resolved.relative_to(ROOT).as_posix()}"
    if fragment and resolved.suffix == ".md" and unquote(fragment).lower() not in anchors(resolved):
        return f"{target!r}: {resolved.relative_to(ROOT).as_posix()} has no heading #{fragment}"
    return None


# -- the parser itself --------------------------------------------------------------------


def test_the_link_reader_on_a_sample():
    sample = (
        'See [the rules](docs/blitz.md#r5-refilling) and ![a](img/a.png "title").\n'
        "Code is not a link: `[x](nowhere.md)` or `http://127.0.0.1:8000`.\n"
        "```sh\n"
        "tictacblitz replay [y](../shared/z.md) http://example.org\n"
        "```\n"
        "Bare https://example.org/page and <https://example.org/auto> are links.\n"
        "[ref]: ../outside.md\n"
        '<a href="x.md">x</a>\n'
    )
    assert links(sample) == [
        (1, "docs/blitz.md#r5-refilling"),
        (1, "img/a.png"),
        (6, "https://example.org/auto"),
        (6, "https://example.org/page"),
        (7, "../outside.md"),
        (8, "x.md"),
    ]
    assert slug("R5 Refilling") == "r5-refilling"
    assert (
        slug("Checking: `expect`, `expect_any`, `expect_error`")
        == "checking-expect-expect_any-expect_error"
    )
    assert (
        slug("Where the engine narrows the file format's ranges")
        == "where-the-engine-narrows-the-file-formats-ranges"
    )
    assert leaves_repository("https://example.org") and leaves_repository("mailto:a@b")
    assert leaves_repository("/etc/passwd") and not leaves_repository("../docs/engine.md")


# -- the documentation --------------------------------------------------------------------


def test_the_documentation_is_there():
    names = {doc_id(p) for p in DOCS}
    assert {"README.md", "docs/blitz.md", "docs/replay-format.md", "docs/engine.md"} <= names


@pytest.mark.parametrize("path", DOCS, ids=doc_id)
def test_every_link_resolves_inside_the_repository(path):
    problems = []
    for line, target in links(path.read_text(encoding="utf-8")):
        why = check_link(path, target)
        if why:
            problems.append(f"{doc_id(path)}:{line}: {why}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", DOCS, ids=doc_id)
def test_no_page_mentions_the_shared_folder(path):
    """``../shared`` is beside the working copy, not in the repository: a clone lacks it."""
    problems = [
        f"{doc_id(path)}:{n}: {line.strip()}"
        for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1)
        if "../shared" in line or "/work/shared" in line
    ]
    assert not problems, "\n".join(problems)


# -- the rules page and the code ----------------------------------------------------------


def settings_table() -> dict:
    """The "Rule settings" table of docs/blitz.md: setting name → default."""
    text = RULES_PAGE.read_text(encoding="utf-8")
    section = text.split("## Rule settings", 1)[1].split("\n## ", 1)[0]
    table = {}
    for row in re.findall(r"^\|\s*`(\w+)`\s*\|\s*([^|]+?)\s*\|", section, re.M):
        name, default = row
        default = default.strip("`")
        table[name] = (
            json.loads(default) if default.startswith("{") else float(default.replace(",", ""))
        )
    return table


def test_every_rule_id_is_a_heading_of_the_rules_page():
    ids = re.findall(r"^### (R\d+)\b", RULES_PAGE.read_text(encoding="utf-8"), re.M)
    assert ids == [f"R{i}" for i in range(1, 24)]


def test_the_settings_table_matches_the_rules_code():
    """One row per field of ``Rules``, in the same order, with the default the code has."""
    try:
        from tictacblitz.games.blitz.rules import Rules
    except ImportError as exc:  # the native core is not built here
        pytest.skip(f"tictacblitz does not import: {exc}")
    table = settings_table()
    defaults = Rules().to_dict()
    assert list(table) == list(defaults)
    assert table == defaults


# -- the built site: repository files the guides link to are copied in ----------------------


def site_url(page: Path) -> str:
    """The URL MkDocs gives a page (directory URLs): ``api/blitz.md`` -> ``api/blitz/``."""
    rel = page.relative_to(ROOT / "docs").with_suffix("").as_posix()
    if rel == "index" or rel.endswith("/index"):
        return rel[: -len("index")]
    return rel + "/"


def test_the_site_holds_every_repository_file_a_guide_links_to(tmp_path):
    """Issue 26: 15 links to tests/scenarios/*.json were dead in the built site. The hook
    (scripts/mkdocs_repo_links.py) copies each target where the browser looks for it; this
    reads the links with this file's own parser and checks each one lands on a copy."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "repo_links", ROOT / "scripts" / "mkdocs_repo_links.py"
    )
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    pages = [p for p in DOCS if p.is_relative_to(ROOT / "docs")]
    found, expected = {}, []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        src, url = page.relative_to(ROOT / "docs").as_posix(), site_url(page)
        found.update(hook.repo_links(text, src, url, ROOT / "docs"))
        for _, target in links(text):
            path = unquote(target.partition("#")[0])
            if not path or leaves_repository(target):
                continue
            if not (page.parent / path).resolve().is_relative_to(ROOT / "docs"):
                expected.append((doc_id(page), target, (url or "./") + path))
    assert len(expected) >= 15  # the scenario links of blitz.md and replay-format.md
    hook.copy_into_site(found, tmp_path)
    missing = []
    for page, target, in_site in expected:
        where = (tmp_path / in_site).resolve()
        if not (where.is_file() or (where / "index.html").is_file()):
            missing.append(f"{page}: {target} is not in the site at {in_site}")
    assert not missing, "\n".join(missing)
    scenario = tmp_path / "tests" / "scenarios" / "r10_lowest_window.json"
    assert json.loads(scenario.read_text()) == json.loads(
        (ROOT / "tests" / "scenarios" / "r10_lowest_window.json").read_text()
    )
    assert 'href="r10_lowest_window.json"' in (scenario.parent / "index.html").read_text()
