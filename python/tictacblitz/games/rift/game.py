"""Rift & Grid on the platform's protocol: :class:`RiftGame` and :class:`RiftState`.

A simultaneous game (``TimeModel.SIMULTANEOUS``): each seat locks a move in with
``apply(player, code)`` (G3; a seat may lock again, changing its mind, until the other
has locked too) and the turn resolves (G6) as soon as both are locked;
``apply_joint((x, o))`` locks both at once. Action codes are :mod:`.encoding`'s
(``81 * ability + cell``), rejections G5's reason strings. The state runs on the native
core (:mod:`.native`); ``replay(data, engine="reference")`` plays a file on the
reference engine instead.

Information (G12, G15): a player sees their own objectives, and the opponent's only
once revealed or accomplished (an accomplished objective scores in the open).
:meth:`RiftState.observation` follows that; :meth:`RiftState.summary`, the replay
result's ``state``, shows everything.
"""

from __future__ import annotations

import json
import zlib
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ..base import GameBase, StateBase, check_seat
from ..protocol import GameType, TimeModel
from ..rng import check_seed, check_seeds
from .bots import BOT_NAMES, RiftBot, resolve_bot
from .bots import make_bot as _make_bot
from .encoding import NUM_ACTIONS, decode
from .encoding import action_to_string as _action_to_string
from .native import NativeRift, _engine
from .reference import ReferenceRift
from .replay import Entry, check_deal, load_replay, parse_setup, play_replay, to_replay_dict
from .rules import RiftRules
from .types import Ability, Player, Reason

__all__ = ["GAME_TYPE", "RiftGame", "RiftState", "make_game", "play_matches", "OBSERVATION_SIZE"]

GAME_TYPE = GameType(
    name="rift",
    long_name="Rift & Grid",
    time_model=TimeModel.SIMULTANEOUS,
    seeded=True,  # G12: the objective deal
    perfect_information=False,  # G12: secret objectives
    reasons=tuple(reason.value for reason in Reason),  # the contract's checking order
)

# -- the observation layout (float32, one flat vector) ------------------------------------
OBS_CELLS = 0  # 81 x 4: per cell id, one-hot empty / mine / theirs / grey
OBS_SECTORS = 324  # 9 x 4: per sector, one-hot open / mine / theirs / tied
OBS_ACTIVE = 360  # 9 + 1: the active sector one-hot, then "free turn"
OBS_TARGETS = 370  # 81: legal targets now (G4, the same for both seats)
OBS_SCALARS = 451  # 13: see _scalars
OBS_OBJECTIVES = 464  # 12 x 4: per catalogue id: mine dealt, mine accomplished,
#         theirs known (revealed or accomplished), theirs accomplished
OBS_HIDDEN = 512  # 1: the opponent's objectives still hidden / objectives_per_player
OBSERVATION_SIZE = 513

_MAGIC = b"TTBRIFT\x00"
_VERSION = 1


def _seat(player: object) -> Player:
    return Player(check_seat(player))


class RiftGame(GameBase):
    """Rift & Grid with one rules configuration."""

    type = GAME_TYPE
    rules_type = RiftRules

    def __init__(self, rules: Optional[RiftRules] = None) -> None:
        super().__init__(rules)
        self._overrides = self._rules.overrides()  # what bytes and replays write, once

    def rule_overrides(self) -> Dict[str, Any]:
        """The rules' overrides of the defaults (a copy)."""
        return json.loads(json.dumps(self._overrides))

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def observation_shape(self) -> Tuple[int, ...]:
        return (OBSERVATION_SIZE,)

    def new_state(
        self,
        seed: int = 0,
        *,
        record: bool = False,
        deal: Optional[Mapping[str, Sequence[str]]] = None,
        setup: Optional[Sequence[str]] = None,
    ) -> "RiftState":
        """A fresh game. Beyond the protocol: ``deal`` (``{"X": [ids], "O": [ids]}``)
        replaces G12's seeded deal and ``setup`` (9 grid rows of ``.XO#``) is the
        starting grid, as in replay files."""
        seed = check_seed(seed)
        hands = None if deal is None else check_deal(self._rules, deal)
        cells = None if setup is None else parse_setup(setup)
        engine = NativeRift(self._rules, int(seed), deal=hands, setup=cells)
        return RiftState(self, engine, seed=int(seed), record=record, deal=hands, setup=cells)

    def state_from_bytes(self, data: bytes) -> "RiftState":
        return RiftState.from_bytes(data, self)

    def action_to_string(self, action: int) -> str:
        return _action_to_string(action)

    @property
    def bot_names(self) -> Tuple[str, ...]:
        return BOT_NAMES

    def make_bot(self, name: str, seed: int = 0) -> RiftBot:
        return _make_bot(name, seed)

    def replay(self, data: Any, *, engine: str = "native") -> dict:
        """Play a replay file (parsed JSON) on the native or the reference engine.

        :raises ReplayError: for a file that is not valid (one line)."""
        factories = {"native": NativeRift, "reference": ReferenceRift}
        if engine not in factories:
            raise ValueError(f"engine must be 'native' or 'reference', not {engine!r}")
        return play_replay(load_replay(data), factories[engine])

    def play_matches(self, x_bot: str, o_bot: str, seeds) -> Dict[str, np.ndarray]:
        return play_matches(self._rules, x_bot, o_bot, seeds)


