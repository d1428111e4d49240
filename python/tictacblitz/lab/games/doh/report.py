"""How reports show Tic Tac Doh's balance metrics (:mod:`.balance`'s ``METRICS``,
``PANELS``, ``SWEEP_COLUMNS``, ``REPORT_COLUMNS``, ``metric_rows`` and ``summary_lines``
hooks, re-exported there, where the lab looks): the two-player metrics here, those of
three or four players from :mod:`.balance_seats`."""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from .balance_seats import ENDS, RULE_OF_END, SEAT_METRICS, seat_metric_rows, seat_summary_lines
from .types import PIECES, SEATS

__all__ = [
    "METRICS",
    "PANELS",
    "SWEEP_COLUMNS",
    "REPORT_COLUMNS",
    "metric_rows",
    "summary_lines",
    "PIECES",
]


METRICS: Dict[str, Tuple[str, str, str]] = {
    "first_score": (
        "first player's score (win 1, draw 1/N)",
        "share",
        "the first player's mean result, a win 1, a draw 1/N (N players: 1/2 with two), a "
        "loss 0 (D1: first moves first); 1/N is an even game (50 % with two)",
    ),
    "game_length": (
        "game length (mean)",
        "plies",
        "moves played until the game ended (D7-D9); at most 3 x pieces_per_size (D1, D8)",
    ),
    **{
        f"{end}_share": (
            f"games ended by {end.replace('_', ' ')} ({RULE_OF_END[end]})",
            "share",
            how,
        )
        for end, how in (
            ("line", "games won by three squares in a line counting as one size (D7)"),
            ("stash_empty", "games drawn because the stash ran out with no line (D8)"),
            ("no_move", "games lost by the player to move having no legal move (D9)"),
        )
    },
    **{
        f"{p}_first_share": (
            f"first piece {p}: share of games",
            "share",
            f"games whose first move was a piece of size {p} (the first move's only choice "
            "is its size: where it goes does not matter, D2)",
        )
        for p in PIECES
    },
    **{
        f"{p}_first_win_rate": (
            f"first piece {p}: first player wins",
            "share",
            f"of the games opened with {p}, the share the first player won",
        )
        for p in PIECES
    },
    **{
        f"{p}_first_draw_rate": (
            f"first piece {p}: draws",
            "share",
            f"of the games opened with {p}, the share drawn (D8)",
        )
        for p in PIECES
    },
    **SEAT_METRICS,  # three or four players (balance_seats.py)
}
"""name -> (label, unit, explanation) of Doh's metrics, in table order: the one list of
them (the summary's rows, the A/B's paired rows of :func:`match_values`, the legend).
Every one is a *value* (``plies``) or a *share* (a proportion, shown in %); the runner's
code columns are declared in :data:`CODE_COLUMNS`, so the lab never averages them."""

PANELS: Tuple[Tuple[str, Tuple[str, ...]], ...] = (
    ("seat advantage (X share of decided)", ("first_score",)),
    ("game length (plies)", ("game_length",)),
    ("how games end", tuple(f"{end}_share" for end in ENDS)),
    ("first piece: first player wins", tuple(f"{p}_first_win_rate" for p in PIECES)),
    ("each seat's score, 3 or 4 players", tuple(f"{s.lower()}_score" for s in SEATS[1:])),
    ("kingmaking and players out", ("kingmade_share", "out_share")),
)
"""Sweep plot panels (a panel titled as one of the lab's gets these metrics added)."""

SWEEP_COLUMNS = ("first_score", "game_length", "line_share")
"""The metrics the sweep command's text table shows after the lab's."""

REPORT_COLUMNS = (
    "first_score",
    "game_length",
    *(f"{end}_share" for end in ENDS),
    *(f"{p}_first_win_rate" for p in PIECES),
)
"""The metrics the sweep's HTML table shows after the lab's."""


def metric_rows(summary: Dict[str, Any], add: Any) -> None:
    """Add Doh's headline metrics as rows: ``add(name, value, (lo, hi))``."""
    s = summary
    if "seat_scores" in s:  # three or four players
        seat_metric_rows(s, add)
        return
    sa = s["seat_advantage"]
    add("first_score", sa["first_score"], sa["first_score_ci"])
    add("game_length", s["game_length"]["mean"], s["game_length"]["mean_ci"])
    for end in ENDS:
        e = s["ends"][end]
        add(f"{end}_share", e["share"], e["share_ci"])
    for p in PIECES:
        add(f"{p}_first_share", s["first_pieces"][p]["share"], s["first_pieces"][p]["share_ci"])
    for p in PIECES:
        f = s["first_pieces"][p]
        add(f"{p}_first_win_rate", f["first_win_rate"], f["first_win_ci"])
    for p in PIECES:
        f = s["first_pieces"][p]
        add(f"{p}_first_draw_rate", f["draw_rate"], f["draw_ci"])


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
