"""One set of units for every human-facing table of the lab (simulate, sweep's console
table and HTML report, its plots, the tournament): shares as percentages with their 95 %
intervals (``48.8 %  [45.7, 51.9]``), differences of shares in percentage points
(``+3.1 pp  [+1.2, +5.0]``), other numbers in their own unit. JSON keeps fractions.

The lab's own metrics are named here (:data:`METRICS`: key -> (label, unit,
explanation)); a game adds its own through its ``METRICS`` hook (same shape; the
explanation may be left out). :func:`metrics_of` is the merged vocabulary, and
:func:`legend` the lines ``--explain`` prints.

>>> pct(0.488, (0.457, 0.519))
'48.8 %  [45.7, 51.9]'
>>> diff(0.031, (0.012, 0.05), "share")
'+3.1 pp  [+1.2, +5.0]'
>>> show(35.4, (35.03, 35.76), "s")
'35.40 s  [35.03, 35.76]'
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .columns import MEAN, code_columns, share_name
from .hooks import hooks_for

__all__ = [
    "SHARE",
    "POINTS",
    "METRICS",
    "RUN_METRICS",
    "pct",
    "num",
    "show",
    "diff",
    "is_share",
    "metrics_of",
    "label",
    "unit",
    "explanation",
    "legend",
    "plot_scale",
    "unit_words",
]

SHARE = "share"
"""The unit of a proportion: shown as a percentage, a difference in percentage points."""
POINTS = "pp"
"""The unit of a difference of two proportions: shown in percentage points."""

METRICS: Dict[str, Tuple[str, str, str]] = {
    "x_win_rate": ("X wins the match", SHARE, "matches the first seat won, of all matches"),
    "o_win_rate": ("O wins the match", SHARE, "matches the second seat won, of all matches"),
    "draw_rate": ("match drawn", SHARE, "matches neither seat won"),
    "x_share_of_decided": (
        "X's share of decided matches",
        SHARE,
        "of the matches someone won, the share X won: 50 % is a fair seat "
        "(with the same bot in both seats); with two different bots it mixes "
        "bot strength and seat (simulate then swaps seats to separate them)",
    ),
}
RUN_METRICS: Dict[str, Tuple[str, str, str]] = {
    "matches_per_s": (
        "matches per second",
        "matches/s",
        "how fast the run was (not a balance metric)",
    ),
}


def is_share(unit_name: Optional[str]) -> bool:
    return unit_name == SHARE


def pct(value: Optional[float], ci: Optional[Sequence[float]] = None) -> str:
    """A share as a percentage with its interval; ``-`` for none."""
    if value is None:
        return "-"
    text = f"{100 * value:.1f} %"
    if ci:
        text += f"  [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"
    return text


def num(
    value: Optional[float],
    ci: Optional[Sequence[float]] = None,
    scale: float = 1.0,
    digits: int = 2,
    unit_name: str = "",
) -> str:
    """A number (times ``scale``) with its interval and unit; ``-`` for none."""
    if value is None:
        return "-"
    tail = f" {unit_name}" if unit_name and unit_name != SHARE else ""
    text = f"{value * scale:.{digits}f}{tail}"
    if ci:
        text += f"  [{ci[0] * scale:.{digits}f}, {ci[1] * scale:.{digits}f}]"
    return text


def show(value: Optional[float], ci: Optional[Sequence[float]], unit_name: str) -> str:
    """A metric's value as its unit says: a share as a percentage, else a number."""
    if is_share(unit_name):
        return pct(value, ci)
    if unit_name == POINTS:
        return diff(value, ci, SHARE)
    shown_unit = unit_name if unit_name in ("s", "ms") else ""
    return num(value, ci, unit_name=shown_unit)


def diff(value: Optional[float], ci: Optional[Sequence[float]], unit_name: str) -> str:
    """A difference: percentage points for shares (and for a metric already in points,
    such as Blitz's seat_gap), a signed number otherwise."""
    if value is None:
        return "-"
    if is_share(unit_name) or unit_name == POINTS:
        text = f"{100 * value:+.1f} pp"
        if ci:
            text += f"  [{100 * ci[0]:+.1f}, {100 * ci[1]:+.1f}]"
        return text
    tail = " s" if unit_name == "s" else ""
    text = f"{value:+.2f}{tail}"
    if ci:
        text += f"  [{ci[0]:+.2f}, {ci[1]:+.2f}]"
    return text


def _entry(value: Sequence[str]) -> Tuple[str, str, str]:
    label_, unit_ = value[0], value[1]
    return (label_, unit_, value[2] if len(value) > 2 else "")


def seat_words(text: str, game: str) -> str:
    """``text`` with the lab's seat names X and O (seats 0 and 1) in the game's own words
    (``GameType.seat_names``: Doh's "first" and "second"); unchanged for X/O games."""
    names = hooks_for(game).type.seat_names
    if tuple(names) == ("X", "O"):
        return text
    return re.sub(r"\b[XO]\b", lambda m: names[0] if m.group(0) == "X" else names[1], text)


