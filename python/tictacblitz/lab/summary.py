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
from .stats import ADJUSTMENT, ALPHA, Moments, holm, normal_p, wilson, wilson_or_none

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
        self.keys = hooks_for(game).seat_keys(rules)  # issue 25: one a seat
        self.players = len(self.keys)
        # every seat's wins, then the draws
        self.match_results = np.zeros(self.players + 1, np.int64)
        self.metrics = hooks_for(game).new_metrics(rules) or ColumnMeans(rules, game)

    def add(self, cols: Dict[str, Any]) -> None:
        """Fold in a chunk's columns (``winner``: the winning seat, or -1 for a draw)."""
        winner = np.asarray(cols["winner"]).astype(np.int64)
        codes = np.where(winner < 0, self.players, winner)
        self.matches += int(winner.size)
        self.match_results += np.bincount(codes, minlength=self.players + 1)[: self.players + 1]
        self.metrics.add(cols)

    def merge(self, other: "Summary") -> None:
        self.matches += other.matches
        self.match_results += other.match_results
        self.metrics.merge(other.metrics)

    def to_dict(self) -> Dict[str, Any]:
        """The metrics as a JSON-ready dict: the lab's, then the game's merged in."""
        if self.players != 2:
            return deep_merge(self._seats_dict(), self.metrics.to_dict())
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

    def _seats_dict(self) -> Dict[str, Any]:
        """The lab's part for three or four seats (issue 25): each seat's wins and share
        of matches, the draws, and each seat's share of the decided matches against the
        fair share 1/N, tested seat by seat (the score test the Wilson interval inverts),
        Holm-adjusted over the seats: ``significant`` when any seat's adjusted p < 5 %."""
        n, players = self.matches, self.players
        wins = [int(v) for v in self.match_results[:players]]
        dr = int(self.match_results[players])
        decided = n - dr
        fair = 1 / players
        out: Dict[str, Any] = {"matches": n, "seat_keys": list(self.keys)}
        for key, w in zip(self.keys, wins, strict=True):
            out[f"{key}_wins"] = w
        out["draws"] = dr
        for key, w in zip(self.keys, wins, strict=True):
            out[f"{key}_win_rate"] = w / n if n else None
            out[f"{key}_win_ci"] = list(wilson(w, n))
        out["draw_rate"] = dr / n if n else None
        out["draw_ci"] = list(wilson(dr, n))
        seat: Dict[str, Any] = {"fair_share": fair}
        pvalues = []
        for key, w in zip(self.keys, wins, strict=True):
            seat[f"{key}_share_of_decided"] = w / decided if decided else None
            seat[f"{key}_share_ci"] = wilson_or_none(w, decided)
            se = (fair * (1 - fair) / decided) ** 0.5 if decided else None
            pvalues.append(normal_p(w / decided - fair, se) if decided else None)
        adjusted = holm(pvalues)
        for key, p in zip(self.keys, adjusted, strict=True):
            seat[f"{key}_p_adjusted"] = p
        seat["adjustment"] = ADJUSTMENT
        seat["significant"] = any(p is not None and p <= ALPHA for p in adjusted)
        out["seat_advantage"] = seat
        return out
