# The Python face of the Tic Tac Blitz engine (declared in match.pxd): the `Match` class,
# the bridge from a Python Rules to the C RulesC, events as Python objects, and the
# versioned, checksummed serialisation. The rules themselves are engine.pyx's nogil
# functions; every method here checks its arguments and then calls them.

from libc.stdint cimport uint64_t, int32_t
from libc.stdlib cimport free
from libc.string cimport memcpy, memset

from blitz_core.blitz.bitboard cimport init_geometry, popcount, lowest, lowest_line, timeout_score
from blitz_core.blitz.seeds cimport purpose_salt
from blitz_core.blitz.engine cimport (
    ACT_KNOCKOUT, ACT_PLACE, BY_DOUBLE_LINE, BY_LINE, BY_TIMEOUT, EV_BOMBED,
    EV_CRATER_CLEARED, EV_FREEZE_ENDED, EV_FREEZE_STARTED, EV_HASTE_ENDED,
    EV_HASTE_STARTED, EV_KNOCKED_OUT, EV_MATCH_OVER, EV_PLACED, EV_POWERUP_BURNED_OUT,
    EV_POWERUP_CLAIMED, EV_POWERUP_SPAWNED, EV_REJECTED, EV_RETIRED, EV_ROUND_OVER,
    EV_ROUND_STARTED, EV_SET, EV_STOLEN, EventC, KIND_BOMB, KIND_FREEZE, KIND_HASTE,
    KIND_SWAP, MatchState, NO_TIME, PLAYER_O, PLAYER_X, REASON_ALREADY_SET, REASON_CRATER,
    REASON_NOT_CHARGED, REASON_NOT_OPPONENT_MARK, REASON_OCCUPIED, REASON_ROUND_OVER,
    DEFAULT_STREAM, RESULT_DRAW, RESULT_X, RulesC, all_powerups, state_act, state_act_both,
    state_advance_to, state_charge_full, state_charge_ready_t, state_check,
    state_legal_mask, state_marks, state_new_match, state_next_event_t, state_next_round,
    state_oldest, state_spawn,
)

import json
import zlib

import numpy as np

from blitz_core.common.seed_check import check_seed  # tictacblitz.games.rng's, tied by a test

# The vocabulary the Python face speaks (Rules, Player, Action, Event, ...) belongs to the
# package one layer up, tictacblitz.games.blitz. The core imports nothing from it: that
# package hands its classes down once, when it is imported (bind_vocabulary below), and
# the binding checks that every enum code agrees with this file's C enums (engine.pxd).
cdef object Rules = None
cdef object Action, ActionKind, Event, EventKind, PlayerStatus, Player, PowerupKind
cdef object Reason, RoundEnd, RoundRecord, REASON_BY_CODE, parse_cell

# ---------------------------------------------------------------------------------------
# Rules → RulesC

RULES_PARAMS = (
    "size", "line_length", "round_ms", "rounds_to_win", "max_rounds", "set_ms", "crater_ms",
    "mark_limit", "powerup_max", "spawn_min_ms", "spawn_max_ms", "powerup_ms", "freeze_ms",
    "haste_ms", "swap_max", "speed_normal", "speed_frozen", "speed_hasted",
    "speed_frozen_hasted", "need_place", "need_knockout", "weight_bomb", "weight_freeze",
    "weight_haste", "weight_swap", "random_spawns",
)
"""The order of ``Rules.native_params()``, the one tuple the rules cross in (issue 27)."""


cdef int fill_rules(RulesC* rc, object rules) except -1:
    """Copy a validated tictacblitz.Rules into the engine's struct: the one place its
    ``native_params()`` (RULES_PARAMS order) are unpacked."""
    _require_vocabulary()
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a tictacblitz.Rules, not {type(rules).__name__}")
    cdef tuple p = rules.native_params()
    if len(p) != len(RULES_PARAMS):
        raise ValueError(f"native_params() gave {len(p)} numbers, not {len(RULES_PARAMS)}")
    cdef int i
    memset(rc, 0, sizeof(RulesC))
    init_geometry(&rc.geo, p[0], p[1])
    rc.round_ms = p[2]
    rc.rounds_to_win = p[3]
    rc.max_rounds = p[4]
    rc.set_ms = p[5]
    rc.crater_ms = p[6]
    rc.mark_limit = min(<long>p[7], 65)       # 65: never reached, as any larger limit
    rc.powerup_max = min(<long>p[8], 64)
    rc.spawn_min_ms = p[9]
    rc.spawn_span = p[10] - p[9] + 1
    rc.powerup_ms = p[11]
    rc.freeze_ms = p[12]
    rc.haste_ms = p[13]
    rc.swap_max = min(<long>p[14], 8)
    for i in range(4):
        rc.speed[i] = p[15 + i]
    rc.need_place = p[19]
    rc.need_knockout = p[20]
    rc.weight_total = 0.0
    for i in range(4):
        rc.weight[i] = p[21 + i]
        rc.weight_total += rc.weight[i]      # R14: summed in kind order (docs/engine.md)
    rc.spawns_possible = p[25]
    return 0


