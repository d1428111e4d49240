"""Tic Tac Doh on the platform's protocol: :class:`DohGame` and :class:`DohState`.

A thin adapter over the native :class:`~blitz_core.doh.engine.Position`: actions are
the 75 codes of :mod:`.encoding`, rejections the D6 reason strings, turns go round the
seats in order (D1, D10: ``rules.players`` from 2 to 4). A state started with
``record=True`` also keeps the squares of its moves in one absolute frame, for
:meth:`DohState.to_replay`.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from blitz_core.doh.engine import REASONS as NATIVE_REASONS
from blitz_core.doh.engine import Position

from ..base import GameBase, StateBase, check_seat
from ..protocol import GameType, TimeModel
from ..rng import check_seed
from . import bots as _bots
from .encoding import NUM_ACTIONS, OBSERVATION_SHAPE, action_to_string, check_action, decode_action
from .replay import position_lines, position_summary, result_of, run_replay
from .rules import DohRules
from .types import CONTENTS, COUNTS_AS, SEATS, SIZES, Reason

__all__ = ["GAME_TYPE", "DohGame", "DohState", "make_game", "play_matches"]

GAME_TYPE = GameType(
    name="doh",
    long_name="Tic Tac Doh",
    time_model=TimeModel.ALTERNATING,
    seeded=False,  # nothing is random (the seed is ignored)
    min_num_players=2,  # D10: players is a rule, 2 to 4
    max_num_players=len(SEATS),
    seat_names=SEATS,  # D1, D10: "first", "second", "third", "fourth"
    reasons=tuple(reason.value for reason in Reason),  # the contract's checking order
)


class DohGame(GameBase):
    """Tic Tac Doh with one rules configuration."""

    type = GAME_TYPE
    rules_type = DohRules

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def num_players(self) -> int:
        """D10: the rules' ``players``."""
        return int(self._rules.players)

    @property
    def observation_shape(self) -> Tuple[int, ...]:
        return OBSERVATION_SHAPE

    def new_state(self, seed: int = 0, *, record: bool = False) -> "DohState":
        """A fresh game (``seed`` is ignored: nothing is random)."""
        check_seed(seed)
        position = Position(self._rules.native_params())
        return DohState(self, position, [] if record else None)

    def state_from_bytes(self, data: bytes) -> "DohState":
        position = Position.from_bytes(data)
        rules = DohRules(
            pieces_per_size=position.pieces_per_size, grid=position.grid, players=position.players
        )
        return DohState(self if rules == self._rules else DohGame(rules), position, None)

    def action_to_string(self, action: int) -> str:
        return action_to_string(action)

    @property
    def bot_names(self) -> Tuple[str, ...]:
        return _bots.BOT_NAMES

    def make_bot(self, name: str, seed: int = 0) -> _bots.DohBot:
        return _bots.make_bot(name, seed)

    def replay(self, data: Any, *, engine: str = "native") -> dict:
        """Play a replay file (replay.py) on the native or the reference engine.

        :raises ReplayError: for an invalid file."""
        if engine not in ("native", "reference"):
            raise ValueError(f"engine must be 'native' or 'reference', not {engine!r}")
        return run_replay(data, engine)


