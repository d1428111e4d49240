"""Tic Tac Blitz's RL presets (docs/rl.md): :data:`PRESETS`, episodes a learner can start
on, and :func:`preset_options`, which the faces of :mod:`tictacblitz.envs.games.blitz`
(``make_env``, ``make_vector_env``, ``parallel_env``) apply."""

from __future__ import annotations

from typing import Any, Dict, Optional

from ...games.blitz.rules import Rules

__all__ = ["PRESETS", "preset_options"]

PRESETS: Dict[str, Dict[str, Any]] = {
    "standard": {},
    "short": {"rules": {"round_ms": 10_000, "rounds_to_win": 1, "max_rounds": 1}},
    "small": {"rules": {"size": 4, "line_length": 3}},
    "rounds": {"episode": "round"},
    "tiny": {
        "rules": {
            "size": 4,
            "line_length": 3,
            "round_ms": 10_000,
            "rounds_to_win": 1,
            "max_rounds": 1,
        }
    },
}
"""Episodes a learner can start on (docs/rl.md), each a set of env options:

- ``standard``: the full game (6x6, lines of 4, 45 s rounds, first to 3 rounds);
- ``short``: one 10 s round is the whole match (at most 200 steps of 50 ms);
- ``small``: a 4x4 board with lines of 3 (the rest unchanged);
- ``rounds``: the full game, but each round is an episode (``episode="round"``);
- ``tiny``: ``small`` and ``short`` together: one 10 s round on 4x4, lines of 3.
"""


def preset_options(preset: Optional[str], options: Dict[str, Any]) -> Dict[str, Any]:
    """The options of ``preset`` (:data:`PRESETS`) under ``options`` (which win; a
    ``rules`` option replaces the preset's rules)."""
    if preset is None:
        return dict(options)
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}: expected one of {', '.join(PRESETS)}")
    out = dict(PRESETS[preset])
    if "rules" in out:
        out["rules"] = Rules(**out["rules"])
    out.update(options)
    return out
