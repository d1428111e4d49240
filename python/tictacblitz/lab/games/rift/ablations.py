"""Rift & Grid's designer questions answered by pairing runs over the same seeds: the
per-match values of its metrics (:func:`match_values`, for the lab's A/B and ablation)
and its optional features switched off (:func:`ablations`, ``simulate --ablate``)."""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np

from ....games.rift.rules import RiftRules
from ....games.rift.types import OBJECTIVE_IDS
from ...metric import first_seat_values
from .metrics import ABILITIES, objective_bits

__all__ = ["match_values", "ablations", "CODE_COLUMNS", "ABLATION_NOTE", "EFFECT_METRICS"]


def match_values(cols: Dict[str, Any]) -> Dict[str, Tuple[np.ndarray, np.ndarray, float]]:
    """Per-match ``(numerator, denominator, scale)`` of Rift's metrics (the lab pairs two
    runs over the same seeds match by match with them, for an A/B or an ablation):
    ``scale * sum(num) / sum(den)`` is the metric of :func:`metric_rows` with the same
    name."""
    w = np.asarray(cols["winner"]).astype(np.int64)
    first = first_seat_values(w)  # the lab's (issue 27, item 3)
    one = np.ones_like(w)
    turns = np.asarray(cols["turns"]).astype(np.int64)
    total = (np.asarray(cols["score_x"]) + np.asarray(cols["score_o"])).astype(np.int64)
    objective = (np.asarray(cols["points_x"]) + np.asarray(cols["points_o"])).astype(np.int64)
    out: Dict[str, Tuple[np.ndarray, np.ndarray, float]] = {
        "x_score": first["score"],
        "seat_gap": first["gap"],
        "game_length": (turns, one, 1.0),
        "collision_rate": (np.asarray(cols["collisions"]).astype(np.int64), turns, 1.0),
        "grey_rate": (np.asarray(cols["greys"]).astype(np.int64), turns, 1.0),
        "grey_share_of_collisions": (
            np.asarray(cols["greys"]).astype(np.int64),
            np.asarray(cols["collisions"]).astype(np.int64),
            1.0,
        ),
        "objective_points_share": (objective, total, 1.0),
    }
    for a in ABILITIES:
        uses = np.asarray(cols[f"{a}_x"]) + np.asarray(cols[f"{a}_o"])
        out[f"{a}_uses_per_game"] = (uses.astype(np.int64), one, 1.0)
    dealt = objective_bits(cols["dealt_x"]) + objective_bits(cols["dealt_o"])
    done = objective_bits(cols["done_x"]) + objective_bits(cols["done_o"])
    for c, oid in enumerate(OBJECTIVE_IDS):
        out[f"{oid}_completion"] = (done[:, c], dealt[:, c], 1.0)
    return out


def ablations(rules: Optional[RiftRules]) -> Dict[str, Dict[str, Any]]:
    """Rift's optional features for the lab's ablation (``simulate --ablate``), as rule
    overrides that switch each off: an ability by a cost above ``energy_max`` (energy
    never exceeds it, G13, so the ability is never affordable, G5), the objectives by
    0 points each (G17). A feature already off under ``rules`` is left out."""
    r = rules if isinstance(rules, RiftRules) else RiftRules.from_dict(rules or {})
    out: Dict[str, Dict[str, Any]] = {}
    for a in ABILITIES:
        if getattr(r, f"{a}_cost") <= r.energy_max:
            out[a] = {f"{a}_cost": r.energy_max + 1}
    if any(v > 0 for v in r.objective_points.values()):
        out["objectives"] = {"objective_points": dict.fromkeys(OBJECTIVE_IDS, 0)}
    return out


CODE_COLUMNS: Dict[str, Tuple[str, ...]] = {
    f"{kind}_{seat}": () for kind in ("dealt", "done") for seat in ("x", "o")
}
"""The runner's code columns: each seat's objective hands as bitmasks of the catalogue
(G12, G17), never averaged; their per-objective rates are :class:`Metrics`'s (issue 22)."""

ABLATION_NOTE = "each ability made unaffordable (cost energy_max + 1), objectives worth 0"
"""How the ablation switches a feature off, in the words reports print."""

EFFECT_METRICS = (
    "x_win_rate",
    "o_win_rate",
    "draw_rate",
    "x_score",
    "game_length",
    "collision_rate",
)
"""The metrics an ablation table shows (every paired metric is in the JSON)."""