class RiftState(StateBase):
    """One game of Rift & Grid behind the protocol (``engine`` is the native one)."""

    def __init__(
        self,
        game: RiftGame,
        engine: NativeRift,
        *,
        seed: int = 0,
        record: bool = False,
        deal=None,
        setup=None,
    ) -> None:
        self._game = game
        self.engine = engine
        self._seed = seed
        self._deal = deal
        self._setup = setup
        self._record = bool(record)
        self._script: List[Entry] = []
        self._locked: List[Optional[Tuple[int, Ability]]] = [None, None]
        self._events: list = []

    # -- reading -------------------------------------------------------------------------
    @property
    def game(self) -> RiftGame:
        return self._game

    @property
    def turn(self) -> int:
        """The turn being chosen (G3)."""
        return self.engine.turn

    def is_locked(self, player: int) -> bool:
        """Whether ``player`` has locked a move in for this turn."""
        return self._locked[_seat(player)] is not None

    def to_move(self) -> Tuple[int, ...]:
        if self.engine.over:
            return ()
        return tuple(p for p in (0, 1) if self._locked[p] is None)

    def legal_mask(self, player: int) -> np.ndarray:
        """G4 x G5 as a mask of the 324 codes; a locked seat may still change its move."""
        return self.engine.legal_mask(_seat(player))

    def is_over(self) -> bool:
        return self.engine.over

    def winner(self) -> Optional[int]:
        result = self.engine.result
        return None if result is None or result == "draw" else int(Player[result])

    def summary(self) -> dict:
        return self.engine.summary()

    def observation(self, player: int) -> np.ndarray:
        """``player``'s view as a float32 vector of OBSERVATION_SIZE (layout: the
        ``OBS_*`` offsets of this module). The opponent's objectives show only once
        revealed or accomplished (G12, G15)."""
        me = _seat(player)
        core = self.engine.core
        rules = self._game.rules
        obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
        cells = np.frombuffer(core.cells(), dtype=np.uint8)
        view = cells.copy()  # 0 empty, 1 mine, 2 theirs, 3 grey
        if me == Player.O:
            view[cells == 1], view[cells == 2] = 2, 1
        obs[OBS_CELLS + 4 * np.arange(81) + view] = 1.0
        sectors = np.array(core.sectors(), dtype=np.int64)
        sview = sectors.copy()
        if me == Player.O:
            sview[sectors == 1], sview[sectors == 2] = 2, 1
        obs[OBS_SECTORS + 4 * np.arange(9) + sview] = 1.0
        if not core.over:
            active = core.active
            obs[OBS_ACTIVE + (9 if active is None else active)] = 1.0
            obs[OBS_TARGETS : OBS_TARGETS + 81] = self.engine.legal_mask(me)[:81]
        score, energy = core.score, core.energy
        top = max(rules.energy_max, 1)
        scalars = [energy[me] / top, energy[1 - me] / top]
        for seat in (me, me.other):
            scalars += [max(0, t - core.turn) / 10.0 for t in core.ready(seat)]
        scalars += [
            score[me] / 100.0,
            score[1 - me] / 100.0,
            core.turn / 81.0,
            float(self._locked[me] is not None),
            float(self._locked[1 - me] is not None),
        ]
        obs[OBS_SCALARS : OBS_SCALARS + 13] = scalars
        hidden = 0
        for seat, base in ((me, 0), (me.other, 2)):
            for code, accomplished, revealed in core.hand(seat):
                at = OBS_OBJECTIVES + 4 * code + base
                if seat == me or accomplished or revealed:
                    obs[at] = 1.0
                    obs[at + 1] = float(accomplished)
                else:
                    hidden += 1
        obs[OBS_HIDDEN] = hidden / max(rules.objectives_per_player, 1)
        return obs

    # -- changing ------------------------------------------------------------------------
    def apply(self, player: int, action: int) -> Optional[str]:
        """Lock ``player``'s move in (or change it); the turn resolves once both seats
        are locked. Returns G5's reason for a rejected move (nothing changes)."""
        seat = _seat(player)
        move = decode(action)
        return self._lock({seat: move})[seat]

    def apply_joint(self, actions: Sequence[Optional[int]]) -> Tuple[Optional[str], ...]:
        """Both seats at once (None for a seat that does not act): each move is checked
        against the turn as it stands, then the accepted ones lock together."""
        if isinstance(actions, (str, bytes)) or not hasattr(actions, "__len__"):
            raise TypeError(f"a joint action is a pair (x, o), not {actions!r}")
        if len(actions) != 2:
            raise ValueError(f"a joint action has one entry per seat, not {len(actions)}")
        moves = {Player(p): decode(a) for p, a in enumerate(actions) if a is not None}
        results = self._lock(moves)
        return (results.get(Player.X), results.get(Player.O))

    def _lock(self, moves: Dict[Player, Tuple[int, Ability]]) -> Dict[Player, Optional[str]]:
        turn = self.engine.turn
        results: Dict[Player, Optional[str]] = {}
        for seat, (cell, ability) in sorted(moves.items()):
            reason = self.engine.rejection(seat, cell, ability)
            if self._record:
                self._note(Entry(turn, seat, cell, ability), accepted=reason is None)
            if reason is None:
                self._locked[seat] = (cell, ability)
                self._events.append({"kind": "locked", "turn": turn, "player": seat.letter})
                results[seat] = None
            else:
                self._events.append(
                    {
                        "kind": "rejected",
                        "turn": turn,
                        "player": seat.letter,
                        "reason": reason.value,
                    }
                )
                results[seat] = reason.value
        if self._locked[0] is not None and self._locked[1] is not None:
            report = self.engine.resolve(self._locked[0], self._locked[1])
            self._locked = [None, None]
            self._events.append({"kind": "turn", **report})
            if self.engine.over:
                # The score alone, read from the core: summary() would build the whole
                # grid and hands for one field, and a solver's tree ends a game at every
                # leaf (issue 28: a third of an exploitability run went there).
                score = self.engine.core.score
                self._events.append(
                    {
                        "kind": "game_over",
                        "result": self.engine.result,
                        "score": {"X": score[0], "O": score[1]},
                    }
                )
        return results

    def _note(self, entry: Entry, accepted: bool) -> None:
        """Record ``entry`` for the replay: a change of mind *replaces* the seat's
        accepted entry of this turn, in place (the replay keeps only the last accepted
        entry of a turn and every rejected one, docs/rift.md "Replay files"; a rejection
        depends only on the state at the start of the turn, so the result is the same),
        and the log grows with rejections only (issue 26, hole 3)."""
        earlier = self._locked[entry.player]
        if accepted and earlier is not None:
            for at in range(len(self._script) - 1, -1, -1):
                old = self._script[at]
                if old.turn != entry.turn:
                    break
                if old.player == entry.player and (old.cell, old.ability) == earlier:
                    self._script[at] = entry
                    return
        self._script.append(entry)

    # -- copies, bytes, replays --------------------------------------------------------------
    def clone(self) -> "RiftState":
        twin = RiftState(
            self._game,
            self.engine.clone(),
            seed=self._seed,
            record=self._record,
            deal=self._deal,
            setup=self._setup,
        )
        twin._script = list(self._script)
        twin._locked = list(self._locked)
        twin._events = list(self._events)
        return twin

    def to_bytes(self) -> bytes:
        """Magic, version, a JSON header (rules, seed, deal, setup, locks, script), the
        native state, and a CRC-32 of everything after the magic."""
        header = json.dumps(
            {
                "rules": self._game._overrides,
                "seed": self._seed,
                "deal": None if self._deal is None else [list(h) for h in self._deal],
                "setup": None if self._setup is None else "".join(self._setup),
                "record": self._record,
                "locked": [None if m is None else [m[0], int(m[1])] for m in self._locked],
                "script": [[e.turn, int(e.player), e.cell, int(e.ability)] for e in self._script],
            },
            sort_keys=True,
        ).encode()
        state = self.engine.core.state_bytes()
        body = (
            _VERSION.to_bytes(2, "little")
            + len(header).to_bytes(4, "little")
            + header
            + len(state).to_bytes(4, "little")
            + state
        )
        return _MAGIC + body + zlib.crc32(body).to_bytes(4, "little")

    @classmethod
    def from_bytes(cls, data: bytes, game: Optional[RiftGame] = None) -> "RiftState":
        """The state :meth:`to_bytes` wrote. :raises ValueError: for bytes that are not
        one (bad magic, version or checksum)."""
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError(f"from_bytes takes bytes, not {type(data).__name__}")
        data = bytes(data)
        n = len(_MAGIC)
        if len(data) < n + 14 or data[:n] != _MAGIC:
            raise ValueError("not Rift & Grid state bytes (bad magic)")
        body, crc = data[n:-4], data[-4:]
        if zlib.crc32(body).to_bytes(4, "little") != crc:
            raise ValueError("corrupt Rift & Grid state bytes (checksum mismatch)")
        version = int.from_bytes(body[:2], "little")
        if version != _VERSION:
            raise ValueError(f"Rift & Grid state bytes of version {version}; this reads {_VERSION}")
        try:
            hlen = int.from_bytes(body[2:6], "little")
            head = json.loads(body[6 : 6 + hlen])
            slen = int.from_bytes(body[6 + hlen : 10 + hlen], "little")
            state_bytes = body[10 + hlen : 10 + hlen + slen]
            rules = RiftRules.from_dict(head["rules"])
            deal = (
                None if head["deal"] is None else (tuple(head["deal"][0]), tuple(head["deal"][1]))
            )
            setup = None if head["setup"] is None else tuple(head["setup"])
            engine = NativeRift(rules, head["seed"], deal=deal, setup=setup)
            engine.core.load_state_bytes(state_bytes)
            locked = [None if m is None else (int(m[0]), Ability(m[1])) for m in head["locked"]]
            script = [Entry(t, Player(p), c, Ability(a)) for t, p, c, a in head["script"]]
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ValueError(f"Rift & Grid state bytes that do not decode: {exc}") from None
        if game is None or game.rules != rules:
            game = RiftGame(rules)
        state = cls(game, engine, seed=head["seed"], record=head["record"], deal=deal, setup=setup)
        state._locked, state._script = locked, script
        return state

    def __reduce__(self):
        return (RiftState.from_bytes, (self.to_bytes(),))

    def to_replay(self) -> dict:
        """The replay file of everything played so far (needs ``record=True``)."""
        if not self._record:
            raise ValueError(
                "this state does not record its moves: use new_state(seed, record=True)"
            )
        return to_replay_dict(self._game.rules, self._seed, self._deal, self._setup, self._script)

    def __repr__(self) -> str:
        s = self.engine.summary()
        return f"RiftState(turn={s['turn']}, score={s['score']}, result={self.engine.result!r})"


