"""Replay files of Tic Tac Doh: load, validate, play, and the result object.

A replay file (also a scenario file: the same shape) is a JSON object::

    {"game": "doh", "rules": {"players": 3, "pieces_per_size": 3},
     "script": [{"piece": "M", "at": [1, 1]}, {"piece": "S", "at": [1, 2]}]}

- ``game``: ``"doh"`` (may be left out when the caller already knows the game);
- ``rules``: overrides of :class:`~.rules.DohRules` by name (unknown names are errors),
  ``players`` among them (D10: 2 by default, 3 or 4);
- ``seed``: optional and ignored (nothing in the game is random), an integer if given;
- ``script``: the moves in order, each exactly ``piece`` (``S``, ``M``, ``L``) and ``at``
  (``[row, col]``, integers, in one frame of the file's choosing: any translation is
  the same game, D2). The player is implied by the order (D1, D10: the seats in turn
  order, skipping seats that are out by D9); a rejected move is reported and the same
  player moves again with the next entry.

Other top-level keys (``name``, ``why``, ``expect``...) are ignored, except that an
``expect`` (or ``expect_any``) naming a seat the rules do not have (``"third"`` in a file
without ``rules.players``) makes the file invalid: it is the record of a game with more
players whose ``players`` went missing. The result::

    {"moves": [{"player": "first", "piece": "M", "at": [1, 1]}, ...],   # accepted, in order
     "rejected": [{"index": 3, "player": "second", "piece": "S", "at": [0, 5],
                   "reason": "not_adjacent"}],                            # index in script
     "state": {"squares": {"0,0": "LM", ...}, "stash": {"S": 5, "M": 2, "L": 4},
               "to_move": "first" | ... | "fourth" | null,
               "out": ["second", "third"]},           # only with 3 or 4 players (D9)
     "result": "first" | ... | "fourth" | "draw" | null,
     "lines": [[[0, 0], [0, 1], [0, 2]], ...]}

``moves`` keep the file's frame; ``state.squares`` and ``lines`` are translated so that
the smallest occupied row and column are 0; each line lists its three squares sorted,
and the list is sorted (empty when there is none). ``state.out`` lists the seats that
went out, in the order they went out (``[]`` when none).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from blitz_core.doh.engine import REASONS as NATIVE_REASONS
from blitz_core.doh.engine import Position

from ..protocol import ReplayError
from .encoding import encode_action
from .reference import ReferenceDoh, Square
from .rules import DohRules
from .types import CONTENTS, SEATS, SIZES, Size, parse_size

__all__ = [
    "Replay",
    "load_replay",
    "run_replay",
    "NativeTable",
    "position_summary",
    "position_lines",
    "result_of",
]

_ENTRY_KEYS = ("piece", "at")


@dataclass(frozen=True)
class Replay:
    """A validated replay file: the rules and the script's moves in file order."""

    rules: DohRules
    script: Tuple[Tuple[Size, Square], ...]


