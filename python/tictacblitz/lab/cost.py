"""A run's cost before it starts, and runs sized for a precision (issue 22, item 7).

Before playing, ``simulate``, ``sweep`` and ``tournament`` play a short *pilot*: a few
matches of the same bots and rules on seeds the run never uses (match indices from
:data:`PILOT_START`), on one thread. The pilot is **not counted** in the results; its
CPU time a match, times the run's matches, is the estimate printed on stderr
(:func:`estimate_line`). Above :data:`ASK_ABOVE_S` of wall time, a terminal is asked to
confirm (or ``--yes``); without a terminal (CI, a pipe) the line is printed and the run
starts (:func:`confirm`).

``simulate --precision METRIC=HALFWIDTH`` uses the pilot to fix the sample size
*before* the run (:func:`matches_for`): ``n`` is the pilot's size times (the pilot's
half-width / the one asked)², with the pilot's variance taken at its 95 % upper bound,
capped at ``--matches``. The run then plays exactly ``n`` matches, so its interval is
the ordinary fixed-n one (no optional stopping, nothing to correct for); the pilot's
own matches are never part of it.
"""

from __future__ import annotations

import math
import sys
import time
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from .hooks import GameHooks
from .seating import LEGACY_KEYS, summary_keys
from .seeds import match_seeds
from .summary import Summary

__all__ = [
    "PILOT_START",
    "ASK_ABOVE_S",
    "Pilot",
    "pilot_size",
    "pilot_seeds",
    "run_pilot",
    "estimate_line",
    "announce",
    "confirm",
    "duration",
    "PRECISION_METRICS",
    "precision_metrics",
    "parse_precision",
    "precision_result",
    "precision_line",
    "metric_interval",
    "half_width",
    "matches_for",
]

PILOT_START = 1 << 40
"""The pilot's match indices start here: no run plays that many matches, so the pilot's
seeds are never a run's (and the run's results do not depend on the pilot)."""

ASK_ABOVE_S = 600.0
"""A run estimated to take longer than this (wall seconds) asks a terminal to confirm."""


class Pilot(NamedTuple):
    """A pilot's size, its CPU and wall seconds (one thread), and its summary."""

    matches: int
    cpu_s: float
    wall_s: float
    summary: Optional[Dict[str, Any]]

    @property
    def cpu_per_match(self) -> float:
        return self.cpu_s / self.matches

    @property
    def wall_per_match(self) -> float:
        return max(self.wall_s, self.cpu_s) / self.matches


def pilot_size(slow: bool, precision: bool = False) -> int:
    """Matches a pilot plays: a few for a slow (search) bot, more for a fast one; more
    again when the pilot also fixes a sample size (its variance then matters)."""
    if precision:
        return 20 if slow else 200
    return 4 if slow else 64


def pilot_seeds(seed: int, count: int) -> np.ndarray:
    """``count`` match seeds of job ``seed`` that no run of it plays (from match
    :data:`PILOT_START` on)."""
    return match_seeds(seed, PILOT_START, count)


def run_pilot(
    hooks: GameHooks,
    rules: Any,
    seat_bots: Sequence[Any],
    seeds: Union[Sequence[int], np.ndarray],
    options: Optional[Dict[str, Any]] = None,
) -> Pilot:
    """Play a match on each of ``seeds`` on this thread, timed; nothing of it goes into
    a run's results."""
    pilot_seeds = np.asarray(seeds, dtype=np.uint64)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    cols = hooks.play_matches(rules, tuple(seat_bots), pilot_seeds, **(options or {}))
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    summary = Summary(rules, hooks.name)
    summary.add(cols)
    return Pilot(len(pilot_seeds), cpu, wall, summary.to_dict())


def announce(
    command: str,
    pilots: Sequence[Tuple[Pilot, int]],
    threads: Optional[int],
    yes: bool,
    detail: str = "",
) -> bool:
    """Print the estimate of a run made of parts, each ``(pilot, matches it stands
    for)``, on ``threads`` threads (``None``: a cluster), then :func:`confirm`."""
    total = sum(n for _, n in pilots)
    cpu = sum(p.cpu_per_match * n for p, n in pilots)
    wall = None if threads is None else sum(p.wall_per_match * n for p, n in pilots) / threads
    played = sum(p.matches for p, _ in pilots)
    print(estimate_line(command, total, cpu, wall, threads, played, detail), file=sys.stderr)
    sys.stderr.flush()
    return confirm(command, wall, yes)


