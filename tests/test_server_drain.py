"""Stopping a server gracefully (docs/server.md, "Stopping a server"; server/drain.py),
one process, in this process: the lobby on a manual clock, ``drain`` on asyncio.

With the clock standing still the running match cannot end by itself, so the deadline
is what ends it: that shows both ways a drain ends a room."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("blitz_core.blitz")

from server_support import lobby_for
from tictacblitz.games import load_game
from tictacblitz.server import protocol as P
from tictacblitz.server.clock import ManualClock
from tictacblitz.server.drain import drain
from tictacblitz.server.room import LIVE, WAITING


def test_drain_refuses_new_rooms_closes_waiting_ones_and_ends_running_ones_at_the_deadline():
    lobby, say, connect = lobby_for(load_game("blitz"), ManualClock())
    waiting, playing, late = connect(), connect(), connect()
    say(waiting, type="create", mode="online")
    say(playing, type="create", mode="local")
    assert waiting.room.phase == WAITING and playing.room.phase == LIVE
    running = playing.room

    async def scenario() -> None:
        task = asyncio.ensure_future(drain(lobby, drain_s=0.5, poll_s=0.01))
        await asyncio.sleep(0.1)
        # Draining: no new room, no rematch; the waiting room is closed with a reason.
        say(late, type="create", mode="online")
        assert late.last("error")["code"] == "server_closing" and late.room is None
        closed = waiting.last("error")
        assert closed["code"] == "server_closing" and "closed" in closed["message"]
        assert waiting.closed == P.CLOSE_CODES["server_closing"]
        # The running match goes on until the deadline...
        assert not running.closed and playing.closed is None
        await task
        # ...and then ends, its players told it ended unfinished.
        assert running.closed and not lobby.rooms
        ended = playing.last("error")
        assert ended["code"] == "server_closing" and "unfinished" in ended["message"]
        assert playing.closed == P.CLOSE_CODES["server_closing"]

    asyncio.run(scenario())


def test_drain_ends_as_soon_as_no_room_is_left():
    lobby, say, connect = lobby_for(load_game("blitz"), ManualClock())
    say(connect(), type="create", mode="online")

    async def scenario() -> float:
        loop = asyncio.get_running_loop()
        start = loop.time()
        await drain(lobby, drain_s=30.0, poll_s=0.01)
        return loop.time() - start

    assert asyncio.run(scenario()) < 5.0 and not lobby.rooms
