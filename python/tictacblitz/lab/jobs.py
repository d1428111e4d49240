"""A simulation job: what determines its records (game, rules, bots, N, seed), how it is
cut into chunks, and :func:`play_chunk`, the pure function that plays one chunk (what a
thread or a Dask task runs).

A job is game-agnostic: the game is a registry name, its rules the game's validated
rules object, its bots whatever the game's hooks accept (docs/simulate.md, "A game's
balance hooks"); a chunk is played by the game's native ``play_matches``.

:func:`prepare` is the one place a job's arguments are checked: the
:class:`SimulationJob` it returns is immutable and travels as it is from the command line
(or :func:`~tictacblitz.lab.simulation.simulate`) through the extra runs, the runner and
the Dask payload to the game's ``play_matches``; nothing downstream checks its rules,
bots or options again (issue 27, item 5: the CLI's ``simulate`` used to prepare one job
three times and plan its extra runs twice).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ..games.base import with_rules_object
from ..games.protocol import Game
from ..games.registry import DEFAULT_GAME
from ..games.rng import check_seed
from .hooks import GameHooks, hooks_for
from .seating import num_players, seat_keys
from .seeds import match_seeds

__all__ = [
    "SimulationJob",
    "prepare",
    "play_chunk",
    "resolve_game",
    "default_workers",
    "default_chunk_size",
    "int_arg",
    "seat_list",
]


@dataclass(frozen=True)
class SimulationJob:
    """Everything that determines a simulation's records (not how it is run), checked
    once by :func:`prepare`: frozen, its options a read-only mapping."""

    game: str
    rules: Any
    bots: Tuple[Any, ...]  # one a seat, what the game's play_matches takes
    names: Tuple[str, ...]  # the bots' names, one a seat
    matches: int
    seed: int
    chunk_size: int
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.options, MappingProxyType):
            object.__setattr__(self, "options", MappingProxyType(dict(self.options)))

    @property
    def hooks(self) -> GameHooks:
        return hooks_for(self.game)

    @property
    def players(self) -> int:
        return len(self.bots)

    @property
    def seat_keys(self) -> Tuple[str, ...]:
        """The keys of the job's seats (:func:`~.seating.seat_keys`), from its bots: one
        a seat (the game's rules are not rebuilt to count them)."""
        return seat_keys(self.hooks.type.seat_names, self.players)

    def resized(self, matches: int, chunk_size: int) -> "SimulationJob":
        """The same job with another number of matches and chunk size (``simulate
        --precision`` fixes N after the job is checked; N and the chunk size were checked
        by the caller, :func:`int_arg`)."""
        return replace(self, matches=matches, chunk_size=chunk_size)

    def on_rules(
        self,
        game: Game,
        matches: int,
        seed: int,
        *,
        workers: int = 1,
        chunk_size: Optional[int] = None,
    ) -> "SimulationJob":
        """The same job (its bots and options as :func:`prepare` checked them) on
        ``game``, this job's game under other rules seating as many players (a rule
        candidate: :class:`~tictacblitz.lab.candidates.Candidates`), with ``matches``
        and master ``seed``: only what changed is checked, as :func:`prepare` checks it
        (N, workers, seed, the rules by the game's ``check_rules`` hook, the chunk size).

        :raises ValueError: as :func:`prepare`, or for a game of another name or seat
            count (the caller prepares that job afresh).
        """
        matches = int_arg("matches", matches, 1)
        workers = int_arg("workers", workers, 1)
        seed = check_seed(seed)
        if game.type.name != self.game or num_players(game) != self.players:
            raise ValueError(
                f"a {game.type.name} game of {num_players(game)} seats is not a variant of "
                f"this {self.game} job of {self.players}: prepare its own job"
            )
        self.hooks.check_rules(game.rules)
        if chunk_size is None:
            chunk_size = default_chunk_size(matches, workers, self.slow)
        chunk_size = int_arg("chunk_size", chunk_size, 1)
        return replace(
            self, rules=game.rules, matches=matches, seed=int(seed), chunk_size=chunk_size
        )

    @property
    def slow(self) -> bool:
        """Whether a seat's bot is slow (the game's ``slow_bot`` hook): small chunks."""
        return any(self.hooks.slow_bot(bot) for bot in self.bots)

    @property
    def x(self) -> Any:  # seat 0's bot: the two-seat studies (A/B, swapped seats)
        return self.bots[0]

    @property
    def o(self) -> Any:
        return self.bots[1]

    @property
    def x_name(self) -> str:
        return self.names[0]

    @property
    def o_name(self) -> str:
        return self.names[1]

    @property
    def chunks(self) -> int:
        return -(-self.matches // self.chunk_size)

    def payload(self) -> Dict[str, Any]:
        """What a worker needs (:func:`play_chunk`): picklable, no live objects. The
        rules go as the validated rules object (a frozen value: unpickling it checks
        nothing again), not as a dict to validate on the worker."""
        return {
            "game": self.game,
            "rules": self.rules,
            "bots": list(self.bots),
            "matches": self.matches,
            "seed": self.seed,
            "chunk_size": self.chunk_size,
            "options": dict(self.options),
        }


def int_arg(name: str, value: Any, minimum: int) -> int:
    """``value`` as an int >= ``minimum``. :raises ValueError: naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, not {value!r}")
    return int(value)


def default_workers() -> int:
    """Every core this process may run on (its CPU affinity; the CPU count elsewhere).

    The native steppers' ``blitz_core.common.batch_args.usable_cores`` counts the same
    way; the lab does not import it (it imports without any native build, and names no
    native package: tests/test_architecture.py, tests/test_lab_layout.py), so
    tests/test_one_source.py ties the two."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def default_chunk_size(matches: int, workers: int, slow: bool) -> int:
    """Enough chunks for a smooth progress bar and an even load (about 8 per worker),
    but big enough that a chunk's Python overhead is small; small chunks for a slow
    bot (a game's ``slow_bot`` hook, e.g. a search ~1,000 times slower than greedy)."""
    most = 8 if slow else 2000
    least = 1 if slow else 64
    return max(1, min(most, max(least, -(-matches // (workers * 8)))))


def resolve_game(
    game: Union[str, Game] = DEFAULT_GAME, rules: Optional[Any] = None
) -> Tuple[GameHooks, Game]:
    """(hooks, game) for a game name or object, with ``rules`` applied: ``None``, a dict
    of overrides (validated by the game), or the game's own rules object (validated when
    it was made: taken as it is).

    :raises ValueError: for an unknown game or a bad rule (naming it).
    """
    if isinstance(game, str):
        hooks = hooks_for(game)
        base = hooks.default_game
    elif hasattr(game, "type") and hasattr(game, "with_rules"):
        hooks = hooks_for(game.type.name)
        base = game
    else:
        raise ValueError(
            f"game must be a registered game's name or a Game, not {type(game).__name__}"
        )
    try:
        if rules is None:
            return hooks, base
        if isinstance(rules, Mapping):
            return hooks, base.with_rules(dict(rules))
        if isinstance(rules, type(base.rules)):
            return hooks, with_rules_object(base, rules)
    except TypeError as exc:
        raise ValueError(str(exc)) from None
    raise ValueError(
        f"rules must be a {type(base.rules).__name__} or a dict of overrides, "
        f"not {type(rules).__name__}"
    )


def _bot(hooks: GameHooks, seat: str, bot: Any) -> Tuple[Any, str]:
    try:
        return hooks.resolve_bot(bot)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{seat}: {exc}") from None


def seat_list(
    hooks: GameHooks, game: Game, x: Any, o: Any, bots: Optional[Sequence[Any]]
) -> List[Any]:
    """One bot a seat of ``game`` (``game.num_players`` of them): ``bots`` when given,
    else ``x`` and ``o`` for seats 0 and 1; the game's default bot where none is named.
    :raises ValueError: when ``bots`` is not one a seat, or is given with ``x``/``o``."""
    players = num_players(game)
    if bots is None:
        return [x, o, *([None] * (players - 2))]
    if x is not None or o is not None:
        raise ValueError("give the bots either as x/o or as bots (one a seat), not both")
    listed = list(bots) if not isinstance(bots, (str, bytes)) else [bots]
    if len(listed) != players:
        raise ValueError(
            f"bots: {len(listed)} given, but this game has {players} seats "
            f"({', '.join(game.type.seat_names[:players])}): one bot a seat"
        )
    return listed


def prepare(
    matches: int,
    x: Any = None,
    o: Any = None,
    rules: Optional[Any] = None,
    seed: int = 0,
    *,
    game: Union[str, Game] = DEFAULT_GAME,
    workers: int = 1,
    chunk_size: Optional[int] = None,
    options: Optional[Mapping[str, Any]] = None,
    bots: Optional[Sequence[Any]] = None,
    seat_labels: Optional[Sequence[str]] = None,
) -> SimulationJob:
    """Validate a simulation's arguments and fix its chunks (no match is played).
    ``bots``: one bot a seat of the game under ``rules`` (``Game.num_players``); or
    ``x``/``o``, the bots of seats 0 and 1; a seat without one gets the game's
    ``DEFAULT_BOT``. ``options`` are passed on to the game's ``play_matches`` as keywords.
    ``seat_labels``: how a bad bot's seat is named (the command line: the option that
    gave it, ``--x``; default: the seat's key, ``x``).

    :raises ValueError: for an unknown game or bot, a bad rule, N < 1, workers < 1, chunk
        size < 1, or rules the game's runner cannot record.
    """
    matches = int_arg("matches", matches, 1)
    workers = int_arg("workers", workers, 1)
    seed = check_seed(seed)
    hooks, the_game = resolve_game(game, rules)
    hooks.check_rules(the_game.rules)
    keys = seat_labels or seat_keys(the_game.type.seat_names, num_players(the_game))
    resolved = [
        _bot(hooks, key, hooks.default_bot if bot is None else bot)
        for key, bot in zip(keys, seat_list(hooks, the_game, x, o, bots), strict=True)
    ]
    job = SimulationJob(
        hooks.name,
        the_game.rules,
        tuple(b for b, _ in resolved),
        tuple(n for _, n in resolved),
        matches,
        int(seed),
        1,
        dict(options or {}),
    )
    if chunk_size is None:
        chunk_size = default_chunk_size(matches, workers, job.slow)
    return job.resized(matches, int_arg("chunk_size", chunk_size, 1))


def play_chunk(payload: Dict[str, Any], index: int) -> Dict[str, Any]:
    """Play chunk ``index`` of a job (:meth:`SimulationJob.payload`): the columns of the
    game's ``play_matches`` plus ``start`` and ``seeds``. A pure function of its
    arguments (what a Dask task runs; a retry gives the same)."""
    name, rules = payload["game"], payload["rules"]
    start = index * payload["chunk_size"]
    count = min(payload["chunk_size"], payload["matches"] - start)
    seeds = match_seeds(payload["seed"], start, count)
    cols = hooks_for(name).play_matches(
        rules, tuple(payload["bots"]), seeds, **payload.get("options", {})
    )
    cols["start"] = start
    cols["seeds"] = seeds
    return cols
