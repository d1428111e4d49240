"""The search loop of ``tune`` (issue 24, benchmarks): Optuna's ``ask`` and ``tell``
around each candidate, the next candidate's ``ask`` made while this one's matches play.

An ``ask`` is a new trial in the storage (with SQLite, two reads of the study's trials
and an insert through SQLAlchemy: about a third of tune's work a candidate, counted in
benches/bench_tune.py). The matches play in native threads that do not hold the GIL,
so that Python work can run beside them instead of between candidates.

The proposals do not change: Optuna samples a trial's rule numbers when they are
suggested, not when the trial is asked (``Trial.relative_params`` is evaluated lazily),
and the objective suggests them only after the previous trial is told, so the sampler
sees the same finished trials in the same order; trials are asked one at a time, so
they are numbered as before. Where that cannot hold, the loop asks in turn: an Optuna
that samples at ``ask`` (``relative_params`` not lazy), or a storage that one thread
cannot share with another (SQLite in memory: each thread would get its own database).
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, Optional

__all__ = ["run_trials", "can_ask_ahead"]

Objective = Callable[[Any, Callable[[], None]], Any]


def can_ask_ahead(url: str) -> bool:
    """Whether the next trial may be asked in a second thread for storage ``url``."""
    import optuna

    lazy = isinstance(getattr(optuna.trial.Trial, "relative_params", None), property)
    in_memory = url.startswith("sqlite") and (":memory:" in url or url.rstrip("/") == "sqlite:")
    return lazy and not in_memory


def run_trials(study: Any, objective: Objective, n_trials: int, *, ahead: bool) -> None:
    """``study.optimize(objective, n_trials, catch=())`` with ``objective(trial,
    ask_next)``: the objective calls ``ask_next()`` when its matches start, and the next
    trial is asked in a second thread meanwhile (``ahead``; else each in turn).

    A trial whose objective raises ``TrialPruned`` is pruned; any other exception (and
    Ctrl-C) fails it and is raised again. A trial asked ahead but never played (the run
    stopped) is failed too, so no trial of the study is left running.
    """
    pool = ThreadPoolExecutor(1, thread_name_prefix="tune-ask") if ahead else None
    pending: Optional[Future] = None
    try:
        for k in range(n_trials):
            trial = study.ask() if pending is None else pending.result()
            pending = None

            def ask_next(more: bool = k + 1 < n_trials) -> None:
                nonlocal pending
                if pool is not None and pending is None and more:
                    pending = pool.submit(study.ask)

            _play(study, trial, objective, ask_next)
    finally:
        if pending is not None:
            _fail_unplayed(study, pending)
        if pool is not None:
            pool.shutdown(wait=True)


def _play(study: Any, trial: Any, objective: Objective, ask_next: Callable[[], None]) -> None:
    import optuna

    try:
        value = objective(trial, ask_next)
    except optuna.TrialPruned:
        study.tell(trial, state=optuna.trial.TrialState.PRUNED)
    except BaseException:
        study.tell(trial, state=optuna.trial.TrialState.FAIL)
        raise
    else:
        study.tell(trial, value)


def _fail_unplayed(study: Any, pending: Future) -> None:
    import optuna

    try:
        study.tell(pending.result(), state=optuna.trial.TrialState.FAIL)
    except Exception:  # the ask itself failed: there is no trial to close; the first error
        pass  # (the one that stopped the run) is the one the caller sees
