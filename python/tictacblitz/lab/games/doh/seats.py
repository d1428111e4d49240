"""Tic Tac Doh's balance metrics for three or four players (D10; issue 25, item 4),
re-exported by :mod:`.balance` (where the lab looks) for rules with ``players`` > 2.
The two-player metrics are :mod:`.balance`'s own and do not change.

Per game the native runner gives ``winner`` (the winning seat or -1), ``moves``,
``end`` (0 line D7, 1 stash empty D8, 2 no move D9) and ``kingmade`` (see below). From
them, with 95 % intervals (Wilson for shares, normal for means):

- **each seat's score**: a win 1, a draw 1/N, a loss 0 (N the players: the draw is
  shared evenly, so the scores of a game add up to 1 and a fair seat scores 1/N);
- **game length** in plies (mean, p10 / median / p90, distribution);
- **how games end**: D7 (a line), D8 (the stash ran out), D9 (no legal move);
- **players out** (D9): with N > 2 a table with no legal move has none for anybody
  (legality does not depend on the seat), so every seat but the last mover goes out at
  once: the share of games in which players went out (= the D9 share), and each seat's
  share of games in which it went out;
- **kingmaking**: the share of games that were *kingmade*, of all games and of the
  games won by a line. A game is kingmade when it was won by a line (D7) on the move
  right after a loser's move, and that loser had another legal move after which no line
  could be completed at once: the loser's move decided that the next player, and not
  someone else, would win (docs/doh.md, "Three and four players"). The kingmaker is the
  seat before the winner in turn order (nobody is out before the end, D9), so its
  share by seat is given too.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

import numpy as np

from ....games.doh.bots import END_NAMES
from ....games.doh.rules import MAX_PLIES
from ....games.doh.types import SEATS
from ....games.stats import Moments, wilson_or_none
from ...metric import Metric, game_length_summary

__all__ = [
    "SeatMetrics",
    "seat_summary_lines",
    "seat_match_values",
    "SEAT_SCORES",
    "SEAT_METRICS",
    "MAX_PLIES",
]

ENDS: Tuple[str, ...] = tuple(END_NAMES)
RULE_OF_END = {"line": "D7", "stash_empty": "D8", "no_move": "D9"}


def _players(cols: Dict[str, Any]) -> int:
    return int(np.asarray(cols["players"]).reshape(-1)[0]) if len(cols["winner"]) else 2


class SeatMetrics:
    """The metrics of a run of ``players`` seats (> 2), from exact integer counters
    (order-free, mergeable)."""

    _ARRAYS = ("wins", "length_hist", "by_end", "out", "kingmade", "kingmaker", "line_wins")

    def __init__(self, players: int) -> None:
        self.players = players
        self.length = Moments()
        self.scores = [Moments() for _ in range(players)]  # N x score: win N, draw 1
        self.wins = np.zeros(players + 1, np.int64)  # each seat's wins, then draws
        self.length_hist = np.zeros(MAX_PLIES + 1, np.int64)
        self.by_end = np.zeros(len(ENDS), np.int64)
        self.out = np.zeros(players, np.int64)  # games each seat went out in
        self.kingmade = np.zeros(1, np.int64)
        self.kingmaker = np.zeros(players, np.int64)  # kingmade games by the kingmaker's seat
        self.line_wins = np.zeros(1, np.int64)

    def add(self, cols: Dict[str, Any]) -> None:
        """Fold in a chunk's columns (:func:`.balance.play_matches`)."""
        n = self.players
        w = np.asarray(cols["winner"]).astype(np.int64)
        moves = np.asarray(cols["moves"]).astype(np.int64)
        end = np.asarray(cols["end"]).astype(np.int64)
        self.length.add(moves)
        self.length_hist += np.bincount(np.minimum(moves, MAX_PLIES), minlength=MAX_PLIES + 1)
        self.wins += np.bincount(np.where(w < 0, n, w), minlength=n + 1)[: n + 1]
        for seat in range(n):
            self.scores[seat].add(np.where(w == seat, n, np.where(w < 0, 1, 0)))
        self.by_end += np.bincount(end, minlength=len(ENDS))[: len(ENDS)]
        stuck = end == ENDS.index("no_move")
        for seat in range(n):
            self.out[seat] += int((stuck & (w != seat)).sum())
        king = np.asarray(cols["kingmade"]).astype(np.int64) > 0
        self.kingmade[0] += int(king.sum())
        self.kingmaker += np.bincount((w[king] - 1) % n, minlength=n)[:n]
        self.line_wins[0] += int((end == ENDS.index("line")).sum())

    def merge(self, other: "SeatMetrics") -> None:
        for name in self._ARRAYS:
            getattr(self, name).__iadd__(getattr(other, name))
        self.length.merge(other.length)
        for mine, theirs in zip(self.scores, other.scores, strict=True):
            mine.merge(theirs)

    def to_dict(self) -> Dict[str, Any]:
        """The metrics, merged by the lab into its summary."""
        wilson = wilson_or_none
        n, games = self.players, int(self.length.n)
        keys = [s.lower() for s in SEATS[:n]]
        seats: Dict[str, Any] = {}
        for k, key in enumerate(keys):
            mean, ci = self.scores[k].mean_ci()
            seats[key] = {
                "score": None if mean is None else mean / n,
                "score_ci": None if ci is None else [ci[0] / n, ci[1] / n],
                "out": int(self.out[k]),
                "out_share": self.out[k] / games if games else None,
                "out_ci": wilson(int(self.out[k]), games),
                "kingmaker": int(self.kingmaker[k]),
            }
        ends = {
            name: {
                "rule": RULE_OF_END[name],
                "games": int(self.by_end[k]),
                "share": self.by_end[k] / games if games else None,
                "share_ci": wilson(int(self.by_end[k]), games),
            }
            for k, name in enumerate(ENDS)
        }
        stuck = int(self.by_end[ENDS.index("no_move")])
        king, lines = int(self.kingmade[0]), int(self.line_wins[0])
        first = seats[keys[0]]
        return {
            "players": n,
            # the first seat's score where the two-player summary has it (a draw 1/N)
            "seat_advantage": {"first_score": first["score"], "first_score_ci": first["score_ci"]},
            "seat_scores": seats,
            "game_length": game_length_summary(self.length, self.length_hist),
            "ends": ends,
            "players_out": {
                "games": stuck,
                "share": stuck / games if games else None,
                "share_ci": wilson(stuck, games),
                "players_out_per_game": (n - 1) * stuck / games if games else None,
            },
            "kingmaking": {
                "games": king,
                "share": king / games if games else None,
                "share_ci": wilson(king, games),
                "line_wins": lines,
                "share_of_line_wins": king / lines if lines else None,
                "share_of_line_wins_ci": wilson(king, lines),
            },
        }


