"""The end of a rule search: the best candidates re-played and ranked on their intervals
(issue 24, item 1: "no best chosen on noise").

The search's scores come from a few matches a candidate, so its top is partly luck. The
finalists (:func:`pick_finalists`: the best few by the search's score, or its Pareto
front) are **re-played** with more matches on fresh seeds, the same seeds for every
finalist and for the base rules (paired, as in the search), and ranked on the new
numbers (:func:`rank`):

- each target is judged on the re-played 95 % interval (:func:`~.targets.judge`): met,
  missed or unsure; ``met`` counts the targets whose whole interval lies inside;
- finalist A is *separated above* B when on some criterion (a target's shortfall over
  the interval, an objective's interval) A's interval is wholly better than B's and on
  none is B's wholly better than A's;
- the **best** are the finalists no other is separated above. When there are several,
  the intervals cannot tell them apart and the answer says they tie; they are listed
  with the fewest rule changes from the base first (the designer's preference), then by
  targets met and total shortfall.

Comparing each finalist's own interval is conservative: the finalists play the same
seeds, so their difference is known better than the two intervals suggest. A tie means
"not shown different", never "shown equal".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .candidates import Candidates, Estimate, Number, missing
from .targets import MET, UNSURE, Objective, Target, judge, seen, shortfall, shortfall_range

__all__ = [
    "TuneResult",
    "Finalist",
    "changes_from",
    "pick_finalists",
    "measured",
    "rank",
    "separated",
]


@dataclass
class Finalist:
    """A rule set re-played: its search trial (None for the base rules), the rule
    numbers it sets, how many differ from the base, every metric's interval, each
    target's verdict, and the objectives' values."""

    trial: Optional[int]
    rules: Dict[str, Number]
    changes: int
    estimates: Dict[str, Estimate]
    verdicts: Dict[str, str] = field(default_factory=dict)
    shortfall: float = 0.0
    objectives: List[Optional[float]] = field(default_factory=list)
    search_score: Optional[Sequence[float]] = None

    @property
    def met(self) -> int:
        return sum(v == MET for v in self.verdicts.values())

    @property
    def unsure(self) -> int:
        return sum(v == UNSURE for v in self.verdicts.values())


def changes_from(rules: Dict[str, Number], defaults: Dict[str, Number]) -> int:
    """Rule numbers that differ from the base (a float within 1e-9 of it counts as
    the same)."""
    return sum(abs(float(v) - float(defaults[k])) > 1e-9 for k, v in rules.items())


def measured(
    trial: Optional[int],
    rules: Dict[str, Number],
    defaults: Dict[str, Number],
    estimates: Dict[str, Estimate],
    targets: Sequence[Target],
    objectives: Sequence[Objective],
) -> Finalist:
    """A :class:`Finalist` with its verdicts, shortfall and objective values."""
    out = Finalist(trial, dict(rules), changes_from(rules, defaults), estimates)
    for t in targets:
        e = estimates[t.metric]
        out.verdicts[t.text] = judge(t, e.value, e.low, e.high)
        out.shortfall += shortfall(t, e.value, e.unit)
    for o in objectives:
        value = estimates[o.metric].value
        out.objectives.append(None if value is None else seen(o, value))
    return out


def pick_finalists(
    study: Any, count: int, score: Callable[[Any], float], skip: Callable[[Any], bool]
) -> List[Any]:
    """Up to ``count`` complete trials with distinct rule sets, none that ``skip``
    rejects (the base rules, re-played anyway): for one objective the best by its value;
    for several the Pareto front, spread evenly along its first objective when it has
    more, then the others by ``score`` (lower first: the trials' total shortfall)."""
    import optuna

    done = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
    if len(study.directions) == 1:
        sign = -1.0 if study.direction == optuna.study.StudyDirection.MAXIMIZE else 1.0
        ordered = sorted(done, key=lambda t: (sign * t.values[0], t.number))
    else:  # the front, spread along its first objective, then the rest by score
        front = sorted(
            (t for t in study.best_trials if not skip(t)), key=lambda t: (t.values[0], t.number)
        )
        if len(front) > count:
            step = (len(front) - 1) / max(1, count - 1)
            front = [front[round(i * step)] for i in range(count)]
        chosen = {t.number for t in front}
        ordered = front + sorted(
            (t for t in done if t.number not in chosen), key=lambda t: (score(t), t.number)
        )
    picked: List[Any] = []
    seen_rules: List[Dict[str, Any]] = []
    for t in ordered:
        if t.params not in seen_rules and not skip(t):
            picked.append(t)
            seen_rules.append(t.params)
        if len(picked) == count:
            break
    return picked


def _criteria(
    f: Finalist, targets: Sequence[Target], objectives: Sequence[Objective]
) -> List[Tuple[float, float]]:
    """Each criterion as an interval to *minimise* (objectives to maximise negated)."""
    out = []
    for t in targets:
        e = f.estimates[t.metric]
        out.append(shortfall_range(t, e.low, e.high, e.unit))
    for o in objectives:
        e = f.estimates[o.metric]
        if e.low is None or e.high is None:
            out.append((float("inf"), float("inf")))
            continue
        lo, hi = sorted((seen(o, e.low), seen(o, e.high)))
        if o.absolute and e.low <= 0 <= e.high:
            lo = 0.0
        out.append((-hi, -lo) if o.maximize else (lo, hi))
    return out


def separated(
    a: Finalist, b: Finalist, targets: Sequence[Target], objectives: Sequence[Objective]
) -> bool:
    """Whether ``a`` is separated above ``b`` (see the module doc)."""
    ca, cb = _criteria(a, targets, objectives), _criteria(b, targets, objectives)
    a_better = any(x[1] < y[0] for x, y in zip(ca, cb, strict=True))
    b_better = any(y[1] < x[0] for x, y in zip(ca, cb, strict=True))
    return a_better and not b_better


def rank(
    finalists: List[Finalist], targets: Sequence[Target], objectives: Sequence[Objective]
) -> Tuple[List[Finalist], List[Finalist]]:
    """(the best, every finalist in order): the best are those no other finalist is
    separated above, fewest rule changes first; the rest follow by targets met, total
    shortfall, then rule changes."""
    best = [
        f
        for f in finalists
        if not any(separated(g, f, targets, objectives) for g in finalists if g is not f)
    ]
    best.sort(key=lambda f: (f.changes, -f.met, f.shortfall))
    rest = [f for f in finalists if all(f is not g for g in best)]
    rest.sort(key=lambda f: (-f.met, f.shortfall, f.changes))
    return best, best + rest


def replay(
    lab: Candidates,
    chosen: Sequence[Tuple[Optional[int], Dict[str, Number]]],
    defaults: Dict[str, Number],
    matches: int,
    seed: int,
    targets: Sequence[Target],
    objectives: Sequence[Objective],
    on_chunk: Optional[Callable[[int, Dict[str, Any]], None]] = None,
) -> List[Finalist]:
    """Each ``(trial, rules)`` re-played with ``matches`` matches on master ``seed``."""
    wanted = {t.metric for t in targets} | {o.metric for o in objectives}
    out = []
    for trial, rules in chosen:
        got = lab.measure(rules, matches, seed, on_chunk=on_chunk)
        for name in wanted - set(got):  # a metric this rule set has not (its seats changed)
            got[name] = missing(name, lab.game)
        out.append(measured(trial, rules, defaults, got, targets, objectives))
    return out


@dataclass
class TuneResult:
    """What :func:`tune` answers: the best rule sets (several when their intervals tie),
    every re-played finalist in order, the base rules re-played, the study's trial
    counts, Optuna's parameter importances per objective, and the Pareto plot's path."""

    game: str
    study: str
    storage: str
    best: List[Finalist]
    finalists: List[Finalist]
    base: Finalist
    targets: Tuple[Target, ...]
    objectives: Tuple[Objective, ...]
    objective_names: List[str]
    trials: int
    trials_this_run: int
    refused: int
    matches: int
    confirm_matches: int
    confirm_seed: int
    importances: Dict[str, Dict[str, float]] = field(default_factory=dict)
    plot: Optional[str] = None
    sampler: str = ""

    @property
    def tie(self) -> bool:
        return len(self.best) > 1
