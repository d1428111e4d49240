"""Round-robin tournaments between bots: ``tictacblitz tournament``.

Every pair of bots plays ``matches`` whole matches in the native loop, seats alternated
(match k of a pair has the first bot as X when k is even). Each match has its own seed,
derived from the tournament seed, the pair and k, so a tournament is deterministic for a
given seed (and the same whatever ``jobs``). The report gives, per pair, wins, draws and
losses with 95 % Wilson intervals, and Elo ratings (a Bradley-Terry fit) with 95 %
intervals.

>>> result = run_tournament(["greedy", "random"], matches=4, seed=1)
>>> result["pairs"][0]["a_wins"], result["pairs"][0]["b_wins"]
(4, 0)
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..games.blitz.bots import BOT_NAMES, PRESETS, play_matches, resolve
from ..games.blitz.rules import Rules
from .stats import Z95, wilson
from .stats import mix64 as _mix

__all__ = ["run_tournament", "format_report", "wilson", "elo_ratings", "match_seed",
           "register", "main"]

ELO_SCALE = 400.0 / math.log(10.0)
_MASK = 0xFFFFFFFFFFFFFFFF


def match_seed(seed: int, a: str, b: str, k: int) -> int:
    """The seed of match k between bots a and b (names, so adding a bot to the list
    leaves the other pairs' matches unchanged)."""
    h = _mix(seed & _MASK)
    for name in (a, b):
        for ch in name.encode():
            h = _mix(h ^ ch)
        h = _mix(h ^ 0xFF)
    return _mix(h ^ k)


def elo_ratings(names: Sequence[str], pairs: Sequence[Dict[str, Any]]
                ) -> Tuple[Dict[str, float], Dict[str, Tuple[float, float]]]:
    """Elo ratings (mean 0) and 95 % intervals from pairwise results.

    A Bradley-Terry fit by Newton's method, a draw counting half a win to each side,
    with one virtual draw per pair as a prior (so a 100 % score stays finite). The
    intervals come from the inverse Fisher information (its pseudo-inverse: ratings
    are only defined up to a constant, fixed by the mean-zero convention)."""
    import numpy as np

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
        p = 1.0 / (1.0 + np.exp(r[None, :] - r[:, None]))   # p[i, j]: i beats j
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


def run_tournament(bots: Sequence[str], matches: int, seed: int = 0, *,
                   rules: Optional[Rules] = None, jobs: int = 1) -> Dict[str, Any]:
    """Play the round robin and return the report as a JSON-ready dict.

    :raises ValueError: for an unknown or repeated bot name, fewer than two bots, or
        ``matches`` < 1.
    """
    names = list(bots)
    for name in names:
        resolve(name)          # an unknown name raises ValueError naming the known ones
    if len(set(names)) != len(names):
        raise ValueError(f"a bot is named twice in {','.join(names)}")
    if len(names) < 2:
        raise ValueError("a tournament needs at least two bots")
    if isinstance(matches, bool) or not isinstance(matches, int) or matches < 1:
        raise ValueError(f"matches must be an integer >= 1, not {matches!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, not {seed!r}")
    if jobs < 1:
        raise ValueError(f"jobs must be >= 1, not {jobs}")
    rules = rules if rules is not None else Rules()
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    # Per pair two batches: the first bot as X (even k), then as O (odd k).
    tasks = []
    for a, b in pairs:
        seeds = [match_seed(seed, a, b, k) for k in range(matches)]
        tasks.append((a, b, seeds[0::2]))
        tasks.append((b, a, seeds[1::2]))

    def run(task: Tuple[str, str, List[int]]) -> Dict[str, Any]:
        x, o, seeds = task
        return play_matches(rules, x, o, seeds)

    if jobs == 1:
        results = [run(t) for t in tasks]
    else:
        with ThreadPoolExecutor(max_workers=jobs) as pool:   # the native loop drops the GIL
            results = list(pool.map(run, tasks))
    out_pairs = []
    for n, (a, b) in enumerate(pairs):
        a_x, b_x = results[2 * n], results[2 * n + 1]
        a_wins = int((a_x["winner"] == 0).sum()) + int((b_x["winner"] == 1).sum())
        b_wins = int((a_x["winner"] == 1).sum()) + int((b_x["winner"] == 0).sum())
        draws = matches - a_wins - b_wins
        decided = a_wins + b_wins
        score = a_wins + 0.5 * draws
        rounds = int(a_x["rounds"].sum()) + int(b_x["rounds"].sum())
        out_pairs.append({
            "a": a, "b": b, "a_wins": a_wins, "b_wins": b_wins, "draws": draws,
            "a_win_rate": a_wins / matches, "a_win_ci": list(wilson(a_wins, matches)),
            "b_win_rate": b_wins / matches, "b_win_ci": list(wilson(b_wins, matches)),
            "a_score": score / matches,
            "a_decided": a_wins / decided if decided else None,
            "a_decided_ci": list(wilson(a_wins, decided)) if decided else None,
            "significant": bool(decided) and (wilson(a_wins, decided)[0] > 0.5
                                              or wilson(a_wins, decided)[1] < 0.5),
            "mean_rounds": rounds / matches,
        })
    ratings, intervals = elo_ratings(names, out_pairs)
    return {
        "seed": seed, "matches": matches, "bots": {n: resolve(n).to_dict() for n in names},
        "pairs": out_pairs,
        "elo": {n: round(ratings[n], 1) for n in names},
        "elo_ci": {n: [round(intervals[n][0], 1), round(intervals[n][1], 1)] for n in names},
    }


def format_report(result: Dict[str, Any]) -> str:
    """The tournament as a text table (what the command prints without --json)."""
    lines = [f"tournament: {len(result['bots'])} bots, {result['matches']} matches a pair "
             f"(seats alternated), seed {result['seed']}", ""]
    width = max(len(f"{p['a']} vs {p['b']}") for p in result["pairs"])
    lines.append(f"{'pair':<{width}}  {'a wins':>6} {'draws':>5} {'b wins':>6}   "
                 f"{'a win rate [95% CI]':<22} {'a of decided [95% CI]':<22}")
    for p in result["pairs"]:
        lo, hi = p["a_win_ci"]
        rate = f"{p['a_win_rate']:.3f} [{lo:.3f}, {hi:.3f}]"
        if p["a_decided"] is None:
            dec = "-"
        else:
            dlo, dhi = p["a_decided_ci"]
            dec = f"{p['a_decided']:.3f} [{dlo:.3f}, {dhi:.3f}]" + (" *" if p["significant"] else "")
        lines.append(f"{p['a'] + ' vs ' + p['b']:<{width}}  {p['a_wins']:>6} {p['draws']:>5} "
                     f"{p['b_wins']:>6}   {rate:<22} {dec}")
    lines += ["", "* the decided share differs from 1/2 at 95 % (Wilson)", "",
              "Elo (Bradley-Terry, mean 0) [95% CI]:"]
    for name in sorted(result["elo"], key=lambda n: -result["elo"][n]):
        lo, hi = result["elo_ci"][name]
        lines.append(f"  {name:<10} {result['elo'][name]:>+8.1f}  [{lo:+.1f}, {hi:+.1f}]")
    return "\n".join(lines)


# -- the command line ------------------------------------------------------------------


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``tournament`` subcommand to an argparse subparsers object; its handler
    (``args.handler(args)``) returns the exit status."""
    parser = subparsers.add_parser(
        "tournament", help="round-robin matches between bots, with Wilson intervals and Elo",
        description="Round-robin tournament between bots (seats alternated): wins, draws "
                    "and losses with 95%% Wilson intervals, and Elo ratings with 95%% "
                    f"intervals. Bots: {', '.join(BOT_NAMES)}.")
    parser.add_argument("--bots", default="random,greedy,search",
                        help="comma-separated bot names (default: random,greedy,search)")
    parser.add_argument("--matches", type=int, default=100, metavar="N",
                        help="matches per pair (default: 100)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="tournament seed (default: 0)")
    parser.add_argument("--jobs", type=int, default=1, metavar="J",
                        help="threads playing matches in parallel (same result; default: 1)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(handler=main)
    return parser


def main(args: argparse.Namespace) -> int:
    """Run the tournament the parsed ``args`` describe; 0 on success, 2 on bad input."""
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    unknown = [n for n in names if n not in PRESETS]
    problem = None
    if unknown:
        problem = f"unknown bot {unknown[0]!r}: expected names from {', '.join(BOT_NAMES)}"
    elif args.matches < 1:
        problem = f"--matches must be >= 1, not {args.matches}"
    elif args.jobs < 1:
        problem = f"--jobs must be >= 1, not {args.jobs}"
    elif len(names) < 2:
        problem = "--bots needs at least two bot names"
    elif len(set(names)) != len(names):
        problem = "--bots names a bot twice"
    if problem is not None:
        print(f"tictacblitz tournament: error: {problem}", file=sys.stderr)
        return 2
    result = run_tournament(names, args.matches, args.seed, jobs=args.jobs)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(format_report(result))
    return 0