def make_game(rules: Optional[Mapping[str, Any]] = None) -> RiftGame:
    """The registry's entry: Rift & Grid with these rule overrides."""
    return RiftGame.make(rules)


def play_matches(rules: Any, x_bot: Any, o_bot: Any, seeds) -> Dict[str, np.ndarray]:
    """Whole games between two bots (preset names) in the native loop, without the GIL.

    Game i is ``new_state(seeds[i])`` with the X bot seeded ``seeds[i] ^ SEAT_SALTS[0]``
    and the O bot ``seeds[i] ^ SEAT_SALTS[1]`` (``blitz_core.rift.engine.SEAT_SALTS``).
    Columns (NumPy, one entry per game): ``winner`` (0 X, 1 O, -1 draw), ``turns``,
    ``collisions``, ``greys``, ``score_x``/``score_o``, ``objectives_x``/``_o``
    (accomplished), ``shield_x``, ``swap_x``, ``reveal_x`` and the same for O (uses),
    ``shield_wins_x``/``_o`` (collisions won by a lone shield), ``swaps_x``/``_o``
    (lone swaps, which exchanged the targets), ``dealt_x``/``_o`` and ``done_x``/``_o``
    (objective codes dealt and accomplished, bit ``c`` for catalogue code ``c``) and
    ``points_x``/``_o`` (points from objectives). ``x_bot``/``o_bot``: preset names or
    :class:`~.bots.BotSpec` values.
    """
    game = make_game(rules) if not isinstance(rules, RiftGame) else rules
    x_kind, x_error, x_sims = resolve_bot(x_bot).native()
    o_kind, o_error, o_sims = resolve_bot(o_bot).native()
    seeds = check_seeds(seeds)
    return _engine.play_matches(
        game.rules.native_params(), x_kind, x_error, o_kind, o_error, seeds, x_sims, o_sims
    )
