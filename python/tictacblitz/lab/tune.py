"""Target-driven rule search: ``tictacblitz tune`` and :func:`tune` (issue 24, item 1).

The designer states targets on metrics (``line_share >= 0.6``), objectives (``max
line_share``), the rule numbers the search may vary with their ranges, the players and a
budget. Optuna proposes rule sets (TPE for one objective, NSGA-II for several); each is
played on the same match seeds (:mod:`~tictacblitz.lab.candidates`: common random
numbers, through the lab's one runner, threads or Dask), and scored:

- with no ``--objective``: one objective, the total **shortfall** of the targets
  (:mod:`~tictacblitz.lab.targets`) plus ``change_penalty`` per rule number changed
  from the base (default 0.001: among rule sets that meet the targets equally, the one
  with fewer changes scores better);
- with objectives: those, and the targets become Optuna *constraints* (a shortfall
  above 0 is infeasible); ``each_target`` makes every target's shortfall an objective
  of its own (then NSGA-II and a Pareto plot).

The base rules are the first candidate of a new study, so "change nothing" is always
among the answers. Then the best few are re-played with more matches on fresh seeds and
ranked on their intervals (:mod:`~tictacblitz.lab.tune_finalists`); the study lives in a
database (:mod:`~tictacblitz.lab.tune_study`) and resumes. The report (text, JSON,
Pareto plot, parameter importances) is :mod:`~tictacblitz.lab.tune_report`.

>>> result = tune("doh", ["pieces_per_size=1..3"], ["game_length <= 3"], trials=4,
...               matches=10, confirm=1, confirm_matches=20, seats=["all=greedy"],
...               storage="sqlite:///:memory:", workers=1, sampler_seed=1)
>>> result.best[0].rules, result.best[0].verdicts
({'pieces_per_size': 1}, {'game_length <= 3': 'met'})
"""

from __future__ import annotations

import math
from typing import (
    Any,
    Callable,
    Dict,
    List,
    Mapping,
    NamedTuple,
    Optional,
    Sequence,
    Tuple,
    Union,
)

from ..games.protocol import Game
from .candidates import Number, missing
from .runner import progress_bar
from .targets import seen
from .targets import shortfall as target_shortfall
from .tune_finalists import TuneResult, changes_from, pick_finalists, rank, replay
from .tune_loop import can_ask_ahead, run_trials
from .tune_plan import TunePlan, plan_tune
from .tune_study import check_existing, make_storage, open_study

__all__ = [
    "tune",
    "TunePlan",
    "TuneResult",
    "plan_tune",
    "check_study",
    "run_plan",
    "CONFIRM_SEED_OFFSET",
]

CONFIRM_SEED_OFFSET = 1_000_003
"""The re-play's master seed is the search's plus this: fresh seeds, the same for every
finalist (paired among them)."""
NSGA_POPULATION = 16  # small budgets: a generation of 16 candidates, not Optuna's 50


def _own_constraints() -> bool:
    """Whether a trial states its constraints itself (``Trial.set_constraint``, Optuna
    5; before it, the sampler's ``constraints_func``, deprecated since)."""
    import optuna

    return hasattr(optuna.trial.Trial, "set_constraint")


def _sampler(plan: TunePlan, seed: Optional[int]) -> Any:
    import optuna

    def constraints(trial: Any) -> Sequence[float]:
        return trial.user_attrs.get("tune", {}).get("constraint", [0.0] * len(plan.targets))

    uses_constraints = bool(plan.objectives and plan.targets) and not _own_constraints()
    func = constraints if uses_constraints else None
    if len(plan.directions) == 1:
        return optuna.samplers.TPESampler(seed=seed, constraints_func=func)
    return optuna.samplers.NSGAIISampler(
        population_size=NSGA_POPULATION, seed=seed, constraints_func=func
    )


