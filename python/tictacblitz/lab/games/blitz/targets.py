"""The Blitz metrics a designer's targets name (issue 24: ``tictacblitz tune``, the case
study of docs/balancing.md), each with a 95 % interval, folded into
:class:`~.balance.Metrics`; each declared once here (:data:`TARGET_METRICS`), the
lab's ``METRICS``, ``PRECISION_METRICS`` and rows follow (issue 27, item 3).

The seed's claims, as numbers:

- ``line_share``: rounds that ended in a line rather than by the clock (R10 line or
  double line, against R20 timeout); "most rounds end in a line";
- ``line_round_s``: the mean length of those rounds, s; "well before the clock";
- ``match_s``: the mean match length, s (R21, R22); "a whole match takes a few minutes";
- ``cap_share``: matches that played every round ``max_rounds`` allows (R22);
- ``seat_gap``: the first seat's match score (win 1, draw ½) minus ½: 0 is an even
  seat. With the same player in both seats it is the seat effect; with two players,
  ``simulate`` also plays the seats exchanged, and the seat effect is the mean of the two
  runs' gaps (the players' strengths cancel);
- ``KIND_uses``: claims of each powerup kind a round, both seats (R15): "used".
  Whether a kind *matters* is the ablation (``simulate --ablate``), not a number here.

A round is not independent of the other rounds of its match (the same players, the same
score), so the intervals of the per-round ratios (``line_share``, ``line_round_s``,
``KIND_uses``) are over matches (:func:`~tictacblitz.games.stats.ratio_ci`, the delta
method on per-match sums), not over rounds as the older ``decisiveness`` row's Wilson interval is.
"""

from __future__ import annotations

from typing import Any, Dict, Tuple

import numpy as np

from ....games.blitz.types import POWERUP_KEYS as KINDS  # R14, in code order
from ....games.blitz.types import RoundEnd
from ....games.stats import ratio_ci, wilson_or_none
from ...metric import FirstSeatScore, Metric, first_seat_values

__all__ = [
    "TargetCounts",
    "TARGET_METRICS",
    "target_values",
]

ENDS: Tuple[str, ...] = tuple(e.value for e in RoundEnd)  # BY_* codes 0, 1, 2
CLOCK = ENDS.index(RoundEnd.TIMEOUT.value)  # R20: the only end that is not a line
SUMS = 6  # [n, Sa, Sb, Saa, Sbb, Sab] of a ratio sum(a) / sum(b) over matches
RATIOS: Tuple[str, ...] = ("line_share", "line_round_s", *(f"{k}_uses" for k in KINDS))


def _per_match(cols: Dict[str, Any]) -> Dict[str, Tuple[np.ndarray, np.ndarray]]:
    """Per-match ``(numerator, denominator)`` of every ratio of :data:`RATIOS`."""
    rounds = cols["rounds"].astype(np.int64)
    played = np.arange(cols["round_by"].shape[1])[None, :] < rounds[:, None]
    by = np.where(played, cols["round_by"], CLOCK).astype(np.int64)
    line = played & (by != CLOCK)
    ends = np.where(line, cols["round_end_t"], 0).astype(np.int64)
    pus = np.where(played[:, :, None], cols["round_powerups"].astype(np.int64).sum(axis=2), 0)
    lines = line.sum(axis=1)
    out = {"line_share": (lines, rounds), "line_round_s": (ends.sum(axis=1), lines)}
    for k, kind in enumerate(KINDS):
        out[f"{kind}_uses"] = (pus[:, :, k].sum(axis=1), rounds)
    return out


