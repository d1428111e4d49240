"""The ASGI application: static client, replays, and the WebSocket game protocol.

``create_app(settings=None, clock=None)`` builds a Starlette app around one
:class:`~.lobby.Lobby` (which plays ``settings.game`` through its server adapter) from
one part per concern: the HTTP routes (:mod:`.http_routes`, :mod:`.replay_events`), the
WebSocket endpoint (:mod:`.ws_endpoint`, each connection a :class:`~.ws_peer.WsPeer`),
the start and stop (:mod:`.lifespan`), and the one difference between a process alone
and a process of a cluster, chosen here once (:mod:`.scope`). Bots decide in a thread
pool (``settings.bot_threads``).
"""

from __future__ import annotations

from typing import Optional

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount, WebSocketRoute
from starlette.staticfiles import StaticFiles

from .clock import Clock, RealClock
from .http_routes import STATIC_DIR, HttpRoutes, SecurityHeaders
from .lifespan import lifespan
from .lobby import Lobby
from .replay_events import WorkGate
from .replay_events import routes as replay_event_routes
from .scope import scope_for
from .settings import Settings
from .ws_endpoint import GameSocket, origin_allowed
from .ws_peer import WsPeer

__all__ = ["create_app", "WsPeer", "STATIC_DIR", "SecurityHeaders", "origin_allowed"]


def create_app(settings: Optional[Settings] = None, clock: Optional[Clock] = None) -> Starlette:
    """The server as an ASGI app. ``clock`` (default: the real one) and ``settings``
    are injectable so tests drive time themselves (clock.ManualClock)."""
    settings = settings or Settings()
    clock = clock or RealClock()
    lobby = Lobby(settings, clock)
    scope = scope_for(settings, lobby)
    routes = [
        *replay_event_routes(),  # /replays/{id}/events first: it is more specific
        *HttpRoutes(lobby, scope, settings, clock).routes(),
        WebSocketRoute("/ws", GameSocket(lobby, scope, settings, clock).serve),
        Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan(lobby, scope, settings, clock),
        middleware=[Middleware(SecurityHeaders)],
    )
    app.state.lobby = lobby
    app.state.work_gate = WorkGate(settings, clock.now_ms)
    app.state.settings = settings
    app.state.clock = clock
    app.state.scope = scope
    app.state.cluster = scope.cluster  # None for a process alone
    return app
