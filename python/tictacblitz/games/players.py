"""Player models: one spec syntax for every game and every command (issue 23, item 1).

A *player spec* names a bot and, optionally, parameters of its model::

    BASE[:NAME=VALUE[,NAME=VALUE...]]

``BASE`` is one of the game's bot names or human-level presets (``greedy``, ``hard``,
``club``...); each ``NAME=VALUE`` overrides one of the game's *player parameters*. A value
is written in the parameter's unit:

- a time (unit ``ms``): ``250``, ``250ms`` or ``0.25s``; where the parameter has a
  spread, ``MEAN±SPREAD`` (or ``MEAN+-SPREAD``, easier to type): ``250ms±80``;
- a rate (unit ``%``): ``3%``, or a fraction from 0 to 1 (``0.03``);
- a count: a whole number (``64``); a number: a decimal one (``0.5``);
- a name: one of the parameter's choices (``fallback=greedy``).

Examples: ``greedy``, ``greedy:reaction=250ms,error=3%``, ``perfect:error=20%``,
``club:error=0%``. The same text works in ``--x``, ``--o``, ``--seat NAME=BOT``,
``tournament --bots`` (a comma-separated list: a part that is ``NAME=VALUE`` belongs to
the spec before it, :func:`split_specs`), ``sweep`` and ``demo``, and from Python
wherever a game takes a bot name (``make_bot``, the lab's ``play_matches`` hooks).

Each game declares its model in its own folder, ``tictacblitz.games.<name>.players``,
as ``MODEL`` (a :class:`PlayerModel`): its parameters (name, unit, range, default,
meaning), its presets, and how a parsed spec becomes the game's bot. This module knows no
game: :func:`player_model` finds a game's model by its registered name.

>>> p = PlayerParam("error", "%", 0, 1, 0.0, "chance of a random action")
>>> parse_value(p, "3%"), parse_value(p, "0.5")
(0.03, 0.5)
>>> t = PlayerParam("reaction", "ms", 0, 60_000, 0, "delay", spread=True)
>>> parse_value(t, "250ms±80"), parse_value(t, "0.3s")
((250, 80), (300, 0))
>>> split_spec("greedy:reaction=250ms+-80,error=3%")
('greedy', [('reaction', '250ms+-80'), ('error', '3%')])
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

__all__ = [
    "PlayerParam",
    "PlayerModel",
    "player_model",
    "split_spec",
    "split_specs",
    "parse_value",
    "format_value",
    "explain_players",
    "SPREAD_SIGNS",
]

SPREAD_SIGNS = ("±", "+-")
"""What separates a time's mean from its spread (``250ms±80``, ``250ms+-80``)."""

UNITS = ("ms", "%", "count", "number", "name")

_NUMBER = r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+"
_TIME = re.compile(rf"^\s*(-?(?:{_NUMBER}))\s*(ms|s)?\s*$")
_RATE = re.compile(rf"^\s*(-?(?:{_NUMBER}))\s*(%)?\s*$")


@dataclass(frozen=True)
class PlayerParam:
    """One parameter of a game's player model.

    ``unit``: ``ms`` (a time, a whole number of ms), ``%`` (a rate, stored as a fraction
    0-1), ``count`` (a whole number), ``name`` (one of ``choices``). ``low``/``high``:
    its range, in the stored unit (ms, a fraction, a count). ``spread``: a time that is
    a distribution, written ``MEAN±SPREAD`` and stored as ``(mean, spread)``.
    """

    name: str
    unit: str
    low: float
    high: float
    default: Any
    meaning: str
    spread: bool = False
    choices: Tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.unit not in UNITS:
            raise ValueError(f"unit {self.unit!r}: expected one of {', '.join(UNITS)}")


