"""Blitz replays as timed frames, for the browser's replay viewer (docs/client.md).

A replay file is a script (docs/replay-format.md), not a list of events, and the page
must not re-implement the engine: :func:`scenario_frames` plays the script on the
engine, the way :func:`tictacblitz.games.blitz.scenario.run_scenario` does (it *is*
that runner, with a hook), and records what the server would have pushed live: one
*frame* per engine step, shaped like the protocol's ``events`` message (``round``,
``t``, ``events``, ``players``). The page feeds those frames to the same view model as
a live match. Part of the Blitz server adapter (its package, ``server/games/blitz/``).
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Optional

from ....games.blitz.scenario import Scenario, ScenarioError, load_scenario, run_scenario
from ....games.blitz.types import Player
from ...budget import current_budget

__all__ = ["scenario_frames", "MAX_FRAMES", "MAX_ROUNDS"]

MAX_FRAMES = 100_000  # a guard: a script cannot make the answer unbounded
MAX_ROUNDS = 16  # and none asks for more rounds than a match can show


class _Frames:
    """Collects one frame per engine call that produced events (rejections aside)."""

    def __init__(self) -> None:
        self.frames: List[Dict[str, Any]] = []
        self.budget = current_budget()  # a request's work budget (docs/server.md, "Limits")

    def take(self, match: Any) -> None:
        events = [event.to_dict() for event in match.events if event.reason is None]
        if not events:
            return
        if len(self.frames) >= MAX_FRAMES:
            raise ScenarioError(f"the replay makes more than {MAX_FRAMES} steps")
        frame = {
            "round": events[-1]["round"],
            "t": events[-1]["t"],
            "events": events,
            "players": {p.letter: match.status(p).to_dict() for p in (Player.X, Player.O)},
        }
        # Charged before it is kept: a replay over the budget stops here, not at the end.
        self.budget.charge(events=len(events), nbytes=len(json.dumps(frame, separators=(",", ":"))))
        self.frames.append(frame)


def scenario_frames(
    data: Any, match_factory: Optional[Callable[..., Any]] = None
) -> Dict[str, Any]:
    """Play a replay / scenario object and return its frames.

    Returns ``{"rules", "seed", "frames", "rounds", "round_wins", "match", "end"}``:
    ``frames`` in play order; ``end`` is ``{"round", "t"}`` where play stopped.

    :raises ScenarioError: for a file that is not a valid scenario, or too long a one.
    """
    scenario: Scenario = load_scenario(data)
    if scenario.rules.max_rounds > MAX_ROUNDS or scenario.last_round > MAX_ROUNDS:
        raise ScenarioError(f"the viewer plays at most {MAX_ROUNDS} rounds")
    if match_factory is None:
        from ....games.blitz import Match  # the native engine, loaded on first use

        match_factory = Match
    frames = _Frames()
    result = run_scenario(scenario, match_factory, on_call=frames.take)
    return {
        "rules": scenario.rules.to_dict(),
        "seed": scenario.seed,
        "frames": frames.frames,
        "rounds": result["rounds"],
        "round_wins": result["round_wins"],
        "match": result["match"],
        "end": {"round": result["state"]["round"], "t": result["state"]["t"]},
    }
