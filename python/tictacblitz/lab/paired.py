"""Paired comparisons of two runs over the same match seeds: the difference of a metric
and its 95 % interval, computed from match-level pairs.

Two runs that play the same seeds (variant rules vs base rules; a game with a feature vs
without; the two seat assignments of two bots) differ only by what was changed, and the
luck of each seed cancels. Every metric is a *ratio* of per-match sums (``num / den``:
X wins over matches; rounds won by a line over rounds; round milliseconds over rounds),
so a match is the unit of pairing: :class:`PairedRatios` keeps, for each metric, the
exact integer sums of ``(num_a, den_a, num_b, den_b)`` per match and of their pairwise
products, and gives the difference ``A - B`` (or the pooled ratio of both runs) with a
delta-method normal interval whose variance counts the correlation between the sides
(clustered by seed). Exact integer counters make the result independent of the order
chunks arrive in.

Pairing narrows an interval only as far as the two runs' per-match values correlate
(issue 22 measured no correlation in Blitz under its first stream layout). So
:meth:`PairedRatios.table` also gives the unpaired interval (the same delta method with
the covariance between the runs set to 0: two independent samples), the ratio of the
two widths (the pairing gain), and uses the paired interval only where it is the
narrower one (docs/simulate.md, "How much pairing buys").

Per-match values come from :func:`match_values`: the lab's (seat wins, draws) and the
game's (its ``match_values(cols)`` hook; without one, every per-match value column's
mean and every code's share of a category column, :mod:`~tictacblitz.lab.columns`).
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .columns import NOT_METRICS, per_match
from .hooks import hooks_for
from .seating import LEGACY_KEYS
from .stats import Z95, newcombe_hybrid, newcombe_paired, normal_p, wilson

__all__ = ["PairedRatios", "match_values", "NOT_METRICS"]


def match_values(
    cols: Dict[str, Any], game: str, keys: Sequence[str] = LEGACY_KEYS
) -> Dict[str, Tuple[np.ndarray, np.ndarray, float]]:
    """``{metric: (num, den, scale)}``, one integer a match each: the metric is
    ``scale * sum(num) / sum(den)`` (same keys as the sweep's metric rows). ``keys``:
    the run's seats (:mod:`~tictacblitz.lab.seating`; three or four: each seat's win rate
    and share of decided matches)."""
    w = np.asarray(cols["winner"]).astype(np.int64)
    one = np.ones_like(w)
    decided = (w >= 0).astype(np.int64)
    out: Dict[str, Tuple[np.ndarray, np.ndarray, float]] = {}
    for k, key in enumerate(keys):
        out[f"{key}_win_rate"] = ((w == k).astype(np.int64), one, 1.0)
    out["draw_rate"] = ((w < 0).astype(np.int64), one, 1.0)
    for k, key in enumerate(keys if tuple(keys) != LEGACY_KEYS else keys[:1]):
        out[f"{key}_share_of_decided"] = ((w == k).astype(np.int64), decided, 1.0)
    hook = hooks_for(game).get("match_values")
    if hook is not None:
        for name, value in hook(cols).items():
            num, den = value[0], value[1]
            out[name] = (
                np.asarray(num).astype(np.int64),
                np.asarray(den).astype(np.int64),
                float(value[2]) if len(value) > 2 else 1.0,
            )
        return out
    for name, num, den in per_match(cols, hooks_for(game)):  # a code column: shares only
        out[name] = (num, den, 1.0)
    return out


def _width_ratio(paired: Optional[List[float]], unpaired: Optional[List[float]]) -> Optional[float]:
    """The paired interval's width over the unpaired one's (None when either has none)."""
    if paired is None or unpaired is None or unpaired[1] <= unpaired[0]:
        return None
    return (paired[1] - paired[0]) / (unpaired[1] - unpaired[0])


def _difference_grad(m: np.ndarray) -> Any:
    """a/b - c/d of the mean sums (a, b, c, d) and its gradient."""
    a, b, c, d = m
    if b <= 0 or d <= 0:
        return None
    return a / b - c / d, [1 / b, -a / b**2, -1 / d, c / d**2]


class PairedRatios:
    """Match-level pairs of ratio metrics from run A and run B over the same seeds."""

    def __init__(self) -> None:
        self.n = 0
        self.sums: Dict[str, List[int]] = {}
        self.products: Dict[str, List[List[int]]] = {}
        self.scale: Dict[str, float] = {}
        self.share: Dict[str, bool] = {}  # 0 <= num <= den in every match: a proportion

    def add(
        self,
        a: Dict[str, Tuple[np.ndarray, np.ndarray, float]],
        b: Dict[str, Tuple[np.ndarray, np.ndarray, float]],
    ) -> None:
        """Fold in one chunk's per-match values of both runs (the same matches, in order)."""
        first = True
        for name in a:
            if name not in b:
                continue
            v = np.stack([a[name][0], a[name][1], b[name][0], b[name][1]], axis=1).astype(np.int64)
            if first:
                self.n += int(v.shape[0])
                first = False
            s = self.sums.setdefault(name, [0, 0, 0, 0])
            p = self.products.setdefault(name, [[0] * 4 for _ in range(4)])
            col = v.sum(axis=0).tolist()
            prod = (v.T @ v).tolist()
            for i in range(4):
                s[i] += col[i]
                for j in range(4):
                    p[i][j] += prod[i][j]
            self.scale[name] = a[name][2]
            bounded = bool(
                (v[:, 0] >= 0).all()
                and (v[:, 0] <= v[:, 1]).all()
                and (v[:, 2] >= 0).all()
                and (v[:, 2] <= v[:, 3]).all()
            )
            self.share[name] = self.share.get(name, True) and bounded and a[name][2] == 1.0

    def merge(self, other: "PairedRatios") -> None:
        self.n += other.n
        for name, s in other.sums.items():
            mine = self.sums.setdefault(name, [0, 0, 0, 0])
            p = self.products.setdefault(name, [[0] * 4 for _ in range(4)])
            for i in range(4):
                mine[i] += s[i]
                for j in range(4):
                    p[i][j] += other.products[name][i][j]
            self.scale[name] = other.scale[name]
            self.share[name] = self.share.get(name, True) and other.share[name]

    @property
    def metrics(self) -> List[str]:
        return list(self.sums)

    def _delta(
        self, name: str, grad_of: Any, paired: bool = True
    ) -> Optional[Tuple[float, Optional[float]]]:
        """(value, variance of the value) by the delta method, clustered by seed
        (``paired=False``: as two independent samples, no covariance between run A and
        run B); the variance is None with fewer than 2 matches; None without a value."""
        n = self.n
        if n == 0 or name not in self.sums:
            return None
        m = np.array(self.sums[name], dtype=float) / n
        got = grad_of(m)
        if got is None:
            return None
        value, g = got
        if n < 2:
            return float(value), None
        second = np.array(self.products[name], dtype=float) / n
        cov = (second - np.outer(m, m)) * n / (n - 1)
        if not paired:
            cov[:2, 2:] = 0.0
            cov[2:, :2] = 0.0
        return float(value), float(np.asarray(g) @ cov @ np.asarray(g)) / n

    def _estimate(
        self, name: str, grad_of: Any, low: float = 0.0, paired: bool = True
    ) -> Tuple[Optional[float], Optional[List[float]]]:
        got = self._delta(name, grad_of, paired)
        if got is None:
            return None, None
        value, var = got
        scale = self.scale[name]
        if var is None:
            return value * scale, None
        half = Z95 * math.sqrt(max(var, 0.0))
        lo, hi = value - half, value + half
        if self.share.get(name):  # a proportion: its interval stays in range
            lo, hi = max(lo, low), min(hi, 1.0)
        return value * scale, [float(lo) * scale, float(hi) * scale]

    def side(self, name: str, which: int) -> Tuple[Optional[float], Optional[List[float]]]:
        """Run A's (``which`` 0) or B's (1) value of ``name`` with its interval (Wilson
        for a share of matches, as the summary has it, so 0 % and 100 % keep an honest
        interval; the delta method for a ratio of per-match sums)."""
        s, p = self.sums.get(name), self.products.get(name)
        den = 2 * which + 1
        if s and p and self.share.get(name) and s[den] == p[den][den] and s[den] > 0:
            num = s[2 * which]  # 0/1 a match: a share of (some) matches
            return num / s[den], [float(v) for v in wilson(num, s[den])]

        def grad(m: np.ndarray) -> Any:
            num, den = m[2 * which], m[2 * which + 1]
            if den <= 0:
                return None
            g = [0.0] * 4
            g[2 * which], g[2 * which + 1] = 1 / den, -num / den**2
            return num / den, g

        return self._estimate(name, grad)

    def difference(
        self, name: str, paired: bool = True
    ) -> Tuple[Optional[float], Optional[List[float]]]:
        """A - B of ``name`` with its paired 95 % interval (``paired=False``: the
        interval of two independent samples of the same sizes): the delta method's,
        except for a share of (some) matches with a side at 0 % or 100 %, where that
        interval collapses (two sides at 100 % gave [+0.0, +0.0]): Newcombe's score
        interval, paired when both sides count the same matches (issue 22, item 5)."""
        value, ci = self._estimate(name, _difference_grad, low=-1.0, paired=paired)
        edge = self._at_the_edge(name, paired)
        return (value, edge) if value is not None and edge is not None else (value, ci)

    def width_ratio(self, name: str) -> Optional[float]:
        """The pairing gain of ``name``: the paired difference interval's width over the
        unpaired one's (below 1: pairing narrowed it; None when either has no width)."""
        return _width_ratio(self.difference(name)[1], self.difference(name, paired=False)[1])

    def _at_the_edge(self, name: str, paired: bool = True) -> Optional[List[float]]:
        """Newcombe's interval of a 0/1 share at 0 % or 100 % on a side, else None."""
        s, p = self.sums.get(name), self.products.get(name)
        if not s or not p or not self.share.get(name) or self.scale.get(name) != 1.0:
            return None
        if any(s[k] != p[k][k] for k in range(4)) or s[1] <= 0 or s[3] <= 0:
            return None  # not 0/1 in every match
        if not any(s[k] in (0, s[k + 1]) for k in (0, 2)):
            return None  # no side at the edge: the normal interval holds
        if paired and s[1] == s[3] == p[1][3]:  # the same matches on both sides
            both = p[0][2]
            lo, hi = newcombe_paired(both, s[0] - both, s[2] - both, s[1] - s[0] - s[2] + both)
        else:
            lo, hi = newcombe_hybrid(s[0], s[1], s[2], s[3])
        return [float(lo), float(hi)]

    def p_value(self, name: str, paired: bool = True) -> Optional[float]:
        """The two-sided p-value of "A - B = 0" for ``name`` (the normal test of
        :meth:`difference`'s interval, paired or not; None where it has none): what a
        table's multiple-testing correction adjusts (issue 22, item 4)."""
        got = self._delta(name, _difference_grad, paired)
        if got is None or got[1] is None:
            return None
        return normal_p(got[0], math.sqrt(max(got[1], 0.0)))

    def pooled(self, name: str) -> Tuple[Optional[float], Optional[List[float]]]:
        """``(num_a + num_b) / (den_a + den_b)`` with its interval (matches clustered by
        seed): e.g. a seat's share over both seat assignments."""

        def grad(m: np.ndarray) -> Any:
            a, b, c, d = m
            if b + d <= 0:
                return None
            r = (a + c) / (b + d)
            return r, [1 / (b + d), -r / (b + d), 1 / (b + d), -r / (b + d)]

        value, ci = self._estimate(name, grad)
        s = self.sums.get(name)
        if s and ci is not None and ci[0] == ci[1] and self.share.get(name) and s[1] + s[3] > 0:
            # Every seed gave the same share (a bot that always wins): no spread to measure,
            # so the interval of the pooled counts (Wilson) rather than a zero-width one.
            ci = [float(v) for v in wilson(s[0] + s[2], s[1] + s[3])]
        return value, ci

    def table(self) -> Dict[str, Dict[str, Any]]:
        """Every metric as ``{"a", "a_ci", "b", "b_ci", "difference", "ci", "significant",
        "p", "width_ratio", "paired"}`` (JSON-ready fractions; ``significant``: the raw
        interval excludes 0; ``p``: its unadjusted p-value). ``ci`` and ``p`` are the
        paired ones where pairing narrowed the interval (``width_ratio`` < 1, ``paired``
        true), else the unpaired ones: a pairing that does not help costs nothing."""
        out: Dict[str, Dict[str, Any]] = {}
        for name in self.sums:
            a, a_ci = self.side(name, 0)
            b, b_ci = self.side(name, 1)
            both = self.difference(name), self.difference(name, paired=False)
            ratio = _width_ratio(both[0][1], both[1][1])
            use_paired = ratio is None or ratio < 1.0
            d, ci = both[0] if use_paired else both[1]
            out[name] = {
                "a": a,
                "a_ci": a_ci,
                "b": b,
                "b_ci": b_ci,
                "difference": d,
                "ci": ci,
                "significant": bool(ci is not None and (ci[0] > 0 or ci[1] < 0)),
                "p": self.p_value(name, paired=use_paired),
                "width_ratio": ratio,
                "paired": ratio is not None and use_paired,
            }
        return out
