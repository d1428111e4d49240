"""A sweep's files and console table: the output folder's checks
(:func:`check_out_dir`, before any match is played), :func:`written_folder` (a
temporary folder renamed in one step, for any command's files), :func:`write_outputs`
(the tidy table as CSV and Parquet, the JSON, the plots and the HTML page), and
:func:`format_sweep`, the table the command prints (percentages with intervals, rows
sorted by the swept values).
"""

from __future__ import annotations

import csv
import json
import os
import shutil
from contextlib import contextmanager
from typing import Any, Dict, Iterator, List, Optional

from ..games.registry import DEFAULT_GAME
from .hooks import hooks_for
from .plots import plot_sweep, sorted_points, sweep_html
from .records import probe_folder
from .report import column_metrics
from .seating import bots_text, same_bots
from .units import label, legend, metrics_of, show, unit

__all__ = [
    "check_metrics",
    "check_out_dir",
    "written_folder",
    "write_csv",
    "write_outputs",
    "format_sweep",
]


def check_metrics(game: str, metrics: Optional[List[str]]) -> None:
    """:raises ValueError: for a metric name a sweep of ``game`` does not tabulate."""
    if not metrics:
        return
    # A metric declared with row=False (Blitz's round_length_ms: a name tune and
    # sensitivity read) has no row in a sweep's table: refused, not shown as "-".
    no_row = {m.name for m in hooks_for(game).metrics if not m.row}
    known = [m for m in metrics_of(game) if m != "matches_per_s" and m not in no_row]
    for m in metrics:
        if m not in known and not m.endswith("_mean"):
            raise ValueError(
                f"--metrics {m!r}: unknown metric; expected names from {', '.join(known)}"
            )


def check_out_dir(path: str, overwrite: bool) -> None:
    """:raises ValueError: if ``path`` is a file, its parent folder does not exist or
    cannot be written to, or it is a non-empty folder and ``overwrite`` is off."""
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise ValueError(f"--out {path!r}: folder {parent!r} does not exist")
    if os.path.exists(path):
        if not os.path.isdir(path):
            raise ValueError(f"--out {path!r} is a file, not a folder")
        if os.listdir(path) and not overwrite:
            raise ValueError(
                f"--out {path!r} exists and is not empty (pass --overwrite to replace it)"
            )
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ValueError(f"--out {path!r}: folder {parent!r} is not writable")
    # The files go to a temporary folder beside ``path``: make sure one can be made
    # there before any match is played (issue 22, item 8).
    probe_folder(parent, f"--out {path!r}")


def plot_file_name(param: str) -> str:
    """The PNG file of one swept parameter: ``powerup_weights.bomb`` ->
    ``sweep_powerup_weights_bomb.png``."""
    return f"sweep_{param.replace('.', '_')}.png"


@contextmanager
def written_folder(out_dir: str, overwrite: bool) -> Iterator[str]:
    """Yield a temporary folder beside ``out_dir`` to write into; when the block ends
    without error it replaces ``out_dir`` in one rename (nothing half-written), else it
    is removed and ``out_dir`` is left as it was. Checks ``out_dir`` first
    (:func:`check_out_dir`).

    :raises ValueError: as :func:`check_out_dir`.
    """
    check_out_dir(out_dir, overwrite)
    target = os.path.abspath(out_dir)
    tmp = f"{target}.tmp-{os.getpid()}"
    if os.path.exists(tmp):
        shutil.rmtree(tmp)
    os.mkdir(tmp)
    try:
        yield tmp
        old = None
        if os.path.exists(target):
            old = f"{target}.old-{os.getpid()}"
            os.rename(target, old)
        os.rename(tmp, target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def write_csv(path: str, rows: List[Dict[str, Any]], columns: Optional[List[str]] = None) -> None:
    """``rows`` as CSV, None as a blank cell; ``columns`` by default every key in the
    order first seen."""
    if columns is None:
        columns = []
        for row in rows:
            columns += [c for c in row if c not in columns]
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=columns)
        w.writeheader()
        for row in rows:
            w.writerow({c: ("" if row.get(c) is None else row.get(c)) for c in columns})


