"""Rift & Grid on the server: the simultaneous-turn adapter (``SIMULTANEOUS``, rules G1-G17).

- **Intents**: ``act`` is ``{"cell": 0-80, "ability": "none"|"shield"|"swap"|"reveal"}``
  (G3; ``ability`` defaults to ``none``), held as a code of the game's one action
  encoding (``81 * ability + cell``). It *locks the seat's move in*; a locked seat may
  lock again, changing its mind, until the other seat has locked too; then the turn
  resolves (G6). The engine checks every move: a rejection (G5, or ``game_over``) goes
  back to its sender only, with its reason, and changes nothing.
- **Privacy**: a programmed move is never broadcast: everybody hears *that* a seat
  locked in (a ``locked`` event, and ``locked`` in the picture), and both moves only in
  the resolution's ``turn`` event. A seat's hand of objectives (G12) and its move of this
  turn reach only a connection holding that seat (``private``, merged into its
  ``state``); everybody else sees the objectives that are accomplished or revealed.
- **Events**: a lock is one ``events`` message; so is a resolved turn: the last lock,
  the turn's report (moves, final targets, swap, collision, cells, grey, sectors,
  points by cause, reveals, the next sector) and the end, each with the whole public
  picture (:func:`.wire.picture`).
- **Bots** (``easy``, ``medium``, ``hard``: presets of ``games/rift/bots.py``): at each
  turn a bot seat locks its move in ``bot_delay_ms`` after the turn began, decided off
  the event loop on a clone (``run_job(lambda: bot.choose(state.clone(), seat))``); the
  bots read only what their seat may see (docs/rift.md, "Bots").
- **Replays**: the state records what the replay needs (``record=True``: the last
  accepted move of each seat in a turn, and the rejected ones); a match's replay is the
  game's replay file (docs/rift.md, "Replay files") with ``expect``;
  :func:`.wire.replay_frames` plays one back for the viewer.
- **Bounds** (issue 26, hole 3): a seat's moves in one turn are capped
  (:data:`MOVES_PER_TURN`; past it a move is refused ``move_limit``, unrecorded, but a
  seat that has not locked in yet may still lock a legal move), so a match's log is at
  most ``81 * 2 * (MOVES_PER_TURN + 1)`` entries. With ``Settings.rift_turn_s`` (``serve
  --rift-turn-s``) a turn has a clock: a seat that has not locked in when it runs out
  is locked in with its first legal target (the lowest cell id, no ability), as if it
  had played it; off (None) by default.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Tuple

import numpy as np

from ....games.protocol import ReplayError, TimeModel
from ....games.rift.bots import GUI_LEVELS, PRESETS
from ....games.rift.encoding import encode
from ....games.rift.game import RiftState
from ....games.rift.types import CELLS, OBJECTIVE_IDS, Ability, Player
from ... import protocol as P
from ...adapter import GameAdapter, MatchSession, ProtocolBotSeat, SessionHost
from .wire import ABILITIES, TURN_MS, picture, private, public_events, replay_frames

__all__ = [
    "RiftAdapter",
    "RiftSession",
    "BotSeat",
    "BOT_LEVELS",
    "SEATS",
    "VIEW",
    "cell_field",
]

SEATS: Tuple[str, str] = (Player.X.letter, Player.O.letter)
BOT_LEVELS: Tuple[str, ...] = GUI_LEVELS
"""The bot levels a player may pick: presets of ``games/rift/bots.py``, weakest first."""
for _level in BOT_LEVELS:  # one source: a level is a preset, or the server fails to start
    if _level not in PRESETS:
        raise RuntimeError(f"bot level {_level!r} is not a preset of tictacblitz.games.rift.bots")
VIEW = "/static/js/games/rift/view.js"
BOT_DELAY_MS = 600  # a bot locks in this long after its turn began
MOVES_PER_TURN = 32
"""The moves (locks, changes of mind, rejected moves) a seat may send in one turn; past
it they are refused ``move_limit`` and not recorded (docs/server.md, "Limits")."""


def cell_field(value: Any) -> int:
    """The ``cell`` of ``act``: a cell id 0-80 (G1)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < CELLS:
        raise ValueError(f"a cell is an integer 0-{CELLS - 1}")
    return value


BotSeat = ProtocolBotSeat
"""A bot seat's driver: a preset of ``games/rift/bots.py`` (the server's shared one)."""


