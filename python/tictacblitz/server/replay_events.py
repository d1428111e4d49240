"""Replays as timed frames for the browser's replay viewer: the two routes (docs/client.md).

The frames themselves are the game's (``GameAdapter.replay_frames``: the replay played
on the game's engine, one frame per step, shaped like a live ``events`` message); this
module only serves them:

- ``GET /replays/{id}/events``: a recorded match of this server, by its ``replay_id``
  (the store ``GET /replays/{id}`` uses);
- ``POST /api/replay-events``: any replay file sent as the JSON body (the viewer's
  "open a file").

Both run the engine for a request, so both go through the same gate (docs/server.md,
"Limits"): a JSON content type and a body of at most ``max_body_bytes``, refused by its
``Content-Length`` or while it streams in (never held whole first), read within
``body_timeout_s`` and one upload at a time per address, *before* the job slot is taken
(issue 26, hole 4: two addresses trickling a byte a second held both slots for over a
minute); then per address a rate (``work_rate_per_s``, ``work_burst``) and one job at a
time, and at most ``work_jobs`` jobs server-wide; the job runs in a thread of its own
under a work budget (events, bytes, CPU time, :mod:`.budget`) and its answer is encoded
there, off the event loop.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Dict, Optional, Set

from .budget import BudgetExceeded, JobFailed, run_budgeted
from .limits import Buckets

__all__ = [
    "replay_events",
    "error_response",
    "replay_events_post",
    "routes",
    "MAX_REPLAY_BYTES",
    "WorkGate",
    "play_replay",
]

MAX_REPLAY_BYTES = 2 * 1024 * 1024  # a 7-round Blitz match of busy players is ~100 KiB


def _json(body: Any, status: int = 200, headers: Optional[Dict[str, str]] = None) -> Any:
    from starlette.responses import JSONResponse

    return JSONResponse(body, status_code=status, headers=headers)


def error_response(
    status: int, code: str, message: str, retry_after: Optional[float] = None
) -> Any:
    """An HTTP refusal: ``{"error": code, "message": ...}``, with ``Retry-After``
    (whole seconds, at least 1) when ``retry_after`` is given."""
    headers = {"Retry-After": str(max(1, round(retry_after)))} if retry_after is not None else None
    return _json({"error": code, "message": message}, status, headers)


class Refused(Exception):
    """A request the gate turns away, as its HTTP answer."""

    def __init__(self, response: Any) -> None:
        super().__init__()
        self.response = response


class WorkGate:
    """Who may make the server run its engine now: the per-address rate, one job per
    address, ``work_jobs`` at once."""

    def __init__(self, settings: Any, clock_ms: Any) -> None:
        self.settings = settings
        self.buckets = Buckets(clock_ms, settings.work_rate_per_s, settings.work_burst)
        self.busy: Set[str] = set()  # addresses with a job running
        self.reading: Set[str] = set()  # addresses with a body coming in

    def admit(self, address: str) -> None:
        if address in self.busy:
            raise Refused(
                error_response(
                    429,
                    "busy",
                    "one replay at a time from one address: wait for the last one",
                    retry_after=1,
                )
            )
        if len(self.busy) >= self.settings.work_jobs:
            raise Refused(
                error_response(
                    503,
                    "server_busy",
                    "the server is playing other replays: try again soon",
                    retry_after=1,
                )
            )
        if not self.buckets.take(address):
            raise _too_many(self.buckets.retry_after_s(address))
        self.busy.add(address)

    async def run(self, address: str, replay: Any) -> Any:
        """The frames of ``replay`` (a parsed file, or the bytes of one) played in a
        worker process under the budget (after :meth:`admit`); its JSON answer."""
        from starlette.responses import Response

        game = self.settings.game
        job = asyncio.ensure_future(
            run_budgeted(
                f"{__name__}:play_replay",
                (game.type.name, game.rules.to_dict(), replay),
                self.settings.work_budget(),
            )
        )

        # The address's slot is free again when the work really ended, not when the
        # request did (a client that hangs up does not get a second job running).
        def ended(task: Any) -> None:
            self.busy.discard(address)
            if not task.cancelled():
                task.exception()  # retrieved here too, in case nobody awaits it any more

        job.add_done_callback(ended)
        try:
            body = await asyncio.shield(job)
        except BudgetExceeded as exc:
            s = self.settings
            return error_response(
                422,
                "too_much_work",
                f"the replay needs too much work to play back ({exc}); the viewer "
                f"plays at most {s.work_max_events} events, {s.work_max_bytes} bytes of frames and "
                f"{s.work_max_cpu_s:g} s of CPU time",
            )
        except JobFailed as exc:
            if exc.kind == "BadJson":
                return error_response(400, "bad_json", str(exc))
            return error_response(
                422, "bad_replay", str(exc)
            )  # ReplayError, and what else it raised
        return Response(body, media_type="application/json")


def _address(request: Any) -> str:
    return request.client.host if request.client is not None else ""


async def replay_events(request: Any) -> Any:
    """``GET /replays/{id}/events``: the frames of a recorded match, or 404."""
    lobby = request.app.state.lobby
    gate: WorkGate = request.app.state.work_gate
    replay_id = request.path_params["id"]
    # Read in a thread (a just-finished match's replay is encoded there), and handed
    # to the worker as text: never parsed on the loop.
    text = await asyncio.to_thread(lobby.replays.text, replay_id)
    data: Any = None if text is None else text.encode()
    if data is None:  # in a cluster, a match another process hosted (scope.py)
        shared = await request.app.state.scope.replay(replay_id)
        data = None if shared is None else shared.encode()
    if data is None:
        return _json({"error": "not_found"}, 404)
    address = _address(request)
    try:
        await _admit(request, gate, address)
    except Refused as refused:
        return refused.response
    return await gate.run(address, data)


async def _admit(request: Any, gate: WorkGate, address: str) -> None:
    """This process's gate, then (in a cluster) the address's bucket shared by all."""
    gate.admit(address)
    s = request.app.state.settings
    wait = await request.app.state.scope.take("work", address, s.work_rate_per_s, s.work_burst)
    if wait:
        gate.busy.discard(address)
        raise _too_many(wait)


def _too_many(wait: float) -> Refused:
    """The refusal of an address over its rate of engine-running requests."""
    return Refused(
        error_response(
            429,
            "rate_limited",
            f"too many replays from this address: try again in {max(1, round(wait))} s",
            retry_after=wait,
        )
    )


async def _read_body(request: Any, limit: int) -> bytes:
    """The body, refused by its Content-Length or as soon as more than ``limit`` bytes
    came in (never held whole first); the caller bounds the time."""
    too_large = Refused(error_response(413, "too_large", f"a replay file is at most {limit} bytes"))
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            if int(declared) > limit:
                raise too_large
        except ValueError:
            raise Refused(
                error_response(400, "bad_request", "Content-Length is not a number")
            ) from None
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


class BadJson(ValueError):
    """A POSTed body that is not JSON."""


def check_game(replay: Any, game_name: str) -> None:
    """Refuse, in one line naming the file's game, a file this server cannot show: not a
    JSON object, another game's (docs/replay-format.md, "The ``"game"`` key": a file
    without ``game`` is Tic Tac Blitz), or one with neither ``script`` nor ``setup``.
    Without this, each game's loader met another game's file with its own words
    ("script[0] has unknown key(s)") or played it as an empty game (issue 26, item 11).

    :raises ReplayError: the line.
    """
    from ..games.protocol import ReplayError
    from ..games.registry import DEFAULT_GAME, available_games, game_type

    here = game_type(game_name).long_name
    if not isinstance(replay, dict):
        raise ReplayError(f"not a replay file: a replay is a JSON object, not {_kind(replay)}")
    name = replay.get("game", DEFAULT_GAME)
    if not isinstance(name, str) or name not in available_games():
        raise ReplayError(
            f"not a replay file of a game this server knows: game {json.dumps(name)[:40]} "
            f"(this server plays {here})"
        )
    if name != game_name:
        raise ReplayError(f"this is a {game_type(name).long_name} replay; this server plays {here}")
    if replay.get("script") is None and replay.get("setup") is None:
        # Every replay a server or a game writes has a script (a scenario may set a board
        # up instead); `{}` has nothing to show.
        raise ReplayError("not a replay file: no script (the match's actions) and no setup")


def _kind(value: Any) -> str:
    kinds = {list: "a list", str: "a string", bool: "a boolean", type(None): "null"}
    return kinds.get(type(value), "a number")


def play_replay(game_name: str, rules: Dict[str, Any], replay: Any) -> Any:
    """In the worker process: the frames of ``replay`` (parsed, or bytes of JSON) by the
    server's game adapter (``GameAdapter.replay_frames``)."""
    from ..games.registry import load_game
    from .adapter import adapter_for
    from .settings import Settings

    if isinstance(replay, bytes):
        try:
            replay = json.loads(replay)
        except ValueError as exc:
            raise BadJson(str(exc)) from None
    check_game(replay, game_name)
    game = load_game(game_name, rules)
    return adapter_for(game, Settings(game=game)).replay_frames(replay)


