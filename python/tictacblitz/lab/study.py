"""The extra runs that answer a designer's question, played on the main run's very match
seeds and folded in pairs, match by match (:mod:`~tictacblitz.lab.paired`):

- **A/B** (``base``): the same matches under the base rules (the game's defaults, or
  given). Result: each side and the difference *variant − base* of every metric, with a
  paired 95 % interval.
- **Swapped seats** (``swap_seats``, two different bots): every seed also played with the
  bots' seats exchanged. Over both assignments, the first seat's share of decided
  matches is the *seat advantage* (the bots' strength cancels) and the first bot's share
  is its *strength* (the seat cancels).
- **Ablation** (``ablate``): for each optional feature of the game (its ``ablations``
  hook: Blitz's powerups, each with its weight set to 0), the same matches without it.
  Result: the feature's effect *with − without* on every metric, paired. Unlike
  comparing the rounds where a seat claimed a powerup with those where it did not (a
  seat that is ahead reaches more cells), this is a cause: nothing else changed.

The main run's records and summary are not touched by any of this.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Union

from .hooks import GameHooks
from .jobs import SimulationJob, resolve_game
from .paired import PairedRatios, match_values
from .seating import num_players, seat_keys
from .seats import seat_verdict
from .stats import adjust
from .summary import Summary

__all__ = ["Extra", "plan_extras", "resized_extras", "Study", "ablation_names"]


class Extra(NamedTuple):
    """One extra run: its role (``base``, ``swapped``, ``ablation``), name and job."""

    role: str
    name: str
    job: SimulationJob


def ablation_names(hooks: GameHooks, rules: Any) -> Dict[str, Dict[str, Any]]:
    """The game's optional features that can be switched off under ``rules``: ``{name:
    rule overrides that switch it off}`` (its ``ablations(rules)`` hook; none without)."""
    hook = hooks.get("ablations")
    return dict(hook(rules)) if hook is not None else {}


def _with(job: SimulationJob, **changes: Any) -> SimulationJob:
    return replace(job, **changes)  # the job's checked fields as they are (issue 27, item 5)


def resized_extras(extras: Sequence[Extra], job: SimulationJob) -> List[Extra]:
    """``extras`` with the main ``job``'s number of matches and chunk size (``simulate
    --precision`` fixes N after the extras are planned): the same seeds, match by match."""
    return [e._replace(job=e.job.resized(job.matches, job.chunk_size)) for e in extras]


def same_seats(hooks: GameHooks, base_game: Any, job: SimulationJob) -> Any:
    """The A/B's base with the run's number of seats (issue 25): an A/B pairs the same
    seats match by match, so where the base rules would seat another number of players
    (``--rule players=3`` against the defaults), the run's rule overrides that set the
    number of players are applied to the base too (found by trying each one: no rule
    is named here); a base that then is the run itself is no A/B (``--rule players=3``
    alone). A comparison across player counts is a sweep's (docs/simulate.md)."""
    if num_players(base_game) == job.players:
        return base_game
    for name, value in hooks.overrides(job.rules).items():
        moved = base_game.with_rules({name: value})
        if num_players(moved) != num_players(base_game):
            base_game = moved
    return base_game


def plan_extras(
    job: SimulationJob,
    base: Optional[Any] = None,
    swap_seats: bool = False,
    ablate: Union[None, str, Sequence[str]] = None,
) -> List[Extra]:
    """The extra runs of :mod:`this module <tictacblitz.lab.study>` for ``job``.

    ``base``: ``None`` (no A/B), a dict of rule overrides (``{}``: the game's defaults)
    or the game's rules object. ``swap_seats``: play each seed with the seats exchanged
    too (ignored when both seats have the same bot, and with more than two seats: the
    tournament rotates bots through N seats, docs/simulate.md). ``ablate``: ``"all"`` or feature
    names of the game's ``ablations`` hook.

    :raises ValueError: for a bad base rule or an unknown feature (naming the known ones).
    """
    hooks = job.hooks
    extras: List[Extra] = []
    if base is not None:
        _, base_game = resolve_game(hooks.name, base)
        seated = same_seats(hooks, base_game, job)
        hooks.check_rules(seated.rules)
        if seated is base_game or seated.rules != job.rules:  # else: the run itself
            extras.append(Extra("base", "base", _with(job, rules=seated.rules)))
    if swap_seats and job.players == 2 and job.x_name != job.o_name:
        extras.append(
            Extra(
                "swapped",
                "swapped",
                _with(job, bots=job.bots[::-1], names=job.names[::-1]),
            )
        )
    if ablate:
        features = ablation_names(hooks, job.rules)
        names = list(features) if ablate == "all" else list(ablate)
        if not features:
            raise ValueError(
                f"--ablate: game {hooks.name!r} has no feature to switch off under these rules"
            )
        _, game = resolve_game(hooks.name, job.rules)  # the job's rules, taken as they are
        for name in names:
            if name not in features:
                raise ValueError(
                    f"--ablate {name!r}: unknown feature; expected one of {', '.join(features)}"
                )
            try:
                off = game.with_rules(features[name]).rules
            except (TypeError, ValueError) as exc:
                raise ValueError(f"--ablate {name}: {exc}") from None
            extras.append(Extra("ablation", name, _with(job, rules=off)))
    return extras


