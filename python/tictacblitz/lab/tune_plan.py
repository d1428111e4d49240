"""A rule search's question, checked (issue 24, item 1): :func:`plan_tune` turns what
the designer asks (game, seats, base rules, ranges, targets, objectives, budget,
study) into a :class:`TunePlan`, refusing bad input in one line before any match is
played or any storage opened (:mod:`~tictacblitz.lab.tune` runs the plan)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from ..games.protocol import Game
from .candidates import Candidates, Number
from .targets import Objective, Target, Vary, parse_objective, parse_target, parse_vary
from .tune_study import DEFAULT_STORAGE, fingerprint
from .tune_study import study_name as default_study_name

__all__ = ["TunePlan", "plan_tune"]


@dataclass
class TunePlan:
    """A checked search, nothing played or stored yet (:func:`plan_tune`)."""

    lab: Candidates
    vary: Tuple[Vary, ...]
    targets: Tuple[Target, ...]
    objectives: Tuple[Objective, ...]
    each_target: bool
    trials: int
    matches: int
    confirm: int
    confirm_matches: int
    seed: int
    change_penalty: float
    storage: str
    study: str
    spec: Dict[str, Any]
    defaults: Dict[str, Number]

    @property
    def directions(self) -> List[str]:
        own = ["maximize" if o.maximize else "minimize" for o in self.objectives]
        if self.each_target:
            return own + ["minimize"] * len(self.targets)
        return own or ["minimize"]

    @property
    def total_matches(self) -> int:
        """Matches this run plays: the candidates, then the finalists and the base."""
        return self.trials * self.matches + (self.confirm + 1) * self.confirm_matches


def _check_budget(trials: int, matches: int, confirm: int, confirm_matches: int) -> None:
    for name, value, least in (
        ("--trials", trials, 1),
        ("--matches", matches, 1),
        ("--confirm", confirm, 1),
        ("--confirm-matches", confirm_matches, 1),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ValueError(f"{name} must be a whole number >= {least}, not {value!r}")
    if confirm_matches < matches:
        raise ValueError(
            f"--confirm-matches {confirm_matches} is below --matches {matches}: the re-play "
            "must be the larger sample"
        )


def plan_tune(
    game: Union[str, Game],
    vary: Union[Sequence[str], Mapping[str, Tuple[Number, Number]]],
    targets: Sequence[str] = (),
    objectives: Sequence[str] = (),
    *,
    seats: Any = None,
    base_rules: Optional[Any] = None,
    options: Optional[Mapping[str, Any]] = None,
    trials: int = 20,
    matches: int = 200,
    confirm: int = 3,
    confirm_matches: Optional[int] = None,
    seed: int = 0,
    each_target: bool = False,
    change_penalty: float = 0.001,
    study: Optional[str] = None,
    storage: Optional[str] = None,
    workers: Optional[int] = None,
    client: Any = None,
) -> TunePlan:
    """Check every input of a search (nothing is played, no storage opened).

    :raises ValueError: one line naming the bad value: an unknown game, seat, bot or
        metric, a rule that is not a number of the game, an empty range or a bound the
        game refuses, a malformed target or objective, an impossible budget.
    """
    confirm_matches = 5 * matches if confirm_matches is None else confirm_matches
    _check_budget(trials, matches, confirm, confirm_matches)
    if not (isinstance(change_penalty, (int, float)) and math.isfinite(change_penalty)):
        raise ValueError(f"--change-penalty must be a number, not {change_penalty!r}")
    if change_penalty < 0:
        raise ValueError(f"--change-penalty must be >= 0, not {change_penalty}")
    lab = Candidates(
        game, seats=seats, base_rules=base_rules, options=options, workers=workers, client=client
    )
    known = {n: (r.type, r.default) for n, r in lab.rules.items()}
    texts = (
        [f"{n}={lo}..{hi}" for n, (lo, hi) in vary.items()]
        if isinstance(vary, Mapping)
        else list(vary)
    )
    others = [n for n in lab.base.rules.to_dict() if n not in known]  # e.g. a list of names
    ranges = tuple(parse_vary(t, known, others) for t in texts)
    if not ranges:
        raise ValueError("--vary: give at least one rule number and its range (NAME=LOW..HIGH)")
    names = [v.name for v in ranges]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"--vary names {', '.join(twice)} twice")
    for v in ranges:  # the game's own limits, at each end of the range
        for end in (v.low, v.high):
            try:
                lab.build({v.name: end})
            except ValueError as exc:
                raise ValueError(f"--vary {v.name}={v.low}..{v.high}: {exc}") from None
    metrics = lab.metric_names()
    wanted = tuple(parse_target(t, metrics) for t in targets)
    goals = tuple(parse_objective(o, metrics) for o in objectives)
    if not wanted and not goals:
        raise ValueError("give at least one --target or --objective: there is nothing to seek")
    if each_target and not wanted:
        raise ValueError("--each-target needs at least one --target")
    defaults = {v.name: lab.rules[v.name].default for v in ranges}
    spec = fingerprint(
        game=lab.game,
        seats={str(k): b for k, b in sorted(lab.chosen.items())},
        base=lab.hooks.overrides(lab.base.rules),
        options=lab.options,
        vary={v.name: [v.low, v.high] for v in ranges},
        targets=[t.text for t in wanted],
        objectives=[o.text for o in goals],
        each_target=each_target,
        matches=matches,
        seed=seed,
        change_penalty=change_penalty,
    )
    return TunePlan(
        lab,
        ranges,
        wanted,
        goals,
        each_target,
        trials,
        matches,
        confirm,
        confirm_matches,
        seed,
        float(change_penalty),
        storage or DEFAULT_STORAGE,
        study or default_study_name(spec),
        spec,
        defaults,
    )
