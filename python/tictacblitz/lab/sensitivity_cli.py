"""``tictacblitz sensitivity``: the command line of :mod:`.sensitivity` (issue 24, item 2).

Every argument is checked, and the whole Morris design laid out, before any match is
played; a bad one is one line on stderr, exit status 2, nothing written. Then a pilot of
a few matches on other seeds (not counted) estimates the cost: rule sets x matches
(:mod:`.cost`), and the run shows the lab's progress bar.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Dict, List, Optional, Tuple

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
from .edges import guarded, one_line_errors, whole_number
from .hooks import hooks_for
from .jobs import default_workers
from .search_pilot import base_pilot
from .sensitivity_ranges import parse_vary

__all__ = ["register", "main"]


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``sensitivity`` subcommand; its handler returns the exit status."""
    parser = subparsers.add_parser(
        "sensitivity",
        help="which rule numbers move a metric: Morris screening, Sobol indices, tornado plots",
        description="For each metric, how much each rule number moves it over its range: "
        "Morris elementary effects screen every number of the game (each over its default "
        "range, half to one and a half times its default, or --vary), then Sobol indices "
        "apportion the variance among the few that matter (--sobol, or the --top of the "
        "screening). Every rule set plays the same match seeds. Writes sensitivity.json, "
        "sensitivity.csv, points.csv and tornado_<metric>.png into --out "
        "(docs/sensitivity.md).",
    )
    add_common_arguments(parser, matches=200)
    parser.add_argument(
        "--metric",
        action="append",
        default=[],
        metavar="NAMES",
        help="the metrics to analyse, comma-separated or repeated (default: every metric "
        "with an interval, as tune reports them)",
    )
    parser.add_argument(
        "--vary",
        action="append",
        default=[],
        metavar="NAME=LO..HI",
        help="the range of one rule number (repeatable); the others keep their default range",
    )
    parser.add_argument(
        "--only",
        default=None,
        metavar="NAMES",
        help="vary only these rule numbers, comma-separated (default: every number of the "
        "game's sweepable list, and those --vary names)",
    )
    parser.add_argument(
        "--trajectories",
        type=whole_number(),
        default=10,
        metavar="R",
        help="Morris trajectories, at least 2 (default: 10); (rules + 1) x R rule sets",
    )
    parser.add_argument(
        "--sobol",
        default=None,
        metavar="NAMES",
        help="the rules for Sobol indices, comma-separated (default: the --top measurable "
        "ones of the screening)",
    )
    parser.add_argument(
        "--top",
        type=whole_number(0),
        default=3,
        metavar="K",
        help="without --sobol: Sobol indices for the K rules with the largest measurable "
        "Morris effect (default: 3; 0: no Sobol stage)",
    )
    parser.add_argument(
        "--sobol-samples",
        type=whole_number(),
        default=16,
        metavar="N",
        help="Saltelli's base sample, a power of 2 (default: 16); N x (K + 2) rule sets",
    )
    parser.add_argument(
        "--out",
        default="sensitivity",
        metavar="DIR",
        help="folder for the files (default: ./sensitivity)",
    )
    parser.add_argument("--overwrite", action="store_true", help="replace --out if it exists")
    parser.add_argument(
        "--json", action="store_true", help="print the statistics as JSON instead of the table"
    )
    one_line_errors(parser, "sensitivity")
    parser.set_defaults(handler=guarded("sensitivity", main))
    return parser


def _names(values: List[str]) -> List[str]:
    return [n.strip() for v in values for n in v.split(",") if n.strip()]


def _varied(texts: List[str]) -> Dict[str, Tuple[float, float]]:
    vary: Dict[str, Tuple[float, float]] = {}
    for text in texts:
        name, low, high = parse_vary(text)
        if name in vary:
            raise ValueError(f"--vary {name}: named twice")
        vary[name] = (low, high)
    return vary


def estimate(p: Any, args: argparse.Namespace, threads: Optional[int]) -> bool:
    """The pilot at the base rules (on seeds the run never plays) and the estimate."""
    pilot = base_pilot(p.lab, p.seed, p.matches)
    morris, sobol = p.points()
    detail = f"{morris} Morris rule sets" + (f" + up to {sobol} Sobol" if sobol else "")
    detail += f" x {p.matches:,}"
    return announce(
        "sensitivity", [(pilot, (morris + sobol) * p.matches)], threads, args.yes, detail
    )


def main(args: argparse.Namespace) -> int:
    """Run ``sensitivity`` as the parsed ``args`` say: 0 on success, 2 on a bad argument
    (before any match is played or any file written), 1 when not confirmed."""
    from .sensitivity import plan, run
    from .sweep_files import check_out_dir

    client = None
    try:
        kwargs = job_arguments(args, seated=False)
        chosen = seat_arguments(args, hooks_for(kwargs["game"]))  # checked as simulate's
        p = plan(
            kwargs["game"],
            seats={k: bot for k, (bot, _) in chosen.items()},
            rules=kwargs["rules"],
            vary=_varied(args.vary),
            only=None if args.only is None else _names([args.only]),
            metrics=_names(args.metric) or None,
            trajectories=args.trajectories,
            sobol=None if args.sobol is None else _names([args.sobol]),
            top=args.top,
            sobol_samples=args.sobol_samples,
            matches=args.matches,
            seed=args.seed,
            workers=kwargs["workers"],
        )
        check_out_dir(args.out, args.overwrite)
        import matplotlib  # noqa: F401 - the tornado plots need it: fail now, not after
        import SALib  # noqa: F401

        client = connect(args.scheduler)
        p.lab.client = client
    except ImportError as exc:
        return report_error(
            "sensitivity",
            f"{exc.name or exc}: pip install tictacblitz (it depends on SALib and matplotlib)",
        )
    except (ArgumentProblem, ValueError) as exc:
        return report_error("sensitivity", str(exc))
    try:
        threads = None if client is not None else min(kwargs["workers"], default_workers())
        if not estimate(p, args, threads):
            print("tictacblitz sensitivity: not started; nothing played", file=sys.stderr)
            return 1
        result = run(p, progress=progress_wanted(args), out_dir=args.out, overwrite=args.overwrite)
    finally:
        if client is not None:
            client.close()
    if args.json:
        from .sensitivity_report import stat_rows

        print(json.dumps({"meta": result.meta, "statistics": stat_rows(result)}, indent=1))
    else:
        from .sensitivity_report import format_result

        print(format_result(result, args.out))
    return 0
