"""One WebSocket connection as the lobby sees it (:class:`WsPeer`, a
:class:`~.seats.Peer`): what the lobby sends goes through a bounded per-connection
queue drained by a writer task, so a slow client never blocks a room."""

from __future__ import annotations

import asyncio
from typing import Any, Dict, List, Optional

from starlette.websockets import WebSocket, WebSocketDisconnect

from . import protocol as P

__all__ = ["WsPeer"]

_CLOSE = object()


class WsPeer:
    """One WebSocket connection as the lobby sees it (a :class:`~.seats.Peer`)."""

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
