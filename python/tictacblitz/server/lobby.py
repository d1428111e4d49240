"""Every room of a server, and the handling of each validated client message.

The :class:`Lobby` takes client messages (validated by its game's
:class:`~.protocol.MessageSchema`) from connections (:class:`~.seats.Peer`: ``send(dict)``,
``send_text(str)``, ``close(code)``) and keeps the rooms, the seat tokens and the
connection count. It is game-agnostic: the game comes in through the server adapter of
``settings.game`` (:func:`~.adapter.adapter_for`). Everything here runs on the event loop's
thread; bots think in ``executor`` (a thread pool; None: inline, deterministic tests) and
their answers come back through ``post``. It is its rooms' :class:`~.room_host.RoomHost`."""

from __future__ import annotations

from concurrent.futures import Executor
from typing import Any, Callable, Dict, Optional, Tuple

from ..games.registry import load_game
from . import protocol as P
from .adapter import GameAdapter, adapter_for
from .clock import Clock, RealClock
from .jobs import run_job
from .limits import Buckets
from .replay_store import ReplayStore
from .room import OVER, WAITING, Room
from .seats import Member, Peer, new_code
from .settings import Settings

__all__ = ["Lobby"]


class Lobby:
    """Every room of a server, and the handling of each validated client message.

    ``executor`` runs bot decisions (a thread pool; None: inline) and ``post`` brings
    their results back to the loop thread (``loop.call_soon_threadsafe``).

    :raises NoAdapter: when the server has no adapter for ``settings.game``.
    """

    def __init__(
        self,
        settings: Optional[Settings] = None,
        clock: Optional[Clock] = None,
        executor: Optional[Executor] = None,
        post: Optional[Callable[[Callable[[], None]], None]] = None,
    ) -> None:
        self.settings = settings or Settings()
        self.clock: Clock = clock or RealClock()
        self.executor = executor
        self.post = post
        self.adapter: GameAdapter = adapter_for(self.settings.game, self.settings)
        self.schema = P.MessageSchema(
            self.adapter.seats, self.adapter.bot_levels, self.adapter.act_fields
        )
        self.rooms: Dict[str, Room] = {}
        self.tokens: Dict[str, Member[Room]] = {}
        self.replays = ReplayStore(self.settings.replay_keep, self.settings.replay_dir)
        self.connections = 0
        # Rooms per creating address, live or in grace (a room counts until it closes),
        # and the creations' token buckets: no one address can fill the server.
        self.rooms_by_address: Dict[str, int] = {}
        self.room_buckets = Buckets(
            self.clock.now_ms, self.settings.room_rate_per_s, self.settings.room_burst
        )
        self.draining = False  # shutting down: no new rooms (drain.py)
        # Told of every room opened (True) and closed (False): the Redis room directory.
        self.on_room: Optional[Callable[[Room, bool], None]] = None

    def parse(self, frame: Any) -> P.ClientMessage:
        """One frame validated against this server's game (``ProtocolError`` if bad)."""
        return self.schema.parse(frame)

    def rules(self) -> Dict[str, Any]:
        """The game's default rules and the rules every room of this server plays
        (``GET /api/rules``; the client takes its numbers from here, never its own)."""
        game = self.settings.game
        return {
            "game": game.type.name,
            "defaults": load_game(game.type.name).rules.to_dict(),
            "rules": game.rules.to_dict(),
        }

    def welcome(self) -> Dict[str, Any]:
        from .. import __version__

        return {
            "type": "welcome",
            "v": P.VERSION,
            "server": f"tictacblitz/{__version__}",
            "modes": list(P.MODES),
            "bots": list(self.adapter.bot_levels),
            "game": self.adapter.describe(),
            "rules": self.settings.game.rules.to_dict(),
            "limits": self.settings.limits(),
        }

    # -- thinking off the loop ----------------------------------------------------------------

    def run_job(
        self, job: Callable[[], Any], done: Callable[[Any, Optional[BaseException]], None]
    ) -> bool:
        """Run ``job`` in the executor and ``done(result, error)`` back on the loop; with
        no executor, both at once (returns True then). See :func:`.jobs.run_job`."""
        return run_job(self.executor, self.post, job, done)

    # -- connections --------------------------------------------------------------------------

    def connected(self, conn: Peer[Room]) -> None:
        conn.member = None
        conn.room = None
        self.connections += 1
        conn.send(self.welcome())

    def disconnected(self, conn: Peer[Room]) -> None:
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
        room.tick()  # the timer again, without the bots if no person is left connected
        member.grace_until = self.clock.now_ms() + self.settings.grace_ms
        member.grace_handle = self.clock.call_at(
            member.grace_until, lambda: self._grace_over(member)
        )
        room.broadcast(room.presence())

    def _grace_over(self, member: Member[Room]) -> None:
        member.grace_handle = None
        if member.gone or member.conn is not None or member.room.closed:
            return
        member.room.member_gone(member, "grace")

    def forget(self, member: Member[Room]) -> None:
        """A member's token stops working (it left, or its grace ran out)."""
        self.tokens.pop(member.token, None)

    def maybe_expire(self, room: Room) -> None:
        if not room.closed and room.is_empty():
            self.close_room(room)

    def close_room(
        self, room: Room, code: str = "room_closed", message: str = "the room was closed"
    ) -> None:
        """Close ``room``; its connections get the error ``code`` and that close code."""
        if room.closed:
            return
        room.close()
        self.rooms.pop(room.code, None)
        if self.on_room is not None:
            self.on_room(room, False)
        owner = room.owner_address
        if owner is not None:
            left = self.rooms_by_address.get(owner, 0) - 1
            if left > 0:
                self.rooms_by_address[owner] = left
            else:
                self.rooms_by_address.pop(owner, None)
        for member in room.members:
            self.tokens.pop(member.token, None)
        for conn in room.connections():
            conn.send(P.error_message(code, message))
            conn.room = conn.member = None
            conn.close(P.CLOSE_CODES[code])

    def _attach(self, conn: Peer[Room], room: Room, member: Optional[Member[Room]]) -> None:
        conn.room = room
        conn.member = member
        if member is None:
            room.spectators.append(conn)
        else:
            member.conn = conn

    def _joined(self, conn: Peer[Room], room: Room, ref: Any) -> None:
        conn.send(room.joined(conn, ref))

    def _new_room(self, mode: str, owner_address: str) -> Room:
        code = new_code()
        while code in self.rooms:
            code = new_code()
        room = Room(self, code, mode)
        room.owner_address = owner_address
        self.rooms_by_address[owner_address] = self.rooms_by_address.get(owner_address, 0) + 1
        self.rooms[code] = room
        if self.on_room is not None:
            self.on_room(room, True)
        return room

    def _may_create(self, address: str) -> None:
        """The room quotas: the server's, then the address's rooms, then its rate."""
        settings = self.settings
        if self.draining:
            raise P.ProtocolError("server_closing", "the server is shutting down: no new rooms")
        if len(self.rooms) >= settings.max_rooms:
            raise P.ProtocolError("server_full", "the server has no room for another room")
        self.may_create_from(address)

    def may_create_from(self, address: str) -> None:
        """The address's quotas on this process: its live rooms, then its rate (a token
        of its bucket is taken). :raises ProtocolError: ``too_many_rooms``."""
        settings = self.settings
        if self.rooms_by_address.get(address, 0) >= settings.max_rooms_per_ip:
            raise P.ProtocolError(
                "too_many_rooms",
                f"at most {settings.max_rooms_per_ip} rooms from one "
                "address (a room left counts until its grace runs out)",
            )
        if not self.room_buckets.take(address):
            wait = self.room_buckets.retry_after_s(address)
            raise P.ProtocolError(
                "too_many_rooms",
                f"too many new rooms from this address: try again in {max(1, round(wait))} s",
            )

    def _new_member(self, room: Room, seats: Tuple[int, ...], name: str) -> Member[Room]:
        member = Member(room, seats, name)
        room.members.append(member)
        self.tokens[member.token] = member
        for seat in seats:
            letter = room.names[seat]
            room.seats[seat].kind = "human"
            room.seats[seat].member = member
            if len(seats) == 1:
                room.seats[seat].name = name or letter
            else:
                room.seats[seat].name = f"{name} {letter}" if name else letter
        return member

    # -- messages -----------------------------------------------------------------------------

    def handle(self, conn: Peer[Room], msg: P.ClientMessage) -> None:
        """One validated client message (:meth:`parse`)."""
        try:
            getattr(self, f"_on_{msg.type}")(conn, msg)
        except P.ProtocolError as exc:
            conn.send(P.error_message(exc.code, exc.message, msg.ref))

    def _not_in_room(self, conn: Peer[Room]) -> None:
        if conn.room is not None:
            raise P.ProtocolError(
                "already_in_room", f"already in room {conn.room.code}: leave it first"
            )

    def _room_by_code(self, code: str) -> Room:
        room = self.rooms.get(code) if P.is_code(code) else None
        if room is None or room.closed:
            raise P.ProtocolError("room_not_found", "no room with that code")
        return room

    def _seat(self, name: str) -> int:
        return self.adapter.seats.index(name)

    def _on_create(self, conn: Peer[Room], msg: P.ClientMessage) -> None:
        self._not_in_room(conn)
        address = getattr(conn, "address", "")
        self._may_create(address)
        mode = msg.get("mode")
        seat = self._seat(msg.get("symbol", self.adapter.seats[0]))
        room = self._new_room(mode, address)
        every = tuple(range(len(room.seats)))
        member = self._new_member(room, every if mode == "local" else (seat,), msg.get("name", ""))
        if mode == "bot":  # the person on their seat, a bot on every other one
            for other in every:
                if other != seat:
                    room.add_bot(other, msg.get("bot"))
        self._attach(conn, room, member)
        self._joined(conn, room, msg.ref)
        if mode == "online":
            conn.send(room.state(conn))
        else:
            room.begin_countdown()

    def _on_join(self, conn: Peer[Room], msg: P.ClientMessage) -> None:
        self._not_in_room(conn)
        room = self._room_by_code(msg.get("code"))
        free = room.free_seats()
        if room.mode != "online" or not free or room.phase != WAITING:
            raise P.ProtocolError("room_full", room.why_full())
        member = self._new_member(room, (free[0],), msg.get("name", ""))  # seats in order
        self._attach(conn, room, member)
        self._joined(conn, room, msg.ref)
        room.broadcast(room.presence())
        if room.free_seats():  # more seats to fill (3 or 4 players): wait on
            conn.send(room.state(conn))
        else:
            room.begin_countdown()

    def _on_start(self, conn: Peer[Room], msg: P.ClientMessage) -> None:
        """The host starts a room still filling: a bot of level ``bot`` takes every free
        seat (issue 25, item 5)."""
        member = self._player(conn)
        room = member.room
        if member is not room.host:
            raise P.ProtocolError("not_host", "only the player who created the room may start it")
        if room.phase != WAITING:
            raise P.ProtocolError("match_started", "the match has started already")
        for seat in room.free_seats():
            room.add_bot(seat, msg.get("bot"))
        room.broadcast(room.presence())
        room.begin_countdown()

    def _on_watch(self, conn: Peer[Room], msg: P.ClientMessage) -> None:
        self._not_in_room(conn)
        room = self._room_by_code(msg.get("code"))
        if len(room.spectators) >= self.settings.max_spectators:
            raise P.ProtocolError(
                "spectators_full",
                f"room {room.code} has {self.settings.max_spectators} spectators already",
            )
        self._attach(conn, room, None)
        self._joined(conn, room, msg.ref)
        conn.send(room.state(conn))
        room.broadcast(room.presence())

    def _on_resume(self, conn: Peer[Room], msg: P.ClientMessage) -> None:
        self._not_in_room(conn)
        member = self.tokens.get(msg.get("token"))
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

    def _player(self, conn: Peer[Room]) -> Member[Room]:
        if conn.room is None:
            raise P.ProtocolError("not_in_room", "not in a room: create, join or watch one first")
        if conn.member is None:
            raise P.ProtocolError("not_a_player", "spectators cannot act or vote")
        return conn.member

    def _on_act(self, conn: Peer[Room], msg: P.ClientMessage) -> None:
        member = self._player(conn)
        if "seat" in msg.fields:
            seat = self._seat(msg.get("seat"))
            if seat not in member.seats:
                raise P.ProtocolError(
                    "not_your_seat", f"this connection does not hold seat {msg.get('seat')}"
                )
        elif len(member.seats) == 1:
            seat = member.seats[0]
        else:
            raise P.ProtocolError(
                "seat_required", "this connection holds several seats: say which acts"
            )
        game_fields = {k: v for k, v in msg.fields.items() if k != "seat"}
        member.room.intent(seat, game_fields, msg.ref, conn)

    def _on_rematch(self, conn: Peer[Room], msg: P.ClientMessage) -> None:
        member = self._player(conn)
        if member.room.phase != OVER:
            raise P.ProtocolError("match_not_over", "the match is still running")
        if self.draining:
            raise P.ProtocolError("server_closing", "the server is shutting down: no rematch")
        member.room.vote(member, bool(msg.get("agree")))

    def _on_sync(self, conn: Peer[Room], msg: P.ClientMessage) -> None:
        if conn.room is None:
            raise P.ProtocolError("not_in_room", "not in a room")
        conn.send(conn.room.state(conn, msg.ref))

    def _on_ping(self, conn: Peer[Room], msg: P.ClientMessage) -> None:
        out: Dict[str, Any] = {"type": "pong", "server_ms": self.clock.now_ms()}
        room = conn.room
        if room is not None:
            room.tick()
            out.update({"phase": room.phase, **room.session.position()})
        if msg.ref is not None:
            out["ref"] = msg.ref
        conn.send(out)

    def _on_leave(self, conn: Peer[Room], msg: P.ClientMessage) -> None:
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
