"""Rift & Grid's part of the load tool (``python -m tictacblitz.server.load --game
rift``): a client that plays like a person (docs/server.md, "Load"), and the attacker's
re-locking seats (``--abuse rift-relock``, issue 26 hole 3).

:class:`BotClient` locks a random legal target (the public picture's ``targets``, no
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

__all__ = ["BotClient", "BOT_NAMES", "DEFAULT_BOT", "relock"]

BOT_NAMES = ("person",)
DEFAULT_BOT = "person"
THINK_S = (0.2, 0.8)  # a person's time to choose, after the turn began


class BotClient:
    """One seat: keeps the public picture and locks a move a think time into each turn."""

    def __init__(
        self, url: str, stats: Any, rng: random.Random, deadline: float, bot: str = DEFAULT_BOT
    ) -> None:
        self.url = url
        self.stats = stats
        self.rng = rng
        self.deadline = deadline
        self.ws: Any = None
        self.seat = "X"
        self.live = False
        self.turn = 0
        self.targets: List[int] = []
        self.locked = False
        self.turn_began = time.time()
        self.sent_at: Optional[float] = None  # our lock on its way
        self.last_seq: Optional[int] = None
        self.match_id: Optional[str] = None
        self.wake = asyncio.Event()

    async def send(self, message: Dict[str, Any]) -> None:
        self.stats.sent += 1
        await self.ws.send(json.dumps(message))

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
            if msg["match_id"] != self.match_id:
                self.match_id, self.last_seq = msg["match_id"], 0
            if self.last_seq is not None and msg["seq"] != self.last_seq + 1:
                self.stats.lost += max(1, msg["seq"] - self.last_seq - 1)
            self.last_seq = msg["seq"]
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
            self.match_id, self.last_seq = msg["match_id"], msg["seq"]
            self.live = msg["phase"] == "live"
            self.take_picture(msg)
            self.wake.set()
        elif kind == "rejected":
            self.stats.rejected += 1
            self.sent_at = None
        elif kind == "error":
            self.stats.error(msg.get("code", "?"))
        elif kind == "match_end":
            self.live = False
            if self.seat == "X":
                self.stats.finished += 1
            if time.time() < self.deadline - 1:
                asyncio.ensure_future(self.send({"type": "rematch", "agree": True}))

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
            try:
                await asyncio.wait_for(
                    self.wake.wait(), timeout=max(0.001, min(wait, self.deadline - time.time()))
                )
            except asyncio.TimeoutError:
                pass

    async def receive(self) -> None:
        async for raw in self.ws:
            self.on_message(json.loads(raw))


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
                report[msg["reason"]] = report.get(msg["reason"], 0) + 1
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