class DohState(StateBase):
    """One game of Tic Tac Doh behind the protocol (``position`` is the native one)."""

    def __init__(
        self, game: DohGame, position: Position, record: Optional[List[Tuple[str, Tuple[int, int]]]]
    ) -> None:
        self._game = game
        self.position = position
        # record=True: the moves' squares in one absolute frame, whose (0, 0) is the
        # first piece; `_anchor` is where the normalised frame's (0, 0) is in it.
        self._record = record
        self._anchor: Optional[Tuple[int, int]] = None
        if record is not None and position.ply:
            raise ValueError("only a new game can be recorded")
        self._events: List[Dict[str, Any]] = []

    # -- reading ---------------------------------------------------------------------------
    @property
    def game(self) -> DohGame:
        return self._game

    def to_move(self) -> Tuple[int, ...]:
        return () if self.position.over else (self.position.to_move,)

    def _seat(self, player: object) -> int:
        return check_seat(player, self._game.seat_names)

    def legal_mask(self, player: int) -> np.ndarray:
        seat = self._seat(player)
        if self.position.over or seat != self.position.to_move:
            return np.zeros(NUM_ACTIONS, dtype=bool)
        return self.position.legal_mask()

    def is_over(self) -> bool:
        return self.position.over

    def winner(self) -> Optional[int]:
        return self.position.winner

    def out(self) -> Tuple[int, ...]:
        """D9: the seats that went out, in the order they did (3-4 players; a stuck
        table puts every seat but the last mover out at once, so only at the end)."""
        return tuple(self.position.out)

    def observation(self, player: int) -> np.ndarray:
        """encoding.OBSERVATION_SHAPE planes from ``player``'s view (see encoding.py)."""
        seat = self._seat(player)
        position = self.position
        planes = np.zeros(OBSERVATION_SHAPE, dtype=np.float32)
        for i, code in enumerate(position.contents()):
            row, col = divmod(i, 3)
            planes[code, row, col] = 1.0  # D4: what it holds
            for size in COUNTS_AS[CONTENTS[code]]:
                planes[10 + int(size), row, col] = 1.0  # D5: what it counts as
        for size, left in zip(SIZES, position.stash, strict=True):
            planes[13, int(size), :] = left / position.pieces_per_size
        if not position.over and position.to_move == seat:
            planes[14] = 1.0
        return planes

    def summary(self) -> dict:
        return position_summary(self.position)

    def result(self) -> Optional[str]:
        """The winning seat's name (``"first"`` ...), ``"draw"`` once over, else None."""
        return result_of(self.position)

    def lines(self) -> List[List[List[int]]]:
        return position_lines(self.position)

    # -- changing --------------------------------------------------------------------------
    def apply(self, player: int, action: int) -> Optional[str]:
        """Play ``player``'s action: None if accepted, else the D6 reason.

        :raises ValueError: for a seat that is not to move in a game still going on
            (D1, D10: turns go round in seat order), an unknown seat or an action out of
            range.
        :raises TypeError: for a non-integer seat or action.
        """
        seat = self._seat(player)
        action = check_action(action)
        position = self.position
        if not position.over and seat != position.to_move:
            raise ValueError(
                f"seat {seat} is not to move: {SEATS[position.to_move]} "
                f"(seat {position.to_move}) is (D1, D10)"
            )
        size, dr, dc = decode_action(action)
        code = position.play(action)
        if code:
            reason = NATIVE_REASONS[code - 1]
            self._events.append(
                {"kind": "rejected", "player": seat, "action": action, "reason": reason}
            )
            return reason
        self._note_move(seat, action, size.letter, dr, dc)
        return None

    def apply_joint(self, actions: Sequence[Optional[int]]) -> Tuple[Optional[str], ...]:
        """Every seat at once: the seat to move gives its action, the others None."""
        seats = self._game.num_players
        if isinstance(actions, (str, bytes)) or len(actions) != seats:
            raise ValueError(f"a joint action has one entry per seat ({seats}), not {actions!r}")
        acting = [seat for seat, action in enumerate(actions) if action is not None]
        if not self.position.over:  # once over, every action is game_over
            for seat in acting:
                if seat != self.position.to_move:
                    raise ValueError(f"seat {seat} is not to move: pass None for it (D1)")
        out: List[Optional[str]] = [None] * seats
        for seat in acting:
            action = actions[seat]
            assert action is not None  # `acting` holds the seats that act
            out[seat] = self.apply(seat, action)
        return tuple(out)

    def _note_move(self, seat: int, action: int, piece: str, dr: int, dc: int) -> None:
        if self._record is not None:
            if self._anchor is None:
                square = (0, 0)
                self._anchor = square
            else:
                square = (self._anchor[0] + dr, self._anchor[1] + dc)
                self._anchor = (self._anchor[0] + min(dr, 0), self._anchor[1] + min(dc, 0))
            self._record.append((piece, square))
        self._events.append({"kind": "move", "player": seat, "action": action, "piece": piece})
        if self.position.over:
            lines = self.position.lines()
            by = "line" if lines else ("stash_empty" if self.position.winner is None else "no_move")
            end: Dict[str, Any] = {"kind": "end", "result": self.result(), "by": by}
            end["lines"] = self.lines()
            if self._game.num_players > 2:  # D9, D10: the seats that went out, in order
                end["out"] = list(self.out())
            self._events.append(end)

    def clone(self) -> "DohState":
        twin = DohState(self._game, self.position.clone(), None)
        twin._record = None if self._record is None else list(self._record)
        twin._anchor = self._anchor
        twin._events = list(self._events)
        return twin

    def to_bytes(self) -> bytes:
        return self.position.to_bytes()

    def to_replay(self) -> dict:
        """The replay file of the moves played (replay.py), translated so that the
        smallest row and column are 0.

        :raises ValueError: if the state was not created with ``record=True``.
        """
        if self._record is None:
            raise ValueError("this state keeps no record: create it with new_state(record=True)")
        rows = [square[0] for _, square in self._record] or [0]
        cols = [square[1] for _, square in self._record] or [0]
        r0, c0 = min(rows), min(cols)
        return {
            "game": GAME_TYPE.name,
            "rules": self._game.rules.overrides(),
            "script": [{"piece": piece, "at": [r - r0, c - c0]} for piece, (r, c) in self._record],
        }

    def __reduce__(self):
        return (_restore, (self._game.rules.to_dict(), self.to_bytes(), self._record, self._anchor))

    def __repr__(self) -> str:
        return f"DohState({self.summary()!r}, result={self.result()!r})"


def _restore(rules: dict, data: bytes, record: Any, anchor: Any) -> DohState:
    state = DohGame(DohRules.from_dict(rules)).state_from_bytes(data)
    state._record = None if record is None else list(record)
    state._anchor = anchor
    return state


def make_game(rules: Optional[Mapping[str, Any]] = None) -> DohGame:
    """The registry's entry: Tic Tac Doh with these rule overrides."""
    return DohGame.make(rules)


def play_matches(
    rules: Any, x_bot: str, o_bot: str, seeds: np.ndarray, opening: Optional[str] = None
) -> Dict[str, np.ndarray]:
    """Whole two-player games between two named bots, natively: a shortcut of
    :func:`.bots.play_matches` (one bot a seat, any number of players), with its
    columns. ``rules``: a DohRules, a mapping of overrides, or None; ``opening``: a
    fixed first piece (``"S"``, ``"M"``, ``"L"``; None: the first bot's choice)."""
    if rules is None or not isinstance(rules, DohRules):
        rules = DohRules.from_dict(rules or {})
    return _bots.play_matches(rules, (x_bot, o_bot), seeds, opening)