# ---------------------------------------------------------------------------------------
# The Python face

cdef object _RESULTS, _BY, _EVENT_KINDS, _POWERUPS, _PLAYERS

NATIVE_CODES = {
    "ActionKind": {"PLACE": ACT_PLACE, "KNOCKOUT": ACT_KNOCKOUT},
    "PowerupKind": {"BOMB": KIND_BOMB, "FREEZE": KIND_FREEZE, "HASTE": KIND_HASTE,
                    "SWAP": KIND_SWAP},
    "Reason": {"ROUND_OVER": REASON_ROUND_OVER, "NOT_CHARGED": REASON_NOT_CHARGED,
               "OCCUPIED": REASON_OCCUPIED, "CRATER": REASON_CRATER,
               "NOT_OPPONENT_MARK": REASON_NOT_OPPONENT_MARK,
               "ALREADY_SET": REASON_ALREADY_SET},
    "EventKind": {
        "ROUND_STARTED": EV_ROUND_STARTED, "PLACED": EV_PLACED, "SET": EV_SET,
        "KNOCKED_OUT": EV_KNOCKED_OUT, "CRATER_CLEARED": EV_CRATER_CLEARED,
        "RETIRED": EV_RETIRED, "POWERUP_SPAWNED": EV_POWERUP_SPAWNED,
        "POWERUP_CLAIMED": EV_POWERUP_CLAIMED, "POWERUP_BURNED_OUT": EV_POWERUP_BURNED_OUT,
        "BOMBED": EV_BOMBED, "STOLEN": EV_STOLEN, "FREEZE_STARTED": EV_FREEZE_STARTED,
        "FREEZE_ENDED": EV_FREEZE_ENDED, "HASTE_STARTED": EV_HASTE_STARTED,
        "HASTE_ENDED": EV_HASTE_ENDED, "ROUND_OVER": EV_ROUND_OVER,
        "MATCH_OVER": EV_MATCH_OVER, "REJECTED": EV_REJECTED},
    "Player": {"X": PLAYER_X, "O": PLAYER_O},
    "RoundEnd": {"LINE": BY_LINE, "DOUBLE_LINE": BY_DOUBLE_LINE, "TIMEOUT": BY_TIMEOUT},
}
"""The C enum codes (engine.pxd) by Python enum and member: what bind_vocabulary checks."""


def _python_codes(vocab):
    """The codes the Python vocabulary gives the members NATIVE_CODES names."""
    reasons = vocab.REASON_BY_CODE
    out = {}
    for enum_name in NATIVE_CODES:
        enum_type = getattr(vocab, enum_name)
        if enum_name == "Reason":
            out[enum_name] = {r.name: reasons.index(r) for r in enum_type}
        elif enum_name == "RoundEnd":
            out[enum_name] = {m.name: i for i, m in enumerate(enum_type)}
        else:
            out[enum_name] = {m.name: int(m) for m in enum_type}
    return out


def bind_vocabulary(vocab):
    """Hand the engine the Python vocabulary it returns and accepts (called once by
    ``tictacblitz.games.blitz``). ``vocab`` has the attributes ``Rules``, ``Action``,
    ``ActionKind``, ``Event``, ``EventKind``, ``PlayerStatus``, ``Player``,
    ``PowerupKind``, ``Reason``, ``RoundEnd``, ``RoundRecord``, ``REASON_BY_CODE`` and
    ``parse_cell``.

    :raises RuntimeError: when an enum's codes differ from the C enums (a drift between
        engine.pxd and the vocabulary must never reach a match).
    """
    global Rules, Action, ActionKind, Event, EventKind, PlayerStatus, Player, PowerupKind
    global Reason, RoundEnd, RoundRecord, REASON_BY_CODE, parse_cell
    global _RESULTS, _BY, _EVENT_KINDS, _POWERUPS, _PLAYERS
    codes = _python_codes(vocab)
    if codes != NATIVE_CODES:
        raise RuntimeError(f"the Python vocabulary's enum codes {codes} differ from the "
                           f"engine's {NATIVE_CODES}")
    Rules, Action, ActionKind = vocab.Rules, vocab.Action, vocab.ActionKind
    Event, EventKind, PlayerStatus = vocab.Event, vocab.EventKind, vocab.PlayerStatus
    Player, PowerupKind, Reason = vocab.Player, vocab.PowerupKind, vocab.Reason
    RoundEnd, RoundRecord = vocab.RoundEnd, vocab.RoundRecord
    REASON_BY_CODE, parse_cell = vocab.REASON_BY_CODE, vocab.parse_cell
    _RESULTS = (Player.X, Player.O, None)
    _BY = tuple(RoundEnd)
    _EVENT_KINDS = tuple(EventKind)
    _POWERUPS = tuple(PowerupKind)
    _PLAYERS = (Player.X, Player.O)


