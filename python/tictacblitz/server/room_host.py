"""What a room needs of the lobby that holds it: :class:`RoomHost` (the
:class:`~.lobby.Lobby` is one, structurally).

Declared here, below both, so that :mod:`.room` imports nothing of :mod:`.lobby` (issue
27, item 4: lobby ↔ room ↔ seats was a circle, hidden from the import test by
``TYPE_CHECKING`` imports). The room is the type parameter ``R``, as in :mod:`.seats`.
Generic: nothing here names a game.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Protocol, TypeVar

from .adapter import GameAdapter
from .clock import Clock
from .replay_store import ReplayStore
from .seats import Member
from .settings import Settings

__all__ = ["RoomHost"]

R = TypeVar("R")  # the room (room.Room)


class RoomHost(Protocol[R]):
    """The lobby as its rooms see it: the game's adapter, the clock, the settings and the
    replay store, bot jobs off the loop, and the three things a room asks of it."""

    @property
    def adapter(self) -> GameAdapter: ...

    @property
    def clock(self) -> Clock: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def replays(self) -> ReplayStore: ...

    def run_job(
        self, job: Callable[[], Any], done: Callable[[Any, Optional[BaseException]], None]
    ) -> bool:
        """``job`` off the loop, then ``done(result, error)`` on it (True: ran inline)."""
        ...

    def forget(self, member: Member[R]) -> None:
        """``member``'s token stops working (it left, or its grace ran out)."""
        ...

    def maybe_expire(self, room: R) -> None:
        """Close ``room`` if nobody is in it any more."""
        ...

    def close_room(self, room: R, code: str = ..., message: str = ...) -> None:
        """Close ``room``; its connections get the error ``code`` and ``message``."""
        ...
