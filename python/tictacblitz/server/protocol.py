"""The server's message protocol, version 1: one source of truth (docs/protocol.md).

Client messages are validated here, strictly, before anything else sees them: a
:class:`MessageSchema` (the generic messages plus what the game's server adapter adds:
its seat names, bot levels and the fields of ``act``) turns one text frame into a
:class:`ClientMessage` or raises :class:`ProtocolError` with an error code of
:data:`ERROR_CODES`. The tables :data:`CLIENT_MESSAGES`, :data:`SERVER_MESSAGES` and
:data:`ERROR_CODES` are what the documentation lists and what the browser client's
``static/js/protocol.js`` names (tests check both). Nothing here knows about rooms,
games or the web framework.
"""

from __future__ import annotations

import json
import math
import re
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Deque, Dict, Mapping, Sequence, Tuple, Union

__all__ = [
    "VERSION",
    "MAX_MESSAGE_BYTES",
    "RATE_PER_S",
    "BURST",
    "FLOOD_CLOSE_DROPS",
    "FLOOD_WINDOW_MS",
    "MAX_NAME",
    "MODES",
    "CLIENT_MESSAGES",
    "SERVER_MESSAGES",
    "ERROR_CODES",
    "CLOSE_CODES",
    "ProtocolError",
    "ClientMessage",
    "MessageSchema",
    "Checker",
    "Field",
    "choice",
    "grid_cell",
    "normalize_code",
    "clean_name",
    "RateLimiter",
    "encode",
]

VERSION = 1
MAX_MESSAGE_BYTES = 4096  # a bigger frame gets `too_large`
RATE_PER_S = 50.0  # token bucket refill (messages per second)
BURST = 50  # token bucket size
FLOOD_CLOSE_DROPS = 100  # dropped messages within FLOOD_WINDOW_MS -> close 1008
FLOOD_WINDOW_MS = 10_000
MAX_NAME = 24
MAX_REF = 64
MODES = ("bot", "local", "online")
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base 32
CODE_LENGTH = 10  # 50 bits
_CODE_RE = re.compile(f"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}$")

CLOSE_CODES: Dict[str, int] = {
    "normal": 1000,
    "flood": 1008,
    "too_big": 1009,
    "too_slow": 1013,
    "seat_taken_over": 4001,
    "room_closed": 4002,
    "server_closing": 4003,
}

ERROR_CODES: Dict[str, str] = {
    "bad_frame": "a binary frame",
    "too_large": f"a frame over {MAX_MESSAGE_BYTES} bytes",
    "bad_json": "not JSON, or not a JSON object",
    "bad_version": f"`v` present and not {VERSION}",
    "unknown_type": "`type` missing or not a message of the protocol",
    "bad_field": "a field missing, of the wrong type or value, or unknown",
    "rate_limited": "over the message rate: messages are being dropped",
    "not_in_room": "act, rematch, leave outside a room",
    "already_in_room": "create, join, watch, resume while in a room",
    "room_not_found": "no room with that code (or it expired)",
    "room_full": "join on a live room with no free seat (taken, or held for a player)",
    "bad_token": "resume with a token that holds no seat",
    "not_a_player": "a spectator tried to act or vote",
    "not_your_seat": "act for a seat this connection does not hold",
    "seat_required": "act without seat on a connection holding several seats",
    "match_not_over": "rematch while the match runs",
    "not_host": "start by a player who did not create the room",
    "match_started": "start on a room whose match has begun",
    "seat_taken_over": "another connection resumed this seat",
    "room_closed": "the room expired or was closed",
    "server_full": "the server's room limit is reached",
    "too_many_rooms": "create over the rooms or the creation rate one address may have",
    "spectators_full": "watch on a room that has its most spectators",
    "too_many_connections": "more connections from one address than the server allows",
    "room_lost": "the process that hosted the room stopped: its match is gone",
    "server_closing": "the server is shutting down: no new rooms, or it ended this match",
}

SERVER_MESSAGES: Dict[str, str] = {
    "welcome": "first message: version, limits, bot levels, rules",
    "joined": "answer to create/join/watch/resume: room, link, role, seats, token",
    "state": "a full snapshot with timers",
    "events": "engine events as they happen, numbered by seq",
    "rejected": "an intent rejected by the rules (R7 reason)",
    "round_break": "the pause before the next round (or the countdown)",
    "match_end": "the match result and its replay id",
    "presence": "players' connections and spectator count",
    "rematch": "rematch votes",
    "pong": "answer to ping with the server clock",
    "error": "a message that changed nothing, with its code",
    "redirect": "the room is on another process: send the same message again at url",
}

