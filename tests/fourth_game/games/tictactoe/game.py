"""Tic-tac-toe on the platform's protocol: what the registry needs of a game folder
(``GAME_TYPE``, ``make_game``) and the ``Game``/``State`` adapter over engine.py.

Actions are the 9 squares (``3 * row + col``); rejections are T2's reasons.
"""

from __future__ import annotations

import struct
import zlib
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from tictacblitz.games.base import GameBase, StateBase, check_seat
from tictacblitz.games.play import play_out
from tictacblitz.games.protocol import GameType, ReplayError, TimeModel
from tictacblitz.games.rng import check_seed, check_seeds, mix64

from . import bots as _bots
from .engine import CELLS, FULL, REASONS, cell_name, line_of, to_move_of, winner_of
from .reference import play_replay
from .replay import NAME, SEATS, parse_replay, replay_result, result_of, summary_of
from .rules import TicTacToeRules

__all__ = ["GAME_TYPE", "TicTacToeGame", "TicTacToeState", "make_game", "play_matches"]

GAME_TYPE = GameType(
    name=NAME,
    long_name="Tic-tac-toe",
    time_model=TimeModel.ALTERNATING,
    seeded=False,  # nothing is random (a bot's seed is its own)
    seat_names=SEATS,
    reasons=REASONS,
)
OBSERVATION_SHAPE = (3, 3, 3)  # the seat's marks, the other's, 1 where the seat is to move
_HEADER = struct.Struct("<3sBBHH")  # magic, version, misere, X's marks, O's marks
_MAGIC, _VERSION = b"TTT", 1


def check_action(action: object) -> int:
    """An action argument as a square. :raises TypeError, ValueError: naming it."""
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"an action is an integer square from 0 to {CELLS - 1}, not {action!r}")
    if not 0 <= int(action) < CELLS:
        raise ValueError(f"unknown action {action!r}: a square is 0 to {CELLS - 1}")
    return int(action)


class TicTacToeGame(GameBase):
    """Tic-tac-toe with one rules configuration."""

    type = GAME_TYPE
    rules_type = TicTacToeRules

    @property
    def num_actions(self) -> int:
        return CELLS

    @property
    def observation_shape(self) -> Tuple[int, ...]:
        return OBSERVATION_SHAPE

    def new_state(self, seed: int = 0, *, record: bool = False) -> "TicTacToeState":
        check_seed(seed)
        return TicTacToeState(self, 0, 0, [] if record else None)

    def state_from_bytes(self, data: bytes) -> "TicTacToeState":
        """:raises ValueError: for bytes that are no state (naming what is wrong)."""
        if not isinstance(data, bytes) or len(data) != _HEADER.size + 4:
            raise ValueError(f"a tic-tac-toe state is {_HEADER.size + 4} bytes, not {data!r}")
        body, (crc,) = data[: _HEADER.size], struct.unpack("<I", data[_HEADER.size :])
        if zlib.crc32(body) != crc:
            raise ValueError("a tic-tac-toe state's checksum does not match its bytes")
        magic, version, misere, x, o = _HEADER.unpack(body)
        if magic != _MAGIC or version != _VERSION or misere > 1:
            raise ValueError(f"not a version-{_VERSION} tic-tac-toe state: {data!r}")
        balanced = 0 <= bin(x).count("1") - bin(o).count("1") <= 1
        if (x | o) & ~FULL or x & o or not balanced:
            raise ValueError(f"no position of T1: X {x:09b}, O {o:09b}")
        rules = TicTacToeRules(misere=bool(misere))
        return TicTacToeState(self if rules == self.rules else TicTacToeGame(rules), x, o, None)

    def action_to_string(self, action: int) -> str:
        return f"place {cell_name(check_action(action))}"

    @property
    def bot_names(self) -> Tuple[str, ...]:
        return _bots.BOT_NAMES

    def make_bot(self, name: str, seed: int = 0) -> Any:
        return _bots.make_bot(name, seed)

    def replay(self, data: Any, *, engine: str = "native") -> Dict[str, Any]:
        """Play a replay file (replay.py) on this engine or the reference one.

        :raises ReplayError: for an invalid file or a refused move."""
        if engine == "reference":
            return play_replay(data)
        if engine != "native":
            raise ValueError(f"engine must be 'native' or 'reference', not {engine!r}")
        rules, moves = parse_replay(data)
        state = TicTacToeGame(rules).new_state()
        for i, move in enumerate(moves):
            reason = state.apply(state.to_move()[0] if not state.is_over() else 0, move)
            if reason is not None:
                raise ReplayError(f"replay.moves[{i}]: {move} was refused: {reason}")
        return replay_result(state.summary(), len(moves))