def seat_metrics(game_type: Any) -> Dict[str, Tuple[str, str, str]]:
    """The lab's per-seat metrics of a game that may seat three or four players (issue
    25; its ``GameType.max_num_players``): each seat's win rate and share of decided
    matches, keyed by the seat's name (lab/seating.py)."""
    most = int(getattr(game_type, "max_num_players", 2))
    out: Dict[str, Tuple[str, str, str]] = {}
    if most <= 2:
        return out
    names = list(game_type.seat_names[:most])
    for name in names:
        out[f"{name.lower()}_win_rate"] = (
            f"{name} wins the match",
            SHARE,
            f"matches the {name} seat won, of all matches (three or four players)",
        )
    for name in names:
        out[f"{name.lower()}_share_of_decided"] = (
            f"{name}'s share of decided matches",
            SHARE,
            f"of the matches someone won, the share the {name} seat won: 1/N is a fair seat "
            "with the same bot in every seat (three or four players)",
        )
    return out


def metrics_of(game: str) -> Dict[str, Tuple[str, str, str]]:
    """Every metric of ``game`` a table may show: key -> (label, unit, explanation), the
    lab's first, then the game's ``METRICS`` hook, then the run's speed."""
    out = {k: _entry(v) for k, v in METRICS.items()}
    out.update(seat_metrics(hooks_for(game).type))
    for k, v in (hooks_for(game).get("METRICS") or {}).items():
        out[k] = _entry(v)
    out.update(RUN_METRICS)
    return {k: (seat_words(v[0], game), v[1], seat_words(v[2], game)) for k, v in out.items()}


def _code_share(metric: str, game: str) -> Optional[Tuple[str, str]]:
    """(column, code) when ``metric`` is the lab's share of one code of a category
    column (:mod:`~tictacblitz.lab.columns`), else None."""
    for column, codes in code_columns(hooks_for(game)).items():
        for code in codes:
            if metric == share_name(column, code):
                return column, code
    return None


def label(metric: str, game: str) -> str:
    """The words a designer reads for ``metric`` (a per-match column's mean: "NAME a
    match (mean)"; a code's share: "NAME: CODE (share of matches)")."""
    known = metrics_of(game).get(metric)
    if known is not None:
        return known[0]
    coded = _code_share(metric, game)
    if coded is not None:
        return f"{coded[0].replace('_', ' ')}: {coded[1]} (share of matches)"
    if metric.endswith(MEAN):
        return f"{metric[: -len(MEAN)].replace('_', ' ')} a match (mean)"
    return metric.replace("_", " ")


def unit(metric: str, game: str) -> str:
    known = metrics_of(game).get(metric)
    if known is not None:
        return known[1]
    return SHARE if _code_share(metric, game) is not None else ""


def explanation(metric: str, game: str) -> str:
    known = metrics_of(game).get(metric)
    if known is not None and known[2]:
        return known[2]
    coded = _code_share(metric, game)
    if coded is not None:
        return f"matches whose {coded[0]!r} column has code {coded[1]!r}, of all matches"
    if metric.endswith(MEAN):
        return f"the mean of the runner's per-match column {metric[: -len(MEAN)]!r}"
    return ""


def plot_scale(metric: str, game: str) -> Tuple[float, str]:
    """(factor, axis unit) a plot multiplies ``metric`` by: shares as percentages."""
    u = unit(metric, game)
    if u == POINTS:
        return 100.0, "pp"
    return (100.0, "%") if is_share(u) else (1.0, u)


def legend(game: str, metrics: Optional[Sequence[str]] = None) -> List[str]:
    """Lines explaining every column once (what ``--explain`` prints)."""
    names = list(metrics) if metrics is not None else list(metrics_of(game))
    lines = [
        "Units: shares are percentages of matches (or of rounds, where the name says "
        "so); [a, b] is the 95 % interval; a difference of shares is in percentage "
        "points (pp). JSON output keeps fractions (0.5 = 50 %)."
    ]
    for m in names:
        text = explanation(m, game) or "(no definition)"
        lines.append(f"  {label(m, game)} [{unit_words(unit(m, game))}]: {text}")
    return lines


def unit_words(unit_name: str) -> str:
    """A unit as a legend names it: a share is a percentage, a difference of shares in
    percentage points; any other unit as it is (``plies``, ``s``...); "number" for none."""
    if is_share(unit_name):
        return "%"
    if unit_name == POINTS:
        return "pp"
    return unit_name or "number"


def rows_of(names: Sequence[str], values: Dict[str, Any], game: str) -> List[Tuple[str, str]]:
    """(label, shown value) rows for the metrics ``names`` of ``values`` (``{name:
    {"value", "ci"}}``)."""
    return [
        (label(n, game), show(values[n]["value"], values[n].get("ci"), unit(n, game)))
        for n in names
        if n in values
    ]
