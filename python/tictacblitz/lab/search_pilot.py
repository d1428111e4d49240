"""The pilot a rule search plays before its estimate (issue 24 review, finding 6):
``sensitivity`` and ``tune`` both use it.
"""

from __future__ import annotations

from typing import Any

from .cost import pilot_seeds, pilot_size, run_pilot

__all__ = ["base_pilot"]


def base_pilot(lab: Any, seed: int, matches: int) -> Any:
    """The pilot at ``lab``'s base rules (a :class:`~.candidates.Candidates`): on seeds
    the run never plays (:func:`~.cost.pilot_seeds`), at most ``matches`` matches and
    fewer for a slow bot (:func:`~.cost.pilot_size`); what :func:`~.cost.announce` takes."""
    bots = [lab.hooks.resolve_bot(b)[0] for b in lab.bots(lab.base)]
    slow = any(lab.hooks.slow_bot(b) for b in bots)
    seeds = pilot_seeds(seed, min(pilot_size(slow), matches))
    return run_pilot(lab.hooks, lab.base.rules, bots, seeds, dict(lab.options))
