"""Rooms, seats, tokens and the real-time match loop, without any web framework.

The :class:`Lobby` takes validated client messages (:mod:`.protocol`) from
connections (anything with ``send(dict)``, ``send_text(str)`` and ``close(code)``) and
runs every room's match on a :class:`Clock`. Everything here is synchronous and runs on
one thread (the server's event loop): a room's engine is touched by nobody else, so
there are no races. Time comes from the clock's ``now_ms()`` and its ``call_at`` timers,
one per room, set on the engine's next event (R2), the next bot decision or the end of
a pause: never a busy loop. Bots decide on a clone of the match in a thread pool
(their search releases the GIL) and their decision comes back to the loop as an intent.

Tests drive all of it with a :class:`ManualClock` and inline bots, deterministically.
"""

from __future__ import annotations

import heapq
import itertools
import json
import math
import os
import re
import secrets
import threading
import time
from collections import OrderedDict
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Protocol, Tuple

from ..games.blitz.rules import Rules
from ..games.blitz.types import Action, ActionKind, Event, EventKind, Player, Reason, index_cell
from . import protocol as P

__all__ = [
    "Settings",
    "Clock",
    "RealClock",
    "ManualClock",
    "Peer",
    "TimerBook",
    "ServerBot",
    "Member",
    "Room",
    "ReplayStore",
    "Lobby",
    "new_code",
    "new_token",
]

PLAYERS = (Player.X, Player.O)
LETTERS = ("X", "O")

# Room phases (docs/protocol.md).
WAITING, COUNTDOWN, LIVE, BREAK, OVER = "waiting", "countdown", "live", "break", "over"
RUNNING = (COUNTDOWN, LIVE, BREAK)


@dataclass
class Settings:
    """Everything a server can tune. Defaults are the documented numbers."""

    rules: Rules = field(default_factory=Rules)
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


# -- clocks -------------------------------------------------------------------------------


