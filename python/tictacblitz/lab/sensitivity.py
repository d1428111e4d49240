"""Which rule numbers move a metric: ``tictacblitz sensitivity`` and :func:`sensitivity`
(issue 24, item 2).

Morris elementary effects screen every rule number of the game (its ``sweepable`` hook,
each over a range: :mod:`.sensitivity_ranges`), then Sobol indices apportion the
variance among the few that matter (``sobol=`` names them, else the ``top`` of the
screening). Every design point (:mod:`.sensitivity_design`) is one rule set measured by
:class:`~tictacblitz.lab.candidates.Candidates` (the lab's runner: threads or a Dask
cluster) on the same match seeds: common random numbers, so that an effect is the rules'
and not the seeds'. The analyses, their noise floors and what "not measurable" means:
:mod:`.sensitivity_analysis`; the files and the table: :mod:`.sensitivity_report`; the
command line: :mod:`.sensitivity_cli`.
"""

from __future__ import annotations

from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from ..games.protocol import Game
from ..games.registry import DEFAULT_GAME
from .candidates import Candidates, Estimate
from .edges import Interrupted
from .runner import progress_bar
from .sensitivity_analysis import (
    MorrisEffect,
    SobolIndex,
    analyze_morris,
    analyze_sobol,
    morris_noise_floor,
    noise_share,
)
from .sensitivity_design import (
    MORRIS_LEVELS,
    Design,
    accepted_by,
    coarse_rules,
    morris_design,
    point_key,
    sobol_design,
)
from .sensitivity_ranges import RuleRange, rule_ranges

__all__ = ["sensitivity", "plan", "Plan", "SensitivityResult", "measure_design"]


class Plan(NamedTuple):
    """Everything a run needs, checked before any match is played: the measuring
    :class:`~.candidates.Candidates`, the ranges, the Morris design, the metrics, the
    Sobol rules (named, or None: the top ``top`` of the screening) and the sizes."""

    lab: Candidates
    ranges: List[RuleRange]
    morris: Design
    metrics: List[str]
    sobol_rules: Optional[List[str]]
    top: int
    sobol_samples: int
    matches: int
    seed: int

    @property
    def sobol_count(self) -> int:
        """Sobol rules there will be (at most: the top ones that are measurable)."""
        k = len(self.sobol_rules) if self.sobol_rules is not None else self.top
        return min(k, len(self.ranges))

    def points(self) -> Tuple[int, int]:
        """(distinct Morris points, Sobol points at most): the run's cost in rule sets."""
        k = self.sobol_count
        return len(self.morris.distinct()), (self.sobol_samples * (k + 2) if k else 0)


class SensitivityResult(NamedTuple):
    """The answer: per metric, the Morris effects (largest first), the Sobol indices of
    the few rules (largest ``ST`` first; empty when skipped), the noise floor of a Morris
    effect and the noise's share of the variance over the Sobol design; the ranges, the
    designs, every measured rule set's estimates, and ``meta`` (the job)."""

    game: str
    ranges: List[RuleRange]
    metrics: List[str]
    morris: Dict[str, List[MorrisEffect]]
    sobol: Dict[str, List[SobolIndex]]
    noise_floor: Dict[str, float]
    noise_share: Dict[str, Optional[float]]
    designs: Dict[str, Design]
    measured: Dict[Tuple[Any, ...], Dict[str, Estimate]]
    meta: Dict[str, Any]

    def effect(self, metric: str, rule: str) -> MorrisEffect:
        return next(e for e in self.morris[metric] if e.rule == rule)

    def ranking(self, metric: str) -> List[str]:
        """The rules by Morris ``mu*`` for ``metric``, largest first."""
        return [e.rule for e in self.morris[metric]]


