"""Reports of simulations: the summary as a text table, the flat metric rows a sweep
tabulates, and the sweep's plots (PNG) and self-contained HTML page.

The metrics are defined in docs/simulate.md; :func:`metric_rows` is the one list of
them that tables and plots read.
"""

from __future__ import annotations

import base64
import html
import io
from typing import Any, Dict, List, Optional, Sequence, Tuple

__all__ = ["format_summary", "metric_rows", "METRICS", "PANELS", "plot_sweep",
           "sweep_html"]

POWERUP_KINDS = ("bomb", "freeze", "haste", "swap")

# name -> (label, unit) of every metric a sweep tabulates, in table order.
METRICS: Dict[str, Tuple[str, str]] = {
    "x_win_rate": ("X match win rate", "share"),
    "o_win_rate": ("O match win rate", "share"),
    "draw_rate": ("match draw rate", "share"),
    "x_share_of_decided": ("X share of decided matches", "share"),
    "round_x_share_of_decided": ("X share of decided rounds", "share"),
    "round_draw_rate": ("round draw rate", "share"),
    "decisiveness": ("rounds won by a line", "share"),
    "timeout_share": ("rounds ended by timeout", "share"),
    "round_length_s": ("round length (mean)", "s"),
    "match_rounds": ("rounds a match (mean)", "rounds"),
    "match_length_s": ("match length (mean)", "s"),
    "knockouts_per_round": ("knock-outs a round (mean)", "knock-outs"),
    **{f"{k}_claims_per_round": (f"{k} claims a round", "claims") for k in POWERUP_KINDS},
    **{f"{k}_impact": (f"{k}: claimer round win rate − baseline", "share") for k in POWERUP_KINDS},
    **{f"{k}_more_claims_win_share": (f"{k}: seat with more claims wins (decided, uneven rounds)", "share")
       for k in POWERUP_KINDS},
    "matches_per_s": ("matches per second", "matches/s"),
}

# The sweep report's panels: a title and the metrics drawn in it.
PANELS: Tuple[Tuple[str, Tuple[str, ...]], ...] = (
    ("match results", ("x_win_rate", "o_win_rate", "draw_rate")),
    ("seat advantage (X share of decided)", ("x_share_of_decided", "round_x_share_of_decided")),
    ("how rounds end", ("decisiveness", "round_draw_rate")),
    ("round length (s)", ("round_length_s",)),
    ("rounds a match", ("match_rounds",)),
    ("knock-outs a round", ("knockouts_per_round",)),
    ("powerup impact (claimer − baseline)", tuple(f"{k}_impact" for k in POWERUP_KINDS)),
    ("seat with more claims wins", tuple(f"{k}_more_claims_win_share" for k in POWERUP_KINDS)),
)


def _ci(pair: Optional[Sequence[float]], scale: float = 1.0) -> Tuple[Optional[float], Optional[float]]:
    if not pair:
        return None, None
    return pair[0] * scale, pair[1] * scale