class Handle(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    """Wall time in ms (Unix epoch) and one-shot timers on it."""

    def now_ms(self) -> float: ...

    def call_at(self, when_ms: float, callback: Callable[[], None]) -> Handle: ...


class RealClock:
    """``time.time()`` in ms; timers on the running asyncio loop (bind it first)."""

    def __init__(self) -> None:
        self.loop: Any = None

    def bind(self, loop: Any) -> None:
        self.loop = loop

    def now_ms(self) -> float:
        return time.time() * 1000.0

    def call_at(self, when_ms: float, callback: Callable[[], None]) -> Handle:
        delay = max(0.0, (when_ms - self.now_ms()) / 1000.0)
        return self.loop.call_later(delay, callback)


class _ManualHandle:
    __slots__ = ("when", "callback", "cancelled")

    def __init__(self, when: float, callback: Callable[[], None]) -> None:
        self.when = when
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that moves only when told (tests). ``advance(ms)`` runs every timer due
    on the way, in time order, with ``now_ms()`` at the timer's time. Bound to an asyncio
    loop running in another thread (Starlette's TestClient), it runs them on that loop
    and returns when they are done."""

    def __init__(self, start_ms: float = 1_000_000.0) -> None:
        self._now = float(start_ms)
        self._heap: List[Tuple[float, int, _ManualHandle]] = []
        self._order = itertools.count()
        self._lock = threading.RLock()
        self.loop: Any = None

    def bind(self, loop: Any) -> None:
        self.loop = loop

    def now_ms(self) -> float:
        return self._now

    def call_at(self, when_ms: float, callback: Callable[[], None]) -> Handle:
        handle = _ManualHandle(float(when_ms), callback)
        with self._lock:
            heapq.heappush(self._heap, (handle.when, next(self._order), handle))
        return handle

    def advance(self, ms: float) -> None:
        self.advance_to(self._now + ms)

    def advance_to(self, target: float) -> None:
        import asyncio

        if self.loop is not None and self.loop.is_running():
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is not self.loop:
                async def run() -> None:
                    self._advance(target)
                asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout=30)
                return
        self._advance(target)

    def _advance(self, target: float) -> None:
        while True:
            with self._lock:
                while self._heap and self._heap[0][2].cancelled:
                    heapq.heappop(self._heap)
                if not self._heap or self._heap[0][0] > target:
                    break
                when, _, handle = heapq.heappop(self._heap)
            self._now = max(self._now, when)
            handle.callback()
        self._now = max(self._now, float(target))


# -- connections --------------------------------------------------------------------------


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
    return secrets.token_urlsafe(12)


# -- what the board holds, with end times -------------------------------------------------


class TimerBook:
    """Setting marks, craters and powerups with their end times (engine ms), kept from
    the engine's events: what a client needs to draw rings between messages."""

    def __init__(self) -> None:
        self.setting: Dict[Tuple[int, int], Tuple[str, int]] = {}
        self.craters: Dict[Tuple[int, int], Optional[int]] = {}
        self.powerups: Dict[Tuple[int, int], Tuple[str, Optional[int]]] = {}

    def apply(self, event: Event) -> None:
        kind, cell = event.kind, event.cell
        if kind == EventKind.ROUND_STARTED:
            self.setting.clear()
            self.craters.clear()
            self.powerups.clear()
        elif kind in (EventKind.PLACED, EventKind.STOLEN):
            self.setting[cell] = (event.player.letter, event.until)  # type: ignore[union-attr]
        elif kind in (EventKind.SET, EventKind.RETIRED, EventKind.BOMBED):
            self.setting.pop(cell, None)  # type: ignore[arg-type]
        elif kind == EventKind.KNOCKED_OUT:
            self.setting.pop(cell, None)  # type: ignore[arg-type]
            if event.until is not None:
                self.craters[cell] = event.until  # type: ignore[index]
        elif kind == EventKind.CRATER_CLEARED:
            self.craters.pop(cell, None)  # type: ignore[arg-type]
        elif kind == EventKind.POWERUP_SPAWNED:
            self.powerups[cell] = (event.powerup.key, event.until)  # type: ignore[union-attr,index]
        elif kind in (EventKind.POWERUP_CLAIMED, EventKind.POWERUP_BURNED_OUT):
            self.powerups.pop(cell, None)  # type: ignore[arg-type]

    def to_dict(self) -> Dict[str, Any]:
        return {
            "setting": [{"cell": list(c), "player": p, "until": u} for c, (p, u) in sorted(self.setting.items())],
            "craters": [{"cell": list(c), "until": u} for c, u in sorted(self.craters.items())],
            "powerups": [{"cell": list(c), "powerup": k, "until": u} for c, (k, u) in sorted(self.powerups.items())],
        }


# -- bots ---------------------------------------------------------------------------------


class ServerBot:
    """A bot seat on the real-time clock: it acts ``reaction_ms`` after its charge fills
    (like a person), deciding with the native policy of its preset (tictacblitz.games.blitz.bots)."""

    def __init__(self, level: str, seed: int) -> None:
        from blitz_core.blitz.bots import NativePolicy

        from ..games.blitz.bots import resolve

        self.level = level
        self.spec = resolve(level)
        self.policy = NativePolicy(self.spec.native(), seed)
        self.reaction_ms = self.spec.reaction_ms
        self.reset()

    def reset(self) -> None:
        self.ready_at: Optional[int] = 0   # R4: a round starts with the charge full
        self.retry_t = 0
        self.busy = False

    def due_t(self, match: Any, seat: Player) -> Optional[int]:
        """The engine ms at which to ask the policy next (None: nothing to do)."""
        if match.round_over or self.busy:
            return None
        status = match.status(seat)
        if not status.charge_full:
            self.ready_at = status.charge_ready_t
            return max(status.charge_ready_t + self.reaction_ms, self.retry_t)
        if self.ready_at is None:
            self.ready_at = match.t
        return max(self.ready_at + self.reaction_ms, self.retry_t)


# -- members, rooms -----------------------------------------------------------------------


class Member:
    """A player's hold on a room: its token, the seat(s) it holds and its connection."""

    def __init__(self, room: "Room", seats: Tuple[Player, ...], name: str) -> None:
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
class SeatInfo:
    kind: Optional[str] = None          # "human", "bot", or None while free
    name: str = ""
    member: Optional[Member] = None
    bot: Optional[ServerBot] = None

    def presence(self) -> Dict[str, Any]:
        connected = self.kind == "bot" or (self.member is not None and self.member.conn is not None)
        grace = self.member.grace_until if self.member is not None and self.member.grace_handle else None
        return {"name": self.name, "kind": self.kind, "level": self.bot.level if self.bot else None,
                "connected": connected, "grace_until": grace}


@dataclass
class Intent:
    seat: Player
    action: Action
    ref: Any = None
    conn: Optional[Peer] = None     # None for a bot


class Room:
    """One room: its seats, spectators, and the match the server runs in real time."""

    def __init__(self, lobby: "Lobby", code: str, mode: str) -> None:
        self.lobby = lobby
        self.code = code
        self.mode = mode
        self.seats = [SeatInfo(), SeatInfo()]
        self.members: List[Member] = []
        self.spectators: List[Peer] = []
        self.phase = WAITING
        self.closed = False
        self.votes = [False, False]
        self.result: Optional[Dict[str, Any]] = None
        self._timer: Optional[Handle] = None
        self._timer_at: Optional[float] = None
        self._new_match()

    # -- who is here ----------------------------------------------------------------------

    def connections(self) -> List[Peer]:
        out = [m.conn for m in self.members if m.conn is not None]
        return out + self.spectators

    def broadcast(self, message: Dict[str, Any]) -> None:
        text = P.encode(message)
        for conn in self.connections():
            conn.send_text(text)

    def presence(self) -> Dict[str, Any]:
        return {"type": "presence", "players": {LETTERS[p]: self.seats[p].presence() for p in (0, 1)},
                "spectators": len(self.spectators)}

    def is_empty(self) -> bool:
        return not self.spectators and not any(m.present for m in self.members)

    def link(self, base_url: str) -> str:
        base = (self.lobby.settings.public_url or base_url).rstrip("/")
        return f"{base}/r/{self.code}"

    # -- the match ------------------------------------------------------------------------

    def _new_match(self) -> None:
        from tictacblitz.games.blitz import Match

        settings = self.lobby.settings
        self.match_id = new_match_id()
        self.match = Match(settings.rules, seed=settings.seed_source(), record=True)
        self._start_events = self.match.events
        self.book = TimerBook()
        self.seq = 0
        self.epoch = self.lobby.clock.now_ms()
        self.resume_at: Optional[float] = None
        self.pending: List[Intent] = []
        self.last_act: Optional[Tuple[int, int]] = None   # (round, t) of the last action
        self.result = None
        self.votes = [False, False]
        for seat in self.seats:
            if seat.bot is not None:
                seat.bot.reset()

    def engine_now(self) -> int:
        """The engine ms of the current round that the clock says it is (R1)."""
        now = int(math.floor(self.lobby.clock.now_ms() - self.epoch))
        return max(self.match.t, min(now, self.match.rules.round_ms))

    def begin_countdown(self) -> None:
        """Both seats are filled: count down, then round 1 (the match exists already)."""
        self.phase = COUNTDOWN
        self._pause(0, self._go)

    def _pause(self, round_: int, then: Callable[[], None]) -> None:
        pause = self.lobby.settings.pause_ms
        now = self.lobby.clock.now_ms()
        self.resume_at = now + pause
        self.send_state_all()
        self.broadcast({"type": "round_break", "round": round_, "resume_at": self.resume_at,
                        "pause_ms": pause})
        if pause <= 0:
            then()
        else:
            self._set_timer(self.resume_at, then)

    def _go(self) -> None:
        if self.closed or self.phase != COUNTDOWN:
            return
        self.phase = LIVE
        self.epoch = self.lobby.clock.now_ms()
        self.resume_at = None
        self._emit(self._start_events)
        self.tick()

    def _next_round(self) -> None:
        if self.closed or self.phase != BREAK:
            return
        self.match.start_next_round()
        self.phase = LIVE
        self.epoch = self.lobby.clock.now_ms()
        self.resume_at = None
        self.last_act = None
        for seat in self.seats:
            if seat.bot is not None:
                seat.bot.reset()
        self._emit(self.match.events)
        self.tick()

    def _set_timer(self, when: float, callback: Callable[[], None]) -> None:
        if self._timer is not None:
            if self._timer_at == when and callback == self._timer_cb:
                return
            self._timer.cancel()
        self._timer_at = when
        self._timer_cb = callback
        self._timer = self.lobby.clock.call_at(when, self._fire)

    def _fire(self) -> None:
        self._timer = None
        self._timer_at = None
        if not self.closed:
            self._timer_cb()

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self._timer_at = None

    def tick(self) -> None:
        """Bring the engine to the clock's ms and do what is due: timed events (R2),
        waiting intents, bot decisions; then set the timer on the next thing."""
        if self.closed or self.phase != LIVE:
            return
        for _ in range(4):   # an inline bot's decision comes back as a pending intent
            now = self.engine_now()
            if now > self.match.t:
                self.match.advance_to(now)
                self._emit(self.match.events)
                if self.phase != LIVE:
                    return
            self._apply_pending(now)
            if self.phase != LIVE:
                return
            if not self._poll_bots(now):
                break
        self._schedule()

    def _apply_pending(self, now: int) -> None:
        if not self.pending:
            return
        match = self.match
        # One action per player per ms: once anybody acted at this ms, the rest wait
        # for the next one (docs/engine.md). Both seats together go through act_both (R3).
        if self.last_act == (match.round, match.t):
            return
        firsts: Dict[Player, Intent] = {}
        rest: List[Intent] = []
        for intent in self.pending:
            if intent.seat in firsts:
                rest.append(intent)
            else:
                firsts[intent.seat] = intent
        self.pending = rest
        x, o = firsts.get(Player.X), firsts.get(Player.O)
        if x is not None and o is not None:
            reasons = match.act_both(x.action, o.action)
            applied = [(x, reasons[0]), (o, reasons[1])]
        else:
            only = x if x is not None else o
            assert only is not None
            early = match.check(only.seat, only.action)
            if early is not None:
                # R7 says no without the engine: nothing changes, and a flood of refused
                # clicks does not grow the recorded script (the replay stays small).
                self._answer(only, early)
                return
            applied = [(only, match.act(only.seat, only.action))]
        self.last_act = (match.round, match.t)
        events = match.events
        self._emit(events)
        for intent, reason in applied:
            if reason is None:
                bot = self.seats[intent.seat].bot
                if bot is not None:
                    bot.ready_at = None
            else:
                self._answer(intent, reason)

    def _answer(self, intent: Intent, reason: Reason) -> None:
        """A refused intent: its bot tries again next ms, its person hears why (R7)."""
        bot = self.seats[intent.seat].bot
        if bot is not None:
            bot.retry_t = self.match.t + 1
        elif intent.conn is not None:
            intent.conn.send(self._rejected(intent, reason))

    def _rejected(self, intent: Intent, reason: Reason) -> Dict[str, Any]:
        out = {"type": "rejected", "seat": intent.seat.letter,
               "action": "place" if intent.action.kind == ActionKind.PLACE else "knockout",
               "cell": list(intent.action.cell), "reason": reason.value,
               "round": self.match.round, "t": self.match.t}
        if intent.ref is not None:
            out["ref"] = intent.ref
        return out

    def _poll_bots(self, now: int) -> bool:
        """Ask the bots that are due; True if an inline decision added an intent."""
        added = False
        for p in PLAYERS:
            bot = self.seats[p].bot
            if bot is None:
                continue
            due = bot.due_t(self.match, p)
            if due is None or due > now:
                continue
            added |= self.lobby.run_bot(self, p, bot)
        return added

    def bot_decided(self, seat: Player, key: Tuple[str, int], decision: Tuple[Any, int, int, int]) -> bool:
        """A bot's decision is back (on the loop thread); True if it became an intent."""
        bot = self.seats[seat].bot
        if bot is None:
            return False
        bot.busy = False
        if self.closed or self.phase != LIVE or key != (self.match_id, self.match.round):
            return False
        _rule, kind, cell, _sims = decision
        now = self.engine_now()
        if kind < 0:
            bot.retry_t = now + self.lobby.settings.bot_retry_ms
            return False
        where = index_cell(cell, self.match.rules.size)
        action = Action.place(where) if kind == ActionKind.PLACE else Action.knockout(where)
        self.pending.append(Intent(seat, action))
        return True

    def _schedule(self) -> None:
        if self.phase != LIVE or self.match.round_over:
            return
        match = self.match
        nxt = match.next_event_t()
        candidates = [nxt] if nxt is not None else [match.rules.round_ms]
        if self.pending:
            candidates.append(match.t + 1)
        for p in PLAYERS:
            bot = self.seats[p].bot
            if bot is not None:
                due = bot.due_t(match, p)
                if due is not None:
                    candidates.append(max(due, match.t + 1))
        target = max(min(candidates), match.t + 1)
        self._set_timer(self.epoch + target, self.tick)

    def intent(self, seat: Player, action: Action, ref: Any, conn: Peer) -> None:
        if self.phase != LIVE or self.match.round_over:
            conn.send(self._rejected(Intent(seat, action, ref, conn), Reason.ROUND_OVER))
            return
        self.pending.append(Intent(seat, action, ref, conn))
        self.tick()

    def _emit(self, events: List[Event]) -> None:
        """Broadcast one engine step's events (not the R7 rejections: they go to their
        sender), then follow a round's or the match's end."""
        shown = [e for e in events if e.kind != EventKind.REJECTED]
        if not shown:
            return
        for event in shown:
            self.book.apply(event)
        self.seq += 1
        match = self.match
        self.broadcast({"type": "events", "match_id": self.match_id, "seq": self.seq,
                        "round": match.round, "t": match.t, "epoch_ms": self.epoch,
                        "events": [e.to_dict() for e in shown],
                        "players": {LETTERS[p]: match.status(p).to_dict() for p in (0, 1)}})
        if match.round_over and self.phase == LIVE:
            self._cancel_timer()
            # Intents still waiting belong to the round that ended: refuse them, never
            # carry them into the next round.
            waiting, self.pending = self.pending, []
            for intent in waiting:
                self._answer(intent, Reason.ROUND_OVER)
            if match.match_over:
                result = match.match_result
                self.finish("rounds", result.letter if result is not None else "draw")
            else:
                self.phase = BREAK
                self._pause(match.round, self._next_round)

    def finish(self, by: str, result: str, forfeited_by: Optional[str] = None) -> None:
        """The match ends (R22, a forfeit or an abandon): store the replay, tell all."""
        if self.phase == OVER:
            return
        if self.phase == LIVE and by != "rounds":
            self.tick()        # the engine to now first, so the replay stops here
            if self.phase == OVER:
                return
        self._cancel_timer()
        self.phase = OVER
        self.resume_at = None
        self.pending = []
        match = self.match
        wins = match.round_wins
        body: Dict[str, Any] = {"type": "match_end", "match_id": self.match_id, "result": result, "by": by,
                                "round_wins": {"X": wins[0], "O": wins[1]},
                                "rounds": [r.to_dict() for r in match.rounds],
                                "replay_id": self.match_id, "replay_url": f"/replays/{self.match_id}"}
        if forfeited_by is not None:
            body["forfeited_by"] = forfeited_by
        self.result = body
        self.lobby.replays.put(self.match_id, self._replay(body))
        self.votes = [self.seats[p].kind == "bot" for p in (0, 1)]
        self.broadcast(body)

    def _replay(self, result: Dict[str, Any]) -> Dict[str, Any]:
        match = self.match
        scenario = match.to_scenario(name=f"tictacblitz {self.mode} match {self.match_id}")
        last_round = max((e["round"] for e in scenario["script"]), default=1)
        if last_round != match.round:
            # `until` applies to the last round the script names (SCENARIOS.md); with no
            # action in the current round, play that one to its end instead.
            scenario.pop("until", None)
        wins = match.round_wins
        engine_result = None
        if match.match_over:
            engine_result = match.match_result.letter if match.match_result is not None else "draw"
        scenario.update({
            "match_id": self.match_id,
            "mode": self.mode,
            "players": {LETTERS[p]: {"kind": self.seats[p].kind, "name": self.seats[p].name,
                                     "level": self.seats[p].bot.level if self.seats[p].bot else None}
                        for p in (0, 1)},
            "result": {k: result[k] for k in ("result", "by", "forfeited_by") if k in result},
            "expect": {"rounds": [r.to_dict() for r in match.rounds],
                       "round_wins": {"X": wins[0], "O": wins[1]}, "match": engine_result},
        })
        return scenario

    # -- snapshots ------------------------------------------------------------------------

    def state(self, conn: Peer, ref: Any = None) -> Dict[str, Any]:
        if self.phase == LIVE:
            self.tick()     # the snapshot is of now, not of the last timed event
        match = self.match
        players = {}
        for p in (0, 1):
            entry = self.seats[p].presence()
            entry.update(match.status(p).to_dict())
            players[LETTERS[p]] = entry
        wins = match.round_wins
        member = conn.member
        out = {"type": "state", "room": self.code, "mode": self.mode, "match_id": self.match_id,
               "phase": self.phase, "seq": self.seq, "round": match.round, "t": match.t,
               "epoch_ms": self.epoch, "resume_at": self.resume_at,
               "you": {"role": "player" if member is not None else "spectator",
                       "seats": [s.letter for s in member.seats] if member is not None else []},
               "board": match.board_text(), **self.book.to_dict(),
               "players": players, "round_wins": {"X": wins[0], "O": wins[1]},
               "rounds": [r.to_dict() for r in match.rounds], "result": self.result,
               "rematch": {"X": self.votes[0], "O": self.votes[1]},
               "spectators": len(self.spectators)}
        if ref is not None:
            out["ref"] = ref
        return out

    def send_state_all(self) -> None:
        for conn in self.connections():
            conn.send(self.state(conn))

    # -- seats coming and going -----------------------------------------------------------

    def member_gone(self, member: Member, why: str) -> None:
        """A player left or their grace ran out: forfeit a running match, close a
        waiting room."""
        member.gone = True
        if member.grace_handle is not None:
            member.grace_handle.cancel()
            member.grace_handle = None
        member.grace_until = None
        self.lobby.tokens.pop(member.token, None)
        if self.phase == WAITING:
            self.lobby.close_room(self)
            return
        if self.phase in RUNNING:
            others = [p for p in PLAYERS if p not in member.seats]
            winner = None
            for p in others:
                seat = self.seats[p]
                if seat.kind == "bot" or (seat.member is not None and seat.member.present):
                    winner = p
            if winner is None:
                self.finish("abandoned", "draw")
            else:
                self.finish("forfeit", winner.letter, forfeited_by="".join(s.letter for s in member.seats))
        self.broadcast(self.presence())
        self.lobby.maybe_expire(self)

    def vote(self, member: Member, agree: bool) -> None:
        for seat in member.seats:
            self.votes[seat] = agree
        self.broadcast({"type": "rematch", "votes": {"X": self.votes[0], "O": self.votes[1]}})
        if all(self.votes):
            self._new_match()
            self.begin_countdown()

    def close(self) -> None:
        self.closed = True
        self._cancel_timer()
        for member in self.members:
            if member.grace_handle is not None:
                member.grace_handle.cancel()
                member.grace_handle = None


# -- replays ------------------------------------------------------------------------------


_REPLAY_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


class ReplayStore:
    """Replays by match id: the last ``keep`` in memory, all of them in ``directory``."""

    def __init__(self, keep: int, directory: Optional[str] = None) -> None:
        self.keep = keep
        self.directory = directory
        self._memory: "OrderedDict[str, str]" = OrderedDict()
        if directory:
            os.makedirs(directory, exist_ok=True)

    def put(self, match_id: str, scenario: Dict[str, Any]) -> None:
        # Kept as compact JSON text: a few times smaller than the dicts.
        self._memory[match_id] = json.dumps(scenario, separators=(",", ":"))
        self._memory.move_to_end(match_id)
        while len(self._memory) > self.keep:
            self._memory.popitem(last=False)
        if self.directory:
            path = os.path.join(self.directory, f"{match_id}.json")
            tmp = path + ".tmp"
            with open(tmp, "w", encoding="utf-8") as fh:
                json.dump(scenario, fh, indent=1)
            os.replace(tmp, path)

    def get(self, match_id: str) -> Optional[Dict[str, Any]]:
        if not _REPLAY_ID.match(match_id):
            return None
        found = self._memory.get(match_id)
        if found is not None:
            return json.loads(found)
        if not self.directory:
            return None
        path = os.path.join(self.directory, f"{match_id}.json")
        try:
            with open(path, encoding="utf-8") as fh:
                return json.load(fh)
        except (OSError, ValueError):
            return None

    def __len__(self) -> int:
        return len(self._memory)


# -- the lobby ----------------------------------------------------------------------------


class Lobby:
    """Every room of a server, and the handling of each validated client message.

    ``executor`` runs bot decisions (a thread pool; None: inline) and ``post`` brings
    their results back to the loop thread (``loop.call_soon_threadsafe``).
    """

    def __init__(self, settings: Optional[Settings] = None, clock: Optional[Clock] = None,
                 executor: Optional[Executor] = None,
                 post: Optional[Callable[[Callable[[], None]], None]] = None) -> None:
        self.settings = settings or Settings()
        self.clock: Clock = clock or RealClock()
        self.executor = executor
        self.post = post
        self.rooms: Dict[str, Room] = {}
        self.tokens: Dict[str, Member] = {}
        self.replays = ReplayStore(self.settings.replay_keep, self.settings.replay_dir)
        self.connections = 0

    def welcome(self) -> Dict[str, Any]:
        from .. import __version__

        return {"type": "welcome", "v": P.VERSION, "server": f"tictacblitz/{__version__}",
                "modes": list(P.MODES), "bots": list(P.BOT_LEVELS),
                "rules": self.settings.rules.to_dict(), "limits": self.settings.limits()}

    # -- bots -----------------------------------------------------------------------------

    def run_bot(self, room: Room, seat: Player, bot: ServerBot) -> bool:
        """Start a bot decision; True if it came back at once as an intent (inline)."""
        key = (room.match_id, room.match.round)
        if self.executor is None:
            decision = bot.policy.decide(room.match, int(seat))
            return room.bot_decided(seat, key, decision)
        bot.busy = True
        snapshot = room.match.clone()
        future = self.executor.submit(bot.policy.decide, snapshot, int(seat))

        def done(fut: Any) -> None:
            def back() -> None:
                try:
                    decision = fut.result()
                except Exception:   # a failed decision: wait and ask again
                    decision = ("error", -1, -1, 0)
                if room.bot_decided(seat, key, decision):
                    room.tick()
                elif not room.closed and room.phase == LIVE:
                    room._schedule()
            assert self.post is not None
            self.post(back)

        future.add_done_callback(done)
        return False

    # -- connections ----------------------------------------------------------------------

    def connected(self, conn: Peer) -> None:
        conn.member = None
        conn.room = None
        self.connections += 1
        conn.send(self.welcome())

    def disconnected(self, conn: Peer) -> None:
        self.connections -= 1
        room, member = conn.room, conn.member
        conn.room = conn.member = None
        if room is None:
            return
        if member is None:
            if conn in room.spectators:
                room.spectators.remove(conn)
                room.broadcast(room.presence())
            self.maybe_expire(room)
            return
        if member.conn is not conn or member.gone:
            return
        member.conn = None
        member.grace_until = self.clock.now_ms() + self.settings.grace_ms
        member.grace_handle = self.clock.call_at(member.grace_until, lambda: self._grace_over(member))
        room.broadcast(room.presence())

    def _grace_over(self, member: Member) -> None:
        member.grace_handle = None
        if member.gone or member.conn is not None or member.room.closed:
            return
        member.room.member_gone(member, "grace")

    def maybe_expire(self, room: Room) -> None:
        if not room.closed and room.is_empty():
            self.close_room(room)

    def close_room(self, room: Room) -> None:
        if room.closed:
            return
        room.close()
        self.rooms.pop(room.code, None)
        for member in room.members:
            self.tokens.pop(member.token, None)
        for conn in room.connections():
            conn.send(P.error_message("room_closed", "the room was closed"))
            conn.room = conn.member = None
            conn.close(P.CLOSE_CODES["room_closed"])

    def _attach(self, conn: Peer, room: Room, member: Optional[Member]) -> None:
        conn.room = room
        conn.member = member
        if member is None:
            room.spectators.append(conn)
        else:
            member.conn = conn

    def _joined(self, conn: Peer, room: Room, ref: Any) -> None:
        member = conn.member
        out: Dict[str, Any] = {"type": "joined", "room": room.code, "link": room.link(conn.base_url),
                               "mode": room.mode, "role": "player" if member else "spectator",
                               "seats": [s.letter for s in member.seats] if member else [],
                               "match_id": room.match_id}
        if member is not None:
            out["token"] = member.token
        if ref is not None:
            out["ref"] = ref
        conn.send(out)

    def _new_room(self, mode: str) -> Room:
        code = new_code()
        while code in self.rooms:
            code = new_code()
        room = Room(self, code, mode)
        self.rooms[code] = room
        return room

    def _new_member(self, room: Room, seats: Tuple[Player, ...], name: str) -> Member:
        member = Member(room, seats, name)
        room.members.append(member)
        self.tokens[member.token] = member
        for seat in seats:
            room.seats[seat].kind = "human"
            room.seats[seat].member = member
            if len(seats) == 1:
                room.seats[seat].name = name or seat.letter
            else:
                room.seats[seat].name = f"{name} {seat.letter}" if name else seat.letter
        return member

    # -- messages -------------------------------------------------------------------------

    def handle(self, conn: Peer, msg: P.ClientMessage) -> None:
        """One validated client message (protocol.parse_client_message)."""
        try:
            getattr(self, f"_on_{msg.type}")(conn, msg)
        except P.ProtocolError as exc:
            conn.send(P.error_message(exc.code, exc.message, msg.ref))

    def _not_in_room(self, conn: Peer, msg: P.ClientMessage) -> None:
        if conn.room is not None:
            raise P.ProtocolError("already_in_room", f"already in room {conn.room.code}: leave it first")

    def _room_by_code(self, code: str) -> Room:
        room = self.rooms.get(code) if P.is_code(code) else None
        if room is None or room.closed:
            raise P.ProtocolError("room_not_found", "no room with that code")
        return room

    def _on_create(self, conn: Peer, msg: P.ClientMessage) -> None:
        self._not_in_room(conn, msg)
        if len(self.rooms) >= self.settings.max_rooms:
            raise P.ProtocolError("server_full", "the server has no room for another room")
        mode = msg.get("mode")
        symbol = Player.parse(msg.get("symbol", "X"))
        name = msg.get("name", "")
        room = self._new_room(mode)
        if mode == "local":
            member = self._new_member(room, (Player.X, Player.O), name)
        else:
            member = self._new_member(room, (symbol,), name)
        if mode == "bot":
            level = msg.get("bot")
            seat = room.seats[symbol.other]
            seat.kind, seat.name = "bot", level
            seat.bot = ServerBot(level, self.settings.seed_source())
        self._attach(conn, room, member)
        self._joined(conn, room, msg.ref)
        if mode == "online":
            conn.send(room.state(conn))
        else:
            room.begin_countdown()

    def _on_join(self, conn: Peer, msg: P.ClientMessage) -> None:
        self._not_in_room(conn, msg)
        room = self._room_by_code(msg.get("code"))
        if room.mode != "online":
            raise P.ProtocolError("wrong_mode", f"room {room.code} is a {room.mode} room: watch it instead")
        free = [p for p in PLAYERS if room.seats[p].kind is None]
        if not free or room.phase != WAITING:
            raise P.ProtocolError("room_full", "both seats are taken")
        seat = free[0]
        member = self._new_member(room, (seat,), msg.get("name", ""))
        self._attach(conn, room, member)
        self._joined(conn, room, msg.ref)
        room.broadcast(room.presence())
        room.begin_countdown()

    def _on_watch(self, conn: Peer, msg: P.ClientMessage) -> None:
        self._not_in_room(conn, msg)
        room = self._room_by_code(msg.get("code"))
        if len(room.spectators) >= self.settings.max_spectators:
            raise P.ProtocolError("spectators_full",
                                  f"room {room.code} has {self.settings.max_spectators} spectators already")
        self._attach(conn, room, None)
        self._joined(conn, room, msg.ref)
        conn.send(room.state(conn))
        room.broadcast(room.presence())

    def _on_resume(self, conn: Peer, msg: P.ClientMessage) -> None:
        self._not_in_room(conn, msg)
        token = msg.get("token")
        member = self.tokens.get(token)
        if member is None or member.gone or member.room.closed:
            raise P.ProtocolError("bad_token", "that token holds no seat")
        room = member.room
        old = member.conn
        if old is not None and old is not conn:
            old.send(P.error_message("seat_taken_over", "another connection resumed this seat"))
            old.room = old.member = None
            old.close(P.CLOSE_CODES["seat_taken_over"])
        if member.grace_handle is not None:
            member.grace_handle.cancel()
        member.grace_handle = None
        member.grace_until = None
        self._attach(conn, room, member)
        self._joined(conn, room, msg.ref)
        conn.send(room.state(conn))
        room.broadcast(room.presence())

    def _player(self, conn: Peer) -> Member:
        if conn.room is None:
            raise P.ProtocolError("not_in_room", "not in a room: create, join or watch one first")
        if conn.member is None:
            raise P.ProtocolError("not_a_player", "spectators cannot act or vote")
        return conn.member

    def _on_act(self, conn: Peer, msg: P.ClientMessage) -> None:
        member = self._player(conn)
        room = member.room
        if "seat" in msg.fields:
            seat = Player.parse(msg.get("seat"))
            if seat not in member.seats:
                raise P.ProtocolError("not_your_seat", f"this connection does not hold seat {seat.letter}")
        elif len(member.seats) == 1:
            seat = member.seats[0]
        else:
            raise P.ProtocolError("seat_required", "this connection holds both seats: say which acts")
        size = room.match.rules.size
        row, col = msg.get("cell")
        if not (0 <= row < size and 0 <= col < size):
            raise P.ProtocolError("bad_field", f"act.cell: [{row}, {col}] is off the {size}x{size} board")
        kind = msg.get("action")
        action = Action.place((row, col)) if kind == "place" else Action.knockout((row, col))
        room.intent(seat, action, msg.ref, conn)

    def _on_rematch(self, conn: Peer, msg: P.ClientMessage) -> None:
        member = self._player(conn)
        room = member.room
        if room.phase != OVER:
            raise P.ProtocolError("match_not_over", "the match is still running")
        room.vote(member, bool(msg.get("agree")))

    def _on_sync(self, conn: Peer, msg: P.ClientMessage) -> None:
        if conn.room is None:
            raise P.ProtocolError("not_in_room", "not in a room")
        conn.send(conn.room.state(conn, msg.ref))

    def _on_ping(self, conn: Peer, msg: P.ClientMessage) -> None:
        out: Dict[str, Any] = {"type": "pong", "server_ms": self.clock.now_ms()}
        room = conn.room
        if room is not None:
            if room.phase == LIVE:
                room.tick()
            out.update({"phase": room.phase, "round": room.match.round, "t": room.match.t})
        if msg.ref is not None:
            out["ref"] = msg.ref
        conn.send(out)

    def _on_leave(self, conn: Peer, msg: P.ClientMessage) -> None:
        room, member = conn.room, conn.member
        if room is None:
            raise P.ProtocolError("not_in_room", "not in a room")
        conn.room = conn.member = None
        if member is None:
            room.spectators.remove(conn)
            room.broadcast(room.presence())
            self.maybe_expire(room)
            return
        member.conn = None
        room.member_gone(member, "leave")
