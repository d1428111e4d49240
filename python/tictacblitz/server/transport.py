"""The transport's guards: uvicorn's HTTP and WebSocket protocols, with limits the
ASGI app cannot set because they act before it sees anything (issue 26; docs/server.md,
"Limits", "Frames and connections").

- **Open TCP connections per address** (:class:`TcpLedger`): at most
  ``Settings.max_tcp_per_ip`` at once, HTTP and WebSocket alike (a WebSocket stays
  counted after its upgrade, until it closes); one more is answered 429 and closed
  before anything of it is read. Behind a reverse proxy the proxy's address is
  exempt (``--proxy-headers`` with ``--forwarded-allow-ips``): the proxy limits its
  clients (``limit_conn``) and the app's per-address limits see the forwarded address.
- **Request headers** (:class:`GuardedHttp`): a connection must have sent a request's
  whole head within ``Settings.header_timeout_s`` of its start (of connecting, or of
  the request's first byte on a kept-alive connection), or it is closed; trickling
  a byte now and then does not extend it. Silent connections are closed the same way.
  A head over ``Settings.max_head_bytes`` (counted to the end of the read that passes
  it) is answered 431 and closed: httptools would hold it whole.
  (Issue 26, hole 2: 20,300 half-sent requests took every file descriptor.)
- **Frames per WebSocket** (:class:`GuardedWebSocket`): every frame received, data or
  control (ping, pong, close, continuation), takes a token of a budget of
  ``Settings.frame_rate_per_s`` a second after a burst of ``Settings.frame_burst``;
  a frame over it closes the connection (1008). The budget is twice the app's own
  rule for messages (50 a second, closed after 150 in a burst), so a data flood meets
  the app's rule (``rate_limited``) first; it is the only limit on control frames,
  which never reach the app. And the server stops reading a WebSocket while its
  write buffer is over ``Settings.ws_write_high_bytes`` (the peer is not reading
  what it is sent): a ping waits there instead of its pong growing the buffer.
  (Issue 26, hole 1: pings never read grew the server from 54 to 1,025 MB in 25 s.)

:func:`guarded_protocols` builds the two classes for one server (uvicorn's
``Config(http=..., ws=...)``). Generic: nothing here names a game.
"""

from __future__ import annotations

import ipaddress
from typing import Any, Callable, Dict, Optional, Tuple

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame

from . import protocol as P

__all__ = [
    "TcpLedger",
    "GuardedHttp",
    "GuardedWebSocket",
    "guarded_protocols",
    "trusted_proxies",
    "TOO_MANY_CONNECTIONS",
    "HEAD_TOO_LARGE",
]

HEAD_TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n"
    b"connection: close\r\n\r\n"
)
TOO_MANY_CONNECTIONS = (
    b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 37\r\nconnection: close\r\n\r\n"
    b"too many connections from one address"
)


def trusted_proxies(forwarded_allow_ips: str) -> Callable[[str], bool]:
    """Whether an address is one of ``--forwarded-allow-ips`` (comma-separated
    addresses and networks, or ``*``: every one), as uvicorn trusts them."""
    entries = [entry.strip() for entry in forwarded_allow_ips.split(",") if entry.strip()]
    if "*" in entries:
        return lambda address: True
    networks = []
    literals = set()
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            literals.add(entry)  # a Unix socket path, as uvicorn allows

    def trusted(address: str) -> bool:
        if address in literals:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in networks)

    return trusted


