"""Rift & Grid's information states: what one seat knows, as a fixed-size tensor and a
string, and G12's deal as a sequence of chance draws (issue 28, "hidden information").

A seat knows (G3, G12, G15): its own hand in dealt order; every resolved turn's report,
which is public (both moves, so the targets, the abilities and their costs; the points
gained, so every objective accomplished, by id); and what its own reveals showed it.
It does not know the other seat's objectives that are neither revealed nor accomplished,
nor a move the other seat has locked in but not yet resolved. The *information state*
is that knowledge with perfect recall (OpenSpiel's ``InformationStateTensor``): the
current observation (:meth:`~.game.RiftState.observation`, which hides the same things)
plus the whole history of turns, so two play-throughs that differ only in what a seat
cannot see give that seat the same tensor and string.

The tensor layout (float32, :data:`INFOSTATE_SIZE` values, the same for every rules
configuration; "mine"/"theirs" are relative to the observing seat, as in the
observation)::

    IS_SEAT   2                      the observing seat, one-hot (X, O)
    IS_HAND   12 x 12                own hand in dealt order: slot k, catalogue code
    IS_NOW    OBSERVATION_SIZE       the current observation (zeros during the deal)
    IS_TURNS  81 x TURN_SIZE         per resolved turn t (row t - 1):
                0    mine:   target cell (81) one-hot, ability (4) one-hot
                85   theirs: target cell (81) one-hot, ability (4) one-hot
                170  the objective my reveal showed me (12) one-hot, if any
                182  the objectives I accomplished this turn (12)
                194  the objectives they accomplished this turn (12)

A game has at most 81 turns (G16: every turn fills a cell), so 81 rows always suffice.
Catalogue codes are the indices of :data:`~.types.OBJECTIVE_IDS` (G17).

A :class:`~.game.RiftState` does not keep its history; :func:`turns_of` reads it from a
recorded state's replay, and a driver that resolves the turns itself (the OpenSpiel
adapter) keeps :class:`TurnRecord` values from the turns' reports as they come.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

import numpy as np

from .encoding import action_to_string, encode
from .game import OBSERVATION_SIZE, RiftGame, RiftState
from .rules import RiftRules
from .types import CELLS, MAX_TURNS, OBJECTIVE_IDS, Ability, Player

__all__ = [
    "TurnRecord",
    "turns_of",
    "information_state_tensor",
    "information_state_string",
    "observation_string",
    "dealing_tensor",
    "dealing_string",
    "deal_draws",
    "deal_seat",
    "deal_outcomes",
    "deal_hands",
    "new_dealt_state",
    "INFOSTATE_SIZE",
    "MAX_TURNS",
    "TURN_SIZE",
]

CATALOGUE = len(OBJECTIVE_IDS)  # G17; also the largest hand (objectives_per_player)
MOVE_SIZE = CELLS + len(Ability)
TURN_SIZE = 2 * MOVE_SIZE + 3 * CATALOGUE

IS_SEAT = 0
IS_HAND = IS_SEAT + len(Player)
IS_NOW = IS_HAND + CATALOGUE * CATALOGUE
IS_TURNS = IS_NOW + OBSERVATION_SIZE
INFOSTATE_SIZE = IS_TURNS + MAX_TURNS * TURN_SIZE

_T_MINE, _T_THEIRS = 0, MOVE_SIZE
_T_SAW = 2 * MOVE_SIZE
_T_DONE = (_T_SAW + CATALOGUE, _T_SAW + 2 * CATALOGUE)  # mine, theirs

Move = Tuple[int, int]  # (target cell, ability value) as chosen, before any swap


@dataclass(frozen=True)
class TurnRecord:
    """One resolved turn as its report made it public (per seat, indexed X, O).

    :param moves: each seat's move as chosen: ``(cell, ability)``.
    :param revealed: the catalogue code each seat's reveal showed it (G15), or None.
    :param accomplished: the catalogue codes each seat accomplished this turn (G12).
    """

    moves: Tuple[Move, Move]
    revealed: Tuple[Optional[int], Optional[int]] = (None, None)
    accomplished: Tuple[Tuple[int, ...], Tuple[int, ...]] = ((), ())

    @classmethod
    def from_report(cls, report: dict) -> "TurnRecord":
        """From a turn's report (a ``"turn"`` event of ``drain_events``, or an entry of a
        replay result's ``turns``)."""
        moves = tuple(
            (
                int(report["moves"][p.letter]["cell"]),
                int(Ability.parse(report["moves"][p.letter]["ability"])),
            )
            for p in Player
        )
        revealed = tuple(
            None
            if report["revealed"][p.letter] is None
            else OBJECTIVE_IDS.index(report["revealed"][p.letter])
            for p in Player
        )
        done = tuple(
            tuple(
                OBJECTIVE_IDS.index(gain["objective"])
                for gain in report["points"][p.letter]
                if gain["cause"] == "objective"
            )
            for p in Player
        )
        return cls(moves, revealed, done)  # type: ignore[arg-type]


