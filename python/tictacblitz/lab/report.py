"""Reports of simulations of any game: the summary as a text table, the flat metric rows
a sweep tabulates, and the sweep's plots (PNG) and self-contained HTML page.

The metrics are defined in docs/simulate.md; :func:`metric_rows` is the one list of
them that tables and plots read: the lab's match-level metrics, then the game's (its
``metric_rows``/``METRICS``/``PANELS``/``summary_lines`` hooks; without them, the
``NAME_mean`` of every per-match column the summary's ``columns`` holds).
"""

from __future__ import annotations

import base64
import html
import io
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..games.registry import DEFAULT_GAME
from .hooks import GameHooks, hooks_for

__all__ = ["format_summary", "metric_rows", "metrics_of", "panels_of", "METRICS", "PANELS",
           "plot_sweep", "sweep_html", "column_metrics"]

# name -> (label, unit) of the lab's metrics (every game), in table order; a game's
# METRICS hook adds its own after these, and matches_per_s comes last.
METRICS: Dict[str, Tuple[str, str]] = {
    "x_win_rate": ("X match win rate", "share"),
    "o_win_rate": ("O match win rate", "share"),
    "draw_rate": ("match draw rate", "share"),
    "x_share_of_decided": ("X share of decided matches", "share"),
}
RUN_METRICS: Dict[str, Tuple[str, str]] = {"matches_per_s": ("matches per second", "matches/s")}
MEAN = "_mean"          # the suffix of a per-match column's mean (games without metric hooks)

# The sweep report's panels: a title and the metrics drawn in it (a game's PANELS hook
# adds metrics to a panel of the same title, or new panels after these).
PANELS: Tuple[Tuple[str, Tuple[str, ...]], ...] = (
    ("match results", ("x_win_rate", "o_win_rate", "draw_rate")),
    ("seat advantage (X share of decided)", ("x_share_of_decided",)),
)


def _hooks(summary_or_meta: Dict[str, Any]) -> GameHooks:
    return hooks_for(summary_or_meta.get("game", DEFAULT_GAME))


def metrics_of(game: str = DEFAULT_GAME) -> Dict[str, Tuple[str, str]]:
    """Every metric a sweep of ``game`` tabulates: name -> (label, unit), in order."""
    return {**METRICS, **(hooks_for(game).get("METRICS") or {}), **RUN_METRICS}


def panels_of(game: str = DEFAULT_GAME) -> Tuple[Tuple[str, Tuple[str, ...]], ...]:
    """The sweep report's panels for ``game``: the lab's, with the game's merged in."""
    panels = {title: list(metrics) for title, metrics in PANELS}
    for title, metrics in hooks_for(game).get("PANELS") or ():
        panels.setdefault(title, []).extend(metrics)
    return tuple((title, tuple(metrics)) for title, metrics in panels.items())


def _ci(pair: Optional[Sequence[float]], scale: float = 1.0) -> Tuple[Optional[float], Optional[float]]:
    if not pair:
        return None, None
    return pair[0] * scale, pair[1] * scale