SEAT_SCORES: Tuple[Metric, ...] = tuple(
    Metric(
        f"{seat.lower()}_score",
        f"{seat} player's score (win 1, draw 1/N)",
        "share",
        f"the {seat} seat's mean result with N players: a win 1, a draw 1/N, a loss 0; "
        "1/N is a fair seat (three or four players)",
        value=f"seat_scores.{seat.lower()}.score",
        ci=f"seat_scores.{seat.lower()}.score_ci",
        panel="each seat's score, 3 or 4 players",
    )
    for seat in SEATS[1:]
)
"""Each seat's score but the first's with three or four players (the first seat's is
``first_score``, two players or more): rows of an N-player summary only."""

_PLAYERS_OUT = "kingmaking and players out"

SEAT_METRICS: Tuple[Metric, ...] = (
    Metric(
        "out_share",
        "games in which players went out (D9)",
        "share",
        "games ended by players having no legal move: with 3 or 4 players every seat but "
        "the last mover goes out at once (D9)",
        value="players_out.share",
        ci="players_out.share_ci",
        panel=_PLAYERS_OUT,
    ),
    *(
        Metric(
            f"{seat.lower()}_out_share",
            f"{seat} player goes out (D9)",
            "share",
            f"games in which the {seat} seat went out: it had no legal move (D9)",
            value=f"seat_scores.{seat.lower()}.out_share",
            ci=f"seat_scores.{seat.lower()}.out_ci",
        )
        for seat in SEATS
    ),
    Metric(
        "kingmade_share",
        "kingmade games",
        "share",
        "games won by a line on the move right after a loser's move, where that loser had "
        "another legal move after which no line could be completed at once (docs/doh.md)",
        value="kingmaking.share",
        ci="kingmaking.share_ci",
        panel=_PLAYERS_OUT,
    ),
    Metric(
        "kingmade_share_of_line_wins",
        "kingmade share of the games won by a line",
        "share",
        "of the games won by a line (D7), the share that were kingmade",
        value="kingmaking.share_of_line_wins",
        ci="kingmaking.share_of_line_wins_ci",
    ),
)
"""Doh's metrics for three or four players beyond the two-player ones (``game_length``,
``END_share``, whose names they share): rows of an N-player summary only."""


