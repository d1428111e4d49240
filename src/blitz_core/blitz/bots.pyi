"""Types of blitz_core.blitz.bots (native bot policies and the policy match loop); the
friendly face is tictacblitz.games.blitz.bots."""

from typing import Any, Dict, Iterable, Optional, Sequence, Tuple

from tictacblitz.games.blitz.rules import Rules

from .match import Match

NativeSpec = Tuple[Any, ...]

class NativePolicy:
    def __init__(self, spec: NativeSpec, seed: int = 0) -> None: ...
    @property
    def reaction_ms(self) -> int: ...
    def decide(self, match: Match, seat: int) -> Tuple[str, int, int, int]: ...

def play_matches(rules: Rules, x_spec: NativeSpec, o_spec: NativeSpec, seeds: Sequence[int], *,
                 random_powerups: bool = True, records: bool = False,
                 timing: bool = False) -> Dict[str, Any]: ...
SEAT_COUNT_FIELDS: Tuple[str, ...]

def play_match_columns(rules: Optional[Rules], x_spec: NativeSpec, o_spec: NativeSpec,
                       seeds: Any, *, random_powerups: bool = True) -> Dict[str, Any]: ...
def winning_cells_mask(match: Match, seat: int) -> int: ...
def time_decisions(match: Match, spec: NativeSpec, seat: int, repeats: int, seed: int = 0) -> float: ...