def metric_rows(summary: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The summary's headline metrics as rows ``{metric, value, lo, hi}`` (``lo``/``hi``
    the 95 % interval, ``None`` where there is none): the lab's, then the game's
    (its ``metric_rows`` hook), then ``matches_per_s``."""
    s = summary
    rows: List[Dict[str, Any]] = []

    def add(name: str, value: Any, ci: Optional[Sequence[float]] = None, scale: float = 1.0) -> None:
        lo, hi = _ci(ci, scale)
        rows.append({"metric": name, "value": None if value is None else float(value),
                     "lo": lo, "hi": hi})

    add("x_win_rate", s["x_win_rate"], s["x_win_ci"])
    add("o_win_rate", s["o_win_rate"], s["o_win_ci"])
    add("draw_rate", s["draw_rate"], s["draw_ci"])
    sa = s["seat_advantage"]
    add("x_share_of_decided", sa["x_share_of_decided"], sa["x_share_ci"])
    hook = _hooks(s).get("metric_rows")
    if hook is not None:
        hook(s, add)
    for name, c in s.get("columns", {}).items():          # a game without the hook
        add(f"{name}{MEAN}", c["mean"], c["mean_ci"])
    add("matches_per_s", s.get("matches_per_s"))
    return rows


def _pct(value: Optional[float], ci: Optional[Sequence[float]] = None) -> str:
    if value is None:
        return "-"
    text = f"{100 * value:5.1f} %"
    if ci:
        text += f"  [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"
    return text


def _num(value: Optional[float], ci: Optional[Sequence[float]] = None, scale: float = 1.0,
         digits: int = 2) -> str:
    if value is None:
        return "-"
    text = f"{value * scale:.{digits}f}"
    if ci:
        text += f"  [{ci[0] * scale:.{digits}f}, {ci[1] * scale:.{digits}f}]"
    return text


def format_summary(s: Dict[str, Any]) -> str:
    """The summary as the text table ``tictacblitz simulate`` prints: the lab's rows,
    then the game's (its ``summary_lines`` hook)."""
    hooks = _hooks(s)
    rules = ", ".join(f"{k}={v}" for k, v in sorted(s["rules"].items())) or "defaults"
    where = (f"{s['workers']} worker thread(s)" if s.get("scheduler") is None
             else f"Dask scheduler {s['scheduler']}")
    cpu = f", {s['cpu_seconds']:.1f} s CPU" if s.get("cpu_seconds") is not None else ""
    lines = [
        f"simulate: {hooks.type.long_name}, {s['matches']:,} matches, X = {s['x_bot']}, "
        f"O = {s['o_bot']}, seed {s['seed']}, rules: {rules}",
        f"          {s['seconds']:.1f} s wall{cpu} on {where}: {s['matches_per_s']:,.0f} matches/s"
        + (f"; records in {s['out']}" if s.get("out") else ""),
        "",
    ]
    sa = s["seat_advantage"]
    rows: List[Tuple[str, str]] = [
        ("matches: X wins / O wins / draws", f"{s['x_wins']:,} / {s['o_wins']:,} / {s['draws']:,}"),
        ("X match win rate [95% CI]", _pct(s["x_win_rate"], s["x_win_ci"])),
        ("O match win rate", _pct(s["o_win_rate"], s["o_win_ci"])),
        ("match draw rate", _pct(s["draw_rate"], s["draw_ci"])),
        ("seat advantage: X share of decided matches",
         _pct(sa["x_share_of_decided"], sa["x_share_ci"]) + ("  *" if sa["significant"] else "")),
    ]
    after: List[str] = []
    hook: Optional[Callable[..., Any]] = hooks.get("summary_lines")
    if hook is not None:
        more, after = hook(s, _pct, _num)
        rows += more
    for name, c in s.get("columns", {}).items():          # a game without the hook
        rows.append((f"{name} a match: mean [CI]", _num(c["mean"], c["mean_ci"])))
    width = max(len(k) for k, _ in rows)
    lines += [f"{k:<{width}}  {v}" for k, v in rows]
    if sa["significant"]:        # the footnote of the "*" above, only when it is there
        lines += ["", "* the X share differs from 1/2 at 95 % (Wilson)"]
    lines += after
    return "\n".join(lines)


# -- sweeps ------------------------------------------------------------------------------------


def _label(metric: str, game: str = DEFAULT_GAME) -> str:
    default = f"{metric[:-len(MEAN)]} a match (mean)" if metric.endswith(MEAN) else metric
    return metrics_of(game).get(metric, (default, ""))[0]


def column_metrics(rows: List[Dict[str, Any]], limit: int = 12) -> List[str]:
    """The per-match column means among a sweep's rows (games without metric hooks)."""
    found: List[str] = []
    for row in rows:
        m = row["metric"]
        if m.endswith(MEAN) and m not in found:
            found.append(m)
    return found[:limit]


def _short_names(metrics: Sequence[str]) -> bool:
    """Whether a panel's metrics differ only in their first word (``bomb_impact``,
    ``freeze_impact``...): then that word is the legend label."""
    tails = {m.partition("_")[2] for m in metrics}
    return len(metrics) > 1 and len(tails) == 1 and "" not in tails