def plan(
    game: Union[str, Game] = DEFAULT_GAME,
    *,
    seats: Any = None,
    rules: Optional[Any] = None,
    options: Optional[Dict[str, Any]] = None,
    vary: Optional[Dict[str, Tuple[float, float]]] = None,
    only: Optional[Sequence[str]] = None,
    metrics: Optional[Sequence[str]] = None,
    trajectories: int = 10,
    sobol: Optional[Sequence[str]] = None,
    top: int = 3,
    sobol_samples: int = 16,
    matches: int = 200,
    seed: int = 0,
    workers: Optional[int] = None,
    client: Any = None,
) -> Plan:
    """Check a run and lay out its design (nothing played). The arguments are those of
    :func:`sensitivity`. :raises ValueError: one line naming the bad value."""
    if matches < 1:
        raise ValueError(f"--matches {matches}: must be >= 1")
    if top < 0:
        raise ValueError(f"--top {top}: must be >= 0")
    lab = Candidates(
        game, seats=seats, base_rules=rules, options=options, workers=workers, client=client
    )
    ranges = rule_ranges(lab.hooks, lab.base, vary, only)
    if not ranges:
        raise ValueError("no rule number to vary (every one is pinned by the game)")
    accepted = accepted_by(lab.hooks, lab.base)
    design = morris_design(ranges, trajectories, seed, accepted)
    known = _common_metrics(lab, design)
    chosen = list(metrics) if metrics else known
    for m in chosen:
        if m not in known:
            raise ValueError(f"--metric {m}: unknown metric; expected one of {', '.join(known)}")
    names = [r.name for r in ranges]
    if sobol is not None:
        for name in sobol:
            if name not in names:
                raise ValueError(f"--sobol {name}: not a varied rule; varied: {', '.join(names)}")
        if len(set(sobol)) != len(sobol):
            raise ValueError("--sobol names a rule twice")
    if (sobol or top) and (sobol_samples < 2 or sobol_samples & (sobol_samples - 1)):
        raise ValueError(f"--sobol-samples {sobol_samples}: must be a power of 2, at least 2")
    return Plan(
        lab,
        ranges,
        design,
        chosen,
        list(sobol) if sobol is not None else None,
        top,
        sobol_samples,
        matches,
        seed,
    )


def _common_metrics(lab: Candidates, design: Design) -> List[str]:
    """The metrics reported at every point (a point may seat more players: Doh)."""
    seen: Dict[int, Tuple[str, ...]] = {}
    common: Optional[List[str]] = None
    for point in design.distinct():
        game = lab.build(point)
        seats = lab.hooks.players(game.rules)
        if seats not in seen:
            seen[seats] = lab.metric_names(game)
            names = list(seen[seats])
            common = names if common is None else [m for m in common if m in names]
    return common or []


def measure_design(
    p: Plan,
    design: Design,
    measured: Dict[Tuple[Any, ...], Dict[str, Estimate]],
    advance: Any,
    done_before: int,
    total: int,
) -> None:
    """Measure every distinct rule set of ``design`` not in ``measured`` yet."""
    for k, point in enumerate(q for q in design.distinct() if point_key(q) not in measured):
        try:
            measured[point_key(point)] = p.lab.measure(
                point,
                p.matches,
                p.seed,
                on_chunk=lambda i, cols: advance(len(cols["winner"])),
            )
        except Interrupted as exc:
            raise Interrupted(done_before + k * p.matches + exc.done, total) from None


def _values(
    design: Design, measured: Dict[Tuple[Any, ...], Dict[str, Estimate]], metric: str
) -> Tuple[np.ndarray, List[float]]:
    """The metric at every design row, and the 95 % half-width of each distinct point."""
    values, halves = [], {}
    for point in design.points:
        e = measured[point_key(point)][metric]
        values.append(np.nan if e.value is None else e.value)
        if e.known:
            halves[point_key(point)] = (e.high - e.low) / 2  # type: ignore[operator]
    return np.asarray(values, dtype=float), list(halves.values())


def _top_rules(
    morris: Dict[str, List[MorrisEffect]], floors: Dict[str, float], k: int
) -> List[str]:
    """The ``k`` rules with the largest measurable effect, each rule's effect taken at
    the metric where it is largest relative to that metric's noise floor."""
    score: Dict[str, float] = {}
    for metric, effects in morris.items():
        for e in effects:
            if e.measurable:
                ratio = e.mu_star / floors[metric] if floors[metric] > 0 else float("inf")
                score[e.rule] = max(score.get(e.rule, 0.0), ratio)
    return sorted(score, key=lambda r: -score[r])[:k]


