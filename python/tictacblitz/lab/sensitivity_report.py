"""A sensitivity analysis's table, tornado plots and files (issue 24, item 2).

Files (into a temporary folder renamed in one step, as a sweep's): ``sensitivity.json``
(the job, the ranges, every statistic, every measured rule set's estimates),
``sensitivity.csv`` (one row a metric, method and rule: ``mu_star``, ``mu_star_conf``,
``mu``, ``sigma``, ``s1``, ``s1_conf``, ``st``, ``st_conf``, ``measurable``,
``noise``), ``points.csv`` (one row a measured rule set and metric: the rules, ``value``,
``lo``, ``hi``) and ``tornado_<metric>.png`` (one bar a rule: ``mu*`` with its 95 %
interval, the noise floor shaded; shares in percentage points). ``mu*`` is the mean
absolute change of the metric when the rule moves by 2/3 of its range
(:mod:`.sensitivity_analysis`).
"""

from __future__ import annotations

import io
import json
import os
from typing import Any, Dict, List

from .sensitivity_design import point_key
from .units import POINTS, is_share, label, plot_scale, unit

__all__ = [
    "format_result",
    "tornado_png",
    "write_outputs",
    "effect_text",
    "tornado_file",
    "stat_rows",
]


def effect_text(value: float, conf: float, unit_name: str) -> str:
    """``12.3 pp ± 2.1`` for a share or a difference of shares (``pp``: stored as a
    fraction, e.g. seat_gap), ``1.53 s ± 0.20`` otherwise."""
    if is_share(unit_name) or unit_name == POINTS:
        return f"{100 * value:.1f} pp ± {100 * conf:.1f}"
    tail = f" {unit_name}" if unit_name else ""
    return f"{_number(value)}{tail} ± {_number(conf)}"


