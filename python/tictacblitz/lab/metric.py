"""A game's balance metric, declared once (issue 27, item 3), and the generic metrics the
lab computes for every game.

A metric used to be named up to five times in a game's balance module: ``METRICS``
(label, unit, explanation), ``metric_rows`` (where its value is in the summary),
``PANELS`` (its sweep plot), ``REPORT_COLUMNS``/``SWEEP_COLUMNS`` (the sweep tables) and
``PRECISION_METRICS`` (``simulate --precision``). A :class:`Metric` says all of it in one
place; a game's :class:`~tictacblitz.lab.adapter.LabAdapter` lists its metrics once and
the lab derives every one of those tables from the list (:func:`metric_table`,
:func:`panels`, :func:`columns`, :func:`precision_paths`, :func:`metric_rows`).

The first seat's score (a win 1, a draw 1/2, a loss 0: Doh's ``first_score``, Rift's
``x_score``, both games' ``seat_gap``) was computed per game under two names; it is
computed here, once (:func:`first_seat_score2`, :class:`FirstSeatScore`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..games.stats import Moments, quantiles

__all__ = [
    "Metric",
    "VALUE",
    "SHARE",
    "CATEGORY",
    "metric_table",
    "panels",
    "columns",
    "precision_paths",
    "metric_rows",
    "first_seat_score2",
    "FirstSeatScore",
    "first_seat_values",
]

VALUE, SHARE, CATEGORY = "value", "share", "category"
"""A metric's kinds: a number in its unit (turns, s, pp); a proportion (shown in %); the
share of one code of a category column (how a game ended, its first piece: a
proportion too, never averaged as a code)."""

Reader = Callable[[Dict[str, Any]], Optional[Tuple[Any, Any]]]
"""``summary -> (value, interval)``, or None when the summary has no such row."""


@dataclass(frozen=True)
class Metric:
    """One balance metric of a game: its name, its words, where the summary holds it, and
    where reports show it.

    :param name: the key (rows, A/B pairs, ``--precision``, tune targets).
    :param label: the words a designer reads; ``unit``: the unit of a value (``turns``,
        ``s``, ``pp``), ``"share"`` for a share or category; ``explanation``: one sentence.
    :param kind: :data:`VALUE`, :data:`SHARE` or :data:`CATEGORY` (default: share when
        the unit is ``"share"``, else value).
    :param value: the summary's JSON path of the value (``"game_length.mean"``), or a
        :data:`Reader`; None: the metric has no row (a label only).
    :param ci: the JSON path of its 95 % interval (None: none).
    :param per: the row is the summary's value divided by this (ms in the summary, s in
        the row: 1000).
    :param panel: the title of the sweep plot panel it is drawn in (None: not plotted).
    :param sweep: a column of the sweep command's text table; ``report``: of its HTML
        table; ``precision``: a metric of ``simulate --precision`` (its paths).
    :param row: a row of the summary's metric rows (False: a precision name only).
    """

    name: str
    label: str
    unit: str
    explanation: str = ""
    kind: str = ""
    value: Union[str, Reader, None] = None
    ci: Optional[str] = None
    per: float = 1
    panel: Optional[str] = None
    sweep: bool = False
    report: bool = False
    precision: bool = False
    row: bool = True

    def __post_init__(self) -> None:
        if not self.kind:
            object.__setattr__(self, "kind", SHARE if self.unit == SHARE else VALUE)
        if self.kind not in (VALUE, SHARE, CATEGORY):
            raise ValueError(f"metric {self.name}: unknown kind {self.kind!r}")
        if self.kind != VALUE and self.unit != SHARE:
            raise ValueError(f"metric {self.name}: a {self.kind} has the unit 'share'")
        if self.precision and not (isinstance(self.value, str) and self.per == 1):
            raise ValueError(f"metric {self.name}: --precision reads a plain summary path")

    def read(self, summary: Dict[str, Any]) -> Optional[Tuple[Any, Any]]:
        """(value, interval) of this metric in ``summary``, None when the summary has no
        such value (a two-player summary has no third seat's score)."""
        if self.value is None:
            return None
        if not isinstance(self.value, str):
            return self.value(summary)
        found, value = _at(summary, self.value)
        if not found:
            return None
        ci = _at(summary, self.ci)[1] if self.ci else None
        if self.per != 1:
            value = None if value is None else value / self.per
        return value, ci


def _at(summary: Dict[str, Any], path: str) -> Tuple[bool, Any]:
    value: Any = summary
    for key in path.split("."):
        if not isinstance(value, dict) or key not in value:
            return False, None
        value = value[key]
    return True, value


def metric_table(metrics: Sequence[Metric]) -> Dict[str, Tuple[str, str, str]]:
    """``{name: (label, unit, explanation)}``, in declaration order (the ``METRICS``
    table of units.py)."""
    return {m.name: (m.label, m.unit, m.explanation) for m in metrics}


def panels(metrics: Sequence[Metric]) -> Tuple[Tuple[str, Tuple[str, ...]], ...]:
    """The sweep plot's panels: ``(title, metrics)`` in order of first appearance."""
    out: Dict[str, List[str]] = {}
    for m in metrics:
        if m.panel is not None:
            out.setdefault(m.panel, []).append(m.name)
    return tuple((title, tuple(names)) for title, names in out.items())


def columns(metrics: Sequence[Metric], table: str) -> Tuple[str, ...]:
    """The metrics a sweep table shows after the lab's: ``table`` "sweep" or "report"."""
    return tuple(m.name for m in metrics if getattr(m, table))


def precision_paths(metrics: Sequence[Metric]) -> Dict[str, Tuple[str, str]]:
    """``{name: (value path, interval path)}`` of the ``--precision`` metrics."""
    return {m.name: (str(m.value), str(m.ci)) for m in metrics if m.precision}


def metric_rows(metrics: Sequence[Metric], summary: Dict[str, Any], add: Any) -> None:
    """Add every metric the summary holds as a row: ``add(name, value, (lo, hi), scale)``."""
    for m in metrics:
        found = m.read(summary) if m.row else None
        if found is None:
            continue
        if m.per != 1:
            add(m.name, found[0], found[1], 1 / m.per)
        else:
            add(m.name, found[0], found[1])


# -- the generic metrics: the first seat's score -----------------------------------------------


def first_seat_score2(winner: Any) -> np.ndarray:
    """The first seat's score in each match of a ``winner`` column (the winning seat, or
    negative for a draw), doubled to stay an integer: 2 a win, 1 a draw, 0 a loss. Its
    mean over 2 is the seat advantage (a win 1, a draw 1/2).

    >>> first_seat_score2([0, -1, 1]).tolist()
    [2, 1, 0]
    """
    w = np.asarray(winner).astype(np.int64)
    return np.where(w == 0, 2, np.where(w < 0, 1, 0))


def first_seat_values(winner: Any) -> Dict[str, Tuple[np.ndarray, np.ndarray, float]]:
    """Per-match ``(numerator, denominator, scale)`` of the first seat's score and of its
    gap to an even seat (``score - 1/2``), for the lab's paired A/B and ablation."""
    score2 = first_seat_score2(winner)
    two = np.full_like(score2, 2)
    return {"score": (score2, two, 1.0), "gap": (score2 - 1, two, 1.0)}


class FirstSeatScore:
    """The first seat's mean score over matches, with its 95 % interval (exact integer
    moments: order-free, mergeable)."""

    def __init__(self) -> None:
        self.score2 = Moments()

    def add(self, winner: Any) -> None:
        self.score2.add(first_seat_score2(winner))

    def merge(self, other: "FirstSeatScore") -> None:
        self.score2.merge(other.score2)

    def score(self, clip: bool = False) -> Tuple[Optional[float], Optional[List[float]]]:
        """(mean score, its interval); ``clip``: the interval kept within [0, 1]."""
        mean, ci = self.score2.mean_ci()
        value = None if mean is None else mean / 2
        if ci is None:
            return value, None
        if clip:
            return value, [max(ci[0] / 2, 0.0), min(ci[1] / 2, 1.0)]
        return value, [ci[0] / 2, ci[1] / 2]

    def gap(self) -> Tuple[Optional[float], Optional[List[float]]]:
        """(mean score - 1/2, its interval): 0 is an even seat."""
        mean, ci = self.score2.mean_ci()
        value = None if mean is None else mean / 2 - 0.5
        return value, None if ci is None else [ci[0] / 2 - 0.5, ci[1] / 2 - 0.5]


def game_length_summary(length: Moments, hist: np.ndarray) -> Dict[str, Any]:
    """The summary's ``game_length`` block of a game counted in plies or turns (``hist``:
    games by length): the mean with its 95 % interval, the 10th, 50th and 90th
    percentiles, and the distribution. Written once for Doh, Doh of three or four seats
    and Rift & Grid (issue 27, item 3)."""
    mean, mean_ci = length.mean_ci()
    p10, p50, p90 = quantiles(hist, 1, (0.1, 0.5, 0.9))
    return {
        "mean": mean,
        "mean_ci": mean_ci,
        "p10": p10,
        "median": p50,
        "p90": p90,
        "distribution": {str(k): int(v) for k, v in enumerate(hist) if v},
    }
