"""A tournament's ratings and its text table: :func:`elo_ratings` (a Bradley-Terry fit
with 95 % intervals) and :func:`format_report` (percentages with 95 % Wilson intervals).
"""

from __future__ import annotations

import math
import textwrap
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..games.registry import DEFAULT_GAME
from .answers import starred
from .seated import seat_lines
from .stats import Z95, wilson
from .units import pct

__all__ = [
    "elo_ratings",
    "fit_ratings",
    "format_report",
    "ELO_SCALE",
    "NEAR_POINTS",
    "NEAR_SHARE",
    "RATING_METHOD",
]

ELO_SCALE = 400.0 / math.log(10.0)
NEAR_POINTS = 5.0
NEAR_SHARE = 0.05
"""A pair is *(nearly) separated* when one bot scored fewer than :data:`NEAR_POINTS`
points (a win 1, a draw 1/2) and under :data:`NEAR_SHARE` of the pair's games against
the other: then the data bound the Elo difference from one side only (with no point at
all the likelihood grows without end as the difference does)."""
RATING_METHOD = (
    "Bradley-Terry maximum likelihood (a draw half a win to each side, no prior), "
    "fitted within each group of bots that scored against each other both ways; "
    "95 % intervals from the Fisher information"
)


def _groups(scored: np.ndarray) -> List[List[int]]:
    """The strongly connected groups of the graph ``i -> j`` when i scored against j:
    within a group the maximum-likelihood ratings are finite (Ford, 1957); between two
    groups every pair is (nearly) separated. Strongest group first (the one whose bots
    reach the most others)."""
    n = scored.shape[0]
    reach = scored | np.eye(n, dtype=bool)
    for k in range(n):  # transitive closure (Floyd-Warshall, n is a handful of bots)
        reach = reach | (reach[:, [k]] & reach[[k], :])
    groups: List[List[int]] = []
    seen: set = set()
    for i in range(n):
        if i not in seen:
            group = [j for j in range(n) if reach[i, j] and reach[j, i]]
            seen.update(group)
            groups.append(group)
    return sorted(groups, key=lambda g: (-int(reach[g[0]].sum()), g[0]))


