"""A sweep's plots (PNG) and its self-contained HTML page, for any game.

Every panel is one metric group (:func:`~tictacblitz.lab.report.panels_of`) against one
swept parameter, points with their 95 % intervals, shares in percent, and the game's
default value of the parameter marked (a dashed line). With two swept parameters, the
other one's values are *facets*: one small panel per metric group and value, instead of
one crowded legend. Rows of the HTML table are sorted by the parameters' values (random
sweeps too).
"""

from __future__ import annotations

import base64
import html
import io
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..games.registry import DEFAULT_GAME
from .hooks import hooks_for
from .report import column_metrics, panels_of
from .seating import bots_text
from .units import is_share, label, legend, plot_scale, seat_metrics, show, unit

__all__ = ["plot_sweep", "sweep_html", "default_value", "sorted_points", "MAX_FACETS"]

MAX_FACETS = 6
"""Values of the second parameter shown as facets (more: all points in one panel)."""


def default_value(game: str, param: str) -> Optional[float]:
    """The game's default value of a sweepable name (``outer.inner`` for a nested one)."""
    value: Any = hooks_for(game).default_game.rules.to_dict()
    for part in param.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def sorted_points(points: Sequence[Dict[str, Any]], params: Sequence[str]) -> List[int]:
    """The indices of ``points`` sorted by their parameters' values (first parameter first)."""
    return sorted(range(len(points)), key=lambda k: tuple(points[k][p] for p in params))


def _panels(rows: List[Dict[str, Any]], game: str) -> Tuple[Tuple[str, Tuple[str, ...]], ...]:
    panels = panels_of(game)
    if hooks_for(game).get("PANELS") is None:
        panels += tuple((label(m, game), (m,)) for m in column_metrics(rows))
    return panels


def _draw(
    ax: Any,
    rows: List[Dict[str, Any]],
    param: str,
    metrics: Sequence[str],
    game: str,
    default: Optional[float],
) -> None:
    for metric in metrics:
        factor, _ = plot_scale(metric, game)
        pts = sorted(
            ((r[param], r) for r in rows if r["metric"] == metric and r["value"] is not None),
            key=lambda kv: kv[0],
        )
        if not pts:
            continue
        xs = [kv[0] for kv in pts]
        ys = [kv[1]["value"] * factor for kv in pts]
        err = None
        if all(kv[1]["lo"] is not None for kv in pts):
            err = [
                [y - kv[1]["lo"] * factor for y, kv in zip(ys, pts, strict=False)],
                [kv[1]["hi"] * factor - y for y, kv in zip(ys, pts, strict=False)],
            ]
        joined = len(set(xs)) == len(xs)
        ax.errorbar(
            xs,
            ys,
            yerr=err,
            marker="o",
            ms=3,
            capsize=2,
            lw=1,
            linestyle="-" if joined else "none",
            label=label(metric, game),
        )
    seated = seat_metrics(hooks_for(game).type)  # their fair share, 1/N, moves with N
    if any(m.endswith("share_of_decided") and m not in seated for m in metrics):
        ax.axhline(50.0, color="grey", lw=0.8, ls=":")
    if any(m.endswith("_impact") for m in metrics):
        ax.axhline(0.0, color="grey", lw=0.8, ls=":")
    if default is not None:
        ax.axvline(default, color="tab:red", lw=0.9, ls="--")
    units_ = {plot_scale(m, game)[1] for m in metrics}
    if len(units_) == 1:
        ax.set_ylabel(units_.pop(), fontsize=8)
    ax.grid(alpha=0.3)
    ax.tick_params(labelsize=7)


