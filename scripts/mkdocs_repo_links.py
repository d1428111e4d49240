"""MkDocs hook: the repository files that the guides link to go into the built site.

The guides link to files of the repository outside docs/ (the scenario files under
tests/scenarios/, a module's source). On the repository those links resolve; in the built
site they did not (issue 26: 15 dead links). This hook records every such link while the
pages are read and, after the build, copies each target to the place in the site where
the browser resolves the same relative link from the page's URL. A linked folder gets an
``index.html`` that lists its files, so a link to ``tests/scenarios/`` is a page too.

Registered in mkdocs.yml (``hooks:``); tests/test_docs_links.py checks that every
repository link of the guides lands on a copied file.
"""

from __future__ import annotations

import html
import posixpath
import re
import shutil
from pathlib import Path
from typing import Any, Dict, Iterable, List, Tuple

ROOT = Path(__file__).resolve().parents[1]
# A Markdown inline link's target, outside code (the guides write no reference links to
# repository files; tests/test_docs_links.py reads every form).
LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+).+?\1")

# (site path, repository path) pairs found by on_page_markdown, copied by on_post_build.
_found: Dict[str, Path] = {}


def _outside_code(markdown: str) -> Iterable[str]:
    fence = None
    for line in markdown.split("\n"):
        match = FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)
        elif fence is not None:
            if line.strip().startswith(fence):
                fence = None
        else:
            yield CODE_SPAN.sub("", line)


def repo_links(
    markdown: str, src_uri: str, page_url: str, docs_dir: Path
) -> List[Tuple[str, Path]]:
    """Every link of a page (its source ``src_uri`` under ``docs_dir``, built at
    ``page_url``) to a repository file or folder outside ``docs_dir``: pairs of the path in
    the site where a browser looks for it and the repository path it names."""
    found = []
    for line in _outside_code(markdown):
        for target in LINK.findall(line):
            if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:|^#|^/", target):
                continue  # a URL, a heading of this page, or an absolute path
            path = target.split("#", 1)[0]
            if not path:
                continue
            source = (docs_dir / posixpath.dirname(src_uri) / path).resolve()
            if source.is_relative_to(docs_dir.resolve()) or not source.exists():
                continue  # a page of the site (MkDocs' own), or a dead link (the test's)
            if not source.is_relative_to(ROOT):
                continue
            in_site = posixpath.normpath(posixpath.join(page_url or ".", path))
            if in_site.startswith(".."):
                continue  # above the site's root: no place to put it
            found.append((in_site, source))
    return found


def copy_into_site(found: Dict[str, Path], site_dir: Path) -> None:
    """Copy each found file (or folder, with an index page) to its place in ``site_dir``."""
    for in_site, source in sorted(found.items()):
        dest = site_dir / in_site
        if source.is_dir():
            shutil.copytree(source, dest, dirs_exist_ok=True)
            names = sorted(p.name + ("/" if p.is_dir() else "") for p in source.iterdir())
            items = "".join(
                f'<li><a href="{html.escape(n)}">{html.escape(n)}</a></li>' for n in names
            )
            title = html.escape(source.relative_to(ROOT).as_posix())
            (dest / "index.html").write_text(
                f"<!doctype html><title>{title}</title><h1>{title}/</h1><ul>{items}</ul>\n",
                encoding="utf-8",
            )
        else:
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, dest)


def on_pre_build(config: Any, **_: Any) -> None:
    _found.clear()


def on_page_markdown(markdown: str, page: Any, config: Any, **_: Any) -> str:
    docs_dir = Path(config["docs_dir"])
    for in_site, source in repo_links(markdown, page.file.src_uri, page.url, docs_dir):
        _found[in_site] = source
    return markdown


def on_post_build(config: Any, **_: Any) -> None:
    copy_into_site(_found, Path(config["site_dir"]))
