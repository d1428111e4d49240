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
    job_arguments,
    progress_wanted,
    report_error,
    seat_arguments,
)
from .cost import announce, pilot_seeds, pilot_size, run_pilot
from .edges import Interrupted, guarded, one_line_errors, whole_number
from .grid import MAX_POINTS, apply_point, make_points, parse_grid, sweepable
from .hooks import hooks_for
from .jobs import default_workers, prepare, resolve_game
from .player_axes import parse_player_axis, player_axis, point_players, points_bots, rule_point
from .report import metric_rows
from .runner import progress_bar
from .seating import bot_meta, point_seats
from .simulation import run_simulation
from .sweep_files import check_metrics, check_out_dir, format_sweep, write_outputs

__all__ = [
    "sweep",
    "SweepResult",
    "parse_grid",
    "sweepable",
    "write_outputs",
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
    if not isinstance(grid, dict) or not grid:
        raise ValueError("a sweep needs at least one parameter")
    hooks, base = resolve_game(game, rules)
    kinds = hooks.sweepable()
    axes: Dict[str, Dict[str, Any]] = {}
    for name, spec in grid.items():
        if name not in kinds and player_axis(hooks, name) is None:  # a rule, or SEAT.PARAM
            raise ValueError(f"unknown rule {name!r}; sweepable: {', '.join(sorted(kinds))}")
        if isinstance(spec, dict):
            axes[name] = spec
        elif isinstance(spec, tuple) and len(spec) == 2 and random is not None:
            axes[name] = {"range": spec}
        else:
            axes[name] = {"values": list(spec)}
    points, mode = make_points(axes, random, seed, hooks.name)
    check_metrics(hooks.name, metrics)
    if workers is None:
        workers = default_workers()
    games = [apply_point(base, rule_point(hooks, p)) for p in points]
    chosen = {**({0: x} if x is not None else {}), **({1: o} if o is not None else {})}
    chosen.update(seats or {})
    point_bots = [
        point_players(hooks, point_seats(hooks, g, chosen), p)
        for g, p in zip(games, points, strict=True)
    ]
    jobs = [  # bots, N, workers, rules: checked up front, once (issue 27, item 5)
        prepare(matches, seed=seed, game=g, workers=workers, bots=bots)
        for g, bots in zip(games, point_bots, strict=True)
    ]
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


def estimate_sweep(
    args: argparse.Namespace,
    kwargs: Dict[str, Any],
    games: List[Game],
    client: Any,
    point_bots: List[List[Any]],
) -> bool:
    """The pilot (issue 22, item 7): a few matches at the first, middle and last point
    on seeds the sweep never plays (not counted), the estimate on stderr; whether to go."""
    hooks = hooks_for(kwargs["game"])
    picked = sorted({0, len(games) // 2, len(games) - 1})
    bots = [[hooks.resolve_bot(b)[0] for b in point_bots[k]] for k in range(len(games))]
    slow = any(hooks.slow_bot(b) for k in picked for b in bots[k])
    size = max(1, pilot_size(slow) // len(picked))
    total = args.matches * len(games)  # each picked point stands for its share of it
    pilots = []
    for i, k in enumerate(picked):
        seeds = pilot_seeds(args.seed, min(size, args.matches))
        pilot = run_pilot(hooks, games[k].rules, bots[k], seeds)
        share = total // len(picked) + (1 if i < total % len(picked) else 0)
        pilots.append((pilot, share))
    threads = None if client is not None else min(kwargs["workers"], default_workers())
    detail = f"{len(games)} points x {args.matches:,}"
    return announce("sweep", pilots, threads, args.yes, detail)


def main(args: argparse.Namespace) -> int:
    """Run ``sweep`` as the parsed ``args`` say: 0 on success, 2 on a bad argument
    (reported before any match is played or any file written)."""
    try:
        kwargs = job_arguments(args, seated=False)  # each point's seats: below
        hooks = hooks_for(kwargs["game"])
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
        _, base = resolve_game(kwargs["game"], kwargs["rules"])
        points, _ = make_points(grid, args.random, args.seed, kwargs["game"])
        games = [apply_point(base, rule_point(hooks, p)) for p in points]
        chosen = seat_arguments(args, hooks)
        point_bots = points_bots(hooks, chosen, games, points)
        for game, bots in zip(games, point_bots, strict=True):
            prepare(args.matches, seed=args.seed, game=game, workers=kwargs["workers"], bots=bots)
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
    if not estimate_sweep(args, kwargs, games, client, point_bots):
        if client is not None:
            client.close()
        print("tictacblitz sweep: not started; nothing played", file=sys.stderr)
        return 1
    try:
        result = sweep(
            grid,
            args.matches,
            None,
            None,
            kwargs["rules"],
            args.seed,
            metrics=metrics,
            game=kwargs["game"],
            random=args.random,
            workers=kwargs["workers"],
            client=client,
            out_dir=args.out,
            overwrite=args.overwrite,
            progress=progress_wanted(args),
            seats={k: bot for k, (bot, _) in chosen.items()},
        )
    finally:
        if client is not None:
            client.close()
    if args.json:
        print(json.dumps(result.rows, indent=1))
    else:
        print(format_sweep(result, args.out, explain=args.explain))
    return 0
