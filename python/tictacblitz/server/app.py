"""The ASGI application: static client, replays, and the WebSocket game protocol.

``create_app(settings=None, clock=None)`` builds a Starlette app around one
:class:`~.lobby.Lobby` (which plays ``settings.game`` through its server adapter).
Each WebSocket gets a :class:`WsPeer`: frames are counted by the flood rule, validated
by :mod:`.protocol` and handed to the lobby; what the lobby sends goes through a
bounded per-connection queue drained by a writer task, so a slow client never blocks a
room. Bots decide in a thread pool (``settings.bot_threads``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any, AsyncIterator, Dict, List, Optional

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from . import protocol as P
from .budget import warm_up
from .clock import Clock, RealClock
from .cluster import Cluster
from .jobs import run_job
from .limits import Buckets
from .lobby import Lobby
from .replay_events import WorkGate, error_response
from .replay_events import routes as replay_event_routes
from .replay_store import REPLAY_ID
from .settings import Settings

__all__ = ["create_app", "WsPeer", "STATIC_DIR", "SecurityHeaders", "origin_allowed"]

STATIC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
_CLOSE = object()
_SECURITY_HEADERS = {
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
        self.headers = [(k.lower().encode(), v.encode()) for k, v in _SECURITY_HEADERS.items()]

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


def origin_allowed(websocket: WebSocket, settings: Settings, also: Any = ()) -> bool:
    """A browser's WebSocket must come from a page of this server (the ``public_url``'s
    origin; without one, the request's ``Host``), of an ``--allow-origin`` or of
    ``also`` (the other processes of its cluster, whose pages redirect here); a client
    without ``Origin`` (not a browser: a bot, the load tool) is not a cross-site risk.
    With ``public_url`` the ``Host`` header is not trusted: a DNS-rebinding page sends
    its own name as both ``Host`` and ``Origin`` (issue 26)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    origin = origin.rstrip("/").lower()
    allowed = {o.rstrip("/").lower() for o in (*settings.allowed_origins, *also)}
    if settings.public_url:
        from urllib.parse import urlsplit

        parts = urlsplit(settings.public_url)
        allowed.add(f"{parts.scheme}://{parts.netloc}".lower())
    else:
        host = websocket.headers.get("host", "").lower()
        allowed.update((f"http://{host}", f"https://{host}"))
    return origin in allowed


class WsPeer:
    """One WebSocket connection as the lobby sees it (room.Peer)."""

    def __init__(self, websocket: WebSocket, max_queue: int) -> None:
        self.websocket = websocket
        self.member: Any = None
        self.room: Any = None
        self.max_queue = max_queue
        self.queue: "asyncio.Queue[Any]" = asyncio.Queue()
        self.closing: Optional[int] = None
        self.address = websocket.client.host if websocket.client is not None else ""
        # Sent here by another process of the cluster to create a room: create it here.
        self.routed = websocket.query_params.get("routed") == "1"
        self.held: Optional[List[str]] = None  # messages held back, in order (release)
        url = websocket.url
        scheme = "https" if url.scheme == "wss" else "http"
        self.base_url = f"{scheme}://{url.netloc}"

    def send(self, message: Dict[str, Any]) -> None:
        self.send_text(P.encode(message))

    def send_text(self, text: str) -> None:
        if self.closing is not None:
            return
        if self.held is not None:
            self.held.append(text)
            return
        if self.queue.qsize() >= self.max_queue:
            self.close(P.CLOSE_CODES["too_slow"])
            return
        self.queue.put_nowait(text)

    def release(self) -> None:
        """Send what was held back (:attr:`held`), in order."""
        held, self.held = self.held or [], None
        for text in held:
            self.send_text(text)

    def close(self, code: int) -> None:
        self.release()
        if self.closing is None:
            self.closing = code
            self.queue.put_nowait(_CLOSE)

    async def writer(self) -> None:
        try:
            while True:
                item = await self.queue.get()
                if item is _CLOSE:
                    await self.websocket.close(code=self.closing or 1000)
                    return
                await self.websocket.send_text(item)
        except (WebSocketDisconnect, RuntimeError, OSError):
            return