def turns_of(state: RiftState) -> List[TurnRecord]:
    """The resolved turns of a state started with ``record=True``, from its replay.

    :raises ValueError: for a state that keeps no record."""
    result = state.game.replay(state.to_replay())
    return [TurnRecord.from_report(report) for report in result["turns"]]


# -- the tensor ------------------------------------------------------------------------------
def _seat(player: object) -> Player:
    if (
        isinstance(player, bool)
        or not isinstance(player, (int, np.integer))
        or player not in (0, 1)
    ):
        raise ValueError(f"a Rift & Grid seat is 0 (X) or 1 (O), not {player!r}")
    return Player(int(player))


def _write_hand(out: np.ndarray, me: Player, hand: Sequence[int]) -> None:
    out[IS_SEAT + me] = 1.0
    for slot, code in enumerate(hand):
        out[IS_HAND + CATALOGUE * slot + code] = 1.0


def _write_turns(out: np.ndarray, me: Player, turns: Sequence[TurnRecord]) -> None:
    for t, record in enumerate(turns):
        row = IS_TURNS + TURN_SIZE * t
        for base, seat in ((_T_MINE, me), (_T_THEIRS, me.other)):
            cell, ability = record.moves[seat]
            out[row + base + cell] = 1.0
            out[row + base + CELLS + ability] = 1.0
        saw = record.revealed[me]
        if saw is not None:
            out[row + _T_SAW + saw] = 1.0
        for base, seat in zip(_T_DONE, (me, me.other), strict=True):
            for code in record.accomplished[seat]:
                out[row + base + code] = 1.0


def _check_turns(state: RiftState, turns: Sequence[TurnRecord]) -> None:
    if len(turns) != state.turn - 1:
        raise ValueError(
            f"{len(turns)} turn records for a state at turn {state.turn}: "
            f"expected one per resolved turn ({state.turn - 1})"
        )


def _own_hand(state: RiftState, me: Player) -> List[int]:
    return [code for code, _, _ in state.engine.core.hand(int(me))]


def information_state_tensor(
    state: RiftState, player: int, turns: Sequence[TurnRecord]
) -> np.ndarray:
    """``player``'s information state after the deal: float32 of :data:`INFOSTATE_SIZE`
    (layout: this module's docstring). ``turns``: one record per resolved turn.

    :raises ValueError: for a seat other than 0/1 or a history of the wrong length."""
    me = _seat(player)
    _check_turns(state, turns)
    out = np.zeros(INFOSTATE_SIZE, dtype=np.float32)
    _write_hand(out, me, _own_hand(state, me))
    out[IS_NOW : IS_NOW + OBSERVATION_SIZE] = state.observation(me)
    _write_turns(out, me, turns)
    return out


def dealing_tensor(player: int, hand: Sequence[int]) -> np.ndarray:
    """``player``'s information state while G12's deal is under way: its seat and the
    codes it has been dealt so far (nothing else has happened yet)."""
    me = _seat(player)
    out = np.zeros(INFOSTATE_SIZE, dtype=np.float32)
    _write_hand(out, me, hand)
    return out


# -- the string ------------------------------------------------------------------------------
def _move_string(move: Move) -> str:
    return action_to_string(encode(move[0], Ability(move[1])))


def _ids(codes: Sequence[int]) -> str:
    return ",".join(OBJECTIVE_IDS[code] for code in codes)


def dealing_string(player: int, hand: Sequence[int]) -> str:
    """The string form of :func:`dealing_tensor`."""
    return f"{_seat(player).letter} hand=[{_ids(hand)}] dealing"


