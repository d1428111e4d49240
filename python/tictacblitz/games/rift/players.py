"""Rift & Grid's player model (issue 23, item 1): the parameters a player spec may set
(:mod:`tictacblitz.games.players` has the syntax), mapped onto what Rift's bots already
take (:class:`.bots.BotSpec`: an error rate and a search budget), the native policies
untouched.

``error`` is the chance of a uniformly random legal move (a target with any usable
ability, so errors spend energy on abilities too); ``simulations`` the search's budget.

>>> MODEL.resolve("greedy:error=25%").error_rate
0.25
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Dict, Mapping

from ..players import PlayerModel, PlayerParam
from .bots import BOT_NAMES, MAX_SIMULATIONS, PRESETS, SEARCHES, BotSpec

__all__ = ["MODEL", "PARAMS", "HUMAN_PRESETS"]

PARAMS = (
    PlayerParam("error", "%", 0.0, 1.0, 0.0, "the chance a move is a uniformly random legal one"),
    PlayerParam("simulations", "count", 1, MAX_SIMULATIONS, 0, "search: simulations a decision"),
)

HUMAN_PRESETS: Dict[str, str] = {
    "novice": "greedy:error=60%",
    "casual": "greedy:error=30%",
    "club": "greedy:error=10%",
    "expert": "hard:error=5%",
}
"""Human skill levels as models, not fitted to recorded play (docs/bots.md)."""

_REASONS = {
    "novice": "knows wins and blocks, most moves unplanned",
    "casual": "knows wins and blocks, one move in three unplanned",
    "club": "plans nearly every move (greedy prices its abilities); rare slips",
    "expert": "the search, one move in twenty unplanned",
}


def _base_values(base: str) -> Mapping[str, Any]:
    spec = PRESETS[base]
    return {"error": spec.error_rate, "simulations": spec.simulations}


def _build(base: str, values: Mapping[str, Any]) -> BotSpec:
    if not values:
        return PRESETS[base]
    spec = PRESETS[base]
    if "simulations" in values and spec.kind not in SEARCHES:
        raise ValueError(f"simulations: {base!r} is not a search bot")
    return replace(
        spec,
        description="",
        error_rate=float(values.get("error", spec.error_rate)),
        simulations=int(values.get("simulations", spec.simulations)),
    )


MODEL = PlayerModel(
    params=PARAMS,
    bases=BOT_NAMES,
    build=_build,
    base_values=_base_values,
    presets=HUMAN_PRESETS,
    preset_reasons=_REASONS,
    example="greedy:error=25%",
    notes="Rift's native policies are unchanged: the model sets what its bots already take.",
)
