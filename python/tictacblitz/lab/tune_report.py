"""How a rule search answers (issue 24, item 1): the text report, the JSON, the Pareto
plot (matplotlib, PNG) and Optuna's parameter importances.

Every metric is shown in the lab's units (:mod:`~tictacblitz.lab.units`: shares as
percentages with their 95 % interval); a target's verdict is judged on that interval
(:mod:`~tictacblitz.lab.targets`).
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any, Dict, List, Optional

from .targets import MET, MISSED, UNSURE
from .units import show

if TYPE_CHECKING:
    from .tune_finalists import Finalist, TuneResult

__all__ = ["importances", "pareto_plot", "format_tune", "tune_json"]


def importances(
    study: Any, names: List[str], lower_better: List[bool]
) -> Dict[str, Dict[str, float]]:
    """``{objective: {rule: importance}}`` (Optuna's default importance evaluator,
    PED-ANOVA in Optuna 5, which rates what leads to *low* values: a maximised objective
    is negated for it; each objective's importances add up to 1); an objective is left
    out when Optuna cannot say (too few finished trials, or none differ).
    ``lower_better``: one a user objective (the shortfalls after them are minimised)."""
    import optuna

    out: Dict[str, Dict[str, float]] = {}
    for k, name in enumerate(names):
        sign = 1.0 if k >= len(lower_better) or lower_better[k] else -1.0
        target = None if len(names) == 1 else (lambda t, k=k, sign=sign: sign * t.values[k])
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # its note that a target is minimised: it is
                got = optuna.importance.get_param_importances(study, target=target)
        except (RuntimeError, ValueError, ZeroDivisionError):
            continue
        if got:
            out[name] = {p: float(v) for p, v in got.items()}
    return out


def pareto_plot(study: Any, names: List[str], path: str) -> Optional[str]:
    """The Pareto front of the study's finished trials against its first two (or
    three) objectives, as a PNG at ``path``; None when there is nothing to draw."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import optuna
    from optuna.visualization.matplotlib import plot_pareto_front

    done = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
    if not done:
        return None
    shown = names[:3] if len(names) <= 3 else names[:2]
    kwargs: Dict[str, Any] = {"target_names": shown}
    if len(shown) < len(names):
        kwargs["targets"] = lambda t: tuple(t.values[: len(shown)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Optuna marks its matplotlib plots experimental
        axes = plot_pareto_front(study, **kwargs)
    axes.set_title(f"Pareto front: {len(done)} candidates (tictacblitz tune)")
    figure = axes.get_figure(root=True)
    assert figure is not None
    figure.savefig(path, dpi=100, bbox_inches="tight")
    plt.close(figure)
    return path


def _rules_text(f: "Finalist") -> str:
    if f.trial is None:
        return "the base rules"
    changed = ", ".join(f"{k}={_num(v)}" for k, v in f.rules.items())
    return f"trial {f.trial}: {changed}"


def _num(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def _finalist_lines(f: "Finalist", result: "TuneResult", targets_total: int) -> List[str]:
    lines = [
        f"  {_rules_text(f)}  ({f.changes} rule change{'s' if f.changes != 1 else ''} "
        f"from the base)"
    ]
    if targets_total:
        lines.append(
            f"    targets met: {f.met} of {targets_total} (whole 95 % interval inside), "
            f"{f.unsure} unsure (interval across a bound); shortfall {f.shortfall:.3g}"
        )
        for text, verdict in f.verdicts.items():
            lines.append(f"      {verdict:7}  {text}")
    for name, e in f.estimates.items():
        ci = None if e.low is None or e.high is None else (e.low, e.high)
        lines.append(f"    {e.label} ({name}): {show(e.value, ci, e.unit)}")
    return lines


def format_tune(result: "TuneResult") -> str:
    """The report a person reads (stdout of ``tictacblitz tune``)."""
    n = len(result.targets)
    head = [
        f"tune {result.game}: study {result.study!r} ({result.storage}), "
        f"{result.trials} finished candidates ({result.trials_this_run} this run"
        + (f", {result.refused} refused by the rules" if result.refused else "")
        + f"), {result.matches:,} matches each on the same seeds",
        f"re-played with {result.confirm_matches:,} matches each on fresh seeds "
        f"(master seed {result.confirm_seed}, the same for every finalist)",
        "",
    ]
    if result.tie:
        head.append(
            f"best: {len(result.best)} rule sets tie: no interval separates one above "
            "another (equal within the noise, or each better on some objective: a "
            "trade-off); fewest rule changes first"
        )
    else:
        head.append("best: one rule set, separated from every other finalist by its intervals")
    for f in result.best:
        head += _finalist_lines(f, result, n)
    rest = [f for f in result.finalists if all(f is not b for b in result.best)]
    if rest:
        head += ["", "the other finalists (each below some best one on an interval):"]
        for f in rest:
            head += _finalist_lines(f, result, n)
    if result.importances:
        head += [
            "",
            "parameter importances (Optuna's default evaluator; each objective's add up to 1):",
        ]
        for objective, values in result.importances.items():
            shown = ", ".join(f"{p} {v:.2f}" for p, v in values.items())
            head.append(f"  {objective}: {shown}")
    if result.plot:
        head += ["", f"Pareto plot: {result.plot}"]
    head += ["", f"verdicts: {MET} / {UNSURE} / {MISSED} on the 95 % interval (docs/tune.md)"]
    return "\n".join(head)


def _finalist_json(f: "Finalist") -> Dict[str, Any]:
    return {
        "trial": f.trial,
        "rules": f.rules,
        "changes": f.changes,
        "met": f.met,
        "unsure": f.unsure,
        "shortfall": f.shortfall,
        "verdicts": f.verdicts,
        "objectives": f.objectives,
        "metrics": {
            k: {"value": e.value, "ci": [e.low, e.high], "unit": e.unit, "label": e.label}
            for k, e in f.estimates.items()
        },
    }


def tune_json(result: "TuneResult") -> Dict[str, Any]:
    """The answer as JSON-ready data (shares as fractions)."""
    return {
        "game": result.game,
        "study": result.study,
        "storage": result.storage,
        "trials": result.trials,
        "trials_this_run": result.trials_this_run,
        "refused": result.refused,
        "matches": result.matches,
        "confirm_matches": result.confirm_matches,
        "confirm_seed": result.confirm_seed,
        "targets": [t.text for t in result.targets],
        "objectives": result.objective_names,
        "tie": result.tie,
        "best": [_finalist_json(f) for f in result.best],
        "finalists": [_finalist_json(f) for f in result.finalists],
        "importances": result.importances,
        "plot": result.plot,
    }
