"""Replays as timed events, for the browser's replay viewer (docs/client.md).

A replay file is a script (SCENARIOS.md), not a list of events, and the page must not
re-implement the engine: :func:`scenario_frames` plays the script on the engine, the
way :func:`tictacblitz.scenario.run_scenario` does, and records what the server would
have pushed live: one *frame* per engine step, shaped like the protocol's ``events``
message (``round``, ``t``, ``events``, ``players``). The page feeds those frames to
the same view model as a live match.

Two Starlette routes use it:

- ``GET /replays/{id}/events``: a recorded match of this server, by its ``replay_id``
  (looked up with the same store ``GET /replays/{id}`` uses);
- ``POST /api/replay-events``: any replay or scenario file sent as the JSON body
  (the viewer's "open a file").
"""

from __future__ import annotations

import json
from itertools import groupby
from typing import Any, Callable, Dict, List, Optional

from ..scenario import Scenario, ScenarioError, ScriptEntry, load_scenario
from ..types import Player

__all__ = ["scenario_frames", "replay_events", "replay_events_post", "MAX_REPLAY_BYTES",
           "MAX_FRAMES"]

MAX_REPLAY_BYTES = 2 * 1024 * 1024   # a 7-round match of busy players is ~100 KiB
MAX_FRAMES = 100_000                 # a guard: a script cannot make the answer unbounded


class _Recorder:
    def __init__(self, match: Any) -> None:
        self.match = match
        self.frames: List[Dict[str, Any]] = []

    def take(self) -> None:
        """Record ``match.events`` (the last call's) as one frame, if there were any."""
        events = [event.to_dict() for event in self.match.events if event.reason is None]
        if not events:
            return
        if len(self.frames) >= MAX_FRAMES:
            raise ScenarioError(f"the replay makes more than {MAX_FRAMES} steps")
        m = self.match
        self.frames.append({
            "round": events[-1]["round"],
            "t": events[-1]["t"],
            "events": events,
            "players": {p.letter: m.status(p).to_dict() for p in (Player.X, Player.O)},
        })

    def advance_to(self, t: int) -> None:
        """Advance step by step (each timed ms its own frame, as live) to ``t``."""
        m = self.match
        while not m.round_over:
            nxt = m.next_event_t()
            if nxt is None or nxt > t:
                break
            m.advance_to_next_event()
            self.take()
        if not m.round_over and m.t < t:
            m.advance_to(t)
            self.take()

    def to_round_end(self) -> None:
        m = self.match
        while not m.round_over:
            m.advance_to_next_event()
            self.take()


def scenario_frames(data: Any, match_factory: Optional[Callable[..., Any]] = None) -> Dict[str, Any]:
    """Play a replay / scenario object and return its frames.

    Returns ``{"rules", "seed", "frames", "rounds", "round_wins", "match", "end"}``:
    ``frames`` in play order; ``end`` is ``{"round", "t"}`` where play stopped.

    :raises ScenarioError: for a file that is not a valid scenario.
    """
    scenario: Scenario = load_scenario(data)
    if match_factory is None:
        from .. import Match  # the native engine, loaded on first use
        match_factory = Match
    match = match_factory(
        scenario.rules,
        seed=scenario.seed,
        setup=list(scenario.setup) if scenario.setup is not None else None,
        random_powerups=not scenario.scripted_powerups,
    )
    rec = _Recorder(match)
    rec.take()  # round_started of round 1
    last = scenario.last_round
    for round_ in range(1, last + 1):
        entries = [e for e in scenario.script if e.round == round_]
        if round_ > 1:
            rec.to_round_end()
            if match.match_over:
                break
            match.start_next_round()
            rec.take()
        if round_ == last and scenario.until is not None:
            entries = [e for e in entries if e.t <= scenario.until]
        for t, group in groupby(entries, key=lambda e: e.t):
            _play_ms(rec, t, list(group))
        if round_ == last:
            if scenario.until is not None:
                rec.advance_to(scenario.until)
            else:
                rec.to_round_end()
    wins = match.round_wins
    result = None
    if match.match_over:
        result = match.match_result.letter if match.match_result is not None else "draw"
    return {
        "rules": scenario.rules.to_dict(),
        "seed": scenario.seed,
        "frames": rec.frames,
        "rounds": [record.to_dict() for record in match.rounds],
        "round_wins": {"X": wins[0], "O": wins[1]},
        "match": result,
        "end": {"round": match.round, "t": match.t},
    }


def _play_ms(rec: _Recorder, t: int, entries: List[ScriptEntry]) -> None:
    """Mirrors scenario._play_ms, recording a frame for each engine call."""
    match = rec.match
    rec.advance_to(t)
    if match.round_over:
        return
    for entry in entries:
        if entry.spawn is not None:
            match.spawn_powerup(entry.spawn, entry.cell)
            rec.take()
    actions = sorted((e for e in entries if e.player is not None), key=lambda e: e.player)
    if len(actions) == 2:
        match.act_both(actions[0].action, actions[1].action)
        rec.take()
    elif actions:
        match.act(actions[0].player, actions[0].action)
        rec.take()


# -- routes ---------------------------------------------------------------------------------


def _json(body: Any, status: int = 200):
    from starlette.responses import JSONResponse
    return JSONResponse(body, status_code=status)


def _lookup(request: Any, replay_id: str) -> Optional[Any]:
    """Find a recorded replay with whatever store the app keeps (``app.state``)."""
    state = request.app.state
    lobby = getattr(state, "lobby", None)
    if lobby is not None and getattr(lobby, "replays", None) is not None:
        return lobby.replays.get(replay_id)
    for name in ("replay_lookup", "get_replay"):
        fn = getattr(state, name, None)
        if callable(fn):
            return fn(replay_id)
    for name in ("replays", "replay_store"):
        store = getattr(state, name, None)
        if store is None:
            continue
        getter = getattr(store, "get", None)
        if callable(getter):
            return getter(replay_id)
    return None


async def replay_events(request: Any):
    """``GET /replays/{id}/events``: the frames of a recorded match, or 404."""
    replay_id = request.path_params.get("id") or request.path_params.get("replay_id", "")
    data = _lookup(request, replay_id)
    if data is None:
        return _json({"error": "not_found"}, 404)
    if isinstance(data, (str, bytes)):
        data = json.loads(data)
    try:
        return _json(scenario_frames(data))
    except (ScenarioError, ValueError, TypeError) as exc:
        return _json({"error": "bad_replay", "message": str(exc)}, 422)


async def replay_events_post(request: Any):
    """``POST /api/replay-events``: the frames of the replay file in the body."""
    body = await request.body()
    if len(body) > MAX_REPLAY_BYTES:
        return _json({"error": "too_large", "message": f"at most {MAX_REPLAY_BYTES} bytes"}, 413)
    try:
        data = json.loads(body)
    except ValueError as exc:
        return _json({"error": "bad_json", "message": str(exc)}, 400)
    try:
        return _json(scenario_frames(data))
    except (ScenarioError, ValueError, TypeError) as exc:
        return _json({"error": "bad_replay", "message": str(exc)}, 422)


def routes() -> list:
    """The two routes, ready to add to the app's route list (before ``/replays/{id}``)."""
    from starlette.routing import Route
    return [
        Route("/replays/{id}/events", replay_events, methods=["GET"]),
        Route("/api/replay-events", replay_events_post, methods=["POST"]),
    ]
