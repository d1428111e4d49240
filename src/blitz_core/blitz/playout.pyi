"""Types of blitz_core.blitz.playout (whole random-vs-random matches in the native loop)."""

from typing import Any, Dict, Iterable, Optional

from tictacblitz.games.blitz.rules import Rules

from .match import Match

POLICY_SEED_SALT: int

def random_matches(
    rules: Optional[Rules] = None,
    seeds: Optional[Iterable[int]] = None,
    *,
    n: int = 0,
    random_powerups: bool = True,
    stream: int = 2,
) -> Dict[str, Any]: ...
def play_random(match: Match, seed: int, *, whole_match: bool = True) -> Dict[str, int]: ...