def duration(seconds: float) -> str:
    """``0.4 s``, ``12 s``, ``3.5 min``, ``1 h 20 min``."""
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{seconds / 60:.1f} min"
    hours, minutes = divmod(round(seconds / 60), 60)
    return f"{hours} h {minutes} min"


def estimate_line(
    command: str,
    matches: int,
    cpu_s: float,
    wall_s: Optional[float],
    threads: Optional[int],
    pilot_matches: int,
    detail: str = "",
) -> str:
    """``tictacblitz simulate: estimate: 30,000 matches (...), about 70 min CPU, 35 min
    wall on 2 threads (from a pilot of 4 matches on other seeds, not counted)``."""
    where = (
        f"{duration(wall_s)} wall on {threads} thread{'s' if threads != 1 else ''}"
        if wall_s is not None
        else "wall time depends on the cluster"
    )
    what = f"{matches:,} matches" + (f" ({detail})" if detail else "")
    return (
        f"tictacblitz {command}: estimate: {what}, about {duration(cpu_s)} CPU, {where} "
        f"(from a pilot of {pilot_matches:,} matches on other seeds, not counted)"
    )


def confirm(
    command: str,
    wall_s: Optional[float],
    yes: bool,
    stdin: Any = None,
    ask: Optional[Callable[[str], str]] = None,
) -> bool:
    """Whether to start: yes without asking unless the run is estimated above
    :data:`ASK_ABOVE_S` and stdin is a terminal (never blocks CI or a pipe); then the
    answer ``y``/``yes``. ``--yes`` answers for the user."""
    stdin = sys.stdin if stdin is None else stdin
    if yes or wall_s is None or wall_s <= ASK_ABOVE_S:
        return True
    try:
        interactive = stdin.isatty()
    except (AttributeError, ValueError):
        interactive = False
    if not interactive:
        return True
    print(
        f"tictacblitz {command}: that is over {duration(ASK_ABOVE_S)} of wall time; "
        "play it? [y/N] (--yes skips this question) ",
        end="",
        file=sys.stderr,
        flush=True,
    )
    try:
        answer = (ask or input)("")
    except EOFError:
        answer = ""
    return answer.strip().lower() in ("y", "yes")


# -- --precision ----------------------------------------------------------------------------

PRECISION_METRICS: Dict[str, Tuple[str, str]] = {
    "x_win_rate": ("x_win_rate", "x_win_ci"),
    "o_win_rate": ("o_win_rate", "o_win_ci"),
    "draw_rate": ("draw_rate", "draw_ci"),
    "x_share_of_decided": ("seat_advantage.x_share_of_decided", "seat_advantage.x_share_ci"),
}
"""The metrics ``--precision`` takes for every game: the JSON path of the value in
``simulate --json`` and of its 95 % interval. A game adds its own with its balance hook
``PRECISION_METRICS`` (same form; :mod:`.hooks`)."""


def precision_metrics(game: str, keys: Sequence[str] = LEGACY_KEYS) -> Dict[str, Tuple[str, str]]:
    """The ``--precision`` metrics of ``game`` for a run of seats ``keys`` (three or four:
    each seat's win rate and share of decided matches instead of X's and O's)."""
    from .hooks import hooks_for

    lab = dict(PRECISION_METRICS)
    if tuple(keys) != LEGACY_KEYS:
        lab = {f"{k}_win_rate": (f"{k}_win_rate", f"{k}_win_ci") for k in keys}
        lab["draw_rate"] = PRECISION_METRICS["draw_rate"]
        for k in keys:
            sa = "seat_advantage"
            lab[f"{k}_share_of_decided"] = (f"{sa}.{k}_share_of_decided", f"{sa}.{k}_share_ci")
    return {**lab, **hooks_for(game).get("PRECISION_METRICS", {})}