class TcpLedger:
    """Open TCP connections by peer address: :meth:`admit` counts one (False: over
    ``limit``, not counted), :meth:`release` uncounts it (once, whoever calls)."""

    def __init__(self, limit: int, exempt: Callable[[str], bool]) -> None:
        self.limit = limit
        self.exempt = exempt
        self.by_address: Dict[str, int] = {}
        self.open: Dict[Any, str] = {}  # transport: its address

    def admit(self, transport: Any) -> bool:
        peer = transport.get_extra_info("peername")
        address = peer[0] if isinstance(peer, (tuple, list)) and peer else None
        if not isinstance(address, str) or self.exempt(address):
            return True  # a Unix socket, or a trusted proxy: not counted
        held = self.by_address.get(address, 0)
        if held >= self.limit:
            return False
        self.by_address[address] = held + 1
        self.open[transport] = address
        return True

    def release(self, transport: Any) -> None:
        address = self.open.pop(transport, None)
        if address is None:
            return
        left = self.by_address[address] - 1
        if left:
            self.by_address[address] = left
        else:
            del self.by_address[address]


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol, with the per-address ledger, the header deadline
    and a bound on a head's bytes. ``ledger``, ``header_timeout_s`` and
    ``max_head_bytes`` are set by :func:`guarded_protocols`."""

    ledger: TcpLedger
    header_timeout_s: float
    max_head_bytes: int
    header_timer: Optional[Any] = None
    head_bytes = 0

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        if not self.ledger.admit(transport):
            transport.write(TOO_MANY_CONNECTIONS)
            transport.close()
            return
        self._arm()

    def connection_lost(self, exc: Optional[Exception]) -> None:
        self._disarm()
        self.ledger.release(self.transport)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        pending = self.header_timer is not None
        super().data_received(data)
        if pending and self.header_timer is not None:  # the head is still incomplete:
            self.head_bytes += len(data)  # httptools holds it, unbounded (46 MiB seen)
            if self.head_bytes > self.max_head_bytes and not self.transport.is_closing():
                self._disarm()
                self.transport.write(HEAD_TOO_LARGE)
                self.transport.close()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.header_timer is None:  # a kept-alive connection's next request
            self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def _arm(self) -> None:
        self.head_bytes = 0
        self.header_timer = self.loop.call_later(self.header_timeout_s, self._too_slow)

    def _disarm(self) -> None:
        if self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None

    def _too_slow(self) -> None:
        self.header_timer = None
        if not self.transport.is_closing():
            self.transport.close()


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's websockets-sansio protocol, with the frame budget and reads paused
    while the write buffer is full. The budget and ``ledger`` are set by
    :func:`guarded_protocols`."""

    ledger: TcpLedger
    frame_rate_per_s: float
    frame_burst: int
    write_high_bytes: int

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The app's flood rule (a token bucket, protocol.RateLimiter) over every frame;
        # the first frame over it fails the connection.
        self.frame_limiter = P.RateLimiter(
            lambda: self.loop.time() * 1000.0,
            rate=self.frame_rate_per_s,
            burst=self.frame_burst,
            close_after=1,
        )
        self.over_budget = False

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        transport.set_write_buffer_limits(high=self.write_high_bytes)

    def connection_lost(self, exc: Optional[Exception]) -> None:
        self.ledger.release(self.transport)
        super().connection_lost(exc)

    # Every frame goes through one of these (uvicorn's handle_events).
    def handle_text(self, event: Frame) -> None:
        if self._admit_frame():
            super().handle_text(event)

    def handle_bytes(self, event: Frame) -> None:
        if self._admit_frame():
            super().handle_bytes(event)

    def handle_cont(self, event: Frame) -> None:
        if self._admit_frame():
            super().handle_cont(event)

    def handle_ping(self) -> None:
        if self._admit_frame():
            super().handle_ping()

    def handle_pong(self, event: Frame) -> None:
        if self._admit_frame():
            super().handle_pong(event)

    def handle_close(self, event: Frame) -> None:
        if self._admit_frame():
            super().handle_close(event)

    def _admit_frame(self) -> bool:
        """Count one frame: False once over the budget (the connection is failed with
        1008 at the first frame over it, and nothing more of it is handled)."""
        if self.over_budget:
            return False
        if self.frame_limiter.admit()[0]:
            return True
        self.over_budget = True
        self.conn.fail(1008, "too many frames")
        self.transport.write(b"".join(self.conn.data_to_send()))
        self._close_now()
        return False

    def keepalive_timeout(self) -> None:
        super().keepalive_timeout()  # no pong within ws_ping_timeout: closed,
        self._close_now()  # and at once even if the peer reads nothing

    def _close_now(self) -> None:
        """Close; abort if output is still buffered: a graceful close waits for the
        buffer to drain, which a peer that does not read would make last forever."""
        if self.transport.get_write_buffer_size():
            self.transport.abort()
        elif not self.transport.is_closing():
            self.transport.close()

    # Backpressure: while the peer does not read what it is sent, do not read what it
    # sends (uvicorn pauses the app's sends, not the pongs it writes on its own).
    def pause_writing(self) -> None:
        super().pause_writing()
        if not self.transport.is_closing():
            self.transport.pause_reading()

    def resume_writing(self) -> None:
        super().resume_writing()
        if not self.read_paused and not self.transport.is_closing():
            self.transport.resume_reading()

    async def receive(self) -> Any:
        message = await super().receive()  # resumes reading once the app caught up,
        # uvicorn's ``writable`` is clear exactly while the writes are paused.
        if not self.writable.is_set() and not self.transport.is_closing():
            self.transport.pause_reading()  # but not while the writes are paused
        return message


def guarded_protocols(settings: Any, trusted: Callable[[str], bool]) -> Tuple[type, type]:
    """The HTTP and WebSocket protocol classes of one server (``Config(http=, ws=)``):
    ``settings``' limits, one ledger shared by both, ``trusted`` addresses exempt."""
    ledger = TcpLedger(settings.max_tcp_per_ip, trusted)
    http = type(
        "GuardedHttp",
        (GuardedHttp,),
        {
            "ledger": ledger,
            "header_timeout_s": settings.header_timeout_s,
            "max_head_bytes": settings.max_head_bytes,
        },
    )
    ws = type(
        "GuardedWebSocket",
        (GuardedWebSocket,),
        {
            "ledger": ledger,
            "frame_rate_per_s": settings.frame_rate_per_s,
            "frame_burst": settings.frame_burst,
            "write_high_bytes": settings.ws_write_high_bytes,
        },
    )
    return http, ws
