"""Tic Tac Doh on the server: the alternating-turn adapter (``ALTERNATING``, rules D1-D9).

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

from typing import Any, Dict, List, Mapping, Optional, Tuple

from ...games.doh.encoding import decode_action, encode_action
from ...games.doh.replay import load_replay
from ...games.doh.types import CONTENTS, COUNTS_AS, SEATS, SIZES, Size
from ...games.protocol import ReplayError, TimeModel
from .. import protocol as P
from . import GameAdapter, MatchSession, SessionHost

__all__ = [
    "DohAdapter",
    "DohSession",
    "DohTable",
    "BotSeat",
    "BOT_LEVELS",
    "DISPLAY",
    "make_adapter",
    "replay_frames",
]

BOT_LEVELS: Tuple[str, ...] = ("easy", "medium", "hard", "perfect")
"""The bot levels a player may pick: bots of ``games/doh/bots.py``, weakest first."""
VIEW = "/static/js/games/doh/view.js"
DISPLAY = 5  # display squares per side; the first piece at (CENTRE, CENTRE)
CENTRE = DISPLAY // 2
BOT_DELAY_MS = 350  # a bot answers this long after the move before it
MOVE_MS = 1000  # a replay frame's spacing (the viewer's clock)
MAX_SCRIPT = 10_000  # a replay file's moves the viewer plays at most
PIECES = tuple(s.letter for s in SIZES)
Cell = Tuple[int, int]


class DohTable:
    """A game of Doh in the display frame (see the module docstring)."""

    def __init__(self, game: Any, record: bool = True) -> None:
        self.game = game
        self.state = game.new_state(record=record)
        self.position = self.state.position
        self.anchor: Optional[Cell] = None  # display square of the engine frame's (0, 0)
        self.moves: List[Dict[str, Any]] = []

    # -- reading ---------------------------------------------------------------------------
    def squares(self) -> Dict[Cell, str]:
        """Occupied display squares and their contents (D4)."""
        if self.anchor is None:
            return {}
        ar, ac = self.anchor
        return {
            (ar + i // 3, ac + i % 3): CONTENTS[code]
            for i, code in enumerate(self.position.contents())
            if code
        }

    def to_move(self) -> Optional[int]:
        return None if self.position.over else self.position.to_move

    def cell_of(self, action: int) -> Cell:
        _, dr, dc = decode_action(action)
        if self.anchor is None:
            return (CENTRE + dr, CENTRE + dc)
        return (self.anchor[0] + dr, self.anchor[1] + dc)

    def action_for(self, piece: str, cell: Cell) -> Tuple[Optional[int], Optional[str]]:
        """(the action code of ``piece`` on display ``cell``, None) or (None, the D6
        reason) for a square the action window cannot name."""
        size = Size[piece]
        ar, ac = self.anchor if self.anchor is not None else (CENTRE, CENTRE)
        dr, dc = cell[0] - ar, cell[1] - ac
        if self.anchor is None and (dr, dc) != (0, 0):
            return None, self._early(size) or "not_adjacent"  # the first piece: the centre
        if -2 <= dr <= 2 and -2 <= dc <= 2:
            return encode_action(size, dr, dc), None
        if self._early(size):
            return None, self._early(size)
        near = any(abs(r - cell[0]) <= 1 and abs(c - cell[1]) <= 1 for r, c in self.squares())
        return None, "outside_grid" if near else "not_adjacent"

    def _early(self, size: Size) -> Optional[str]:
        if self.position.over:
            return "game_over"
        if self.position.stash[int(size)] == 0:
            return "none_left"
        return None

    def legal(self) -> Dict[str, List[List[int]]]:
        """Per size, the display squares the seat to move may put it on (D3, D4)."""
        out: Dict[str, List[List[int]]] = {p: [] for p in PIECES}
        for action in self.position.legal_mask().nonzero()[0]:
            size, _, _ = decode_action(int(action))
            out[size.letter].append(list(self.cell_of(int(action))))
        return out

    def box(self) -> Dict[str, Any]:
        """D2's grid as it becomes known: the display rows and columns some grid x grid
        box holding every piece may still cover, and whether it is one box already."""
        g = self.game.rules.grid
        cells = list(self.squares()) or [(CENTRE, CENTRE)]
        rows, cols = [c[0] for c in cells], [c[1] for c in cells]
        lo_r, hi_r = max(rows) - (g - 1), min(rows) + (g - 1)
        lo_c, hi_c = max(cols) - (g - 1), min(cols) + (g - 1)
        return {
            "rows": [lo_r, hi_r],
            "cols": [lo_c, hi_c],
            "grid": g,
            "known": bool(self.squares()) and hi_r - lo_r == g - 1 and hi_c - lo_c == g - 1,
        }

    def lines(self) -> List[List[List[int]]]:
        """D7: every line on the board, as display squares."""
        if self.anchor is None:
            return []
        ar, ac = self.anchor
        return [[[ar + r, ac + c] for r, c in line] for line in self.position.lines()]

    def end_by(self) -> Optional[str]:
        if not self.position.over:
            return None
        if self.position.lines():
            return "line"  # D7
        return "stash_empty" if self.position.winner is None else "no_move"  # D8, D9

    def result(self) -> Optional[str]:
        if not self.position.over:
            return None
        winner = self.position.winner
        return "draw" if winner is None else SEATS[winner]

    def view(self) -> Dict[str, Any]:
        """The whole picture (a few hundred bytes): what a client draws."""
        mover = self.to_move()
        return {
            "size": DISPLAY,
            "squares": [
                {
                    "cell": list(cell),
                    "content": content,
                    "counts": [s.letter for s in SIZES if s in COUNTS_AS[content]],
                }
                for cell, content in sorted(self.squares().items())
            ],
            "stash": dict(zip(PIECES, self.position.stash, strict=True)),
            "pieces_per_size": self.position.pieces_per_size,
            "to_move": None if mover is None else SEATS[mover],
            "ply": self.position.ply,
            "legal": self.legal(),
            "box": self.box(),
            "lines": self.lines(),
            "result": self.result(),
            "by": self.end_by(),
            "last": self.moves[-1] if self.moves else None,
        }

    # -- playing ---------------------------------------------------------------------------
    def play(self, seat: int, piece: str, cell: Cell) -> Optional[str]:
        """``seat`` puts ``piece`` on display ``cell``: None, or the D6 reason."""
        action, reason = self.action_for(piece, cell)
        if action is None:
            return reason
        return self.play_action(seat, action)

    def play_action(self, seat: int, action: int) -> Optional[str]:
        cell = self.cell_of(action)
        reason = self.state.apply(seat, action)
        if reason is not None:
            return reason
        size, dr, dc = decode_action(action)
        if self.anchor is None:
            self.anchor = (CENTRE, CENTRE)
        else:
            self.anchor = (self.anchor[0] + min(dr, 0), self.anchor[1] + min(dc, 0))
        self.state.drain_events()
        self.moves.append(
            {
                "kind": "move",
                "seat": SEATS[seat],
                "piece": size.letter,
                "cell": list(cell),
                "content": self.squares()[cell],
                "ply": self.position.ply,
            }
        )
        return None

    def events(self) -> List[Dict[str, Any]]:
        """The last move, and the end if it ended the game."""
        out = [dict(self.moves[-1])]
        if self.position.over:
            out.append(
                {"kind": "end", "result": self.result(), "by": self.end_by(), "lines": self.lines()}
            )
        return out


class BotSeat:
    """A bot seat's driver: a bot of ``games/doh/bots.py`` (kept across rematches)."""

    def __init__(self, game: Any, level: str, seed: int) -> None:
        self.level = level
        self.bot = game.make_bot(level, seed)
        self.reset()

    def reset(self) -> None:
        self.busy = False


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
        return self.bot_due if self.host.live else None

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
        return {"to_move": self.table.to_move() == seat}

    def position(self) -> Dict[str, Any]:
        return {"round": 1, "t": self.table.position.ply * MOVE_MS}

    def result_fields(self) -> Dict[str, Any]:
        return {
            "end": self.table.end_by(),
            "lines": self.table.lines(),
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


def replay_frames(game: Any, data: Any) -> Dict[str, Any]:
    """A replay file played back as frames shaped like ``events`` messages, one per
    accepted move, in the display frame (the file's first square at the centre).

    :raises ReplayError: for an invalid file.
    """
    replay = load_replay(data)
    if len(replay.script) > MAX_SCRIPT:
        raise ReplayError(f"the viewer plays at most {MAX_SCRIPT} moves")
    table = DohTable(game.with_rules(replay.rules.overrides()), record=False)
    frames: List[Dict[str, Any]] = []
    origin: Optional[Cell] = None
    for size, (row, col) in replay.script:
        if origin is None:
            origin = (row - CENTRE, col - CENTRE)
        seat = table.to_move()
        if seat is None:
            break
        cell = (row - origin[0], col - origin[1])
        if table.play(seat, size.letter, cell) is None:
            frames.append(
                {
                    "round": 1,
                    "t": table.position.ply * MOVE_MS,
                    "events": table.events(),
                    **table.view(),
                }
            )
    return {
        "rules": table.game.rules.to_dict(),
        "seed": 0,
        "frames": frames,
        "rounds": [],
        "round_wins": {},
        "match": table.result(),
        "end": {"round": 1, "t": table.position.ply * MOVE_MS},
    }


class DohAdapter(GameAdapter):
    """Tic Tac Doh's facts on the wire (see :class:`~.GameAdapter`)."""

    time_model = TimeModel.ALTERNATING
    seats = SEATS
    bot_levels = BOT_LEVELS
    act_fields = {"piece": (P.choice(PIECES), True), "cell": (P.grid_cell, True)}
    view = VIEW
    bot_delay_ms = BOT_DELAY_MS

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


def make_adapter(game: Any, settings: Any) -> DohAdapter:
    """The server's entry for ``--game doh``."""
    return DohAdapter(game, settings)