def _number(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"


def _range_text(r: Any) -> str:
    fmt = "{:.0f}" if r.integer else "{:g}"
    return f"{fmt.format(r.low)}..{fmt.format(r.high)}" + ("" if r.default else " (--vary)")


def format_result(result: Any, out: str = "", rows: int = 12) -> str:
    """The console report: for each metric, the rules by Morris ``mu*`` (with intervals;
    below the noise floor: "not measurable"), then the Sobol indices."""
    game, meta = result.game, result.meta
    ranges = {r.name: r for r in result.ranges}
    lines = [
        f"sensitivity of {game} ({', '.join(meta['seats'])}): {meta['points']['morris']} "
        f"Morris rule sets ({meta['trajectories']} trajectories over {len(ranges)} rules)"
        + (
            f" and {meta['points']['sobol']} Sobol rule sets (N = {meta['sobol_samples']})"
            if "sobol" in meta["points"]
            else ""
        )
        + f", {meta['matches']:,} matches each on the same seeds; "
        f"{meta['matches_played']:,} matches, {meta['seconds']:.1f} s",
    ]
    for metric in result.metrics:
        u = unit(metric, game)
        floor = effect_text(result.noise_floor[metric], 0, u).split(" ±")[0]
        lines += [
            "",
            f"{label(metric, game)} ({metric}): Morris mu* ± 95 %, the mean change when a "
            f"rule moves by 2/3 of its range; noise floor {floor}",
        ]
        table = [("rule", "range", "mu* (effect)", "mu (signed)", "sigma")]
        for e in result.morris[metric][:rows]:
            shown = effect_text(e.mu_star, e.mu_star_conf, u) if e.measurable else "not measurable"
            table.append(
                (
                    e.rule,
                    _range_text(ranges[e.rule]),
                    shown,
                    effect_text(e.mu, 0, u).split(" ±")[0] if e.measurable else "-",
                    effect_text(e.sigma, 0, u).split(" ±")[0] if e.measurable else "-",
                )
            )
        lines += _columns(table)
        hidden = len(result.morris[metric]) - rows
        if hidden > 0:
            lines.append(f"  ... {hidden} more rules below (all in sensitivity.csv)")
        if result.sobol.get(metric):
            share = result.noise_share.get(metric)
            noise = "-" if share is None else f"{100 * share:.1f} %"
            lines.append(f"  Sobol (share of variance ± 95 %; noise's share {noise}):")
            sobol_rows = [("rule", "S1 (alone)", "ST (with interactions)")]
            for s in result.sobol[metric]:
                sobol_rows.append(
                    (
                        s.rule,
                        f"{100 * s.s1:.0f} % ± {100 * s.s1_conf:.0f}" if s.measurable else "-",
                        f"{100 * s.st:.0f} % ± {100 * s.st_conf:.0f}"
                        if s.measurable
                        else "not measurable",
                    )
                )
            lines += _columns(sobol_rows)
    lines += [
        "",
        "mu*: the mean absolute change of the metric when one rule moves by 2/3 of its range "
        "(shares in percentage points); mu: its signed mean; sigma: its spread "
        "(interactions); not measurable: below the noise floor (docs/sensitivity.md).",
    ]
    if meta["coarse"]:
        lines.append(
            "Integer rules are rounded; ranges with fewer values than the 4 Morris levels "
            f"under-read: {', '.join(meta['coarse'])}."
        )
    if any(meta["redrawn"].values()):
        lines.append(f"Blocks redrawn because the game refused a rule set: {meta['redrawn']}.")
    for metric, why in meta["skipped"].items():
        lines.append(f"{metric}: not analysed ({why}).")
    if out:
        lines += [
            "",
            f"wrote sensitivity.json, sensitivity.csv, points.csv and tornado_*.png in {out}",
        ]
    return "\n".join(lines)


def _columns(rows: List[tuple]) -> List[str]:
    width = [max(len(str(r[i])) for r in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(str(c).ljust(w) for c, w in zip(r, width, strict=True)) for r in rows]


def tornado_file(metric: str) -> str:
    return f"tornado_{metric.replace('.', '_')}.png"


def tornado_png(result: Any, metric: str, rows: int = 20) -> bytes:
    """One metric's tornado: a bar a rule, ``mu*`` with its interval, largest on top,
    the noise floor shaded."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    game = result.game
    scale, _ = plot_scale(metric, game)
    axis_unit = "pp" if scale == 100.0 else unit(metric, game)
    effects = list(reversed(result.morris[metric][:rows]))
    fig, ax = plt.subplots(figsize=(7, 0.35 * len(effects) + 1.6))
    ys = range(len(effects))
    ax.barh(
        list(ys),
        [e.mu_star * scale for e in effects],
        xerr=[e.mu_star_conf * scale for e in effects],
        color=["#1f77b4" if e.measurable else "#bbbbbb" for e in effects],
        capsize=2,
    )
    ax.axvspan(
        0, result.noise_floor[metric] * scale, color="#f4c7c3", alpha=0.6, label="noise floor"
    )
    ax.set_yticks(list(ys))
    ax.set_yticklabels([e.rule for e in effects], fontsize=8)
    ax.set_xlabel(f"mu*: change over 2/3 of the rule's range ({axis_unit})".replace(" ()", ""))
    ax.set_title(f"{game}: {label(metric, game)}", fontsize=10)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return buf.getvalue()


def stat_rows(result: Any) -> List[Dict[str, Any]]:
    out: List[Dict[str, Any]] = []
    for metric in result.metrics:
        for e in result.morris[metric]:
            out.append(
                {
                    "metric": metric,
                    "method": "morris",
                    **e._asdict(),
                    "noise": result.noise_floor[metric],
                }
            )
        for s in result.sobol.get(metric, []):
            out.append(
                {
                    "metric": metric,
                    "method": "sobol",
                    **s._asdict(),
                    "noise": result.noise_share.get(metric),
                }
            )
    return out


def _point_rows(result: Any) -> List[Dict[str, Any]]:
    out: List[Dict[str, Any]] = []
    seen = set()
    for design in result.designs.values():
        for point in design.distinct():
            key = point_key(point)
            if key in seen:
                continue
            seen.add(key)
            for metric, e in result.measured[key].items():
                out.append(
                    {
                        "point": len(seen) - 1,
                        **point,
                        "metric": metric,
                        "value": e.value,
                        "lo": e.low,
                        "hi": e.high,
                    }
                )
    return out


def write_outputs(result: Any, out_dir: str, *, overwrite: bool = False) -> Dict[str, str]:
    """Write the files (see the module doc) into ``out_dir`` in one rename."""
    from .sweep_files import write_csv, written_folder

    files: Dict[str, str] = {}
    with written_folder(out_dir, overwrite) as tmp:
        stats, points = stat_rows(result), _point_rows(result)
        write_csv(os.path.join(tmp, "sensitivity.csv"), stats)
        write_csv(os.path.join(tmp, "points.csv"), points)
        files.update(csv="sensitivity.csv", points="points.csv")
        document = {
            "meta": result.meta,
            "ranges": [r._asdict() for r in result.ranges],
            "statistics": stats,
            "points": points,
        }
        with open(os.path.join(tmp, "sensitivity.json"), "w", encoding="utf-8") as fh:
            json.dump(document, fh, indent=1)
        files["json"] = "sensitivity.json"
        for metric in result.metrics:
            name = tornado_file(metric)
            with open(os.path.join(tmp, name), "wb") as fh:
                fh.write(tornado_png(result, metric))
            files[f"png:{metric}"] = name
    return files