CLIENT_MESSAGES: Dict[str, str] = {
    "create": "a new room: mode bot, local or online",
    "join": "the first free seat of an online room, by code",
    "start": "the host starts a room still filling: bots take the free seats",
    "watch": "spectate a room, by code",
    "resume": "take a seat back with its token (and the room's code, to be sent on)",
    "act": "an intent of the game (its fields are the game adapter's)",
    "rematch": "vote for a rematch once the match is over",
    "sync": "ask for a fresh state",
    "ping": "measure the delay and the server clock",
    "leave": "leave the room",
}


class ProtocolError(Exception):
    """A client message that is refused: ``code`` is one of :data:`ERROR_CODES`."""

    def __init__(self, code: str, message: str, ref: Any = None) -> None:
        assert code in ERROR_CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref

    def to_dict(self) -> Dict[str, Any]:
        return error_message(self.code, self.message, self.ref)


def error_message(code: str, message: str, ref: Any = None) -> Dict[str, Any]:
    out: Dict[str, Any] = {"type": "error", "code": code, "message": message}
    if ref is not None:
        out["ref"] = ref
    return out


# -- field checkers: each returns the cleaned value or raises ValueError ------------------

Checker = Callable[[Any], Any]
Field = Tuple[Checker, bool]
"""A message field: its checker and whether it is required."""


def _string(max_len: int) -> Checker:
    def check(value: Any) -> str:
        if not isinstance(value, str):
            raise ValueError("must be a string")
        if len(value) > max_len:
            raise ValueError(f"must be at most {max_len} characters")
        return value

    return check


def choice(options: Tuple[str, ...]) -> Checker:
    def check(value: Any) -> str:
        if not isinstance(value, str) or value not in options:
            raise ValueError(f"must be one of {', '.join(options)}")
        return value

    return check


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("must be true or false")
    return value


