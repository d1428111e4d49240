"""Tic Tac Blitz on the server: the real-time adapter (``REAL_TIME``, rules R1-R23).

- **Clock**: game ms of the current round is ``now - epoch`` (``epoch``: the wall ms at
  the round's start, R1); every tick advances the state to that ms, every timed event
  at its exact ms, and the room's one timer is set on the next thing due: the state's
  ``next_event_t()`` (R2), a waiting intent (the next ms), a bot's reaction.
- **Intents**: ``act`` is ``{"action": "place"|"knockout", "cell": [row, col]}``, held as
  a code of the game's one action encoding (``games/blitz/encoding.py``). Intents of
  both seats in one ms go through ``apply_joint`` (R3, the seeded coin); an intent that
  finds somebody already acted in this ms waits for the next (one action per player per
  ms). A rejection goes to its sender with its R7 reason; a refused click is answered
  from ``Match.check`` without touching the engine, so it never grows the replay.
- **Events**: the engine's events (``Event.to_dict()``) become ``events`` messages with
  both seats' status; a :class:`TimerBook` keeps setting marks, craters and powerups
  with their end times for snapshots.
- **Bots**: the difficulty presets of ``tictacblitz.games.blitz.bots``: a seat's
  :class:`BotSeat` asks the preset's :class:`~tictacblitz.games.blitz.bots.NativeBot`
  when its reaction is due (``NativeBot.due_t``: ``reaction_ms`` after its charge filled,
  R5) and lets it decide on a clone of the match off the event loop, so thinking time
  counts as reaction time; the decision comes back as an intent.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Tuple

from ....games.blitz.bots import GUI_LEVELS, PRESETS
from ....games.blitz.bots import make_bot as make_native_bot
from ....games.blitz.encoding import action_code, decode_action
from ....games.blitz.types import Action, ActionKind, EventKind, Player, PowerupKind
from ....games.protocol import ReplayError, TimeModel
from ... import protocol as P
from ...adapter import GameAdapter, MatchSession, SessionHost
from .timers import TimerBook

__all__ = [
    "BlitzAdapter",
    "BlitzSession",
    "BotSeat",
    "TimerBook",
    "Intent",
    "BOT_LEVELS",
]

SEATS: Tuple[str, str] = (Player.X.letter, Player.O.letter)
BOT_LEVELS: Tuple[str, ...] = GUI_LEVELS
"""The difficulty levels a player may pick: presets of ``games/blitz/bots.PRESETS``."""
for _level in BOT_LEVELS:  # one source: a level is a preset, or the server fails to start
    if _level not in PRESETS:
        raise RuntimeError(f"bot level {_level!r} is not a preset of tictacblitz.games.blitz.bots")
ACTIONS = {kind.name.lower(): kind for kind in ActionKind}  # "place" (R6), "knockout" (R9)
VIEW = "/static/js/games/blitz/view.js"


class BotSeat:
    """A bot seat's driver: a preset's ``NativeBot`` plus what the server needs to drive
    it on the wall clock (whether it is thinking; when it may ask again)."""

    def __init__(self, level: str, seed: int) -> None:
        self.level = level
        self.native = make_native_bot(level, seed=seed)
        self.reaction_ms = self.native.spec.reaction_ms
        # Thinking (in the thread pool) until its decision is back; never cleared
        # otherwise, so one policy never thinks in two threads at once.
        self.busy = False
        self.reset()

    def reset(self) -> None:
        """A new round or match: no retry pending (a decision still out is dropped when
        it comes back, by the session's round check)."""
        self.not_before = 0  # after a refused intent or a decision to wait

    def due_t(self, match: Any, seat: int) -> Optional[int]:
        """The engine ms at which to let the bot decide next (None: nothing to do)."""
        if self.busy:
            return None
        due = self.native.due_t(match, seat)  # R5: its reaction after the charge filled
        return None if due is None else max(due, self.not_before)


@dataclass
class Intent:
    seat: int
    code: int  # games/blitz/encoding.py
    ref: Any = None
    conn: Any = None  # None for a bot


class BlitzSession(MatchSession):
    """One Blitz match of a room, in real time (see the module docstring)."""

    state: Any  # Blitz's State (games/blitz/game.py): its native match, advance

    def __init__(self, adapter: "BlitzAdapter", host: SessionHost, seed: int) -> None:
        self.host = host
        self.rules = adapter.game.rules
        self.size = self.rules.size
        self.retry_ms = adapter.settings.bot_retry_ms
        self.state = adapter.game.new_state(seed, record=True)
        self.match = self.state.match
        # Round 1's fresh board (R21) is made with the match, before the countdown: it is
        # shown when the round starts.
        self._start_events = self.state.drain_events()
        self.book = TimerBook()
        self.epoch = host.now_ms()
        self.pending: List[Intent] = []
        self.last_act: Optional[Tuple[int, int]] = None  # (round, t) of the last action
        self.closed = False

    # -- time ---------------------------------------------------------------------------------

    def engine_now(self) -> int:
        """The engine ms of the current round that the clock says it is (R1)."""
        now = int(math.floor(self.host.now_ms() - self.epoch))
        return max(self.match.t, min(now, self.rules.round_ms))

    def start(self) -> None:
        self.epoch = self.host.now_ms()
        self._emit(self._start_events)

    def next_round(self) -> None:
        self.epoch = self.host.now_ms()
        self.last_act = None
        for bot in self.host.bots:
            if bot is not None:
                bot.reset()
        self.state.advance(0)  # the protocol's way to R21's next round
        self._emit(self.state.drain_events())

    def tick(self) -> None:
        for _ in range(4):  # an inline bot's decision comes back as a pending intent
            now = self.engine_now()
            if now > self.match.t:
                self.state.advance(now - self.match.t)
                self._emit(self.state.drain_events())
                if not self.host.live:
                    return
            self._apply_pending()
            if not self.host.live:
                return
            if not self._poll_bots(now):
                break

    def wake_at(self) -> Optional[float]:
        match = self.match
        if not self.host.live or match.round_over:
            return None
        nxt = match.next_event_t()
        candidates = [nxt] if nxt is not None else [self.rules.round_ms]
        if self.pending:
            candidates.append(match.t + 1)
        for seat, bot in enumerate(self.host.bots):
            if bot is not None:
                due = bot.due_t(match, seat)
                if due is not None:
                    candidates.append(max(due, match.t + 1))
        return self.epoch + max(min(candidates), match.t + 1)

    # -- intents ------------------------------------------------------------------------------

    def intent(self, seat: int, fields: Mapping[str, Any], ref: Any, conn: Any) -> None:
        row, col = fields["cell"]
        if not (0 <= row < self.size and 0 <= col < self.size):
            raise P.ProtocolError(
                "bad_field", f"act.cell: [{row}, {col}] is off the {self.size}x{self.size} board"
            )
        action = Action(ACTIONS[fields["action"]], (row, col))
        intent = Intent(seat, action_code(action, self.size), ref, conn)
        if not self.host.live or self.match.round_over:
            conn.send(self._rejected(intent, "round_over"))
            return
        self.pending.append(intent)

    def _apply_pending(self) -> None:
        match = self.match
        # One action per player per ms: once anybody acted at this ms, the rest wait
        # for the next one (docs/engine.md). Both seats together go through apply_joint (R3).
        if not self.pending or self.last_act == (match.round, match.t):
            return
        firsts: Dict[int, Intent] = {}
        rest: List[Intent] = []
        for intent in self.pending:
            if intent.seat in firsts:
                rest.append(intent)
            else:
                firsts[intent.seat] = intent
        self.pending = rest
        x, o = firsts.get(0), firsts.get(1)
        if x is not None and o is not None:
            reasons = self.state.apply_joint([x.code, o.code])
            applied = [(x, reasons[0]), (o, reasons[1])]
        else:
            only = x if x is not None else o
            assert only is not None
            early = match.check(Player(only.seat), decode_action(only.code, self.size))
            if early is not None:
                # R7 says no without the engine: nothing changes, and a flood of refused
                # clicks does not grow the recorded script (the replay stays small).
                self._answer(only, early.value)
                return
            applied = [(only, self.state.apply(only.seat, only.code))]
        self.last_act = (match.round, match.t)
        self._emit(self.state.drain_events())
        for intent, reason in applied:
            if reason is not None:
                self._answer(intent, reason)

    def _answer(self, intent: Intent, reason: str) -> None:
        """A refused intent: its bot tries again next ms, its person hears why (R7)."""
        bot = self.host.bots[intent.seat]
        if bot is not None:
            bot.not_before = self.match.t + 1
        elif intent.conn is not None:
            intent.conn.send(self._rejected(intent, reason))

    def _rejected(self, intent: Intent, reason: str) -> Dict[str, Any]:
        action = decode_action(intent.code, self.size)
        assert action is not None  # an intent's code is a valid action of this board
        out = {
            "type": "rejected",
            "seat": SEATS[intent.seat],
            "action": action.kind.name.lower(),
            "cell": list(action.cell),
            "reason": reason,
            "round": self.match.round,
            "t": self.match.t,
        }
        if intent.ref is not None:
            out["ref"] = intent.ref
        return out

    # -- bots ---------------------------------------------------------------------------------

    def _poll_bots(self, now: int) -> bool:
        """Let the bots that are due decide; True if an inline decision added an intent."""
        added = False
        for seat, bot in enumerate(self.host.bots):
            if bot is None:
                continue
            due = bot.due_t(self.match, seat)
            if due is not None and due <= now:
                added |= self._ask(seat, bot)
        return added

    def _ask(self, seat: int, bot: BotSeat) -> bool:
        bot.busy = True
        round_ = self.match.round
        snapshot = self.match.clone()  # it thinks on a copy, off the loop
        waiting = [True]  # still inside run_job: the tick goes on
        added = [False]

        def done(decision: Any, error: Optional[BaseException]) -> None:
            bot.busy = False
            if self.closed or not self.host.live or self.match.round != round_:
                return
            if error is not None or decision.action is None:  # wait, then ask again
                bot.not_before = self.engine_now() + self.retry_ms
            else:
                self.pending.append(Intent(seat, action_code(decision.action, self.size)))
                added[0] = True
            if not waiting[0]:
                self.host.tick()

        self.host.run_job(lambda: bot.native.decide(snapshot, seat), done)
        waiting[0] = False
        return added[0]

    # -- what clients see ---------------------------------------------------------------------

    def _emit(self, events: List[Dict[str, Any]]) -> None:
        """Broadcast one engine step's events (not the R7 rejections: they go to their
        sender), then follow a round's or the match's end."""
        shown = [e for e in events if e["kind"] != EventKind.REJECTED.name.lower()]
        if not shown:
            return
        for event in shown:
            self.book.apply(event)
        match = self.match
        self.host.emit(
            {
                "round": match.round,
                "t": match.t,
                "epoch_ms": self.epoch,
                "events": shown,
                "players": {SEATS[p]: self.seat_status(p) for p in (0, 1)},
            }
        )
        if match.round_over and self.host.live:
            # Intents still waiting belong to the round that ended: refuse them, never
            # carry them into the next round.
            waiting, self.pending = self.pending, []
            for intent in waiting:
                self._answer(intent, "round_over")
            if match.match_over:  # R22
                result = match.match_result
                self.host.match_ended(result.letter if result is not None else "draw")
            else:
                self.host.round_ended(match.round)

    def seat_status(self, seat: int) -> Dict[str, Any]:
        return self.match.status(Player(seat)).to_dict()

    def position(self) -> Dict[str, Any]:
        return {"round": self.match.round, "t": self.match.t}

    def snapshot(self) -> Dict[str, Any]:
        match = self.match
        wins = match.round_wins
        return {
            "round": match.round,
            "t": match.t,
            "epoch_ms": self.epoch,
            "board": match.board_text(),
            **self.book.to_dict(),
            "round_wins": {"X": wins[0], "O": wins[1]},
            "rounds": [r.to_dict() for r in match.rounds],
        }

    def result_fields(self) -> Dict[str, Any]:
        wins = self.match.round_wins
        return {
            "round_wins": {"X": wins[0], "O": wins[1]},
            "rounds": [r.to_dict() for r in self.match.rounds],
        }

    def replay_file(self, name: str) -> Dict[str, Any]:
        """The match as a scenario file (docs/replay-format.md), with ``expect``."""
        match = self.match
        scenario = match.to_scenario(name=name)
        last_round = max((e["round"] for e in scenario["script"]), default=1)
        if last_round != match.round:
            # `until` applies to the last round the script names: with no action in the
            # current round, play that one to its end instead.
            scenario.pop("until", None)
        engine_result = None
        if match.match_over:
            engine_result = match.match_result.letter if match.match_result is not None else "draw"
        scenario["expect"] = {
            "rounds": [r.to_dict() for r in match.rounds],
            "round_wins": self.result_fields()["round_wins"],
            "match": engine_result,
        }
        return scenario

    def close(self) -> None:
        self.closed = True
        self.pending = []


class BlitzAdapter(GameAdapter):
    """Tic Tac Blitz's facts on the wire (see :class:`~. GameAdapter`)."""

    time_model = TimeModel.REAL_TIME
    seats = SEATS
    bot_levels = BOT_LEVELS
    act_fields = {"action": (P.choice(tuple(ACTIONS)), True), "cell": (P.grid_cell, True)}
    view = VIEW

    def describe(self) -> Dict[str, Any]:
        # The powerup kinds (R14) in their draw order, with their board letters: the
        # client's only list of them.
        return {
            **super().describe(),
            "powerups": [{"key": kind.key, "letter": kind.letter} for kind in PowerupKind],
        }

    def make_bot(self, level: str, seed: int) -> BotSeat:
        return BotSeat(level, seed)

    def new_session(self, host: SessionHost, seed: int) -> BlitzSession:
        return BlitzSession(self, host, seed)

    def replay_frames(self, data: Any) -> Dict[str, Any]:
        from .replay import scenario_frames

        try:
            return scenario_frames(data)
        except (TypeError, ValueError) as exc:  # ScenarioError is a ValueError
            raise ReplayError(str(exc)) from None
