"""Reports of simulations of any game: the summary as a text table and the flat metric
rows a sweep tabulates (its plots and HTML page: :mod:`~tictacblitz.lab.plots`).

The metrics are defined in docs/simulate.md; :func:`metric_rows` is the one list of
them that tables and plots read: the lab's match-level metrics, then the game's (its
``metric_rows``/``METRICS``/``PANELS``/``summary_lines`` hooks; without them, the
``NAME_mean`` of every per-match value column the summary's ``columns`` holds, and
``NAME_CODE_share`` of every code of a category column, in ``codes``).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..games.registry import DEFAULT_GAME
from .answers import format_ablation, format_comparison, format_seats
from .columns import MEAN, share_name
from .hooks import GameHooks, hooks_for
from .seating import LEGACY_KEYS, bots_text, same_bots, summary_keys
from .units import METRICS as UNIT_METRICS
from .units import RUN_METRICS as UNIT_RUN_METRICS
from .units import label, legend, num, pct, seat_metrics, seat_words
from .units import metrics_of as vocabulary

__all__ = [
    "format_summary",
    "summary_table",
    "metric_rows",
    "metrics_of",
    "panels_of",
    "METRICS",
    "PANELS",
    "column_metrics",
]

# name -> (label, unit) of the lab's metrics (every game), in table order: the one
# vocabulary is lab/units.py (with an explanation of each); a game's METRICS hook adds its
# own after these, and matches_per_s comes last.
METRICS: Dict[str, Tuple[str, str]] = {k: v[:2] for k, v in UNIT_METRICS.items()}
RUN_METRICS: Dict[str, Tuple[str, str]] = {k: v[:2] for k, v in UNIT_RUN_METRICS.items()}

# The sweep report's panels: a title and the metrics drawn in it (a game's PANELS hook
# adds metrics to a panel of the same title, or new panels after these).
PANELS: Tuple[Tuple[str, Tuple[str, ...]], ...] = (
    ("match results", ("x_win_rate", "o_win_rate", "draw_rate")),
    ("seat advantage: X's share of decided matches", ("x_share_of_decided",)),
)


def _hooks(summary_or_meta: Dict[str, Any]) -> GameHooks:
    return hooks_for(summary_or_meta.get("game", DEFAULT_GAME))


def metrics_of(game: str = DEFAULT_GAME) -> Dict[str, Tuple[str, str]]:
    """Every metric a sweep of ``game`` tabulates: name -> (label, unit), in order."""
    return {k: v[:2] for k, v in vocabulary(game).items()}


def panels_of(game: str = DEFAULT_GAME) -> Tuple[Tuple[str, Tuple[str, ...]], ...]:
    """The sweep report's panels for ``game``: the lab's, with the game's merged in."""
    panels = {title: list(metrics) for title, metrics in PANELS}
    seated = [m for m in seat_metrics(hooks_for(game).type) if m.endswith("_win_rate")]
    panels["match results"] += seated  # issue 25: a game of three or four seats
    panels["seats of three or four: share of decided matches"] = [
        m for m in seat_metrics(hooks_for(game).type) if m.endswith("_share_of_decided")
    ]
    if not panels["seats of three or four: share of decided matches"]:
        del panels["seats of three or four: share of decided matches"]
    for title, metrics in hooks_for(game).get("PANELS") or ():
        panels.setdefault(title, []).extend(metrics)
    return tuple((title, tuple(metrics)) for title, metrics in panels.items())


def _ci(
    pair: Optional[Sequence[float]], scale: float = 1.0
) -> Tuple[Optional[float], Optional[float]]:
    if not pair:
        return None, None
    return pair[0] * scale, pair[1] * scale