def _fit(points: np.ndarray, games: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Maximum-likelihood Bradley-Terry strengths (natural log scale, mean 0) of one
    strongly connected group, and their covariance (inverse Fisher information)."""
    n = points.shape[0]
    r = np.zeros(n)
    info = np.zeros((n, n))
    for _ in range(200):
        p = 1.0 / (1.0 + np.exp(r[None, :] - r[:, None]))  # p[i, j]: i beats j
        grad = (points - games * p).sum(axis=1)
        w = games * p * (1.0 - p)
        info = np.diag(w.sum(axis=1)) - w
        step = np.linalg.pinv(info) @ grad
        step = np.clip(step, -2.0, 2.0)  # Newton's steps, bounded far from the optimum
        r = r + step
        r -= r.mean()
        if np.max(np.abs(step)) < 1e-12:
            break
    return r, np.linalg.pinv(info)


def fit_ratings(names: Sequence[str], pairs: Sequence[Dict[str, Any]]) -> Dict[str, Any]:
    """Elo ratings of a round robin whose figures come from the data alone (issue 22,
    item 3): the Bradley-Terry maximum-likelihood fit within each group of bots that
    scored against each other both ways (mean 0 in each group, 95 % intervals from the
    Fisher information), and for every (nearly) separated pair, where the likelihood has
    no maximum, a bound: the Elo difference of the 95 % Wilson lower bound of the
    stronger bot's score. Unlike a fit with a prior (the old one virtual draw a pair),
    the same outcome proportions give the same ratings at any number of matches.

    :returns: ``{"elo": {name: rating or None}, "elo_ci": {name: [lo, hi] or None},
        "elo_groups": [[names], ...] (strongest first), "elo_bounds": [{"stronger",
        "weaker", "points", "games", "elo_at_least", "separation"}],
        "elo_separated_in_group": [...] (a (nearly) separated pair inside a group: its
        difference is finite, set by both bots' results against the others),
        "elo_method"}``; a bot alone in its group has no rating (None): only bounds.
    """
    n = len(names)
    index = {name: i for i, name in enumerate(names)}
    points = np.zeros((n, n))
    games = np.zeros((n, n))
    for pair in pairs:
        i, j = index[pair["a"]], index[pair["b"]]
        total = pair["a_wins"] + pair["b_wins"] + pair["draws"]
        points[i, j] += pair["a_wins"] + 0.5 * pair["draws"]
        points[j, i] += pair["b_wins"] + 0.5 * pair["draws"]
        games[i, j] += total
        games[j, i] += total
    near = (points < NEAR_POINTS) & (points < NEAR_SHARE * games)
    groups = _groups((points > 0) & ~near)
    elo: Dict[str, Optional[float]] = dict.fromkeys(names)
    ci: Dict[str, Optional[List[float]]] = dict.fromkeys(names)
    for group in groups:
        if len(group) < 2:
            continue
        sub = np.ix_(group, group)
        r, cov = _fit(points[sub], games[sub])
        for k, i in enumerate(group):
            value = float(r[k] * ELO_SCALE)
            half = Z95 * math.sqrt(max(cov[k, k], 0.0)) * ELO_SCALE
            elo[names[i]] = round(value, 1)
            ci[names[i]] = [round(value - half, 1), round(value + half, 1)]
    bounds = []
    for g, group in enumerate(groups):  # pairs across groups: the stronger group first
        for i in group:
            for j in (j for weaker in groups[g + 1 :] for j in weaker):
                if games[i, j] > 0:
                    lo = wilson(points[i, j], int(games[i, j]))[0]
                    bounds.append(
                        {
                            "stronger": names[i],
                            "weaker": names[j],
                            "points": float(points[i, j]),
                            "games": int(games[i, j]),
                            "elo_at_least": round(_elo_of_share(lo), 1),
                            "separation": "perfect" if points[j, i] == 0 else "near",
                        }
                    )
    flagged = []  # (nearly) separated pairs inside a group: fitted through the others
    for group in groups:
        for i in group:
            for j in group:
                if games[i, j] > 0 and near[j, i] and not near[i, j]:
                    flagged.append(
                        {
                            "stronger": names[i],
                            "weaker": names[j],
                            "points": float(points[i, j]),
                            "games": int(games[i, j]),
                            "separation": "perfect" if points[j, i] == 0 else "near",
                        }
                    )
    return {
        "elo": elo,
        "elo_ci": ci,
        "elo_groups": [[names[i] for i in group] for group in groups],
        "elo_bounds": bounds,
        "elo_separated_in_group": flagged,
        "elo_method": RATING_METHOD,
    }


def _elo_of_share(share: float) -> float:
    """The Elo difference at which the stronger side scores ``share`` of the points."""
    share = min(max(share, 1e-12), 1 - 1e-12)
    return ELO_SCALE * math.log(share / (1.0 - share))


def elo_ratings(
    names: Sequence[str], pairs: Sequence[Dict[str, Any]]
) -> Tuple[Dict[str, Optional[float]], Dict[str, Optional[List[float]]]]:
    """(ratings, 95 % intervals) of :func:`fit_ratings` (None for a bot without a
    rating: one whose every pair is separated)."""
    fit = fit_ratings(names, pairs)
    return fit["elo"], fit["elo_ci"]


def format_report(result: Dict[str, Any]) -> str:
    """The tournament as a text table (what the command prints without --json):
    percentages with their 95 % intervals."""
    n = result.get("players", 2)
    how = (
        "seats alternated, so the seat cancels out"
        if n == 2
        else f"{2 * n} seatings: each bot alone in each seat against {n - 1} of the other"
    )
    lines = [
        f"tournament: {result.get('game', DEFAULT_GAME)}, {len(result['bots'])} bots, "
        f"{result['matches']} matches a pair ({how}), seed {result['seed']}",
        "",
    ]
    width = max(len(f"{p['a']} vs {p['b']}") for p in result["pairs"])
    head = ["a wins the match", "a's share of decided matches"]
    rows = []
    for p in result["pairs"]:
        dec = (
            "-"
            if p["a_decided"] is None
            else (pct(p["a_decided"], p["a_decided_ci"]) + (" *" if starred(p) else ""))
        )
        rows.append(
            (
                f"{p['a']} vs {p['b']}",
                f"{p['a_wins']:>6} {p['draws']:>5} {p['b_wins']:>6}",
                pct(p["a_win_rate"], p["a_win_ci"]),
                dec,
            )
        )
    w1 = max(len(head[0]), *(len(r[2]) for r in rows))
    w2 = max(len(head[1]), *(len(r[3]) for r in rows))
    # A game's per-pair means (its PAIR_MEANS hook: Blitz's rounds, Doh's moves, ...).
    means = [k for k in result["pairs"][0] if k.startswith("mean_")] if result["pairs"] else []
    extra_head = "".join(f"   {k[5:].replace('_', ' ') + ' (mean)':>14}" for k in means)
    lines.append(
        f"{'pair':<{width}}  {'a wins':>6} {'draws':>5} {'b wins':>6}   {head[0]:<{w1}}   "
        f"{head[1]:<{w2}}{extra_head}".rstrip()
    )
    for (name, counts, rate, dec), p in zip(rows, result["pairs"], strict=True):
        extra = "".join(f"   {p[k]:>14.2f}" for k in means)
        lines.append(f"{name:<{width}}  {counts}   {rate:<{w1}}   {dec:<{w2}}{extra}".rstrip())
    adj = result.get("adjustment")
    lines += [
        "",
        "Shares in %, [a, b] the 95 % interval (Wilson, unadjusted); * a's share of decided "
        "matches differs from 50 % at 5 % after "
        + (
            f"{adj['method']}'s correction for the {adj['tests']} pairs tested at once"
            if adj
            else "no correction for multiple tests"
        ),
    ]
    left_out = result.get("first_seat_left_out") or {}
    where = (
        f" over the {len(result['pairs']) - len(left_out)} pairs where it shows" if left_out else ""
    )
    if result.get("first_seat_decided") is not None:
        lines.append(
            f"Seats (every pair plays both orders){where}: the first seat wins "
            f"{pct(result['first_seat_decided'], result['first_seat_decided_ci'])} of decided "
            f"matches; {pct(result['draw_rate'], result['draw_ci'])} of all matches are drawn"
        )
    elif left_out:
        lines.append(
            "Seats: first-seat advantage not measurable in any pair; "
            f"{pct(result['draw_rate'], result['draw_ci'])} of all matches are drawn"
        )
    for pair, why in left_out.items():
        lines += textwrap.wrap(
            f"seat advantage not measurable in {pair}: {why}",
            100,
            initial_indent="  ",
            subsequent_indent="    ",
        )
    lines += seat_lines(result)  # three or four seats (lab/seated.py)
    lines += ["", *rating_lines(result)]
    return "\n".join(lines)


def rating_lines(result: Dict[str, Any]) -> List[str]:
    """The Elo part of the report: each group's ratings with their intervals, then the
    separated pairs as bounds."""
    elo, ci = result["elo"], result["elo_ci"]
    groups = result.get("elo_groups") or [list(elo)]
    rated = [g for g in groups if len(g) > 1]
    lines = textwrap.wrap(f"Elo: {result.get('elo_method', RATING_METHOD)}.", 100)
    if not rated:
        lines.append("  no two bots scored against each other both ways: no rating, bounds only")
    for k, group in enumerate(rated):
        if len(rated) > 1:
            lines.append(f"  group {k + 1} of {len(rated)} (mean 0 within the group):")
        for name in sorted(group, key=lambda n: -(elo[n] or 0.0)):
            lo, hi = ci[name]
            lines.append(f"  {name:<10} {elo[name]:>+8.1f}  [{lo:+.1f}, {hi:+.1f}]")
    alone = [g[0] for g in groups if len(g) == 1]
    if alone:
        lines.append(
            f"  no rating for {', '.join(alone)}: every other bot either always or never "
            "beat it (the bounds below)"
        )
    for f in result.get("elo_separated_in_group") or []:
        lines += textwrap.wrap(
            f"{f['stronger']} > {f['weaker']}: {f['stronger']} scored {f['points']:g} of "
            f"{f['games']} points ({'' if f['separation'] == 'perfect' else 'nearly '}"
            "separated): their difference is set by their results "
            "against the group's other bots",
            100,
            initial_indent="  ",
            subsequent_indent="    ",
        )
    bounds = result.get("elo_bounds") or []
    if bounds:
        lines += [
            "",
            "Separated pairs (one bot scored every point, or nearly): the data only bound "
            "their Elo difference (95 %):",
        ]
        for b in bounds:
            lines.append(
                f"  {b['stronger']} > {b['weaker']}: at least {b['elo_at_least']:+.0f} Elo "
                f"({b['stronger']} scored {b['points']:g} of {b['games']} points"
                + ("" if b["separation"] == "perfect" else ", nearly separated")
                + ")"
            )
    return lines
