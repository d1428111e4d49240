"""How the lab's reports show Tic Tac Blitz's balance: its metrics, each declared once
(:data:`BLITZ_METRICS`: label, unit, summary path, panel and tables; issue 27, item 3),
and the rows ``tictacblitz simulate`` prints (:func:`summary_lines`).

The claimer figures (a seat that claimed a powerup in a round against one that did not)
are labelled as what they are, a *correlation*: a seat that is ahead reaches more cells
and so claims more. The powerups' effects are the lab's ablation (``simulate --ablate``).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ....games.blitz.types import POWERUP_KEYS as KINDS  # R14, in code order
from ....games.blitz.types import Player
from ...metric import Metric, Reader
from .targets import TARGET_METRICS

__all__ = ["BLITZ_METRICS", "summary_lines"]


def _impact(kind: str) -> Reader:
    """The claimer's round win rate minus the baseline, and its interval (the claimer's
    interval shifted by the baseline)."""

    def read(s: Dict[str, Any]) -> Optional[Tuple[Any, Any]]:
        p = s["powerups"][kind]
        base, ci = p["baseline_win_rate"], p["claimer_win_ci"]
        return p["impact"], [ci[0] - base, ci[1] - base] if ci and base is not None else None

    return read


_ROUND_ENDS = "how rounds end"

BLITZ_METRICS: Tuple[Metric, ...] = (
    Metric(
        "round_x_share_of_decided",
        "X's share of decided rounds",
        "share",
        "of the rounds someone won (R10, R20), the share X won; 50 % is a fair seat when both "
        "seats have the same bot",
        value="seat_advantage.round_x_share_of_decided",
        ci="seat_advantage.round_x_share_ci",
        panel="seat advantage: X's share of decided matches",
    ),
    Metric(
        "round_draw_rate",
        "rounds drawn",
        "share",
        "rounds with no winner: a double line (R10) or equal timeout scores (R20)",
        value="round_draw_rate",
        ci="round_draw_ci",
        panel=_ROUND_ENDS,
        precision=True,
    ),
    Metric(
        "decisiveness",
        "rounds won by a line",
        "share",
        "rounds that ended in a line of set marks before the clock (R10); the design "
        "promises that most rounds do",
        value="decisiveness",
        ci="decisiveness_ci",
        panel=_ROUND_ENDS,
        sweep=True,
        report=True,
        precision=True,
    ),
    Metric(
        "timeout_share",
        "rounds ended by the clock",
        "share",
        "rounds that ran to round_ms and were decided by the timeout score, or drawn (R20)",
        value="timeout_share",
        ci="timeout_share_ci",
        precision=True,
    ),
    Metric(
        "round_length_s",
        "round length (mean)",
        "s",
        "game time of a round, from its start to its line or to round_ms (R1, R10, R20)",
        value="round_length_ms.mean",
        ci="round_length_ms.mean_ci",
        per=1000,
        panel="round length",
        sweep=True,
        report=True,
    ),
    Metric(
        "round_length_ms",
        "round length (mean)",
        "ms",
        "round_length_s in milliseconds, the name sensitivity and tune read "
        "(PRECISION_METRICS); not a row of sweep's table",
        value="round_length_ms.mean",
        ci="round_length_ms.mean_ci",
        precision=True,
        row=False,
    ),
    Metric(
        "match_rounds",
        "rounds a match (mean)",
        "rounds",
        "rounds played until the match was decided: rounds_to_win, or max_rounds (R22)",
        value="match_rounds.mean",
        ci="match_rounds.mean_ci",
        panel="rounds a match",
        report=True,
    ),
    Metric(
        "match_length_s",
        "match length (mean)",
        "s",
        "game time of a whole match: the sum of its rounds' lengths (R21, R22)",
        value="match_length_ms.mean",
        ci="match_length_ms.mean_ci",
        per=1000,
    ),
    Metric(
        "knockouts_per_round",
        "knock-outs a round (mean)",
        "knock-outs",
        "marks knocked out in a round (R9), both seats together",
        value="knockouts_per_round.mean",
        ci="knockouts_per_round.mean_ci",
        panel="knock-outs a round",
        sweep=True,
        report=True,
    ),
    *(
        Metric(
            f"{k}_claims_per_round",
            f"{k} claims a round",
            "claims",
            f"{k} powerups claimed in a round (R15), both seats",
            value=f"powerups.{k}.claims_per_round",
        )
        for k in KINDS
    ),
    *(
        Metric(
            f"{k}_impact",
            f"{k}: claimer's round win rate - baseline (correlation)",
            "pp",
            f"in rounds where a seat claimed a {k}, its round win rate minus an "
            "average seat's; a seat that is ahead reaches more cells, so this is a "
            "correlation, not the powerup's effect (for that: simulate --ablate)",
            value=_impact(k),
            panel="correlation, not effect: claimer - baseline",
            report=True,
        )
        for k in KINDS
    ),
    *(
        Metric(
            f"{k}_more_claims_win_share",
            f"{k}: the seat with more claims wins (correlation)",
            "share",
            f"of the decided rounds where one seat claimed more {k} "
            "powerups, the share that seat won; a correlation too",
            value=f"powerups.{k}.more_claims_win_share",
            ci=f"powerups.{k}.more_claims_win_ci",
            panel="correlation: the seat with more claims wins",
        )
        for k in KINDS
    ),
    *TARGET_METRICS,  # issue 24: the names a designer's targets use
)
"""Blitz's metrics in table order, each declared once: the lab derives its ``METRICS``,
``PANELS``, sweep columns, ``--precision`` paths and summary rows from them."""


def summary_lines(s: Dict[str, Any], pct: Any, num: Any) -> Tuple[List[Tuple[str, str]], List[str]]:
    """(rows of the summary table after the lab's, lines after the table): what
    ``tictacblitz simulate`` prints for Blitz. ``pct``/``num`` format a share/number
    with its interval."""
    sa, r = s["seat_advantage"], s["rounds"]
    seat = (
        "seat advantage: X's share of decided rounds"
        if s.get("x_bot") == s.get("o_bot")
        else "X's share of decided rounds (bot strength and seat)"
    )
    rows: List[Tuple[str, str]] = [
        (seat, pct(sa["round_x_share_of_decided"], sa["round_x_share_ci"])),
        ("rounds: X wins / O wins / draws", f"{r['x_wins']:,} / {r['o_wins']:,} / {r['draws']:,}"),
        ("rounds drawn", pct(s["round_draw_rate"], s["round_draw_ci"])),
        ("rounds won by a line (decisiveness)", pct(s["decisiveness"], s["decisiveness_ci"])),
        (
            "rounds ended by the clock (decided / drawn)",
            pct(s["timeout_share"], s["timeout_share_ci"])
            + f"  ({r['timeout_decided']:,} / {r['timeout_drawn']:,})",
        ),
        ("double-line draws (rounds)", f"{r['by_double_line']:,}"),
    ]
    rl, ml, mr, ko = (
        s["round_length_ms"],
        s["match_length_ms"],
        s["match_rounds"],
        s["knockouts_per_round"],
    )
    if rl["mean"] is not None:
        rows += [
            ("round length: mean", num(rl["mean"], rl["mean_ci"], 1e-3, 2, "s")),
            (
                "  p10 / median / p90",
                f"{rl['p10'] / 1000:.1f} / {rl['median'] / 1000:.1f} / {rl['p90'] / 1000:.1f} s",
            ),
            ("match length: mean", num(ml["mean"], ml["mean_ci"], 1e-3, 1, "s")),
            (
                "  p10 / median / p90",
                f"{ml['p10'] / 1000:.1f} / {ml['median'] / 1000:.1f} / {ml['p90'] / 1000:.1f} s",
            ),
        ]
    dist = mr["distribution"]
    total = sum(dist.values()) or 1
    rows += [
        ("rounds a match: mean", num(mr["mean"], mr["mean_ci"])),
        (
            "  share of matches by rounds",
            "  ".join(f"{k}: {100 * v / total:.0f} %" for k, v in dist.items()),
        ),
        ("knock-outs a round: mean", num(ko["mean"], ko["mean_ci"])),
        (
            "  X / O mean; median, p90",
            f"{num(ko['x_mean'])} / {num(ko['o_mean'])}; {ko['median']}, {ko['p90']}",
        ),
    ]
    t = s["targets"]  # issue 24: the names a designer's targets use
    if t["match_s"] is not None:
        gap = t["seat_gap_ci"]
        rows += [
            ("line_share: rounds ended by a line", pct(t["line_share"], t["line_share_ci"])),
            (
                "line_round_s: their length, mean",
                num(t["line_round_s"], t["line_round_s_ci"], 1, 1, "s"),
            ),
            ("match_s: match length, mean", num(t["match_s"], t["match_s_ci"], 1, 1, "s")),
            ("cap_share: matches at the round cap", pct(t["cap_share"], t["cap_share_ci"])),
            (
                "seat_gap: X's match score - 1/2"
                + ("" if s.get("x_bot") == s.get("o_bot") else " (bot strength and seat)"),
                f"{100 * t['seat_gap']:+.1f} pp  [{100 * gap[0]:+.1f}, {100 * gap[1]:+.1f}]"
                if gap
                else f"{100 * t['seat_gap']:+.1f} pp",
            ),
        ]
    for seat_name in (p.name for p in Player):
        c = s["seats"][seat_name]
        rows.append(
            (
                f"{seat_name} a round: placements / retirements (mean)",
                f"{num(c['placements_per_round'])} / {num(c['retirements_per_round'])}",
            )
        )
    lines = [
        "",
        "Powerup claims: a CORRELATION, not an effect (a seat that is ahead reaches more "
        "cells and claims more;",
        "the effect of each powerup is the ablation: simulate --ablate). A claimer = a seat "
        "that claimed the kind in a round.",
        f"{'kind':<7} {'claims':>11} {'X / O':>21} {'a round':>8}  "
        f"{'claimer wins the round':<24} {'baseline':>8} {'claimer - baseline':>19}  "
        f"{'seat with more claims wins':<24}",
    ]
    for kind in KINDS:
        p = s["powerups"][kind]
        ci, mci = p["claimer_win_ci"], p["more_claims_win_ci"]
        claimer = pct(p["claimer_win_rate"], ci).replace("  [", " [")
        more = pct(p["more_claims_win_share"], mci).replace("  [", " [")
        base = pct(p["baseline_win_rate"])
        impact = f"{100 * p['impact']:+.1f} pp" if p["impact"] is not None else "-"
        per_round = f"{p['claims_per_round']:.2f}" if p["claims_per_round"] is not None else "-"
        by_seat = f"{p['claims_x']:,} / {p['claims_o']:,}"
        lines.append(
            f"{kind:<7} {p['claims']:>11,} {by_seat:>21} "
            f"{per_round:>8}  {claimer:<24} {base:>8} {impact:>19}  {more}"
        )
    return rows, lines
