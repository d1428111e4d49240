"""Graceful shutdown (docs/server.md, "Stopping a server"): on SIGTERM a server takes
no new rooms and lets the matches it is playing finish, then stops.

:func:`drain` does it for a :class:`~.lobby.Lobby`: from its first step, ``create`` is
refused (``server_closing``; in a cluster it is sent to another process), as are
rematches; rooms waiting for a second player close at once with ``server_closing``;
running matches play on. When none runs any more (or after ``drain_s``), every room
still open closes with ``server_closing`` and a message saying why, and the server
stops. :func:`draining_server` makes uvicorn's server with SIGTERM meaning that, and says
so on stderr in one line ("draining: 2 matches, up to 60 s"; issue 26: it drained
silently); a second SIGTERM, or SIGINT (Ctrl-C), stops at once as before. Generic:
nothing here names a game.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from types import FrameType
from typing import Any, Callable, Optional

from .room import RUNNING, WAITING

__all__ = ["drain", "draining_server"]

log = logging.getLogger("tictacblitz.server")
AFTER_LAST_S = 5.0  # the last match's players see its result this long before the close


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


async def drain(
    lobby: Any, drain_s: float, poll_s: float = 0.2, say: Callable[[str], None] = log.info
) -> None:
    """Stop taking rooms, wait for the running matches (at most ``drain_s``), close.
    ``say`` gets one line at the start: how many matches run, how long they may."""
    loop = asyncio.get_running_loop()
    lobby.draining = True
    deadline = loop.time() + drain_s
    quiet_since: Optional[float] = None
    running = sum(1 for room in lobby.rooms.values() if room.phase in RUNNING)
    say(f"draining: {running} {'match' if running == 1 else 'matches'}, up to {drain_s:g} s")
    while loop.time() < deadline:
        for room in list(lobby.rooms.values()):
            if room.phase == WAITING:
                lobby.close_room(
                    room, "server_closing", "the server is shutting down: this room is closed"
                )
        running = any(room.phase in RUNNING for room in lobby.rooms.values())
        if running:
            quiet_since = None
        else:
            quiet_since = quiet_since if quiet_since is not None else loop.time()
            if not lobby.rooms or loop.time() - quiet_since >= AFTER_LAST_S:
                break
        await asyncio.sleep(poll_s)
    unfinished = sum(1 for room in lobby.rooms.values() if room.phase in RUNNING)
    for room in list(lobby.rooms.values()):
        lobby.close_room(
            room,
            "server_closing",
            "the server is shutting down: the match was ended unfinished"
            if room.phase in RUNNING
            else "the server is shutting down: the room is closed",
        )
    log.info("drained: %d matches ended unfinished", unfinished)
    await asyncio.sleep(poll_s)  # the closing messages leave before the sockets do


def draining_server(
    config: Any, lobby: Any, drain_s: float, say: Callable[[str], None] = _stderr
) -> Any:
    """A ``uvicorn.Server`` for ``config`` whose first SIGTERM drains ``lobby`` (at most
    ``drain_s``) before it stops, telling ``say`` (default: stderr) in one line (uvicorn
    is imported here, only when serving)."""
    import uvicorn

    class DrainingServer(uvicorn.Server):
        draining = False
        interrupted = False  # stopped by SIGINT (Ctrl-C)

        async def serve(self, sockets: Any = None) -> None:
            self.loop = asyncio.get_running_loop()
            await super().serve(sockets)

        def handle_exit(self, sig: int, frame: Optional[FrameType]) -> None:
            self.interrupted = self.interrupted or sig == signal.SIGINT
            if sig != signal.SIGTERM or self.draining or self.should_exit:
                super().handle_exit(sig, frame)
                return
            self.draining = True
            self.loop.call_soon_threadsafe(self._start_drain)

        def _start_drain(self) -> None:
            self.drain_task = asyncio.ensure_future(drain(lobby, drain_s, say=say))
            self.drain_task.add_done_callback(lambda _: setattr(self, "should_exit", True))

    return DrainingServer(config)
