"""Who holds a room's seats: connections (:class:`Peer`), members with their tokens
(:class:`Member`), seats (:class:`Seat`), and the random codes, tokens and match ids
(``secrets``). Generic: nothing here names a game. :mod:`.room` re-exports every name.

This module sits below :mod:`.room` and :mod:`.lobby`, which both import it, and imports
neither (not even for type checking: issue 27, item 4, the circle lobby ↔ room ↔
seats): the room a member or a connection is in is the type parameter ``R`` (the
lobby and the room use ``Member[Room]`` and ``Peer[Room]``)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Dict, Generic, Optional, Protocol, Tuple, TypeVar

from . import protocol as P
from .clock import Handle

__all__ = ["Peer", "Member", "Seat", "new_code", "new_token", "new_match_id"]

R = TypeVar("R")  # the room (room.Room): a parameter, so that this module needs no import of it


class Peer(Protocol[R]):
    """A client connection as the lobby sees it (the web layer implements it)."""

    member: Optional[Member[R]]
    room: Optional[R]
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


class Member(Generic[R]):
    """A player's hold on a room: its token, the seat(s) it holds and its connection."""

    def __init__(self, room: R, seats: Tuple[int, ...], name: str) -> None:
        self.room = room
        self.seats = seats
        self.name = name
        self.token = new_token()
        self.conn: Optional[Peer[R]] = None
        self.grace_handle: Optional[Handle] = None
        self.grace_until: Optional[float] = None
        self.gone = False

    @property
    def present(self) -> bool:
        """Connected, or within its grace period."""
        return not self.gone and (self.conn is not None or self.grace_handle is not None)


@dataclass
class Seat(Generic[R]):
    kind: Optional[str] = None  # "human", "bot", or None while free
    name: str = ""
    member: Optional[Member[R]] = None
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
