"""The lab's per-game adapter: :class:`LabAdapter`, what the lab needs of a game beyond
the protocol (issue 27, item 1).

Each game's lab-facing code lives in ``tictacblitz.lab.games.<game>`` (a module, or a
package whose ``__init__`` holds the adapter), which defines exactly one subclass of
:class:`LabAdapter`; the lab finds it with
:func:`~tictacblitz.games.adapters.adapter_class` (through
:func:`~tictacblitz.lab.hooks.hooks_for`, the one accessor). Only :meth:`play_matches`
is required; every other hook below has a default that works for any game. A subclass
whose public name is a near miss of a hook (``PAIR_MEAN``, ``record_field``) or whose
hook is of the wrong kind fails when the class is defined, not silently later.

An adapter may import the game's public modules (``game``, ``rules``, ``bots``,
``types``, its native core); a game imports nothing of the lab.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, ClassVar, Dict, Optional, Sequence, Tuple

from ..games.adapters import AdapterError, check_overrides
from ..games.base import with_rules_object
from ..games.players import player_model
from ..games.protocol import Game, GameType
from ..games.registry import game_type, load_game
from .metric import Metric, columns, metric_rows, metric_table, panels, precision_paths
from .seating import seat_keys

__all__ = ["LabAdapter", "HOOKS"]

FUNCTION, MAPPING, SEQUENCE, TEXT = "a callable", "a mapping", "a tuple or list", "a string"

HOOKS: Dict[str, str] = {
    "play_matches": FUNCTION,
    "resolve_bot": FUNCTION,
    "describe_bot": FUNCTION,
    "slow_bot": FUNCTION,
    "DEFAULT_BOT": TEXT,
    "TOURNAMENT_BOTS": SEQUENCE,
    "GUI_LEVELS": SEQUENCE,
    "LADDER_BASELINES": SEQUENCE,
    "check_rules": FUNCTION,
    "sweepable": FUNCTION,
    "rule_ranges": FUNCTION,
    "RUNNER_OPTIONS": MAPPING,
    "check_options": FUNCTION,
    "record_fields": FUNCTION,
    "record_columns": FUNCTION,
    "CODE_COLUMNS": MAPPING,
    "Metrics": FUNCTION,
    "metrics": SEQUENCE,
    "metric_rows": FUNCTION,
    "summary_lines": FUNCTION,
    "match_values": FUNCTION,
    "METRICS": MAPPING,
    "PANELS": SEQUENCE,
    "SWEEP_COLUMNS": SEQUENCE,
    "REPORT_COLUMNS": SEQUENCE,
    "PRECISION_METRICS": MAPPING,
    "EFFECT_METRICS": SEQUENCE,
    "PAIR_MEANS": MAPPING,
    "ablations": FUNCTION,
    "ABLATION_NOTE": TEXT,
}
"""Every hook a game's adapter may give, and the kind of value it is: the one list of
them (:meth:`LabAdapter.get` refuses any other name)."""

_IS_KIND: Dict[str, Callable[[Any], bool]] = {
    FUNCTION: callable,
    MAPPING: lambda value: isinstance(value, Mapping),
    SEQUENCE: lambda value: isinstance(value, (tuple, list)),
    TEXT: lambda value: isinstance(value, str),
}

Columns = Dict[str, Any]


class LabAdapter:
    """A registered game seen by the lab: its hooks with the lab's defaults.

    Override, as class attributes or methods (defaults in brackets):

    - :meth:`play_matches` ``(rules, seat_bots, seeds, **options) -> columns``: whole
      games between bots in the game's native loop (dropping the GIL), one bot a seat,
      game i with seed ``seeds[i]``; the columns hold at least ``winner`` (the winning
      seat or -1, a draw). Required.
    - :meth:`resolve_bot`, :meth:`describe_bot`, :meth:`slow_bot`, ``DEFAULT_BOT``,
      ``TOURNAMENT_BOTS`` [a name of ``game.bot_names`` or a player spec of its model;
      ``{"name": bot}``; False; the first bot; every bot]; ``GUI_LEVELS``,
      ``LADDER_BASELINES`` [no ladder];
    - :meth:`check_rules` [none], :meth:`sweepable` [every number of the rules],
      ``rule_ranges(rules)`` [none]; ``RUNNER_OPTIONS`` and :meth:`check_options`
      [no options];
    - ``record_fields()``/``record_columns(cols)`` [every runner column], ``Metrics``
      (``rules -> add/merge/to_dict``) and ``match_values(cols)`` [column means, code
      shares], ``CODE_COLUMNS`` [none], ``summary_lines(s, pct, num)`` [none];
    - ``metrics``: the game's :class:`~tictacblitz.lab.metric.Metric` list, each metric
      declared once; ``METRICS``, ``PANELS``, ``SWEEP_COLUMNS``, ``REPORT_COLUMNS``,
      ``PRECISION_METRICS`` and ``metric_rows`` follow from it [none];
    - ``ablations(rules)``, ``ABLATION_NOTE``, ``EFFECT_METRICS``, ``PAIR_MEANS`` [none].

    An optional hook left at None is absent: the lab uses its own default.
    """

    DEFAULT_BOT: ClassVar[Optional[str]] = None
    TOURNAMENT_BOTS: ClassVar[Optional[Sequence[str]]] = None
    GUI_LEVELS: ClassVar[Sequence[str]] = ()
    LADDER_BASELINES: ClassVar[Sequence[Tuple[str, str]]] = ()
    RUNNER_OPTIONS: ClassVar[Mapping[str, Tuple[str, str]]] = {}
    CODE_COLUMNS: ClassVar[Optional[Mapping[str, Tuple[str, ...]]]] = None
    PAIR_MEANS: ClassVar[Mapping[str, str]] = {}
    EFFECT_METRICS: ClassVar[Optional[Sequence[str]]] = None
    ABLATION_NOTE: ClassVar[Optional[str]] = None
    metrics: ClassVar[Sequence[Metric]] = ()

    # optional callables: None is "the lab's default" (each is a plain function of the
    # adapter module, set with staticmethod, or a method)
    record_fields: ClassVar[Optional[Callable[..., Any]]] = None
    record_columns: ClassVar[Optional[Callable[..., Any]]] = None
    Metrics: ClassVar[Optional[Callable[..., Any]]] = None
    summary_lines: ClassVar[Optional[Callable[..., Any]]] = None
    match_values: ClassVar[Optional[Callable[..., Any]]] = None
    ablations: ClassVar[Optional[Callable[..., Any]]] = None
    rule_ranges: ClassVar[Optional[Callable[..., Any]]] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        check_overrides(cls, LabAdapter)  # a misspelled hook fails here (issue 27, item 1)
        wrong = [
            f"hook {name} is a {type(value).__name__}, expected {HOOKS[name]}"
            for name, value in vars(cls).items()
            if name in HOOKS
            and value is not None
            and not isinstance(value, (staticmethod, property))
            and not _IS_KIND[HOOKS[name]](value)
        ]
        if wrong:
            raise AdapterError(f"{cls.__module__}.{cls.__qualname__}: {'; '.join(wrong)}")

    def __init__(self, name: str) -> None:
        if type(self) is LabAdapter:  # the base alone has none of the game's hooks
            raise TypeError("a game's LabAdapter comes from tictacblitz.lab.hooks.hooks_for")
        self.name = name
        self.type: GameType = game_type(name)  # raises ValueError for an unknown game
        self.default_game: Game = load_game(name)

    def get(self, attr: str, default: Any = None) -> Any:
        """The hook ``attr``, else ``default`` when the game leaves it out (None).
        :raises KeyError: for a name not in :data:`HOOKS` (a misspelling in the lab)."""
        if attr not in HOOKS:
            raise KeyError(f"{attr!r} is no lab hook: declare it in tictacblitz.lab.adapter.HOOKS")
        value = getattr(self, attr)
        return default if value is None else value

    # -- the runner and bots -------------------------------------------------------------------
    def play_matches(
        self, rules: Any, seat_bots: Sequence[Any], seeds: Any, **options: Any
    ) -> Columns:
        raise ValueError(
            f"game {self.name!r} has no native batch runner: define play_matches(rules, "
            f"seat_bots, seeds) in its LabAdapter (tictacblitz/lab/games/{self.name})"
        )

    @property
    def bot_names(self) -> Tuple[str, ...]:
        return tuple(self.default_game.bot_names)

    def resolve_bot(self, bot: Any) -> Tuple[Any, str]:
        """(what ``play_matches`` takes, the bot's name). :raises ValueError, TypeError:"""
        if not isinstance(bot, str):
            raise TypeError(f"a bot is a name, not {type(bot).__name__}")
        model = player_model(self.name)
        if model is not None and bot not in self.bot_names:
            model.resolve(bot)  # a player spec (issue 23): ValueError naming it
            return bot, bot
        if bot not in self.bot_names:
            raise ValueError(f"unknown bot {bot!r}: expected one of {', '.join(self.bot_names)}")
        return bot, bot

    def check_bot(self, bot: Any) -> None:
        """A bot of the game: one of its names, or a player spec of its model (issue 23).
        :raises ValueError: one line naming it."""
        self.checked_bot(bot)

    def checked_bot(self, bot: Any) -> Any:
        """:meth:`check_bot`'s check, giving what :meth:`resolve_bot` made of the bot
        (what ``play_matches`` takes), so that a caller resolves it once (a tournament:
        issue 27, item 5). :raises ValueError: one line naming it."""
        if isinstance(bot, str) and (bot in self.bot_names or player_model(self.name)):
            try:
                return self.resolve_bot(bot)[0]
            except TypeError as exc:
                raise ValueError(str(exc)) from None
        raise ValueError(f"unknown bot {bot!r}: expected one of {', '.join(self.bot_names)}")

    def describe_bot(self, bot: Any) -> Dict[str, Any]:
        return {"name": bot}

    def slow_bot(self, bot: Any) -> bool:
        return False

    @property
    def default_bot(self) -> str:
        return self.DEFAULT_BOT or self.bot_names[0]

    @property
    def tournament_bots(self) -> Tuple[str, ...]:
        return tuple(self.TOURNAMENT_BOTS or self.bot_names)

    # -- rules ---------------------------------------------------------------------------------
    def check_rules(self, rules: Any) -> None:
        """Refuse rules the runner cannot record. :raises ValueError:"""

    def players(self, rules: Any = None) -> int:
        """The seats of the game under ``rules`` (its rules object, or None: the
        defaults): ``Game.num_players`` (issue 25)."""
        game = self.default_game
        if isinstance(rules, dict):
            game = game.with_rules(rules)
        elif rules is not None:  # a rules object, checked when made: not checked again
            game = with_rules_object(game, rules)
        return int(getattr(game, "num_players", 2))

    def seat_keys(self, rules: Any = None) -> Tuple[str, ...]:
        """The keys of the seats under ``rules`` (:func:`~.seating.seat_keys`)."""
        return seat_keys(self.type.seat_names, self.players(rules))

    def overrides(self, rules: Any) -> Dict[str, Any]:
        """The rule numbers that differ from the game's defaults."""
        default = self.default_game.rules.to_dict()
        return {k: v for k, v in rules.to_dict().items() if default.get(k) != v}

    def sweepable(self) -> Dict[str, type]:
        """The names a sweep can vary and their types: every number of the default
        rules, nested numbers as ``outer.inner``."""
        out: Dict[str, type] = {}
        for name, value in self.default_game.rules.to_dict().items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                out[name] = type(value)
            elif isinstance(value, dict):
                for key, inner in value.items():
                    if isinstance(inner, (int, float)) and not isinstance(inner, bool):
                        out[f"{name}.{key}"] = type(inner)
        return out

    # -- summaries and reports -----------------------------------------------------------------
    def new_metrics(self, rules: Any) -> Optional[Any]:
        """The game's ``Metrics(rules)``, or None without the hook."""
        return self.Metrics(rules) if self.Metrics is not None else None

    @property
    def runner_options(self) -> Dict[str, Tuple[str, str]]:
        """``{name: (metavar, help)}`` of the keywords its ``play_matches`` takes."""
        return dict(self.RUNNER_OPTIONS)

    def check_options(self, options: Dict[str, Any]) -> Dict[str, Any]:
        """``options`` for ``play_matches``, checked. :raises ValueError: for an option
        the game does not have, or a bad value (one line naming it)."""
        for name in options:
            if name not in self.runner_options:
                known = ", ".join(f"--{k}" for k in self.runner_options) or "none"
                raise ValueError(
                    f"--{name}: game {self.name!r} has no such option (its options: {known})"
                )
        try:
            return dict(self.checked_options(options))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"--{next(iter(options), 'option')}: {exc}") from None

    def checked_options(self, options: Dict[str, Any]) -> Dict[str, Any]:
        """The game's own check of its runner options (names already known): the
        options as ``play_matches`` takes them. :raises ValueError: naming a bad value."""
        return dict(options)

    @property
    def pair_means(self) -> Dict[str, str]:
        return dict(self.PAIR_MEANS)

    # -- what follows from the metrics list (each metric declared once: issue 27, item 3) -----
    @property
    def METRICS(self) -> Optional[Dict[str, Tuple[str, str, str]]]:
        return metric_table(self.metrics) if self.metrics else None

    @property
    def PANELS(self) -> Optional[Tuple[Tuple[str, Tuple[str, ...]], ...]]:
        return panels(self.metrics) if self.metrics else None

    @property
    def SWEEP_COLUMNS(self) -> Optional[Tuple[str, ...]]:
        return columns(self.metrics, "sweep") or None

    @property
    def REPORT_COLUMNS(self) -> Optional[Tuple[str, ...]]:
        return columns(self.metrics, "report") or None

    @property
    def PRECISION_METRICS(self) -> Optional[Dict[str, Tuple[str, str]]]:
        return precision_paths(self.metrics) or None

    @property
    def metric_rows(self) -> Optional[Callable[[Dict[str, Any], Any], None]]:
        if not self.metrics:
            return None
        return lambda summary, add: metric_rows(self.metrics, summary, add)
