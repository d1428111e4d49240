"""Round-robin tournaments between bots of any registered game: ``tictacblitz tournament``.

Every pair of bots (by name, from the game's ``bot_names``) plays ``matches`` whole
matches in the game's native loop (its ``play_matches`` hook), seats alternated
(match k of a pair has the first bot as X when k is even). Each match has its own seed,
derived from the tournament seed, the pair and k, so a tournament is deterministic for a
given seed (and the same whatever ``jobs``). The report gives, per pair, wins, draws and
losses with 95 % Wilson intervals, and Elo ratings (a Bradley-Terry fit) with 95 %
intervals. A game of three or four seats plays each pair in 2N seatings, each bot alone in
each seat against N-1 copies of the other (:mod:`~tictacblitz.lab.seated`, issue 25).

>>> result = run_tournament(["greedy", "random"], matches=4, seed=1)
>>> result["pairs"][0]["a_wins"], result["pairs"][0]["b_wins"]
(4, 0)
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..games.options import add_game_arguments, game_from_arguments
from ..games.players import split_specs
from ..games.protocol import Game
from ..games.registry import DEFAULT_GAME
from ..games.rng import check_seed
from .command import add_yes_argument, progress_wanted, report_error
from .cost import announce
from .edges import Interrupted, guarded, one_line_errors, seed_number, whole_number
from .hooks import hooks_for
from .jobs import default_workers
from .policy_players import run_pilot, with_policies
from .ratings import elo_ratings, fit_ratings, format_report
from .runner import daemon_map, progress_bar
from .seated import alone_figures, pair_counts, schedule, seat_summary, seatings
from .seating import num_players
from .seats import seat_verdict
from .seeds import pair_match_seed as match_seed
from .stats import adjust, normal_p, wilson, wilson_or_none
from .tournament_job import TournamentJob, prepare_tournament, resolve_players

__all__ = [
    "run_tournament",
    "play_tournament",
    "format_report",
    "wilson",
    "elo_ratings",
    "match_seed",
    "register",
    "main",
]


def run_tournament(
    bots: Optional[Sequence[str]],
    matches: int,
    seed: int = 0,
    *,
    rules: Optional[Any] = None,
    jobs: int = 1,
    game: Union[str, Game] = DEFAULT_GAME,
    progress: bool = False,
) -> Dict[str, Any]:
    """Play the round robin of ``game`` (default ``"blitz"``) under ``rules`` (a dict of
    overrides or the game's rules object) between ``bots`` (names; ``None``: the game's
    ``TOURNAMENT_BOTS``) and return the report as a JSON-ready dict. ``progress``: a
    progress bar (matches played, matches/s, time left) on stderr.

    :raises ValueError: for an unknown game or rule, an unknown or repeated bot name,
        fewer than two bots, or ``matches`` < 1.
    """
    job = prepare_tournament(bots, matches, seed, rules=rules, jobs=jobs, game=game)
    return play_tournament(job, progress)


def play_tournament(job: TournamentJob, progress: bool = False) -> Dict[str, Any]:
    """Play a checked round robin (:func:`~.tournament_job.prepare_tournament`, or the
    command line's), each bot as the job resolved it, and return its report (see
    :func:`run_tournament`)."""
    names = list(job.names)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    # Per pair two batches (first bot as X, then as O), in pieces (for the progress bar).
    try:
        return _play(job, pairs, progress)
    except KeyboardInterrupt as exc:
        if isinstance(exc, Interrupted):
            raise
        raise Interrupted(0, job.matches * len(pairs)) from None


def _play(job: TournamentJob, pairs: List[Tuple[str, str]], progress: bool) -> Dict[str, Any]:
    hooks, the_game, names, seed = job.hooks, job.game, list(job.names), job.seed
    play = hooks.play_matches
    players = num_players(the_game)
    batches, matches = schedule(
        pairs, job.matches, players, lambda a, b, k: match_seed(seed, a, b, k)
    )
    tasks = []
    for n, (seating, seeds) in enumerate(batches):
        piece = 8 if any(job.slow[x] for x in seating) else 512
        tasks += [(n, seating, seeds[i : i + piece]) for i in range(0, len(seeds), piece)]
    advance, close = progress_bar(matches * len(pairs), progress, "tournament")

    def run(task: Tuple[int, Tuple[str, ...], List[int]]) -> Dict[str, Any]:
        _, seating, seeds = task
        return play(the_game.rules, job.seating(seating), np.array(seeds, dtype=np.uint64))

    parts: List[Any] = [None] * len(tasks)
    played = [0]

    def got(n: int, cols: Dict[str, Any]) -> None:
        parts[n] = cols
        played[0] += len(tasks[n][2])
        advance(len(tasks[n][2]))

    try:
        daemon_map(run, tasks, job.jobs, got)  # the native loop drops the GIL
    except KeyboardInterrupt:
        raise Interrupted(played[0], matches * len(pairs)) from None
    finally:
        close()
    results = [
        _concat([c for t, c in zip(tasks, parts, strict=False) if t[0] == n])
        for n in range(len(batches))
    ]
    out_pairs: List[Dict[str, Any]] = []
    first_wins = second_wins = 0  # by seat, over the pairs whose seat share is measurable
    one_sided: Dict[str, str] = {}
    per_pair = len(batches) // len(pairs)
    for n, (a, b) in enumerate(pairs):
        mine = results[per_pair * n : per_pair * (n + 1)]

        def total(batch: Dict[str, Any], column: str, value: Optional[int] = None) -> int:
            v = np.asarray(batch.get(column, ()))
            return int((v == value).sum() if value is not None else v.sum())

        seated: Dict[str, Any] = {}
        if players == 2:
            a_x, b_x = mine[0], mine[-1]  # A as X, then B as X
            a_wins = total(a_x, "winner", 0) + total(b_x, "winner", 1)
            b_wins = total(a_x, "winner", 1) + total(b_x, "winner", 0)
            pair_first = total(a_x, "winner", 0) + total(b_x, "winner", 0)
            first_a = total(a_x, "winner", 0) + total(a_x, "winner", 1)
            first_b = total(b_x, "winner", 0) + total(b_x, "winner", 1)
            measurable, why, _ = seat_verdict(
                a_wins, first_a, first_b, wilson_or_none(pair_first, first_a + first_b)
            )
            if measurable:  # a one-sided pair pins its seat share near 50 % (lab/seats.py)
                first_wins += pair_first
                second_wins += first_a + first_b - pair_first
            else:
                one_sided[f"{a} vs {b}"] = str(why)
        else:
            counts = pair_counts(
                a,
                players,
                [(batches[per_pair * n + k][0], c.get("winner", ())) for k, c in enumerate(mine)],
            )
            a_wins, b_wins = counts["a_wins"], counts["b_wins"]
            seated = {**alone_figures(counts, players), "seat_wins": counts["seat_wins"]}
        draws = matches - a_wins - b_wins
        decided = a_wins + b_wins
        score = a_wins + 0.5 * draws
        out_pairs.append(
            {
                "a": a,
                "b": b,
                "a_wins": a_wins,
                "b_wins": b_wins,
                "draws": draws,
                "a_win_rate": a_wins / matches,
                "a_win_ci": list(wilson(a_wins, matches)),
                "b_win_rate": b_wins / matches,
                "b_win_ci": list(wilson(b_wins, matches)),
                "a_score": score / matches,
                "a_decided": a_wins / decided if decided else None,
                "a_decided_ci": list(wilson(a_wins, decided)) if decided else None,
                "significant": bool(decided)
                and (wilson(a_wins, decided)[0] > 0.5 or wilson(a_wins, decided)[1] < 0.5),
                # the score test of "a's share of decided matches is 50 %" (the test the
                # Wilson interval inverts), adjusted over all pairs below
                "p": normal_p(a_wins / decided - 0.5, 0.5 / decided**0.5) if decided else None,
            }
        )
        out_pairs[-1].update(seated)
        for key, column in hooks.pair_means.items():  # e.g. Blitz: mean_rounds
            out_pairs[-1][key] = sum(total(c, column) for c in mine) / matches
    adjustment = adjust(out_pairs)  # one family: every pair of the round robin
    ratings = fit_ratings(names, out_pairs)
    seat_decided = first_wins + second_wins
    draws_all = sum(p["draws"] for p in out_pairs)
    more: Dict[str, Any] = {}
    if players != 2:  # issue 25: the N-seat figures (lab/seated.py)
        more["players"] = players
        more["seated"] = seat_summary(names, the_game.type.seat_names[:players], out_pairs)
    return {
        "game": hooks.name,
        "seed": seed,
        "matches": matches,
        "rules": hooks.overrides(the_game.rules),
        "bots": {n: hooks.describe_bot(n) for n in names},
        "pairs": out_pairs,
        "adjustment": adjustment,
        **ratings,
        # Every pair plays both seat orders equally often, so bot strength cancels out of
        # the seats' shares: what is left is the first seat's advantage, over the pairs
        # where the weaker bot wins enough for it to show (the others: first_seat_left_out).
        "first_seat_decided": first_wins / seat_decided if seat_decided else None,
        "first_seat_decided_ci": list(wilson(first_wins, seat_decided)) if seat_decided else None,
        "first_seat_left_out": one_sided,
        "draw_rate": draws_all / (matches * len(pairs)),
        "draw_ci": list(wilson(draws_all, matches * len(pairs))),
        **more,
    }


def _concat(parts: List[Dict[str, Any]]) -> Dict[str, Any]:
    """One batch's columns from its pieces' (``{}`` for an empty batch)."""
    if not parts:
        return {}
    return {k: np.concatenate([np.asarray(p[k]) for p in parts]) for k in parts[0]}


# -- the command line ------------------------------------------------------------------


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``tournament`` subcommand to an argparse subparsers object; its handler
    (``args.handler(args)``) returns the exit status."""
    default_bots = ",".join(hooks_for(DEFAULT_GAME).tournament_bots)
    parser = subparsers.add_parser(
        "tournament",
        help="round-robin matches between bots, with Wilson intervals and Elo",
        description="Round-robin tournament between a game's bots (seats alternated): wins, "
        "draws and losses with 95 % Wilson intervals, and Elo ratings with 95 % "
        f"intervals. Bots of {DEFAULT_GAME}: "
        f"{', '.join(hooks_for(DEFAULT_GAME).bot_names)}.",
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--bots",
        default=None,
        help=f"comma-separated bot names or player specs (greedy:reaction=250ms,error=3%%,"
        f"random: a NAME=VALUE part belongs to the spec before it) (default: the game's "
        f"tournament bots; {DEFAULT_GAME}: {default_bots})",
    )
    parser.add_argument(
        "--matches",
        type=whole_number(),
        default=100,
        metavar="N",
        help="matches per pair (default: 100)",
    )
    parser.add_argument(
        "--seed", type=seed_number, default=0, metavar="S", help="tournament seed (default: 0)"
    )
    parser.add_argument(
        "--jobs",
        type=whole_number(),
        default=1,
        metavar="J",
        help="threads playing matches in parallel (same result; default: 1)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_yes_argument(parser)
    one_line_errors(parser, "tournament")
    parser.set_defaults(handler=guarded("tournament", main))
    return parser


def estimate_tournament(args: argparse.Namespace, job: TournamentJob) -> bool:
    """The pilot (issue 22, item 7): a few matches of every pair, on match numbers the
    tournament does not play (from ``--matches`` on: not counted), the estimate on
    stderr (pairs differ a lot: a search bot is ~1,000 times slower); whether to go.
    Each bot is the job's (resolved once: issue 27, item 5)."""
    pilots = []
    names = list(job.names)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            x, o = job.bots[a], job.bots[b]
            size = min(args.matches, 2 if job.slow[a] or job.slow[b] else 8)
            seeds = [match_seed(args.seed, a, b, args.matches + k) for k in range(size)]
            seating = seatings(x, o, num_players(job.game))[0]
            pilots.append((run_pilot(job.hooks, job.game.rules, seating, seeds), args.matches))
    detail = f"{len(pilots)} pair{'s' if len(pilots) != 1 else ''} x {args.matches:,}"
    return announce("tournament", pilots, min(args.jobs, default_workers()), args.yes, detail)


def main(args: argparse.Namespace) -> int:
    """Run the tournament the parsed ``args`` describe; 0 on success, 2 on bad input."""
    problem = None
    try:
        game = game_from_arguments(args)
    except ValueError as exc:
        problem = str(exc)
        game = None
    if game is not None:
        hooks = hooks_for(game.type.name)
        names = list(hooks.tournament_bots) if args.bots is None else split_specs(args.bots)
        hooks = with_policies(hooks, names)
        try:
            resolved = resolve_players(hooks, names)  # each bot resolved once (issue 27)
        except ValueError as exc:
            problem = str(exc)
        if problem is not None:
            pass  # the bad bot is the one line reported
        elif args.matches < 1:
            problem = f"--matches must be >= 1, not {args.matches}"
        elif args.jobs < 1:
            problem = f"--jobs must be >= 1, not {args.jobs}"
        elif len(names) < 2:
            problem = "--bots needs at least two bot names"
        elif len(set(names)) != len(names):
            problem = "--bots names a bot twice"
        else:
            try:
                hooks.check_rules(game.rules)
            except ValueError as exc:
                problem = f"--rule: {exc}"
    if problem is not None or game is None:
        return report_error("tournament", problem or "no game")
    job = TournamentJob.checked(
        hooks, game, resolved, args.matches, check_seed(args.seed), args.jobs
    )
    if not estimate_tournament(args, job):
        print("tictacblitz tournament: not started; nothing played", file=sys.stderr)
        return 1
    result = play_tournament(job, progress_wanted(args))
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(format_report(result))
    return 0
