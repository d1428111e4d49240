"""Random playouts over the public match API, in Python.

:func:`play_random` plays a match on with two random players exactly as the native loop
``blitz_core.blitz.playout.play_random`` does (same policy, same random stream, same decision
ms), but only through the public API, so it drives the pure-Python reference and the
native engine alike: the same seed gives the same match on both. Differential tests and
the reference-speed benchmark use it; for speed use the native loop.
"""

from __future__ import annotations

from typing import List, Optional

from blitz_core.blitz.playout import POLICY_SEED_SALT  # the native loop's value: one source

from ..rng import SplitMix64
from .types import Action, Player

__all__ = ["POLICY_SEED_SALT", "legal_actions_from_board", "play_random"]

_PLACEABLE = ".BFHS"  # empty or a powerup (R6, R15); not a mark, not a crater


def legal_actions_from_board(board: List[str], player: Player) -> List[Action]:
    """Every placement (ascending cell), then every knock-out (ascending cell), that the
    board allows for a charged player in a live round (R6, R7, R9)."""
    size = len(board)
    target = "o" if player == Player.X else "x"  # the opponent's setting marks
    cells = [(r, c) for r in range(size) for c in range(size)]
    places = [Action.place(cell) for cell in cells if board[cell[0]][cell[1]] in _PLACEABLE]
    knockouts = [Action.knockout(cell) for cell in cells if board[cell[0]][cell[1]] == target]
    return places + knockouts


def _random_action(match, player: Player, rng: SplitMix64) -> Optional[Action]:
    if match.round_over or not match.status(player).charge_full:
        return None
    legal = legal_actions_from_board(match.board_text(), player)
    if not legal:
        return None  # a charged player with nothing legal waits (no draw)
    return legal[rng.below(len(legal))]


def play_random(match, seed: int, *, whole_match: bool = True) -> dict:
    """Play `match` on with two random players; returns accepted/rejected counts."""
    rng = SplitMix64(seed ^ POLICY_SEED_SALT)
    accepted = rejected = 0
    while True:
        while not match.round_over:
            x_action = _random_action(match, Player.X, rng)
            o_action = _random_action(match, Player.O, rng)
            results = match.act_both(x_action, o_action)  # None: that seat waits
            acted = [r for r, a in zip(results, (x_action, o_action), strict=True) if a is not None]
            accepted += sum(r is None for r in acted)
            rejected += sum(r is not None for r in acted)
            if match.round_over:
                break
            # The next decision: a charge filling, or something timed (R2), never this ms.
            next_t = match.next_event_t()
            for player in Player:
                status = match.status(player)
                if not status.charge_full:
                    next_t = min(next_t, status.charge_ready_t)
            match.advance_to(max(next_t, match.t + 1))
        if match.match_over or not whole_match:
            break
        match.start_next_round()
    return {"accepted": accepted, "rejected": rejected}
