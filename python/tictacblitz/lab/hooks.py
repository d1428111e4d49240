"""What the lab needs of a game beyond the protocol: its *balance hooks*.

The lab (simulate, sweep, tournament) is game-agnostic: it reaches a game through the
registry (:func:`~tictacblitz.games.registry.load_game`) and the module-level names
below, defined in the game's ``tictacblitz.games.<name>.balance`` module (its
lab-facing part). Only ``play_matches`` is required, and it alone may instead be defined
in the game's ``game.py`` (a game without a ``balance.py``); every other hook has a
default that works for any game, and is read from ``balance.py`` only (so a name that
happens to be in ``game.py``, such as an imported ``resolve_bot``, is never taken for a
hook).

Required:

- ``play_matches(rules, seat_bots, seeds) -> dict[str, np.ndarray]``: whole games
  between bots in the game's native loop (dropping the GIL, so the lab's threads use
  every core), ``seat_bots`` one bot a seat (``Game.num_players`` of them under
  ``rules``: issue 25); game i has seed ``seeds[i]`` (a ``uint64`` array). The columns
  have one row a game and hold at least ``winner``: the winning seat (0, 1, ...) or -1
  (a draw).

Optional (default in brackets):

- ``resolve_bot(bot) -> (runner_bot, name)``: validate a bot (``ValueError``/
  ``TypeError`` naming it) [a name of ``game.bot_names`` or a player spec of the game's
  model (:mod:`tictacblitz.games.players`), passed on as is];
  ``describe_bot(bot) -> dict`` [``{"name": bot}``]; ``slow_bot(bot) -> bool``: small
  chunks for it [False]; ``DEFAULT_BOT`` [the first of ``game.bot_names``];
  ``TOURNAMENT_BOTS`` [all of ``game.bot_names``];
- ``check_rules(rules)``: refuse rules the runner cannot record (``ValueError``) [none];
- ``record_fields() -> [(name, arrow type)]`` and ``record_columns(cols) ->
  {name: arrow array}`` (importing pyarrow themselves): the record's columns after
  ``match``, ``seed``, ``winner``
  [every per-game column of the runner: 1-D as is, ``(n, 2)`` as ``<name>_x`` and
  ``<name>_o``, other shapes as lists];
- ``Metrics(rules)`` with ``add(cols)``, ``merge(other)``, ``to_dict()``: extra
  summary metrics, deep-merged into the lab's summary; a game counts with the
  platform's :mod:`tictacblitz.games.stats` (Wilson, moments, quantiles), so that it
  imports nothing of the lab and is handed no module [the mean of every integer runner
  column];
  ``metric_rows(summary, add)``,
  ``METRICS``, ``PANELS``, ``SWEEP_COLUMNS``, ``REPORT_COLUMNS``,
  ``summary_lines(summary, pct, num)``: how reports show them (``pct`` and ``num``: the
  lab's formatters of a share and of a number, each with its interval) [nothing more];
- ``GUI_LEVELS`` (the GUI's bot levels, weakest first) and ``LADDER_BASELINES``
  ((level, bot) pairs the level must also beat): the GUI ladder of
  :mod:`tictacblitz.lab.ladder` [no ladder; no baselines];
- ``CODE_COLUMNS`` ``{column: (name of code 0, ...)}``: the runner's *category* columns
  (a code a match, e.g. how a game ended); the lab shows each code's share, never a mean
  [none; a column ``record_fields`` stores as an Arrow dictionary is a category too];
- ``RUNNER_OPTIONS`` ``{name: (metavar, help)}`` and ``check_options(options) ->
  options``: keywords of ``play_matches`` that ``simulate`` offers as ``--NAME``
  (``ValueError`` naming a bad value) [none];
- ``PRECISION_METRICS`` ``{metric: (value path, interval path)}`` in the summary: the
  game's metrics for ``simulate --precision`` besides the generic ones [none];
- ``sweepable(rules) -> {name: type}`` [every number of ``rules.to_dict()``, nested
  numbers as ``outer.inner``]; ``PAIR_MEANS`` ``{report key: column}``: per-pair means
  in a tournament [none].

The names and kinds of all these hooks are declared once, in :data:`HOOKS`. A balance
module whose public name is within :data:`NEAR_MISS_EDITS` edits of a hook (a
misspelling: ``PAIR_MEAN``, ``record_field``, ``Summary_Lines``), or whose hook is of the
wrong kind, is refused with one error when the game's hooks load (issue 27, item 1:
such a hook used to fall back to its default silently).

The lab switches on :class:`~tictacblitz.games.protocol.GameType` facts only, never on
a game's name.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from functools import lru_cache
from types import ModuleType
from typing import Any, Callable, Dict, List, Optional, Tuple

from ..games.players import player_model
from ..games.protocol import Game, GameType
from ..games.registry import available_games, game_type, load_game
from .seating import seat_keys

__all__ = [
    "GameHooks",
    "hooks_for",
    "HOOK_MODULES",
    "RUNNER",
    "HOOKS",
    "HookError",
    "check_hook_module",
]

HOOK_MODULES = ("balance", "game")
"""Where a game's hooks are looked up: ``tictacblitz.games.<name>.balance`` for every
hook, then ``tictacblitz.games.<name>.game`` for :data:`RUNNER` only."""

RUNNER = "play_matches"

FUNCTION, MAPPING, SEQUENCE, TEXT = "a callable", "a mapping", "a tuple or list", "a string"

HOOKS: Dict[str, str] = {
    RUNNER: FUNCTION,
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
"""Every hook the lab reads of a game's ``balance`` module, and the kind of value it is:
the one list of them (:meth:`GameHooks.get` refuses any other name)."""

NEAR_MISS_EDITS = 2
"""A public name this many edits or fewer from a hook (ignoring case and underscores) is
taken for a misspelling of it."""


class HookError(ValueError):
    """A game's balance module misspells a hook, or gives one of the wrong kind."""


