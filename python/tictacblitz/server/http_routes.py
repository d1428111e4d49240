"""The HTTP side of the server: the page, ``/api/info``, ``/api/rules``, ``/healthz``,
``/replays/{id}`` (:class:`HttpRoutes`; the replay frames are :mod:`.replay_events`'s),
and the security headers on every answer (:class:`SecurityHeaders`)."""

from __future__ import annotations

import asyncio
import os
from typing import Any, Dict, List

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from .clock import Clock
from .limits import Buckets
from .lobby import Lobby
from .replay_events import error_response
from .scope import Scope
from .settings import Settings

__all__ = ["HttpRoutes", "SecurityHeaders", "SECURITY_HEADERS", "STATIC_DIR"]

STATIC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    # Nothing from a CDN: the page may load only what this server serves.
    "Content-Security-Policy": "default-src 'self'; connect-src 'self' ws: wss:; "
    "img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
}


class SecurityHeaders:
    """ASGI middleware: every HTTP answer (the page, static files, the API) carries the
    security headers, not only ``/``."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.headers = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                message = {
                    **message,
                    "headers": list(message.get("headers", []))
                    + [(k, v) for k, v in self.headers if k not in present],
                }
            await send(message)

        await self.app(scope, receive, with_headers)


class HttpRoutes:
    """The HTTP endpoints of a server of ``settings`` around ``lobby``."""

    def __init__(self, lobby: Lobby, scope: Scope, settings: Settings, clock: Clock) -> None:
        self.lobby = lobby
        self.scope = scope
        self.settings = settings
        # GET /replays/{id} per address (issue 26, hole 3: four fetchers of a 1 MB replay
        # took an honest room's ping p99 from 12 to 328 ms).
        self.fetch_buckets = Buckets(
            clock.now_ms, settings.replay_rate_per_s, settings.replay_burst
        )

    def routes(self) -> List[BaseRoute]:
        return [
            Route("/", self.page),
            Route("/r/{code}", self.page),
            Route("/api/info", self.info),
            Route("/api/rules", self.rules),
            Route("/healthz", self.health),
            Route("/replays/{replay_id}", self.replay),
        ]

    async def page(self, request: Request) -> Response:
        return FileResponse(os.path.join(STATIC_DIR, "index.html"), headers=SECURITY_HEADERS)

    async def info(self, request: Request) -> Response:
        return JSONResponse(self.lobby.welcome())

    async def rules(self, request: Request) -> Response:
        return JSONResponse(self.lobby.rules())

    async def health(self, request: Request) -> Response:
        lobby = self.lobby
        out: Dict[str, Any] = {
            "ok": True,
            "rooms": len(lobby.rooms),
            "connections": lobby.connections,
            "draining": lobby.draining,
        }
        out.update(self.scope.health())
        return JSONResponse(out)

    async def replay(self, request: Request) -> Response:
        replay_id = request.path_params["replay_id"]
        address = request.client.host if request.client is not None else ""
        buckets, settings = self.fetch_buckets, self.settings
        wait = 0.0 if buckets.take(address) else buckets.retry_after_s(address)
        if not wait:
            wait = await self.scope.take(
                "replay", address, settings.replay_rate_per_s, settings.replay_burst
            )
        if wait:
            return error_response(
                429,
                "rate_limited",
                "too many replay downloads from this address: "
                f"try again in {max(1, round(wait))} s",
                retry_after=wait,
            )
        # Read (and for a replay just finished, encoded) in a thread: never on the loop.
        text = await asyncio.to_thread(self.lobby.replays.text, replay_id)
        if text is None:
            text = await self.scope.replay(replay_id)
        if text is None:
            return JSONResponse({"error": "not_found"}, status_code=404)
        return Response(
            text, media_type="application/json", headers={"Content-Disposition": "inline"}
        )