def _objective(
    plan: TunePlan, advance: Callable[[int], None], played: Dict[Any, Any]
) -> Callable[[Any, Callable[[], None]], Any]:
    import optuna

    def objective(trial: Any, ask_next: Callable[[], None]) -> Any:
        rules: Dict[str, Number] = {}
        for v in plan.vary:
            suggest = trial.suggest_int if v.type is int else trial.suggest_float
            rules[v.name] = suggest(v.name, v.low, v.high)
        try:
            plan.lab.build(rules)
        except ValueError as exc:  # e.g. two ranges whose ends the rules refuse together
            trial.set_user_attr("refused", str(exc))
            raise optuna.TrialPruned(str(exc)) from None
        twin = _played_before(trial, rules, played)
        if twin is not None:  # the same rules on the same seeds: the very same matches
            trial.set_user_attr("tune", {**twin.user_attrs["tune"], "same_as": twin.number})
            advance(plan.matches)  # the progress bar counts it as played
            if plan.objectives and plan.targets and _own_constraints():
                for t, excess in zip(
                    plan.targets, twin.user_attrs["tune"]["constraint"], strict=True
                ):
                    trial.set_constraint(t.text, excess)
            return twin.values[0] if len(twin.values) == 1 else list(twin.values)
        ask_next()  # the next trial's storage work, beside this one's matches (tune_loop)
        got = plan.lab.measure(
            rules, plan.matches, plan.seed, on_chunk=lambda i, c: advance(len(c["winner"]))
        )
        for name in {t.metric for t in plan.targets} | {o.metric for o in plan.objectives}:
            got.setdefault(name, missing(name, plan.lab.game))  # e.g. seats changed
        changes = changes_from(rules, plan.defaults)
        short = [target_shortfall(t, got[t.metric].value, got[t.metric].unit) for t in plan.targets]
        # One attribute, one write: each is a transaction of the storage (benches/bench_tune.py)
        tune_attr = {
            "metrics": {k: [e.value, e.low, e.high] for k, e in got.items()},
            "changes": changes,
            "shortfall": sum(short),
            "constraint": short,
        }
        trial.set_user_attr("tune", tune_attr)
        if plan.objectives and plan.targets:  # targets as constraints: > 0 is infeasible
            if _own_constraints():
                for t, excess in zip(plan.targets, short, strict=True):
                    trial.set_constraint(t.text, excess)
        values = _values(plan, got, short, changes)
        if not any(math.isnan(v) for v in values):  # Optuna fails a trial with a NaN value
            played.setdefault(_key(rules), _Played(trial.number, {"tune": tune_attr}, values))
        return values[0] if len(values) == 1 else values

    return objective


def _values(plan: TunePlan, got: Dict[str, Any], short: List[float], changes: int) -> List[float]:
    values: List[float] = []
    for o in plan.objectives:
        value = got[o.metric].value
        values.append(math.nan if value is None else seen(o, value))
    if plan.each_target:
        values += short
    if not values:
        values = [sum(short) + plan.change_penalty * changes]
    return [float(v) for v in values]


class _Played(NamedTuple):
    """A finished trial as a twin needs it (number, ``user_attrs``, values)."""

    number: int
    user_attrs: Dict[str, Any]
    values: List[float]


def _key(rules: Mapping[str, Number]) -> Tuple[Tuple[str, Number], ...]:
    return tuple(sorted(rules.items()))


def _already_played(study: Any) -> Dict[Any, _Played]:
    """``{rules: the first finished trial that played them}`` of the study as it is when
    the run starts; the run adds its own trials as they finish (:func:`_played_before`)."""
    import optuna

    out: Dict[Any, _Played] = {}
    for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,)):
        if "tune" in t.user_attrs:
            out.setdefault(_key(t.params), _Played(t.number, t.user_attrs, list(t.values)))
    return out


def _played_before(trial: Any, rules: Dict[str, Number], played: Dict[Any, _Played]) -> Any:
    """The first finished trial with these very rules, else None: every candidate plays
    the same seeds, so playing it again would only repeat its matches (Optuna proposes an
    integer rule's values again and again on a small range). Looked up in ``played``
    (:func:`_already_played`, kept up to date by the run) rather than read from the
    storage for every candidate: that read was a quarter of tune's cost a candidate
    (benches/bench_tune.py). A twin another worker finishes during this run is not seen:
    the candidate is played again, on the same seeds, so to the same numbers."""
    return played.get(_key(rules))


def check_study(plan: TunePlan) -> None:
    """Refuse, before anything is played, a study of the plan's name that exists in its
    storage and searches another question. :raises ValueError: (one line)."""
    check_existing(make_storage(plan.storage), plan.study, plan.spec, plan.storage)


