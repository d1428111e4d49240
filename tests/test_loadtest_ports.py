"""The load tool's ``free_port`` (tictacblitz.loadtest.cluster, used by every test that
starts a server): a port handed to one process is not handed to another while the first
lives, even when the system offers it again (issue 27, CI item: with three pytest
workers, a test's server once found another test's server on its port)."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

cluster = pytest.importorskip("tictacblitz.loadtest.cluster")

REAL_SOCKET = socket.socket  # patched below, as free_port sees it (socket.socket)
HOLD = (
    "import sys; from tictacblitz.loadtest.cluster import free_port; "
    "print(free_port(), flush=True); sys.stdin.read()"
)


class OfferFirst:
    """socket.socket, but the first bind to port 0 is given ``port`` (the system's
    choice is what free_port cannot control: this makes it choose a taken one)."""

    def __init__(self, port: int) -> None:
        self.port = port

    def __call__(self, *args, **kwargs):
        port, self.port = self.port, None

        class Offered(REAL_SOCKET):
            def bind(self, address) -> None:
                super().bind(address if port is None else ("127.0.0.1", port))

        return Offered(*args, **kwargs)


def test_a_port_another_process_holds_is_not_handed_out(monkeypatch) -> None:
    other = subprocess.Popen(
        [sys.executable, "-c", HOLD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        held = int(other.stdout.readline())
        monkeypatch.setattr(cluster.socket, "socket", OfferFirst(held))
        assert cluster.free_port() != held  # offered first, refused: the next one
    finally:
        other.stdin.close()
        other.wait(timeout=30)
    # The other process gone, its lock went with it: the port is handed out again.
    monkeypatch.setattr(cluster.socket, "socket", OfferFirst(held))
    assert cluster.free_port() == held


def test_one_process_is_never_handed_the_same_port_twice(monkeypatch) -> None:
    first = cluster.free_port()
    monkeypatch.setattr(cluster.socket, "socket", OfferFirst(first))
    assert cluster.free_port() != first
