"""``tictacblitz tune``: the command line of the rule search (:mod:`~tictacblitz.lab.tune`,
docs/tune.md).

Every argument is checked before the study's storage is opened or a match is played: a
bad one is one line on stderr and exit status 2, and an existing study is left as it
was. Then a pilot on other seeds estimates the cost (:mod:`~tictacblitz.lab.cost`),
the search runs with a progress bar, and Ctrl-C stops it with the study keeping every
finished trial (exit 130): the same command continues it.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .command import (
    ArgumentProblem,
    add_common_arguments,
    connect,
    job_arguments,
    progress_wanted,
    report_error,
    seat_arguments,
)
from .cost import announce
from .edges import INTERRUPTED, one_line_errors, whole_number
from .hooks import hooks_for
from .jobs import default_workers
from .search_pilot import base_pilot
from .tune_study import DEFAULT_STORAGE

__all__ = ["register", "main"]


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``tune`` subcommand; its handler returns the exit status."""
    parser = subparsers.add_parser(
        "tune",
        help="search rule numbers for targets on metrics (Optuna), re-play the best",
        description="Search the rule numbers given with --vary for rules that meet the "
        "--target's (and optimise the --objective's): Optuna proposes rule sets (TPE for "
        "one objective, NSGA-II for several), each is played --matches matches on the "
        "same seeds, then the best --confirm are re-played with --confirm-matches "
        "matches on fresh seeds and ranked on their 95 % intervals (a tie is said to "
        "be one). The study is kept in --storage (SQLite by default): run the same "
        "command again to continue it, or in several processes to share the work "
        "(docs/tune.md).",
    )
    parser.add_argument(
        "--vary",
        action="append",
        default=[],
        required=True,
        metavar="NAME=LOW..HIGH",
        help="a rule number the search may change, and its range (e.g. set_ms=800..2000); "
        "repeatable",
    )
    parser.add_argument(
        "--target",
        action="append",
        default=[],
        metavar="TEXT",
        help="a target on a metric: 'METRIC >= V', 'METRIC <= V', 'METRIC in [A, B]', "
        "'|METRIC| <= V' (shares as fractions or 60%%); repeatable",
    )
    parser.add_argument(
        "--objective",
        action="append",
        default=[],
        metavar="TEXT",
        help="'max METRIC' or 'min METRIC' (or 'min |METRIC|'); repeatable; with "
        "objectives the targets are constraints",
    )
    parser.add_argument(
        "--each-target",
        action="store_true",
        help="make each target's shortfall an objective of its own (NSGA-II, a Pareto plot)",
    )
    add_common_arguments(parser, matches=200)
    parser.add_argument(
        "--trials",
        type=whole_number(),
        default=20,
        metavar="N",
        help="candidates this run adds to the study (default: 20)",
    )
    parser.add_argument(
        "--confirm",
        type=whole_number(),
        default=3,
        metavar="K",
        help="best candidates re-played before the answer (default: 3)",
    )
    parser.add_argument(
        "--confirm-matches",
        type=whole_number(),
        default=None,
        metavar="M",
        help="matches of each re-play, on fresh seeds (default: 5 x --matches)",
    )
    parser.add_argument(
        "--change-penalty",
        type=float,
        default=0.001,
        metavar="P",
        help="added to the total shortfall per rule changed from the base (default: 0.001)",
    )
    parser.add_argument(
        "--study",
        default=None,
        metavar="NAME",
        help="the study's name (default: tune-GAME-HASH of the question)",
    )
    parser.add_argument(
        "--storage",
        default=DEFAULT_STORAGE,
        metavar="URL",
        help=f"an Optuna storage: sqlite:///FILE, postgresql://..., journal:FILE, "
        f"redis://... (default: {DEFAULT_STORAGE})",
    )
    parser.add_argument(
        "--plot",
        default=None,
        metavar="FILE",
        help="the Pareto plot's PNG with several objectives (default: STUDY-pareto.png)",
    )
    parser.add_argument(
        "--sampler-seed",
        type=whole_number(),
        default=None,
        metavar="S",
        help="seed Optuna's sampler (reproducible proposals in one process)",
    )
    parser.add_argument("--json", action="store_true", help="print the answer as JSON")
    one_line_errors(parser, "tune")
    parser.set_defaults(handler=main)
    return parser


def main(args: argparse.Namespace) -> int:
    """Run ``tune`` as the parsed ``args`` say: 0 on success, 2 on bad input (nothing
    played, no study touched), 1 when the user declines the estimate, 130 on Ctrl-C."""
    from .tune import check_study, plan_tune, run_plan
    from .tune_report import format_tune, tune_json

    client = None
    try:
        kwargs = job_arguments(args)
        hooks = hooks_for(kwargs["game"])
        chosen = {k: bot for k, (bot, _) in seat_arguments(args, hooks).items()}
        plan = plan_tune(
            kwargs["game"],
            args.vary,
            args.target,
            args.objective,
            seats=chosen,
            base_rules=kwargs["rules"],
            trials=args.trials,
            matches=args.matches,
            confirm=args.confirm,
            confirm_matches=args.confirm_matches,
            seed=args.seed,
            each_target=args.each_target,
            change_penalty=args.change_penalty,
            study=args.study,
            storage=args.storage,
            workers=kwargs["workers"],
        )
        import optuna  # noqa: F401 - needed: fail now, before the pilot

        check_study(plan)  # the same study asked another question: refused, untouched
        client = connect(args.scheduler)
        plan.lab.client = client
    except ImportError as exc:
        return report_error("tune", f"{exc.name or exc}: pip install tictacblitz (needs optuna)")
    except (ArgumentProblem, ValueError) as exc:
        return report_error("tune", str(exc))
    try:
        if not _estimate(args, plan, client):
            print("tictacblitz tune: not started; nothing played", file=sys.stderr)
            return 1
        plot = args.plot or f"{plan.study}-pareto.png"
        result = run_plan(
            plan, progress=progress_wanted(args), plot=plot, sampler_seed=args.sampler_seed
        )
    except ValueError as exc:  # the study searches another question: nothing written
        return report_error("tune", str(exc))
    except KeyboardInterrupt:
        print(
            f"tictacblitz tune: interrupted; study {plan.study!r} keeps its finished "
            "candidates: run the same command again to continue it",
            file=sys.stderr,
            flush=True,
        )
        return INTERRUPTED
    finally:
        if client is not None:
            client.close()
    print(json.dumps(tune_json(result), indent=1) if args.json else format_tune(result))
    if args.explain:
        from .units import legend

        print("\n".join(legend(plan.lab.game, list(plan.lab.metric_names()))))
    return 0


def _estimate(args: argparse.Namespace, plan: Any, client: Any) -> bool:
    """The pilot at the base rules (other seeds, not counted) and the estimate line."""
    pilot = base_pilot(plan.lab, plan.seed, plan.matches)
    threads = None if client is not None else min(plan.lab.workers, default_workers())
    detail = (
        f"{plan.trials} candidates x {plan.matches:,}, then {plan.confirm} finalists and "
        f"the base x {plan.confirm_matches:,}"
    )
    return announce("tune", [(pilot, plan.total_matches)], threads, args.yes, detail)
