"""Everything a server can tune, with the documented defaults (docs/server.md)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Optional

from ..games.protocol import Game
from ..games.registry import DEFAULT_GAME, load_game
from . import protocol as P

__all__ = ["Settings"]


@dataclass
class Settings:
    """Everything a server can tune. ``game`` is what every room plays, with its rules
    (``load_game(name, overrides)``)."""

    game: Game = field(default_factory=lambda: load_game(DEFAULT_GAME))
    grace_ms: int = 15_000            # reconnect window before a forfeit
    pause_ms: int = 3_000             # countdown before round 1 and break between rounds
    max_rooms: int = 2_000
    max_spectators: int = 64          # per room
    max_connections_per_ip: int = 32  # one address cannot take the server's rooms alone
    replay_keep: int = 256            # replays kept in memory (bounded: memory stays flat)
    replay_dir: Optional[str] = None  # also written here, as {id}.json
    public_url: Optional[str] = None  # base of room links; else from the request
    bot_threads: int = 2              # 0: bots decide inline (deterministic tests)
    bot_retry_ms: int = 50            # a bot that chose to wait asks again after this
    max_queue: int = 512              # messages queued for a slow client before closing it
    max_message_bytes: int = P.MAX_MESSAGE_BYTES
    rate_per_s: float = P.RATE_PER_S
    burst: int = P.BURST
    flood_close_drops: int = P.FLOOD_CLOSE_DROPS
    seed_source: Callable[[], int] = field(default=lambda: secrets.randbits(63))

    def limits(self) -> Dict[str, Any]:
        return {"max_message_bytes": self.max_message_bytes, "rate_per_s": self.rate_per_s,
                "burst": self.burst, "flood_close_drops": self.flood_close_drops,
                "grace_ms": self.grace_ms, "pause_ms": self.pause_ms, "max_name": P.MAX_NAME}
