"""Tic Tac Doh's balance hooks: what the game-agnostic lab (``tictacblitz.lab``:
simulate, sweep, tournament) needs of Doh beyond the protocol (docs/simulate.md, "A
game's balance hooks"; docs/doh.md, "Balance").

The lab already reports the match results (first wins, second wins, draws, the first
player's share of decided games) with 95 % Wilson intervals. This module adds:

- the **first player's advantage** as a score (a win 1, a draw ½) with its interval;
- **game length** in plies: mean with its interval, p10 / median / p90, the distribution;
- **which first pieces win**: for each size of the first piece (S, M, L; the only
  choice the first move has, D2), how often it was played and how its games ended
  (first wins, draws, second wins), each share with its Wilson interval;
- **how games end**: by a line (D7), an empty stash (D8) or the player to move having
  no legal move (D9), each share with its interval, and which seat won that way.

The runner is :func:`play_matches` (one bot a seat; columns ``winner``, ``moves``,
``first_piece``, ``end``, ``kingmade``).

>>> import numpy as np
>>> cols = play_matches(None, ("perfect", "random"), np.arange(4, dtype=np.uint64))
>>> cols["winner"].tolist(), sorted(cols)
([0, 0, 0, 0], ['end', 'first_piece', 'kingmade', 'moves', 'winner'])
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ....games.doh import bots as _bots
from ....games.doh.bots import opening_code
from ....games.doh.rules import DohRules
from ....games.doh.types import PIECES, SEATS
from ....games.stats import Moments, wilson_or_none
from ...metric import FirstSeatScore, first_seat_values, game_length_summary
from .seats import ENDS, RULE_OF_END, SeatMetrics, seat_match_values

__all__ = [
    "play_matches",
    "record_fields",
    "record_columns",
    "Metrics",
    "PIECES",
    "ENDS",
    "RESULTS",
    "CODE_COLUMNS",
    "RUNNER_OPTIONS",
    "check_options",
    "match_values",
]

RESULTS: Tuple[str, ...] = (*SEATS[:2], "draw")  # two players: winner 0, 1, -1 -> 0, 1, 2


def play_matches(
    rules: Any, seat_bots: Sequence[str], seeds: np.ndarray, opening: Optional[str] = None
) -> Dict[str, np.ndarray]:
    """The lab's runner hook: :func:`.game.play_matches`, one bot a seat. With three or
    four players the columns gain ``players`` (the number, every row), which the
    N-player metrics read (:mod:`.seats`)."""
    cols = _bots.play_matches(rules, tuple(seat_bots), seeds, opening)
    if len(seat_bots) > 2:
        cols["players"] = np.full(len(cols["winner"]), len(seat_bots), np.int8)
    return cols


def _result_codes(winner: Any) -> np.ndarray:
    w = np.asarray(winner).astype(np.int64)
    return np.where(w < 0, 2, w)


# -- records -------------------------------------------------------------------------------------


def record_fields() -> List[Tuple[str, Any]]:
    """The record's columns after the lab's ``match``, ``seed`` and ``winner`` (needs
    pyarrow, which the lab checks for first)."""
    import pyarrow as pa

    code = pa.dictionary(pa.int8(), pa.string())
    return [("moves", pa.int8()), ("first_piece", code), ("end", code)]


def record_columns(cols: Dict[str, Any]) -> Dict[str, Any]:
    """A chunk's columns (:func:`play_matches`) as the Arrow arrays of :func:`record_fields`."""
    import pyarrow as pa

    def coded(values: Any, names: Tuple[str, ...]) -> Any:
        return pa.DictionaryArray.from_arrays(
            pa.array(np.asarray(values, dtype=np.int8)), pa.array(names)
        )

    return {
        "moves": pa.array(np.asarray(cols["moves"], dtype=np.int8)),
        "first_piece": coded(cols["first_piece"], PIECES),
        "end": coded(cols["end"], ENDS),
    }


# -- the summary ---------------------------------------------------------------------------------


def Metrics(rules: Any) -> Any:
    """Doh's extra summary metrics for ``rules``: :class:`TwoSeatMetrics` with two
    players, :class:`~.seats.SeatMetrics` with three or four (D10)."""
    rules = rules if isinstance(rules, DohRules) else DohRules.from_dict(rules or {})
    players = int(getattr(rules, "players", 2))
    return TwoSeatMetrics(rules) if players == 2 else SeatMetrics(players)


