"""What every game's load client shares (docs/server.md, "Load"), and the lookup of a
game's client. :class:`LoadClient` is the typed base of the load tool's per-game part:
``loadtest/games/<game>.py`` defines exactly one subclass of it, found by
:func:`client_class` with the lookup every layer uses
(:func:`tictacblitz.games.adapters.adapter_class`; issue 27, item 1).

The base holds the connection, the ``events`` numbering (a gap is a lost message), the
answers every game gets alike (``rejected``, ``error``, ``match_end`` with its
rematch), and the loop's wait for the next message or a deadline. A game's client reads
its own picture and decides its own moves (``on_message``, ``play``), and names the bots
it can play like (``bot_names``, ``default_bot``); Rift & Grid's also has the attacker's
re-locking seat (``relock``, ``--abuse rift-relock``).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any, Dict, Optional, Tuple, Type

from ..games.adapters import adapter_class, check_overrides

__all__ = ["LoadClient", "NoClients", "client_class", "tally"]


def tally(table: Dict[str, int], what: str, n: int = 1) -> None:
    """Count ``n`` more of ``what`` in a report's table (the load tool's outcomes)."""
    table[what] = table.get(what, 0) + n


class NoClients(ValueError):
    """A registered game the load tool has no clients for (no ``loadtest/games/<game>.py``)."""


def client_class(game: str) -> Type["LoadClient"]:
    """The game's load client (``loadtest/games/<game>.py``).

    :raises ValueError: for an unknown game (naming the registered ones).
    :raises NoClients: for a game the load tool has no clients for.
    :raises AdapterError: for a misnamed module in ``loadtest/games/``, or one without
        exactly one ``LoadClient`` subclass.
    """
    from . import games

    found = adapter_class(games, game, LoadClient)
    if found is None:
        raise NoClients(f"no load clients for {game!r} (loadtest/games/{game}.py)")
    return found


class LoadClient:
    """One seat of a load-test match: the generic part of a game's client."""

    bot_names: Tuple[str, ...] = ()  # what ``--bot`` may name
    default_bot = ""  # the client's play without ``--bot``

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # A misspelled name (``bot_name``) would leave the base's default in force:
        # refused when the class is made (issue 27, item 1).
        super().__init_subclass__(**kwargs)
        check_overrides(cls, LoadClient)

    def __init__(
        self, url: str, stats: Any, rng: random.Random, deadline: float, bot: str = ""
    ) -> None:
        self.url = url
        self.stats = stats
        self.rng = rng
        self.deadline = deadline
        self.ws: Any = None
        self.seat = ""  # the seat name ``joined`` gives
        self.host = False  # the room's creator: it counts the room's finished matches
        self.live = False
        self.last_seq: Optional[int] = None
        self.match_id: Optional[str] = None
        self.wake = asyncio.Event()

    async def send(self, message: Dict[str, Any]) -> None:
        self.stats.sent += 1
        await self.ws.send(json.dumps(message))

    def count_events(self, msg: Dict[str, Any]) -> None:
        """Follow an ``events`` message's ``seq``: a gap counts the messages lost."""
        if msg["match_id"] != self.match_id:
            self.match_id, self.last_seq = msg["match_id"], 0
        if self.last_seq is not None and msg["seq"] != self.last_seq + 1:
            self.stats.lost += max(1, msg["seq"] - self.last_seq - 1)
        self.last_seq = msg["seq"]

    def take_state(self, msg: Dict[str, Any]) -> None:
        """A ``state``: the match and its numbering start again from it."""
        self.match_id, self.last_seq = msg["match_id"], msg["seq"]
        self.live = msg["phase"] == "live"

    def on_other(self, kind: Any, msg: Dict[str, Any]) -> None:
        """The messages every game's client answers alike."""
        if kind == "rejected":
            self.stats.rejected += 1
        elif kind == "error":
            self.stats.error(msg.get("code", "?"))
        elif kind == "match_end":
            self.live = False
            if self.host:  # once per match, whatever the seats are called
                self.stats.finished += 1
            if time.time() < self.deadline - 1:  # every rematch agreed, while time is left
                asyncio.ensure_future(self.send({"type": "rematch", "agree": True}))

    async def nap(self, wait: float) -> None:
        """Sleep ``wait`` seconds at most: until a message wakes the loop (one that came
        since the loop cleared ``wake`` at its top wakes it at once), or the run's
        deadline."""
        try:
            await asyncio.wait_for(
                self.wake.wait(), timeout=max(0.001, min(wait, self.deadline - time.time()))
            )
        except asyncio.TimeoutError:
            pass

    async def receive(self) -> None:
        async for raw in self.ws:
            self.on_message(json.loads(raw))

    def on_message(self, msg: Dict[str, Any]) -> None:
        raise NotImplementedError

    async def play(self) -> None:
        """The seat's moves until the run's deadline."""
        raise NotImplementedError

    @staticmethod
    async def relock(ws: Any, deadline: float, rate: float, report: Dict[str, int]) -> None:
        """The attacker's re-locking seat of ``--abuse rift-relock`` on the open
        connection ``ws``, until ``deadline``: only a game of locked-in moves has one."""
        raise NotImplementedError

    @classmethod
    def relocks(cls) -> bool:
        """Whether the game's client has a re-locking seat (defines :meth:`relock`)."""
        return cls.relock is not LoadClient.relock