def plot_sweep(rows: List[Dict[str, Any]], params: Sequence[str], param: str,
               game: str = DEFAULT_GAME) -> bytes:
    """One PNG (bytes): every panel of :func:`panels_of` ``game`` against ``param``, points with
    their 95 % intervals, one line per combination of the other parameters (all points
    as one series when there are many)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    others = [p for p in params if p != param]
    groups: Dict[Tuple[Any, ...], List[Dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(tuple(row[o] for o in others), []).append(row)
    lines = len(groups) <= 6
    if not lines:
        groups = {(): rows}
    cols = 4
    panels = panels_of(game)
    if hooks_for(game).get("PANELS") is None:
        panels += tuple((_label(m, game), (m,)) for m in column_metrics(rows))
    n = len(panels)
    fig, axes = plt.subplots((n + cols - 1) // cols, cols, figsize=(4.2 * cols, 3.3 * ((n + cols - 1) // cols)),
                             squeeze=False)
    for ax, (title, metrics) in zip(axes.flat, panels):
        for key, group in groups.items():
            suffix = ", ".join(f"{o}={v}" for o, v in zip(others, key)) if key else ""
            for metric in metrics:
                pts = sorted(((r[param], r) for r in group if r["metric"] == metric and r["value"] is not None),
                             key=lambda kv: kv[0])
                if not pts:
                    continue
                xs = [kv[0] for kv in pts]
                ys = [kv[1]["value"] for kv in pts]
                err = None
                if all(kv[1]["lo"] is not None for kv in pts):
                    err = [[y - kv[1]["lo"] for y, kv in zip(ys, pts)],
                           [kv[1]["hi"] - y for y, kv in zip(ys, pts)]]
                name = metric.split("_")[0] if _short_names(metrics) else _label(metric, game)
                label = f"{name} ({suffix})" if suffix else name
                ax.errorbar(xs, ys, yerr=err, marker="o", ms=3, capsize=3,
                            linestyle="-" if lines else "none", label=label)
        if any(m.endswith("share_of_decided") or m.endswith("win_share") for m in metrics):
            ax.axhline(0.5, color="grey", lw=0.8, ls=":")
        if any(m.endswith("_impact") for m in metrics):
            ax.axhline(0.0, color="grey", lw=0.8, ls=":")
        ax.set_title(title, fontsize=10)
        ax.set_xlabel(param)
        ax.grid(alpha=0.3)
        if ax.get_legend_handles_labels()[0] and (len(metrics) > 1 or len(groups) > 1):
            ax.legend(fontsize=7)
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    fig.suptitle(f"{hooks_for(game).type.long_name} sweep: metrics against {param} (95 % intervals)",
                 fontsize=12)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90)
    plt.close(fig)
    return buf.getvalue()


def sweep_html(meta: Dict[str, Any], rows: List[Dict[str, Any]], params: Sequence[str],
               images: Dict[str, bytes]) -> str:
    """The sweep report: one self-contained HTML page (images inlined as data URIs)."""
    esc = html.escape
    points: Dict[int, Dict[str, Any]] = {}
    for row in rows:
        points.setdefault(row["point"], {p: row[p] for p in params})[row["metric"]] = row
    game = meta.get("game", DEFAULT_GAME)
    hooks = hooks_for(game)
    shown = ["x_share_of_decided", "draw_rate",
             *(hooks.get("REPORT_COLUMNS") or column_metrics(rows))]

    def cell(row: Optional[Dict[str, Any]]) -> str:
        if row is None or row["value"] is None:
            return "<td>-</td>"
        v = row["value"]
        text = f"{v:.3f}"
        if row["lo"] is not None:
            text += f" <small>[{row['lo']:.3f}, {row['hi']:.3f}]</small>"
        return f"<td>{text}</td>"

    head = "".join(f"<th>{esc(p)}</th>" for p in params) + "".join(
        f"<th>{esc(_label(m, game))}</th>" for m in shown)
    body = []
    for k in sorted(points):
        pt = points[k]
        body.append("<tr>" + "".join(f"<td>{esc(str(pt[p]))}</td>" for p in params)
                    + "".join(cell(pt.get(m)) for m in shown) + "</tr>")
    figs = "".join(
        f"<h2>against {esc(p)}</h2><img alt='metrics against {esc(p)}' "
        f"src='data:image/png;base64,{base64.b64encode(images[p]).decode()}'>"
        for p in params if p in images)
    rules = ", ".join(f"{k}={v}" for k, v in sorted(meta.get("rules", {}).items())) or "defaults"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(hooks.type.long_name)} sweep</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; font-size: 0.85em; }}
th, td {{ border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: right; }}
th {{ background: #f4f4f4; }} small {{ color: #777; }} img {{ max-width: 100%; }}
</style></head><body>
<h1>{esc(hooks.type.long_name)} sweep</h1>
<p>X = <b>{esc(str(meta['x_bot']))}</b>, O = <b>{esc(str(meta['o_bot']))}</b>,
{meta['matches']:,} matches a point, master seed {meta['seed']} (the same match seeds at
every point), base rules: {esc(rules)}; {esc(meta['mode'])} over {esc(', '.join(params))},
{len(points)} points, {meta['seconds']:.1f} s.</p>
<p>Intervals are 95 %: Wilson for shares, normal for means. Metrics are defined in
docs/simulate.md; every metric of every point is in <code>sweep.csv</code>.</p>
<table><tr>{head}</tr>{''.join(body)}</table>
{figs}
</body></html>
"""
