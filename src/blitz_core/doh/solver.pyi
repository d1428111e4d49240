"""Types of blitz_core.doh.solver (exact solver, native bots, match loop); see solver.pyx."""

from typing import Dict, Sequence, Tuple

import numpy as np
import numpy.typing as npt
from typing_extensions import TypeAlias, disjoint_base

from .engine import Position

WIN_SCORE: int
KIND_CODES: Dict[str, int]
END_NAMES: Tuple[str, ...]

_BotSpec: TypeAlias = Tuple[int, float, int]  # (kind, error rate, fallback kind)

@disjoint_base
class Solver:
    pieces_per_size: int
    grid: int
    players: int
    def __init__(self, rules: Tuple[int, ...], initial_bits: int = 16) -> None: ...
    @property
    def nodes(self) -> int: ...
    @property
    def entries(self) -> int: ...
    @property
    def memory_bytes(self) -> int: ...
    def score(self, position: Position) -> int: ...
    def value(self, position: Position) -> Tuple[int, int]: ...
    def action_scores(self, position: Position) -> npt.NDArray[np.int16]: ...
    def paranoid_score(self, position: Position, seat: int) -> int: ...
    def paranoid_value(self, position: Position, seat: int) -> Tuple[int, int]: ...
    def paranoid_action_scores(self, position: Position, seat: int) -> npt.NDArray[np.int16]: ...
    def choose(self, position: Position, spec: _BotSpec, seed: int) -> int: ...
    def play_matches(
        self, specs: Sequence[_BotSpec], seeds: npt.ArrayLike, opening: int = -1
    ) -> Tuple[
        npt.NDArray[np.int8],
        npt.NDArray[np.int16],
        npt.NDArray[np.int8],
        npt.NDArray[np.int8],
        npt.NDArray[np.int8],
    ]: ...
