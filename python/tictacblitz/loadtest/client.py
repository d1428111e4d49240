"""What every game's load client shares (the load tool's ``server/games/<game>_load.py``,
docs/server.md, "Load"): the connection, the ``events`` numbering (a gap is a lost
message), the answers every game gets alike (``rejected``, ``error``, ``match_end`` with
its rematch), and the loop's wait for the next message or a deadline. A game's client
subclasses :class:`LoadClient`, reads its own picture and decides its own moves.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import random
import time
from typing import Any, Dict, Optional

__all__ = ["LoadClient", "client_module", "tally"]


def tally(table: Dict[str, int], what: str, n: int = 1) -> None:
    """Count ``n`` more of ``what`` in a report's table (the load tool's outcomes)."""
    table[what] = table.get(what, 0) + n


def client_module(game: str) -> Any:
    """The game's load clients (``server/games/<game>_load.py``)."""
    return importlib.import_module(f"{__package__}.games.{game}_load")


class LoadClient:
    """One seat of a load-test match: the generic part of a game's ``BotClient``."""

    def __init__(self, url: str, stats: Any, rng: random.Random, deadline: float) -> None:
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