class TargetCounts:
    """The exact integer sums behind the target metrics (order-free, mergeable)."""

    def __init__(self) -> None:
        self.sums = {name: [0] * SUMS for name in RATIOS}
        self.first = FirstSeatScore()  # X's match score (the lab's, issue 27)

    def add(self, cols: Dict[str, Any]) -> None:
        for name, (a, b) in _per_match(cols).items():
            s = self.sums[name]
            for i, v in enumerate((a.size, a.sum(), b.sum(), (a * a).sum(), (b * b).sum())):
                s[i] += int(v)
            s[5] += int((a * b).sum())
        self.first.add(cols["winner"])

    def merge(self, other: "TargetCounts") -> None:
        for name, s in other.sums.items():
            self.sums[name] = [u + v for u, v in zip(self.sums[name], s, strict=True)]
        self.first.merge(other.first)

    def to_dict(self, match_ms: Any, capped: int) -> Dict[str, Any]:
        """``{name: value, name_ci: [lo, hi]}`` of every target metric (None when empty).
        ``match_ms`` (the Moments of match lengths, ms) and ``capped`` (the matches that
        played max_rounds rounds) are the Metrics' own, not counted twice here."""
        out: Dict[str, Any] = {}
        for name, s in self.sums.items():
            value, ci = ratio_ci(s, 1e-3 if name.endswith("_s") else 1.0)
            out[name], out[f"{name}_ci"] = value, ci
        mean, ci = match_ms.mean_ci()
        out["match_s"] = None if mean is None else mean / 1000
        out["match_s_ci"] = None if ci is None else [ci[0] / 1000, ci[1] / 1000]
        n = match_ms.n
        out["cap_share"] = capped / n if n else None
        out["cap_share_ci"] = wilson_or_none(capped, n)
        out["seat_gap"], out["seat_gap_ci"] = self.first.gap()
        return {"targets": out}


def _target(name: str, label: str, unit: str, explanation: str) -> Metric:
    return Metric(
        name,
        label,
        unit,
        explanation,
        value=f"targets.{name}",
        ci=f"targets.{name}_ci",
        precision=True,
    )


TARGET_METRICS: Tuple[Metric, ...] = (
    _target(
        "line_share",
        "rounds ended by a line",
        "share",
        "rounds that ended in a line of set marks (R10, a double line too), not by the clock "
        "(R20); interval over matches. The seed: most rounds end in a line",
    ),
    _target(
        "line_round_s",
        "length of a round ended by a line (mean)",
        "s",
        "game time from a round's start to its line (R10), over the rounds a line ended; "
        "the seed: well before the clock (round_ms)",
    ),
    _target(
        "match_s",
        "match length (mean, target)",
        "s",
        "game time of a whole match, the sum of its rounds (R21, R22); the seed: a few minutes",
    ),
    _target(
        "cap_share",
        "matches that reached the round cap",
        "share",
        "matches that played every round max_rounds allows (R22)",
    ),
    _target(
        "seat_gap",
        "seat gap: X's match score - 1/2",
        "pp",
        "X's mean match score (win 1, draw 1/2) minus 1/2: 0 is an even seat with the same "
        "player in both seats; with two players, the mean of the gap of both seat orders",
    ),
    *(
        _target(
            f"{k}_uses",
            f"{k} claims a round (target)",
            "claims",
            f"{k} powerups claimed a round, both seats (R15); interval over matches. Whether "
            "a kind matters is its ablation (simulate --ablate)",
        )
        for k in KINDS
    ),
)
"""The target metrics in table order (the summary's ``targets``), each a
``--precision`` metric and a tune target."""


def target_values(cols: Dict[str, Any]) -> Dict[str, Tuple[np.ndarray, np.ndarray, float]]:
    """Per-match ``(numerator, denominator, scale)`` of the target metrics (the lab's
    ``match_values`` hook, for the A/B and the ablation, paired by seed). ``cap_share``
    is left out: the columns do not say ``max_rounds``."""
    ratios = _per_match(cols)
    # line_share and match_s are there as the older decisiveness (which leaves out the
    # rare double lines) and match_length_s: not repeated
    out: Dict[str, Tuple[np.ndarray, np.ndarray, float]] = {
        name: (a, b, 1e-3 if name.endswith("_s") else 1.0)
        for name, (a, b) in ratios.items()
        if name != "line_share"
    }
    out["seat_gap"] = first_seat_values(cols["winner"])["gap"]  # score - 1/2
    return out
