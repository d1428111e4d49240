"""``tictacblitz serve``: the real-time match server (docs/server.md, docs/protocol.md).

Generic layers, for any game of the registry: :mod:`.protocol` (messages, validation,
the flood rule), :mod:`.clock` (clocks, timers), :mod:`.room` (seats, members,
spectators, phases, rematch, grace), :mod:`.lobby` (rooms, tokens, message handling),
:mod:`.replay_store`, :mod:`.settings`; then :mod:`.app` (the Starlette ASGI app), run
by uvicorn with the protocols of :mod:`.transport` (limits before the app sees anything). A
game's part is its adapter package in :mod:`.games` (``games/blitz/`` for Tic Tac Blitz; the
interface and its lookup are in :mod:`.adapter` and docs/server.md). :func:`register` adds the
``serve`` subcommand to the ``tictacblitz`` CLI. Starlette and uvicorn are imported only
when the server is built or run.
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["register", "create_app", "serve"]

MAX_FRAME_BYTES = 65_536
"""Frames above this are refused by the WebSocket layer (close 1009); frames above
protocol.MAX_MESSAGE_BYTES but below it get a `too_large` error."""


def create_app(*args: Any, **kwargs: Any) -> Any:
    from .app import create_app as build

    return build(*args, **kwargs)


def register(subparsers: Any) -> None:
    """Add ``serve`` to an ``argparse`` subparsers object (the lead's cli.py calls it)."""
    from ..games.options import add_game_arguments

    parser = subparsers.add_parser(
        "serve",
        help="run the match server (WebSocket protocol, browser client, replays)",
        description="Run the game server: an ASGI app (Starlette on uvicorn). It binds "
        "to 127.0.0.1 unless told otherwise; see docs/server.md for a reverse proxy.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--public-url",
        default=None,
        help="the URL players reach this process at, and the base of room links, e.g. "
        "https://blitz.example.org (default: taken from each request; required with --redis)",
    )
    parser.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="serve as one process of a cluster whose room directory is in this Redis, "
        "e.g. redis://127.0.0.1:6379/0 (docs/server.md, 'More than one process')",
    )
    parser.add_argument(
        "--drain-s",
        type=float,
        default=60.0,
        help="on SIGTERM, how long running matches may go on before the server stops (default 60)",
    )
    parser.add_argument(
        "--replay-dir", default=None, help="also write each replay here as {id}.json"
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--rules",
        default=None,
        metavar="JSON",
        help="rules overrides as one JSON object, e.g. '{\"round_ms\": 30000}' "
        "(--rule wins where both name a rule)",
    )
    parser.add_argument(
        "--grace-ms", type=int, default=15_000, help="reconnect window (default 15000)"
    )
    parser.add_argument(
        "--pause-ms",
        type=int,
        default=3_000,
        help="countdown and pause between rounds (default 3000)",
    )
    parser.add_argument(
        "--bot-threads", type=int, default=2, help="threads for bot decisions (default 2)"
    )
    parser.add_argument(
        "--rift-turn-s",
        type=float,
        default=None,
        metavar="S",
        help="Rift & Grid's turn clock: a seat not locked in S seconds after its turn "
        "began plays its first legal target (1 to 86400; default: no clock)",
    )
    parser.add_argument("--max-rooms", type=int, default=2_000, help="room limit (default 2000)")
    parser.add_argument(
        "--max-rooms-per-ip",
        type=int,
        default=8,
        help="live rooms (grace included) one address may have created (default 8)",
    )
    parser.add_argument(
        "--max-connections-per-ip",
        type=int,
        default=32,
        help="open WebSockets one address may have (default 32)",
    )
    parser.add_argument(
        "--max-tcp-per-ip",
        type=int,
        default=64,
        help="open TCP connections (HTTP and WebSocket) one address may have; a trusted "
        "proxy's are not counted (default 64)",
    )
    parser.add_argument(
        "--header-timeout-s",
        type=float,
        default=10.0,
        help="a connection that has not sent a whole request head this long is closed (default 10)",
    )
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="also accept WebSockets from pages of ORIGIN, e.g. https://games.example.org "
        "(repeatable; default: this server's own origin only)",
    )
    parser.add_argument(
        "--proxy-headers",
        action="store_true",
        help="trust X-Forwarded-Proto/For from --forwarded-allow-ips (behind a proxy)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default="127.0.0.1",
        help="proxies trusted for --proxy-headers (default 127.0.0.1)",
    )
    parser.add_argument("--log-level", default="info", help="uvicorn log level (default info)")
    parser.set_defaults(handler=_serve)


def game_from_serve_arguments(args: argparse.Namespace) -> Any:
    """The game of ``--game``, ``--rules JSON`` and ``--rule NAME=VALUE``: ``--rules``
    becomes ``--rule`` pairs ahead of the given ones, so both go through the one
    parser of ``games/options.py``.

    :raises ValueError: one line naming the bad option.
    """
    import json

    from ..games.options import game_from_arguments

    if args.rules is not None:
        try:
            overrides = json.loads(args.rules)
        except ValueError:
            raise ValueError(f"--rules {args.rules!r} is not JSON") from None
        if not isinstance(overrides, dict):
            raise ValueError(f"--rules must be a JSON object, not {args.rules!r}")
        pairs = [f"{name}={json.dumps(value)}" for name, value in overrides.items()]
        args = argparse.Namespace(**{**vars(args), "rule": pairs + list(args.rule)})
    return game_from_arguments(args)


