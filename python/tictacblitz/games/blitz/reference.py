"""The pure-Python reference model of Tic Tac Blitz: the oracle of the rules contract.

:class:`ReferenceMatch` implements docs/blitz.md (R1..R23) and docs/engine.md literally and
plainly: the board is a dict of marks, craters and powerups keyed by cell number, every
player's marks are kept in a list oldest first, and time moves from one timed event to
the next.  It is written to be read, not to be fast; the native engine (``_engine``) has
the same public surface and is tested against it event for event.

Invariant: the match always sits at some ms ``t`` of its round with everything timed at
``t`` done (R2 steps 1-5); actions given now happen at ``t``, after those steps.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import lru_cache
from typing import Dict, List, Optional, Sequence, Set, Tuple

from ..rng import SplitMix64 as _SplitMix64
from ..rng import check_seed
from .rules import Rules
from .streams import (
    DEFAULT_STREAM,
    PURPOSE_CELL,
    PURPOSE_COIN,
    PURPOSE_KIND,
    PURPOSE_TIME,
    base_keys,
    check_stream,
    purpose_key,
)
from .types import (
    Action,
    ActionKind,
    Cell,
    Event,
    EventKind,
    Player,
    PlayerStatus,
    PowerupKind,
    Reason,
    RoundEnd,
    RoundRecord,
    index_cell,
    parse_cell,
)

__all__ = ["ReferenceMatch", "SplitMix64", "windows"]


class SplitMix64(_SplitMix64):
    """R23: the match's one seeded random stream (docs/engine.md, "The random stream"):
    the platform's SplitMix64 (``games/rng.py``) with Blitz's meaning of its draws."""

    __slots__ = ()

    def coin(self) -> Player:
        """R3: who of two simultaneous actions goes first."""
        return Player(super().coin())

    def kind(self, weights: Sequence[float]) -> PowerupKind:
        """R14: a powerup kind drawn with ``weights`` (in PowerupKind order)."""
        return PowerupKind(self.weighted(weights))


@lru_cache(maxsize=None)
def windows(size: int, line_length: int) -> Tuple[Tuple[int, ...], ...]:
    """R11: every window as its ascending tuple of cell numbers, lowest first (R10).

    From each start cell in ascending order, the steps across (1), down-left
    (size - 1), down (size) and down-right (size + 1): so the first complete window
    found in this order is the one R10 reports.
    """
    reach = line_length - 1
    found = []
    for start in range(size * size):
        row, col = index_cell(start, size)
        # (column step, cell-number step) in ascending cell-number step order.
        for dcol, step in ((1, 1), (-1, size - 1), (0, size), (1, size + 1)):
            down = 0 if step == 1 else 1
            if row + down * reach < size and 0 <= col + dcol * reach < size:
                found.append(tuple(start + i * step for i in range(line_length)))
    return tuple(found)


def _touching(index: int, size: int) -> List[int]:
    """R17: the (up to) 8 cells around a cell, in ascending order."""
    row, col = index_cell(index, size)
    return [
        r * size + c
        for r in range(row - 1, row + 2)
        for c in range(col - 1, col + 2)
        if (r, c) != (row, col) and 0 <= r < size and 0 <= c < size
    ]


@dataclass
class _Mark:
    """A mark on the board: its owner and whether it has set (R6, R8)."""

    owner: Player
    sets_at: int  # the ms it sets (meaningless once set)
    is_set: bool


@dataclass
class _Powerup:
    kind: PowerupKind
    until: int  # R16: the ms it burns out


class ReferenceMatch:
    """A whole match, per docs/blitz.md and docs/engine.md (see the module docstring).

    :param rules: the rules configuration (defaults when None).
    :param seed: the random stream (R23).
    :param setup: round 1's starting board, ``size`` strings of ``X``/``O``/``.`` (set
        marks, older than every mark made in play, in reading order for R12).
    :param random_powerups: False for scripted powerups (:meth:`spawn_powerup`), R16 off.
    :param stream: the random stream layout (docs/engine.md): 2 for new matches, 1 for
        files recorded without a ``stream`` field.
    :raises TypeError, ValueError: for a malformed argument.
    """

    def __init__(
        self,
        rules: Optional[Rules] = None,
        *,
        seed: int = 0,
        setup: Optional[Sequence[str]] = None,
        random_powerups: bool = True,
        stream: int = DEFAULT_STREAM,
    ) -> None:
        if rules is None:
            rules = Rules()
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, not {type(rules).__name__}")
        check_seed(seed)
        if not isinstance(random_powerups, bool):
            raise TypeError(f"random_powerups must be a bool, not {random_powerups!r}")
        check_stream(stream)
        setup_marks = rules.setup_marks(setup) if setup is not None else []

        self.rules = rules
        self.seed = seed
        self.random_powerups = random_powerups
        self.stream = stream
        # Layout 1: this one stream for everything. Layout 2: a key per purpose; _rng is
        # then the current round's spawn-time stream (set in _begin_round).
        self._rng = SplitMix64(seed)
        self._keys = base_keys(seed)
        self._spawn_index = 0
        # docs/engine.md: R16 is off for scripted powerups or when no spawn can exist.
        self._random_spawns = random_powerups and rules.random_spawns
        self._windows = windows(rules.size, rules.line_length)
        self._wins = [0, 0]
        self.rounds: List[RoundRecord] = []
        self.match_over = False
        self.match_result: Optional[Player] = None
        self.round = 0
        self.events: List[Event] = []
        self._begin_round(setup_marks)

    # -- public state -------------------------------------------------------------------

    @property
    def round_wins(self) -> Tuple[int, int]:
        return (self._wins[Player.X], self._wins[Player.O])

    def board_text(self) -> List[str]:
        """The board in docs/replay-format.md letters, one string per row."""
        size = self.rules.size
        letters = []
        for index in range(size * size):
            if index in self._marks:
                mark = self._marks[index]
                letter = mark.owner.letter
                letters.append(letter if mark.is_set else letter.lower())
            elif index in self._craters:
                letters.append("#")
            elif index in self._powerups:
                letters.append(self._powerups[index].kind.letter)
            else:
                letters.append(".")
        text = "".join(letters)
        return [text[row * size : (row + 1) * size] for row in range(size)]

    def status(self, player: object) -> PlayerStatus:
        """What ``player``'s panel shows (R4, R5, R12, R18, R19)."""
        p = Player.parse(player)  # type: ignore[arg-type]
        need, units = self._need[p], self._units[p]
        age = self._age[p]
        return PlayerStatus(
            charge_full=units >= need,
            charge_progress=1.0 if need == 0 else min(1.0, units / need),
            charge_ready_t=self._charge_ready_t(p),
            charge_full_since=self._full_since[p] if units >= need else None,
            marks=len(age),
            # R12: the next mark to go is known while the player is at the limit.
            next_to_retire=(
                index_cell(age[0], self.rules.size) if len(age) >= self.rules.mark_limit else None
            ),
            frozen=self._frozen_until[p] is not None,
            hasted=self._hasted_until[p] is not None,
            frozen_until=self._frozen_until[p],
            hasted_until=self._hasted_until[p],
            round_wins=self._wins[p],
        )

    def state_dict(self) -> dict:
        """The docs/replay-format.md state object (with the extra PlayerStatus keys)."""
        return {
            "round": self.round,
            "t": self.t,
            "board": self.board_text(),
            "X": self.status(Player.X).to_dict(),
            "O": self.status(Player.O).to_dict(),
        }

    def clone(self) -> "ReferenceMatch":
        """A deep copy (sharing only the immutable rules)."""
        return copy.deepcopy(self, {id(self.rules): self.rules})

    # -- actions ------------------------------------------------------------------------

    def act(self, player: object, action: Action) -> Optional[Reason]:
        """One player's action at ``t``: None if accepted, else the R7 reason.

        :raises TypeError, ValueError: for a malformed player or action, or a second
            action at this ms (docs/engine.md, "One action per player per ms").
        """
        p = Player.parse(player)  # type: ignore[arg-type]
        index = self._parse_action(action)
        self._claim_ms([p])
        self.events = []
        return self._apply(p, action.kind, index)

    def act_both(
        self, x_action: Optional[Action], o_action: Optional[Action]
    ) -> Tuple[Optional[Reason], Optional[Reason]]:
        """Both players act at ``t``; in a live round the R3 coin orders them.

        ``None`` for a seat means it does not act: with one action this is :meth:`act`
        (no coin), with none it does nothing.

        :returns: ``(X's reason, O's reason)``, None for an accepted or absent action.
        """
        if x_action is None or o_action is None:
            return self._act_one_or_none(x_action, o_action)
        indices = {Player.X: self._parse_action(x_action), Player.O: self._parse_action(o_action)}
        actions = {Player.X: x_action, Player.O: o_action}
        self._claim_ms([Player.X, Player.O])
        self.events = []
        # R3: the coin is drawn only when the round is live.
        first = self._coin() if not self.round_over else Player.X
        reasons: Dict[Player, Optional[Reason]] = {}
        for p in (first, first.other):
            # R3: the second is checked against the state the first left.
            reasons[p] = self._apply(p, actions[p].kind, indices[p])
        return reasons[Player.X], reasons[Player.O]

    def _coin(self) -> Player:
        """R3's coin: the next draw (layout 1) or the hash of (round, t) (layout 2)."""
        if self.stream == 1:
            return self._rng.coin()
        word = purpose_key(self._keys[PURPOSE_COIN], self.round, self.t)
        return Player.X if word >> 63 == 0 else Player.O

    def _act_one_or_none(
        self, x_action: Optional[Action], o_action: Optional[Action]
    ) -> Tuple[Optional[Reason], Optional[Reason]]:
        if x_action is not None:
            return self.act(Player.X, x_action), None
        if o_action is not None:
            return None, self.act(Player.O, o_action)
        self.events = []
        return None, None

    def spawn_powerup(self, kind: object, cell: object) -> bool:
        """A scripted powerup at ``t`` (R2 step 4 with ``random_powerups=False``).

        It ignores ``powerup_max`` and is skipped (False) if the cell holds a mark, a
        crater or a powerup, the round is over, or ``powerup_ms`` is 0 (R19).

        :raises ValueError: with random powerups on, or after an action at this ms (a
            spawn comes before the actions of its ms, R2).
        """
        if self.random_powerups:
            raise ValueError("spawn_powerup needs a match created with random_powerups=False")
        powerup = PowerupKind.parse(kind)  # type: ignore[arg-type]
        index = self._index(parse_cell(cell, self.rules.size))
        if self._acted and not self.round_over:
            raise ValueError(
                f"spawn_powerup at t={self.t} after an action at that ms: "
                "spawns come before actions (R2 step 4)"
            )
        self.events = []
        if self.round_over or self.rules.powerup_ms == 0 or not self._is_empty(index):
            return False
        self._put_powerup(powerup, index)
        return True

    # -- time ---------------------------------------------------------------------------

    def advance(self, ms: int) -> None:
        """Move time on by ``ms`` (R1); a round that ends stops the clock."""
        if isinstance(ms, bool) or not isinstance(ms, int):
            raise TypeError(f"ms must be an integer, not {ms!r}")
        if ms < 0:
            raise ValueError(f"ms must be >= 0, not {ms}")
        self.advance_to(self.t + ms)

    def advance_to(self, t: int) -> None:
        """Move time on to ms ``t`` of this round, running every timed event on the way.

        :raises ValueError: for a ``t`` before the current one.
        """
        if isinstance(t, bool) or not isinstance(t, int):
            raise TypeError(f"t must be an integer, not {t!r}")
        if t < self.t:
            raise ValueError(f"cannot advance to t={t}: the match is already at t={self.t}")
        self.events = []
        # R1: jump from one timed event to the next; nothing happens between them.
        while not self.round_over:
            due = self.next_event_t()
            if due is None or due > t:
                break
            self._move_to(due)
            self._run_ms()
        if not self.round_over:
            self._move_to(t)

    def next_event_t(self) -> Optional[int]:
        """The next ms after ``t`` at which something timed happens in this round.

        Marks setting, craters clearing, powerups burning out, freeze and haste ending,
        a random spawn falling due, and ``round_ms``; None once the round is over.
        (A charge becoming full is not an event: see :meth:`status`.)
        """
        if self.round_over:
            return None
        due = [self.rules.round_ms]
        due += [m.sets_at for m in self._marks.values() if not m.is_set]
        due += list(self._craters.values())
        due += [pu.until for pu in self._powerups.values()]
        due += [u for u in self._frozen_until + self._hasted_until if u is not None]
        if self._random_spawns:
            due.append(self._spawn_due)
        return min(due)

    def advance_to_next_event(self) -> None:
        """Advance to :meth:`next_event_t` (does nothing once the round is over)."""
        due = self.next_event_t()
        if due is None:
            self.events = []
        else:
            self.advance_to(due)

    def start_next_round(self) -> None:
        """R21: a fresh round after one that ended, while the match is not decided.

        :raises ValueError: if the round is still live or the match is over.
        """
        if not self.round_over:
            raise ValueError(f"round {self.round} is not over")
        if self.match_over:
            raise ValueError("the match is over")
        self.events = []
        self._begin_round([])

    # -- rounds -------------------------------------------------------------------------

    def _begin_round(self, setup_marks: List[Tuple[int, Player]]) -> None:
        """R21: reset everything but the round wins, then run ms 0 (docs/engine.md)."""
        self.round += 1
        self.t = 0
        self.round_over = False
        self._marks: Dict[int, _Mark] = {}
        self._age: List[List[int]] = [[], []]  # R12: cells, oldest first
        self._craters: Dict[int, int] = {}  # cell -> the ms it clears
        self._powerups: Dict[int, _Powerup] = {}
        self._frozen_until: List[Optional[int]] = [None, None]
        self._hasted_until: List[Optional[int]] = [None, None]
        self._units = [0, 0]  # R4: full charges (need 0)
        self._need = [0, 0]
        self._full_since = [0, 0]  # the ms each charge became full
        self._acted: Set[Player] = set()
        # Setup marks are set and older than every play mark, in reading order (R12).
        for index, owner in setup_marks:
            self._marks[index] = _Mark(owner, 0, True)
            self._age[owner].append(index)
        self._emit(EventKind.ROUND_STARTED)
        self._spawn_index = 0
        if self.stream == 2:
            self._rng = SplitMix64(purpose_key(self._keys[PURPOSE_TIME], self.round, 0))
        if self._random_spawns:
            self._spawn_due = self._spawn_gap()
        self._run_ms()

    def _run_ms(self) -> None:
        """R2: the timed steps of ms ``t``, stopping as soon as the round ends."""
        self._set_due_marks()  # step 1
        if self._check_lines():  # step 2
            return
        self._expire()  # step 3
        self._spawn_random()  # step 4
        if self.t == self.rules.round_ms:  # step 5
            self._end_round_by_timeout()

    def _set_due_marks(self) -> None:
        """R2 step 1 / R6: marks whose setting ends now become set, ascending cell."""
        for index in sorted(self._marks):
            mark = self._marks[index]
            if not mark.is_set and mark.sets_at == self.t:
                mark.is_set = True
                self._emit(EventKind.SET, player=mark.owner, cell=index)

    def _check_lines(self) -> bool:
        """R10: a player with a complete line of set marks wins; both at once draw."""
        lines = [self._first_line(Player.X), self._first_line(Player.O)]
        if lines[0] is not None and lines[1] is not None:
            self._end_round(None, RoundEnd.DOUBLE_LINE)
        elif lines[0] is not None or lines[1] is not None:
            winner = Player.X if lines[0] is not None else Player.O
            cells = tuple(index_cell(i, self.rules.size) for i in lines[winner])  # type: ignore[union-attr]
            self._end_round(winner, RoundEnd.LINE, line=cells)
        return self.round_over

    def _first_line(self, player: Player) -> Optional[Tuple[int, ...]]:
        """R10: ``player``'s lowest window of set marks, if any."""
        for window in self._windows:
            if all(self._is_set_mark_of(i, player) for i in window):
                return window
        return None

    def _expire(self) -> None:
        """R2 step 3: craters, then powerups, then freezes and hastes (X, O) ending now."""
        for index in sorted(self._craters):
            if self._craters[index] == self.t:
                del self._craters[index]
                self._emit(EventKind.CRATER_CLEARED, cell=index)
        for index in sorted(self._powerups):
            powerup = self._powerups[index]
            if powerup.until == self.t:
                del self._powerups[index]
                self._emit(EventKind.POWERUP_BURNED_OUT, cell=index, powerup=powerup.kind)
        for p in Player:
            if self._frozen_until[p] == self.t:
                self._frozen_until[p] = None
                self._emit(EventKind.FREEZE_ENDED, player=p)
        for p in Player:
            if self._hasted_until[p] == self.t:
                self._hasted_until[p] = None
                self._emit(EventKind.HASTE_ENDED, player=p)

    def _spawn_random(self) -> None:
        """R2 step 4 / R16: every random spawn due now (a gap of 0 spawns again now)."""
        if not self._random_spawns:
            return
        while self._spawn_due == self.t:
            free = [i for i in range(self.rules.cells) if self._is_empty(i)]
            if len(self._powerups) < self.rules.powerup_max and free:
                if self.stream == 1:
                    index = free[self._rng.below(len(free))]
                    self._put_powerup(self._rng.kind(self.rules.weights), index)
                else:
                    self._put_powerup(self._spawn_kind(), self._spawn_cell())
            self._spawn_index += 1
            self._spawn_due += self._spawn_gap()

    def _spawn_cell(self) -> int:
        """Layout 2: the spawn's cell stream proposes cells until one is empty."""
        key = purpose_key(self._keys[PURPOSE_CELL], self.round, self._spawn_index)
        draws = SplitMix64(key)
        while True:
            index = draws.below(self.rules.cells)
            if self._is_empty(index):
                return index

    def _spawn_kind(self) -> PowerupKind:
        """Layout 2: the spawn's kind stream draws one kind."""
        key = purpose_key(self._keys[PURPOSE_KIND], self.round, self._spawn_index)
        return SplitMix64(key).kind(self.rules.weights)

    def _spawn_gap(self) -> int:
        """R16: U(spawn_min_ms, spawn_max_ms), integer ms."""
        rules = self.rules
        return rules.spawn_min_ms + self._rng.below(rules.spawn_max_ms - rules.spawn_min_ms + 1)

    def _put_powerup(self, kind: PowerupKind, index: int) -> None:
        until = self.t + self.rules.powerup_ms
        self._powerups[index] = _Powerup(kind, until)
        self._emit(EventKind.POWERUP_SPAWNED, cell=index, powerup=kind, until=until)

    def _end_round_by_timeout(self) -> None:
        """R20: the higher timeout score wins the round; equal scores draw."""
        scores = (self._timeout_score(Player.X), self._timeout_score(Player.O))
        winner = None
        if scores[0] != scores[1]:
            winner = Player.X if scores[0] > scores[1] else Player.O
        self._end_round(winner, RoundEnd.TIMEOUT, scores=scores)

    def _timeout_score(self, player: Player) -> int:
        """R20: over windows free of set opponent marks, the most set marks of ``player``."""
        best = 0
        for window in self._windows:
            if any(self._is_set_mark_of(i, player.other) for i in window):
                continue
            best = max(best, sum(1 for i in window if self._is_set_mark_of(i, player)))
        return best

    def _end_round(
        self,
        winner: Optional[Player],
        by: RoundEnd,
        *,
        line: Optional[Tuple[Cell, ...]] = None,
        scores: Optional[Tuple[int, int]] = None,
    ) -> None:
        """Stop the clock, record the round, and decide the match if it is over (R22)."""
        self.round_over = True
        self.rounds.append(RoundRecord(self.round, winner, by, self.t, line, scores))
        self._emit(EventKind.ROUND_OVER, result=winner, by=by, line=line, scores=scores)
        if winner is not None:
            self._wins[winner] += 1
        rules = self.rules
        if winner is not None and self._wins[winner] >= rules.rounds_to_win:
            self._end_match(winner)
        elif self.round >= rules.max_rounds:
            x, o = self._wins
            self._end_match(None if x == o else (Player.X if x > o else Player.O))

    def _end_match(self, winner: Optional[Player]) -> None:
        self.match_over = True
        self.match_result = winner
        self._emit(EventKind.MATCH_OVER, result=winner)

    # -- one action ---------------------------------------------------------------------

    def _apply(self, player: Player, kind: ActionKind, index: int) -> Optional[Reason]:
        """R7: reject with the first reason that applies, else carry the action out."""
        reason = self._rejection(player, kind, index)
        if reason is not None:
            self._emit(EventKind.REJECTED, player=player, cell=index, reason=reason)
            return reason
        if kind == ActionKind.PLACE:
            self._place(player, index)
        else:
            self._knock_out(player, index)
        return None

    def _rejection(self, player: Player, kind: ActionKind, index: int) -> Optional[Reason]:
        """R7: the reasons in their order of precedence."""
        if self.round_over:
            return Reason.ROUND_OVER
        if self._units[player] < self._need[player]:  # R4
            return Reason.NOT_CHARGED
        mark = self._marks.get(index)
        if kind == ActionKind.PLACE:
            if mark is not None:  # R6
                return Reason.OCCUPIED
            if index in self._craters:  # R9
                return Reason.CRATER
            return None
        if mark is None or mark.owner == player:  # R9
            return Reason.NOT_OPPONENT_MARK
        if mark.is_set:  # R8, R9
            return Reason.ALREADY_SET
        return None

    def _place(self, player: Player, index: int) -> None:
        """docs/engine.md "An action, step by step": an accepted placement."""
        rules = self.rules
        self._empty_charge(player, rules.recharge_place_ms)  # 1. R4, R5
        self._land(player, index, EventKind.PLACED)  # 2. R6
        powerup = self._powerups.pop(index, None)  # 3. R15
        if powerup is not None:
            self._emit(EventKind.POWERUP_CLAIMED, player=player, cell=index, powerup=powerup.kind)
            self._trigger(player, index, powerup.kind)
        while len(self._age[player]) > rules.mark_limit:  # 4. R12, R13
            oldest = self._age[player].pop(0)
            del self._marks[oldest]
            self._emit(EventKind.RETIRED, player=player, cell=oldest)
        if rules.set_ms == 0:  # 5. R10
            self._check_lines()

    def _land(self, player: Player, index: int, kind: EventKind) -> None:
        """A mark becomes ``player``'s newest, setting for set_ms (R6, R12, R17).

        ``kind`` is PLACED or STOLEN; with ``set_ms == 0`` the mark is set at once.
        """
        sets_at = self.t + self.rules.set_ms
        self._marks[index] = _Mark(player, sets_at, False)
        self._age[player].append(index)
        self._emit(kind, player=player, cell=index, until=sets_at)
        if self.rules.set_ms == 0:
            self._marks[index].is_set = True
            self._emit(EventKind.SET, player=player, cell=index)

    def _trigger(self, player: Player, index: int, kind: PowerupKind) -> None:
        """R17-R19: a claimed powerup's effect."""
        rules = self.rules
        opponent = player.other
        touching_marks = [
            i
            for i in _touching(index, rules.size)
            if i in self._marks and self._marks[i].owner == opponent
        ]
        if kind == PowerupKind.BOMB:
            # R17: every touching opponent mark, set or setting, without craters.
            for i in touching_marks:
                self._remove_mark(i)
                self._emit(EventKind.BOMBED, player=opponent, cell=i)
        elif kind == PowerupKind.SWAP:
            # R17: set marks first, then oldest first; stolen marks become the
            # claimer's newest, in the order they are stolen, and set again.
            age = self._age[opponent]
            order = sorted(touching_marks, key=lambda i: (not self._marks[i].is_set, age.index(i)))
            for i in order[: rules.swap_max]:
                self._remove_mark(i)
                self._land(player, i, EventKind.STOLEN)
        elif kind == PowerupKind.FREEZE:
            # R18: restarts a running freeze; a duration of 0 is no effect (R19).
            if rules.freeze_ms > 0:
                self._frozen_until[opponent] = self.t + rules.freeze_ms
                self._emit(
                    EventKind.FREEZE_STARTED, player=opponent, until=self.t + rules.freeze_ms
                )
        elif rules.haste_ms > 0:
            # R19: haste, likewise no stacking.
            self._hasted_until[player] = self.t + rules.haste_ms
            self._emit(EventKind.HASTE_STARTED, player=player, until=self.t + rules.haste_ms)

    def _knock_out(self, player: Player, index: int) -> None:
        """R9: the setting mark goes and leaves a crater for crater_ms (none if 0)."""
        self._empty_charge(player, self.rules.recharge_knockout_ms)
        self._remove_mark(index)
        until = None
        if self.rules.crater_ms > 0:
            until = self.t + self.rules.crater_ms
            self._craters[index] = until
        self._emit(EventKind.KNOCKED_OUT, player=player, cell=index, until=until)

    def _remove_mark(self, index: int) -> None:
        mark = self._marks.pop(index)
        self._age[mark.owner].remove(index)

    # -- charge (R4, R5) ------------------------------------------------------------------

    def _empty_charge(self, player: Player, recharge_ms: int) -> None:
        self._units[player] = 0
        self._need[player] = self.rules.refill_need(recharge_ms)
        self._full_since[player] = self.t  # a refill of 0 ms is full at once

    def _rate(self, frozen: bool, hasted: bool) -> int:
        """R5: units per ms: normal, frozen, hasted, both (speed_units order)."""
        return self.rules.speed_units[int(frozen) + 2 * int(hasted)]

    def _move_to(self, t: int) -> None:
        """Let the charges fill over ``[self.t, t)``, where no effect starts or ends."""
        for p in Player:
            rate = self._rate(self._frozen_until[p] is not None, self._hasted_until[p] is not None)
            missing = self._need[p] - self._units[p]
            if 0 < missing <= rate * (t - self.t):
                # R5: full at the first ms whose gathered units reach the need.
                self._full_since[p] = self.t + -(-missing // rate)
            self._units[p] = min(self._need[p], self._units[p] + rate * (t - self.t))
        if t != self.t:
            self._acted = set()
        self.t = t

    def _charge_ready_t(self, player: Player) -> int:
        """The first ms at which the charge is full if no new effect starts (R5).

        Scheduled freeze and haste ends change the rate on the way.
        """
        missing = self._need[player] - self._units[player]
        t = self.t
        frozen_until, hasted_until = self._frozen_until[player], self._hasted_until[player]
        while missing > 0:
            rate = self._rate(frozen_until is not None, hasted_until is not None)
            change = min((u for u in (frozen_until, hasted_until) if u is not None), default=None)
            if change is None or rate * (change - t) >= missing:
                return t + -(-missing // rate)  # the first ms with the units gathered
            missing -= rate * (change - t)
            t = change
            frozen_until = None if frozen_until == change else frozen_until
            hasted_until = None if hasted_until == change else hasted_until
        return t

    # -- helpers ------------------------------------------------------------------------

    def _emit(self, kind: EventKind, *, cell: Optional[int] = None, **fields: object) -> None:
        """Record an event of this round at ``t`` (``cell`` given as a cell number)."""
        position = index_cell(cell, self.rules.size) if cell is not None else None
        self.events.append(Event(self.round, self.t, kind, cell=position, **fields))  # type: ignore[arg-type]

    def _is_set_mark_of(self, index: int, player: Player) -> bool:
        mark = self._marks.get(index)
        return mark is not None and mark.owner == player and mark.is_set

    def _is_empty(self, index: int) -> bool:
        """No mark, no crater, no powerup (R16 and scripted spawns)."""
        return (
            index not in self._marks and index not in self._craters and index not in self._powerups
        )

    def _index(self, cell: Cell) -> int:
        return cell[0] * self.rules.size + cell[1]

    def _parse_action(self, action: object) -> int:
        """R7: a malformed action is an error at the API boundary; returns its cell number."""
        if not isinstance(action, Action):
            raise TypeError(f"action must be an Action, not {action!r}")
        if not isinstance(action.kind, ActionKind):
            raise TypeError(f"action kind must be an ActionKind, not {action.kind!r}")
        return self._index(parse_cell(action.cell, self.rules.size))

    def _claim_ms(self, players: List[Player]) -> None:
        """docs/engine.md: at most one action per player per ms of a live round."""
        if self.round_over:
            return
        if self._acted:
            who = "/".join(p.letter for p in sorted(self._acted))
            raise ValueError(
                f"{who} already acted at round {self.round} t={self.t}: one action per player "
                "per ms, and simultaneous actions go through act_both"
            )
        self._acted.update(players)
