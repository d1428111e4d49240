"""The native core (``blitz_core.rift.engine.Core``) behind the reference's surface.

:class:`NativeRift` speaks the same language as :class:`~.reference.ReferenceRift`
(players, abilities, reasons, turn reports, the ``state`` summary), so the replay
runner, the protocol adapter and the differential tests take either engine.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

import numpy as np

from blitz_core.rift import engine as _engine

from .rules import RiftRules
from .types import LINES, OBJECTIVE_IDS, Ability, Player, Reason, SectorResult, grid_row_col


def python_codes() -> dict:
    """The codes this package's vocabulary gives what the native core numbers."""
    return {
        "Ability": {ability.name: int(ability) for ability in Ability},
        "Reason": {reason.name: reason.code for reason in Reason},
        "Objective": {oid: i for i, oid in enumerate(OBJECTIVE_IDS)},
    }


def check_native_codes(native: dict) -> None:
    """The native core's C enums (engine.pxd) must number abilities, reasons (G5) and
    objectives (G17) as types.py does: a drift fails at import, never in a game.

    :raises ImportError: naming what differs."""
    python = python_codes()
    if python != native:
        differ = sorted(k for k in set(python) | set(native) if python.get(k) != native.get(k))
        raise ImportError(f"blitz_core.rift.engine's codes differ from types.py for {differ}")


check_native_codes(_engine.NATIVE_CODES)

__all__ = ["NativeRift", "Core"]

Core = _engine.Core

_CELL_CHARS = ".XO#"
_SECTOR = (SectorResult.OPEN, SectorResult.X, SectorResult.O, SectorResult.TIE)
_RESULT = ("X", "O", "draw")
_SETUP_CODE = {".": 0, "X": 1, "O": 2, "#": 3}


class NativeRift:
    """One game on the native core; same constructor and surface as ReferenceRift."""

    def __init__(
        self,
        rules: Optional[RiftRules] = None,
        seed: int = 0,
        *,
        deal: Optional[Tuple[Sequence[str], Sequence[str]]] = None,
        setup: Optional[Sequence[str]] = None,
        _core=None,
    ) -> None:
        self.rules = rules if rules is not None else RiftRules()
        self.seed = seed
        if _core is not None:
            self.core = _core
            return
        codes = (
            None
            if deal is None
            else tuple(tuple(OBJECTIVE_IDS.index(oid) for oid in hand) for hand in deal)
        )
        cells = None if setup is None else tuple(_SETUP_CODE[ch] for ch in setup)
        self.core = Core(self.rules.native_params(), seed, codes, cells)

    # -- reading -------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.core.over

    @property
    def result(self) -> Optional[str]:
        code = self.core.result
        return None if code is None else _RESULT[code]

    @property
    def turn(self) -> int:
        return self.core.turn

    def clone(self) -> "NativeRift":
        return NativeRift(self.rules, self.seed, _core=self.core.clone())

    def rejection(self, player: Player, cell: int, ability: Ability) -> Optional[Reason]:
        code = self.core.rejection(int(player), cell, int(ability))
        return None if code == 0 else Reason.from_code(code)

    def legal_mask(self, player: Player) -> np.ndarray:
        return self.core.legal_mask(int(player))

    def hands(self) -> List[List[dict]]:
        """Per seat, its dealt objectives in order: ``{"id", "points", "accomplished",
        "revealed"}``."""
        return [
            [
                {
                    "id": OBJECTIVE_IDS[code],
                    "points": self.rules.points(OBJECTIVE_IDS[code]),
                    "accomplished": acc,
                    "revealed": rev,
                }
                for code, acc, rev in self.core.hand(p)
            ]
            for p in Player
        ]

    def summary(self) -> dict:
        cells = self.core.cells()
        rows = [["."] * 9 for _ in range(9)]
        for cell, code in enumerate(cells):
            r, c = grid_row_col(cell)
            rows[r][c] = _CELL_CHARS[code]
        score, energy = self.core.score, self.core.energy
        hands = self.hands()
        return {
            "grid": ["".join(row) for row in rows],
            "sectors": [_SECTOR[s].value for s in self.core.sectors()],
            "active": self.core.active,
            "score": {"X": score[0], "O": score[1]},
            "energy": {"X": energy[0], "O": energy[1]},
            "cooldowns": {
                p.letter: dict(zip(("shield", "swap", "reveal"), self.core.ready(p), strict=True))
                for p in Player
            },
            "objectives": {p.letter: hands[p] for p in Player},
            "turn": self.core.turn,
        }

    # -- a turn --------------------------------------------------------------------------
    def resolve(self, x_move: Tuple[int, Ability], o_move: Tuple[int, Ability]) -> dict:
        """G6 on two legal moves; the turn's report in the reference's shape."""
        turn = self.core.turn
        hands_before = self.core.hand(0), self.core.hand(1)
        raw = self.core.resolve(x_move[0], int(x_move[1]), o_move[0], int(o_move[1]))
        sectors = self.core.sectors()
        rules = self.rules
        points: List[List[dict]] = [[], []]
        decided = []
        for s in range(9):
            if raw["decided"] >> s & 1:
                result = _SECTOR[sectors[s]]
                decided.append({"sector": s, "result": result.value})
                if result == SectorResult.TIE:
                    for p in Player:
                        points[p].append(
                            {"cause": "sector_tie", "sector": s, "points": rules.sector_tie_points}
                        )
                else:
                    points[Player[result.value]].append(
                        {"cause": "sector_win", "sector": s, "points": rules.sector_win_points}
                    )
        for i, line in enumerate(LINES):
            for p in Player:
                if raw["meta_new"][p] >> i & 1:
                    points[p].append(
                        {"cause": "meta_line", "line": list(line), "points": rules.meta_line_points}
                    )
        for p in Player:
            for i, (code, _, _) in enumerate(hands_before[p]):
                if raw["obj_new"][p] >> i & 1:
                    oid = OBJECTIVE_IDS[code]
                    points[p].append(
                        {"cause": "objective", "objective": oid, "points": rules.points(oid)}
                    )
        revealed = [
            None
            if raw["revealed"][p] < 0
            else OBJECTIVE_IDS[hands_before[1 - p][raw["revealed"][p]][0]]
            for p in Player
        ]
        got = raw["got"]
        return {
            "turn": turn,
            "moves": {
                "X": {"cell": x_move[0], "ability": Ability(x_move[1]).key},
                "O": {"cell": o_move[0], "ability": Ability(o_move[1]).key},
            },
            "targets": {"X": raw["target"][0], "O": raw["target"][1]},
            "swapped": raw["swapped_by"] >= 0,
            "collision": raw["collision"],
            "cells": {"X": None if got[0] < 0 else got[0], "O": None if got[1] < 0 else got[1]},
            "grey": None if raw["grey"] < 0 else raw["grey"],
            "sectors": decided,
            "points": {p.letter: points[p] for p in Player},
            "revealed": {p.letter: revealed[p] for p in Player},
            "active": self.core.active,
        }