def _serve(args: argparse.Namespace) -> int:
    import sys

    from ..games.options import report_error
    from .adapter import NoAdapter, adapter_for

    def fail(message: str) -> int:
        return report_error("serve", message)

    try:
        game = game_from_serve_arguments(args)
    except ValueError as exc:
        return fail(str(exc))
    for name, value, low in (
        ("--port", args.port, 0),
        ("--grace-ms", args.grace_ms, 0),
        ("--pause-ms", args.pause_ms, 0),
        ("--bot-threads", args.bot_threads, 1),
        ("--max-rooms", args.max_rooms, 1),
        ("--max-rooms-per-ip", args.max_rooms_per_ip, 1),
        ("--max-connections-per-ip", args.max_connections_per_ip, 1),
        ("--drain-s", args.drain_s, 0),
        ("--max-tcp-per-ip", args.max_tcp_per_ip, 1),
        ("--header-timeout-s", args.header_timeout_s, 0.1),
    ):
        if not value >= low or (name == "--port" and value > 65535):
            return fail(f"{name} {value} is out of range")
    if args.header_timeout_s > 3600:
        return fail(f"--header-timeout-s {args.header_timeout_s} is out of range (at most 3600)")
    if args.max_tcp_per_ip < args.max_connections_per_ip:
        return fail(
            f"--max-tcp-per-ip {args.max_tcp_per_ip} is below --max-connections-per-ip "
            f"{args.max_connections_per_ip} (every WebSocket is a TCP connection)"
        )
    import re

    turn_s = args.rift_turn_s
    if turn_s is not None and not 1 <= turn_s <= 86_400:  # NaN and infinities fail too
        return fail(f"--rift-turn-s {turn_s:g} is out of range (1 to 86400 seconds)")
    for origin in args.allow_origin:
        if not re.fullmatch(r"https?://[^/\s]+", origin.rstrip("/")):
            return fail(f"--allow-origin {origin!r}: an origin is scheme://host[:port]")
    if args.public_url is not None and not re.fullmatch(
        r"https?://[^/\s]+(/\S*)?", args.public_url
    ):
        return fail(f"--public-url {args.public_url!r}: a URL is http(s)://host[:port][/path]")
    if args.redis is not None:
        if not args.public_url:
            return fail("--redis needs --public-url: where players reach this process")
        if not re.match(r"(rediss?|unix)://", args.redis):
            return fail(f"--redis {args.redis!r}: a Redis URL is redis://host:port[/db]")
        try:
            from .cluster import check_public_url, check_redis

            problem = check_redis(args.redis) or check_public_url(args.public_url)
        except ImportError:
            return fail("redis is missing: the server needs pip install 'tictacblitz[server]'")
        if problem:
            return fail(problem)
    from .settings import Settings

    settings = Settings(
        game=game,
        grace_ms=args.grace_ms,
        pause_ms=args.pause_ms,
        bot_threads=args.bot_threads,
        max_rooms=args.max_rooms,
        max_rooms_per_ip=args.max_rooms_per_ip,
        max_connections_per_ip=args.max_connections_per_ip,
        max_tcp_per_ip=args.max_tcp_per_ip,
        header_timeout_s=args.header_timeout_s,
        allowed_origins=tuple(args.allow_origin),
        replay_dir=args.replay_dir,
        public_url=args.public_url,
        redis_url=args.redis,
        drain_s=args.drain_s,
        rift_turn_s=turn_s,
    )
    try:
        adapter = adapter_for(game, settings)
    except NoAdapter as exc:
        return fail(f"--game {args.game}: {exc}")
    if turn_s is not None and not adapter.has_turn_clock:
        return fail(f"--rift-turn-s: {game.type.long_name} has no turn clock (Rift & Grid has)")
    try:
        interrupted = serve(
            settings,
            host=args.host,
            port=args.port,
            proxy_headers=args.proxy_headers,
            forwarded_allow_ips=args.forwarded_allow_ips,
            log_level=args.log_level,
        )
    except ImportError as exc:
        return fail(
            f"{exc.name or exc} is missing: the server needs pip install 'tictacblitz[server]'"
        )
    if interrupted:  # Ctrl-C: one line (issue 26), the status of an interrupted command
        print("tictacblitz serve: stopped", file=sys.stderr)
        return 130
    return 0


def serve(
    settings: Any = None,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    proxy_headers: bool = False,
    forwarded_allow_ips: str = "127.0.0.1",
    log_level: str = "info",
) -> bool:
    """Run the server until stopped: SIGTERM drains it first (:mod:`.drain`). True
    when SIGINT (Ctrl-C) stopped it."""
    import uvicorn

    from .drain import draining_server
    from .transport import guarded_protocols, trusted_proxies

    app = create_app(settings)
    # Limits before the app sees anything (issue 26): a trusted proxy's connections are
    # its clients', so it is exempt from the per-address count of TCP connections.
    trusted = trusted_proxies(forwarded_allow_ips if proxy_headers else "")
    http, ws = guarded_protocols(app.state.settings, trusted)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=http,
        ws=ws,
        ws_max_size=MAX_FRAME_BYTES,
        proxy_headers=proxy_headers,
        forwarded_allow_ips=forwarded_allow_ips,
        log_level=log_level,
        access_log=False,
    )
    server = draining_server(config, app.state.lobby, app.state.settings.drain_s)
    try:
        server.run()
    except KeyboardInterrupt:
        # uvicorn has shut down, then raised the SIGINT again for the default handler:
        # its traceback said nothing more (issue 26).
        pass
    return bool(server.interrupted)
