"""Tic-tac-toe on the server: an alternating-turn adapter (``ALTERNATING``, rules T1-T4).

- **Intents**: ``act`` is ``{"cell": [row, col]}`` (0 to 2 each). The seat to move
  plays it (T1); another seat, or a square the rules refuse (T2), is answered to its
  sender only (``not_your_turn``, or the T2 reason) and changes nothing.
- **Events**: every accepted move is one ``events`` message: the game's events (the
  move; the end with its line) and the whole picture (the board's rows, whose turn,
  the result once over). A ``state`` snapshot holds the same picture.
- **Bots** (``random``, ``greedy``): a bot seat to move is asked ``bot_delay_ms`` later
  through ``run_job(lambda: bot.choose(state.clone(), seat))``, off the event loop.
- **Replays**: the state is recorded; a match's replay is the game's replay file with
  ``expect``, and :meth:`TicTacToeAdapter.replay_frames` plays one back as frames.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

from tictacblitz.games.protocol import ReplayError, TimeModel
from tictacblitz.server import protocol as P
from tictacblitz.server.adapter import GameAdapter, MatchSession, ProtocolBotSeat, SessionHost

__all__ = ["TicTacToeAdapter", "TicTacToeSession"]

SIDE = 3
BOT_DELAY_MS = 300  # a bot answers this long after the move before it


def _view(state: Any) -> Dict[str, Any]:
    summary = state.summary()
    return {"board": summary["board"], "to_move": summary["to_move"], "result": summary["result"]}


BotSeat = ProtocolBotSeat  # the server's shared driver of a protocol game's bot


class TicTacToeSession(MatchSession):
    """One game in a room, in alternating turns (see the module docstring)."""

    def __init__(self, adapter: "TicTacToeAdapter", host: SessionHost) -> None:
        self.host, self.adapter = host, adapter
        self.state = adapter.game.new_state(record=True)
        self.bot_due: Optional[float] = None
        self.plies = 0
        self.closed = False

    def start(self) -> None:
        self.state.drain_events()
        self.host.emit({"round": 1, "events": [{"kind": "started"}], **_view(self.state)})
        self._bot_turn()

    def _seat_to_move(self) -> Optional[int]:
        return (self.state.to_move() or (None,))[0]

    def _bot_turn(self) -> None:
        seat = self._seat_to_move()
        self.bot_due = None
        if seat is not None and self.host.bots[seat] is not None:
            self.bot_due = self.host.now_ms() + self.adapter.bot_delay_ms

    def intent(self, seat: int, fields: Mapping[str, Any], ref: Any, conn: Any) -> None:
        row, col = fields["cell"]
        if not (row < SIDE and col < SIDE):
            raise P.ProtocolError("bad_field", f"act.cell: {[row, col]} is off the 3x3 board")
        if not self.host.live or self.state.is_over():
            reason: Optional[str] = "game_over"
        elif seat != self._seat_to_move():
            reason = "not_your_turn"
        else:
            reason = self.state.apply(seat, row * SIDE + col)
        if reason is None:
            self._moved()
        elif conn is not None:
            out = {"type": "rejected", "seat": self.adapter.seats[seat], "cell": [row, col]}
            conn.send({**out, "reason": reason, **({} if ref is None else {"ref": ref})})

    def _moved(self) -> None:
        self.plies += 1
        self.host.emit({"round": 1, "events": self.state.drain_events(), **_view(self.state)})
        if self.state.is_over():
            self.bot_due = None
            self.host.match_ended(self.state.summary()["result"])
        else:
            self._bot_turn()

    def tick(self) -> None:
        due, seat = self.bot_due, self._seat_to_move()
        if not self.host.live or due is None or self.host.now_ms() < due or seat is None:
            return
        bot = self.host.bots[seat]
        if bot is None or bot.busy:
            return
        bot.busy, self.bot_due = True, None
        snapshot, plies = self.state.clone(), self.plies
        inline = [True]  # done() called within run_job: the room sets its timer itself

        def done(action: Any, error: Optional[BaseException]) -> None:
            bot.busy = False
            if self.closed or not self.host.live or self.plies != plies:
                return  # a late answer of an old position
            if error is not None or action is None or self.state.apply(seat, int(action)):
                self.bot_due = self.host.now_ms() + self.adapter.bot_delay_ms  # ask again
            else:
                self._moved()
            if not inline[0]:
                self.host.tick()

        self.host.run_job(lambda: bot.bot.choose(snapshot, seat), done)
        inline[0] = False

    def wake_at(self) -> Optional[float]:
        return self.bot_due if self.host.live else None

    def next_round(self) -> None:
        raise RuntimeError("a game of tic-tac-toe is one round")

    def snapshot(self) -> Dict[str, Any]:
        return {"round": 1, **_view(self.state), "moves": self.state.to_replay()["moves"]}

    def seat_status(self, seat: int) -> Dict[str, Any]:
        return {"to_move": self._seat_to_move() == seat}

    def position(self) -> Dict[str, Any]:
        return {"round": 1, "t": self.plies}

    def result_fields(self) -> Dict[str, Any]:
        return {"plies": self.plies}

    def replay_file(self, name: str) -> Dict[str, Any]:
        out = self.state.to_replay()
        out["name"] = name
        out["expect"] = {"result": self.state.summary()["result"]}
        return out

    def close(self) -> None:
        self.closed = True
        self.bot_due = None


class TicTacToeAdapter(GameAdapter):
    """Tic-tac-toe's facts on the wire (see :class:`~tictacblitz.server.adapter.GameAdapter`):
    the package's one ``GameAdapter`` subclass, which the server's lookup finds."""

    time_model = TimeModel.ALTERNATING
    act_fields = {"cell": (P.grid_cell, True)}
    view = "/static/js/games/tictactoe/view.js"
    bot_delay_ms = BOT_DELAY_MS

    def __init__(self, game: Any, settings: Any) -> None:
        super().__init__(game, settings)
        self.seats = tuple(game.seat_names)
        self.bot_levels = tuple(game.bot_names)

    def make_bot(self, level: str, seed: int) -> BotSeat:
        return BotSeat(self.game, level, seed)

    def new_session(self, host: SessionHost, seed: int) -> TicTacToeSession:
        return TicTacToeSession(self, host)

    def replay_frames(self, data: Any) -> Dict[str, Any]:
        """A replay file played back as frames shaped like ``events`` messages, one a
        move. :raises ReplayError: for an invalid file."""
        result = self.game.replay(data)  # the whole file checked first (ReplayError)
        state = self.game.with_rules(data.get("rules", {})).new_state()
        frames: List[Dict[str, Any]] = []
        for cell in data["moves"]:
            if state.apply(state.to_move()[0], cell) is not None:  # pragma: no cover
                raise ReplayError(f"replay.moves: {cell} was refused")  # replay() checked it
            frames.append({"round": 1, "events": state.drain_events(), **_view(state)})
        return {
            "rules": state.game.rules.to_dict(),
            "seed": 0,
            "frames": frames,
            "match": result["result"],
            "end": {"round": 1, "t": len(frames)},
        }
