"""A simulation's report as one self-contained HTML page (``simulate --html FILE``,
:func:`summary_html`): the summary table, then the answers of the extra runs (the A/B
side by side with the paired differences, bot strength and seat advantage, each
feature's effect by ablation), then a legend of every metric. The same rows, words and
units as the text table (:mod:`~tictacblitz.lab.units`: percentages with 95 %
intervals, differences in percentage points).
"""

from __future__ import annotations

import html
import os
from typing import Any, Dict, List, Optional

from ..games.registry import DEFAULT_GAME
from .answers import Section, ablation, comparison, seats
from .hooks import hooks_for
from .records import probe_folder
from .report import summary_table
from .units import legend, metrics_of

__all__ = ["summary_html", "check_html_path", "write_html"]

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 75em; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0 1em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: right; }
td:first-child, th:first-child { text-align: left; }
th { background: #f4f4f4; } pre { font-size: 0.8em; } .note { color: #666; font-size: 0.9em; }
"""


def _table(head: List[str], rows: List[List[str]]) -> str:
    esc = html.escape
    top = "<tr>" + "".join(f"<th>{esc(h)}</th>" for h in head) + "</tr>" if head else ""
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table>{top}{body}</table>"


def _section(title: str, section: Optional[Section]) -> str:
    if section is None:
        return ""
    esc = html.escape
    return (
        f"<h2>{esc(title)}</h2><p>{esc(' '.join(section.intro))}</p>"
        + _table(section.head, section.rows)
        + "".join(f"<p class='note'>{esc(n)}</p>" for n in section.notes if n)
    )


def summary_html(s: Dict[str, Any]) -> str:
    """The page for a summary of :func:`~tictacblitz.lab.simulation.simulate` (with or
    without its A/B, seats and ablation)."""
    esc = html.escape
    game = s.get("game", DEFAULT_GAME)
    name = hooks_for(game).type.long_name
    head, rows, after = summary_table(s)
    shown = [m for m in metrics_of(game) if m != "matches_per_s"]
    preformatted = "\n".join(line for line in after if line is not None).strip()
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(name)} simulation</title>
<style>{STYLE}</style></head><body>
<h1>{esc(name)} simulation</h1>
<p>{esc(head[0].removeprefix("simulate: "))}<br>{esc(head[1].strip())}</p>
<p class='note'>Shares are percentages; [a, b] is the 95 % interval; differences of
shares are in percentage points (pp). The JSON output (<code>--json</code>) keeps
fractions.</p>
{_table(["metric", "value [95 % interval]"], [list(r) for r in rows])}
{f"<pre>{esc(preformatted)}</pre>" if preformatted else ""}
{_section("A/B: the rule change against the base rules", comparison(s))}
{_section("Bot strength and seat advantage", seats(s))}
{_section("What each feature causes (ablation)", ablation(s))}
<h2>What the metrics mean</h2>
<ul>{"".join(f"<li>{esc(line.strip())}</li>" for line in legend(game, shown))}</ul>
</body></html>
"""


def check_html_path(path: str, overwrite: bool) -> None:
    """:raises ValueError: for a name not ending in .html, a missing or unwritable
    folder, or an existing file without ``overwrite`` (checked before any match)."""
    if not os.fspath(path).lower().endswith((".html", ".htm")):
        raise ValueError(f"--html {path!r}: the file name must end in .html")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"--html {path!r}: folder {folder!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"--html {path!r}: folder {folder!r} is not writable")
    if os.path.isdir(path):
        raise ValueError(f"--html {path!r} is a folder")
    if os.path.exists(path) and not overwrite:
        raise ValueError(f"--html {path!r} exists (pass --overwrite to replace it)")
    probe_folder(folder, f"--html {path!r}")


def write_html(s: Dict[str, Any], path: str) -> None:
    """Write :func:`summary_html` to ``path`` through a temporary file (renamed when
    complete: nothing half-written)."""
    tmp = f"{os.path.abspath(path)}.{os.getpid()}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(summary_html(s))
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
