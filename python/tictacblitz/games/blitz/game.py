"""Tic Tac Blitz on the platform's protocol: :class:`BlitzGame` and :class:`BlitzState`.

A thin adapter over the native :class:`~tictacblitz.games.blitz.Match`: actions are the
integer codes of :mod:`.encoding`, rejections the R7 reason strings, time moves with
``advance`` (R1). A match spans rounds (R21, R22): when a round has ended and the match
goes on, the next ``advance`` starts the next round (R21's reset) before any time
passes, and ``next_decision_t`` is then 0.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ..base import GameBase, StateBase, check_seat
from ..protocol import GameType, ReplayError, TimeModel
from . import Match
from .bots import BOT_NAMES
from .bots import make_bot as make_native_bot
from .encoding import WAIT, action_code, decode_action, num_actions
from .rules import Rules
from .scenario import load_scenario, run_scenario
from .types import ActionKind, Player, Reason

__all__ = ["GAME_TYPE", "BlitzGame", "BlitzState", "make_game"]

GAME_TYPE = GameType(
    name="blitz",
    long_name="Tic Tac Blitz",
    time_model=TimeModel.REAL_TIME,
    seeded=True,  # R23: powerup spawns and the R3 coin
    reasons=tuple(reason.value for reason in Reason),  # the contract's checking order
)


def _seat(player: object) -> Player:
    return Player(check_seat(player))


class BlitzGame(GameBase):
    """Tic Tac Blitz with one rules configuration."""

    type = GAME_TYPE
    rules_type = Rules

    @property
    def num_actions(self) -> int:
        return num_actions(self._rules)

    @property
    def observation_shape(self) -> Tuple[int, ...]:
        return (12, self._rules.size, self._rules.size)

    def new_state(self, seed: int = 0, *, record: bool = False) -> "BlitzState":
        state = BlitzState(self, Match(self._rules, seed=seed, record=record))
        state._collect()  # R21: the first round's start
        return state

    def state_from_bytes(self, data: bytes) -> "BlitzState":
        match = Match.from_bytes(data)
        game = self if match.rules == self._rules else BlitzGame(match.rules)
        return BlitzState(game, match)

    def action_to_string(self, action: int) -> str:
        decoded = decode_action(action, self._rules.size)
        return "wait" if decoded is None else str(decoded)

    @property
    def bot_names(self) -> Tuple[str, ...]:
        return BOT_NAMES

    def make_bot(self, name: str, seed: int = 0) -> "BlitzBot":
        return BlitzBot(name, seed)

    def replay(self, data: Any, *, engine: str = "native") -> Dict[str, Any]:
        if engine not in ("native", "reference"):
            raise ValueError(f"engine must be 'native' or 'reference', not {engine!r}")
        factory: Callable[..., Any]
        if engine == "reference":
            from .reference import ReferenceMatch

            factory = ReferenceMatch
        else:
            factory = Match
        try:
            return run_scenario(load_scenario(data), factory)
        except (TypeError, ValueError) as exc:
            raise ReplayError(str(exc)) from None


class BlitzState(StateBase):
    """One match of Tic Tac Blitz behind the protocol (``match`` is the native one)."""

    def __init__(self, game: BlitzGame, match: Match) -> None:
        self._game = game
        self.match = match
        self._events: List[Dict[str, Any]] = []

    # -- reading ---------------------------------------------------------------------------
    @property
    def game(self) -> BlitzGame:
        return self._game

    @property
    def t(self) -> int:
        return self.match.t

    def to_move(self) -> Tuple[int, ...]:
        return () if self.match.match_over else (0, 1)  # R2: both players act in real time

    def legal_mask(self, player: int) -> np.ndarray:
        seat = _seat(player)
        mask = np.zeros(self._game.num_actions, dtype=bool)
        mask[WAIT] = not self.match.match_over
        if self.match.acted_this_ms(Player.X) or self.match.acted_this_ms(Player.O):
            return mask  # one action per seat per ms, both at one ms together (R3)
        cells = self._game.rules.cells
        size = self._game.rules.size
        for offset, kind in ((1, ActionKind.PLACE), (1 + cells, ActionKind.KNOCKOUT)):
            for row, col in self.match.legal_cells(seat, kind):
                mask[offset + row * size + col] = True
        return mask

    def legal_actions(self, player: int) -> List[int]:
        codes: List[int] = np.flatnonzero(self.legal_mask(player)).tolist()
        return codes

    def is_over(self) -> bool:
        return self.match.match_over

    def winner(self) -> Optional[int]:
        result = self.match.match_result
        return None if result is None else int(result)  # None: a draw or not over

    def observation(self, player: int) -> np.ndarray:
        return self.match.planes(_seat(player))

    def summary(self) -> Dict[str, Any]:
        return self.match.state_dict()

    def next_decision_t(self) -> Optional[int]:
        """The next ms at which something is timed or a charge fills (R2, R4); 0 when a
        round has ended and the next one is to start; None once the match is over."""
        match = self.match
        if match.match_over:
            return None
        if match.round_over:
            return 0
        nxt = match.next_event_t()
        for seat in Player:
            status = match.status(seat)
            if not status.charge_full:
                nxt = status.charge_ready_t if nxt is None else min(nxt, status.charge_ready_t)
        return nxt

    # -- changing --------------------------------------------------------------------------
    def apply(self, player: int, action: int) -> Optional[str]:
        seat = _seat(player)
        decoded = decode_action(action, self._game.rules.size)
        if decoded is None:
            return None
        reason = self.match.act(seat, decoded)
        self._collect()
        return None if reason is None else reason.value

    def apply_joint(self, actions: Sequence[Optional[int]]) -> Tuple[Optional[str], ...]:
        if len(actions) != 2:
            raise ValueError(f"a joint action has one entry per seat, not {len(actions)}")
        size = self._game.rules.size
        x, o = (None if a is None else decode_action(a, size) for a in actions)
        results = self.match.act_both(x, o)
        self._collect()
        return tuple(None if r is None else r.value for r in results)

    def advance(self, ms: int) -> None:
        """Let ``ms`` pass (R1); a round that has ended first gives way to the next."""
        if isinstance(ms, bool) or not isinstance(ms, (int, np.integer)):
            raise TypeError(f"ms must be an integer, not {ms!r}")
        if ms < 0:
            raise ValueError(f"ms must be >= 0, not {ms}")
        if self.match.round_over and not self.match.match_over:
            self.match.start_next_round()
            self._collect()
        self.match.advance(int(ms))
        self._collect()

    def clone(self) -> "BlitzState":
        twin = BlitzState(self._game, self.match.clone())
        twin._events = list(self._events)
        return twin

    def to_bytes(self) -> bytes:
        return self.match.to_bytes()

    def drain_events(self) -> List[Dict[str, Any]]:
        out, self._events = self._events, []
        return out

    def to_replay(self) -> Dict[str, Any]:
        return self.match.to_scenario()

    def _collect(self) -> None:
        self._events.extend(e.to_dict() for e in self.match.events)

    def __reduce__(self) -> Tuple[Any, ...]:
        return (self._game.state_from_bytes, (self.to_bytes(),))

    def __repr__(self) -> str:
        return f"BlitzState({self.match!r})"


class BlitzBot:
    """A Blitz bot (docs/bots.md) behind the protocol's ``Bot``: it answers with an
    action code, or None while it waits (charging, or its reaction delay, R5)."""

    def __init__(self, name: str, seed: int = 0) -> None:
        self.name = name
        self.bot = make_native_bot(name, seed=seed)
        self.wake_t: Optional[int] = None
        """After ``choose``: the ms of this round at which to ask again."""

    def choose(self, state: BlitzState, player: int) -> Optional[int]:
        decision = self.bot.decide(state.match, _seat(player))
        self.wake_t = decision.next_t
        if decision.action is None:
            return None
        return action_code(decision.action, state.game.rules.size)


def make_game(rules: Optional[Mapping[str, Any]] = None) -> BlitzGame:
    """The registry's entry: Tic Tac Blitz with these rule overrides."""
    return BlitzGame.make(rules)