def create_app(settings: Optional[Settings] = None, clock: Optional[Clock] = None) -> Starlette:
    """The server as an ASGI app. ``clock`` (default: the real one) and ``settings``
    are injectable so tests drive time themselves (clock.ManualClock)."""
    settings = settings or Settings()
    clock = clock or RealClock()
    lobby = Lobby(settings, clock)
    cluster = Cluster(settings, lobby) if settings.redis_url else None
    work_gate = WorkGate(settings, clock.now_ms)
    # New WebSockets per address: a flood is refused at the handshake, before any work.
    connection_buckets = Buckets(clock.now_ms, settings.connect_rate_per_s, settings.connect_burst)
    # GET /replays/{id} per address (issue 26, hole 3: four fetchers of a 1 MB replay
    # took an honest room's ping p99 from 12 to 328 ms).
    fetch_buckets = Buckets(clock.now_ms, settings.replay_rate_per_s, settings.replay_burst)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        if hasattr(clock, "bind"):
            clock.bind(loop)
        executor = (
            ThreadPoolExecutor(settings.bot_threads, thread_name_prefix="bot")
            if settings.bot_threads
            else None
        )
        lobby.executor = executor
        lobby.post = loop.call_soon_threadsafe  # type: ignore[assignment]
        # Replays are encoded and written in a thread of their own, in order (never on
        # the loop: replay_store.py).
        writer = ThreadPoolExecutor(1, thread_name_prefix="replay")

        def back(callback: Any) -> None:
            loop.call_soon_threadsafe(callback)

        lobby.replays.offload = lambda job, done: run_job(writer, back, job, done)
        # The replay workers' process server, with the game's adapter imported once.
        loop.run_in_executor(None, warm_up, [f"{__package__}.games.{settings.game.type.name}"])
        if cluster is not None:
            await cluster.start()
        try:
            yield
        finally:
            for room in list(lobby.rooms.values()):
                lobby.close_room(room)
            if cluster is not None:
                await cluster.close()
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)
            lobby.replays.offload = None
            writer.shutdown(wait=True)  # the last replays reach the disk

    async def page(request: Request) -> Response:
        return FileResponse(os.path.join(STATIC_DIR, "index.html"), headers=_SECURITY_HEADERS)

    async def info(request: Request) -> Response:
        return JSONResponse(lobby.welcome())

    async def rules(request: Request) -> Response:
        return JSONResponse(lobby.rules())

    async def health(request: Request) -> Response:
        out: Dict[str, Any] = {
            "ok": True,
            "rooms": len(lobby.rooms),
            "connections": lobby.connections,
        }
        out["draining"] = lobby.draining
        if cluster is not None:
            out.update(
                process=cluster.process,
                processes=len(cluster.processes),
                reachable=cluster.reachable,
            )
        return JSONResponse(out)

    async def replay(request: Request) -> Response:
        replay_id = request.path_params["replay_id"]
        address = request.client.host if request.client is not None else ""
        wait = 0.0 if fetch_buckets.take(address) else fetch_buckets.retry_after_s(address)
        if not wait and cluster is not None:
            wait = await cluster.take(
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
        text = await asyncio.to_thread(lobby.replays.text, replay_id)
        if text is None and cluster is not None and REPLAY_ID.match(replay_id):
            text = await cluster.replay(replay_id)
        if text is None:
            return JSONResponse({"error": "not_found"}, status_code=404)
        return Response(
            text, media_type="application/json", headers={"Content-Disposition": "inline"}
        )

    per_address: Dict[str, int] = cluster.conns_by_address if cluster is not None else {}

    async def game(websocket: WebSocket) -> None:
        if not origin_allowed(websocket, settings, cluster.origins() if cluster else ()):
            await websocket.close(P.CLOSE_CODES["flood"])  # before accept: HTTP 403
            return
        address = websocket.client.host if websocket.client is not None else ""
        # One bound for the handshake's whole wait on Redis (cluster.REQUEST_S).
        deadline = cluster.deadline() if cluster is not None else 0.0
        if not connection_buckets.take(address) or (
            cluster is not None
            and await cluster.take(
                "connect", address, settings.connect_rate_per_s, settings.connect_burst, deadline
            )
        ):
            await websocket.close(P.CLOSE_CODES["flood"])  # before accept: HTTP 403
            return
        await websocket.accept()
        # Bounded per address, so that one client cannot hold every room (with
        # --proxy-headers the address is the forwarded one); over the cluster with one.
        # (The other processes' count first: from reading this process's count to
        # counting this connection in it, nothing may wait, or a burst passes together.)
        elsewhere = await cluster.held("conns", address, 0, deadline) if cluster else 0
        if elsewhere + per_address.get(address, 0) >= settings.max_connections_per_ip:
            await websocket.send_text(
                P.encode(
                    P.error_message(
                        "too_many_connections",
                        f"at most {settings.max_connections_per_ip} connections from one address",
                    )
                )
            )
            await websocket.close(P.CLOSE_CODES["flood"])
            return
        per_address[address] = per_address.get(address, 0) + 1
        if cluster is not None:
            cluster.counts_changed("conns", address)
        try:
            await _play(websocket)
        finally:
            per_address[address] -= 1
            if not per_address[address]:
                del per_address[address]
            if cluster is not None:
                cluster.counts_changed("conns", address)

    async def _play(websocket: WebSocket) -> None:
        peer = WsPeer(websocket, settings.max_queue)
        writer = asyncio.create_task(peer.writer())
        limiter = P.RateLimiter(
            clock.now_ms,
            rate=settings.rate_per_s,
            burst=settings.burst,
            close_after=settings.flood_close_drops,
        )
        lobby.connected(peer)
        try:
            while peer.closing is None:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                admitted, notify, close = limiter.admit()
                if not admitted:
                    if notify:
                        peer.send(
                            P.error_message(
                                "rate_limited",
                                f"over {settings.rate_per_s:g} messages a second: "
                                "messages are being dropped",
                            )
                        )
                    if close:
                        peer.close(P.CLOSE_CODES["flood"])
                        break
                    continue
                text = message.get("text")
                try:
                    if text is not None and len(text) > settings.max_message_bytes:
                        raise P.ProtocolError(
                            "too_large", f"a frame is at most {settings.max_message_bytes} bytes"
                        )
                    parsed = lobby.parse(text)
                    # In a cluster the room may be another process's: sent on there.
                    # One bound for the message's whole wait on Redis (REQUEST_S): a
                    # create's starts here (its answer waits for the directory too),
                    # a join's in route; an act, ping or sync waits for nothing.
                    deadline = None
                    if cluster is not None:
                        if parsed.type == "create":
                            deadline = cluster.deadline()
                        if await cluster.route(peer, parsed, deadline):
                            continue
                except P.ProtocolError as exc:
                    peer.send(exc.to_dict())
                    continue
                if cluster is not None and parsed.type == "create":
                    # The answer (the room's code) waits until the room is in the
                    # directory: a friend's join through another process finds it.
                    peer.held = []
                    lobby.handle(peer, parsed)
                    await cluster.published(cluster.deadline(deadline))
                    peer.release()
                else:
                    lobby.handle(peer, parsed)
        except WebSocketDisconnect:
            pass
        finally:
            lobby.disconnected(peer)
            if peer.closing is None:
                writer.cancel()
            else:
                with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                    await asyncio.wait_for(writer, timeout=2.0)
            with contextlib.suppress(asyncio.CancelledError):
                await writer

    routes = [
        *replay_event_routes(),  # /replays/{id}/events first: it is more specific
        Route("/", page),
        Route("/r/{code}", page),
        Route("/api/info", info),
        Route("/api/rules", rules),
        Route("/healthz", health),
        Route("/replays/{replay_id}", replay),
        WebSocketRoute("/ws", game),
        Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(SecurityHeaders)])
    app.state.lobby = lobby
    app.state.work_gate = work_gate
    app.state.settings = settings
    app.state.clock = clock
    app.state.cluster = cluster
    return app
