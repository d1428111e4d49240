"""``tictacblitz simulate``: the command (:func:`register`, :func:`main`); what it runs
is :func:`~tictacblitz.lab.simulation.simulate`'s.

The command line's arguments become one checked job
(:func:`~tictacblitz.lab.command.job_from_arguments`) and its extra runs are planned once
(:func:`~tictacblitz.lab.study.plan_extras`), before any match is played; the pilot may
then fix the number of matches (``--precision``), and
:func:`~tictacblitz.lab.simulation.run_simulation` plays that very job (issue 27, item 5:
the job was checked three times and its extras planned twice). The options it shares
with ``sweep`` are :mod:`~tictacblitz.lab.command`'s.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Dict, List, Optional, Tuple

from ..games.options import game_with_assignments
from ..games.registry import available_games
from .command import (
    ArgumentProblem,
    add_common_arguments,
    connect,
    job_from_arguments,
    progress_wanted,
    report_error,
)
from .cost import (
    PRECISION_METRICS,
    announce,
    half_width,
    matches_for,
    parse_precision,
    pilot_seeds,
    pilot_size,
    precision_line,
    precision_result,
    run_pilot,
)
from .edges import guarded, one_line_errors
from .hooks import hooks_for
from .jobs import SimulationJob, default_chunk_size, default_workers
from .page import check_html_path, write_html
from .records import check_out_path, require_pyarrow
from .simulation import run_simulation
from .study import Extra, plan_extras, resized_extras

__all__ = ["register", "main", "add_runner_options", "runner_options", "extra_arguments"]


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``simulate`` subcommand to an argparse subparsers object; its handler
    (``args.handler(args)``) returns the exit status."""
    parser = subparsers.add_parser(
        "simulate",
        help="play many matches between bots (one a seat) and summarise the game's balance",
        description="Play N whole matches of a game between bots, one a seat, under the given "
        "rules "
        "(on every core, or a Dask cluster) and print a balance summary with 95 % "
        "intervals, plus the game's own metrics (docs/simulate.md). With --rule, "
        "the same match seeds are also played under the base rules (the defaults, "
        "or --base) and both are shown side by side with the difference, paired by "
        "seed. With two different bots, every seed is also played with the seats "
        "exchanged, to separate bot strength from seat advantage. --ablate shows "
        "what each of the game's optional features (Blitz: powerups) causes. "
        "Per-match records of the main run go to --out.",
    )
    add_common_arguments(parser, matches=1000)
    parser.add_argument(
        "--base",
        action="append",
        nargs="+",
        default=[],
        metavar="NAME=VALUE",
        help="the base rules of the A/B: the defaults with these changes "
        "(default: the game's defaults)",
    )
    parser.add_argument("--no-base", action="store_true", help="no A/B: play only the --rule rules")
    parser.add_argument(
        "--no-swap",
        action="store_true",
        help="with two different bots, do not also play the seats exchanged",
    )
    parser.add_argument(
        "--ablate",
        nargs="?",
        const="all",
        default=None,
        metavar="FEATURES",
        help="also play the same seeds with each optional feature switched off "
        "(all, or a comma-separated list; Blitz: powerups) and show each "
        "one's effect",
    )
    parser.add_argument(
        "--out",
        default=None,
        metavar="FILE",
        help="write per-match records to FILE.parquet or FILE.csv",
    )
    parser.add_argument(
        "--html",
        default=None,
        metavar="FILE",
        help="also write the report (summary, A/B, seats, ablation, legend) as one HTML page",
    )
    parser.add_argument(
        "--overwrite", action="store_true", help="replace --out or --html if it exists"
    )
    parser.add_argument(
        "--json", action="store_true", help="print the summary as JSON (shares as fractions)"
    )
    parser.add_argument(
        "--precision",
        default=None,
        metavar="METRIC=HALFWIDTH",
        help="play as many matches as a 95 %% half-width of at most HALFWIDTH on METRIC "
        f"needs ({', '.join(PRECISION_METRICS)}; the game's own too: a METRIC it does "
        "not have lists them), with --matches the most: the number is fixed before the "
        f"run from a pilot of {pilot_size(False, True)} matches on other seeds "
        f"({pilot_size(True, True)} with a search bot; not counted), so the interval is "
        "the ordinary fixed-n one (docs/simulate.md)",
    )
    add_runner_options(parser)
    one_line_errors(parser, "simulate")
    parser.set_defaults(handler=guarded("simulate", main))
    return parser


RUNNER_OPTION = "runner_option_"  # the argparse dest prefix of a game's runner options


def add_runner_options(parser: argparse.ArgumentParser) -> None:
    """``--NAME`` for every runner option a registered game offers (its
    ``RUNNER_OPTIONS`` hook, e.g. Doh's ``--opening S``); given with another game, it is
    refused in one line."""
    seen: Dict[str, str] = {}
    for game in available_games():
        for name, (metavar, text) in hooks_for(game).runner_options.items():
            if name not in seen:
                seen[name] = game
                parser.add_argument(
                    f"--{name}", dest=RUNNER_OPTION + name, metavar=metavar, help=text
                )


def runner_options(args: argparse.Namespace, game: str) -> Dict[str, Any]:
    """The runner options given on the command line, checked for ``game``.
    :raises ArgumentProblem:"""
    given = {
        k[len(RUNNER_OPTION) :]: v
        for k, v in vars(args).items()
        if k.startswith(RUNNER_OPTION) and v is not None
    }
    try:
        return hooks_for(game).check_options(given)
    except ValueError as exc:
        raise ArgumentProblem(str(exc)) from None