def run_plan(
    plan: TunePlan,
    *,
    progress: bool = False,
    plot: Optional[str] = None,
    sampler_seed: Optional[int] = None,
    on_study: Optional[Callable[[Any], None]] = None,
) -> TuneResult:
    """Open (or continue) the study, add ``plan.trials`` trials, re-play the finalists
    and the base, and answer. Ctrl-C (``KeyboardInterrupt``) stops after marking the
    running trial failed; the study keeps every finished trial.

    :raises ValueError: when the study exists and searches another question (nothing is
        written then).
    """
    import optuna

    from .tune_report import importances, pareto_plot

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = make_storage(plan.storage)
    probe = optuna.samplers.RandomSampler()
    study = open_study(storage, plan.study, plan.spec, plan.directions, probe, url=plan.storage)
    before = len(study.trials)
    seed = None if sampler_seed is None else sampler_seed + before
    study.sampler = _sampler(plan, seed)
    if on_study is not None:
        on_study(study)
    if before == 0:  # the base rules first: "change nothing" is always a candidate
        start = {n: d for n, d in plan.defaults.items() if _inside(plan, n, d)}
        if start:
            study.enqueue_trial(start, skip_if_exists=True)
    advance, close = progress_bar(plan.total_matches, progress, "tune")
    try:
        objective = _objective(plan, advance, _already_played(study))
        run_trials(study, objective, plan.trials, ahead=can_ask_ahead(plan.storage))
        chosen = pick_finalists(
            study,
            plan.confirm,
            lambda t: t.user_attrs.get("tune", {}).get("shortfall", 0.0),
            lambda t: changes_from(t.params, plan.defaults) == 0,  # the base: re-played anyway
        )
        confirm_seed = plan.seed + CONFIRM_SEED_OFFSET
        runs = [(None, dict(plan.defaults))] + [(t.number, dict(t.params)) for t in chosen]
        played = replay(
            plan.lab,
            runs,
            plan.defaults,
            plan.confirm_matches,
            confirm_seed,
            plan.targets,
            plan.objectives,
            on_chunk=lambda i, c: advance(len(c["winner"])),
        )
    finally:
        close()
    best, ordered = rank(played, plan.targets, plan.objectives)
    names = [o.text for o in plan.objectives]
    if plan.each_target:
        names += [f"shortfall of {t.text}" for t in plan.targets]
    names = names or ["total shortfall + change penalty"]
    states = [t.state for t in study.trials]
    return TuneResult(
        plan.lab.game,
        plan.study,
        plan.storage,
        best,
        ordered,
        played[0],
        plan.targets,
        plan.objectives,
        names,
        sum(s == optuna.trial.TrialState.COMPLETE for s in states),
        len(states) - before,
        sum("refused" in t.user_attrs for t in study.trials),
        plan.matches,
        plan.confirm_matches,
        confirm_seed,
        importances(study, names, [not o.maximize for o in plan.objectives]),
        pareto_plot(study, names, plot) if len(names) > 1 and plot else None,
        type(study.sampler).__name__,
    )


def _inside(plan: TunePlan, name: str, value: Number) -> bool:
    v = next(v for v in plan.vary if v.name == name)
    return v.low <= value <= v.high


def tune(
    game: Union[str, Game],
    vary: Union[Sequence[str], Mapping[str, Tuple[Number, Number]]],
    targets: Sequence[str] = (),
    objectives: Sequence[str] = (),
    *,
    progress: bool = False,
    plot: Optional[str] = None,
    sampler_seed: Optional[int] = None,
    **options: Any,
) -> TuneResult:
    """Search ``game``'s rule numbers ``vary`` (``["set_ms=800..2000"]`` or ``{name:
    (low, high)}``) for ``targets`` and ``objectives`` (texts as on the command line);
    ``options`` as :func:`plan_tune` takes them (seats, base_rules, trials, matches,
    confirm, confirm_matches, seed, each_target, change_penalty, study, storage,
    workers, client). ``plot``: a PNG path for the Pareto plot (several objectives).
    ``sampler_seed``: reproducible proposals (one process).

    :raises ValueError: for bad input (nothing played, no study touched).
    :raises KeyboardInterrupt: on Ctrl-C (the study keeps its finished trials).
    """
    plan = plan_tune(game, vary, targets, objectives, **options)
    return run_plan(plan, progress=progress, plot=plot, sampler_seed=sampler_seed)
