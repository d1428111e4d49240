"""The pure-Python reference engine of Rift & Grid: the oracle of the rules (G1-G17).

:class:`ReferenceRift` is written to be read, not to be fast: the grid is a list of 81
characters (``.``, ``X``, ``O``, ``#`` for grey), sectors are a list of
:class:`~.types.SectorResult`, and a turn is resolved in G6's order, one step per
method. The native core (``blitz_core.rift.engine``, behind :mod:`.native`) has the same
surface and is tested against this one turn by turn (tests/rift/test_rift_differential.py).

Both engines take their input already validated (the replay loader and the protocol
adapter check it); a move given to :meth:`resolve` must be legal (G4, G5).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from ..rng import SplitMix64, check_seed  # the platform's one Python SplitMix64 (G12's deal)
from .rules import RiftRules
from .types import (
    CORNER_SECTORS,
    DIAGONAL_LINES,
    EDGE_SECTORS,
    LINES,
    Ability,
    Player,
    Reason,
    SectorResult,
    grid_row_col,
    position_of,
    sector_of,
)

__all__ = ["ReferenceRift", "deal_objectives", "SplitMix64", "Move"]

Move = Tuple[int, Ability]
"""A move of G3: ``(target cell, ability)``."""

_SYMBOL = {Player.X: "X", Player.O: "O"}
GREY = "#"
EMPTY = "."


def deal_objectives(rules: RiftRules, seed: int) -> Tuple[Tuple[str, ...], Tuple[str, ...]]:
    """G12: the seeded deal. The game's SplitMix64 stream, seeded with ``seed``, deals
    X's hand, then O's, each by a partial Fisher-Yates shuffle of ``rules.objectives``
    (in rules order): for ``i`` in ``0..k-1`` swap item ``i`` with item
    ``i + below(n - i)``; the first ``k`` items, in that order, are the hand (its dealt
    order). O's shuffle starts again from the rules' order, so the hands may share ids.

    >>> deal_objectives(RiftRules(objectives_per_player=0), 1)
    ((), ())
    """
    rng = SplitMix64(check_seed(seed))
    hands = []
    for _ in Player:
        pool = list(rules.objectives)
        for i in range(rules.objectives_per_player):
            j = i + rng.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        hands.append(tuple(pool[: rules.objectives_per_player]))
    return hands[0], hands[1]


@dataclass
class _Objective:
    id: str
    points: int
    accomplished: bool = False
    revealed: bool = False


class ReferenceRift:
    """One game of Rift & Grid.

    :param deal: ``(X's ids, O's ids)`` replacing the seeded deal (replay files).
    :param setup: 81 characters (``.XO#``) by cell id: the starting grid; each sector's
        result is derived from it by G8 and it scores nothing.
    """

    def __init__(
        self,
        rules: Optional[RiftRules] = None,
        seed: int = 0,
        *,
        deal: Optional[Tuple[Sequence[str], Sequence[str]]] = None,
        setup: Optional[Sequence[str]] = None,
    ) -> None:
        self.rules = rules if rules is not None else RiftRules()
        self.seed = check_seed(seed)
        if deal is None:
            deal = deal_objectives(self.rules, seed)
        self.hands: List[List[_Objective]] = [
            [_Objective(oid, self.rules.points(oid)) for oid in deal[p]] for p in Player
        ]
        self.grid: List[str] = list(setup) if setup is not None else [EMPTY] * 81
        self.sectors: List[SectorResult] = [SectorResult.OPEN] * 9
        for s in range(9):  # G8 on the setup: no points, no energy
            self.sectors[s] = self._judge(s)
        self.active: Optional[int] = None  # G9: turn 1 is free
        self.turn = 1
        self.energy = [self.rules.energy_start] * 2  # G13
        self.ready: List[Dict[Ability, int]] = [  # G14
            {a: 1 for a in Ability if a != Ability.NONE} for _ in Player
        ]
        self.score = [0, 0]
        self.meta_scored: List[bool] = [False] * len(LINES)  # G11: once
        self.over = False
        self.result: Optional[str] = None
        if all(r != SectorResult.OPEN for r in self.sectors):  # a setup that decides all
            self._end()

    # -- reading -------------------------------------------------------------------------

    def clone(self) -> "ReferenceRift":
        return copy.deepcopy(self)

    def rejection(self, player: Player, cell: int, ability: Ability) -> Optional[Reason]:
        """G5: the first reason a move is rejected, in the contract's order, or None."""
        if self.over:
            return Reason.GAME_OVER
        sector = sector_of(cell)
        if self.sectors[sector] != SectorResult.OPEN:
            return Reason.SECTOR_DECIDED
        if self.active is not None and sector != self.active:  # G4
            return Reason.WRONG_SECTOR
        if self.grid[cell] != EMPTY:
            return Reason.NOT_EMPTY
        if ability != Ability.NONE:
            if self.energy[player] < self.rules.cost(ability):
                return Reason.NO_ENERGY
            if self.turn < self.ready[player][ability]:
                return Reason.COOLING_DOWN
            if ability == Ability.REVEAL and self._next_to_reveal(player.other) is None:
                return Reason.NOTHING_TO_REVEAL
        return None

    def legal_moves(self, player: Player) -> List[Move]:
        return [(c, a) for a in Ability for c in range(81) if self.rejection(player, c, a) is None]

    def summary(self) -> dict:
        """The ``state`` object of a replay result."""
        rows = [[EMPTY] * 9 for _ in range(9)]
        for cell, ch in enumerate(self.grid):
            r, c = grid_row_col(cell)
            rows[r][c] = ch
        return {
            "grid": ["".join(row) for row in rows],
            "sectors": [r.value for r in self.sectors],
            "active": self.active,
            "score": {"X": self.score[0], "O": self.score[1]},
            "energy": {"X": self.energy[0], "O": self.energy[1]},
            "cooldowns": {p.letter: {a.key: t for a, t in self.ready[p].items()} for p in Player},
            "objectives": {
                p.letter: [
                    {
                        "id": o.id,
                        "points": o.points,
                        "accomplished": o.accomplished,
                        "revealed": o.revealed,
                    }
                    for o in self.hands[p]
                ]
                for p in Player
            },
            "turn": self.turn,
        }

    # -- a turn (G6) ---------------------------------------------------------------------

    def resolve(self, x_move: Move, o_move: Move) -> dict:
        """Resolve one turn from both players' legal moves; returns the turn's report."""
        moves = (x_move, o_move)
        for p in Player:
            reason = self.rejection(p, *moves[p])
            if reason is not None:
                raise ValueError(f"{p.letter}'s move {moves[p]} is rejected: {reason.value}")
        abilities = [moves[p][1] for p in Player]
        report = {
            "turn": self.turn,
            "moves": {p.letter: {"cell": moves[p][0], "ability": abilities[p].key} for p in Player},
        }
        points: List[List[dict]] = [[], []]

        # 1. Costs: each ability used is paid and its cooldown starts (G14).
        for p in Player:
            if abilities[p] != Ability.NONE:
                self.energy[p] -= self.rules.cost(abilities[p])
                self.ready[p][abilities[p]] = self.turn + self.rules.cooldown(abilities[p])

        # 2. Swap: exactly one swap exchanges the two targets; two swaps cancel.
        swappers = [p for p in Player if abilities[p] == Ability.SWAP]
        targets = [x_move[0], o_move[0]]
        exchanged_by: Optional[Player] = None
        if len(swappers) == 1:
            targets.reverse()
            exchanged_by = swappers[0]

        # 3. Placement: different cells each take their symbol; one cell is a collision,
        #    won by a lone shield, else grey. A shield without a collision does nothing.
        got: List[Optional[int]] = [None, None]
        grey: Optional[int] = None
        shield_won: Optional[Player] = None
        collision = targets[0] == targets[1]
        if not collision:
            for p in Player:
                self.grid[targets[p]] = _SYMBOL[p]
                got[p] = targets[p]
        else:
            shielders = [p for p in Player if abilities[p] == Ability.SHIELD]
            if len(shielders) == 1:
                shield_won = shielders[0]
                self.grid[targets[0]] = _SYMBOL[shield_won]
                got[shield_won] = targets[0]
            else:
                self.grid[targets[0]] = GREY
                grey = targets[0]

        # 4. Sectors: every sector that changed, in sector order (G8, G10).
        decided = []
        won_now = [0, 0]
        for s in sorted({sector_of(c) for c in targets}):
            result = self._judge(s)
            if result == SectorResult.OPEN:
                continue
            self.sectors[s] = result
            decided.append({"sector": s, "result": result.value})
            if result == SectorResult.TIE:
                for p in Player:
                    self._gain(
                        points, p, self.rules.sector_tie_points, cause="sector_tie", sector=s
                    )
            else:
                winner = Player[result.value]
                won_now[winner] += 1
                self._gain(
                    points, winner, self.rules.sector_win_points, cause="sector_win", sector=s
                )

        # 5. Meta lines (G11), energy (G13), objectives (G12, G17), reveal (G15).
        for i, line in enumerate(LINES):
            if self.meta_scored[i]:
                continue
            for p in Player:
                if all(self.sectors[s] == SectorResult(p.letter) for s in line):
                    self.meta_scored[i] = True
                    self._gain(
                        points, p, self.rules.meta_line_points, cause="meta_line", line=list(line)
                    )
        for p in Player:
            gain = self.rules.energy_idle_gain if abilities[p] == Ability.NONE else 0
            gain += self.rules.energy_sector_gain * won_now[p]
            self.energy[p] = min(self.rules.energy_max, self.energy[p] + gain)
        for p in Player:
            facts = {
                "shield_win": shield_won == p,
                "swap_win": exchanged_by == p and won_now[p] > 0,
            }
            for objective in self.hands[p]:
                if not objective.accomplished and self._holds(objective.id, p, facts):
                    objective.accomplished = True
                    self._gain(
                        points, p, objective.points, cause="objective", objective=objective.id
                    )
        revealed: List[Optional[str]] = [None, None]
        for p in Player:
            if abilities[p] == Ability.REVEAL:
                shown = self._next_to_reveal(p.other)
                if shown is not None:
                    shown.revealed = True
                    revealed[p] = shown.id

        # 6. Next sector (G9), then the end check (G16).
        nxt = position_of(targets[0])
        self.active = nxt if self.sectors[nxt] == SectorResult.OPEN else None
        self.turn += 1
        if all(r != SectorResult.OPEN for r in self.sectors):
            self._end()

        report.update(
            {
                "targets": {"X": targets[0], "O": targets[1]},
                "swapped": exchanged_by is not None,
                "collision": collision,
                "cells": {"X": got[0], "O": got[1]},
                "grey": grey,
                "sectors": decided,
                "points": {p.letter: points[p] for p in Player},
                "revealed": {p.letter: revealed[p] for p in Player},
                "active": self.active,
            }
        )
        return report

    # -- the steps' helpers ----------------------------------------------------------------

    def _lines(self, sector: int, player: Player) -> List[int]:
        """G7: the numbers of the lines ``player`` holds in ``sector``."""
        base = 9 * sector
        return [
            i
            for i, line in enumerate(LINES)
            if all(self.grid[base + q] == _SYMBOL[player] for q in line)
        ]

    def _judge(self, sector: int) -> SectorResult:
        """G8: a sector's result from its cells."""
        x, o = self._lines(sector, Player.X), self._lines(sector, Player.O)
        if x and o:
            return SectorResult.TIE
        if x:
            return SectorResult.X
        if o:
            return SectorResult.O
        if EMPTY not in self.grid[9 * sector : 9 * sector + 9]:
            return SectorResult.TIE
        return SectorResult.OPEN

    def _gain(self, points: List[List[dict]], player: Player, amount: int, **cause) -> None:
        self.score[player] += amount
        points[player].append({**cause, "points": amount})

    def _won(self, player: Player) -> List[int]:
        return [s for s in range(9) if self.sectors[s] == SectorResult(player.letter)]

    def _holds(self, oid: str, p: Player, facts: dict) -> bool:
        """G17: whether objective ``oid`` of ``p`` holds now (step 5 of a turn). The
        conditions on won sectors read the state: a won sector never changes again, so
        "was won with/when" is the same as "is won with" (and a setup's won sectors
        count from turn 1 on, as the replay format says)."""
        won = set(self._won(p))
        if oid == "centre":
            return 4 in won
        if oid == "diagonal_win":
            return any(any((1 << i) & DIAGONAL_LINES for i in self._lines(s, p)) for s in won)
        if oid == "shield_win":
            return facts["shield_win"]
        if oid == "full_energy":
            return self.energy[p] == self.rules.energy_max
        if oid == "centre_cells":
            return sum(self.grid[9 * s + 4] == _SYMBOL[p] for s in range(9)) >= 3
        if oid == "two_corners":
            return sum(1 for s in won if CORNER_SECTORS >> s & 1) >= 2
        if oid == "two_edges":
            return sum(1 for s in won if EDGE_SECTORS >> s & 1) >= 2
        if oid == "four_sectors":
            return len(won) >= 4
        if oid == "clean_sweep":
            return any(_SYMBOL[p.other] not in self.grid[9 * s : 9 * s + 9] for s in won)
        if oid == "swap_win":
            return facts["swap_win"]
        if oid == "opposite_corners":
            return {0, 8} <= won or {2, 6} <= won
        if oid == "meta_line":
            return any(all(s in won for s in line) for line in LINES)
        raise AssertionError(oid)  # pragma: no cover - the rules only hold known ids

    def _next_to_reveal(self, owner: Player) -> Optional[_Objective]:
        """G15: the first of ``owner``'s objectives, in dealt order, that is neither
        revealed nor accomplished."""
        for objective in self.hands[owner]:
            if not objective.revealed and not objective.accomplished:
                return objective
        return None

    def _end(self) -> None:
        """G16: the higher score wins; equal scores draw."""
        self.over = True
        x, o = self.score
        self.result = "X" if x > o else "O" if o > x else "draw"
