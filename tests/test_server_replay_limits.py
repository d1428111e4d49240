"""Replays under attack (issue 26, holes 3 and 4).

3. ``GET /replays/{id}`` had no rate limit and parsed and re-encoded the file on the
   event loop (four threads fetching a 1 MB replay took an honest room's ping p99 from
   12 to 328 ms); a finished match's replay was encoded and written on the loop too.
   Now fetches are rate limited per address and served as stored text from a thread,
   and ``put`` encodes and writes in a thread of its own.
4. ``POST /api/replay-events`` took one of the two job slots before reading its body,
   with no timeout: two addresses trickling a byte a second kept everyone at ``503
   server_busy``. Now the body is read first, within ``body_timeout_s``, one upload at
   a time per address, and only then is a slot taken."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("blitz_core.blitz.engine")

from starlette.testclient import TestClient

from tictacblitz.games import load_game
from tictacblitz.server.app import create_app
from tictacblitz.server.clock import ManualClock
from tictacblitz.server.replay_store import ReplayStore
from tictacblitz.server.settings import Settings

REPLAY_ID = "match0000fetch"
SMALL_REPLAY = json.dumps({"seed": 1, "script": [], "until": 200}).encode()


def test_replay_fetches_over_the_rate_are_refused_while_another_address_is_served() -> None:
    app = create_app(Settings(game=load_game("blitz"), bot_threads=0), ManualClock())
    app.state.lobby.replays.put(REPLAY_ID, {"seed": 3, "script": [], "name": "x" * 1000})
    burst = app.state.settings.replay_burst
    on_loop = []
    store_text = app.state.lobby.replays.text

    def text(match_id: str):
        try:
            asyncio.get_running_loop()
            on_loop.append(True)
        except RuntimeError:  # no loop in this thread: a worker thread
            on_loop.append(False)
        return store_text(match_id)

    app.state.lobby.replays.text = text
    with TestClient(app, client=("203.0.113.5", 4000)) as attacker:
        statuses = [attacker.get(f"/replays/{REPLAY_ID}").status_code for _ in range(burst + 5)]
        assert statuses == [200] * burst + [429] * 5
        refused = attacker.get(f"/replays/{REPLAY_ID}")
        assert refused.json()["error"] == "rate_limited"
        assert int(refused.headers["retry-after"]) >= 1
        honest = TestClient(app, client=("198.51.100.8", 5000))
        answer = honest.get(f"/replays/{REPLAY_ID}")
        assert answer.status_code == 200 and answer.json()["seed"] == 3
        assert honest.get("/replays/match0000nothere").status_code == 404
    assert on_loop and not any(on_loop)  # every read was off the event loop


def test_a_replay_is_encoded_and_written_off_the_caller(tmp_path) -> None:
    """``put`` hands the encoding and the file to ``offload``; the replay is served
    meanwhile, and is the stored text once the job is done (then mirrored)."""
    store = ReplayStore(keep=2, directory=str(tmp_path))
    jobs: list = []
    mirrored: list = []
    store.offload = lambda job, done: jobs.append((job, done))
    store.mirror = lambda match_id, text: mirrored.append(match_id)
    replay = {"seed": 5, "script": []}
    store.put(REPLAY_ID, replay)
    assert len(jobs) == 1 and not (tmp_path / f"{REPLAY_ID}.json").exists() and not mirrored
    assert store.get(REPLAY_ID) == replay and json.loads(store.text(REPLAY_ID)) == replay
    job, done = jobs[0]
    done(job(), None)
    assert json.loads((tmp_path / f"{REPLAY_ID}.json").read_text()) == replay
    assert store.text(REPLAY_ID) == '{"seed":5,"script":[]}' and mirrored == [REPLAY_ID]


def _serve(**settings):
    from tictacblitz.loadtest import run as load
    from tictacblitz.loadtest.cluster import free_port

    port = free_port()
    proc = load.start_server(port, [json.dumps({"settings": settings})])
    return port, proc


def _slow_upload(port: int, address: str, out: dict, stop: threading.Event) -> None:
    """A POST whose 1,000-byte body comes a byte every 0.2 s; ``out[address]`` is the
    status line the server answers (or what went wrong)."""
    try:
        with socket.create_connection(
            ("127.0.0.1", port), timeout=30, source_address=(address, 0)
        ) as s:
            s.sendall(
                b"POST /api/replay-events HTTP/1.1\r\nHost: x\r\n"
                b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
            )
            s.settimeout(0.2)
            for _ in range(1000):
                if stop.is_set():
                    break
                try:
                    answer = s.recv(200)
                    out[address] = answer.split(b"\r\n")[0].decode()
                    return
                except socket.timeout:
                    pass
                try:
                    s.sendall(b" ")
                except OSError:
                    break
            s.settimeout(30)
            out[address] = s.recv(200).split(b"\r\n")[0].decode()
    except OSError as exc:
        out[address] = type(exc).__name__


def _post(port: int, address: str, body: bytes) -> tuple:
    with socket.create_connection(
        ("127.0.0.1", port), timeout=60, source_address=(address, 0)
    ) as s:
        s.sendall(
            b"POST /api/replay-events HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            b"Content-Type: application/json\r\nContent-Length: "
            + str(len(body)).encode()
            + b"\r\n\r\n"
            + body
        )
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, payload = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), payload


def test_slow_uploads_do_not_hold_the_job_slots_and_time_out() -> None:
    """Two addresses trickle a body (the issue's attack); an honest upload from a third
    is served meanwhile, and the trickles are refused 408 once ``body_timeout_s`` (3 s
    here) is over. The old server answered the honest upload 503 server_busy."""
    port, proc = _serve(body_timeout_s=3.0)
    out: dict = {}
    stop = threading.Event()
    slow = [
        threading.Thread(target=_slow_upload, args=(port, f"127.0.0.{n}", out, stop))
        for n in (21, 22)
    ]
    try:
        for thread in slow:
            thread.start()
        time.sleep(1.0)  # both have sent their headers and a few bytes
        status, payload = _post(port, "127.0.0.23", SMALL_REPLAY)
        assert status == 200 and json.loads(payload)["frames"], (status, payload[:200])
        for thread in slow:
            thread.join(timeout=60)  # generous: the server answers after 3 s
        assert out == {"127.0.0.21": out["127.0.0.21"], "127.0.0.22": out["127.0.0.22"]}
        assert all(line.split()[1] == "408" for line in out.values()), out
    finally:
        stop.set()
        proc.terminate()
        proc.wait(timeout=10)
