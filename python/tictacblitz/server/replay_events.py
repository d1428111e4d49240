"""Replays as timed frames for the browser's replay viewer: the two routes (docs/client.md).

The frames themselves are the game's (``GameAdapter.replay_frames``: the replay played
on the game's engine, one frame per step, shaped like a live ``events`` message); this
module only serves them:

- ``GET /replays/{id}/events``: a recorded match of this server, by its ``replay_id``
  (the store ``GET /replays/{id}`` uses);
- ``POST /api/replay-events``: any replay file sent as the JSON body (the viewer's
  "open a file").
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["replay_events", "replay_events_post", "routes", "MAX_REPLAY_BYTES"]

MAX_REPLAY_BYTES = 2 * 1024 * 1024   # a 7-round Blitz match of busy players is ~100 KiB


def _json(body: Any, status: int = 200) -> Any:
    from starlette.responses import JSONResponse
    return JSONResponse(body, status_code=status)


async def replay_events(request: Any) -> Any:
    """``GET /replays/{id}/events``: the frames of a recorded match, or 404."""
    lobby = request.app.state.lobby
    data = lobby.replays.get(request.path_params["id"])
    if data is None:
        return _json({"error": "not_found"}, 404)
    return await _frames_response(lobby, data)


async def _frames_response(lobby: Any, data: Any) -> Any:
    """Play the file in a worker thread: a long script never stalls the live rooms."""
    from starlette.concurrency import run_in_threadpool

    try:
        return _json(await run_in_threadpool(lobby.adapter.replay_frames, data))
    except (ValueError, TypeError) as exc:      # ReplayError is a ValueError
        return _json({"error": "bad_replay", "message": str(exc)}, 422)


async def replay_events_post(request: Any) -> Any:
    """``POST /api/replay-events``: the frames of the replay file in the body."""
    body = await request.body()
    if len(body) > MAX_REPLAY_BYTES:
        return _json({"error": "too_large", "message": f"at most {MAX_REPLAY_BYTES} bytes"}, 413)
    try:
        data = json.loads(body)
    except ValueError as exc:
        return _json({"error": "bad_json", "message": str(exc)}, 400)
    return await _frames_response(request.app.state.lobby, data)


def routes() -> list:
    """The two routes, ready to add to the app's route list (before ``/replays/{id}``)."""
    from starlette.routing import Route
    return [
        Route("/replays/{id}/events", replay_events, methods=["GET"]),
        Route("/api/replay-events", replay_events_post, methods=["POST"]),
    ]
