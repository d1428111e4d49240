"""Who holds a room's seats: connections (:class:`Peer`), members with their tokens
(:class:`Member`), seats (:class:`Seat`), and the random codes, tokens and match ids
(``secrets``). Generic: nothing here names a game. Part of :mod:`.room` (which
re-exports every name)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, Optional, Protocol, Tuple

from . import protocol as P
from .clock import Handle

if TYPE_CHECKING:
    from .room import Room

__all__ = ["Peer", "Member", "Seat", "new_code", "new_token", "new_match_id"]


class Peer(Protocol):
    """A client connection as the lobby sees it (the web layer implements it)."""

    member: Optional["Member"]
    room: Optional["Room"]
    base_url: str

    def send(self, message: Dict[str, Any]) -> None: ...

    def send_text(self, text: str) -> None: ...

    def close(self, code: int) -> None: ...


def new_code() -> str:
    """A room code: 10 Crockford base-32 characters, 50 bits from ``secrets``."""
    return "".join(secrets.choice(P.CODE_ALPHABET) for _ in range(P.CODE_LENGTH))


def new_token() -> str:
    """A seat token: 192 bits from ``secrets``."""
    return secrets.token_urlsafe(24)


def new_match_id() -> str:
    """A match (and replay) id: 96 bits from ``secrets``."""
    return secrets.token_urlsafe(12)


class Member:
    """A player's hold on a room: its token, the seat(s) it holds and its connection."""

    def __init__(self, room: "Room", seats: Tuple[int, ...], name: str) -> None:
        self.room = room
        self.seats = seats
        self.name = name
        self.token = new_token()
        self.conn: Optional[Peer] = None
        self.grace_handle: Optional[Handle] = None
        self.grace_until: Optional[float] = None
        self.gone = False

    @property
    def present(self) -> bool:
        """Connected, or within its grace period."""
        return not self.gone and (self.conn is not None or self.grace_handle is not None)


@dataclass
class Seat:
    kind: Optional[str] = None  # "human", "bot", or None while free
    name: str = ""
    member: Optional[Member] = None
    bot: Any = None  # the adapter's bot driver

    def presence(self) -> Dict[str, Any]:
        connected = self.kind == "bot" or (self.member is not None and self.member.conn is not None)
        grace = (
            self.member.grace_until
            if self.member is not None and self.member.grace_handle
            else None
        )
        return {
            "name": self.name,
            "kind": self.kind,
            "level": self.bot.level if self.bot else None,
            "connected": connected,
            "grace_until": grace,
        }