def seat_summary_lines(
    s: Dict[str, Any], pct: Any, num: Any
) -> Tuple[List[Tuple[str, str]], List[str]]:
    """The rows ``simulate --game doh --rule players=N`` prints after the lab's."""
    n = s["players"]
    rows: List[Tuple[str, str]] = [
        (f"{key} player's score (win 1, draw 1/{n})", pct(v["score"], v["score_ci"]))
        for key, v in s["seat_scores"].items()
    ]
    gl = s["game_length"]
    if gl["mean"] is not None:
        rows += [
            ("game length, plies: mean [CI]", num(gl["mean"], gl["mean_ci"])),
            ("  p10 / median / p90", f"{gl['p10']} / {gl['median']} / {gl['p90']}"),
        ]
    for end in ENDS:
        e = s["ends"][end]
        rows.append(
            (f"ended by {end.replace('_', ' ')} ({e['rule']})", pct(e["share"], e["share_ci"]))
        )
    rows.append(
        (
            f"players went out (D9: {n - 1} at once)",
            pct(s["players_out"]["share"], s["players_out"]["share_ci"]),
        )
    )
    for key, v in s["seat_scores"].items():
        rows.append((f"  {key} player went out", pct(v["out_share"], v["out_ci"])))
    k = s["kingmaking"]
    rows += [
        ("kingmade games (of all games)", pct(k["share"], k["share_ci"])),
        ("  of the games won by a line", pct(k["share_of_line_wins"], k["share_of_line_wins_ci"])),
        (
            "  kingmaker by seat",
            " / ".join(f"{key} {v['kingmaker']:,}" for key, v in s["seat_scores"].items()),
        ),
    ]
    return rows, []


def seat_match_values(cols: Dict[str, Any]) -> Dict[str, Tuple[np.ndarray, np.ndarray, float]]:
    """Per-match ``(numerator, denominator, scale)`` of :func:`seat_metric_rows`' metrics
    (the A/B pairs two runs over the same seeds with them)."""
    n = _players(cols)
    w = np.asarray(cols["winner"]).astype(np.int64)
    one = np.ones_like(w)
    end = np.asarray(cols["end"]).astype(np.int64)
    stuck = (end == ENDS.index("no_move")).astype(np.int64)
    king = (np.asarray(cols["kingmade"]).astype(np.int64) > 0).astype(np.int64)
    out: Dict[str, Tuple[np.ndarray, np.ndarray, float]] = {}
    for seat in range(n):
        out[f"{SEATS[seat].lower()}_score"] = (
            np.where(w == seat, n, np.where(w < 0, 1, 0)),
            n * one,
            1.0,
        )
    out["game_length"] = (np.asarray(cols["moves"]).astype(np.int64), one, 1.0)
    for k, name in enumerate(ENDS):
        out[f"{name}_share"] = ((end == k).astype(np.int64), one, 1.0)
    out["out_share"] = (stuck, one, 1.0)
    for seat in range(n):
        out[f"{SEATS[seat].lower()}_out_share"] = (stuck * (w != seat), one, 1.0)
    out["kingmade_share"] = (king, one, 1.0)
    out["kingmade_share_of_line_wins"] = (king, (end == ENDS.index("line")).astype(np.int64), 1.0)
    return out