async def replay_events_post(request: Any) -> Any:
    """``POST /api/replay-events``: the frames of the replay file in the body."""
    settings = request.app.state.settings
    gate: WorkGate = request.app.state.work_gate
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type != "application/json":
        return error_response(
            415, "unsupported_media_type", "send the replay file as Content-Type: application/json"
        )
    address = _address(request)
    # The body first, bounded in size and time, one at a time per address; only then a
    # job slot: a slow upload holds nothing that others need (issue 26, hole 4).
    if address in gate.reading:
        return error_response(
            429, "busy", "one upload at a time from one address: wait for the last one", 1
        )
    from starlette.requests import ClientDisconnect

    gate.reading.add(address)
    try:
        body = await asyncio.wait_for(
            _read_body(request, settings.max_body_bytes), settings.body_timeout_s
        )
    except Refused as refused:
        return refused.response
    except ClientDisconnect:  # gone mid-body: nobody to answer, nothing to log
        return error_response(400, "incomplete_body", "the connection closed before the body ended")
    except asyncio.TimeoutError:
        return error_response(
            408,
            "body_timeout",
            f"the replay file did not arrive within {settings.body_timeout_s:g} s",
        )
    finally:
        gate.reading.discard(address)
    try:
        await _admit(request, gate, address)
    except Refused as refused:
        return refused.response
    # Parsed in the worker too: a 2 MiB body is no work for the event loop.
    return await gate.run(address, body)


def routes() -> list:
    """The two routes, ready to add to the app's route list (before ``/replays/{id}``)."""
    from starlette.routing import Route

    return [
        Route("/replays/{id}/events", replay_events, methods=["GET"]),
        Route("/api/replay-events", replay_events_post, methods=["POST"]),
    ]
