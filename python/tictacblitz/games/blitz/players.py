"""Tic Tac Blitz's player model (issue 23, item 1): the parameters a player spec may set
(:mod:`tictacblitz.games.players` has the syntax) over the policies and presets of
:mod:`.bots`, and the human-level presets (docs/bots.md, "Player models").

>>> spec = MODEL.resolve("greedy:reaction=250ms,error=3%")
>>> spec.kind, spec.reaction_ms, spec.error_rate
('greedy', 250, 0.03)
>>> MODEL.resolve("club").kind
'greedy'
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Dict, Mapping

from ..players import PlayerModel, PlayerParam
from .bots import BOT_NAMES, PRESETS, BotSpec

__all__ = ["MODEL", "PARAMS", "HUMAN_PRESETS"]

SEARCH_MAX_CANDIDATES = 10
"""The most candidates the native search compares (``SEARCH_MAX_CANDIDATES`` of bots.pxd)."""

PARAMS = (
    PlayerParam(
        "reaction",
        "ms",
        0,
        60_000,
        (0, 0),
        "the delay from a full charge to the action (R5): a fixed one, or MEAN±SPREAD, "
        "a lognormal drawn per reaction",
        spread=True,
    ),
    PlayerParam(
        "error", "%", 0.0, 1.0, 0.0, "the chance an action is a uniformly random legal one"
    ),
    PlayerParam(
        "attention",
        "%",
        0.0,
        1.0,
        1.0,
        "greedy: the chance a decision notices the opponent's threats (else it does not "
        "block or knock them out)",
    ),
    PlayerParam("budget", "count", 1, 1_000_000, 64, "search: simulations a decision"),
    PlayerParam("horizon", "ms", 1, 600_000, 3000, "search: game ms a rollout plays"),
    PlayerParam("candidates", "count", 1, SEARCH_MAX_CANDIDATES, 6, "search: actions it compares"),
)

_FIELDS = {
    "reaction": "reaction_ms",
    "error": "error_rate",
    "attention": "attention",
    "budget": "budget",
    "horizon": "horizon_ms",
    "candidates": "candidates",
}

HUMAN_PRESETS: Dict[str, str] = {
    "novice": "greedy:reaction=600ms±200,error=30%,attention=60%",
    "casual": "greedy:reaction=450ms±150,error=15%,attention=80%",
    "club": "greedy:reaction=350ms±100,error=5%,attention=95%",
    "expert": "strong:reaction=250ms±60,error=2%",
}
"""Human skill levels as models, not fitted to recorded play (there is none here):
docs/bots.md, "Player models", gives the reasoning for each number."""

_REASONS = {
    "novice": "a choice reaction with a search of the board; many careless actions",
    "casual": "quicker, fewer slips",
    "club": "near a practised choice reaction; rare slips",
    "expert": "the strong policy at a trained player's reaction",
}


def _base_values(base: str) -> Mapping[str, Any]:
    spec = PRESETS[base]
    out = {name: getattr(spec, attr) for name, attr in _FIELDS.items()}
    out["reaction"] = (spec.reaction_ms, spec.reaction_sd)
    return out


def _build(base: str, values: Mapping[str, Any]) -> BotSpec:
    if not values:
        return PRESETS[base]
    changes = {_FIELDS[name]: value for name, value in values.items() if name != "reaction"}
    if "reaction" in values:
        mean, spread = values["reaction"]
        if spread and not mean:
            raise ValueError("reaction: a spread needs a mean above 0 ms")
        changes.update(reaction_ms=mean, reaction_sd=spread)
    spec = replace(PRESETS[base], description="", **changes)
    if spec.attention < 1.0 and spec.kind != "greedy":
        raise ValueError(f"attention: only greedy's rules model attention, not {spec.kind}'s")
    return spec


MODEL = PlayerModel(
    params=PARAMS,
    bases=BOT_NAMES,
    build=_build,
    base_values=_base_values,
    presets=HUMAN_PRESETS,
    preset_reasons=_REASONS,
    example="greedy:reaction=250ms,error=3%",
    notes="budget, horizon and candidates change only a search bot; attention only greedy.",
)
