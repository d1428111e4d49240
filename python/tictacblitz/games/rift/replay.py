"""Rift & Grid's replay/scenario files: load and validate one, play it, build the result.

The format (docs/rift.md, "Replay files") is the project's scenario format with turns
instead of milliseconds::

    {"game": "rift", "rules": {"shield_cost": 1}, "seed": 7,
     "deal": {"X": ["centre", ...], "O": [...]},          # optional: replaces G12's deal
     "setup": ["X........", ...],                          # optional: 9 grid rows
     "script": [{"turn": 1, "X": {"cell": 40, "ability": "shield"}, "O": {"cell": 40}}],
     "until": 3}                                           # optional: stop after turn 3

Entries are played in turn order (file order within a turn); every entry of a turn is
checked against the state at the start of that turn (G5) and the last accepted entry of
each player is the move that counts; rejected ones are reported. A turn in which a
player has no accepted entry ends the replay before that turn (``stopped``). Entries of
turns after the game ended are rejected with ``game_over``.

Result: ``turns`` (one report per resolved turn, see :meth:`ReferenceRift.resolve`),
``rejected`` (``turn``, ``player``, ``reason``), ``state`` (the state where play
stopped), ``result`` (``X``, ``O``, ``draw`` or null) and ``stopped`` (null, or the
turn that could not be played and the ``player`` left without a move, X first, with
``players`` listing both when both were).

Every malformed file raises :class:`~tictacblitz.games.protocol.ReplayError` with one
line naming the bad value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from ..protocol import ReplayError
from .rules import RiftRules
from .types import CELLS, OBJECTIVE_IDS, Ability, Player, cell_at

__all__ = [
    "ReplayFile",
    "Entry",
    "load_replay",
    "play_replay",
    "parse_setup",
    "check_deal",
    "grid_rows",
]

_TOP_KEYS = ("game", "rules", "seed", "deal", "setup", "script", "until")
_SETUP_CHARS = ".XO#"


@dataclass(frozen=True)
class Entry:
    """One player's move of one script entry."""

    turn: int
    player: Player
    cell: int
    ability: Ability

    def to_dict(self) -> dict:
        move: Dict[str, Any] = {"cell": self.cell}
        if self.ability != Ability.NONE:
            move["ability"] = self.ability.key
        return {"turn": self.turn, self.player.letter: move}


@dataclass(frozen=True)
class ReplayFile:
    """A validated replay file."""

    rules: RiftRules
    seed: int
    deal: Optional[Tuple[Tuple[str, ...], Tuple[str, ...]]]
    setup: Optional[Tuple[str, ...]]  # 81 characters by cell id
    entries: Tuple[Entry, ...]  # in play order
    until: Optional[int]


