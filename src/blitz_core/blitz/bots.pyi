"""Types of blitz_core.blitz.bots (native bot policies and the policy match loop); the
friendly face is tictacblitz.games.blitz.bots."""

from typing import Any, Dict, Optional, Tuple

from typing_extensions import TypeAlias, disjoint_base

from tictacblitz.games.blitz.rules import Rules

from .match import NATIVE_CODES as NATIVE_CODES
from .match import Match

# A native policy's spec (tictacblitz.games.blitz.bots builds it): a stub-only alias.
_NativeSpec: TypeAlias = Tuple[Any, ...]

SEAT_SALTS: Tuple[int, int]
RULE_NAMES: Tuple[str, ...]
KIND_CODES: Dict[str, int]
DEFAULT_BUDGET: int
DEFAULT_HORIZON_MS: int
DEFAULT_CANDIDATES: int

@disjoint_base
class NativePolicy:
    def __init__(self, spec: _NativeSpec, seed: int = 0) -> None: ...
    @property
    def reaction_ms(self) -> int: ...
    def reaction_at(self, since: int) -> int: ...
    def decide(self, match: Match, seat: int) -> Tuple[str, int, int, int]: ...

SEAT_COUNT_FIELDS: Tuple[str, ...]

def play_matches(
    rules: Optional[Rules],
    x_spec: _NativeSpec,
    o_spec: _NativeSpec,
    seeds: Any,
    *,
    random_powerups: bool = True,
    stream: int = 2,
    timing: bool = False,
) -> Dict[str, Any]: ...
def match_record(cols: Dict[str, Any], i: int, seed: int) -> Dict[str, Any]: ...
def set_strong_weights(place: Any, knockout: Any, extra: Any) -> None: ...
def winning_cells_mask(match: Match, seat: int) -> int: ...
def time_reactions(spec: _NativeSpec, repeats: int, seed: int = 0) -> Dict[str, float]: ...
def time_decisions(
    match: Match, spec: _NativeSpec, seat: int, repeats: int, seed: int = 0
) -> float: ...
