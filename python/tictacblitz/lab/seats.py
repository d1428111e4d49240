"""When a seat advantage can be measured between two different bots (issue 22, item 3).

Two bots A and B play every seed in both seat orders. The first seat's share of the
decided matches then cancels the bots' strength, but only through the *weaker* bot's
wins: with A's wins ``a`` fixed, the first seat's wins are ``2·a1 + D2 − a`` (``a1``: A's
wins as the first seat, ``D1``/``D2``: decided matches with A/B first), so they can only
range over an interval of width ``2·min(a, b, D1, D2)`` whatever the seat does. When the
weaker bot wins almost nothing (medium against greedy in Blitz: 0.1 % of the decided
matches), the share is pinned near 50 % and "49.9 % [49.8, 50.1]" would read as an even
seat although the data cannot tell. The rule, :func:`seat_verdict`: *not measurable*
when the weaker bot won fewer than :data:`MIN_WEAKER_WINS` decided matches, or when the
share's 95 % interval covers every share the results allow.
"""

from __future__ import annotations

from typing import Optional, Sequence, Tuple

__all__ = ["MIN_WEAKER_WINS", "seat_range", "seat_verdict"]

MIN_WEAKER_WINS = 20
"""The weaker bot's decided wins (over both seat orders) a seat advantage needs."""


def seat_range(a_wins: int, first_a: int, first_b: int) -> Tuple[float, float]:
    """The first seat's share of decided matches the results allow, whatever the seat
    does: bot A won ``a_wins`` of the ``first_a + first_b`` decided matches (``first_a``
    decided with A in the first seat, ``first_b`` with B there).

    >>> seat_range(3990, 2000, 2000)  # B won 10 of 4,000
    (0.4975, 0.5025)
    """
    decided = first_a + first_b
    if decided <= 0:
        return (0.0, 1.0)
    low = 2 * max(0, a_wins - first_b) + first_b - a_wins
    high = 2 * min(a_wins, first_a) + first_b - a_wins
    return (low / decided, high / decided)


def seat_verdict(
    a_wins: int, first_a: int, first_b: int, ci: Optional[Sequence[float]]
) -> Tuple[bool, Optional[str], Tuple[float, float]]:
    """(measurable, the reason when not, the achievable range) of the first seat's share
    for two bots with swapped seats (:func:`seat_range`'s arguments; ``ci``: the share's
    95 % interval)."""
    decided = first_a + first_b
    possible = seat_range(a_wins, first_a, first_b)
    if decided <= 0:
        return False, "no match was decided", possible
    weaker = min(a_wins, decided - a_wins)
    span = f"[{100 * possible[0]:.1f}, {100 * possible[1]:.1f}] %"
    if weaker < MIN_WEAKER_WINS:
        return (
            False,
            f"the weaker bot won {weaker:,} of {decided:,} decided matches "
            f"({100 * weaker / decided:.1f} %): whatever the seat does, the first seat's "
            f"share could only be in {span} (it needs {MIN_WEAKER_WINS} wins of the weaker "
            "bot)",
            possible,
        )
    if ci is not None and ci[0] <= possible[0] and ci[1] >= possible[1]:
        return (
            False,
            f"the 95 % interval [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}] % covers every share "
            f"the results allow, {span}",
            possible,
        )
    return True, None, possible