def information_state_string(state: RiftState, player: int, turns: Sequence[TurnRecord]) -> str:
    """The string form of :func:`information_state_tensor`: the seat, its hand, then one
    ``|``-separated entry per resolved turn (both moves, what the seat's reveal showed it,
    the objectives each seat accomplished), then the seats locked in this turn."""
    me = _seat(player)
    _check_turns(state, turns)
    parts = [f"{me.letter} hand=[{_ids(_own_hand(state, me))}]"]
    for t, record in enumerate(turns, 1):
        entry = f"{t}: X {_move_string(record.moves[0])} O {_move_string(record.moves[1])}"
        saw = record.revealed[me]
        if saw is not None:
            entry += f" saw={OBJECTIVE_IDS[saw]}"
        for seat in Player:
            if record.accomplished[seat]:
                entry += f" {seat.letter}+{_ids(record.accomplished[seat])}"
        parts.append(entry)
    locked = [seat.letter for seat in Player if state.is_locked(seat)]
    if locked:  # a lock is public, the move locked is not (G3)
        parts.append(f"locked={''.join(locked)}")
    return " | ".join(parts)


# -- G12's deal as chance draws ---------------------------------------------------------------
def deal_draws(rules: RiftRules) -> int:
    """How many chance draws the deal is: ``objectives_per_player`` for X, then for O."""
    return 2 * rules.objectives_per_player


def deal_seat(rules: RiftRules, drawn: int) -> Player:
    """The seat the next draw deals to, after ``drawn`` draws (X's hand first, G12)."""
    return Player.X if drawn < rules.objectives_per_player else Player.O


def deal_outcomes(rules: RiftRules, drawn: Sequence[int]) -> List[int]:
    """The catalogue codes the next draw can give, each equally likely: the rules'
    catalogue less the codes already in that seat's hand (G12: distinct within a hand,
    the two hands may share). Drawing uniformly, one slot after the other, gives every
    ordered hand the same probability, as the core's partial Fisher-Yates deal does."""
    per = rules.objectives_per_player
    hand = drawn[:per] if len(drawn) < per else drawn[per:]
    return sorted(
        OBJECTIVE_IDS.index(oid) for oid in rules.objectives if OBJECTIVE_IDS.index(oid) not in hand
    )


def deal_hands(rules: RiftRules, drawn: Sequence[int]) -> Tuple[Tuple[str, ...], Tuple[str, ...]]:
    """The two hands (objective ids, dealt order) of a finished deal, for ``new_state(deal=)``.

    :raises ValueError: if the deal is not finished."""
    per = rules.objectives_per_player
    if len(drawn) != 2 * per:
        raise ValueError(f"a deal of {2 * per} draws, not {len(drawn)}")
    return (
        tuple(OBJECTIVE_IDS[code] for code in drawn[:per]),
        tuple(OBJECTIVE_IDS[code] for code in drawn[per:]),
    )


def new_dealt_state(
    game: RiftGame, drawn: Sequence[int], setup: Optional[Sequence[str]] = None
) -> RiftState:
    """A fresh game with the deal ``drawn`` (and the optional starting grid)."""
    x_hand, o_hand = deal_hands(game.rules, drawn)
    return game.new_state(deal={"X": x_hand, "O": o_hand}, setup=setup)


def observation_string(state: RiftState, player: int) -> str:
    """The string form of :meth:`~.game.RiftState.observation`: the board, scores,
    energy and cooldowns, the seat's hand, the other seat's objectives it knows (G12,
    G15: revealed or accomplished), and the locks of this turn."""
    me = _seat(player)
    summary = state.summary()
    them = me.other.letter

    def hand(seat: str, *, known_only: bool) -> str:
        return ",".join(
            obj["id"] + ("*" if obj["accomplished"] else "")
            for obj in summary["objectives"][seat]
            if not known_only or obj["accomplished"] or obj["revealed"]
        )

    ready = {seat: "/".join(str(t) for t in summary["cooldowns"][seat].values()) for seat in "XO"}
    locked = "".join(seat.letter for seat in Player if state.is_locked(seat))
    return (
        f"{me.letter} turn={summary['turn']} grid={'/'.join(summary['grid'])} "
        f"sectors={','.join(summary['sectors'])} active={summary['active']} "
        f"score={summary['score']['X']}:{summary['score']['O']} "
        f"energy={summary['energy']['X']}:{summary['energy']['O']} "
        f"ready={ready['X']}:{ready['O']} mine=[{hand(me.letter, known_only=False)}] "
        f"theirs=[{hand(them, known_only=True)}] locked={locked or '-'}"
    )
