"""The exact solver of Tic Tac Doh (the Python face of ``blitz_core.doh.solver``).

Scores are from the side to move: ``WIN - d`` for a win ``d`` plies away, ``-(WIN - d)``
for a loss ``d`` plies away, 0 for a draw (``WIN`` = 100). Maximising that one number
keeps the best value and then wins in the fewest moves or loses in the most (the
perfect player of docs/doh.md, "The solver"). The native search is negamax with alpha-beta
and a transposition table over canonical positions (translations are one position by
construction, D2; the 8 symmetries of the square share an entry), run without the GIL.

With 3 or 4 players (D10) the exact answer is each seat's *paranoid* value (DOH.md,
"Solving"): the seat maximises, every other seat (a coalition) minimises the seat's
outcome, with scores from the seat's side in the same form (``paranoid_solve``,
``paranoid_values``; the native search is ``blitz_core.doh.paranoid``). With 2 players
it is the negamax value seen from a fixed seat.

One :class:`Solver` per rules configuration is kept for the process
(:func:`solver_for`): its table only grows, so every answer makes the next cheaper.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Optional, Tuple

import numpy as np

from blitz_core.doh.engine import Position
from blitz_core.doh.solver import WIN_SCORE, Solver

from .rules import DohRules
from .types import SEATS

__all__ = [
    "Solver",
    "WIN_SCORE",
    "solver_for",
    "thread_solver",
    "Solution",
    "solve",
    "score_value",
    "ParanoidSolution",
    "paranoid_solve",
    "paranoid_values",
]


@lru_cache(maxsize=None)
def solver_for(rules: DohRules) -> Solver:
    """The process's solver for these rules (shared, thread-safe)."""
    return Solver(rules.native_params())


_LOCAL = threading.local()


def thread_solver(rules: DohRules) -> Solver:
    """This thread's own solver for these rules: batch loops that run in parallel
    threads (the lab's chunks) each search their own table instead of queueing on the
    shared one's lock (a table costs one solve, ~15 ms, and 1 MiB)."""
    solvers = getattr(_LOCAL, "solvers", None)
    if solvers is None:
        solvers = _LOCAL.solvers = {}
    if rules not in solvers:
        solvers[rules] = Solver(rules.native_params())
    return solvers[rules]


def score_value(score: int, pieces_left: int) -> Tuple[int, int]:
    """``(value, distance)`` of a score: value +1 win, 0 draw, -1 loss for the side to
    move; distance in plies to the end (a draw ends when the stash is empty, D8)."""
    if score > 0:
        return 1, WIN_SCORE - score
    if score < 0:
        return -1, WIN_SCORE + score
    return 0, pieces_left


@dataclass(frozen=True)
class Solution:
    """The value of the empty table under perfect play, and what finding it cost."""

    rules: DohRules
    value: str  # "first", "second" or "draw"
    distance: int  # plies to the end under perfect play
    nodes: int  # positions the search expanded
    entries: int  # positions stored in the transposition table
    memory_bytes: int  # the table's size
    seconds: float

    def to_dict(self) -> dict:
        return {
            "pieces_per_size": self.rules.pieces_per_size,
            "grid": self.rules.grid,
            "value": self.value,
            "distance": self.distance,
            "nodes": self.nodes,
            "entries": self.entries,
            "memory_bytes": self.memory_bytes,
            "seconds": self.seconds,
        }


def solve(rules: Optional[DohRules] = None, *, fresh: bool = True) -> Solution:
    """Solve the empty table (first to move).

    :param fresh: use a new solver (so ``nodes``, ``entries`` and ``seconds`` measure a
        whole solve) rather than the process's shared one.
    """
    rules = rules if rules is not None else DohRules()
    if rules.players != 2:
        raise ValueError(
            f"solve() answers two players, not {rules.players}: paranoid_values() answers 3-4"
        )
    solver = Solver(rules.native_params()) if fresh else solver_for(rules)
    start = Position(rules.native_params())
    began = time.perf_counter()
    score = solver.score(start)
    seconds = time.perf_counter() - began
    value, distance = score_value(score, rules.total_pieces)
    who = "draw" if value == 0 else SEATS[0] if value > 0 else SEATS[1]
    return Solution(
        rules, who, distance, solver.nodes, solver.entries, solver.memory_bytes, seconds
    )


def action_scores(rules: DohRules, position: Position) -> np.ndarray:
    """Each legal action's exact score for the mover (int16; -32768 where illegal)."""
    return solver_for(rules).action_scores(position)


PARANOID_VALUES = ("loss", "draw", "win")
"""A paranoid value's names, indexed by value + 1 (a loss: some other seat wins)."""


@dataclass(frozen=True)
class ParanoidSolution:
    """One seat's paranoid value of the empty table, and what finding it cost."""

    rules: DohRules
    seat: str  # the seat against the coalition of all the others
    value: str  # "win", "draw" or "loss" (some other seat wins), for that seat
    distance: int  # plies to the end under paranoid play
    nodes: int  # positions the search expanded
    entries: int  # positions stored in the transposition table
    memory_bytes: int  # the table's size
    seconds: float  # wall time
    cpu_seconds: float  # this process's CPU time (one core: the search is one thread)

    def to_dict(self) -> dict:
        return {
            "players": self.rules.players,
            "pieces_per_size": self.rules.pieces_per_size,
            "grid": self.rules.grid,
            "seat": self.seat,
            "value": self.value,
            "distance": self.distance,
            "nodes": self.nodes,
            "entries": self.entries,
            "memory_bytes": self.memory_bytes,
            "seconds": self.seconds,
            "cpu_seconds": self.cpu_seconds,
        }


def paranoid_solve(rules: DohRules, seat: int, *, fresh: bool = True) -> ParanoidSolution:
    """One seat's paranoid value of the empty table (issue 25 item 3).

    :param seat: 0 (``first``) to ``rules.players - 1``.
    :param fresh: use a new solver (so ``nodes``, ``entries``, ``memory_bytes`` and the
        times measure this seat's whole solve) rather than the process's shared one.
    :raises ValueError: for a seat the rules do not have.
    """
    solver = Solver(rules.native_params()) if fresh else solver_for(rules)
    start = Position(rules.native_params())
    began, cpu = time.perf_counter(), time.process_time()
    score = solver.paranoid_score(start, seat)
    seconds, cpu_seconds = time.perf_counter() - began, time.process_time() - cpu
    value, distance = score_value(score, rules.total_pieces)
    return ParanoidSolution(
        rules,
        SEATS[seat],
        PARANOID_VALUES[value + 1],
        distance,
        solver.nodes,
        solver.entries,
        solver.memory_bytes,
        seconds,
        cpu_seconds,
    )


def paranoid_values(rules: DohRules) -> Tuple[ParanoidSolution, ...]:
    """Every seat's paranoid value of the empty table, each from a fresh table."""
    return tuple(paranoid_solve(rules, seat) for seat in range(rules.players))