def _integer(value: object, what: str, minimum: Optional[int] = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ReplayError(f"{what} must be an integer, not {value!r}")
    if minimum is not None and value < minimum:
        raise ReplayError(f"{what} must be >= {minimum}, not {value!r}")
    return value


def parse_setup(setup: object) -> Tuple[str, ...]:
    """9 grid rows of 9 characters ``.XO#`` -> 81 characters by cell id (G1).

    :raises ReplayError: for a wrong shape or character.
    """
    if isinstance(setup, str) or not isinstance(setup, (list, tuple)):
        raise ReplayError(f"setup must be a list of 9 strings, not {setup!r}")
    if len(setup) != 9:
        raise ReplayError(f"setup must have 9 rows, not {len(setup)}")
    by_cell = ["."] * CELLS
    for row, text in enumerate(setup):
        if (
            not isinstance(text, str)
            or len(text) != 9
            or any(ch not in _SETUP_CHARS for ch in text)
        ):
            raise ReplayError(
                f"setup row {row} must be 9 characters of '.', 'X', 'O', '#', not {text!r}"
            )
        for col, ch in enumerate(text):
            by_cell[cell_at(row, col)] = ch
    return tuple(by_cell)


def grid_rows(by_cell: Sequence[str]) -> List[str]:
    """81 characters by cell id -> 9 grid rows (the inverse of :func:`parse_setup`)."""
    return ["".join(by_cell[cell_at(r, c)] for c in range(9)) for r in range(9)]


def check_deal(rules: RiftRules, deal: object) -> Tuple[Tuple[str, ...], Tuple[str, ...]]:
    """A ``{"X": [ids], "O": [ids]}`` deal: each hand ``objectives_per_player`` distinct
    ids of ``rules.objectives`` (G12).

    :raises ReplayError: naming the bad hand or id.
    """
    if not isinstance(deal, Mapping):
        raise ReplayError(f'deal must be an object {{"X": [ids], "O": [ids]}}, not {deal!r}')
    for key in deal:
        if key not in ("X", "O"):
            raise ReplayError(f"deal has unknown key {key!r}: expected 'X' and 'O'")
    hands = []
    for p in Player:
        hand = deal.get(p.letter)
        if isinstance(hand, str) or not isinstance(hand, (list, tuple)):
            raise ReplayError(f"deal.{p.letter} must be a list of objective ids, not {hand!r}")
        if len(hand) != rules.objectives_per_player:
            raise ReplayError(
                f"deal.{p.letter} has {len(hand)} objectives, not "
                f"objectives_per_player ({rules.objectives_per_player})"
            )
        for oid in hand:
            if not isinstance(oid, str) or oid not in OBJECTIVE_IDS:
                raise ReplayError(f"deal.{p.letter} has unknown objective {oid!r}")
            if oid not in rules.objectives:
                raise ReplayError(f"deal.{p.letter} has {oid!r}, which rules.objectives leaves out")
        if len(set(hand)) != len(hand):
            raise ReplayError(f"deal.{p.letter}={list(hand)!r}: an objective is dealt twice (G12)")
        hands.append(tuple(hand))
    return hands[0], hands[1]


def _move(value: object, where: str) -> Tuple[int, Ability]:
    if not isinstance(value, Mapping):
        raise ReplayError(f'{where} must be an object {{"cell": c, "ability": a}}, not {value!r}')
    for key in value:
        if key not in ("cell", "ability"):
            raise ReplayError(f"{where} has unknown key {key!r}")
    if "cell" not in value:
        raise ReplayError(f"{where} has no cell")
    cell = value["cell"]
    if isinstance(cell, bool) or not isinstance(cell, int):
        raise ReplayError(f"{where}.cell must be an integer 0-80, not {cell!r}")
    if not 0 <= cell < CELLS:
        raise ReplayError(f"{where}.cell={cell!r} is outside 0-80")
    ability = value.get("ability")
    try:
        parsed = Ability.NONE if ability is None else Ability.parse(ability)
    except (TypeError, ValueError) as exc:
        raise ReplayError(f"{where}.ability: {exc}") from None
    return cell, parsed


def load_replay(data: object) -> ReplayFile:
    """Validate a parsed replay file. :raises ReplayError: with one clear line."""
    if not isinstance(data, Mapping):
        raise ReplayError(f"a replay file is a JSON object, not {type(data).__name__}")
    game = data.get("game", "rift")
    if game != "rift":
        raise ReplayError(f"this is a replay of game {game!r}, not 'rift'")
    try:
        rules = RiftRules.from_dict(data.get("rules") or {})
    except (TypeError, ValueError) as exc:
        raise ReplayError(f"rules: {exc}") from None
    seed = data.get("seed")
    seed = 0 if seed is None else _integer(seed, "seed")
    deal = None if data.get("deal") is None else check_deal(rules, data["deal"])
    setup = None if data.get("setup") is None else parse_setup(data["setup"])
    script = data.get("script", [])
    if script is None:
        script = []
    if isinstance(script, str) or not isinstance(script, (list, tuple)):
        raise ReplayError(f"script must be a list of turns, not {script!r}")
    entries: List[Entry] = []
    for i, item in enumerate(script):
        where = f"script[{i}]"
        if not isinstance(item, Mapping):
            raise ReplayError(f"{where} must be an object, not {item!r}")
        for key in item:
            if key not in ("turn", "X", "O"):
                raise ReplayError(f"{where} has unknown key {key!r}: expected turn, X, O")
        if "turn" not in item:
            raise ReplayError(f"{where} has no turn")
        turn = _integer(item["turn"], f"{where}.turn", minimum=1)
        players = [p for p in Player if p.letter in item]
        if not players:
            raise ReplayError(f"{where} names no player (X or O)")
        for p in players:
            cell, ability = _move(item[p.letter], f"{where}.{p.letter}")
            entries.append(Entry(turn, p, cell, ability))
    entries.sort(key=lambda e: e.turn)  # stable: file order within a turn
    until = data.get("until")
    until = None if until is None else _integer(until, "until", minimum=0)
    return ReplayFile(rules, seed, deal, setup, tuple(entries), until)


EngineFactory = Callable[..., Any]
"""``factory(rules, seed, deal=, setup=)``: :class:`ReferenceRift` or the native one."""


def play_replay(replay: ReplayFile, engine_factory: EngineFactory) -> dict:
    """Play a validated replay on a fresh engine; returns the result object."""
    engine = engine_factory(replay.rules, replay.seed, deal=replay.deal, setup=replay.setup)
    last = (
        replay.until
        if replay.until is not None
        else max((e.turn for e in replay.entries), default=0)
    )
    by_turn: Dict[int, List[Entry]] = {}
    for entry in replay.entries:
        if entry.turn <= last:
            by_turn.setdefault(entry.turn, []).append(entry)
    turns: List[dict] = []
    rejected: List[dict] = []
    stopped = None
    for turn in range(1, last + 1):
        if engine.over:  # G16: every later entry is rejected with game_over
            for later in sorted(t for t in by_turn if t >= turn):
                for entry in by_turn[later]:
                    reason = engine.rejection(entry.player, entry.cell, entry.ability)
                    rejected.append(
                        {"turn": later, "player": entry.player.letter, "reason": reason.value}
                    )
            break
        chosen: List[Optional[Tuple[int, Ability]]] = [None, None]
        for entry in by_turn.get(turn, ()):
            reason = engine.rejection(entry.player, entry.cell, entry.ability)
            if reason is None:
                chosen[entry.player] = (entry.cell, entry.ability)  # changed their mind
            else:
                rejected.append(
                    {"turn": turn, "player": entry.player.letter, "reason": reason.value}
                )
        missing = [p.letter for p in Player if chosen[p] is None]
        if missing:
            stopped = {"turn": turn, "player": missing[0], "players": missing}
            break
        turns.append(engine.resolve(chosen[0], chosen[1]))
    return {
        "turns": turns,
        "rejected": rejected,
        "state": engine.summary(),
        "result": engine.result,
        "stopped": stopped,
    }


def to_replay_dict(rules: RiftRules, seed: int, deal, setup, entries: Sequence[Entry]) -> dict:
    """The replay file of a recorded game (what ``RiftState.to_replay`` returns)."""
    out: Dict[str, Any] = {"game": "rift", "seed": seed}
    if rules.overrides():
        out["rules"] = rules.overrides()
    if deal is not None:
        out["deal"] = {"X": list(deal[0]), "O": list(deal[1])}
    if setup is not None:
        out["setup"] = grid_rows(setup)
    out["script"] = [e.to_dict() for e in entries]
    return out