def metric_rows(summary: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The summary's headline metrics as rows ``{metric, value, lo, hi}`` (``lo``/``hi``
    the 95 % interval, ``None`` where there is none)."""
    s = summary
    rows: List[Dict[str, Any]] = []

    def add(name: str, value: Any, ci: Tuple[Optional[float], Optional[float]] = (None, None)) -> None:
        rows.append({"metric": name, "value": None if value is None else float(value),
                     "lo": ci[0], "hi": ci[1]})

    add("x_win_rate", s["x_win_rate"], _ci(s["x_win_ci"]))
    add("o_win_rate", s["o_win_rate"], _ci(s["o_win_ci"]))
    add("draw_rate", s["draw_rate"], _ci(s["draw_ci"]))
    sa = s["seat_advantage"]
    add("x_share_of_decided", sa["x_share_of_decided"], _ci(sa["x_share_ci"]))
    add("round_x_share_of_decided", sa["round_x_share_of_decided"], _ci(sa["round_x_share_ci"]))
    add("round_draw_rate", s["round_draw_rate"], _ci(s["round_draw_ci"]))
    add("decisiveness", s["decisiveness"], _ci(s["decisiveness_ci"]))
    add("timeout_share", s["timeout_share"], _ci(s["timeout_share_ci"]))
    rl = s["round_length_ms"]
    add("round_length_s", None if rl["mean"] is None else rl["mean"] / 1000, _ci(rl["mean_ci"], 1e-3))
    mr = s["match_rounds"]
    add("match_rounds", mr["mean"], _ci(mr["mean_ci"]))
    ml = s["match_length_ms"]
    add("match_length_s", None if ml["mean"] is None else ml["mean"] / 1000, _ci(ml["mean_ci"], 1e-3))
    ko = s["knockouts_per_round"]
    add("knockouts_per_round", ko["mean"], _ci(ko["mean_ci"]))
    for kind in POWERUP_KINDS:
        add(f"{kind}_claims_per_round", s["powerups"][kind]["claims_per_round"])
    for kind in POWERUP_KINDS:
        p = s["powerups"][kind]
        base = p["baseline_win_rate"]
        lo, hi = _ci(p["claimer_win_ci"])
        add(f"{kind}_impact", p["impact"],
            (lo - base, hi - base) if lo is not None and base is not None else (None, None))
    for kind in POWERUP_KINDS:
        p = s["powerups"][kind]
        add(f"{kind}_more_claims_win_share", p["more_claims_win_share"], _ci(p["more_claims_win_ci"]))
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
    """The summary as the text table ``tictacblitz simulate`` prints."""
    rules = ", ".join(f"{k}={v}" for k, v in sorted(s["rules"].items())) or "defaults"
    where = (f"{s['workers']} worker thread(s)" if s.get("scheduler") is None
             else f"Dask scheduler {s['scheduler']}")
    cpu = f", {s['cpu_seconds']:.1f} s CPU" if s.get("cpu_seconds") is not None else ""
    lines = [
        f"simulate: {s['matches']:,} matches, X = {s['x_bot']}, O = {s['o_bot']}, seed {s['seed']}, "
        f"rules: {rules}",
        f"          {s['seconds']:.1f} s wall{cpu} on {where}: {s['matches_per_s']:,.0f} matches/s"
        + (f"; records in {s['out']}" if s.get("out") else ""),
        "",
    ]
    sa = s["seat_advantage"]
    r = s["rounds"]
    rows: List[Tuple[str, str]] = [
        ("matches: X wins / O wins / draws", f"{s['x_wins']:,} / {s['o_wins']:,} / {s['draws']:,}"),
        ("X match win rate [95% CI]", _pct(s["x_win_rate"], s["x_win_ci"])),
        ("O match win rate", _pct(s["o_win_rate"], s["o_win_ci"])),
        ("match draw rate", _pct(s["draw_rate"], s["draw_ci"])),
        ("seat advantage: X share of decided matches",
         _pct(sa["x_share_of_decided"], sa["x_share_ci"]) + ("  *" if sa["significant"] else "")),
        ("  ... of decided rounds", _pct(sa["round_x_share_of_decided"], sa["round_x_share_ci"])),
        ("rounds: X wins / O wins / draws", f"{r['x_wins']:,} / {r['o_wins']:,} / {r['draws']:,}"),
        ("round draw rate", _pct(s["round_draw_rate"], s["round_draw_ci"])),
        ("decisiveness: rounds won by a line", _pct(s["decisiveness"], s["decisiveness_ci"])),
        ("rounds ended by timeout (decided / drawn)",
         _pct(s["timeout_share"]) + f"  ({r['timeout_decided']:,} / {r['timeout_drawn']:,})"),
        ("double-line draws", f"{r['by_double_line']:,}"),
    ]
    rl, ml, mr, ko = s["round_length_ms"], s["match_length_ms"], s["match_rounds"], s["knockouts_per_round"]
    if rl["mean"] is not None:
        rows += [
            ("round length, s: mean [CI]", _num(rl["mean"], rl["mean_ci"], 1e-3)),
            ("  p10 / median / p90", f"{rl['p10'] / 1000:.1f} / {rl['median'] / 1000:.1f} / {rl['p90'] / 1000:.1f}"),
            ("match length, s: mean", _num(ml["mean"], ml["mean_ci"], 1e-3, 1)),
            ("  p10 / median / p90", f"{ml['p10'] / 1000:.1f} / {ml['median'] / 1000:.1f} / {ml['p90'] / 1000:.1f}"),
        ]
    dist = mr["distribution"]
    total = sum(dist.values()) or 1
    rows += [
        ("rounds a match: mean", _num(mr["mean"], mr["mean_ci"])),
        ("  distribution", "  ".join(f"{k}: {100 * v / total:.0f}%" for k, v in dist.items())),
        ("knock-outs a round: mean [CI]", _num(ko["mean"], ko["mean_ci"])),
        ("  X / O mean; median, p90", f"{_num(ko['x_mean'])} / {_num(ko['o_mean'])}; "
                                      f"{ko['median']}, {ko['p90']}"),
    ]
    for seat in ("X", "O"):
        c = s["seats"][seat]
        rows.append((f"{seat} a round: placements / retirements",
                     f"{_num(c['placements_per_round'])} / {_num(c['retirements_per_round'])}"))
    width = max(len(k) for k, _ in rows)
    lines += [f"{k:<{width}}  {v}" for k, v in rows]
    if sa["significant"]:        # the footnote of the "*" above, only when it is there
        lines += ["", "* the X share differs from 1/2 at 95 % (Wilson)"]
    lines += ["",
              "powerups (claims by X / O; a claimer = a seat that claimed the kind in a round):",
              f"{'kind':<7} {'claims':>9} {'X / O':>15} {'a round':>8}  "
              f"{'claimer wins [95% CI]':<24} {'baseline':>8} {'impact':>8}  {'more claims wins [CI]':<24}"]
    for kind in POWERUP_KINDS:
        p = s["powerups"][kind]
        ci = p["claimer_win_ci"]
        claimer = (f"{100 * p['claimer_win_rate']:.1f}% [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"
                   if p["claimer_win_rate"] is not None else "-")
        mci = p["more_claims_win_ci"]
        more = (f"{100 * p['more_claims_win_share']:.1f}% [{100 * mci[0]:.1f}, {100 * mci[1]:.1f}]"
                if p["more_claims_win_share"] is not None else "-")
        base = f"{100 * p['baseline_win_rate']:.1f}%" if p["baseline_win_rate"] is not None else "-"
        impact = f"{100 * p['impact']:+.1f}" if p["impact"] is not None else "-"
        per_round = f"{p['claims_per_round']:.2f}" if p["claims_per_round"] is not None else "-"
        lines.append(f"{kind:<7} {p['claims']:>9,} {p['claims_x']:>7,}/{p['claims_o']:<7,} "
                     f"{per_round:>8}  {claimer:<24} {base:>8} {impact:>8}  {more}")
    return "\n".join(lines)


# -- sweeps ------------------------------------------------------------------------------------


def _label(metric: str) -> str:
    return METRICS.get(metric, (metric, ""))[0]


def plot_sweep(rows: List[Dict[str, Any]], params: Sequence[str], param: str) -> bytes:
    """One PNG (bytes): every panel of :data:`PANELS` against ``param``, points with
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
    n = len(PANELS)
    fig, axes = plt.subplots((n + cols - 1) // cols, cols, figsize=(4.2 * cols, 3.3 * ((n + cols - 1) // cols)),
                             squeeze=False)
    for ax, (title, metrics) in zip(axes.flat, PANELS):
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
                name = metric.split("_")[0] if len(metrics) == 4 else _label(metric)
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
    fig.suptitle(f"tictacblitz sweep: metrics against {param} (95 % intervals)", fontsize=12)
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
    shown = ["x_share_of_decided", "draw_rate", "decisiveness", "round_length_s",
             "match_rounds", "knockouts_per_round"] + [f"{k}_impact" for k in POWERUP_KINDS]

    def cell(row: Optional[Dict[str, Any]]) -> str:
        if row is None or row["value"] is None:
            return "<td>-</td>"
        v = row["value"]
        text = f"{v:.3f}"
        if row["lo"] is not None:
            text += f" <small>[{row['lo']:.3f}, {row['hi']:.3f}]</small>"
        return f"<td>{text}</td>"

    head = "".join(f"<th>{esc(p)}</th>" for p in params) + "".join(
        f"<th>{esc(_label(m))}</th>" for m in shown)
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
<html lang="en"><head><meta charset="utf-8"><title>tictacblitz sweep</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; font-size: 0.85em; }}
th, td {{ border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: right; }}
th {{ background: #f4f4f4; }} small {{ color: #777; }} img {{ max-width: 100%; }}
</style></head><body>
<h1>tictacblitz sweep</h1>
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