class TwoSeatMetrics:
    """Doh's extra summary metrics, from exact integer counters (order-free, mergeable).

    :param rules: the rules played (a :class:`DohRules`, a mapping, or None).
    """

    _ARRAYS = ("length_hist", "by_piece", "by_end")

    def __init__(self, rules: Any) -> None:
        self.rules = rules if isinstance(rules, DohRules) else DohRules.from_dict(rules or {})
        self.length = Moments()
        self.first = FirstSeatScore()  # the first player's score (the lab's, issue 27)
        # a game lasts at most 3 x pieces_per_size plies (D8); one bin more (as before)
        self.max_plies = 3 * self.rules.pieces_per_size + 1
        self.length_hist = np.zeros(self.max_plies + 1, np.int64)
        self.by_piece = np.zeros((len(PIECES), len(RESULTS)), np.int64)  # [first piece, result]
        self.by_end = np.zeros((len(ENDS), len(RESULTS)), np.int64)  # [end, result]

    def add(self, cols: Dict[str, Any]) -> None:
        """Fold in a chunk's columns (:func:`play_matches`)."""
        result = _result_codes(cols["winner"])
        moves = np.asarray(cols["moves"]).astype(np.int64)
        self.length.add(moves)
        self.first.add(cols["winner"])
        top = self.max_plies
        self.length_hist += np.bincount(np.minimum(moves, top), minlength=top + 1)
        piece = np.asarray(cols["first_piece"]).astype(np.int64)
        played = piece >= 0  # every game has a first move (D9 needs one)
        self.by_piece += np.bincount(
            piece[played] * 3 + result[played], minlength=len(PIECES) * 3
        ).reshape(len(PIECES), 3)
        if "end" in cols:
            end = np.asarray(cols["end"]).astype(np.int64)
            counts = np.bincount(end * 3 + result, minlength=len(ENDS) * 3)
            self.by_end += counts.reshape(len(ENDS), 3)

    def merge(self, other: "TwoSeatMetrics") -> None:
        for name in self._ARRAYS:
            getattr(self, name).__iadd__(getattr(other, name))
        self.length.merge(other.length)
        self.first.merge(other.first)

    def to_dict(self) -> Dict[str, Any]:
        """The metrics, merged by the lab into its summary (``seat_advantage`` gains the
        first player's score)."""
        wilson = wilson_or_none
        n = int(self.by_piece.sum())
        score, score_ci = self.first.score()
        pieces = {}
        for k, name in enumerate(PIECES):
            fw, sw, dr = (int(v) for v in self.by_piece[k])
            games = fw + sw + dr
            pieces[name] = {
                "games": games,
                "share": games / n if n else None,
                "share_ci": wilson(games, n),
                "first_wins": fw,
                "second_wins": sw,
                "draws": dr,
                "first_win_rate": fw / games if games else None,
                "first_win_ci": wilson(fw, games),
                "draw_rate": dr / games if games else None,
                "draw_ci": wilson(dr, games),
                "second_win_rate": sw / games if games else None,
                "second_win_ci": wilson(sw, games),
                "first_score": (fw + 0.5 * dr) / games if games else None,
            }
        total_end = int(self.by_end.sum())
        ends = {}
        for k, name in enumerate(ENDS):
            fw, sw, dr = (int(v) for v in self.by_end[k])
            games = fw + sw + dr
            ends[name] = {
                "rule": RULE_OF_END[name],
                "games": games,
                "share": games / total_end if total_end else None,
                "share_ci": wilson(games, total_end),
                "first_wins": fw,
                "second_wins": sw,
            }
        return {
            "seat_advantage": {
                "first_score": score,
                "first_score_ci": score_ci,
            },
            "game_length": game_length_summary(self.length, self.length_hist),
            "first_pieces": pieces,
            "ends": ends,
        }


# -- how reports show them ----------------------------------------------------------------------

CODE_COLUMNS: Dict[str, Tuple[str, ...]] = {"first_piece": PIECES, "end": ENDS}
"""The runner's *category* columns and the names of their codes 0, 1, 2: a code is never
averaged (issue 22), its shares are the metrics ``P_first_share`` and ``END_share``."""

RUNNER_OPTIONS: Dict[str, Tuple[str, str]] = {
    "opening": (
        "|".join(PIECES),  # the sizes, from the one vocabulary (issue 27, item 3)
        "Doh: every game's first piece is this size, in every arm of the run (A/B, seats "
        "swapped): the bots play on from it (docs/doh.md)",
    ),
}
"""Options of :func:`play_matches` that ``simulate`` offers (``--opening S``):
name -> (metavar, help). Checked by :func:`check_options`."""


def check_options(options: Dict[str, Any]) -> Dict[str, Any]:
    """``options`` as :func:`play_matches` takes them. :raises ValueError: naming a bad
    value."""
    out = dict(options)
    if out.get("opening") is not None:
        out["opening"] = PIECES[opening_code(out["opening"])]
    return out


def match_values(cols: Dict[str, Any]) -> Dict[str, Tuple[np.ndarray, np.ndarray, float]]:
    """Per-match ``(numerator, denominator, scale)`` of Doh's metrics (an A/B pairs two
    runs over the same seeds match by match with them): ``scale * sum(num) / sum(den)``
    is the metric of :func:`metric_rows` with the same name. The code columns enter only
    as shares (one indicator a code), never as a mean."""
    if "players" in cols:  # three or four players
        return seat_match_values(cols)
    result = _result_codes(cols["winner"])
    one = np.ones_like(result)
    piece = np.asarray(cols["first_piece"]).astype(np.int64)
    end = np.asarray(cols["end"]).astype(np.int64)
    out: Dict[str, Tuple[np.ndarray, np.ndarray, float]] = {
        # a win 2, a draw 1, a loss 0 over 2 a game: the score as a share
        "first_score": first_seat_values(cols["winner"])["score"],
        "game_length": (np.asarray(cols["moves"]).astype(np.int64), one, 1.0),
    }
    for k, name in enumerate(ENDS):
        out[f"{name}_share"] = ((end == k).astype(np.int64), one, 1.0)
    for k, p in enumerate(PIECES):
        out[f"{p}_first_share"] = ((piece == k).astype(np.int64), one, 1.0)
    for k, p in enumerate(PIECES):
        opened = (piece == k).astype(np.int64)
        out[f"{p}_first_win_rate"] = (opened * (result == 0), opened, 1.0)
        out[f"{p}_first_draw_rate"] = (opened * (result == 2), opened, 1.0)
    return out