def grid_cell(value: Any) -> Tuple[int, int]:
    """A ``[row, col]`` pair of small ints (the board's size is the game adapter's to
    check: it knows the rules)."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
    ):
        raise ValueError("a cell is a [row, col] pair of ints")
    if not all(0 <= v < 64 for v in value):
        raise ValueError("a cell is a [row, col] pair of ints on the board")
    return (value[0], value[1])


def _code(value: Any) -> str:
    if not isinstance(value, str) or len(value) > 32:
        raise ValueError("a room code is a string of at most 32 characters")
    return normalize_code(value)


def _name(value: Any) -> str:
    if not isinstance(value, str) or len(value) > 4 * MAX_NAME:
        raise ValueError(f"a name is a string of at most {MAX_NAME} characters")
    return clean_name(value)


_COMMON = {"type", "v", "ref"}


@dataclass(frozen=True)
class ClientMessage:
    """A validated client message: its ``type``, checked ``fields`` and ``ref``."""

    type: str
    fields: Mapping[str, Any]
    ref: Any = None

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)


def _ref(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError("must be a string or an integer")
    if isinstance(value, int) and abs(value) < 2**53:
        return value
    if isinstance(value, str) and len(value) <= MAX_REF:
        return value
    raise ValueError(f"must be a string of at most {MAX_REF} characters or an integer")


def _no_constants(value: str) -> Any:
    raise ValueError(f"{value} is not JSON")


class MessageSchema:
    """Every client message's fields for one game: the generic messages of
    :data:`CLIENT_MESSAGES`, with the game adapter's ``seats`` (the names of its
    seats on the wire, in order), ``bot_levels`` and ``act_fields`` (the game's intent).

    :raises ValueError: when the adapter's act fields clash with the generic ``seat``.
    """

    def __init__(
        self, seats: Sequence[str], bot_levels: Sequence[str], act_fields: Mapping[str, Field]
    ) -> None:
        if "seat" in act_fields:
            raise ValueError("act.seat is the protocol's own field: an adapter may not redefine it")
        self.seats = tuple(seats)
        self.bot_levels = tuple(bot_levels)
        self.fields: Dict[str, Dict[str, Field]] = {
            "create": {
                "mode": (choice(MODES), True),
                "bot": (choice(self.bot_levels), False),
                "symbol": (choice(self.seats), False),
                "name": (_name, False),
            },
            "join": {"code": (_code, True), "name": (_name, False)},
            "start": {"bot": (choice(self.bot_levels), True)},
            "watch": {"code": (_code, True)},
            "resume": {"token": (_string(64), True), "code": (_code, False)},
            "act": {**act_fields, "seat": (choice(self.seats), False)},
            "rematch": {"agree": (_bool, True)},
            "sync": {},
            "ping": {},
            "leave": {},
        }
        assert set(self.fields) == set(CLIENT_MESSAGES)

    def parse(self, frame: Union[str, bytes, None]) -> ClientMessage:
        """Validate one WebSocket frame (docs/protocol.md, "Frames").

        :raises ProtocolError: with the code for what is wrong; ``ref`` is set when the
            frame was an object with a valid ref, so the error can carry it.
        """
        if not isinstance(frame, str):
            raise ProtocolError("bad_frame", "frames are JSON text, not binary")
        if (
            len(frame) > MAX_MESSAGE_BYTES
            or len(frame.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES
        ):
            raise ProtocolError("too_large", f"a frame is at most {MAX_MESSAGE_BYTES} bytes")
        try:
            data = json.loads(frame, parse_constant=_no_constants)
        except (ValueError, RecursionError) as exc:
            raise ProtocolError("bad_json", f"not valid JSON: {exc}") from None
        if not isinstance(data, dict):
            raise ProtocolError("bad_json", "a message is a JSON object")
        try:
            ref = _ref(data.get("ref"))
        except ValueError as exc:
            raise ProtocolError("bad_field", f"ref: {exc}") from None
        if "v" in data and (isinstance(data["v"], bool) or data["v"] != VERSION):
            raise ProtocolError(
                "bad_version", f"this server speaks protocol version {VERSION}", ref
            )
        kind = data.get("type")
        if not isinstance(kind, str) or kind not in self.fields:
            raise ProtocolError(
                "unknown_type",
                f"unknown message type {str(kind)[:40]!r}; expected one of "
                f"{', '.join(self.fields)}",
                ref,
            )
        schema = self.fields[kind]
        fields: Dict[str, Any] = {}
        for name in data:
            if name not in schema and name not in _COMMON:
                raise ProtocolError("bad_field", f"{kind}: unknown field {name[:40]!r}", ref)
        for name, (check, required) in schema.items():
            if name not in data:
                if required:
                    raise ProtocolError("bad_field", f"{kind}.{name} is required", ref)
                continue
            try:
                fields[name] = check(data[name])
            except ValueError as exc:
                raise ProtocolError("bad_field", f"{kind}.{name}: {exc}", ref) from None
        if kind == "create" and fields["mode"] == "bot" and "bot" not in fields:
            raise ProtocolError(
                "bad_field",
                f"create.bot is required for mode bot: one of {', '.join(self.bot_levels)}",
                ref,
            )
        return ClientMessage(kind, fields, ref)


def normalize_code(text: str) -> str:
    """A room code as typed → its canonical form (Crockford: case, I/L→1, O→0, no '-')."""
    out = text.upper().replace("-", "").replace(" ", "")
    return out.translate(str.maketrans("ILO", "110"))


def is_code(text: str) -> bool:
    return bool(_CODE_RE.match(text))


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]")


def clean_name(text: str) -> str:
    """A display name without control or direction characters, trimmed to MAX_NAME."""
    return _CONTROL.sub("", text).strip()[:MAX_NAME]


def encode(message: Mapping[str, Any]) -> str:
    """One server message as compact JSON text."""
    return json.dumps(message, separators=(",", ":"), allow_nan=False)


class RateLimiter:
    """The flood rule: a token bucket (``rate`` per second, ``burst`` tokens); a message
    over it is dropped; ``close_after`` drops within ``window_ms`` close the connection.

    ``now_ms`` is a clock in ms (injectable for tests).
    """

    def __init__(
        self,
        now_ms: Callable[[], float],
        *,
        rate: float = RATE_PER_S,
        burst: int = BURST,
        close_after: int = FLOOD_CLOSE_DROPS,
        window_ms: float = FLOOD_WINDOW_MS,
    ) -> None:
        self._now = now_ms
        self.rate = rate
        self.burst = burst
        self.close_after = close_after
        self.window_ms = window_ms
        self._tokens = float(burst)
        self._last = now_ms()
        self._drops: Deque[float] = deque()
        self._last_notice = -math.inf

    def admit(self) -> Tuple[bool, bool, bool]:
        """Count one message: ``(admitted, notify, close)``. ``notify`` asks for one
        ``rate_limited`` error (at most one a second); ``close`` for the 1008 close."""
        now = self._now()
        self._tokens = min(
            float(self.burst), self._tokens + (now - self._last) * self.rate / 1000.0
        )
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True, False, False
        self._drops.append(now)
        while self._drops and self._drops[0] <= now - self.window_ms:
            self._drops.popleft()
        notify = now - self._last_notice >= 1000.0
        if notify:
            self._last_notice = now
        return False, notify, len(self._drops) >= self.close_after
