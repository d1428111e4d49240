"""Tic Tac Blitz's part of the load tool (``python -m tictacblitz.loadtest``): a
client that plays like a bot preset (docs/server.md, "Load").

:class:`BlitzLoadClient` keeps the board from the server's messages and acts ``reaction_ms``
of a bot preset after its charge fills: the one timing rule of
``tictacblitz.games.blitz.bots.reaction_due_t``, read from the status the server sends.
It places on free cells and knocks out setting marks. The generic tool
(:mod:`..run`) finds its one :class:`~..client.LoadClient` subclass here, as
``loadtest/games/<game>.py``.
"""

from __future__ import annotations

import random
import time
from dataclasses import fields
from typing import Any, Dict, Optional

from ...games.blitz.bots import BOT_NAMES, reaction_due_t, resolve
from ...games.blitz.types import PlayerStatus, PowerupKind
from ..client import LoadClient

__all__ = ["BlitzLoadClient"]

STATUS_FIELDS = tuple(f.name for f in fields(PlayerStatus))
POWERUP_LETTERS = "".join(kind.letter for kind in PowerupKind)  # R14, as the board shows them


class BlitzLoadClient(LoadClient):
    """One seat: keeps the board from the server's messages and acts when charged."""

    bot_names = BOT_NAMES  # the presets' names: it acts with one's reaction_ms
    default_bot = "medium"

    def __init__(
        self, url: str, stats: Any, rng: random.Random, deadline: float, bot: str = ""
    ) -> None:
        super().__init__(url, stats, rng, deadline, bot)
        self.reaction_ms = resolve(bot or self.default_bot).reaction_ms
        self.status: Optional[PlayerStatus] = None
        self.size = 6
        self.cells: Dict[tuple, str] = {}
        self.epoch = 0.0
        self.round = 0

    def now_t(self) -> float:
        return time.time() * 1000.0 - self.epoch

    def on_message(self, msg: Dict[str, Any]) -> None:
        now = time.time() * 1000.0
        self.stats.received += 1
        kind = msg.get("type")
        if kind == "events":
            self.count_events(msg)
            self.epoch = msg["epoch_ms"]
            for event in msg["events"]:
                self.stats.latency.append(now - (msg["epoch_ms"] + event["t"]))
                self.stats.latency_at.append(now)
                self.apply(event)
            self.read_status(msg["players"][self.seat])
            self.wake.set()
        elif kind == "state":
            self.take_state(msg)
            self.size = len(msg["board"])
            self.cells = {
                (r, c): ch
                for r, row in enumerate(msg["board"])
                for c, ch in enumerate(row)
                if ch != "."
            }
            self.epoch = msg["epoch_ms"]
            self.read_status(msg["players"][self.seat])
        elif kind == "round_break":
            self.live = False
        else:
            self.on_other(kind, msg)

    def read_status(self, entry: Dict[str, Any]) -> None:
        """The seat's status as the server sent it (``PlayerStatus.to_dict()``)."""
        self.status = PlayerStatus(**{name: entry[name] for name in STATUS_FIELDS})

    def apply(self, event: Dict[str, Any]) -> None:
        kind = event["kind"]
        cell: Any = tuple(event["cell"]) if "cell" in event else None
        if kind == "round_started":
            self.cells.clear()
            self.live = True
        elif kind in ("placed", "stolen"):
            self.cells[cell] = event["player"].lower()
        elif kind == "set":
            self.cells[cell] = event["player"]
        elif kind == "knocked_out":
            self.cells[cell] = "#"
        elif kind in ("crater_cleared", "retired", "bombed", "powerup_burned_out"):
            self.cells.pop(cell, None)
        elif kind == "powerup_spawned":
            self.cells[cell] = PowerupKind.parse(event["powerup"]).letter
        elif kind in ("round_over", "match_over"):
            self.live = False

    def choose(self) -> Optional[Dict[str, Any]]:
        other = "o" if self.seat == "X" else "x"
        targets = [c for c, ch in self.cells.items() if ch == other]
        if targets and self.rng.random() < 0.35:
            return {"type": "act", "action": "knockout", "cell": list(self.rng.choice(targets))}
        free = [
            (r, c)
            for r in range(self.size)
            for c in range(self.size)
            if self.cells.get((r, c), ".") in "." + POWERUP_LETTERS
        ]
        if not free:
            return None
        return {"type": "act", "action": "place", "cell": list(self.rng.choice(free))}

    async def play(self) -> None:
        while time.time() < self.deadline:
            self.wake.clear()
            wait = 0.5
            if self.live and self.status is not None:
                due = reaction_due_t(self.status, self.reaction_ms)  # R5, as every bot
                wait = (due - self.now_t()) / 1000.0
                if wait <= 0:
                    action = self.choose()
                    if action is not None:
                        self.stats.actions += 1
                        await self.send(action)
                    # Wait for the server's answer (the charge empties) or a while.
                    wait = 0.5
            await self.nap(wait)
