"""A room, for any game: seats, members and their tokens, spectators, the phases of a
match (countdown, live, break, over), reconnect grace, forfeits, rematch by consent,
replays and snapshots.

The room speaks only the platform protocol and the game adapter's
:class:`~.adapter.MatchSession` (docs/server.md, "Adapters"): it never names a game's
types. It is the session's :class:`~.games.SessionHost`. Everything runs on the event
loop's thread; the room's one :class:`~.clock.Timer` is set on the session's
``wake_at()`` or the end of a pause.

What a room needs of the lobby that holds it is a :class:`~.room_host.RoomHost` (the
lobby is one): room.py imports nothing of lobby.py, which sits above it.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, Optional, Sequence

from . import protocol as P
from .adapter import MatchSession
from .clock import Timer
from .room_host import RoomHost
from .seats import Member, Peer, Seat, new_code, new_match_id, new_token

__all__ = [
    "Peer",
    "Member",
    "Seat",
    "Room",
    "RoomHost",
    "new_code",
    "new_token",
    "new_match_id",
    "WAITING",
    "COUNTDOWN",
    "LIVE",
    "BREAK",
    "OVER",
    "RUNNING",
]

# Room phases (docs/protocol.md).
WAITING, COUNTDOWN, LIVE, BREAK, OVER = "waiting", "countdown", "live", "break", "over"
RUNNING = (COUNTDOWN, LIVE, BREAK)


class Room:
    """One room: its seats, spectators, and the match its game session plays."""

    def __init__(self, lobby: RoomHost[Room], code: str, mode: str) -> None:
        self.lobby = lobby
        self.adapter = lobby.adapter
        self.names = self.adapter.seats  # as many as the game's players (issue 25)
        self.code = code
        self.mode = mode
        self.seats: List[Seat[Room]] = [Seat() for _ in self.names]
        self.members: List[Member[Room]] = []
        self.spectators: List[Peer[Room]] = []
        self.phase = WAITING
        self.closed = False
        self.votes = [False for _ in self.names]
        self.result: Optional[Dict[str, Any]] = None
        self.timer = Timer(lobby.clock)
        self.owner_address: Optional[str] = None  # who created it (the lobby's quotas)
        self.session: MatchSession
        self.new_match()

    # -- the session's host -------------------------------------------------------------------

    @property
    def live(self) -> bool:
        return not self.closed and self.phase == LIVE

    @property
    def bots(self) -> Sequence[Any]:
        """The seats' bot drivers; none while no person is connected (everybody left or
        is in grace): a room nobody watches does not keep its bots thinking. A
        ``resume`` brings them back (its ``state`` ticks the room)."""
        if not any(m.conn is not None for m in self.members):
            return [None for _ in self.seats]
        return [seat.bot for seat in self.seats]

    def now_ms(self) -> float:
        return self.lobby.clock.now_ms()

    def emit(self, body: Dict[str, Any]) -> None:
        self.seq += 1
        self.broadcast({"type": "events", "match_id": self.match_id, "seq": self.seq, **body})

    def round_ended(self, round_: int) -> None:
        self.timer.cancel()
        self.phase = BREAK
        self.pause(round_, self.next_round)

    def match_ended(self, result: str) -> None:
        self.finish("rounds", result)

    def run_job(
        self, job: Callable[[], Any], done: Callable[[Any, Optional[BaseException]], None]
    ) -> bool:
        return self.lobby.run_job(job, done)

    # -- who is here --------------------------------------------------------------------------

    def connections(self) -> List[Peer[Room]]:
        out = [m.conn for m in self.members if m.conn is not None]
        return out + self.spectators

    def broadcast(self, message: Dict[str, Any]) -> None:
        text = P.encode(message)
        for conn in self.connections():
            conn.send_text(text)

    def presence(self) -> Dict[str, Any]:
        return {
            "type": "presence",
            "players": {self.names[p]: seat.presence() for p, seat in enumerate(self.seats)},
            "spectators": len(self.spectators),
        }

    def is_empty(self) -> bool:
        return not self.spectators and not any(m.present for m in self.members)

    def why_full(self) -> str:
        """Why `join` finds no seat in this live room, in words (issue 26, item 7: not "no
        room", which `watch` would contradict): a seat in its grace is its player's."""
        held = [m.grace_until for m in self.members if m.conn is None and m.grace_until]
        if not held:
            return "that match is full: you can spectate it"
        left = max(1, math.ceil((min(held) - self.now_ms()) / 1000))
        return (
            f"that seat is held for its player for {left} s more (they come back from "
            "the tab they played in): you can spectate"
        )

    @property
    def host(self) -> Optional[Member[Room]]:
        """The member who created the room: the one who may start it with bots in the
        free seats (``start``, issue 25)."""
        return self.members[0] if self.members else None

    def free_seats(self) -> List[int]:
        """The seats nobody holds yet, in order: ``join`` fills the first."""
        return [p for p, seat in enumerate(self.seats) if seat.kind is None]

    def link(self, base_url: str) -> str:
        base = (self.lobby.settings.public_url or base_url).rstrip("/")
        return f"{base}/r/{self.code}"

    def seat_names(self, seats: Sequence[int]) -> List[str]:
        return [self.names[s] for s in seats]

    def joined(self, conn: Peer[Room], ref: Any) -> Dict[str, Any]:
        """The ``joined`` answer for ``conn`` (a player's carries its token)."""
        member = conn.member
        out: Dict[str, Any] = {
            "type": "joined",
            "room": self.code,
            "link": self.link(conn.base_url),
            "mode": self.mode,
            "role": "player" if member else "spectator",
            "seats": self.seat_names(member.seats) if member else [],
            "match_id": self.match_id,
        }
        if member is not None:
            out["token"] = member.token
        if ref is not None:
            out["ref"] = ref
        return out

    def add_bot(self, seat: int, level: str) -> None:
        """A bot takes ``seat`` (bot mode); it plays every match of the room."""
        self.seats[seat].kind, self.seats[seat].name = "bot", level
        self.seats[seat].bot = self.adapter.make_bot(level, self.lobby.settings.seed_source())

    # -- the match ----------------------------------------------------------------------------

    def new_match(self) -> None:
        """A fresh match (the room's first, or a rematch): new id, new seed."""
        if getattr(self, "session", None) is not None:
            self.session.close()
        self.match_id = new_match_id()
        self.seq = 0
        self.resume_at: Optional[float] = None
        self.result = None
        self.votes = [False for _ in self.seats]
        for seat in self.seats:
            if seat.bot is not None:
                seat.bot.reset()
        self.session = self.adapter.new_session(self, self.lobby.settings.seed_source())

    def begin_countdown(self) -> None:
        """Every seat is filled: count down, then the first round."""
        self.phase = COUNTDOWN
        self.pause(0, self.go)

    def pause(self, round_: int, then: Callable[[], None]) -> None:
        """The countdown (round 0) or a break after ``round_``; then ``then``."""
        pause = self.lobby.settings.pause_ms
        self.resume_at = self.now_ms() + pause
        self.send_state_all()
        self.broadcast(
            {"type": "round_break", "round": round_, "resume_at": self.resume_at, "pause_ms": pause}
        )
        if pause <= 0:
            then()
        else:
            self.timer.set(self.resume_at, then)

    def go(self) -> None:
        if self.closed or self.phase != COUNTDOWN:
            return
        self.phase = LIVE
        self.resume_at = None
        self.session.start()
        self.tick()

    def next_round(self) -> None:
        if self.closed or self.phase != BREAK:
            return
        self.phase = LIVE
        self.resume_at = None
        self.session.next_round()
        self.tick()

    def tick(self) -> None:
        """Bring the match to now (the session does what is due), then set the timer
        on the next thing due."""
        if not self.live:
            return
        self.session.tick()
        if not self.live:
            return
        wake = self.session.wake_at()
        if wake is None:
            self.timer.cancel()
        else:
            self.timer.set(wake, self.tick)

    def intent(self, seat: int, fields: Dict[str, Any], ref: Any, conn: Peer[Room]) -> None:
        """A player's ``act`` for ``seat`` (the lobby checked it holds the seat)."""
        self.session.intent(seat, fields, ref, conn)
        self.tick()

    def finish(self, by: str, result: str, forfeited_by: Optional[str] = None) -> None:
        """The match ends (by the rules, a forfeit or an abandon): store the replay,
        tell all."""
        if self.phase == OVER:
            return
        if self.phase == LIVE and by != "rounds":
            self.tick()  # the match to now first, so the replay stops here
            if self.phase == OVER:
                return
        self.timer.cancel()
        self.phase = OVER
        self.resume_at = None
        self.session.close()
        body: Dict[str, Any] = {
            "type": "match_end",
            "match_id": self.match_id,
            "result": result,
            "by": by,
            **self.session.result_fields(),
            "replay_id": self.match_id,
            "replay_url": f"/replays/{self.match_id}",
        }
        if forfeited_by is not None:
            body["forfeited_by"] = forfeited_by
        self.result = body
        self.lobby.replays.put(self.match_id, self.replay(body))
        self.votes = [seat.kind == "bot" for seat in self.seats]  # a bot always agrees
        self.broadcast(body)

    def replay(self, result: Dict[str, Any]) -> Dict[str, Any]:
        """The game's replay file plus who played and how it ended (keys the game's
        format ignores)."""
        out = self.session.replay_file(
            f"{self.adapter.game.type.name} {self.mode} match {self.match_id}"
        )
        out.update(
            {
                "match_id": self.match_id,
                "mode": self.mode,
                "players": {
                    self.names[p]: {
                        "kind": self.seats[p].kind,
                        "name": self.seats[p].name,
                        "level": self.seats[p].bot.level if self.seats[p].bot else None,
                    }
                    for p in range(len(self.seats))
                },
                "result": {k: result[k] for k in ("result", "by", "forfeited_by") if k in result},
            }
        )
        return out

    # -- snapshots ----------------------------------------------------------------------------

    def state(self, conn: Peer[Room], ref: Any = None) -> Dict[str, Any]:
        """The full ``state`` message for ``conn`` (its role and seats)."""
        self.tick()  # the snapshot is of now, not of the last timed event
        players = {}
        for p in range(len(self.seats)):
            entry = self.seats[p].presence()
            entry.update(self.session.seat_status(p))
            players[self.names[p]] = entry
        member = conn.member
        out = {
            "type": "state",
            "room": self.code,
            "mode": self.mode,
            "match_id": self.match_id,
            "phase": self.phase,
            "seq": self.seq,
            "resume_at": self.resume_at,
            "you": {
                "role": "player" if member is not None else "spectator",
                "seats": self.seat_names(member.seats) if member is not None else [],
                **({"host": True} if member is not None and member is self.host else {}),
            },
            "rules": self.adapter.game.rules.to_dict(),
            **self.session.snapshot(),
            **self.session.private(tuple(member.seats) if member is not None else ()),
            "players": players,
            "result": self.result,
            "rematch": dict(zip(self.names, self.votes, strict=True)),
            "spectators": len(self.spectators),
        }
        if ref is not None:
            out["ref"] = ref
        return out

    def send_state_all(self) -> None:
        for conn in self.connections():
            conn.send(self.state(conn))

    # -- seats coming and going ---------------------------------------------------------------

    def member_gone(self, member: Member[Room], why: str) -> None:
        """A player left or their grace ran out: forfeit a running match, close a
        waiting room."""
        member.gone = True
        if member.grace_handle is not None:
            member.grace_handle.cancel()
            member.grace_handle = None
        member.grace_until = None
        self.lobby.forget(member)
        if self.phase == WAITING and member is not self.host:
            # A guest left a room still filling (issue 25: rooms of 3 or 4 seats wait
            # for several guests): their seat is free again, the room stays.
            for p in member.seats:
                self.seats[p] = Seat()
        elif self.phase == WAITING:
            self.lobby.close_room(self)
            return
        elif self.phase in RUNNING:
            held = [
                p
                for p, seat in enumerate(self.seats)
                if p not in member.seats
                and (seat.kind == "bot" or (seat.member is not None and seat.member.present))
            ]
            left = "".join(self.seat_names(member.seats))
            if len(held) == 1:  # the one player left in wins by forfeit
                self.finish("forfeit", self.names[held[0]], forfeited_by=left)
            elif held:  # several left in (3 or 4 seats): nobody wins by the rules
                self.finish("abandoned", "draw", forfeited_by=left)
            else:
                self.finish("abandoned", "draw")
        self.broadcast(self.presence())
        self.lobby.maybe_expire(self)

    def vote(self, member: Member[Room], agree: bool) -> None:
        for seat in member.seats:
            self.votes[seat] = agree
        self.broadcast({"type": "rematch", "votes": dict(zip(self.names, self.votes, strict=True))})
        if all(self.votes):
            self.new_match()
            self.begin_countdown()

    def close(self) -> None:
        self.closed = True
        self.timer.cancel()
        self.session.close()
        for member in self.members:
            if member.grace_handle is not None:
                member.grace_handle.cancel()
                member.grace_handle = None
