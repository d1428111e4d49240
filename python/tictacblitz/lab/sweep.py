"""Rule sweeps: ``tictacblitz sweep`` and :func:`sweep`.

A sweep runs :func:`tictacblitz.lab.simulation.simulate` at every point of a grid (or at
random points) over one or more rule numbers of any registered game (``game=``, default
``"blitz"``; the points come from :mod:`tictacblitz.lab.grid`), with the same master
seed at every point (so every point plays the same match seeds: differences between
points come from the rules, not from luck), and writes:

- ``sweep.csv`` (and ``sweep.parquet``): a tidy table, one row per point and metric:
  ``point``, the swept parameters, ``metric``, ``value``, ``lo``, ``hi`` (95 %);
- ``sweep.json``: the job and every point's full summary;
- ``sweep_<param>.png``: every metric against each parameter, with intervals;
- ``report.html``: a self-contained page (table and plots inlined).

>>> result = sweep({"set_ms": [800, 1600]}, matches=10, x="greedy", o="random", workers=1)
>>> [p["set_ms"] for p in result.points]
[800, 1600]
>>> sorted({row["metric"] for row in result.rows})[:2]
['bomb_claims_per_round', 'bomb_impact']
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Union

from ..games.protocol import Game
from ..games.registry import DEFAULT_GAME
from .command import (
    ArgumentProblem,
    add_common_arguments,
    connect,
    parsed_arguments,
    progress_wanted,
    report_error,
    seat_arguments,
)
from .cost import announce, pilot_seeds, pilot_size, run_pilot
from .edges import Interrupted, guarded, one_line_errors, whole_number
from .grid import MAX_POINTS, apply_point, make_points, parse_grid, sweepable
from .jobs import default_workers, resolve_game
from .player_axes import parse_player_axis, points_bots, rule_point
from .report import metric_rows
from .runner import progress_bar
from .seating import bot_meta
from .simulation import run_simulation
from .sweep_files import check_metrics, check_out_dir, format_sweep, write_outputs
from .sweep_plan import SweepPlan, plan_sweep, point_jobs

__all__ = [
    "sweep",
    "SweepResult",
    "parse_grid",
    "sweepable",
    "write_outputs",
    "run_sweep",
    "register",
    "main",
    "MAX_POINTS",
]


class SweepResult(NamedTuple):
    """``points`` (the rule values of each point), ``summaries`` (one simulate summary
    each), ``rows`` (the tidy metric rows: point, parameters, metric, value, lo, hi),
    ``meta`` (the job)."""

    points: List[Dict[str, Any]]
    summaries: List[Dict[str, Any]]
    rows: List[Dict[str, Any]]
    meta: Dict[str, Any]

    def table(self) -> Any:
        """The tidy rows as a ``pyarrow.Table`` (``.to_pandas()`` for a DataFrame)."""
        import pyarrow as pa

        return pa.Table.from_pylist(self.rows)


def sweep(
    grid: Dict[str, Any],
    matches: int = 1000,
    x: Any = None,
    o: Any = None,
    rules: Optional[Any] = None,
    seed: int = 0,
    *,
    game: Union[str, Game] = DEFAULT_GAME,
    random: Optional[int] = None,
    workers: Optional[int] = None,
    client: Any = None,
    out_dir: Optional[str] = None,
    overwrite: bool = False,
    progress: bool = False,
    metrics: Optional[List[str]] = None,
    seats: Optional[Mapping[int, Any]] = None,
) -> SweepResult:
    """Simulate at every point of ``grid`` (``{name: [values]}``, or ``{name: (lo, hi)}``
    ranges with ``random`` = K points) of ``game`` under base ``rules`` (a dict of
    overrides or the game's rules object), bots as :func:`~tictacblitz.lab.simulation.simulate`
    takes them (``x``/``o``: seats 0 and 1; ``seats``: ``{seat index: bot}``, for a sweep
    whose points seat three or four players, e.g. over Doh's ``players``; a seat named by
    neither plays the game's default bot), and return a :class:`SweepResult`; with
    ``out_dir`` also write the table, plots and HTML report there (see the module doc).

    Every point is validated before any match is played.

    ``metrics``: the metric names (keys of the tidy rows) the plots and tables show, one
    panel each (default: the game's panels).

    :raises ValueError: for an unknown name, an out-of-range value at some point, a bad
        bot, N < 1, an unknown metric or an unusable ``out_dir``.
    """
    plan = plan_sweep(
        grid,
        matches,
        x,
        o,
        rules,
        seed,
        game=game,
        random=random,
        workers=workers,
        metrics=metrics,
        seats=dict(seats or {}),
    )
    return run_sweep(plan, client=client, out_dir=out_dir, overwrite=overwrite, progress=progress)


def run_sweep(
    plan: SweepPlan,
    *,
    client: Any = None,
    out_dir: Optional[str] = None,
    overwrite: bool = False,
    progress: bool = False,
) -> SweepResult:
    """Play a checked sweep (:class:`~.sweep_plan.SweepPlan`: :func:`sweep` and the
    command line make one), each point's job as it was checked; with ``out_dir`` (checked
    here, before any match) also write the outputs."""
    hooks, base, axes, points, mode, jobs, workers, metrics, matches, seed = plan
    if out_dir is not None:
        check_out_dir(out_dir, overwrite)
    params = list(axes)
    total = matches * len(points)
    advance, close = progress_bar(total, progress, "sweep")
    summaries: List[Dict[str, Any]] = []
    rows: List[Dict[str, Any]] = []
    started = time.perf_counter()
    try:
        for k, (point, job) in enumerate(zip(points, jobs, strict=True)):
            try:
                _, summary = run_simulation(
                    job,
                    workers=workers,
                    client=client,
                    table=False,
                    on_chunk=lambda i, cols: advance(len(cols["winner"])),
                )
            except Interrupted as exc:
                raise Interrupted(k * matches + exc.done, total) from None
            summary["point"] = k
            summary["params"] = dict(point)
            summaries.append(summary)
            for row in metric_rows(summary):
                rows.append({"point": k, **point, **row})
    finally:
        close()
    meta = {
        "game": hooks.name,
        "mode": mode,
        "params": params,
        "points": len(points),
        "matches": matches,
        **bot_meta(summaries),
        "seed": seed,
        "rules": hooks.overrides(base.rules),
        "metrics": list(metrics or []),
        "seconds": time.perf_counter() - started,
        "grid": {
            n: ({"values": a["values"]} if "values" in a else {"range": list(a["range"])})
            for n, a in axes.items()
        },
    }
    result = SweepResult(points, summaries, rows, meta)
    if out_dir is not None:
        write_outputs(result, out_dir, overwrite=overwrite)
    return result


# -- the command line --------------------------------------------------------------------------


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``sweep`` subcommand to an argparse subparsers object; its handler
    (``args.handler(args)``) returns the exit status."""
    parser = subparsers.add_parser(
        "sweep",
        help="simulate over a grid (or random points) of rule values; table, plots, HTML",
        description="Run `simulate` at every point of a grid over one or more rule numbers "
        "(or at --random K points of their ranges), with the same match seeds "
        "at every point, and write a tidy table (sweep.csv/.parquet), plots of "
        "every metric against every parameter (sweep_<param>.png) and a "
        "self-contained report.html into --out.",
    )
    parser.add_argument(
        "--grid",
        action="append",
        default=[],
        metavar="NAME=SPEC",
        required=True,
        help="a swept rule: NAME=START:STOP:STEP (STOP included), NAME=V1,V2,... "
        "or NAME=START:STOP with --random; repeatable (the grid is the product)",
    )
    parser.add_argument(
        "--random",
        type=whole_number(),
        default=None,
        metavar="K",
        help="K random points (uniform over each range) instead of the full grid",
    )
    add_common_arguments(parser, matches=500)
    parser.add_argument(
        "--out",
        default="sweep",
        metavar="DIR",
        help="folder for the table, plots and report (default: ./sweep)",
    )
    parser.add_argument("--overwrite", action="store_true", help="replace --out if it exists")
    parser.add_argument(
        "--metrics",
        default=None,
        metavar="NAMES",
        help="comma-separated metric names to plot and tabulate, one panel each "
        "(default: the game's panels; names as in sweep.csv)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print the tidy rows as JSON (shares as fractions)"
    )
    one_line_errors(parser, "sweep")
    parser.set_defaults(handler=guarded("sweep", main))
    return parser


def estimate_sweep(args: argparse.Namespace, plan: SweepPlan, client: Any) -> bool:
    """The pilot (issue 22, item 7): a few matches at the first, middle and last point
    on seeds the sweep never plays (not counted), the estimate on stderr; whether to go.
    Each point's bots are its checked job's (nothing resolved again: issue 27, item 5)."""
    jobs = plan.jobs
    picked = sorted({0, len(jobs) // 2, len(jobs) - 1})
    slow = any(jobs[k].slow for k in picked)
    size = max(1, pilot_size(slow) // len(picked))
    total = args.matches * len(jobs)  # each picked point stands for its share of it
    pilots = []
    for i, k in enumerate(picked):
        seeds = pilot_seeds(args.seed, min(size, args.matches))
        pilot = run_pilot(plan.hooks, jobs[k].rules, list(jobs[k].bots), seeds)
        share = total // len(picked) + (1 if i < total % len(picked) else 0)
        pilots.append((pilot, share))
    threads = None if client is not None else min(plan.workers, default_workers())
    detail = f"{len(jobs)} points x {args.matches:,}"
    return announce("sweep", pilots, threads, args.yes, detail)


def main(args: argparse.Namespace) -> int:
    """Run ``sweep`` as the parsed ``args`` say: 0 on success, 2 on a bad argument
    (reported before any match is played or any file written)."""
    try:
        # The command line once (its seats' bots and specs checked here; each point's
        # seats below); the base rules as before (each point's own: its job's prepare).
        _, kwargs = parsed_arguments(args, seated=False)
        hooks, base = resolve_game(kwargs["game"], kwargs["rules"])
        hooks.check_rules(base.rules)
        grid = dict(
            parse_player_axis(hooks, spec) or parse_grid(spec, kwargs["game"]) for spec in args.grid
        )
        if len(grid) != len(args.grid):
            raise ValueError("--grid names a rule twice")
        if args.random is None:
            for name, axis in grid.items():
                if "values" not in axis:
                    raise ValueError(
                        f"--grid {name}: a range START:STOP needs --random K (or give a STEP)"
                    )
        points, mode = make_points(grid, args.random, args.seed, kwargs["game"])
        games = [apply_point(base, rule_point(hooks, p)) for p in points]
        chosen = seat_arguments(args, hooks, checked=False)  # checked above: not read again
        point_bots = points_bots(hooks, chosen, games, points)
        jobs = point_jobs(games, point_bots, args.matches, args.seed, kwargs["workers"])
        metrics = (
            None
            if args.metrics is None
            else [m.strip() for m in args.metrics.split(",") if m.strip()]
        )
        check_metrics(kwargs["game"], metrics)
        check_out_dir(args.out, args.overwrite)
        import matplotlib  # noqa: F401 - the report needs it: fail now, not after the run

        client = connect(args.scheduler)
    except ImportError as exc:
        return report_error(
            "sweep",
            f"{exc.name or exc}: pip install tictacblitz (it depends on "
            "pyarrow, rich and matplotlib)",
        )
    except (ArgumentProblem, ValueError) as exc:
        return report_error("sweep", str(exc))
    plan = SweepPlan(
        hooks, base, grid, points, mode, jobs, kwargs["workers"], metrics, args.matches, args.seed
    )
    if not estimate_sweep(args, plan, client):
        if client is not None:
            client.close()
        print("tictacblitz sweep: not started; nothing played", file=sys.stderr)
        return 1
    try:
        result = run_sweep(
            plan,
            client=client,
            out_dir=args.out,
            overwrite=args.overwrite,
            progress=progress_wanted(args),
        )
    finally:
        if client is not None:
            client.close()
    if args.json:
        print(json.dumps(result.rows, indent=1))
    else:
        print(format_sweep(result, args.out, explain=args.explain))
    return 0
