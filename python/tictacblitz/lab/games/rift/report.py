"""How the lab's reports show Rift & Grid's balance: its metrics, each declared once
(:data:`RIFT_METRICS`: label, unit, summary path, panel and tables; issue 27, item 3),
and the rows and tables ``tictacblitz simulate --game rift`` prints
(:func:`summary_lines`)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ....games.rift.types import OBJECTIVE_IDS
from ...metric import Metric
from .metrics import ABILITIES

__all__ = ["RIFT_METRICS", "summary_lines"]

PLOTTED_OBJECTIVES = ("full_energy", "centre_cells", "centre", "diagonal_win", "shield_win")
"""The objectives a sweep plot draws (every one is in the table and the JSON)."""

RIFT_METRICS: Tuple[Metric, ...] = (
    Metric(
        "x_score",
        "X's score (win 1, draw 1/2)",
        "share",
        "X's mean result; 50 % is a fair seat with the same bot in both seats (G9: X's "
        "final target names the next sector)",
        value="seat_advantage.x_score",
        ci="seat_advantage.x_score_ci",
        panel="seat advantage: X's share of decided matches",
        sweep=True,
        report=True,
        precision=True,
    ),
    Metric(
        "game_length",
        "game length (mean)",
        "turns",
        "turns played until the ninth sector (G16)",
        value="game_length.mean",
        ci="game_length.mean_ci",
        panel="game length (turns)",
        sweep=True,
        report=True,
        precision=True,
    ),
    Metric(
        "collision_rate",
        "turns with a collision",
        "share",
        "turns in which both final targets were the same cell (G6.3)",
        value="collisions.collision_rate",
        ci="collisions.collision_ci",
        panel="collisions and grey cells (share of turns)",
        sweep=True,
        report=True,
        precision=True,
    ),
    Metric(
        "grey_rate",
        "turns that greyed a cell",
        "share",
        "collisions not won by a lone shield",
        value="collisions.grey_rate",
        ci="collisions.grey_ci",
        panel="collisions and grey cells (share of turns)",
        report=True,
    ),
    Metric(
        "grey_share_of_collisions",
        "grey share of collisions",
        "share",
        "1 - lone shield wins",
        value="collisions.grey_share_of_collisions",
        ci="collisions.grey_share_ci",
    ),
    *(
        Metric(
            f"{a}_uses_per_game",
            f"{a} uses a game",
            "uses",
            f"{a} played in a game, both seats",
            value=f"abilities.{a}.uses_per_game",
            ci=f"abilities.{a}.uses_per_game_ci",
            panel="ability uses a game",
            sweep=a == "reveal",
            report=True,
        )
        for a in ABILITIES
    ),
    *(
        Metric(
            f"{a}_win_difference",
            f"{a}: user's win rate - non-user's (correlation)",
            "pp",
            f"the win rate of a seat that used {a} in a game minus that of a seat that did "
            "not; a correlation (bots use abilities when they can), not the effect of the "
            "rule: compare runs for that",
            value=f"abilities.{a}.win_rate_difference",
            ci=f"abilities.{a}.win_rate_difference_ci",
            panel="correlation: user's win rate - non-user's",
            report=True,
        )
        for a in ABILITIES
    ),
    Metric(
        "seat_gap",
        "seat gap: X's score - 1/2",
        "pp",
        "X's mean result (win 1, draw 1/2) minus 1/2: 0 is an even seat with the same bot in "
        "both seats (the name a tune target uses)",
        value="targets.seat_gap",
        ci="targets.seat_gap_ci",
        precision=True,
    ),
    *(
        Metric(
            f"{a}_uses",
            f"{a} uses a game (target)",
            "uses",
            f"{a} played in a game, both seats (G14; the name a tune target uses)",
            value=f"targets.{a}_uses",
            ci=f"targets.{a}_uses_ci",
            precision=True,
        )
        for a in ABILITIES
    ),
    Metric(
        "objective_points_share",
        "points from objectives",
        "share",
        "the share of all points scored that came from objectives (G12, G17)",
        value="points.objective_share",
        ci="points.objective_share_ci",
        panel="share of points",
        report=True,
    ),
    *(
        Metric(
            f"{o}_completion",
            f"objective {o}: completion rate",
            "share",
            f"hands dealt {o} that accomplished it",
            value=f"objectives.{o}.completion_rate",
            ci=f"objectives.{o}.completion_ci",
            panel="objective completion rate" if o in PLOTTED_OBJECTIVES else None,
        )
        for o in OBJECTIVE_IDS
    ),
    *(
        Metric(
            f"{o}_points_share",
            f"objective {o}: share of points",
            "share",
            f"the share of all points scored that {o} scored",
            value=f"objectives.{o}.points_share",
            ci=f"objectives.{o}.points_share_ci",
        )
        for o in OBJECTIVE_IDS
    ),
)
"""Rift's metrics in table order, each declared once: the lab derives its ``METRICS``,
``PANELS``, sweep columns, ``--precision`` paths and summary rows from them."""


def _pp(value: Optional[float], ci: Optional[List[float]]) -> str:
    if value is None:
        return "-"
    text = f"{100 * value:+.1f} pp"
    if ci:
        text += f" [{100 * ci[0]:+.1f}, {100 * ci[1]:+.1f}]"
    return text


def summary_lines(s: Dict[str, Any], pct: Any, num: Any) -> Tuple[List[Tuple[str, str]], List[str]]:
    """(rows of the summary table after the lab's, lines after the table): what
    ``tictacblitz simulate --game rift`` prints."""
    sa, gl, c, p = s["seat_advantage"], s["game_length"], s["collisions"], s["points"]
    rows: List[Tuple[str, str]] = [
        ("X's score (win 1, draw 1/2)", pct(sa["x_score"], sa["x_score_ci"])),
    ]
    if gl["mean"] is not None:
        rows += [
            ("game length, turns: mean [CI]", num(gl["mean"], gl["mean_ci"])),
            ("  p10 / median / p90", f"{gl['p10']} / {gl['median']} / {gl['p90']}"),
        ]
    rows += [
        ("turns with a collision", pct(c["collision_rate"], c["collision_ci"])),
        ("turns that greyed a cell", pct(c["grey_rate"], c["grey_ci"])),
        ("grey share of collisions", pct(c["grey_share_of_collisions"], c["grey_share_ci"])),
        (
            "a game: lone-shield wins / lone swaps",
            f"{num(c['shield_wins_per_game'], c['shield_wins_per_game_ci'])} / "
            f"{num(c['swaps_per_game'], c['swaps_per_game_ci'])}",
        ),
        ("points a game (both seats)", num(p["per_game"])),
        ("points from objectives", pct(p["objective_share"], p["objective_share_ci"])),
    ]
    lines = [
        "",
        "Abilities (the win rates are a CORRELATION: bots use abilities when they can; the "
        "effect is the ablation, simulate --ablate, or a sweep: sweep --grid reveal_cost=...):",
        f"{'ability':<8} {'uses a game':<22} {'X / O uses':>15}  {'seat used it':<22} "
        f"{'user wins':<22} {'non-user wins':<22} {'difference':<24}",
    ]
    for a in ABILITIES:
        ab = s["abilities"][a]
        lines.append(
            f"{a:<8} {num(ab['uses_per_game'], ab['uses_per_game_ci']):<22} "
            f"{ab['uses_x']:>7,} / {ab['uses_o']:<5,}  "
            f"{pct(ab['user_share'], ab['user_share_ci']):<22} "
            f"{pct(ab['user_win_rate'], ab['user_win_ci']):<22} "
            f"{pct(ab['non_user_win_rate'], ab['non_user_win_ci']):<22} "
            f"{_pp(ab['win_rate_difference'], ab['win_rate_difference_ci']):<24}"
        )
    lines += [
        "",
        "Objectives (G17; 95 % intervals): completion = hands dealt it that accomplished it",
        f"{'objective':<17} {'pts':>3} {'dealt':>7}  {'completion':<22} "
        f"{'completer wins':<22} {'share of all points':<22}",
    ]
    for o in OBJECTIVE_IDS:
        ob = s["objectives"][o]
        lines.append(
            f"{o:<17} {ob['points']:>3} {ob['dealt']:>7,}  "
            f"{pct(ob['completion_rate'], ob['completion_ci']):<22} "
            f"{pct(ob['completer_win_rate'], ob['completer_win_ci']):<22} "
            f"{pct(ob['points_share'], ob['points_share_ci']):<22}"
        )
    return rows, lines