class TicTacToeState(StateBase):
    """One game: X's and O's marks as 9-bit boards (engine.py)."""

    def __init__(self, game: TicTacToeGame, x: int, o: int, record: Optional[List[int]]) -> None:
        self._game = game
        self.marks = [x, o]
        self._record = record
        self._events: List[Dict[str, Any]] = []

    @property
    def game(self) -> TicTacToeGame:
        return self._game

    def _outcome(self) -> Tuple[bool, Optional[int]]:
        return winner_of(self.marks[0], self.marks[1], self._game.rules.misere)

    def to_move(self) -> Tuple[int, ...]:
        return () if self.is_over() else (to_move_of(*self.marks),)

    def legal_mask(self, player: int) -> np.ndarray:
        seat = check_seat(player, SEATS)
        mask = np.zeros(CELLS, dtype=bool)
        if seat in self.to_move():
            free = FULL & ~(self.marks[0] | self.marks[1])
            mask[[cell for cell in range(CELLS) if free >> cell & 1]] = True
        return mask

    def is_over(self) -> bool:
        return self._outcome()[0]

    def winner(self) -> Optional[int]:
        return self._outcome()[1]

    def apply(self, player: int, action: int) -> Optional[str]:
        """Play ``player``'s square: None if accepted, else T2's reason.

        :raises ValueError: for a seat not to move in a game going on (T1), an unknown
            seat or a square out of range. :raises TypeError: for a non-integer."""
        seat = check_seat(player, SEATS)
        cell = check_action(action)
        over = self.is_over()
        if not over and seat != to_move_of(*self.marks):
            raise ValueError(f"seat {seat} is not to move: {SEATS[1 - seat]} is (T1)")
        reason = REASONS[0] if over else None
        if reason is None and (self.marks[0] | self.marks[1]) >> cell & 1:
            reason = REASONS[1]
        if reason is not None:
            self._events.append(
                {"kind": "rejected", "player": seat, "action": cell, "reason": reason}
            )
            return reason
        self.marks[seat] |= 1 << cell
        if self._record is not None:
            self._record.append(cell)
        self._events.append(
            {"kind": "move", "player": seat, "action": cell, "square": cell_name(cell)}
        )
        if self.is_over():
            line = line_of(self.marks[seat])
            cells = [] if line is None else [c for c in range(CELLS) if line >> c & 1]
            self._events.append({"kind": "end", "result": self.result(), "line": cells})
        return None

    def apply_joint(self, actions: Sequence[Optional[int]]) -> Tuple[Optional[str], ...]:
        """Both seats at once: the seat to move gives its square, the other None."""
        if isinstance(actions, (str, bytes)) or len(actions) != len(SEATS):
            raise ValueError(f"a joint action has one entry per seat (2), not {actions!r}")
        acting = [seat for seat, action in enumerate(actions) if action is not None]
        if not self.is_over() and any(seat not in self.to_move() for seat in acting):
            raise ValueError(f"only {SEATS[self.to_move()[0]]} may move: pass None for the other")
        return tuple(
            None if action is None else self.apply(seat, action)
            for seat, action in enumerate(actions)
        )

    def result(self) -> Optional[str]:
        return result_of(*self._outcome())

    def observation(self, player: int) -> np.ndarray:
        seat = check_seat(player, SEATS)
        planes = np.zeros(OBSERVATION_SHAPE, dtype=np.float32)
        for plane, marks in enumerate((self.marks[seat], self.marks[1 - seat])):
            for cell in range(CELLS):
                planes[plane, cell // 3, cell % 3] = marks >> cell & 1
        planes[2] = float(seat in self.to_move())
        return planes

    def summary(self) -> Dict[str, Any]:
        board = [
            0 if self.marks[0] >> c & 1 else 1 if self.marks[1] >> c & 1 else None
            for c in range(CELLS)
        ]
        return summary_of(board, (self.to_move() or (None,))[0], self.result())

    def clone(self) -> "TicTacToeState":
        twin = TicTacToeState(self._game, *self.marks, None)
        twin._record = None if self._record is None else list(self._record)
        twin._events = list(self._events)
        return twin

    def to_bytes(self) -> bytes:
        body = _HEADER.pack(_MAGIC, _VERSION, int(self._game.rules.misere), *self.marks)
        return body + struct.pack("<I", zlib.crc32(body))

    def to_replay(self) -> Dict[str, Any]:
        """:raises ValueError: if the state was not created with ``record=True``."""
        if self._record is None:
            raise ValueError("this state keeps no record: create it with new_state(record=True)")
        return {"game": NAME, "rules": self._game.rules.overrides(), "moves": list(self._record)}

    def __reduce__(self) -> Any:
        return (_restore, (self._game.rules.to_dict(), self.to_bytes(), self._record))


def _restore(rules: Dict[str, Any], data: bytes, record: Optional[List[int]]) -> TicTacToeState:
    state = TicTacToeGame(TicTacToeRules.from_dict(rules)).state_from_bytes(data)
    state._record = None if record is None else list(record)
    return state


def make_game(rules: Optional[Mapping[str, Any]] = None) -> TicTacToeGame:
    """The registry's entry: tic-tac-toe with these rule overrides."""
    return TicTacToeGame.make(rules)


def play_matches(rules: Any, seat_bots: Sequence[str], seeds: Any) -> Dict[str, np.ndarray]:
    """Whole games between two named bots (one a seat), game i seeded ``seeds[i]`` (its
    bots ``mix64(seed) ^ seat``): the columns ``winner`` (the seat, -1 a draw) and
    ``plies``. Pure Python: the game is tiny (a real game's runner is native)."""
    game = make_game(rules)  # None, a TicTacToeRules or a mapping of overrides
    if len(seat_bots) != len(SEATS):
        raise ValueError(f"one bot a seat ({len(SEATS)}), not {list(seat_bots)!r}")
    seeds = check_seeds(seeds)
    winner = np.empty(len(seeds), dtype=np.int8)
    plies = np.empty(len(seeds), dtype=np.int16)
    for i, seed in enumerate(seeds.tolist()):
        bots = [game.make_bot(name, mix64(seed) ^ seat) for seat, name in enumerate(seat_bots)]
        state = play_out(game.new_state(seed), bots)
        found = state.winner()
        winner[i] = -1 if found is None else found
        plies[i] = bin(state.marks[0] | state.marks[1]).count("1")
    return {"winner": winner, "plies": plies}
