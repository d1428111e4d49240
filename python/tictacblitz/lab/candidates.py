"""Measure one rule set: the step a rule search (``tune``) and a sensitivity analysis
repeat for every candidate (issue 24, items 1 and 2).

A *candidate* is the base rules with a few numbers changed (``{"set_ms": 1200}``;
``outer.inner`` names change one entry of a nested rule, as in a sweep). It is played
through the lab's one runner (:func:`~tictacblitz.lab.simulation.run_simulation`, what
``simulate`` plays with: threads, or a Dask cluster with ``client``) on the match
seeds of a master seed, so every candidate measured with the same seed plays the same
seeds (common random numbers: differences between candidates come from the rules, not
from luck, as in a sweep and the paired A/B). Its answer is every metric the lab reports
with a 95 % interval for the game
(:func:`~tictacblitz.lab.cost.precision_metrics`: the lab's win rates and seat shares
plus the game's ``PRECISION_METRICS`` hook), as :class:`Estimate` values.

:class:`Candidates` does the set-up once (the game, its base rules, the seats' bots
checked and resolved in one prepared job, the rule kinds), so a loop over candidates only
builds each rule set and checks it (:meth:`~tictacblitz.lab.jobs.SimulationJob.on_rules`):

>>> lab = Candidates("doh", seats=["all=greedy"])
>>> got = lab.measure({"pieces_per_size": 3}, matches=20, seed=1)
>>> got["game_length"].unit, got["game_length"].low <= got["game_length"].value
('plies', True)
>>> tunable_rules("doh")["pieces_per_size"].default
5
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

from ..games.players import player_model
from ..games.protocol import Game
from .cost import metric_interval, precision_metrics
from .grid import apply_point
from .hooks import GameHooks
from .jobs import SimulationJob, default_workers, prepare, resolve_game
from .seating import EVERY, num_players, parse_seat, point_seats, seat_choices, summary_keys
from .simulation import run_simulation
from .units import label, unit

__all__ = [
    "Estimate",
    "RuleSpec",
    "Candidates",
    "tunable_rules",
    "measure",
    "estimates",
    "missing",
    "Number",
]

Number = Union[int, float]


class Estimate(NamedTuple):
    """A metric of a candidate: its value, its 95 % interval ``[low, high]`` (all None
    when the run has none, e.g. a seat's share of decided matches with nothing decided),
    its unit (``share``: a fraction shown as a percentage; ``plies``, ``s``...) and the
    words a designer reads."""

    value: Optional[float]
    low: Optional[float]
    high: Optional[float]
    unit: str
    label: str

    @property
    def known(self) -> bool:
        return self.value is not None and self.low is not None and self.high is not None


class RuleSpec(NamedTuple):
    """A rule number a search may vary: its type (int or float), its value in the base
    rules, and its legal ``(low, high)`` when the game says (its optional balance hook
    ``rule_ranges(rules) -> {name: (low, high)}``), else None: the game's rules then
    refuse an illegal value when a candidate is built."""

    type: type
    default: Number
    range: Optional[Tuple[Number, Number]]


def _value_at(rules: Dict[str, Any], name: str) -> Any:
    outer, dot, inner = name.partition(".")
    value = rules.get(outer)
    return value.get(inner) if dot and isinstance(value, dict) else value


def tunable_rules(game: Union[str, Game], base_rules: Optional[Any] = None) -> Dict[str, RuleSpec]:
    """``{name: RuleSpec}`` of every rule number of ``game`` a search may vary (the
    game's ``sweepable`` hook), defaults taken from ``base_rules`` (a dict of overrides
    or the game's rules object; None: the game's defaults).

    :raises ValueError: for an unknown game or a bad base rule (naming it).
    """
    hooks, base = resolve_game(game, base_rules)
    current = base.rules.to_dict()
    ranges = dict(hooks.get("rule_ranges", lambda rules: {})(base.rules))
    out: Dict[str, RuleSpec] = {}
    for name, kind in hooks.sweepable().items():
        known = ranges.get(name)
        out[name] = RuleSpec(
            kind,
            _value_at(current, name),
            None if known is None else (kind(known[0]), kind(known[1])),
        )
    return out


SeatsGiven = Union[None, Mapping[Any, Any], Sequence[str]]


def _chosen_seats(hooks: GameHooks, seats: SeatsGiven) -> Dict[int, Any]:
    """``{seat index (EVERY: all): bot}`` from ``seats``: ``--seat`` texts
    (``["all=greedy", "2=random"]``) or a mapping ``{seat name, number from 1, or index
    (an int from 0, :data:`~.seating.EVERY` for all): bot}``.
    :raises ValueError: one line naming a bad seat or bot."""
    if seats is None:
        return {}
    if isinstance(seats, Mapping):
        triples = []
        for seat, bot in seats.items():
            where = str(seat)
            if isinstance(seat, int):  # an index from 0 (EVERY: every seat not named)
                where = "all" if seat == EVERY else str(seat + 1)
            triples.append(("--seat", where, str(bot)))
    else:
        triples = [("--seat", *parse_seat(text)) for text in seats]
    model = player_model(hooks.name)
    check = model.resolve if model is not None else None
    chosen = seat_choices(triples, hooks.type.seat_names, hooks.bot_names, check)
    return {k: bot for k, (bot, _) in chosen.items()}


class Candidates:
    """One game, base rules and seats, measured at many rule sets (see the module doc).

    ``seats``: the bots, as ``--seat`` gives them (``["all=greedy:reaction=250ms"]``, a
    player spec of the game's model) or ``{seat: bot}``; a seat nobody names plays the
    game's default bot. ``options``: the game's runner options (e.g. Doh's opening).
    ``client``: a ``dask.distributed.Client`` to play on; else ``workers`` threads
    (default: every core).

    :raises ValueError: for an unknown game, a bad base rule, seat or bot (one line).
    """

    def __init__(
        self,
        game: Union[str, Game],
        *,
        seats: SeatsGiven = None,
        base_rules: Optional[Any] = None,
        options: Optional[Mapping[str, Any]] = None,
        workers: Optional[int] = None,
        client: Any = None,
        chunk_size: Optional[int] = None,
    ) -> None:
        self.hooks, self.base = resolve_game(game, base_rules)
        self.game = self.hooks.name
        self.chosen = _chosen_seats(self.hooks, seats)
        self.options = self.hooks.check_options(dict(options or {}))
        self.workers = default_workers() if workers is None else workers
        self.client = client
        self.chunk_size = chunk_size
        self.rules = tunable_rules(self.base)
        # The seats' bots checked and resolved once, here: each candidate's job is this
        # one on its rules (SimulationJob.on_rules: its rules checked, nothing else);
        # a candidate that changes the number of seats (Doh's players) prepares its own
        # (issue 27, item 5: every measure used to prepare the job afresh).
        self.job = prepare(
            1,
            bots=self.bots(self.base),
            game=self.base,
            workers=self.workers,
            options=self.options,
        )

    def bots(self, game: Game) -> Sequence[Any]:
        """One bot a seat of ``game`` (a candidate may seat more or fewer players)."""
        return point_seats(self.hooks, game, self.chosen)

    def build(self, overrides: Mapping[str, Number]) -> Game:
        """The base game with ``overrides`` applied and validated by the game.

        :raises ValueError: for a name that is not a tunable rule number, or a value the
            game's rules refuse (naming the rule and the value).
        """
        for name, value in overrides.items():
            if name not in self.rules:
                raise ValueError(
                    f"unknown rule {name!r} for {self.game}; "
                    f"tunable: {', '.join(sorted(self.rules))}"
                )
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"rule {name}={value!r}: not a number")
        try:
            return apply_point(self.base, dict(overrides))
        except ValueError as exc:
            raise ValueError(str(exc).replace("sweep point ", "rules ", 1)) from None

    def metric_names(self, game: Optional[Game] = None) -> Tuple[str, ...]:
        """The metrics :meth:`measure` reports for ``game`` (default: the base rules)."""
        g = self.base if game is None else game
        return tuple(precision_metrics(self.game, self.hooks.seat_keys(g.rules)))

    def measure(
        self,
        overrides: Mapping[str, Number],
        matches: int,
        seed: int,
        *,
        on_chunk: Optional[Callable[[int, Dict[str, Any]], None]] = None,
    ) -> Dict[str, Estimate]:
        """Play ``matches`` matches of the candidate on the seeds of master ``seed`` and
        return ``{metric: Estimate}``.

        :raises ValueError: for a bad candidate (nothing is played).
        :raises Interrupted: on Ctrl-C.
        """
        return self.measure_summary(overrides, matches, seed, on_chunk=on_chunk)[0]

    def measure_summary(
        self,
        overrides: Mapping[str, Number],
        matches: int,
        seed: int,
        *,
        on_chunk: Optional[Callable[[int, Dict[str, Any]], None]] = None,
    ) -> Tuple[Dict[str, Estimate], Dict[str, Any]]:
        """:meth:`measure` and the run's whole summary (``simulate --json``'s)."""
        job = self.job_of(self.build(overrides), matches, seed)
        _, summary = run_simulation(
            job, workers=self.workers, client=self.client, table=False, on_chunk=on_chunk
        )
        return estimates(summary, self.game), summary

    def job_of(self, game: Game, matches: int, seed: int) -> SimulationJob:
        """The checked job of a built candidate (:meth:`build`), checked once: the base
        job on its rules, or, for a candidate seating another number of players, its own.

        :raises ValueError: for a bad N or seed, or rules the game's runner refuses."""
        if num_players(game) == self.job.players:
            return self.job.on_rules(
                game, matches, seed, workers=self.workers, chunk_size=self.chunk_size
            )
        return prepare(
            matches,
            seed=seed,
            game=game,
            bots=self.bots(game),
            workers=self.workers,
            chunk_size=self.chunk_size,
            options=self.options,
        )


def missing(name: str, game: str) -> Estimate:
    """The :class:`Estimate` of a metric a run does not report (e.g. X's win rate when a
    candidate seats three players): no value, no interval."""
    return Estimate(None, None, None, unit(name, game), label(name, game))


def estimates(summary: Dict[str, Any], game: str) -> Dict[str, Estimate]:
    """Every interval metric of a ``simulate`` summary as :class:`Estimate` values."""
    out: Dict[str, Estimate] = {}
    for name in precision_metrics(game, summary_keys(summary)):
        value, ci = metric_interval(summary, name, game)
        low, high = (None, None) if ci is None else (ci[0], ci[1])
        out[name] = Estimate(value, low, high, unit(name, game), label(name, game))
    return out


def measure(
    game: Union[str, Game],
    overrides: Mapping[str, Number],
    matches: int,
    seed: int = 0,
    *,
    seats: SeatsGiven = None,
    base_rules: Optional[Any] = None,
    workers: Optional[int] = None,
    client: Any = None,
) -> Dict[str, Estimate]:
    """One candidate measured: :class:`Candidates` (``game``, ``seats``,
    ``base_rules``) then :meth:`Candidates.measure`. In a loop, make the
    :class:`Candidates` once instead."""
    lab = Candidates(game, seats=seats, base_rules=base_rules, workers=workers, client=client)
    return lab.measure(overrides, matches, seed)