def _renamed(table: Dict[str, Dict[str, Any]], a: str, b: str) -> Dict[str, Dict[str, Any]]:
    return {
        m: {
            a: r["a"],
            f"{a}_ci": r["a_ci"],
            b: r["b"],
            f"{b}_ci": r["b_ci"],
            "difference": r["difference"],
            "ci": r["ci"],
            "significant": r["significant"],
            "p": r["p"],
            "width_ratio": r["width_ratio"],  # the pairing gain (issue 22)
            "paired": r["paired"],
        }
        for m, r in table.items()
    }


class Study:
    """Folds the main run and its extras chunk by chunk (the same match indices)."""

    def __init__(self, job: SimulationJob, extras: Sequence[Extra]) -> None:
        self.job = job
        self.extras = list(extras)
        self.summaries = [Summary(e.job.rules, job.game) for e in self.extras]
        self.pairs = [PairedRatios() for _ in self.extras]
        # the seats' keys, once: fold runs per chunk (the job knows its seat count)
        self.keys = seat_keys(job.hooks.type.seat_names, job.players)

    def fold(self, main: Dict[str, Any], others: Sequence[Dict[str, Any]]) -> None:
        """Add chunk ``i`` of the main run and of every extra run (in plan order)."""
        if not self.extras:
            return
        game, keys = self.job.game, self.keys
        mine = match_values(main, game, keys)
        for extra, summary, pair, cols in zip(
            self.extras, self.summaries, self.pairs, others, strict=False
        ):
            summary.add(cols)
            theirs = match_values(cols, game, keys)
            if extra.role == "swapped":
                xa, da = mine["x_share_of_decided"][:2]
                xb, db = theirs["x_share_of_decided"][:2]
                ob = theirs["o_win_rate"][0]
                pair.add(
                    {"seat": (xa, da, 1.0), "bot": (xa, da, 1.0)},
                    {"seat": (xb, db, 1.0), "bot": (ob, db, 1.0)},
                )
            else:
                pair.add(mine, theirs)

    def _side(self, k: int) -> Dict[str, Any]:
        extra, hooks = self.extras[k], self.job.hooks
        out = self.summaries[k].to_dict()
        out.update(rules=hooks.overrides(extra.job.rules))
        out.update({f"{k}_bot": n for k, n in zip(self.keys, extra.job.names, strict=True)})
        return out

    def result(self, hooks: GameHooks) -> Dict[str, Any]:
        """What the extras add to the main summary: ``comparison``, ``seat_swap``,
        ``ablation`` (JSON-ready; shares as fractions)."""
        out: Dict[str, Any] = {}
        for k, extra in enumerate(self.extras):
            pair = self.pairs[k]
            if extra.role == "base":
                out["comparison"] = {
                    "paired_by_seed": True,
                    "matches": pair.n,
                    "variant_rules": hooks.overrides(self.job.rules),
                    "base_rules": hooks.overrides(extra.job.rules),
                    "base": self._side(k),
                    "differences": _renamed(pair.table(), "variant", "base"),
                }
                out["comparison"]["adjustment"] = adjust(
                    list(out["comparison"]["differences"].values())
                )
            elif extra.role == "swapped":
                seat, seat_ci = pair.pooled("seat")
                bot, bot_ci = pair.pooled("bot")

                def off_half(ci: Optional[List[float]]) -> bool:
                    return bool(ci is not None and (ci[0] > 0.5 or ci[1] < 0.5))

                # bot: (A's wins as X, decided, A's wins as O, decided) of both runs
                a_as_x, first_a, a_as_o, first_b = (pair.sums.get("bot") or [0, 0, 0, 0])[:4]
                measurable, why, possible = seat_verdict(a_as_x + a_as_o, first_a, first_b, seat_ci)
                out["seat_swap"] = {
                    "paired_by_seed": True,
                    "matches_each": pair.n,
                    "bots": [self.job.x_name, self.job.o_name],
                    "seat_advantage": {
                        "x_share_of_decided": seat,
                        "ci": seat_ci,
                        "significant": measurable and off_half(seat_ci),
                        "measurable": measurable,
                        "not_measurable_because": why,
                        "possible_range": list(possible),
                    },
                    "bot_strength": {
                        "bot": self.job.x_name,
                        "share_of_decided": bot,
                        "ci": bot_ci,
                        "significant": off_half(bot_ci),
                    },
                    "swapped": self._side(k),
                }
            else:
                ab = out.setdefault(
                    "ablation",
                    {
                        "paired_by_seed": True,
                        "matches": pair.n,
                        "how": hooks.get("ABLATION_NOTE")
                        or "the feature switched off by the game's rules",
                        "features": {},
                    },
                )
                ab["features"][extra.name] = {
                    "rules_off": hooks.overrides(extra.job.rules),
                    "effects": _renamed(pair.table(), "with", "without"),
                }
        if "ablation" in out:  # one family: every metric of every feature
            features = out["ablation"]["features"].values()
            out["ablation"]["adjustment"] = adjust(
                [e for f in features for e in f["effects"].values()]
            )
        return out