def write_outputs(result: Any, out_dir: str, *, overwrite: bool = False) -> Dict[str, str]:
    """Write the sweep's files into ``out_dir``: all into a temporary folder beside it,
    which then replaces ``out_dir`` in one rename (nothing half-written). Returns the
    file names written, by kind."""
    files: Dict[str, str] = {}
    with written_folder(out_dir, overwrite) as tmp:
        params = result.meta["params"]
        columns = ["point", *params, "metric", "value", "lo", "hi"]
        write_csv(os.path.join(tmp, "sweep.csv"), result.rows, columns)
        files["csv"] = "sweep.csv"
        try:
            import pyarrow.parquet as pq

            pq.write_table(result.table(), os.path.join(tmp, "sweep.parquet"))
            files["parquet"] = "sweep.parquet"
        except ImportError:
            pass
        with open(os.path.join(tmp, "sweep.json"), "w", encoding="utf-8") as fh:
            json.dump({"meta": result.meta, "points": result.summaries}, fh, indent=1)
        files["json"] = "sweep.json"
        images: Dict[str, bytes] = {}
        for param in params:
            images[param] = plot_sweep(
                result.rows,
                params,
                param,
                result.meta.get("game", DEFAULT_GAME),
                metrics=result.meta.get("metrics") or None,
                same_bots=same_bots(result.meta),
            )
            name = plot_file_name(param)
            with open(os.path.join(tmp, name), "wb") as fh:
                fh.write(images[param])
            files[f"png:{param}"] = name
        with open(os.path.join(tmp, "report.html"), "w", encoding="utf-8") as fh:
            fh.write(sweep_html(result.meta, result.rows, params, images))
        files["html"] = "report.html"
    return files


def format_sweep(result: Any, out: str, explain: bool = False) -> str:
    params = result.meta["params"]
    game = result.meta.get("game", DEFAULT_GAME)
    shown = tuple(result.meta.get("metrics") or ()) or (
        "x_share_of_decided",
        "draw_rate",
        *(hooks_for(game).get("SWEEP_COLUMNS") or column_metrics(result.rows, 3)),
    )
    by_point: Dict[int, Dict[str, Any]] = {}
    for row in result.rows:
        by_point.setdefault(row["point"], {})[row["metric"]] = row
    head = [*params, *(label(m, game) for m in shown)]
    lines = [
        f"sweep: {result.meta['mode']}, {len(result.points)} points x {result.meta['matches']:,} "
        f"matches, {bots_text(result.meta)}, "
        f"{result.meta['seconds']:.1f} s; the same match seeds at every point",
        "",
    ]
    table = []
    for k in sorted_points(result.points, params):
        cells = [str(result.points[k][p]) for p in params]
        for m in shown:
            r = by_point[k].get(m)
            ci = (r["lo"], r["hi"]) if r is not None and r["lo"] is not None else None
            cells.append(
                "-" if r is None else show(r["value"], ci, unit(m, game)).replace("  [", " [")
            )
        table.append(cells)
    width = [max(len(h), *(len(c[i]) for c in table)) for i, h in enumerate(head)]
    lines.append("  ".join(h.rjust(w) for h, w in zip(head, width, strict=False)))
    lines += ["  ".join(c.rjust(w) for c, w in zip(cells, width, strict=False)) for cells in table]
    lines += [
        "",
        "Shares in %, [a, b] the 95 % interval; rows sorted by the swept values.",
        f"No difference is tested here (no *): each interval is its point's own, not adjusted "
        f"for the {len(table)} points; to test a change, simulate --rule (A/B, Holm-adjusted).",
    ]
    if not same_bots(result.meta):
        lines.append(
            "Two different bots: X's share mixes bot strength and seat "
            "(simulate with both bots separates them)."
        )
    if explain:
        lines += legend(game, shown)
    lines += [
        "",
        f"wrote {os.path.join(out, 'report.html')}, sweep.csv, sweep.parquet, sweep.json "
        f"and {', '.join(plot_file_name(p) for p in result.meta['params'])} in {out}",
    ]
    return "\n".join(lines)
