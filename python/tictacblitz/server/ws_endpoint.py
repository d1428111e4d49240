"""``/ws``: the WebSocket game protocol (:class:`GameSocket`).

A handshake is refused (HTTP 403) from a foreign page (:func:`origin_allowed`) or past
the address's connection rate; an accepted socket past the address's connection bound
is closed with ``too_many_connections``. Then each frame is counted by the flood rule,
validated by :mod:`.protocol` and handed on through the :class:`~.scope.Scope` (to the
lobby, or in a cluster perhaps to another process); what the lobby sends leaves through
the connection's :class:`~.ws_peer.WsPeer`.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from . import protocol as P
from .clock import Clock
from .limits import Buckets
from .lobby import Lobby
from .scope import Scope
from .settings import Settings
from .ws_peer import WsPeer

__all__ = ["GameSocket", "origin_allowed"]


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


class GameSocket:
    """The ``/ws`` endpoint (:meth:`serve`) of a server of ``settings`` around ``lobby``."""

    def __init__(self, lobby: Lobby, scope: Scope, settings: Settings, clock: Clock) -> None:
        self.lobby = lobby
        self.scope = scope
        self.settings = settings
        self.clock = clock
        # New WebSockets per address: a flood is refused at the handshake, before any work.
        self.connection_buckets = Buckets(
            clock.now_ms, settings.connect_rate_per_s, settings.connect_burst
        )

    async def serve(self, websocket: WebSocket) -> None:
        settings, scope = self.settings, self.scope
        if not origin_allowed(websocket, settings, scope.origins()):
            await websocket.close(P.CLOSE_CODES["flood"])  # before accept: HTTP 403
            return
        address = websocket.client.host if websocket.client is not None else ""
        # One bound for the handshake's whole wait on shared state (cluster.REQUEST_S).
        deadline = scope.deadline()
        if not self.connection_buckets.take(address) or await scope.take(
            "connect", address, settings.connect_rate_per_s, settings.connect_burst, deadline
        ):
            await websocket.close(P.CLOSE_CODES["flood"])  # before accept: HTTP 403
            return
        await websocket.accept()
        # Bounded per address, so that one client cannot hold every room (with
        # --proxy-headers the address is the forwarded one); over the cluster with one.
        # (The other processes' count first: from reading this process's count to
        # counting this connection in it, nothing may wait, or a burst passes together.)
        elsewhere = await scope.held_elsewhere("conns", address, deadline)
        if elsewhere + scope.connections_from(address) >= settings.max_connections_per_ip:
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
        scope.connection_opened(address)
        try:
            await self.play(websocket)
        finally:
            scope.connection_closed(address)

    async def play(self, websocket: WebSocket) -> None:
        """The accepted socket's life: frames in until it closes or floods."""
        settings, lobby = self.settings, self.lobby
        peer = WsPeer(websocket, settings.max_queue)
        writer = asyncio.create_task(peer.writer())
        limiter = P.RateLimiter(
            self.clock.now_ms,
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
                except P.ProtocolError as exc:
                    peer.send(exc.to_dict())
                    continue
                await self.scope.dispatch(peer, parsed)
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
