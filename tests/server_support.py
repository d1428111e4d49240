"""What the lobby tests share (tests/test_doh_server.py, test_rift_server.py,
test_server_adapters.py): a fake connection that keeps what it is sent, and a lobby
with no pause, no bot threads and fixed seeds driven through it."""

from __future__ import annotations

import json
from typing import Any

from tictacblitz.server import protocol as P
from tictacblitz.server.lobby import Lobby
from tictacblitz.server.settings import Settings


class Peer:
    """A connection that keeps every message it is sent, decoded."""

    base_url = "http://test"

    def __init__(self) -> None:
        self.out: list = []
        self.member = self.room = None
        self.closed = None  # the close code the server chose, once it closed us

    def send(self, message: dict) -> None:
        self.out.append(json.loads(P.encode(message)))

    def send_text(self, text: str) -> None:
        self.out.append(json.loads(text))

    def close(self, code: int) -> None:
        self.closed = code

    def last(self, kind: str) -> dict:
        return [m for m in self.out if m["type"] == kind][-1]

    def all(self, kind: str) -> list:
        return [m for m in self.out if m["type"] == kind]

    def picture(self) -> dict:
        """The newest picture this client has (an ``events`` or a ``state``)."""
        return [m for m in self.out if m["type"] in ("events", "state")][-1]


def lobby_for(game: Any, clock: Any, seeds: int = 999):
    """A lobby of ``game`` on ``clock`` (seeds 1, 2, ... below ``seeds``) and its two
    helpers: ``say(peer, **message)`` and ``connect() -> Peer``."""
    lobby = Lobby(
        Settings(game=game, pause_ms=0, bot_threads=0, seed_source=iter(range(1, seeds)).__next__),
        clock,
    )

    def say(peer: Peer, **message: Any) -> None:
        lobby.handle(peer, lobby.parse(json.dumps(message)))

    def connect() -> Peer:
        peer = Peer()
        lobby.connected(peer)
        return peer

    return lobby, say, connect


def online_room_with_a_spectator(say, connect, symbol: str):
    """An online room Ann creates in seat ``symbol``, a second client joins and a third
    watches: ``(host, guest, spectator)``, the room live."""
    host, guest, spectator = connect(), connect(), connect()
    say(host, type="create", mode="online", symbol=symbol, name="Ann")
    code = host.last("joined")["room"]
    say(guest, type="join", code=code)
    say(spectator, type="watch", code=code)
    return host, guest, spectator


def serve_parser():
    """An argument parser with the ``serve`` subcommand, as the CLI registers it."""
    import argparse

    from tictacblitz import server as server_package

    parser = argparse.ArgumentParser()
    server_package.register(parser.add_subparsers())
    return parser


def assert_serve_refuses(parser, capsys, cases) -> None:
    """Each ``(options, words)`` of ``cases``: ``serve`` exits 2 with one line on stderr
    that says ``words``."""
    for bad, words in cases:
        args = parser.parse_args(["serve", *bad])
        assert args.handler(args) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and words in err, err


def welcome_of(game: str, rules: Any = None) -> dict:
    """What a server of ``game`` (with ``rules``) says first: its ``welcome``."""
    from tictacblitz.games import load_game

    return Lobby(Settings(game=load_game(game, rules))).welcome()
