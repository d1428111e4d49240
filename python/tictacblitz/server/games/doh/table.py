"""Tic Tac Doh's board on the wire (the server's Doh adapter, ``server/games/doh/``, uses it).

:class:`DohTable` keeps a 5x5 frame of *display* squares, ``[row, col]`` in 0..4, over a
:class:`~tictacblitz.games.doh.game.DohState`, whose centre ``[2, 2]`` is the first
piece: every square a game can use is within two of it (D2, the box is 3 wide), and a
piece never moves on screen, though the engine's position is translation-free. It maps a
display square to the game's one action encoding (``games/doh/encoding.py``) and back,
and draws the small picture every message carries. :func:`replay_frames` plays a replay
file back as frames shaped like ``events`` messages.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ....games.doh.encoding import decode_action, encode_action
from ....games.doh.replay import load_replay
from ....games.doh.types import CONTENTS, COUNTS_AS, PIECES, SEATS, SIZES, Size
from ....games.protocol import ReplayError

__all__ = ["DohTable", "DISPLAY", "MOVE_MS", "PIECES", "Cell", "replay_frames"]

DISPLAY = 5  # display squares per side; the first piece at (CENTRE, CENTRE)
CENTRE = DISPLAY // 2
MOVE_MS = 1000  # a replay frame's spacing (the viewer's clock)
MAX_SCRIPT = 10_000  # a replay file's moves the viewer plays at most
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

    def out(self) -> List[str]:
        """D9: the seats that are out, in the order they went (with three or four
        players every seat but the last mover's, at once, when the table is stuck)."""
        return [SEATS[seat] for seat in self.position.out]

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
            "out": self.out(),
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
                {
                    "kind": "end",
                    "result": self.result(),
                    "by": self.end_by(),
                    "lines": self.lines(),
                    "out": self.out(),
                }
            )
        return out


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
