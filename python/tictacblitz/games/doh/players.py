"""Tic Tac Doh's player model (issue 23, item 1): the parameters a player spec may set
(:mod:`tictacblitz.games.players` has the syntax) over the native bots of :mod:`.bots`.

Doh's imperfection is a softmax *temperature* over the perfect bot's move values
(``perfect:temperature=0.5``, native: ``blitz_core.doh.solver`` softmax_action), or an
*epsilon* over a policy, native already
(``blitz_core.doh.solver``): with probability ``error`` a move is the ``fallback``
policy's instead of the bot's own, so ``perfect:error=0%`` is the solver and
``perfect:error=100%,fallback=random`` plays at random, with every rate between. With 3
or 4 players, ``perfect`` is the paranoid solver's move (issue 25).

>>> MODEL.resolve("perfect:error=20%") == MODEL.resolve("perfect:error=0.2,fallback=greedy")
True
>>> MODEL.resolve("perfect:error=10%") == MODEL.resolve("hard")
True
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Tuple

from blitz_core.doh.solver import KIND_CODES

from ..players import PlayerModel, PlayerParam
from .bots import BOT_NAMES, BOT_SPECS

__all__ = ["MODEL", "PARAMS", "HUMAN_PRESETS"]

POLICIES: Tuple[str, ...] = ("random", "greedy", "perfect")

PARAMS = (
    PlayerParam("error", "%", 0.0, 1.0, 0.0, "the chance a move is the fallback policy's instead"),
    PlayerParam(
        "temperature",
        "number",
        0.0,
        1000.0,
        0.0,
        "perfect: > 0 draws each move with weight exp(value / temperature), value its exact "
        "game value (+1 win, 0 draw, -1 loss); 0 the solver's best move",
    ),
    PlayerParam(
        "fallback",
        "name",
        0,
        0,
        "greedy",
        "the policy of an erroneous move (default: the bot's, or the next weaker one)",
        choices=POLICIES,
    ),
)

HUMAN_PRESETS: Dict[str, str] = {
    "novice": "greedy:error=40%,fallback=random",
    "casual": "greedy:error=10%,fallback=random",
    "club": "perfect:error=30%,fallback=greedy",
    "expert": "perfect:error=5%,fallback=greedy",
}
"""Human skill levels as models, not fitted to recorded play (docs/bots.md)."""

_REASONS = {
    "novice": "sees wins and blocks, often plays without looking",
    "casual": "sees wins and blocks, rarely careless",
    "club": "has learned the solver's lines for most positions",
    "expert": "near perfect; one move in twenty a plausible (greedy) one",
}


WEAKER = {"perfect": "greedy", "greedy": "random", "random": "random"}
"""The fallback of a pure policy's errors when a spec names none: the next weaker policy
(so ``perfect:error=10%`` is ``hard`` and ``greedy:error=30%`` is ``easy``)."""


def _base_values(base: str) -> Mapping[str, Any]:
    kind, error, fallback = BOT_SPECS[base]
    return {
        "error": error,
        "fallback": WEAKER[kind] if fallback == kind else fallback,
        "temperature": 0.0,
    }


def _build(base: str, values: Mapping[str, Any]) -> Tuple[Any, ...]:
    kind = BOT_SPECS[base][0]
    if not values:
        _, error, fallback = BOT_SPECS[base]
        return (KIND_CODES[kind], error, KIND_CODES[fallback])
    merged = {**_base_values(base), **values}
    spec = (KIND_CODES[kind], float(merged["error"]), KIND_CODES[str(merged["fallback"])])
    temperature = float(merged.get("temperature", 0.0))
    if temperature and kind != "perfect":
        raise ValueError(f"temperature: only the perfect bot has one, not {kind}")
    return (*spec, temperature) if temperature else spec


MODEL = PlayerModel(
    params=PARAMS,
    bases=BOT_NAMES,
    build=_build,
    base_values=_base_values,
    presets=HUMAN_PRESETS,
    preset_reasons=_REASONS,
    example="perfect:error=20%,fallback=random",
    notes="temperature applies to the perfect bot's own moves (an erroneous move is the "
    "fallback's).",
)
