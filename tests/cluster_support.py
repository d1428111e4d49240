"""What the tests of a server of several processes share (tests/test_server_cluster.py,
tests/test_browser_cluster.py): a Redis and N ``tictacblitz serve --redis`` processes on
loopback ports (:class:`LocalCluster`), and a WebSocket client that can speak from a
given loopback address and follow ``redirect`` answers (:class:`Client`).

Without Debian's ``redis-server`` the tests are skipped, unless CI=true: CI installs
it (.ci/run), so there its absence is a failure, not a skip."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Short matches: one round of 1.5 s, so a match ends within seconds of its start.
QUICK_RULES = {"round_ms": 1500, "rounds_to_win": 1, "max_rounds": 1}


def require_redis() -> None:
    """Skip the calling module without redis-server or the server's dependencies (a
    failure instead under CI=true, where .ci/run installs them)."""
    strict = os.environ.get("CI", "").lower() == "true"
    for module in ("starlette", "uvicorn", "redis", "websockets"):
        if strict:
            __import__(module)
        else:
            pytest.importorskip(module)
    if shutil.which("redis-server") is None:
        if strict:
            pytest.fail("CI=true and no redis-server on PATH: .ci/run installs it")
        pytest.skip(
            "no redis-server on PATH (apt-get install redis-server)", allow_module_level=True
        )


def free_port() -> int:
    """A loopback port no other process is handed while this one lives
    (:func:`tictacblitz.loadtest.cluster.free_port`, imported here so that a module
    without the server's dependencies is still skipped, not broken)."""
    from tictacblitz.loadtest.cluster import free_port as locked_free_port

    return locked_free_port()


def _get(url: str, timeout: float = 2.0) -> Any:
    with urllib.request.urlopen(url, timeout=timeout) as answer:
        return json.loads(answer.read())


class LocalCluster:
    """A Redis and ``n`` server processes (the ``serve`` command, as an operator runs
    it), each with ``--redis`` and its own ``--public-url``; ``extra``: more ``serve``
    options for all of them."""

    def __init__(self, n: int, extra: Optional[List[str]] = None) -> None:
        from tictacblitz.loadtest.procs import child_env, start_redis

        self.redis_port = free_port()
        self.redis = start_redis(self.redis_port)
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.ports = [free_port() for _ in range(n)]
        self.urls = [f"http://127.0.0.1:{p}" for p in self.ports]
        self.procs: List[subprocess.Popen] = []
        self.extra = list(extra or [])
        self.env = child_env()
        for port in self.ports:
            self.procs.append(self.start(port))
        # Each process must also have found itself at its public URL: until then the
        # others send it no creates.
        self.wait_for(
            lambda h: h["processes"] == n and h["reachable"], what=f"{n} processes in the cluster"
        )

    def start(self, port: int, public_url: Optional[str] = None) -> subprocess.Popen:
        """One more ``serve`` process of this cluster on ``port`` (its public URL:
        ``public_url``, by default its own address)."""
        args = [
            sys.executable,
            "-c",
            "import sys; from tictacblitz.cli import main; sys.exit(main())",
            "serve",
            "--port",
            str(port),
            "--public-url",
            public_url or f"http://127.0.0.1:{port}",
            "--redis",
            self.redis_url,
            "--log-level",
            "warning",
            *self.extra,
        ]
        return subprocess.Popen(args, env=self.env, stderr=subprocess.PIPE, text=True)

    def health(self, i: int) -> Dict[str, Any]:
        return _get(self.urls[i] + "/healthz")

    def alive(self) -> List[int]:
        return [i for i, p in enumerate(self.procs) if p.poll() is None]

    def wait_for(self, check: Any, what: str, timeout: float = 30.0) -> None:
        """Until ``check(health)`` holds for every live process."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                if all(check(self.health(i)) for i in self.alive()):
                    return
            except OSError:
                pass
            for p in self.procs:
                if p.poll() not in (None, 0, -signal.SIGKILL):
                    pytest.fail(f"a server process failed: {p.stderr.read() if p.stderr else ''}")
            if time.monotonic() > deadline:
                pytest.fail(f"timed out waiting for {what}")
            time.sleep(0.1)

    def restart_redis(self) -> None:
        """A new, empty Redis on the same port (after ``self.redis`` was stopped)."""
        from tictacblitz.loadtest.procs import start_redis

        self.redis = start_redis(self.redis_port)

    def kill(self, i: int) -> None:
        """Kill process ``i`` at once (SIGKILL: no goodbye to Redis)."""
        self.procs[i].kill()
        self.procs[i].wait(timeout=10)

    def close(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
        for p in self.procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        self.redis.terminate()
        self.redis.wait(timeout=10)

    def __enter__(self) -> "LocalCluster":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class Client:
    """A WebSocket client from loopback address ``address`` (so that tests' per-address
    limits do not meet); :meth:`enter` sends a message and follows redirects."""

    def __init__(self, address: str = "127.0.0.1") -> None:
        self.address = address
        self.ws: Any = None
        self.url: Optional[str] = None
        self.redirects: List[str] = []

    async def connect(self, url: str) -> Dict[str, Any]:
        import websockets

        await self.close()
        self.url = url
        self.ws = await websockets.connect(url, local_addr=(self.address, 0), open_timeout=10)
        return await self.recv()  # welcome

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message))

    async def recv(self, timeout: float = 15.0) -> Dict[str, Any]:
        import asyncio

        return json.loads(await asyncio.wait_for(self.ws.recv(), timeout))

    async def until(self, kind: str, timeout: float = 30.0) -> Dict[str, Any]:
        """The next message of type ``kind`` (others are skipped)."""
        import asyncio

        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            message = await self.recv(max(0.01, left))
            if message["type"] == kind:
                return message

    async def ask(self, **message: Any) -> Dict[str, Any]:
        """Send ``message``; the first answer that is not a broadcast."""
        await self.send(**message)
        while True:
            answer = await self.recv()
            if answer["type"] in ("joined", "error", "redirect"):
                return answer

    async def enter(self, ws_url: str, **message: Any) -> Dict[str, Any]:
        """Connect to ``ws_url``, send ``message``, and follow redirects (at most 3)."""
        await self.connect(ws_url)
        answer = await self.ask(**message)
        for _ in range(3):
            if answer["type"] != "redirect":
                return answer
            self.redirects.append(answer["url"])
            await self.connect(answer["url"])
            answer = await self.ask(**message)
        raise AssertionError(f"redirected more than 3 times: {self.redirects}")

    async def create_on(self, url: str, mode: str, **fields: Any) -> Dict[str, Any]:
        """Create a room of ``mode`` on the process at ``url`` itself (pinned, as a
        redirect's URL pins it)."""
        return await self.enter(ws(url, routed=True), type="create", mode=mode, **fields)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            self.ws = None


def ws(url: str, routed: bool = False) -> str:
    """The WebSocket URL of the process at ``url`` (``routed``: create there, not
    sent on, as a redirect's URL says)."""
    return url.replace("http://", "ws://") + "/ws" + ("?routed=1" if routed else "")