@dataclass(frozen=True)
class PlayerModel:
    """A game's player model: ``params``, ``bases`` (the bot names a spec may start
    from), ``presets`` (human-level names: ``{name: spec text}``, usable as bases too),
    ``base_values(name) -> {param: value}`` (the parameter values a base stands for) and
    ``build(base, values) -> bot`` (the game's bot object, e.g. its ``BotSpec``, from a
    base bot name and the parsed overrides)."""

    params: Tuple[PlayerParam, ...]
    bases: Tuple[str, ...]
    build: Callable[[str, Mapping[str, Any]], Any]
    base_values: Callable[[str], Mapping[str, Any]]
    presets: Mapping[str, str] = field(default_factory=dict)
    preset_reasons: Mapping[str, str] = field(default_factory=dict)
    notes: str = ""
    example: str = ""

    def param(self, name: str) -> Optional[PlayerParam]:
        return next((p for p in self.params if p.name == name), None)

    @property
    def names(self) -> Tuple[str, ...]:
        """Every name a spec may start with: the bases, then the presets."""
        return (*self.bases, *(n for n in self.presets if n not in self.bases))

    def parse(self, text: str) -> Tuple[str, Dict[str, Any]]:
        """``(base bot name, {param: value})`` of a spec, a preset unfolded into its own
        spec (a spec's parameters override the preset's).

        :raises ValueError: one line naming the spec and its bad part.
        """
        if not isinstance(text, str):
            raise TypeError(f"a player spec is a string, not {type(text).__name__}")
        base, pairs = split_spec(text)
        if base not in self.names:
            raise ValueError(
                f"player {text!r}: unknown bot {base!r}; expected one of {', '.join(self.names)}"
            )
        values: Dict[str, Any] = {}
        if base in self.presets and base not in self.bases:
            base, values = self.parse(self.presets[base])
        for name, raw in pairs:
            param = self.param(name)
            if param is None:
                known = ", ".join(p.name for p in self.params) or "none"
                raise ValueError(
                    f"player {text!r}: unknown parameter {name!r} (its parameters: {known})"
                )
            try:
                values[name] = parse_value(param, raw)
            except ValueError as exc:
                raise ValueError(f"player {text!r}: {name}={raw}: {exc}") from None
        return base, values

    def resolve(self, text: str) -> Any:
        """The game's bot object of a spec. :raises ValueError: one line naming it."""
        base, values = self.parse(text)
        try:
            return self.build(base, values)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"player {text!r}: {exc}") from None

    def values(self, text: str) -> Dict[str, Any]:
        """Every parameter's value of a spec (its base's, then its overrides)."""
        base, over = self.parse(text)
        return {**dict(self.base_values(base)), **over}


def split_spec(text: str) -> Tuple[str, List[Tuple[str, str]]]:
    """``(base, [(name, raw value), ...])`` of ``BASE[:NAME=VALUE,...]``.

    :raises ValueError: for a malformed spec (naming it)."""
    base, sep, rest = str(text).strip().partition(":")
    base = base.strip()
    if not base:
        raise ValueError(f"player {text!r}: no bot name before ':'")
    pairs: List[Tuple[str, str]] = []
    if sep:
        if not rest.strip():
            raise ValueError(f"player {text!r}: nothing after ':' (expected NAME=VALUE,...)")
        for part in rest.split(","):
            name, eq, raw = part.partition("=")
            if not eq or not name.strip() or not raw.strip():
                raise ValueError(f"player {text!r}: {part.strip()!r} is not NAME=VALUE")
            if any(name.strip() == seen for seen, _ in pairs):
                raise ValueError(f"player {text!r}: {name.strip()!r} is given twice")
            pairs.append((name.strip(), raw.strip()))
    return base, pairs


def split_specs(text: str) -> List[str]:
    """The specs of a comma-separated list: a part ``NAME=VALUE`` (no ``:``) continues
    the spec before it.

    >>> split_specs("greedy:reaction=250ms,error=3%,random, hard")
    ['greedy:reaction=250ms,error=3%', 'random', 'hard']
    """
    out: List[str] = []
    for part in (p.strip() for p in str(text).split(",")):
        if not part:
            continue
        if out and "=" in part and ":" not in part and ":" in out[-1]:
            out[-1] += "," + part
        else:
            out.append(part)
    return out


def _in_range(param: PlayerParam, value: float, shown: str) -> None:
    if value < param.low:
        if value < 0 <= param.low:
            what = {"ms": "a time", "%": "a rate"}.get(param.unit, f"{param.name}")
            raise ValueError(f"{what} cannot be negative")
        raise ValueError(f"below the least value, {format_value(param, param.low)}")
    if value > param.high:
        if param.unit == "%":
            raise ValueError(f"{shown} is over {format_value(param, param.high)}")
        raise ValueError(f"above the largest value, {format_value(param, param.high)}")