def _integer(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ReplayError(f"{what} must be an integer, not {value!r}")
    return value


def load_replay(data: Any) -> Replay:
    """Validate a parsed replay file.

    :raises ReplayError: one line naming the first thing wrong with it.
    """
    if not isinstance(data, dict):
        raise ReplayError(f"a Doh replay is a JSON object, not {type(data).__name__}")
    game = data.get("game", "doh")
    if game != "doh":
        raise ReplayError(f"this is a replay of game {game!r}, not 'doh'")
    raw_rules = data.get("rules")
    if raw_rules is None:
        rules = DohRules()
    elif not isinstance(raw_rules, dict):
        raise ReplayError(f"rules must be an object, not {raw_rules!r}")
    else:
        try:
            rules = DohRules.from_dict(raw_rules)
        except (TypeError, ValueError) as exc:
            raise ReplayError(f"rules: {exc}") from None
    if data.get("seed") is not None:
        _integer(data["seed"], "seed")
    script = data.get("script")
    script = [] if script is None else script
    if not isinstance(script, list):
        raise ReplayError(f"script must be a list of moves, not {script!r}")
    entries = tuple(_load_entry(raw, i) for i, raw in enumerate(script))
    _check_expected_seats(data, rules.players)
    return Replay(rules, entries)


def _named_seats(expect: Any, where: str) -> List[Tuple[str, Any]]:
    """(where, value) of every place an expectation names a seat (the result's shape)."""
    if not isinstance(expect, dict):
        return []
    named = [(f"{where}.result", expect.get("result"))]
    for key in ("moves", "rejected"):
        entries = expect.get(key)
        if isinstance(entries, list):
            named += [
                (f"{where}.{key}[{i}].player", entry.get("player"))
                for i, entry in enumerate(entries)
                if isinstance(entry, dict)
            ]
    state = expect.get("state")
    if isinstance(state, dict):
        named.append((f"{where}.state.to_move", state.get("to_move")))
        if isinstance(state.get("out"), list):
            named += [(f"{where}.state.out[{i}]", seat) for i, seat in enumerate(state["out"])]
    return named


def _check_expected_seats(data: Dict[str, Any], players: int) -> None:
    """An expectation naming a seat beyond ``players`` (D10), or ``state.out`` with two
    players, means the file's ``rules.players`` is missing or wrong (issue 25)."""
    expectations = [("expect", data.get("expect"))]
    alternatives = data.get("expect_any")
    if isinstance(alternatives, list):
        expectations += [(f"expect_any[{i}]", alt) for i, alt in enumerate(alternatives)]
    said = "is 2 (the default)" if "players" not in (data.get("rules") or {}) else f"is {players}"
    for where, expect in expectations:
        for place, seat in _named_seats(expect, where):
            if seat in SEATS[players:]:
                raise ReplayError(
                    f"{place} names seat {seat!r}, but rules.players {said}: "
                    "a replay of a game with more players must give rules.players (D10)"
                )
        state = expect.get("state") if isinstance(expect, dict) else None
        if players == 2 and isinstance(state, dict) and "out" in state:
            raise ReplayError(
                f"{where}.state.out is given, but rules.players {said}: out is reported "
                "only with 3 or 4 players; a replay of such a game must give rules.players (D10)"
            )


def _load_entry(raw: Any, number: int) -> Tuple[Size, Square]:
    where = f"script[{number}]"
    if not isinstance(raw, dict):
        raise ReplayError(f"{where} must be an object with piece and at, not {raw!r}")
    unknown = sorted(set(raw) - set(_ENTRY_KEYS))
    if unknown:
        raise ReplayError(
            f"{where} has unknown key(s) {', '.join(map(repr, unknown))}: "
            "a move is exactly piece and at"
        )
    for key in _ENTRY_KEYS:
        if key not in raw:
            raise ReplayError(f"{where} has no {key}")
    try:
        size = parse_size(raw["piece"])
    except (TypeError, ValueError) as exc:
        raise ReplayError(f"{where}.piece: {exc}") from None
    at = raw["at"]
    if not isinstance(at, list) or len(at) != 2:
        raise ReplayError(f"{where}.at must be [row, col], not {at!r}")
    row = _integer(at[0], f"{where}.at row")
    col = _integer(at[1], f"{where}.at col")
    return size, (row, col)


# -- the native engine behind the same face as the reference ----------------------------


def position_summary(position: Position) -> dict:
    """The result's ``state`` of a native position (squares in its normalised frame,
    which is the translation with smallest row and column 0)."""
    squares = {
        f"{i // 3},{i % 3}": CONTENTS[code] for i, code in enumerate(position.contents()) if code
    }
    state = {
        "squares": squares,
        "stash": {size.letter: count for size, count in zip(SIZES, position.stash, strict=True)},
        "to_move": None if position.over else SEATS[position.to_move],
    }
    if position.players > 2:  # D9, D10: only games of more than two players report it
        state["out"] = [SEATS[seat] for seat in position.out]
    return state


def position_lines(position: Position) -> List[List[List[int]]]:
    return [[list(square) for square in line] for line in position.lines()]


def result_of(position: Position) -> Optional[str]:
    if not position.over:
        return None
    return "draw" if position.winner is None else SEATS[position.winner]


class NativeTable:
    """The native :class:`Position` played in absolute squares, like the reference.

    It keeps the absolute square of the normalised frame's (0, 0) (the anchor) to turn
    a square into an action code (encoding.py); a square beyond the action window is
    never legal, and its reason is found here from the occupied squares (D3, D2).
    """

    def __init__(self, rules: DohRules) -> None:
        self.rules = rules
        self.position = Position(rules.native_params())
        self.anchor: Optional[Square] = None

    @property
    def over(self) -> bool:
        return bool(self.position.over)

    @property
    def to_move(self) -> int:
        return int(self.position.to_move)

    def play(self, size: Size, square: Square) -> Optional[str]:
        position = self.position
        if position.over:
            return "game_over"
        if position.stash[size] == 0:
            return "none_left"
        if self.anchor is None:  # D3: the first piece goes anywhere
            position.play(encode_action(size, 0, 0))
            self.anchor = square
            return None
        dr, dc = square[0] - self.anchor[0], square[1] - self.anchor[1]
        if -2 <= dr <= 2 and -2 <= dc <= 2:
            code = position.play(encode_action(size, dr, dc))
            if code:
                return NATIVE_REASONS[code - 1]
            self.anchor = (self.anchor[0] + min(dr, 0), self.anchor[1] + min(dc, 0))
            return None
        # Beyond the window: an empty square (every occupied one is inside); D6's order.
        occupied = [(i // 3, i % 3) for i, code in enumerate(position.contents()) if code]
        touches = any(abs(dr - r) <= 1 and abs(dc - c) <= 1 for r, c in occupied)
        return "outside_grid" if touches else "not_adjacent"

    def summary(self) -> dict:
        return position_summary(self.position)

    @property
    def result(self) -> Optional[str]:
        return result_of(self.position)

    def translated_lines(self) -> List[List[List[int]]]:
        return position_lines(self.position)


def run_replay(data: Any, engine: str = "native") -> dict:
    """Play a replay file (parsed JSON, or a :class:`Replay`) and return its result.

    :param engine: ``"native"`` or ``"reference"`` (the same result, the oracle's way).
    :raises ReplayError: for an invalid file.
    """
    replay = data if isinstance(data, Replay) else load_replay(data)
    if engine == "native":
        table: Any = NativeTable(replay.rules)
    elif engine == "reference":
        table = ReferenceDoh(replay.rules)
    else:
        raise ValueError(f"unknown engine {engine!r}: expected 'native' or 'reference'")
    moves: List[Dict[str, Any]] = []
    rejected: List[Dict[str, Any]] = []
    players = replay.rules.players
    after_last = 0  # the seat after the last mover: who a rejection names once it's over
    for index, (size, square) in enumerate(replay.script):
        # D10 (and D9's skipping of seats that are out) is the engine's to_move.
        player = after_last if table.over else table.to_move
        entry = {"player": SEATS[player], "piece": size.letter, "at": list(square)}
        reason = table.play(size, square)
        if reason is None:
            moves.append(entry)
            after_last = (player + 1) % players
        else:
            rejected.append({"index": index, **entry, "reason": reason})
    return {
        "moves": moves,
        "rejected": rejected,
        "state": table.summary(),
        "result": table.result,
        "lines": table.translated_lines(),
    }