def plot_sweep(
    rows: List[Dict[str, Any]],
    params: Sequence[str],
    param: str,
    game: str = DEFAULT_GAME,
    metrics: Optional[Sequence[str]] = None,
    same_bots: bool = True,
) -> bytes:
    """One PNG (bytes) of every metric group against ``param`` (see the module doc);
    ``metrics``: these only, one panel each. ``same_bots`` False (two different bots):
    X's share is titled as what it then is, bot strength and seat together."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = tuple((label(m, game), (m,)) for m in metrics) if metrics else _panels(rows, game)
    measured = {r["metric"] for r in rows if r["value"] is not None}
    panels = tuple(p for p in panels if measured & set(p[1])) or panels  # e.g. 2 seats of 4
    if not same_bots:
        panels = tuple(
            (t.replace("seat advantage: ", "bot strength and seat: "), ms) for t, ms in panels
        )
    others = [p for p in params if p != param]
    facets: List[Tuple[str, List[Dict[str, Any]]]] = [("", rows)]
    if len(others) == 1:
        values = sorted({r[others[0]] for r in rows})
        if len(values) <= MAX_FACETS:
            facets = [(f"{others[0]}={v}", [r for r in rows if r[others[0]] == v]) for v in values]
    default = default_value(game, param)
    long_name = hooks_for(game).type.long_name
    marked = f"; red dashed line: the default {param}={default}" if default is not None else ""
    if len(facets) > 1:
        nr, nc = len(panels), len(facets)
        fig, axes = plt.subplots(
            nr,
            nc,
            figsize=(2.9 * nc + 1.2, 2.1 * nr + 0.8),
            squeeze=False,
            sharex=True,
            sharey="row",
        )
        for i, (title, metrics) in enumerate(panels):
            for j, (facet, subset) in enumerate(facets):
                ax = axes[i][j]
                _draw(ax, subset, param, metrics, game, default)
                if i == 0:
                    ax.set_title(facet, fontsize=9)
                if j == 0:
                    u = {plot_scale(m, game)[1] for m in metrics}
                    ax.set_ylabel(title + (f" ({u.pop()})" if len(u) == 1 else ""), fontsize=7)
                else:
                    ax.set_ylabel("")
                if i == nr - 1:
                    ax.set_xlabel(param, fontsize=8)
                if j == nc - 1 and len(metrics) > 1 and ax.get_legend_handles_labels()[0]:
                    ax.legend(fontsize=6, loc="best")
    else:
        cols = min(3, len(panels))
        nrows = (len(panels) + cols - 1) // cols
        fig, axes = plt.subplots(nrows, cols, figsize=(4.4 * cols, 3.1 * nrows), squeeze=False)
        for ax, (title, metrics) in zip(axes.flat, panels, strict=False):
            _draw(ax, rows, param, metrics, game, default)
            ax.set_title(title, fontsize=9)
            ax.set_xlabel(param, fontsize=8)
            if len(metrics) > 1 and ax.get_legend_handles_labels()[0]:
                ax.legend(fontsize=6)
        for ax in list(axes.flat)[len(panels) :]:
            ax.axis("off")
    fig.suptitle(
        f"{long_name} sweep: metrics against {param}\n(95 % intervals; shares in %{marked})",
        fontsize=10,
    )
    fig.tight_layout(rect=(0, 0, 1, 0.97 if len(facets) > 1 else 0.94))
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=80)
    plt.close(fig)
    return buf.getvalue()


def sweep_html(
    meta: Dict[str, Any],
    rows: List[Dict[str, Any]],
    params: Sequence[str],
    images: Dict[str, bytes],
) -> str:
    """The sweep report: one self-contained HTML page (images inlined as data URIs)."""
    esc = html.escape
    points: Dict[int, Dict[str, Any]] = {}
    for row in rows:
        points.setdefault(row["point"], {p: row[p] for p in params})[row["metric"]] = row
    game = meta.get("game", DEFAULT_GAME)
    hooks = hooks_for(game)
    shown = list(meta.get("metrics") or ()) or [
        "x_share_of_decided",
        "draw_rate",
        *(hooks.get("REPORT_COLUMNS") or column_metrics(rows)),
    ]

    def cell(row: Optional[Dict[str, Any]], metric: str) -> str:
        if row is None or row["value"] is None:
            return "<td>-</td>"
        ci = (row["lo"], row["hi"]) if row["lo"] is not None else None
        text = esc(show(row["value"], ci, unit(metric, game)))
        return "<td>" + text.replace("  [", " <small>[", 1) + ("</small>" if ci else "") + "</td>"

    head = "".join(f"<th>{esc(p)}</th>" for p in params) + "".join(
        f"<th>{esc(label(m, game))}</th>" for m in shown
    )
    keys = sorted(points, key=lambda k: tuple(points[k][p] for p in params))
    body = [
        "<tr>"
        + "".join(f"<td>{esc(str(points[k][p]))}</td>" for p in params)
        + "".join(cell(points[k].get(m), m) for m in shown)
        + "</tr>"
        for k in keys
    ]
    figs = "".join(
        f"<h2>against {esc(p)}</h2><img alt='metrics against {esc(p)}' "
        f"src='data:image/png;base64,{base64.b64encode(images[p]).decode()}'>"
        for p in params
        if p in images
    )
    rules = ", ".join(f"{k}={v}" for k, v in sorted(meta.get("rules", {}).items())) or "defaults"
    defaults = ", ".join(f"{p}={default_value(game, p)}" for p in params)
    explained = "".join(f"<li>{esc(line.strip())}</li>" for line in legend(game, shown)[1:])
    shares = any(is_share(unit(m, game)) for m in shown)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(hooks.type.long_name)} sweep</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; font-size: 0.85em; }}
th, td {{ border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: right; }}
th {{ background: #f4f4f4; }} small {{ color: #777; }} img {{ max-width: 100%; }}
</style></head><body>
<h1>{esc(hooks.type.long_name)} sweep</h1>
<p><b>{esc(bots_text(meta))}</b>,
{meta["matches"]:,} matches a point, master seed {meta["seed"]} (the same match seeds at
every point), base rules: {esc(rules)}; {esc(meta["mode"])} over {esc(", ".join(params))}
(defaults: {esc(defaults)}), {len(points)} points, {meta["seconds"]:.1f} s.</p>
<p>{"Shares are percentages; " if shares else ""}[a, b] is the 95 % interval (Wilson for
shares, normal for means), each point's own: no difference between points is tested (no
star), and the intervals are not adjusted for the {len(points)} points (to test a change:
<code>simulate --rule</code>, whose A/B is Holm-adjusted). Rows are sorted by the swept
values. Every metric of every point
is in <code>sweep.csv</code> (fractions), defined in docs/simulate.md.</p>
<table><tr>{head}</tr>{"".join(body)}</table>
<ul>{explained}</ul>
{figs}
</body></html>
"""
