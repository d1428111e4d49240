"""Tic Tac Doh on the server: the alternating-turn adapter (``ALTERNATING``, rules D1-D10).

- **Seats** are the rules' ``players`` (D10: 2 to 4, ``first`` .. ``fourth``): the
  generic rooms seat that many; turns go round them; ``out`` (D9) lists who is out.

- **The board on the wire** is a 5x5 grid of *display* squares, ``[row, col]`` in 0..4,
  whose centre ``[2, 2]`` is the first piece: every square a game can use is within two
  of it (D2, the box is 3 wide), and a piece never moves on screen, though the engine's
  position is translation-free. :class:`DohTable` keeps that frame over a
  :class:`~tictacblitz.games.doh.game.DohState` and maps a display square to the game's
  one action encoding (``games/doh/encoding.py``) and back.
- **Intents**: ``act`` is ``{"piece": "S"|"M"|"L", "cell": [row, col]}``. The seat to move
  plays it (D1); another seat, or a move the rules refuse (D6), is answered to its
  sender only (``not_your_turn``, or the D6 reason) and changes nothing.
- **Events**: every accepted move is one ``events`` message: the move, the end (``by``
  ``line`` D7, ``stash_empty`` D8, ``no_move`` D9) if it ended the game, and the whole
  small picture (:meth:`DohTable.view`: squares with what each counts as (D5), the
  stash, whose turn, the legal squares of each size for the seat to move, the box as it
  becomes known, the winning lines). A snapshot (``state``) holds the same picture.
- **Bots** (``easy``, ``medium``, ``hard``, ``perfect``: bots of ``games/doh/bots.py``):
  when a bot seat is to move, it is asked ``bot_delay_ms`` later (so a person sees their
  own move first) through ``run_job(lambda: bot.choose(state.clone(), seat))``, off the
  event loop; its move comes back as an intent of that seat.
- **Replays**: the state is recorded (``new_state(record=True)``); a match's replay is the
  game's replay file (docs/doh.md, "Replay files") with ``expect``;
  :func:`replay_frames` plays one back as frames shaped like ``events`` messages.
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Tuple

from ....games.doh.bots import GUI_LEVELS
from ....games.doh.types import CONTENTS, COUNTS_AS, SEATS, SIZES
from ....games.protocol import ReplayError, TimeModel
from ... import protocol as P
from ...adapter import GameAdapter, MatchSession, ProtocolBotSeat, SessionHost
from .table import DISPLAY, MOVE_MS, PIECES, DohTable, replay_frames

__all__ = [
    "DohAdapter",
    "DohSession",
    "DohTable",
    "BotSeat",
    "BOT_LEVELS",
    "DISPLAY",
    "replay_frames",
]

BOT_LEVELS: Tuple[str, ...] = GUI_LEVELS
"""The bot levels a player may pick: bots of ``games/doh/bots.py``, weakest first."""
VIEW = "/static/js/games/doh/view.js"
BOT_DELAY_MS = 350  # a bot answers this long after the move before it


BotSeat = ProtocolBotSeat
"""A bot seat's driver: a bot of ``games/doh/bots.py`` (the server's shared one)."""


class DohSession(MatchSession):
    """One game of Doh in a room, in alternating turns (see the module docstring)."""

    def __init__(self, adapter: "DohAdapter", host: SessionHost, seed: int) -> None:
        self.host = host
        self.table = DohTable(adapter.game)
        self.state = self.table.state
        self.bot_delay_ms = adapter.bot_delay_ms
        self.bot_due: Optional[float] = None
        self.closed = False

    def start(self) -> None:
        self.host.emit({"round": 1, "t": 0, "events": [{"kind": "started"}], **self.table.view()})
        self._bot_turn()

    def _bot_turn(self) -> None:
        seat = self.table.to_move()
        bots = self.host.bots
        self.bot_due = None
        if seat is not None and bots[seat] is not None:
            self.bot_due = self.host.now_ms() + self.bot_delay_ms

    # -- moves -----------------------------------------------------------------------------
    def intent(self, seat: int, fields: Mapping[str, Any], ref: Any, conn: Any) -> None:
        piece, cell = fields["piece"], tuple(fields["cell"])
        if not (0 <= cell[0] < DISPLAY and 0 <= cell[1] < DISPLAY):
            raise P.ProtocolError(
                "bad_field", f"act.cell: {list(cell)} is off the {DISPLAY}x{DISPLAY} board"
            )
        if not self.host.live or self.table.position.over:
            reason: Optional[str] = "game_over"
        elif seat != self.table.to_move():
            reason = "not_your_turn"
        else:
            reason = self.table.play(seat, piece, cell)
        if reason is not None:
            if conn is not None:
                out = {
                    "type": "rejected",
                    "seat": SEATS[seat],
                    "piece": piece,
                    "cell": list(cell),
                    "reason": reason,
                }
                if ref is not None:
                    out["ref"] = ref
                conn.send(out)
            return
        self._moved()

    def _moved(self) -> None:
        table = self.table
        self.host.emit(
            {
                "round": 1,
                "t": table.position.ply * MOVE_MS,
                "events": table.events(),
                **table.view(),
            }
        )
        if table.position.over:
            self.bot_due = None
            self.host.match_ended(table.result() or "draw")
        else:
            self._bot_turn()

    def tick(self) -> None:
        while self.host.live and self.bot_due is not None and self.host.now_ms() >= self.bot_due:
            seat = self.table.to_move()
            if seat is None:
                return
            bot = self.host.bots[seat]
            if bot is None or bot.busy:
                return
            if not self._ask(seat, bot):
                return

    def _ask(self, seat: int, bot: BotSeat) -> bool:
        """Let the bot decide off the loop; True when its move came back at once."""
        bot.busy = True
        ply = self.table.position.ply
        snapshot = self.state.clone()
        waiting = [True]
        moved = [False]

        def done(action: Any, error: Optional[BaseException]) -> None:
            bot.busy = False
            if self.closed or not self.host.live or self.table.position.ply != ply:
                return
            if error is not None or action is None or self.table.play_action(seat, int(action)):
                self.bot_due = self.host.now_ms() + self.bot_delay_ms  # ask again later
            else:
                self._moved()
                moved[0] = True
            if not waiting[0]:
                self.host.tick()

        self.bot_due = None
        self.host.run_job(lambda: bot.bot.choose(snapshot, seat), done)
        waiting[0] = False
        return moved[0]

    def wake_at(self) -> Optional[float]:
        """The bot's due time, while the seat to move has its bot (nobody connected:
        ``host.bots`` is None, ``tick`` would skip it and the timer would fire again at
        once, a busy loop for as long as the room waits). A ``resume`` ticks the room,
        and the overdue bot is asked then."""
        if not self.host.live or self.bot_due is None:
            return None
        seat = self.table.to_move()
        return self.bot_due if seat is not None and self.host.bots[seat] is not None else None

    def next_round(self) -> None:
        raise RuntimeError("a game of Doh is one round")

    # -- what clients see ------------------------------------------------------------------
    def snapshot(self) -> Dict[str, Any]:
        return {
            "round": 1,
            "t": self.table.position.ply * MOVE_MS,
            **self.table.view(),
            "moves": list(self.table.moves),
        }

    def seat_status(self, seat: int) -> Dict[str, Any]:
        return {"to_move": self.table.to_move() == seat, "out": seat in self.table.position.out}

    def position(self) -> Dict[str, Any]:
        return {"round": 1, "t": self.table.position.ply * MOVE_MS}

    def result_fields(self) -> Dict[str, Any]:
        return {
            "end": self.table.end_by(),
            "lines": self.table.lines(),
            "out": self.table.out(),
            "plies": self.table.position.ply,
        }

    def replay_file(self, name: str) -> Dict[str, Any]:
        """The game as a replay file (docs/doh.md, "Replay files"), with ``expect``."""
        out = self.state.to_replay()
        out["name"] = name
        out["expect"] = {"result": self.table.result(), "by": self.table.end_by()}
        return out

    def close(self) -> None:
        self.closed = True
        self.bot_due = None


class DohAdapter(GameAdapter):
    """Tic Tac Doh's facts on the wire (see :class:`~.GameAdapter`)."""

    time_model = TimeModel.ALTERNATING
    bot_levels = BOT_LEVELS  # every level plays 2-4 seats (perfect: the paranoid solver)
    act_fields = {"piece": (P.choice(PIECES), True), "cell": (P.grid_cell, True)}
    view = VIEW
    bot_delay_ms = BOT_DELAY_MS

    def __init__(self, game: Any, settings: Any) -> None:
        super().__init__(game, settings)
        self.seats = tuple(game.seat_names)  # D10: first .. the rules' players-th

    def describe(self) -> Dict[str, Any]:
        # The pieces, the square contents and what each counts as (D4, D5), the display
        # size: the client's only copy of them.
        return {
            **super().describe(),
            "pieces": list(PIECES),
            "display": DISPLAY,
            "contents": {c: [s.letter for s in SIZES if s in COUNTS_AS[c]] for c in CONTENTS if c},
        }

    def make_bot(self, level: str, seed: int) -> BotSeat:
        return BotSeat(self.game, level, seed)

    def new_session(self, host: SessionHost, seed: int) -> DohSession:
        return DohSession(self, host, seed)

    def replay_frames(self, data: Any) -> Dict[str, Any]:
        try:
            return replay_frames(self.game, data)
        except ReplayError:
            raise
        except (TypeError, ValueError) as exc:
            raise ReplayError(str(exc)) from None
