"""Replays as timed events, for the browser's replay viewer (docs/client.md).

A replay file is a script (SCENARIOS.md), not a list of events, and the page must not
re-implement the engine: :func:`scenario_frames` plays the script on the engine, the
way :func:`tictacblitz.games.blitz.scenario.run_scenario` does, and records what the server would
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
from typing import Any, Callable, Dict, List, Optional

from ..games.blitz.scenario import Scenario, ScenarioError, load_scenario, run_scenario
from ..games.blitz.types import Player

__all__ = ["scenario_frames", "replay_events", "replay_events_post", "MAX_REPLAY_BYTES",
           "MAX_FRAMES"]

MAX_REPLAY_BYTES = 2 * 1024 * 1024   # a 7-round match of busy players is ~100 KiB
MAX_FRAMES = 100_000                 # a guard: a script cannot make the answer unbounded
MAX_ROUNDS = 16                      # and none asks for more rounds than a match can show


class _Frames:
    """Collects one frame per engine call that produced events (rejections aside)."""

    def __init__(self) -> None:
        self.frames: List[Dict[str, Any]] = []

    def take(self, match: Any) -> None:
        events = [event.to_dict() for event in match.events if event.reason is None]
        if not events:
            return
        if len(self.frames) >= MAX_FRAMES:
            raise ScenarioError(f"the replay makes more than {MAX_FRAMES} steps")
        self.frames.append({
            "round": events[-1]["round"],
            "t": events[-1]["t"],
            "events": events,
            "players": {p.letter: match.status(p).to_dict() for p in (Player.X, Player.O)},
        })


def scenario_frames(data: Any, match_factory: Optional[Callable[..., Any]] = None) -> Dict[str, Any]:
    """Play a replay / scenario object and return its frames.

    Returns ``{"rules", "seed", "frames", "rounds", "round_wins", "match", "end"}``:
    ``frames`` in play order; ``end`` is ``{"round", "t"}`` where play stopped. The
    script is played by :func:`tictacblitz.games.blitz.scenario.run_scenario` itself (one runner),
    stepping one timed event at a time.

    :raises ScenarioError: for a file that is not a valid scenario, or too long a one.
    """
    scenario: Scenario = load_scenario(data)
    if scenario.rules.max_rounds > MAX_ROUNDS or scenario.last_round > MAX_ROUNDS:
        raise ScenarioError(f"the viewer plays at most {MAX_ROUNDS} rounds")
    if match_factory is None:
        from .. import Match  # the native engine, loaded on first use
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
    return await _frames_response(data)


async def _frames_response(data: Any):
    """Play the file in a worker thread: a long script never stalls the live rooms."""
    from starlette.concurrency import run_in_threadpool

    try:
        return _json(await run_in_threadpool(scenario_frames, data))
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
    return await _frames_response(data)


def routes() -> list:
    """The two routes, ready to add to the app's route list (before ``/replays/{id}``)."""
    from starlette.routing import Route
    return [
        Route("/replays/{id}/events", replay_events, methods=["GET"]),
        Route("/api/replay-events", replay_events_post, methods=["POST"]),
    ]
