"""The tournament's schedule for a game of three or four seats (issue 25, item 1).

With two seats a pair of bots A, B plays its matches with the seats alternated. With N
seats (``Game.num_players`` under the tournament's rules) each pair plays 2N *seatings*:
A alone in seat k and B in every other seat, for each k, then B alone in seat k and A
in the others. Every seating plays the same block of seeds (match j of the block: the
seed of ``(tournament seed, A, B, j)``), so the seatings are paired by seed, and a pair
plays ``2N x block`` matches (``matches`` rounded up to a multiple of 2N, so that every
seating plays equally often).

What it reports:

- per pair, A's and B's wins over all its seatings (a win of any seat the bot holds):
  A and B hold the same seats equally often (alone in each seat once, and in each seat
  in the N-1 others' coalition), so neither gains from the schedule and the counts
  feed the same Wilson intervals, Holm-adjusted p-values and Elo fit as a two-seat
  tournament (``a_wins``, ``b_wins``, ``draws``);
- per pair and per bot, its *alone share*: the share of the games it won when it sat
  alone against N-1 copies of the other, with its Wilson interval; 1/N is what a bot no
  better than the other would get (every seat being equal), so above 1/N it is stronger;
- per seat, its share of the decided games over every pair (each bot sits in each seat
  equally often, so bot strength cancels), against the fair 1/N, over the pairs where
  the weaker bot wins enough for a seat effect to show (:mod:`~tictacblitz.lab.seats`'s
  rule, with the weaker bot's wins).
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .seats import MIN_WEAKER_WINS
from .stats import wilson, wilson_or_none
from .units import pct

__all__ = [
    "seatings",
    "pair_batches",
    "schedule",
    "pair_counts",
    "alone_figures",
    "seat_summary",
    "seat_lines",
]


def seatings(a: str, b: str, players: int) -> List[Tuple[str, ...]]:
    """The 2N seatings of a pair: A alone in seat 0, 1, ..., then B alone.

    >>> seatings("p", "q", 3)[:2]
    [('p', 'q', 'q'), ('q', 'p', 'q')]
    """
    return [
        tuple(alone if seat == k else other for seat in range(players))
        for alone, other in ((a, b), (b, a))
        for k in range(players)
    ]


def pair_batches(
    a: str, b: str, matches: int, players: int, seed_of: Callable[[int], int]
) -> Tuple[List[Tuple[Tuple[str, ...], List[int]]], int]:
    """(the pair's batches ``(seating, seeds)``, the matches the pair plays): every
    seating plays the seeds ``seed_of(j)`` for j of one block."""
    block = -(-matches // (2 * players))
    seeds = [seed_of(j) for j in range(block)]
    batches = [(seating, seeds) for seating in seatings(a, b, players)]
    return batches, block * len(batches)


def schedule(
    pairs: Sequence[Tuple[str, str]],
    matches: int,
    players: int,
    seed_of: Callable[[str, str, int], int],
) -> Tuple[List[Tuple[Tuple[str, ...], List[int]]], int]:
    """(every pair's batches ``(seating, seeds)`` in pair order, the matches a pair
    plays). Two seats: the seats alternated, match k with seed ``seed_of(a, b, k)`` and
    A first when k is even (as always); N seats: :func:`pair_batches`, 2N a pair."""
    batches: List[Tuple[Tuple[str, ...], List[int]]] = []
    played = matches
    for a, b in pairs:
        if players == 2:
            seeds = [seed_of(a, b, k) for k in range(matches)]
            batches += [((a, b), seeds[0::2]), ((b, a), seeds[1::2])]
        else:
            more, played = pair_batches(a, b, matches, players, partial(seed_of, a, b))
            batches += more
    return batches, played


def pair_counts(a: str, players: int, batches: Sequence[Tuple[Tuple[str, ...], Any]]) -> Dict:
    """A pair's counts from its batches ``(seating, winner column)``: ``a_wins``,
    ``b_wins``, ``draws``, the alone wins and games of A and B, and ``seat_wins`` (a
    list, one a seat)."""
    out: Dict[str, Any] = dict.fromkeys(
        ("a_wins", "b_wins", "draws", "a_alone_wins", "a_alone", "b_alone_wins", "b_alone"), 0
    )
    seat_wins = np.zeros(players, np.int64)
    for seating, winner in batches:
        w = np.asarray(winner).astype(np.int64)
        won = np.bincount(w[w >= 0], minlength=players)[:players]
        seat_wins += won
        a_seats = [k for k, bot in enumerate(seating) if bot == a]
        a_won = int(won[a_seats].sum())
        out["a_wins"] += a_won
        out["b_wins"] += int(won.sum()) - a_won
        out["draws"] += int((w < 0).sum())
        role = "a" if len(a_seats) == 1 else "b"
        alone_won = a_won if role == "a" else int(won.sum()) - a_won
        out[f"{role}_alone_wins"] += alone_won
        out[f"{role}_alone"] += int(w.size)
    out["seat_wins"] = seat_wins.tolist()
    return out


def alone_figures(counts: Dict[str, Any], players: int) -> Dict[str, Any]:
    """A pair's alone shares with their Wilson intervals (:func:`pair_counts`)."""
    out: Dict[str, Any] = {"fair_share": 1 / players}
    for role in ("a", "b"):
        wins, games = counts[f"{role}_alone_wins"], counts[f"{role}_alone"]
        out[f"{role}_alone_games"] = games
        out[f"{role}_alone_wins"] = wins
        out[f"{role}_alone_share"] = wins / games if games else None
        out[f"{role}_alone_ci"] = wilson_or_none(wins, games)
    return out


def seat_summary(
    names: Sequence[str], seat_names: Sequence[str], pairs: Sequence[Dict[str, Any]]
) -> Dict[str, Any]:
    """The tournament's N-seat figures over its pairs: each bot's alone share (over all
    its pairs), each seat's share of decided games (over the pairs where the weaker bot
    won at least :data:`~.seats.MIN_WEAKER_WINS` games; the others left out, named)."""
    players = len(seat_names)
    alone: Dict[str, Dict[str, Any]] = {}
    for name in names:
        wins = games = 0
        for p in pairs:
            for role in ("a", "b"):
                if p[role] == name:
                    wins += p[f"{role}_alone_wins"]
                    games += p[f"{role}_alone_games"]
        alone[name] = {
            "games": games,
            "wins": wins,
            "share": wins / games if games else None,
            "ci": wilson_or_none(wins, games),
        }
    seat_wins = np.zeros(players, np.int64)
    left_out: Dict[str, str] = {}
    for p in pairs:
        weaker = min(p["a_wins"], p["b_wins"])
        if weaker < MIN_WEAKER_WINS:
            left_out[f"{p['a']} vs {p['b']}"] = (
                f"the weaker bot won {weaker:,} games (a seat effect needs {MIN_WEAKER_WINS})"
            )
            continue
        seat_wins += np.asarray(p["seat_wins"], np.int64)
    decided = int(seat_wins.sum())
    return {
        "players": players,
        "fair_share": 1 / players,
        "alone": alone,
        "seats": {
            str(seat): {
                "wins": int(w),
                "share_of_decided": int(w) / decided if decided else None,
                "ci": list(wilson(int(w), decided)) if decided else None,
            }
            for seat, w in zip(seat_names, seat_wins, strict=True)
        },
        "seats_left_out": left_out,
    }


def seat_lines(result: Dict[str, Any]) -> List[str]:
    """The report's lines on an N-seat tournament (``result["seated"]``)."""
    s: Optional[Dict[str, Any]] = result.get("seated")
    if not s:
        return []
    n = s["players"]
    lines = [
        f"Each bot alone in one seat against {n - 1} copies of the other, over its pairs "
        f"(a bot no better than the others wins 1/{n} = {100 / n:.1f} %):",
    ]
    for name, a in s["alone"].items():
        lines.append(f"  {name:<10} {pct(a['share'], a['ci'])}  of {a['games']:,} games")
    used = len(result["pairs"]) - len(s["seats_left_out"])
    lines.append(
        f"Seats (each bot in each seat equally often), over {used} of {len(result['pairs'])} "
        "pairs: share of decided games"
    )
    for seat, v in s["seats"].items():
        lines.append(f"  {seat:<10} {pct(v['share_of_decided'], v['ci'])}")
    for pair, why in s["seats_left_out"].items():
        lines.append(f"  left out: {pair}: {why}")
    return lines