def extra_arguments(args: argparse.Namespace) -> Dict[str, Any]:
    """``base``, ``swap_seats`` and ``ablate`` of :func:`simulate` from the command line:
    an A/B when ``--rule`` or ``--base`` is given (unless ``--no-base``), seats swapped
    for two different bots (unless ``--no-swap``). :raises ArgumentProblem:"""
    base_pairs = [pair for group in args.base for pair in group]
    if args.no_base and base_pairs:
        raise ArgumentProblem("--base and --no-base contradict each other")
    base: Any = None
    if not args.no_base and (args.rule or base_pairs):
        try:  # the same parser as --rule (NAME.KEY=VALUE too), on the game's defaults
            base = game_with_assignments(args.game, base_pairs, "--base").rules
        except ValueError as exc:  # its messages name --base (or --game) already
            raise ArgumentProblem(str(exc)) from None
    ablate = None
    if args.ablate is not None:
        ablate = (
            "all"
            if args.ablate == "all"
            else [n.strip() for n in args.ablate.split(",") if n.strip()]
        )
    return {"base": base, "swap_seats": not args.no_swap, "ablate": ablate}


def size_and_estimate(
    args: argparse.Namespace,
    job: SimulationJob,
    workers: int,
    runs: int,
    precision: Optional[Tuple[str, float]],
    clustered: bool,
) -> Tuple[SimulationJob, Optional[Dict[str, Any]]]:
    """Play the pilot; with ``--precision`` fix the number of matches from it (``--matches``
    the most); print the estimate (stderr). Returns (the job, sized; the precision plan,
    or ``None`` without ``--precision``)."""
    hooks = job.hooks
    size = pilot_size(job.slow, precision is not None)
    if precision is None:
        size = min(size, job.matches)
    seeds = pilot_seeds(job.seed, size)
    pilot = run_pilot(hooks, job.rules, job.bots, seeds, dict(job.options))
    plan = None
    if precision is not None:
        metric, half = precision
        matches = matches_for(pilot, metric, half, job.game, cap=job.matches)
        pilot_half = half_width(pilot.summary or {}, metric, job.game)
        plan = {
            "metric": metric,
            "half_width_asked": half,
            "matches": matches,
            "cap": job.matches,
            "pilot_matches": pilot.matches,
            "pilot_half_width": pilot_half,
            "method": "sample size fixed from a pilot on other seeds (not counted)",
        }
        capped = " (the --matches cap)" if matches == job.matches else ""
        shown = "none" if pilot_half is None else f"{pilot_half:.4g}"
        print(
            f"tictacblitz simulate: --precision {metric}={half:g}: the pilot's half-width "
            f"is {shown} at {pilot.matches:,} matches, so the run plays {matches:,}{capped}",
            file=sys.stderr,
        )
        chunk_size = args.chunk_size or default_chunk_size(matches, workers, job.slow)
        job = job.resized(matches, chunk_size)
    threads = None if clustered else min(workers, default_workers())
    detail = f"{job.matches:,} x {runs} runs of the same seeds" if runs > 1 else ""
    if not announce("simulate", [(pilot, job.matches * runs)], threads, args.yes, detail):
        raise Declined()
    return job, plan


class Declined(Exception):
    """The user answered no to the estimate's question."""


def planned_extras(job: SimulationJob, extra: Dict[str, Any]) -> List[Extra]:
    """The job's extra runs (:func:`~tictacblitz.lab.study.plan_extras`), a bad one
    named by its option. :raises ArgumentProblem:"""
    try:
        return plan_extras(job, **extra)
    except ValueError as exc:
        message = str(exc)
        raise ArgumentProblem(
            message if message.startswith("--") else f"--base: {message}"
        ) from None


def main(args: argparse.Namespace) -> int:
    """Run ``simulate`` as the parsed ``args`` say: 0 on success, 2 on a bad argument
    (reported on stderr before any match is played or any file written)."""
    from .report import format_summary

    try:
        job = job_from_arguments(args, lambda game: runner_options(args, game))
        workers = args.workers if args.workers is not None else default_workers()
        extras = planned_extras(job, extra_arguments(args))
        precision = (
            None
            if args.precision is None
            else parse_precision(args.precision, job.game, job.seat_keys)
        )
        if args.out is not None:
            check_out_path(args.out, overwrite=args.overwrite)
            require_pyarrow()
        if args.html is not None:
            check_html_path(args.html, args.overwrite)
        client = connect(args.scheduler)
    except (ArgumentProblem, ValueError, ImportError) as exc:
        return report_error("simulate", str(exc))
    try:
        job, plan = size_and_estimate(
            args, job, workers, 1 + len(extras), precision, client is not None
        )
    except Declined:
        if client is not None:
            client.close()
        print("tictacblitz simulate: not started; nothing played", file=sys.stderr)
        return 1
    try:
        _, summary = run_simulation(
            job,
            resized_extras(extras, job),
            workers=workers,
            out=args.out,
            overwrite=args.overwrite,
            table=False,
            client=client,
            progress=progress_wanted(args),
        )
    finally:
        if client is not None:
            client.close()
    if plan is not None:
        summary["precision"] = precision_result(summary, plan)
    if args.html is not None:
        write_html(summary, args.html)
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print(format_summary(summary, explain=args.explain))
        if plan is not None:
            print(precision_line(summary["precision"]))
    return 0
