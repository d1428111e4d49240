"""Tic Tac Doh's balance metrics, each declared once (:data:`DOH_METRICS`: its label,
unit, kind, summary path, panel and tables; issue 27, item 3), and the rows
``tictacblitz simulate --game doh`` prints (:func:`summary_lines`): the two-player ones
here, those of three or four players from :mod:`.seats`."""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from ....games.doh.types import PIECES
from ...metric import CATEGORY, Metric
from .seats import ENDS, RULE_OF_END, SEAT_METRICS, SEAT_SCORES, seat_summary_lines

__all__ = ["DOH_METRICS", "summary_lines", "PIECES"]


_ENDS_HOW = {
    "line": "games won by three squares in a line counting as one size (D7)",
    "stash_empty": "games drawn because the stash ran out with no line (D8)",
    "no_move": "games lost by the player to move having no legal move (D9)",
}

DOH_METRICS: Tuple[Metric, ...] = (
    Metric(
        "first_score",
        "first player's score (win 1, draw 1/N)",
        "share",
        "the first player's mean result, a win 1, a draw 1/N (N players: 1/2 with two), a "
        "loss 0 (D1: first moves first); 1/N is an even game (50 % with two); with three "
        "or four players, the first seat's of seat_scores",
        value="seat_advantage.first_score",
        ci="seat_advantage.first_score_ci",
        precision=True,
        panel="seat advantage (X share of decided)",
        sweep=True,
        report=True,
    ),
    *SEAT_SCORES,
    Metric(
        "game_length",
        "game length (mean)",
        "plies",
        "moves played until the game ended (D7-D9); at most 3 x pieces_per_size (D1, D8)",
        value="game_length.mean",
        ci="game_length.mean_ci",
        precision=True,
        panel="game length (plies)",
        sweep=True,
        report=True,
    ),
    *(
        Metric(
            f"{end}_share",
            f"games ended by {end.replace('_', ' ')} ({RULE_OF_END[end]})",
            "share",
            _ENDS_HOW[end],
            kind=CATEGORY,
            value=f"ends.{end}.share",
            ci=f"ends.{end}.share_ci",
            panel="how games end",
            sweep=end == "line",
            report=True,
        )
        for end in ENDS
    ),
    *(
        Metric(
            f"{p}_first_share",
            f"first piece {p}: share of games",
            "share",
            f"games whose first move was a piece of size {p} (the first move's only choice "
            "is its size: where it goes does not matter, D2)",
            kind=CATEGORY,
            value=f"first_pieces.{p}.share",
            ci=f"first_pieces.{p}.share_ci",
        )
        for p in PIECES
    ),
    *(
        Metric(
            f"{p}_first_win_rate",
            f"first piece {p}: first player wins",
            "share",
            f"of the games opened with {p}, the share the first player won",
            value=f"first_pieces.{p}.first_win_rate",
            ci=f"first_pieces.{p}.first_win_ci",
            panel="first piece: first player wins",
            report=True,
        )
        for p in PIECES
    ),
    *(
        Metric(
            f"{p}_first_draw_rate",
            f"first piece {p}: draws",
            "share",
            f"of the games opened with {p}, the share drawn (D8)",
            value=f"first_pieces.{p}.draw_rate",
            ci=f"first_pieces.{p}.draw_ci",
        )
        for p in PIECES
    ),
    *SEAT_METRICS,  # three or four players (seats.py)
)
"""Doh's metrics in table order: the one list of them (the summary's rows, the A/B's
paired rows of :func:`~.balance.match_values`, the legend, the plots, the tables).
Every one is a *value* (``plies``), a *share* (shown in %) or a *category* (the share of
one code of a code column, :data:`~.balance.CODE_COLUMNS`: never averaged)."""


def summary_lines(s: Dict[str, Any], pct: Any, num: Any) -> Tuple[List[Tuple[str, str]], List[str]]:
    """(rows of the summary table after the lab's, lines after the table): what
    ``tictacblitz simulate --game doh`` prints. X is the first player, O the second."""
    if "seat_scores" in s:  # three or four players
        return seat_summary_lines(s, pct, num)
    sa, gl = s["seat_advantage"], s["game_length"]
    rows: List[Tuple[str, str]] = [
        ("first player's score (win 1, draw 1/2)", pct(sa["first_score"], sa["first_score_ci"])),
    ]
    if gl["mean"] is not None:
        total = sum(gl["distribution"].values()) or 1
        rows += [
            ("game length, plies: mean [CI]", num(gl["mean"], gl["mean_ci"])),
            ("  p10 / median / p90", f"{gl['p10']} / {gl['median']} / {gl['p90']}"),
            (
                "  distribution",
                "  ".join(
                    f"{k}: {100 * v / total:.0f}%"
                    for k, v in gl["distribution"].items()
                    if 100 * v / total >= 0.5
                ),
            ),
        ]
    for end in ENDS:
        e = s["ends"][end]
        who = (
            ""
            if end == "stash_empty"
            else f"  (first {e['first_wins']:,} / second {e['second_wins']:,})"
        )
        rows.append(
            (
                f"ended by {end.replace('_', ' ')} ({RULE_OF_END[end]})",
                pct(e["share"], e["share_ci"]) + who,
            )
        )
    lines = [
        "",
        "which first pieces win (the first player plays it; shares with 95 % intervals):",
        f"{'piece':<6} {'games':>8}  {'share of games':<22} {'first player wins':<22} "
        f"{'draws':<22} {'second player wins':<22}",
    ]
    for p in PIECES:
        f = s["first_pieces"][p]
        lines.append(
            f"{p:<6} {f['games']:>8,}  {pct(f['share'], f['share_ci']):<22} "
            f"{pct(f['first_win_rate'], f['first_win_ci']):<22} "
            f"{pct(f['draw_rate'], f['draw_ci']):<22} "
            f"{pct(f['second_win_rate'], f['second_win_ci']):<22}"
        )
    return rows, lines