cdef object default_rules():
    """The default Rules (for the batch entry points' ``rules=None``)."""
    _require_vocabulary()
    return Rules()


cdef inline int _require_vocabulary() except -1:
    if Rules is None:
        raise RuntimeError("blitz_core.blitz.engine is used through tictacblitz: "
                           "import tictacblitz first")
    return 0


_SERIAL_MAGIC = b"TTBLITZ\x00"
SERIAL_VERSION = 2                  # 2: the state holds the stream layout (issue 22)
STATE_BYTES = sizeof(MatchState)
STREAM_LAYOUTS = (1, 2)
"""The random stream layouts a match can draw with (docs/engine.md): 1, the one stream
of recordings without a ``stream`` field; 2, streams by purpose (the default)."""
DEFAULT_STREAM_LAYOUT = DEFAULT_STREAM
PURPOSE_SALTS = (purpose_salt(0), purpose_salt(1), purpose_salt(2), purpose_salt(3))
"""Layout 2's purpose salts as the native engine uses them (seeds.pxd), in purpose order:
spawn times, spawn cells, spawn kinds, the R3 coin (tests/test_one_source.py ties them to
the reference's games/blitz/streams.py)."""


def check_stream_layout(stream):
    """`stream` if it names a layout, else TypeError / ValueError naming the bad value."""
    if isinstance(stream, bool) or not isinstance(stream, int):
        raise TypeError(f"stream must be a stream layout (1 or 2), not {stream!r}")
    if stream not in STREAM_LAYOUTS:
        raise ValueError(f"stream must be a stream layout (1 or 2), not {stream!r}")
    return stream


cdef inline int _player_code(object player) except -1:
    if type(player) is Player:
        return <int>player
    return <int>Player.parse(player)