def _time(raw: str, scale: float = 1.0) -> Tuple[float, float]:
    """(ms, the unit's scale) of a time; a bare number is in ``scale`` (ms: 1)."""
    m = _TIME.match(raw)
    if m is None:
        raise ValueError(f"{raw.strip()!r} is not a time (expected e.g. 250ms or 0.25s)")
    unit = {"s": 1000.0, "ms": 1.0}.get(m.group(2) or "", scale)
    return float(m.group(1)) * unit, unit


def parse_value(param: PlayerParam, raw: str) -> Any:
    """The stored value of ``raw`` for ``param`` (see the module's syntax).

    :raises ValueError: a short reason (the caller names the spec)."""
    raw = str(raw).strip()
    if param.unit == "name":
        if raw not in param.choices:
            raise ValueError(f"expected one of {', '.join(param.choices)}")
        return raw
    if param.unit == "ms":
        mean_text, spread_text = raw, None
        for sign in SPREAD_SIGNS:
            if sign in raw:
                mean_text, _, spread_text = raw.partition(sign)
                break
        if spread_text is not None and not param.spread:
            raise ValueError("this time has no spread (write one value)")
        mean, scale = _time(mean_text)
        spread = 0.0
        if spread_text is not None:
            spread, _ = _time(spread_text, scale)  # a bare spread has the mean's unit
            if spread < 0:
                raise ValueError("a spread cannot be negative")
        if mean != int(mean) or spread != int(spread):
            raise ValueError("times are whole milliseconds")
        _in_range(param, mean, raw)
        return (int(mean), int(spread)) if param.spread else int(mean)
    if param.unit == "%":
        m = _RATE.match(raw)
        if m is None:
            raise ValueError("not a rate (expected e.g. 3% or 0.03)")
        value = float(m.group(1)) / (100.0 if m.group(2) else 1.0)
        if value < 0:
            raise ValueError("a rate cannot be negative")
        _in_range(param, value, raw)
        return value
    if param.unit == "number":
        m = _RATE.match(raw)
        if m is None or m.group(2):
            raise ValueError("not a number")
        value_float = float(m.group(1))
        _in_range(param, value_float, raw)
        return value_float
    if not re.fullmatch(r"-?[0-9]+", raw):
        raise ValueError("not a whole number")
    value_int = int(raw)
    _in_range(param, value_int, raw)
    return value_int


def format_value(param: PlayerParam, value: Any) -> str:
    """A value as the syntax writes it (``250ms±80``, ``3%``, ``64``).

    >>> format_value(PlayerParam("r", "ms", 0, 9, 0, "", spread=True), (250, 80))
    '250ms±80'
    """
    if param.unit == "ms":
        if isinstance(value, tuple):
            mean, spread = value
            return f"{mean:g}ms" + (f"±{spread:g}" if spread else "")
        return f"{value:g}ms"
    if param.unit == "%":
        return f"{float(value) * 100:g}%"
    if param.unit == "number":
        return f"{float(value):g}"
    return str(value)


def player_model(game: str) -> Optional[PlayerModel]:
    """The player model of the registered game ``game`` (``tictacblitz.games.<game>.players``'s
    ``MODEL``), or None for a game that declares none."""
    path = f"tictacblitz.games.{game}.players"
    if importlib.util.find_spec(path) is None:
        return None
    return getattr(importlib.import_module(path), "MODEL", None)


def explain_players(game: str) -> str:
    """The ``--explain-players`` text of a game: its spec syntax, parameters and presets."""
    model = player_model(game)
    if model is None:
        return f"game {game!r} has no player parameters: a bot is one of its names"
    lines = [
        f"Players of {game}: BOT[:NAME=VALUE,...]"
        + (f"  (e.g. {model.example})" if model.example else ""),
        "",
        f"bots: {', '.join(model.bases)}",
        "",
        "parameters (a bot's own value unless given):",
    ]
    for p in model.params:
        if p.unit == "name":
            rng = "one of " + ", ".join(p.choices)
        else:
            rng = f"{format_value(p, p.low)} to {format_value(p, p.high)}"
        spread = "; MEAN±SPREAD" if p.spread else ""
        lines.append(f"  {p.name:<12} {p.unit:<6} {rng}{spread}: {p.meaning}")
    if model.presets:
        lines += ["", "presets (models of human skill, not fitted to recorded play):"]
        for name, spec in model.presets.items():
            reason = model.preset_reasons.get(name, "")
            lines.append(f"  {name:<8} = {spec}" + (f"  ({reason})" if reason else ""))
    if model.notes:
        lines += ["", model.notes]
    return "\n".join(lines)