_IS_KIND: Dict[str, Callable[[Any], bool]] = {
    FUNCTION: callable,
    MAPPING: lambda value: isinstance(value, Mapping),
    SEQUENCE: lambda value: isinstance(value, (tuple, list)),
    TEXT: lambda value: isinstance(value, str),
}


def _edits(a: str, b: str) -> int:
    """Levenshtein's distance: the fewest one-letter insertions, deletions and changes
    that turn ``a`` into ``b``."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (ca != cb))
    return row[-1]


def _folded(name: str) -> str:
    return name.replace("_", "").casefold()


def check_hook_module(module: ModuleType) -> None:
    """Refuse a balance module with a misspelled hook or a hook of the wrong kind.

    :raises HookError: one line naming every such name (and the hook it misses).
    """
    problems: List[str] = []
    for name, value in sorted(vars(module).items()):
        if name.startswith("_") or isinstance(value, ModuleType):
            continue
        kind = HOOKS.get(name)
        if kind is not None:
            if not _IS_KIND[kind](value):
                problems.append(f"hook {name} is a {type(value).__name__}, expected {kind}")
            continue
        near = [h for h in HOOKS if _edits(_folded(name), _folded(h)) <= NEAR_MISS_EDITS]
        if near:
            problems.append(f"{name} is no hook (did you mean {' or '.join(near)}?)")
    if problems:
        raise HookError(
            f"{module.__name__}: {'; '.join(problems)} (the hooks: tictacblitz.lab.hooks.HOOKS)"
        )


class GameHooks:
    """A registered game's balance hooks, with the lab's defaults filled in."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.type: GameType = game_type(name)  # raises ValueError for an unknown game
        self.modules: Dict[str, Any] = {}
        for module in HOOK_MODULES:
            path = f"tictacblitz.games.{name}.{module}"
            if importlib.util.find_spec(path) is not None:
                self.modules[module] = importlib.import_module(path)
        if HOOK_MODULES[0] in self.modules:  # a misspelled hook fails here, not silently later
            check_hook_module(self.modules[HOOK_MODULES[0]])
        self.default_game: Game = load_game(name)

    def get(self, attr: str, default: Any = None) -> Any:
        """The hook ``attr`` of the game's ``balance`` module (``play_matches`` also of its
        ``game`` module), else ``default``. :raises KeyError: for a name not in
        :data:`HOOKS` (a misspelling in the lab)."""
        if attr not in HOOKS:
            raise KeyError(f"{attr!r} is no lab hook: declare it in tictacblitz.lab.hooks.HOOKS")
        for module in HOOK_MODULES if attr == RUNNER else HOOK_MODULES[:1]:
            if module in self.modules and hasattr(self.modules[module], attr):
                return getattr(self.modules[module], attr)
        return default

    # -- the runner and bots -------------------------------------------------------------------
    @property
    def play_matches(self) -> Callable[..., Dict[str, Any]]:
        runner = self.get(RUNNER)
        if runner is None:
            raise ValueError(
                f"game {self.name!r} has no native batch runner: define "
                f"play_matches(rules, seat_bots, seeds) in games/{self.name}/game.py"
            )
        return runner

    @property
    def bot_names(self) -> Tuple[str, ...]:
        return tuple(self.default_game.bot_names)

    def resolve_bot(self, bot: Any) -> Tuple[Any, str]:
        """(what ``play_matches`` takes, the bot's name). :raises ValueError, TypeError:"""
        hook = self.get("resolve_bot")
        if hook is not None:
            return hook(bot)
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
        if isinstance(bot, str) and (bot in self.bot_names or player_model(self.name)):
            try:
                self.resolve_bot(bot)
            except TypeError as exc:
                raise ValueError(str(exc)) from None
            return
        raise ValueError(f"unknown bot {bot!r}: expected one of {', '.join(self.bot_names)}")

    def describe_bot(self, bot: Any) -> Dict[str, Any]:
        hook = self.get("describe_bot")
        return hook(bot) if hook is not None else {"name": bot}

    def slow_bot(self, bot: Any) -> bool:
        hook = self.get("slow_bot")
        return bool(hook(bot)) if hook is not None else False

    @property
    def default_bot(self) -> str:
        return self.get("DEFAULT_BOT") or self.bot_names[0]

    @property
    def tournament_bots(self) -> Tuple[str, ...]:
        return tuple(self.get("TOURNAMENT_BOTS") or self.bot_names)

    # -- rules ---------------------------------------------------------------------------------
    def check_rules(self, rules: Any) -> None:
        hook = self.get("check_rules")
        if hook is not None:
            hook(rules)

    def players(self, rules: Any = None) -> int:
        """The seats of the game under ``rules`` (its rules object, or None: the
        defaults): ``Game.num_players`` (issue 25)."""
        game = self.default_game
        if rules is not None:
            game = game.with_rules(rules if isinstance(rules, dict) else rules.to_dict())
        return int(getattr(game, "num_players", 2))

    def seat_keys(self, rules: Any = None) -> Tuple[str, ...]:
        """The keys of the seats under ``rules`` (:func:`~.seating.seat_keys`)."""
        return seat_keys(self.type.seat_names, self.players(rules))

    def overrides(self, rules: Any) -> Dict[str, Any]:
        """The rule numbers that differ from the game's defaults."""
        default = self.default_game.rules.to_dict()
        return {k: v for k, v in rules.to_dict().items() if default.get(k) != v}

    def sweepable(self) -> Dict[str, type]:
        hook = self.get("sweepable")
        if hook is not None:
            return dict(hook(self.default_game.rules))
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
        cls = self.get("Metrics")
        return cls(rules) if cls is not None else None

    @property
    def runner_options(self) -> Dict[str, Tuple[str, str]]:
        """``{name: (metavar, help)}`` of the keywords its ``play_matches`` takes."""
        return dict(self.get("RUNNER_OPTIONS") or {})

    def check_options(self, options: Dict[str, Any]) -> Dict[str, Any]:
        """``options`` for ``play_matches``, checked. :raises ValueError: for an option
        the game does not have, or a bad value (one line naming it)."""
        for name in options:
            if name not in self.runner_options:
                known = ", ".join(f"--{k}" for k in self.runner_options) or "none"
                raise ValueError(
                    f"--{name}: game {self.name!r} has no such option (its options: {known})"
                )
        hook = self.get("check_options")
        try:
            return dict(hook(options)) if hook is not None else dict(options)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"--{next(iter(options), 'option')}: {exc}") from None

    @property
    def pair_means(self) -> Dict[str, str]:
        return dict(self.get("PAIR_MEANS") or {})


@lru_cache(maxsize=None)
def hooks_for(name: str) -> GameHooks:
    """The hooks of the registered game ``name``.

    :raises ValueError: for an unknown game (naming the registered ones).
    """
    if not isinstance(name, str) or name not in available_games():
        raise ValueError(f"unknown game {name!r}: expected one of {', '.join(available_games())}")
    return GameHooks(name)
