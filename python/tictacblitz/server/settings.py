"""Everything a server can tune, with the documented defaults (docs/server.md)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Optional, Tuple

from ..games.protocol import Game
from ..games.registry import DEFAULT_GAME, load_game
from . import protocol as P

__all__ = ["Settings"]


@dataclass
class Settings:
    """Everything a server can tune. ``game`` is what every room plays, with its rules
    (``load_game(name, overrides)``)."""

    game: Game = field(default_factory=lambda: load_game(DEFAULT_GAME))
    grace_ms: int = 15_000  # reconnect window before a forfeit
    pause_ms: int = 3_000  # countdown before round 1 and break between rounds
    max_rooms: int = 2_000
    max_spectators: int = 64  # per room
    max_connections_per_ip: int = 32  # one address cannot take the server's rooms alone
    # The transport (transport.py, issue 26): before the app sees a request or a frame.
    max_tcp_per_ip: int = 64  # open TCP connections, HTTP and WebSocket: twice the WebSockets
    header_timeout_s: float = 10.0  # a request's whole head, from its first byte (or connect)
    max_head_bytes: int = 64 * 1024  # a request's head (line and headers): over it, 431
    frame_rate_per_s: float = 100.0  # frames of any kind per WebSocket (twice the message
    frame_burst: int = 300  # rule: a data flood meets that first); over it: close 1008
    ws_write_high_bytes: int = 64 * 1024  # a WebSocket's write buffer: reads pause above
    connect_rate_per_s: float = 5.0  # new WebSockets per address, after a burst of
    connect_burst: int = 20
    max_rooms_per_ip: int = 8  # live rooms created from one address (grace included)
    room_rate_per_s: float = 0.2  # room creations per address: 12 a minute,
    room_burst: int = 6  # after a burst of 6
    allowed_origins: Tuple[str, ...] = ()  # WebSocket Origins besides the server's own
    max_body_bytes: int = 2 * 1024 * 1024  # a POSTed replay file,
    body_timeout_s: float = 10.0  # read within this, before it takes a job slot
    work_jobs: int = 2  # engine-running requests at once, server-wide
    work_rate_per_s: float = 0.2  # such requests per address: 12 a minute,
    work_burst: int = 3  # after a burst of 3; one at a time per address
    work_max_events: int = 20_000  # the work budget of one such request (a 7-round
    work_max_bytes: int = 4 * 1024 * 1024  # match of busy players: ~1,300 events, ~0.5 MB)
    work_max_cpu_s: float = 2.0
    work_max_wall_s: float = 10.0
    replay_keep: int = 256  # replays kept in memory (bounded: memory stays flat)
    replay_rate_per_s: float = 1.0  # GET /replays/{id} per address: 60 a minute,
    replay_burst: int = 10  # after a burst of 10
    replay_dir: Optional[str] = None  # also written here, as {id}.json
    public_url: Optional[str] = None  # base of room links; else from the request
    bot_threads: int = 2  # 0: bots decide inline (deterministic tests)
    bot_retry_ms: int = 50  # a bot that chose to wait asks again after this
    # Rift & Grid's turn clock (s): a seat not locked in by then plays its first legal
    # target (server/games/rift/); None: no clock (an adapter with has_turn_clock).
    rift_turn_s: Optional[float] = None
    max_queue: int = 512  # messages queued for a slow client before closing it
    max_message_bytes: int = P.MAX_MESSAGE_BYTES
    rate_per_s: float = P.RATE_PER_S
    burst: int = P.BURST
    flood_close_drops: int = P.FLOOD_CLOSE_DROPS
    seed_source: Callable[[], int] = field(default=lambda: secrets.randbits(63))
    drain_s: float = 60.0  # on SIGTERM: how long running matches may go on (drain.py)
    # More than one process (cluster.py): None is one process, its rooms in its memory.
    redis_url: Optional[str] = None  # e.g. redis://127.0.0.1:6379/0
    heartbeat_ms: int = 1_000  # a process rewrites its record this often,
    process_ttl_ms: int = 3_000  # and is dead for the others once it is this old
    room_ttl_s: int = 60  # a directory entry outlives its dead process this long (room_lost)
    room_refresh_s: float = 10.0  # every entry is rewritten this often
    replay_cap_bytes: int = 256 * 1024 * 1024  # replays shared in Redis, oldest out

    def limits(self) -> Dict[str, Any]:
        return {
            "max_message_bytes": self.max_message_bytes,
            "rate_per_s": self.rate_per_s,
            "burst": self.burst,
            "flood_close_drops": self.flood_close_drops,
            "grace_ms": self.grace_ms,
            "pause_ms": self.pause_ms,
            "max_name": P.MAX_NAME,
            "max_rooms_per_ip": self.max_rooms_per_ip,
        }

    def work_budget(self) -> Any:
        """A fresh budget for one engine-running request (:mod:`.budget`)."""
        from .budget import WorkBudget

        return WorkBudget(
            self.work_max_events, self.work_max_bytes, self.work_max_cpu_s, self.work_max_wall_s
        )