def parse_precision(text: str, game: str, keys: Sequence[str] = LEGACY_KEYS) -> Tuple[str, float]:
    """``METRIC=HALFWIDTH`` → (metric, half-width).

    :raises ValueError: one line naming the bad part (an unknown metric lists the
        game's; a half-width that is not a number > 0, or not below the metric's scale).
    """
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or not name or not value.strip():
        raise ValueError(f"--precision {text!r}: expected METRIC=HALFWIDTH, e.g. x_win_rate=0.01")
    known = precision_metrics(game, keys)
    if name not in known:
        raise ValueError(
            f"--precision {text!r}: unknown metric {name!r} for {game}; "
            f"expected one of {', '.join(known)}"
        )
    try:
        half = float(value)
    except ValueError:
        raise ValueError(
            f"--precision {text!r}: the half-width {value!r} is not a number"
        ) from None
    if not math.isfinite(half) or half <= 0:
        raise ValueError(f"--precision {text!r}: the half-width must be a number > 0, not {value}")
    return name, half


def _at(summary: Dict[str, Any], path: str) -> Any:
    node: Any = summary
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def metric_interval(
    summary: Dict[str, Any], metric: str, game: str
) -> Tuple[Optional[float], Optional[List[float]]]:
    """(value, [lo, hi]) of a ``--precision`` metric in a summary (``None`` where the
    summary has none, e.g. a share of decided matches with nothing decided)."""
    value_path, ci_path = precision_metrics(game, summary_keys(summary))[metric]
    value, ci = _at(summary, value_path), _at(summary, ci_path)
    if value is None or ci is None or any(v is None for v in ci):
        return None, None
    return float(value), [float(ci[0]), float(ci[1])]


def variance_upper_factor(pilot_matches: int) -> float:
    """(k - 1) / chi²(k - 1) at its 5 % point (Wilson-Hilferty): a sample variance of k
    matches times this is a 95 % upper bound of the true variance (normal theory)."""
    d = max(1, pilot_matches - 1)
    z = 1.6448536269514722  # the normal's 95 % point
    chi2 = d * (1 - 2 / (9 * d) - z * math.sqrt(2 / (9 * d))) ** 3
    return d / chi2 if chi2 > 0 else float("inf")


def half_width(summary: Dict[str, Any], metric: str, game: str) -> Optional[float]:
    """Half the width of ``metric``'s 95 % interval in ``summary``; None without one."""
    _, ci = metric_interval(summary, metric, game)
    return None if ci is None else (ci[1] - ci[0]) / 2


def matches_for(pilot: Pilot, metric: str, half_width_asked: float, game: str, cap: int) -> int:
    """The sample size for a 95 % half-width of at most ``half_width_asked``: the pilot's
    half-width scaled as 1/√n, its variance at its 95 % upper bound; at most ``cap``
    (``--matches``); ``cap`` when the pilot has no interval for the metric."""
    pilot_half = half_width(pilot.summary or {}, metric, game)
    if pilot_half is None:
        return cap
    if pilot_half <= 0:
        return min(cap, pilot.matches)  # the metric did not vary in the pilot
    needed = (
        pilot.matches * (pilot_half / half_width_asked) ** 2 * variance_upper_factor(pilot.matches)
    )
    return max(1, min(cap, math.ceil(needed)))


def precision_result(summary: Dict[str, Any], plan: Dict[str, Any]) -> Dict[str, Any]:
    """The plan with the half-width the run reached and whether it met the one asked."""
    half = half_width(summary, plan["metric"], summary["game"])
    met = half is not None and half <= plan["half_width_asked"]
    return {**plan, "half_width": half, "met": met}


def precision_line(result: Dict[str, Any]) -> str:
    half = "none" if result["half_width"] is None else f"{result['half_width']:.4g}"
    verdict = "met" if result["met"] else "NOT met (raise --matches)"
    return (
        f"precision: {result['metric']} 95 % half-width {half} with {result['matches']:,} "
        f"matches (asked <= {result['half_width_asked']:g}: {verdict}); the number was "
        f"fixed before the run from a pilot of {result['pilot_matches']:,} matches on "
        "other seeds, not counted, so the interval is the ordinary fixed-n one"
    )