def sensitivity(
    game: Union[str, Game] = DEFAULT_GAME,
    *,
    progress: bool = False,
    out_dir: Optional[str] = None,
    overwrite: bool = False,
    **kwargs: Any,
) -> SensitivityResult:
    """How much each rule number of ``game`` moves each metric over its range.

    ``seats`` (``["all=greedy"]`` or ``{seat: bot}``, as :class:`~.candidates.Candidates`
    takes them), ``rules`` (base overrides), ``options`` (the game's runner options),
    ``vary`` (``{name: (lo, hi)}``: ranges; a rule named only here is varied too),
    ``only`` (the rules to vary; default every sweepable number), ``metrics`` (default
    every metric with an interval), ``trajectories`` (Morris r, >= 2), ``sobol`` (the
    rules for Sobol indices; default the ``top`` measurable ones of the screening; ``top
    = 0`` and no ``sobol``: none), ``sobol_samples`` (Saltelli's N, a power of 2),
    ``matches`` (a design point), ``seed``, ``workers``, ``client`` (Dask).
    With ``out_dir``: the JSON, CSVs and tornado plots (:mod:`.sensitivity_report`).

    :raises ValueError: for a bad argument, before any match is played.
    """
    p = kwargs.pop("plan", None) or plan(game, **kwargs)
    if out_dir is not None:
        from .sweep_files import check_out_dir

        check_out_dir(out_dir, overwrite)
    return run(p, progress=progress, out_dir=out_dir, overwrite=overwrite)


def run(
    p: Plan, *, progress: bool = False, out_dir: Optional[str] = None, overwrite: bool = False
) -> SensitivityResult:
    """Play and analyse a checked :class:`Plan`."""
    import time

    started = time.perf_counter()
    morris_points, sobol_points = p.points()
    total = (morris_points + sobol_points) * p.matches
    advance, close = progress_bar(total, progress, "sensitivity")
    measured: Dict[Tuple[Any, ...], Dict[str, Estimate]] = {}
    morris: Dict[str, List[MorrisEffect]] = {}
    floors: Dict[str, float] = {}
    skipped: Dict[str, str] = {}
    designs = {"morris": p.morris}
    sobol: Dict[str, List[SobolIndex]] = {}
    shares: Dict[str, Optional[float]] = {}
    try:
        measure_design(p, p.morris, measured, advance, 0, total)
        for metric in p.metrics:
            values, halves = _values(p.morris, measured, metric)
            if np.isnan(values).any():
                skipped[metric] = "undefined at some design points"
                continue
            floors[metric] = morris_noise_floor(halves)
            morris[metric] = analyze_morris(p.morris, values, halves, p.seed)
        names = p.sobol_rules if p.sobol_rules is not None else _top_rules(morris, floors, p.top)
        if names:
            chosen = [r for r in p.ranges if r.name in names]
            design = sobol_design(
                chosen, p.sobol_samples, p.seed, accepted_by(p.lab.hooks, p.lab.base)
            )
            designs["sobol"] = design
            measure_design(p, design, measured, advance, morris_points * p.matches, total)
            for metric in morris:
                values, halves = _values(design, measured, metric)
                shares[metric] = noise_share(values, halves)
                sobol[metric] = analyze_sobol(design, values, halves, p.seed)
    finally:
        close()
    meta = {
        "game": p.lab.game,
        "seats": [str(b) for b in p.lab.bots(p.lab.base)],
        "rules": p.lab.hooks.overrides(p.lab.base.rules),
        "matches": p.matches,
        "seed": p.seed,
        "trajectories": len(p.morris.unit) // (len(p.ranges) + 1),
        "levels": MORRIS_LEVELS,
        "sobol_samples": p.sobol_samples if "sobol" in designs else 0,
        "points": {k: len(d.distinct()) for k, d in designs.items()},
        "rows": {k: len(d.points) for k, d in designs.items()},
        "redrawn": {k: d.redrawn for k, d in designs.items()},
        "matches_played": len(measured) * p.matches,
        "coarse": coarse_rules(p.ranges),
        "skipped": skipped,
        "seconds": time.perf_counter() - started,
    }
    result = SensitivityResult(
        p.lab.game,
        p.ranges,
        list(morris),
        morris,
        sobol,
        floors,
        shares,
        designs,
        measured,
        meta,
    )
    if out_dir is not None:
        from .sensitivity_report import write_outputs

        write_outputs(result, out_dir, overwrite=overwrite)
    return result