class RiftSession(MatchSession):
    """One game of Rift & Grid in a room, in simultaneous turns (see the module docstring)."""

    state: RiftState

    def __init__(self, adapter: "RiftAdapter", host: SessionHost, seed: int) -> None:
        self.host = host
        state = adapter.game.new_state(seed, record=True)
        assert isinstance(state, RiftState), state  # the registry's rift game
        self.state = state
        self.bot_delay_ms = adapter.bot_delay_ms
        self.moves: List[Optional[Dict[str, Any]]] = [None, None]  # this turn's locks: private
        self.turns: List[Dict[str, Any]] = []  # resolved turns' reports
        self.bot_due: List[Optional[float]] = [None, None]
        self.sent = [0, 0]  # moves each seat sent this turn (MOVES_PER_TURN)
        self.turn_ms = None if adapter.turn_s is None else adapter.turn_s * 1000.0
        self.turn_due: Optional[float] = None  # when this turn's clock runs out
        self.closed = False

    def _t(self) -> int:
        return (self.state.turn - 1) * TURN_MS

    def start(self) -> None:
        self._clock_turn()
        self.host.emit({"round": 1, "t": 0, "events": [{"kind": "started"}], **picture(self.state)})

    # -- moves -----------------------------------------------------------------------------
    def intent(self, seat: int, fields: Mapping[str, Any], ref: Any, conn: Any) -> None:
        cell, ability = fields["cell"], fields.get("ability", "none")
        if not self.host.live or self.state.is_over():
            reason: Optional[str] = "game_over"
        else:
            reason = self._counted(seat, encode(cell, Ability.parse(ability)))
        if reason is not None and conn is not None:
            out = {
                "type": "rejected",
                "seat": SEATS[seat],
                "cell": cell,
                "ability": ability,
                "turn": self.state.turn,
                "reason": reason,
            }
            if ref is not None:
                out["ref"] = ref
            conn.send(out)

    def _counted(self, seat: int, code: int) -> Optional[str]:
        """A player's move, counted against :data:`MOVES_PER_TURN`: past it only a first
        legal lock of the turn still goes through (the seat can always play)."""
        if self.sent[seat] >= MOVES_PER_TURN and (
            self.state.is_locked(seat) or not self.state.legal_mask(seat)[code]
        ):
            return "move_limit"
        self.sent[seat] += 1
        return self.lock(seat, code)

    def _clock_turn(self) -> None:
        """A turn began: its clock (if any) starts now."""
        self.turn_due = None if self.turn_ms is None else self.host.now_ms() + self.turn_ms

    def _time_out(self) -> None:
        """The turn's clock ran out: every seat not locked in locks its first legal
        target, no ability (docs/server.md, "Rift & Grid's turn clock")."""
        turn = self.state.turn
        for seat in (0, 1):
            if self.state.turn != turn or self.state.is_over() or self.state.is_locked(seat):
                continue
            legal = np.flatnonzero(self.state.legal_mask(seat)[:CELLS])
            if len(legal):
                self.lock(seat, int(legal[0]))
        if self.state.turn == turn:  # nothing left to lock: never a busy loop
            self.turn_due = None

    def lock(self, seat: int, code: int) -> Optional[str]:
        """Lock ``seat``'s move in (G3); resolve the turn once both are locked (G6).
        Returns the G5 reason of a rejected move (nothing changes, nothing is sent)."""
        reason = self.state.apply(seat, code)
        events = self.state.drain_events()
        if reason is not None:
            return reason
        resolved = [e for e in events if e["kind"] == "turn"]
        if not resolved:
            self.moves[seat] = {"cell": code % CELLS, "ability": Ability(code // CELLS).key}
        else:
            self.moves = [None, None]
            self.turns.extend({k: v for k, v in e.items() if k != "kind"} for e in resolved)
            self.bot_due = [None, None]
            self.sent = [0, 0]
            self._clock_turn()
        self.host.emit(
            {"round": 1, "t": self._t(), "events": public_events(events), **picture(self.state)}
        )
        if self.state.is_over():
            self.bot_due = [None, None]
            self.turn_due = None
            self.host.match_ended(self.state.engine.result or "draw")
        return None

    # -- bots ------------------------------------------------------------------------------
    def tick(self) -> None:
        due = self.turn_due
        if due is not None and self.host.live and self.host.now_ms() >= due:
            self._time_out()
        for seat in (0, 1):
            if not self.host.live or self.state.is_over():
                return
            bot = self.host.bots[seat]
            if bot is None or bot.busy or self.state.is_locked(seat):
                continue
            due = self.bot_due[seat]
            if due is None:
                self.bot_due[seat] = self.host.now_ms() + self.bot_delay_ms
            elif self.host.now_ms() >= due:
                self._ask(seat, bot)

    def _ask(self, seat: int, bot: BotSeat) -> None:
        """Let the bot decide on a clone, off the loop; its move comes back as a lock."""
        bot.busy = True
        turn = self.state.turn
        snapshot = self.state.clone()
        self.bot_due[seat] = None
        waiting = [True]

        def done(code: Any, error: Optional[BaseException]) -> None:
            bot.busy = False
            if self.closed:
                return
            stale = not self.host.live or self.state.turn != turn or self.state.is_over()
            if not stale and (error is not None or code is None or self.lock(seat, int(code))):
                self.bot_due[seat] = self.host.now_ms() + self.bot_delay_ms  # ask again later
            if not waiting[0]:
                self.host.tick()  # the timer again (a stale answer: this turn's bot is due)

        self.host.run_job(lambda: bot.bot.choose(snapshot, seat), done)
        waiting[0] = False

    def wake_at(self) -> Optional[float]:
        """The turn's clock and each present bot's due time. An absent bot's due time
        (nobody connected: ``host.bots`` is None) is not a wake-up: ``tick`` would skip
        that bot and the timer would fire again at once, a busy loop for as long as the
        room waits. A ``resume`` ticks the room, and the overdue bot is asked then."""
        if not self.host.live:
            return None
        bots = self.host.bots
        due = [t for seat, t in enumerate(self.bot_due) if t is not None and bots[seat] is not None]
        if self.turn_due is not None:
            due.append(self.turn_due)
        return min(due) if due else None

    def next_round(self) -> None:
        raise RuntimeError("a game of Rift & Grid is one round")

    # -- what clients see ------------------------------------------------------------------
    def snapshot(self) -> Dict[str, Any]:
        return {"round": 1, "t": self._t(), **picture(self.state), "turns": list(self.turns)}

    def private(self, seats: Tuple[int, ...]) -> Dict[str, Any]:
        return {"private": {SEATS[s]: private(self.state, s, self.moves[s]) for s in seats}}

    def seat_status(self, seat: int) -> Dict[str, Any]:
        return {"locked": not self.state.is_over() and self.state.is_locked(seat)}

    def position(self) -> Dict[str, Any]:
        return {"round": 1, "t": self._t()}

    def result_fields(self) -> Dict[str, Any]:
        summary = self.state.summary()
        return {"score": summary["score"], "turns": len(self.turns)}

    def replay_file(self, name: str) -> Dict[str, Any]:
        """The game as a replay file (docs/rift.md, "Replay files"), with ``expect``."""
        out = self.state.to_replay()
        out["name"] = name
        out["expect"] = {"result": self.state.engine.result, "score": self.state.summary()["score"]}
        return out

    def close(self) -> None:
        self.closed = True
        self.bot_due = [None, None]
        self.turn_due = None


class RiftAdapter(GameAdapter):
    """Rift & Grid's facts on the wire (see :class:`~.GameAdapter`)."""

    time_model = TimeModel.SIMULTANEOUS
    seats = SEATS
    bot_levels = BOT_LEVELS
    act_fields = {"cell": (cell_field, True), "ability": (P.choice(ABILITIES), False)}
    view = VIEW
    bot_delay_ms = BOT_DELAY_MS
    has_turn_clock = True

    @property
    def turn_s(self) -> Optional[float]:
        """The turn clock in seconds (``serve --rift-turn-s``), or None: no clock."""
        return self.settings.rift_turn_s

    def describe(self) -> Dict[str, Any]:
        # The abilities (G3) and the objective catalogue's ids (G17): the client's only
        # copy of them; their numbers are in the rules.
        return {
            **super().describe(),
            "abilities": list(ABILITIES),
            "objectives": list(OBJECTIVE_IDS),
            "cells": CELLS,
            "turn_ms": TURN_MS,
            "turn_s": self.turn_s,  # the turn clock, or None
        }

    def make_bot(self, level: str, seed: int) -> BotSeat:
        return BotSeat(self.game, level, seed)

    def new_session(self, host: SessionHost, seed: int) -> RiftSession:
        return RiftSession(self, host, seed)

    def replay_frames(self, data: Any) -> Dict[str, Any]:
        try:
            return replay_frames(self.game, data)
        except ReplayError:
            raise
        except (TypeError, ValueError, KeyError) as exc:
            raise ReplayError(str(exc)) from None
