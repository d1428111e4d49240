"""Rift & Grid's part of the load tool (``python -m tictacblitz.loadtest --game
rift``): a client that plays like a person (docs/server.md, "Load"), and the attacker's
re-locking seats (``--abuse rift-relock``, issue 26 hole 3: :meth:`RiftLoadClient.relock`).

:class:`RiftLoadClient` locks a random legal target (the public picture's ``targets``, no
ability) a think time after each turn began. Rift's ``events`` carry turns, not wall
time, so its latency is a lock's round trip: from sending ``act`` to the ``locked``
event of its seat coming back (what a player waits for after a click).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any, Dict, List, Optional

from ..client import LoadClient, tally

__all__ = ["RiftLoadClient"]

THINK_S = (0.2, 0.8)  # a person's time to choose, after the turn began


class RiftLoadClient(LoadClient):
    """One seat: keeps the public picture and locks a move a think time into each turn."""

    bot_names = ("person",)  # it locks a random legal target, as a person might
    default_bot = "person"

    def __init__(
        self, url: str, stats: Any, rng: random.Random, deadline: float, bot: str = ""
    ) -> None:
        super().__init__(url, stats, rng, deadline, bot)
        self.turn = 0
        self.targets: List[int] = []
        self.locked = False
        self.turn_began = time.time()
        self.sent_at: Optional[float] = None  # our lock on its way

    def take_picture(self, msg: Dict[str, Any]) -> None:
        if msg.get("turn") != self.turn:
            self.turn, self.turn_began = msg["turn"], time.time()
        self.targets = list(msg.get("targets", []))
        self.locked = bool(msg.get("locked", {}).get(self.seat))

    def on_message(self, msg: Dict[str, Any]) -> None:
        now = time.time()
        self.stats.received += 1
        kind = msg.get("type")
        if kind == "events":
            self.count_events(msg)
            for event in msg["events"]:
                mine = event["kind"] == "locked" and event["seat"] == self.seat
                if mine and self.sent_at is not None:
                    self.stats.latency.append((now - self.sent_at) * 1000.0)
                    self.stats.latency_at.append(now * 1000.0)
                    self.sent_at = None
                if event["kind"] == "started":
                    self.live = True
                elif event["kind"] == "end":
                    self.live = False
            self.take_picture(msg)
            self.wake.set()
        elif kind == "state":
            self.take_state(msg)
            self.take_picture(msg)
            self.wake.set()
        else:
            if kind == "rejected":
                self.sent_at = None
            self.on_other(kind, msg)

    async def play(self) -> None:
        think = self.rng.uniform(*THINK_S)
        while time.time() < self.deadline:
            self.wake.clear()
            wait = 0.5
            if self.live and not self.locked and self.sent_at is None and self.targets:
                wait = self.turn_began + think - time.time()
                if wait <= 0:
                    self.sent_at = time.time()
                    self.stats.actions += 1
                    await self.send({"type": "act", "cell": self.rng.choice(self.targets)})
                    think = self.rng.uniform(*THINK_S)
                    wait = 0.5
            await self.nap(wait)

    @staticmethod
    async def relock(ws: Any, deadline: float, rate: float, report: Dict[str, int]) -> None:
        """The attacker's seat (issue 26, hole 3): locks in, then changes its mind at
        ``rate`` messages a second until ``deadline``, between its first two targets and a
        taken cell (a rejected move); its opponent never locks, so the turn never ends.
        ``report`` counts the answers: ``locked`` and each rejection reason."""
        picture: Dict[str, Any] = {}
        while not picture:  # the match's first picture, once it is live
            msg = json.loads(await ws.recv())
            if msg.get("type") == "events" and {"kind": "started"} in msg["events"]:
                picture = msg
        targets = picture["targets"][:2]
        moves: List[Dict[str, Any]] = [{"cell": c} for c in targets]
        moves.append({"cell": targets[0], "ability": "reveal"})  # no_energy at the start (G5)

        async def answers() -> None:
            async for raw in ws:
                msg = json.loads(raw)
                if msg.get("type") == "rejected":
                    tally(report, msg["reason"])
                elif msg.get("type") == "events":
                    report["locked"] = report.get("locked", 0) + len(msg["events"])

        listening = asyncio.ensure_future(answers())
        start, sent = time.time(), 0
        try:
            while time.time() < deadline:
                ahead = start + sent / rate - time.time()
                if ahead > 0:
                    await asyncio.sleep(ahead)
                await ws.send(json.dumps({"type": "act", **moves[sent % len(moves)]}))
                sent += 1
        finally:
            listening.cancel()
            report["sent"] = report.get("sent", 0) + sent
