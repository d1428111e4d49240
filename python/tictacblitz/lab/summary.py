"""The balance summary of a simulation, for any game: match results with 95 % Wilson
intervals and the seat advantage, plus the game's extra metrics (its ``Metrics`` hook;
without one, :class:`ColumnMeans`: the mean of every per-match value column its runner
returns, the share of each code of a category column), accumulated chunk by chunk from
exact integer counters (so it does not depend on the order chunks arrive in) and
mergeable. docs/simulate.md defines every metric.
"""

from __future__ import annotations

from typing import Any, Dict

import numpy as np

from ..games.registry import DEFAULT_GAME
from .columns import MEAN, NOT_METRICS, code_columns, per_match, share_name
from .hooks import hooks_for
from .stats import Moments, wilson, wilson_or_none

__all__ = ["Summary", "ColumnMeans", "deep_merge", "NOT_METRICS"]


class ColumnMeans:
    """The default extra metrics of a game without a ``Metrics`` hook, from its runner's
    per-match columns (:func:`~tictacblitz.lab.columns.per_match`): a value column's
    mean with its 95 % interval (summary key ``columns.NAME`` = ``{"mean", "mean_ci",
    "total"}``; a ``(n, 2)`` column per seat as ``NAME_x``/``NAME_o``), and each code of
    a category column as a share of matches with its Wilson interval (``codes.NAME.CODE``
    = ``{"share", "share_ci", "matches"}``): a code is never averaged (issue 22)."""

    def __init__(self, rules: Any = None, game: str = DEFAULT_GAME) -> None:
        self.hooks = hooks_for(game)
        self.moments: Dict[str, Moments] = {}

    def add(self, cols: Dict[str, Any]) -> None:
        for metric, num, _ in per_match(cols, self.hooks):
            self.moments.setdefault(metric, Moments()).add(num)

    def merge(self, other: "ColumnMeans") -> None:
        for name, m in other.moments.items():
            self.moments.setdefault(name, Moments()).merge(m)

    def to_dict(self) -> Dict[str, Any]:
        means: Dict[str, Any] = {}
        codes: Dict[str, Dict[str, Any]] = {}
        for column, names in code_columns(self.hooks).items():
            for code in names:
                m = self.moments.get(share_name(column, code))
                if m is not None:
                    codes.setdefault(column, {})[code] = {
                        "share": m.s / m.n if m.n else None,
                        "share_ci": wilson_or_none(m.s, m.n),
                        "matches": m.s,
                    }
        for name, m in self.moments.items():
            if name.endswith(MEAN):
                mean, ci = m.mean_ci()
                means[name[: -len(MEAN)]] = {"mean": mean, "mean_ci": ci, "total": m.s}
        return {"columns": means, **({"codes": codes} if codes else {})}


def deep_merge(base: Dict[str, Any], extra: Dict[str, Any]) -> Dict[str, Any]:
    """``base`` with ``extra``'s keys added (dicts under the same key merged, in place)."""
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            deep_merge(base[key], value)
        else:
            base[key] = value
    return base


class Summary:
    """What balancing people read off a simulation of game ``game`` under ``rules``:
    :meth:`add` each chunk's columns, :meth:`to_dict` for the metrics."""

    def __init__(self, rules: Any, game: str = DEFAULT_GAME) -> None:
        self.game = game
        self.rules = rules
        self.matches = 0
        self.match_results = np.zeros(3, np.int64)  # seat 0 wins, seat 1 wins, draws
        self.metrics = hooks_for(game).new_metrics(rules) or ColumnMeans(rules, game)

    def add(self, cols: Dict[str, Any]) -> None:
        """Fold in a chunk's columns (``winner``: 0, 1 or -1 for a draw)."""
        winner = np.asarray(cols["winner"]).astype(np.int64)
        codes = np.where(winner < 0, 2, winner)
        self.matches += int(winner.size)
        self.match_results += np.bincount(codes, minlength=3)[:3]
        self.metrics.add(cols)

    def merge(self, other: "Summary") -> None:
        self.matches += other.matches
        self.match_results += other.match_results
        self.metrics.merge(other.metrics)

    def to_dict(self) -> Dict[str, Any]:
        """The metrics as a JSON-ready dict: the lab's, then the game's merged in."""
        n = self.matches
        xw, ow, dr = (int(v) for v in self.match_results)
        decided = xw + ow
        x_share_ci = wilson_or_none(xw, decided)
        out: Dict[str, Any] = {
            "matches": n,
            "x_wins": xw,
            "o_wins": ow,
            "draws": dr,
            "x_win_rate": xw / n if n else None,
            "x_win_ci": list(wilson(xw, n)),
            "o_win_rate": ow / n if n else None,
            "o_win_ci": list(wilson(ow, n)),
            "draw_rate": dr / n if n else None,
            "draw_ci": list(wilson(dr, n)),
            "seat_advantage": {
                "x_share_of_decided": xw / decided if decided else None,
                "x_share_ci": x_share_ci,
                "significant": bool(
                    x_share_ci is not None and (x_share_ci[0] > 0.5 or x_share_ci[1] < 0.5)
                ),
            },
        }
        return deep_merge(out, self.metrics.to_dict())