cdef object _cells_of(uint64_t m, int size):
    out = []
    cdef int c
    while m:
        c = lowest(m)
        m &= m - 1
        out.append((c // size, c % size))
    return tuple(out)


cdef class Match:
    """A match of Tic Tac Blitz on the native engine.

    ``Match(rules=None, *, seed=0, setup=None, random_powerups=True, record=False,
    stream=2)``

    ``stream`` is the random stream layout (docs/engine.md): 2, streams by purpose, for
    every new match; 1, the one stream of the files recorded before it (issue 22).

    The match sits at ms ``t`` of round ``round`` with everything timed at ``t`` done;
    actions happen at ``t``; ``advance`` moves time (R1, R2). ``events`` lists what the
    last call did. docs/engine.md gives the exact contract; the API is documented in
    README.md and ``match.pyi``.

    :raises TypeError: for an argument of the wrong type, naming the bad value.
    :raises ValueError: for an argument out of range, naming the bad value.
    """

    def __cinit__(self):
        self.sink.events = NULL
        self.sink.count = 0
        self.sink.capacity = 0

    def __dealloc__(self):
        free(self.sink.events)

    def __init__(self, rules=None, *, seed=0, setup=None, random_powerups=True, record=False,
                 stream=DEFAULT_STREAM):
        if rules is None:
            rules = default_rules()
        fill_rules(&self.rc, rules)
        seed = check_seed(seed)
        if not isinstance(random_powerups, bool):
            raise TypeError(f"random_powerups must be True or False, not {random_powerups!r}")
        check_stream_layout(stream)
        setup_x, setup_o = _parse_setup(setup, rules)
        self._rules = rules
        self._seed = seed
        self._setup = tuple(setup) if setup is not None else None
        self._rounds = ()
        self._script = [] if record else None
        self._begin_call()
        state_new_match(&self.st, &self.rc, <uint64_t>seed,
                        bool(random_powerups), setup_x, setup_o, stream, &self.sink)
        self._after_call()

    cdef void _begin_call(self) noexcept:
        self.sink.count = 0

    cdef void _after_call(self):
        # Keep the history of ended rounds (not in the C state: it only grows).
        if self.st.round_over and len(self._rounds) < self.st.round:
            self._rounds = self._rounds + (self._round_record(),)

    def _round_record(self):
        cdef int size = self.rc.geo.size
        result = _RESULTS[self.st.round_result]
        by = _BY[self.st.round_by]
        line = scores = None
        if self.st.round_by == BY_LINE:
            winner = self.st.round_result
            line = _cells_of(lowest_line(&self.rc.geo, self.st.set_marks[winner]), size)
        elif self.st.round_by == BY_TIMEOUT:
            scores = (timeout_score(&self.rc.geo, self.st.set_marks[0], self.st.set_marks[1]),
                      timeout_score(&self.rc.geo, self.st.set_marks[1], self.st.set_marks[0]))
        return RoundRecord(self.st.round, result, by, self.st.t, line, scores)

    # -- reading ---------------------------------------------------------------------------

    @property
    def rules(self):
        return self._rules

    @property
    def seed(self):
        return self._seed

    @property
    def random_powerups(self):
        return bool(self.st.random_powerups)

    @property
    def stream(self):
        """The random stream layout this match draws with (1 or 2, docs/engine.md)."""
        return self.st.stream

    @property
    def round(self):
        return self.st.round

    @property
    def t(self):
        return self.st.t

    @property
    def round_over(self):
        return bool(self.st.round_over)

    @property
    def match_over(self):
        return bool(self.st.match_over)

    @property
    def match_result(self):
        """The match winner, or None for a draw or a match still running (see match_over)."""
        if not self.st.match_over or self.st.match_result == RESULT_DRAW:
            return None
        return _PLAYERS[self.st.match_result]

    @property
    def round_wins(self):
        return (self.st.round_wins[0], self.st.round_wins[1])

    @property
    def rounds(self):
        """Every ended round, as RoundRecords."""
        return list(self._rounds)

    @property
    def events(self):
        """The events of the last call that changed the match, in order."""
        cdef Py_ssize_t i
        cdef int size = self.rc.geo.size
        cdef EventC* e
        out = []
        for i in range(self.sink.count):
            e = &self.sink.events[i]
            out.append(_event_object(e, size))
        return out

    def board_text(self):
        """The board as docs/replay-format.md writes it: X/O set, x/o setting, # crater, B F H S."""
        cdef int size = self.rc.geo.size, c, k
        cdef uint64_t bit
        rows = []
        for row in range(size):
            chars = []
            for col in range(size):
                c = row * size + col
                bit = <uint64_t>1 << c
                if self.st.set_marks[0] & bit:
                    chars.append("X")
                elif self.st.set_marks[1] & bit:
                    chars.append("O")
                elif self.st.setting[0] & bit:
                    chars.append("x")
                elif self.st.setting[1] & bit:
                    chars.append("o")
                elif self.st.craters & bit:
                    chars.append("#")
                else:
                    for k in range(4):
                        if self.st.powerups[k] & bit:
                            chars.append("BFHS"[k])
                            break
                    else:
                        chars.append(".")
            rows.append("".join(chars))
        return rows

    def status(self, player):
        """What a player's panel shows: charge, marks, the next mark to retire, effects."""
        cdef int p = _player_code(player)
        cdef int size = self.rc.geo.size
        cdef int32_t t = self.st.t
        cdef int oldest = state_oldest(&self.st, p)
        need = self.st.charge_need[p]
        progress = 1.0 if need == 0 else min(1.0, self.st.charge_units[p] / need)
        marks = state_marks(&self.st, p)
        frozen = t < self.st.frozen_until[p]
        hasted = t < self.st.hasted_until[p]
        return PlayerStatus(
            charge_full=bool(state_charge_full(&self.st, p)),
            charge_progress=progress,
            charge_ready_t=state_charge_ready_t(&self.st, &self.rc, p),
            charge_full_since=self.st.full_since[p] if state_charge_full(&self.st, p) else None,
            marks=marks,
            # R12: the mark that goes next, while the player is at the limit or over.
            next_to_retire=((oldest // size, oldest % size)
                            if marks >= self.rc.mark_limit and oldest >= 0 else None),
            frozen=frozen,
            hasted=hasted,
            frozen_until=self.st.frozen_until[p] if frozen else None,
            hasted_until=self.st.hasted_until[p] if hasted else None,
            round_wins=self.st.round_wins[p],
        )

    def state_dict(self):
        """The docs/replay-format.md state object (plus a few extra keys)."""
        out = {"round": self.st.round, "t": self.st.t, "board": self.board_text()}
        for player in _PLAYERS:
            status = self.status(player)
            out[player.letter] = status.to_dict()
        return out

    def next_event_t(self):
        """The next ms after t at which something timed happens in this round (R2), or
        None once the round is over."""
        cdef int32_t t = state_next_event_t(&self.st, &self.rc)
        return None if t == NO_TIME else t

    def legal_cells(self, player, kind):
        """Cells where an action of `kind` (ActionKind) by `player` would be accepted now."""
        cdef int p = _player_code(player)
        cdef int k = _action_kind(kind)
        return list(_cells_of(state_legal_mask(&self.st, &self.rc, p, k), self.rc.geo.size))

    def legal_actions(self, player):
        """Every action `player` could take now without a rejection."""
        out = [Action.place(c) for c in self.legal_cells(player, ActionKind.PLACE)]
        out += [Action.knockout(c) for c in self.legal_cells(player, ActionKind.KNOCKOUT)]
        return out

    def check(self, player, action):
        """R7: the Reason `action` would be rejected with now, or None; changes nothing."""
        cdef int p = _player_code(player)
        cdef int kind, cell
        kind, cell = _action_code(action, self.rc.geo.size)
        return REASON_BY_CODE[state_check(&self.st, &self.rc, p, kind, cell)]

    def planes(self, player=0):
        """The board as float32 planes (12, size, size) from `player`'s point of view.

        Planes: 0 own set, 1 own setting, 2 opponent set, 3 opponent setting, 4 craters,
        5-8 powerups (bomb, freeze, haste, swap), 9 setting progress of every setting
        mark in [0, 1), 10 own next to retire, 11 opponent's next to retire (R12).
        """
        cdef int p = _player_code(player)
        cdef int size = self.rc.geo.size, c, k
        cdef int32_t t = self.st.t
        out = np.zeros((12, size, size), dtype=np.float32)
        cdef float[:, :, ::1] view = out
        cdef uint64_t boards[9]
        boards[0] = self.st.set_marks[p]
        boards[1] = self.st.setting[p]
        boards[2] = self.st.set_marks[1 - p]
        boards[3] = self.st.setting[1 - p]
        boards[4] = self.st.craters
        for k in range(4):
            boards[5 + k] = self.st.powerups[k]
        cdef uint64_t m
        for k in range(9):
            m = boards[k]
            while m:
                c = lowest(m)
                m &= m - 1
                view[k, c // size, c % size] = 1.0
        m = self.st.setting[0] | self.st.setting[1]
        if self.rc.set_ms > 0:
            while m:
                c = lowest(m)
                m &= m - 1
                view[9, c // size, c % size] = (1.0 - <float>(self.st.deadline[c] - t)
                                                / self.rc.set_ms)
        for k in range(2):
            who = p if k == 0 else 1 - p
            if state_marks(&self.st, who) >= self.rc.mark_limit:
                c = state_oldest(&self.st, who)
                if c >= 0:
                    view[10 + k, c // size, c % size] = 1.0
        return out

    # -- changing --------------------------------------------------------------------------

    def act(self, player, action):
        """One player's action at the current ms. Returns None if accepted, else the
        R7 Reason (and the match is unchanged).

        :raises ValueError: for a cell off the board, an unknown player, a second action
            of the player at this ms, or an action while the other player already acted at
            this ms (both at one ms go through act_both, R3).
        """
        cdef int p = _player_code(player)
        cdef int kind, cell
        kind, cell = _action_code(action, self.rc.geo.size)
        if not self.st.round_over:
            self._check_once(p)
            if self.st.acted_t[1 - p] == self.st.t:
                raise ValueError(
                    f"{_PLAYERS[1 - p].letter} already acted at ms {self.st.t}: both players "
                    f"at one ms go through act_both (R3)")
        self._record(p, action)
        self._begin_call()
        reason = state_act(&self.st, &self.rc, p, kind, cell, &self.sink)
        self._after_call()
        return REASON_BY_CODE[reason]

    def acted_this_ms(self, player):
        """Whether `player` already acted (accepted or rejected) at the current ms of a
        live round: one action per player per ms, so it may not act again until time
        moves, and the other player may act now only together with it (act_both, R3)."""
        cdef int p = _player_code(player)
        return not self.st.round_over and self.st.acted_t[p] == self.st.t

    def act_both(self, x_action, o_action):
        """Both players act at the current ms (R3: order by the seeded coin).

        ``None`` for a seat means it does not act: with one action this is ``act`` (no
        coin), with none it does nothing. Returns (X's result, O's result), each None
        (accepted, or no action) or a Reason."""
        cdef int xk, xc, ok, oc, xr = 0, orr = 0
        if x_action is None or o_action is None:
            if x_action is not None:
                return (self.act(Player.X, x_action), None)
            if o_action is not None:
                return (None, self.act(Player.O, o_action))
            self._begin_call()
            self._after_call()
            return (None, None)
        xk, xc = _action_code(x_action, self.rc.geo.size)
        ok, oc = _action_code(o_action, self.rc.geo.size)
        if not self.st.round_over:
            self._check_once(0)
            self._check_once(1)
        self._record(0, x_action)
        self._record(1, o_action)
        self._begin_call()
        state_act_both(&self.st, &self.rc, xk, xc, ok, oc, &xr, &orr, &self.sink)
        self._after_call()
        return (REASON_BY_CODE[xr], REASON_BY_CODE[orr])

    cdef _check_once(self, int p):
        if self.st.acted_t[p] == self.st.t:
            raise ValueError(
                f"{_PLAYERS[p].letter} already acted at ms {self.st.t} of round "
                f"{self.st.round}: one action per player per ms")

    cdef _record(self, int p, action):
        if self._script is not None and not self.st.round_over:
            entry = {"round": self.st.round, "t": self.st.t, "player": _PLAYERS[p].letter}
            entry["place" if action.kind == ActionKind.PLACE else "knockout"] = list(action.cell)
            self._script.append(entry)

    def advance(self, ms):
        """Advance the clock by `ms` ≥ 0, running every timed event on its exact ms (R1).
        Stops early where the round ends; does nothing once it has."""
        if isinstance(ms, bool) or not isinstance(ms, int):
            raise TypeError(f"ms must be an integer, not {ms!r}")
        if ms < 0:
            raise ValueError(f"ms must be >= 0, not {ms}")
        self._begin_call()
        state_advance_to(&self.st, &self.rc, <int32_t>min(self.st.t + ms, self.rc.round_ms),
                         &self.sink)
        self._after_call()

    def advance_to(self, t):
        """Advance the clock to ms `t` of this round (t ≥ the current ms)."""
        if isinstance(t, bool) or not isinstance(t, int):
            raise TypeError(f"t must be an integer, not {t!r}")
        if t < self.st.t:
            raise ValueError(f"t={t} is in the past (the match is at ms {self.st.t})")
        self._begin_call()
        state_advance_to(&self.st, &self.rc, <int32_t>min(t, self.rc.round_ms), &self.sink)
        self._after_call()

    def advance_to_next_event(self):
        """Jump straight to the next timed event (R2) and run it (see next_event_t)."""
        cdef int32_t target = state_next_event_t(&self.st, &self.rc)
        self._begin_call()
        if target != NO_TIME:
            state_advance_to(&self.st, &self.rc, target, &self.sink)
        self._after_call()

    def spawn_powerup(self, kind, cell):
        """A scripted powerup at the current ms (only with random_powerups=False).

        Returns True if it appeared; False if the cell held a mark, crater or powerup,
        the round is over, or powerup_ms is 0 (docs/replay-format.md)."""
        cdef int k = <int>PowerupKind.parse(kind)
        cdef int size = self.rc.geo.size
        row, col = parse_cell(cell, size)
        if self.st.random_powerups:
            raise ValueError("spawn_powerup needs a match made with random_powerups=False "
                             "(R16 places powerups itself otherwise)")
        if not self.st.round_over and (self.st.acted_t[0] == self.st.t
                                       or self.st.acted_t[1] == self.st.t):
            raise ValueError(f"a powerup cannot spawn after an action at ms {self.st.t} "
                             "(R2: spawns come before actions)")
        self._begin_call()
        spawned = state_spawn(&self.st, &self.rc, k, row * size + col, &self.sink)
        if self._script is not None:
            self._script.append({"round": self.st.round, "t": self.st.t,
                                 "spawn": PowerupKind(k).key, "cell": [row, col]})
        self._after_call()
        return bool(spawned)

    def start_next_round(self):
        """R21: a fresh board for the next round, once this one is over."""
        if not self.st.round_over:
            raise ValueError(f"round {self.st.round} is not over (t={self.st.t})")
        if self.st.match_over:
            raise ValueError("the match is over (R22)")
        self._begin_call()
        state_next_round(&self.st, &self.rc, &self.sink)
        self._after_call()

    # -- copies and bytes ------------------------------------------------------------------

    def clone(self):
        """An independent copy of the match (a struct copy; the event list starts empty)."""
        cdef Match other = Match.__new__(Match)
        memcpy(&other.rc, &self.rc, sizeof(RulesC))
        memcpy(&other.st, &self.st, sizeof(MatchState))
        other._rules = self._rules
        other._seed = self._seed
        other._setup = self._setup
        other._rounds = self._rounds
        other._script = list(self._script) if self._script is not None else None
        return other

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __reduce__(self):
        return (_match_from_bytes, (self.to_bytes(),))

    def to_bytes(self):
        """Versioned bytes of the whole match (rules, seed, history and state)."""
        header = json.dumps({
            "rules": self._rules.to_dict(),
            "seed": self._seed,
            "setup": list(self._setup) if self._setup is not None else None,
            "rounds": [r.to_dict() for r in self._rounds],
            "script": self._script,
        }, sort_keys=True).encode()
        # The timed-ms cache may sit early (a lower bound); write its exact value so
        # that equal matches give equal bytes.
        cdef MatchState canonical = self.st
        canonical.next_timed_t = _exact_next_timed_t(&canonical, &self.rc)
        canonical.timed_stale = 0
        state = (<char*>&canonical)[:sizeof(MatchState)]
        body = (SERIAL_VERSION.to_bytes(2, "little") + len(header).to_bytes(4, "little")
                + header + STATE_BYTES.to_bytes(4, "little") + state)
        return _SERIAL_MAGIC + body + zlib.crc32(body).to_bytes(4, "little")

    @classmethod
    def from_bytes(cls, data):
        """The match `to_bytes` wrote.

        :raises ValueError: for bytes that are corrupt, truncated or of another version.
        """
        return _match_from_bytes(data)

    def to_scenario(self, name="recorded match"):
        """This match as a docs/replay-format.md file (a dict) that replays to the same result.

        Needs ``record=True`` at creation. ``until`` is the current ms of this round.
        The format plays only up to the last round its script names: rounds after the
        last recorded action or spawn (say, a round nobody touched) are not in the
        file, so ``until`` is left out when the match has moved past that round."""
        if self._script is None:
            raise ValueError("to_scenario needs a match created with record=True")
        overrides = self._rules.overrides()
        has_spawns = any("spawn" in e for e in self._script)
        if not self.st.random_powerups and not has_spawns:
            # No scripted spawn in the file would turn R16 on in the replay; with
            # powerup_max 0 it stays off and draws nothing, as here (docs/engine.md).
            overrides["powerup_max"] = 0
        scenario = {"name": name, "rules": overrides, "seed": self._seed, "stream": self.st.stream}
        if self._setup is not None:
            scenario["setup"] = list(self._setup)
        scenario["script"] = [dict(e) for e in self._script]
        last_round = max((e["round"] for e in self._script), default=1)
        if last_round == self.st.round:
            scenario["until"] = self.st.t
        return scenario

    def __repr__(self):
        state = ("match over" if self.st.match_over
                 else ("round over" if self.st.round_over else "live"))
        return (f"<Match round {self.st.round} t={self.st.t} wins X {self.st.round_wins[0]} "
                f"O {self.st.round_wins[1]} ({state})>")


cdef tuple _action_code(object action, int size):
    if not isinstance(action, Action):
        raise TypeError(f"an action is a tictacblitz.Action (Action.place(cell) or "
                        f"Action.knockout(cell)), not {action!r}")
    kind = _action_kind(action.kind)
    row, col = parse_cell(action.cell, size)
    return kind, row * size + col


cdef int _action_kind(object kind) except -1:
    if isinstance(kind, ActionKind):
        return <int>kind
    raise TypeError(f"an action kind is ActionKind.PLACE or ActionKind.KNOCKOUT, not {kind!r}")


cdef object _event_object(EventC* e, int size):
    kind = _EVENT_KINDS[e.kind]
    player = _PLAYERS[e.player] if e.player >= 0 else None
    cell = (e.cell // size, e.cell % size) if e.cell >= 0 else None
    until = e.until if e.until != NO_TIME else None
    powerup = reason = result = by = line = scores = None
    if e.kind in (EV_POWERUP_SPAWNED, EV_POWERUP_CLAIMED, EV_POWERUP_BURNED_OUT):
        powerup = _POWERUPS[e.code]
    elif e.kind == EV_REJECTED:
        reason = REASON_BY_CODE[e.code]
    elif e.kind == EV_ROUND_OVER:
        by = _BY[e.code]
        result = player
        player = None
        if e.code == BY_LINE:
            line = _cells_of(e.line, size)
        elif e.code == BY_TIMEOUT:
            scores = (e.score_x, e.score_o)
    elif e.kind == EV_MATCH_OVER:
        result = player
        player = None
    return Event(e.round, e.t, kind, player, cell, powerup, until, reason, result, by, line, scores)


def _parse_setup(setup, rules):
    """docs/replay-format.md setup rows → (X board, O board), validated by Rules.setup_marks."""
    cdef uint64_t boards[2]
    boards[0] = boards[1] = 0
    if setup is not None:
        for cell, owner in rules.setup_marks(setup):
            boards[<int>owner] |= <uint64_t>1 << <int>cell
    return boards[0], boards[1]


def _match_from_bytes(data):
    cdef Match m
    cdef MatchState st
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"from_bytes takes bytes, not {type(data).__name__}")
    data = bytes(data)
    n = len(_SERIAL_MAGIC)
    if len(data) < n + 2 + 4 + 4 + 4 or data[:n] != _SERIAL_MAGIC:
        raise ValueError("not a tictacblitz match (bad magic or too short)")
    body, crc = data[n:len(data) - 4], data[len(data) - 4:]
    if zlib.crc32(body).to_bytes(4, "little") != crc:
        raise ValueError("corrupt match bytes (checksum mismatch)")
    version = int.from_bytes(body[:2], "little")
    if version != SERIAL_VERSION:
        raise ValueError(f"match bytes of version {version}; "
                         f"this tictacblitz reads version {SERIAL_VERSION}")
    hlen = int.from_bytes(body[2:6], "little")
    if 6 + hlen + 4 > len(body):
        raise ValueError("corrupt match bytes (truncated header)")
    try:
        header = json.loads(body[6:6 + hlen])
        rules = Rules.from_dict(header["rules"])
        seed = header["seed"]
        setup = header["setup"]
        rounds = header["rounds"]
        script = header["script"]
    except (ValueError, TypeError, KeyError) as exc:
        raise ValueError(f"corrupt match bytes (header: {exc})") from None
    slen = int.from_bytes(body[6 + hlen:10 + hlen], "little")
    raw = body[10 + hlen:]
    if slen != sizeof(MatchState) or len(raw) != slen:
        raise ValueError(f"match bytes hold a state of {len(raw)} bytes, "
                         f"expected {sizeof(MatchState)}")
    memcpy(&st, <const char*>raw, sizeof(MatchState))
    m = Match.__new__(Match)
    fill_rules(&m.rc, rules)
    _validate_state(&st, &m.rc, len(rounds) if isinstance(rounds, list) else -1)
    m.st = st
    m._rules = rules
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError("corrupt match bytes (seed)")
    m._seed = seed
    m._setup = tuple(setup) if setup is not None else None
    try:
        m._rounds = tuple(_round_from_dict(r) for r in rounds)
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        raise ValueError(f"corrupt match bytes (rounds: {exc})") from None
    m._script = list(script) if script is not None else None
    return m


def _round_from_dict(d):
    result = None if d["result"] == "draw" else Player.parse(d["result"])
    line = tuple(tuple(c) for c in d["line"]) if "line" in d else None
    scores = (d["scores"]["X"], d["scores"]["O"]) if "scores" in d else None
    return RoundRecord(d["round"], result, RoundEnd(d["by"]), d["end_t"], line, scores)


cdef int _validate_state(MatchState* s, RulesC* r, Py_ssize_t rounds) except -1:
    """Reject any state the engine could not have reached in a way that matters for
    memory safety or termination (checked once, so the engine can run unchecked)."""
    cdef uint64_t board = r.geo.board
    cdef uint64_t boards[9]
    cdef uint64_t seen = 0, live, marks
    cdef int i, c, p
    boards[0] = s.set_marks[0]
    boards[1] = s.set_marks[1]
    boards[2] = s.setting[0]
    boards[3] = s.setting[1]
    boards[4] = s.craters
    for i in range(4):
        boards[5 + i] = s.powerups[i]
    for i in range(9):
        if boards[i] & ~board:
            raise ValueError("corrupt match bytes (a piece off the board)")
        if boards[i] & seen:
            raise ValueError("corrupt match bytes (two things on one cell)")
        seen |= boards[i]
    if not (1 <= s.round <= r.max_rounds) or not (0 <= s.t <= r.round_ms):
        raise ValueError("corrupt match bytes (round or clock out of range)")
    for flag in (s.round_over, s.match_over, s.random_powerups, s.timed_stale):
        if flag > 1:
            raise ValueError("corrupt match bytes (a flag is neither 0 nor 1)")
    if s.stream not in STREAM_LAYOUTS or s.spawn_index < 0:
        raise ValueError("corrupt match bytes (stream layout)")
    if s.match_over and not s.round_over:
        raise ValueError("corrupt match bytes (match over in a live round)")
    if s.round_over:
        if not (RESULT_X <= s.round_result <= RESULT_DRAW and BY_LINE <= s.round_by <= BY_TIMEOUT):
            raise ValueError("corrupt match bytes (round result)")
    if s.match_over and not (RESULT_X <= s.match_result <= RESULT_DRAW):
        raise ValueError("corrupt match bytes (match result)")
    # The history may be shorter (a match cut out of a batch keeps none), never longer.
    if rounds > s.round - 1 + s.round_over:
        raise ValueError("corrupt match bytes (round history does not fit the round)")
    live = s.setting[0] | s.setting[1] | s.craters | all_powerups(s)
    while live:
        c = lowest(live)
        live &= live - 1
        if s.deadline[c] <= s.t and not s.round_over:
            raise ValueError("corrupt match bytes (a timer already past)")
    for p in range(2):
        if not (0 <= s.round_wins[p] <= r.max_rounds):
            raise ValueError("corrupt match bytes (round wins)")
        if not (0 <= s.charge_units[p] <= s.charge_need[p]
                or s.charge_need[p] == 0 and s.charge_units[p] == 0):
            raise ValueError("corrupt match bytes (charge)")
        if s.charge_need[p] not in (0, r.need_place, r.need_knockout):
            raise ValueError("corrupt match bytes (charge need)")
        marks = s.set_marks[p] | s.setting[p]
        if popcount(marks) > r.mark_limit:
            raise ValueError("corrupt match bytes (more marks than mark_limit)")
        while marks:
            c = lowest(marks)
            marks &= marks - 1
            if s.age[c] >= s.next_age[p]:
                raise ValueError("corrupt match bytes (mark ages)")
        if s.acted_t[p] < NO_TIME or s.acted_t[p] > s.t:
            raise ValueError("corrupt match bytes (acted time)")
        if not (0 <= s.full_since[p] <= s.t):
            raise ValueError("corrupt match bytes (charge full time)")
    if s.next_spawn_t != NO_TIME and (not s.random_powerups
                                      or (s.next_spawn_t <= s.t and not s.round_over)):
        raise ValueError("corrupt match bytes (spawn time)")
    s.next_timed_t = _exact_next_timed_t(s, r)
    s.timed_stale = 0
    return 0


cdef inline int32_t _exact_next_timed_t(MatchState* s, const RulesC* r) noexcept nogil:
    return r.round_ms if s.round_over else state_next_event_t(s, r)