def metric_rows(summary: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The summary's headline metrics as rows ``{metric, value, lo, hi}`` (``lo``/``hi``
    the 95 % interval, ``None`` where there is none): the lab's, then the game's
    (its ``metric_rows`` hook), then ``matches_per_s``."""
    s = summary
    rows: List[Dict[str, Any]] = []

    def add(
        name: str, value: Any, ci: Optional[Sequence[float]] = None, scale: float = 1.0
    ) -> None:
        lo, hi = _ci(ci, scale)
        rows.append(
            {"metric": name, "value": None if value is None else float(value), "lo": lo, "hi": hi}
        )

    keys = summary_keys(s)
    for k in keys:  # issue 25: one a seat (x and o for two)
        add(f"{k}_win_rate", s[f"{k}_win_rate"], s[f"{k}_win_ci"])
    add("draw_rate", s["draw_rate"], s["draw_ci"])
    sa = s["seat_advantage"]
    for k in keys[:1] if keys == LEGACY_KEYS else keys:
        add(f"{k}_share_of_decided", sa[f"{k}_share_of_decided"], sa[f"{k}_share_ci"])
    hook = _hooks(s).get("metric_rows")
    if hook is not None:
        hook(s, add)
    for name, c in s.get("columns", {}).items():  # a game without the hook
        add(f"{name}{MEAN}", c["mean"], c["mean_ci"])
    for column, codes in s.get("codes", {}).items():  # a category: shares, never a mean
        for code, c in codes.items():
            add(share_name(column, code), c["share"], c["share_ci"])
    add("matches_per_s", s.get("matches_per_s"))
    return rows


def summary_table(s: Dict[str, Any]) -> Tuple[List[str], List[Tuple[str, str]], List[str]]:
    """(heading lines, (label, value) rows, lines after the rows) of a summary: the lab's
    rows, then the game's (its ``summary_lines`` hook). Shares are percentages with
    their 95 % intervals."""
    hooks = _hooks(s)
    game = s.get("game", DEFAULT_GAME)
    rules = ", ".join(f"{k}={v}" for k, v in sorted(s["rules"].items())) or "defaults"
    options = "".join(f", {k} {v}" for k, v in sorted((s.get("options") or {}).items()))
    where = (
        f"{s['workers']} worker thread(s)"
        if s.get("scheduler") is None
        else f"Dask scheduler {s['scheduler']}"
    )
    cpu = f", {s['cpu_seconds']:.1f} s CPU" if s.get("cpu_seconds") is not None else ""
    runs = (
        1
        + sum(1 for k in ("comparison", "seat_swap") if s.get(k))
        + len((s.get("ablation") or {}).get("features", {}))
    )
    speed = f"{s['matches_per_s']:,.0f}" if s.get("matches_per_s") else "-"
    head = [
        f"simulate: {hooks.type.long_name}, {s['matches']:,} matches, {bots_text(s)}, "
        f"seed {s['seed']}, rules: {rules}{options}",
        f"          {s['seconds']:.1f} s wall{cpu} on {where}: {speed} matches/s"
        + (f" ({runs} runs of the same seeds)" if runs > 1 else "")
        + (f"; records in {s['out']}" if s.get("out") else ""),
    ]
    sa = s["seat_advantage"]
    keys = summary_keys(s)
    if keys != LEGACY_KEYS:
        rows = seat_rows(s, keys, game)
    else:
        seat_label = (
            "seat advantage: X's share of decided matches"
            if same_bots(s)
            else "X's share of decided matches (bot strength and seat)"
        )
        rows = [
            (
                "matches: X wins / O wins / draws",
                f"{s['x_wins']:,} / {s['o_wins']:,} / {s['draws']:,}",
            ),
            (f"{label('x_win_rate', game)} [95 % interval]", pct(s["x_win_rate"], s["x_win_ci"])),
            (label("o_win_rate", game), pct(s["o_win_rate"], s["o_win_ci"])),
            (label("draw_rate", game), pct(s["draw_rate"], s["draw_ci"])),
            (
                seat_label,
                pct(sa["x_share_of_decided"], sa["x_share_ci"])
                + ("  *" if sa["significant"] else ""),
            ),
        ]
    after: List[str] = []
    hook: Optional[Callable[..., Any]] = hooks.get("summary_lines")
    if hook is not None:
        more, after = hook(s, pct, num)
        rows += more
    for name, c in s.get("columns", {}).items():  # a game without the hook
        rows.append((f"{name} a match: mean [95 % interval]", num(c["mean"], c["mean_ci"])))
    for column, codes in s.get("codes", {}).items():
        for code, c in codes.items():
            rows.append((label(share_name(column, code), game), pct(c["share"], c["share_ci"])))
    notes: List[str] = []
    if sa["significant"] and keys == LEGACY_KEYS:  # the "*" above's footnote, when it is there
        notes = [
            "",
            "* X's share differs from 50 % at 95 % (Wilson)"
            + ("" if same_bots(s) else ": with two different bots, see 'Seats' below"),
        ]
    elif sa["significant"]:
        notes = [
            "",
            f"* the seat's share of decided matches differs from 1/{len(keys)} at 5 % after "
            f"{sa['adjustment']}'s correction for the {len(keys)} seats tested",
        ]
    return head, rows, notes + after


def seat_rows(s: Dict[str, Any], keys: Sequence[str], game: str) -> List[Tuple[str, str]]:
    """The match-result rows of a three- or four-seat summary (issue 25): each seat's
    wins, then its share of decided matches against the fair 1/N (``*``: Holm-adjusted
    p <= 5 %)."""
    sa = s["seat_advantage"]
    wins = " / ".join(f"{s[f'{k}_wins']:,}" for k in keys)
    rows = [(f"matches: {' / '.join(keys)} wins / draws", f"{wins} / {s['draws']:,}")]
    for i, k in enumerate(keys):
        rows.append(
            (
                label(f"{k}_win_rate", game) + (" [95 % interval]" if i == 0 else ""),
                pct(s[f"{k}_win_rate"], s[f"{k}_win_ci"]),
            )
        )
    rows.append((label("draw_rate", game), pct(s["draw_rate"], s["draw_ci"])))
    for k in keys:
        p = sa.get(f"{k}_p_adjusted")
        star = "  *" if p is not None and p <= 0.05 else ""
        rows.append(
            (
                f"{label(f'{k}_share_of_decided', game)} (fair: {100 / len(keys):.1f} %)",
                pct(sa[f"{k}_share_of_decided"], sa[f"{k}_share_ci"]) + star,
            )
        )
    return rows


def format_summary(s: Dict[str, Any], explain: bool = False) -> str:
    """The summary as the text table ``tictacblitz simulate`` prints (:func:`summary_table`),
    then the answers of the extra runs (A/B, seats, ablation;
    :mod:`~tictacblitz.lab.answers`); ``explain``: a legend of every metric after it."""
    game = s.get("game", DEFAULT_GAME)
    head, rows, after = summary_table(s)
    width = max(len(k) for k, _ in rows)
    lines = [*head, "", *(f"{k:<{width}}  {v}" for k, v in rows), *after]
    lines += format_comparison(s) + format_seats(s) + format_ablation(s)
    if explain:
        shown = [m for m in vocabulary(game) if m != "matches_per_s"]
        lines += ["", *legend(game, shown)]
    else:
        lines += ["", "(--explain prints what every metric means)"]
    return seat_words("\n".join(lines), game)


# -- sweeps (their plots and HTML page: lab/plots.py) ---------------------------------------


def column_metrics(rows: List[Dict[str, Any]], limit: int = 12) -> List[str]:
    """The per-match column means among a sweep's rows (games without metric hooks)."""
    found: List[str] = []
    for row in rows:
        m = row["metric"]
        if m.endswith(MEAN) and m not in found:
            found.append(m)
    return found[:limit]
