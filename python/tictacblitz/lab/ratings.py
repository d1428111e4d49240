"""A tournament's ratings and its text table: :func:`elo_ratings` (a Bradley-Terry fit
with 95 % intervals) and :func:`format_report` (percentages with 95 % Wilson intervals).
"""

from __future__ import annotations

import math
from typing import Any, Dict, Sequence, Tuple

import numpy as np

from ..games.registry import DEFAULT_GAME
from .stats import Z95
from .units import pct

__all__ = ["elo_ratings", "format_report", "ELO_SCALE"]

ELO_SCALE = 400.0 / math.log(10.0)


def elo_ratings(
    names: Sequence[str], pairs: Sequence[Dict[str, Any]]
) -> Tuple[Dict[str, float], Dict[str, Tuple[float, float]]]:
    """Elo ratings (mean 0) and 95 % intervals from pairwise results.

    A Bradley-Terry fit by Newton's method, a draw counting half a win to each side,
    with one virtual draw per pair as a prior (so a 100 % score stays finite). The
    intervals come from the inverse Fisher information (its pseudo-inverse: ratings
    are only defined up to a constant, fixed by the mean-zero convention)."""
    n = len(names)
    index = {name: i for i, name in enumerate(names)}
    wins = np.zeros((n, n))
    games = np.zeros((n, n))
    for pair in pairs:
        i, j = index[pair["a"]], index[pair["b"]]
        total = pair["a_wins"] + pair["b_wins"] + pair["draws"] + 1.0
        wins[i, j] += pair["a_wins"] + 0.5 * pair["draws"] + 0.5
        wins[j, i] += pair["b_wins"] + 0.5 * pair["draws"] + 0.5
        games[i, j] += total
        games[j, i] += total
    r = np.zeros(n)
    info = np.zeros((n, n))
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(r[None, :] - r[:, None]))  # p[i, j]: i beats j
        grad = (wins - games * p).sum(axis=1)
        w = games * p * (1.0 - p)
        info = np.diag(w.sum(axis=1)) - w
        step = np.linalg.pinv(info) @ grad
        r = r + step
        r -= r.mean()
        if np.max(np.abs(step)) < 1e-10:
            break
    cov = np.linalg.pinv(info)
    ratings = {name: float(r[i] * ELO_SCALE) for i, name in enumerate(names)}
    intervals = {}
    for i, name in enumerate(names):
        half = Z95 * math.sqrt(max(cov[i, i], 0.0)) * ELO_SCALE
        intervals[name] = (ratings[name] - half, ratings[name] + half)
    return ratings, intervals


def format_report(result: Dict[str, Any]) -> str:
    """The tournament as a text table (what the command prints without --json):
    percentages with their 95 % intervals."""
    lines = [
        f"tournament: {result.get('game', DEFAULT_GAME)}, {len(result['bots'])} bots, "
        f"{result['matches']} matches a pair "
        f"(seats alternated, so the seat cancels out), seed {result['seed']}",
        "",
    ]
    width = max(len(f"{p['a']} vs {p['b']}") for p in result["pairs"])
    head = ["a wins the match", "a's share of decided matches"]
    rows = []
    for p in result["pairs"]:
        dec = (
            "-"
            if p["a_decided"] is None
            else (
                pct(p["a_decided"], p["a_decided_ci"])
                + (" *" if p.get("significant_adjusted", p["significant"]) else "")
            )
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
    if result.get("first_seat_decided") is not None:
        lines.append(
            "Seats (every pair plays both orders): the first seat wins "
            f"{pct(result['first_seat_decided'], result['first_seat_decided_ci'])} of decided "
            f"matches; {pct(result['draw_rate'], result['draw_ci'])} of matches are drawn"
        )
    lines += [
        "",
        "Elo (Bradley-Terry, mean 0) [95 % interval]:",
    ]
    for name in sorted(result["elo"], key=lambda n: -result["elo"][n]):
        lo, hi = result["elo_ci"][name]
        lines.append(f"  {name:<10} {result['elo'][name]:>+8.1f}  [{lo:+.1f}, {hi:+.1f}]")
    return "\n".join(lines)
