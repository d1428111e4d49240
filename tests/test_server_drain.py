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


# -- a real `tictacblitz serve`: what the operator sees (issue 26, item 12) ------------------


def _serve(*extra: str):
    """A ``tictacblitz serve`` subprocess on a free port, once it answers; its port."""
    import signal
    import subprocess
    import sys
    import time
    import urllib.request

    pytest.importorskip("uvicorn")
    from cluster_support import free_port
    from tictacblitz.loadtest.procs import child_env

    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from tictacblitz.cli import main; sys.exit(main())"]
        + ["serve", "--port", str(port), "--log-level", "warning", *extra],
        env=child_env(),
        stderr=subprocess.PIPE,
        text=True,
        # SIGINT at its default, as in a terminal (a shell's background job inherits it
        # ignored, and then the old traceback does not show).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).close()
            return proc, port
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"serve did not start: {proc.communicate()[1]}")
            time.sleep(0.1)


def test_ctrl_c_stops_serve_with_one_line_and_no_traceback():
    import signal

    proc, _ = _serve()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    # Before: uvicorn's shutdown, then a ~20-line KeyboardInterrupt traceback.
    assert "Traceback" not in err, err
    assert err.splitlines() == ["tictacblitz serve: stopped"], err
    assert proc.returncode == 130


def test_sigterm_says_how_many_matches_it_drains_and_for_how_long():
    import json
    import signal

    websockets = pytest.importorskip("websockets")
    proc, port = _serve("--drain-s", "1")

    async def scenario() -> None:
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10) as ws:
            await ws.recv()  # welcome
            await ws.send(json.dumps({"type": "create", "mode": "local"}))
            while json.loads(await ws.recv())["type"] != "joined":
                pass
            proc.send_signal(signal.SIGTERM)
            # The running match is ended at the 1 s deadline: the room says why.
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if message["type"] == "error":
                    assert message["code"] == "server_closing", message
                    return

    try:
        asyncio.run(asyncio.wait_for(scenario(), 60))
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # Before: nothing at all until the process was gone.
    assert err.splitlines() == ["draining: 1 match, up to 1 s"], err
    assert proc.returncode == 0
