"""A sweep's plan: its points and one checked job a point (issue 27, item 5).

:func:`plan_sweep` (the API, :func:`~tictacblitz.lab.sweep.sweep`) and the command line
(:func:`~tictacblitz.lab.sweep.main`, with its own wording of a bad point's seats) each
make a :class:`SweepPlan`; every point's job is made by :func:`point_jobs`, that is by
:func:`~tictacblitz.lab.jobs.prepare`, once. The pilot and the run then take the plan's
jobs as they are: nothing checks a point's rules or resolves its bots again. Before, the
command line checked every point three times (its own check, the pilot's bots, and
``sweep()`` building the points anew).
"""

from __future__ import annotations

from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Union

from ..games.protocol import Game
from ..games.registry import DEFAULT_GAME
from .grid import apply_point, make_points
from .jobs import SimulationJob, default_workers, prepare, resolve_game
from .player_axes import player_axis, point_players, rule_point
from .seating import point_seats
from .sweep_files import check_metrics

__all__ = ["SweepPlan", "plan_sweep", "point_jobs"]


class SweepPlan(NamedTuple):
    """A sweep checked before any match is played: ``hooks`` and ``base`` (the game
    under the base rules), ``axes`` (``{name: {"values": [...]}`` or ``{"range": (lo,
    hi)}}``), ``points`` and their ``mode`` (grid or random), ``jobs`` (one checked
    :class:`~tictacblitz.lab.jobs.SimulationJob` a point), ``workers``, ``metrics``, and
    the ``matches`` and master ``seed`` every point plays."""

    hooks: Any
    base: Game
    axes: Dict[str, Dict[str, Any]]
    points: List[Dict[str, Any]]
    mode: str
    jobs: List[SimulationJob]
    workers: int
    metrics: Optional[List[str]]
    matches: int
    seed: int


def point_jobs(
    games: Sequence[Game],
    point_bots: Sequence[Sequence[Any]],
    matches: int,
    seed: int,
    workers: int,
) -> List[SimulationJob]:
    """One checked job a point (its game, one bot a seat): N, workers, rules and bots
    checked here, once a point."""
    return [
        prepare(matches, seed=seed, game=g, workers=workers, bots=bots)
        for g, bots in zip(games, point_bots, strict=True)
    ]


def plan_sweep(
    grid: Dict[str, Any],
    matches: int,
    x: Any = None,
    o: Any = None,
    rules: Optional[Any] = None,
    seed: int = 0,
    *,
    game: Union[str, Game] = DEFAULT_GAME,
    random: Optional[int] = None,
    workers: Optional[int] = None,
    metrics: Optional[List[str]] = None,
    seats: Optional[Dict[int, Any]] = None,
) -> SweepPlan:
    """The plan of :func:`~tictacblitz.lab.sweep.sweep` (its arguments, see there):
    every point built and its job checked, nothing played.

    :raises ValueError: for an unknown name, an out-of-range value at some point, a bad
        bot, N < 1 or an unknown metric.
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
    jobs = point_jobs(games, point_bots, matches, seed, workers)
    return SweepPlan(hooks, base, axes, points, mode, jobs, workers, metrics, matches, seed)
