"""The rules configuration: every number of docs/blitz.md, validated, under
docs/replay-format.md names.

A :class:`Rules` is immutable; ``Rules(set_ms=1200)`` overrides one default.  It is the
single source of truth for rule numbers: the native engine, the reference model, bots
and reports all read them from here.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, Tuple

from ..base import rules_from_dict
from .types import PowerupKind

if TYPE_CHECKING:
    from .types import Player

__all__ = ["Rules", "DEFAULT_WEIGHTS", "MAX_MS", "MAX_FACTOR_TERM"]

DEFAULT_WEIGHTS: Dict[str, float] = {kind.key: 1 for kind in PowerupKind}  # R14: all equal

MAX_MS = 10_000_000
"""Upper bound of every duration and count (≈ 2.8 h): keeps ms times inside int32."""

MAX_FACTOR_TERM = 1000
"""Bound on the numerator and denominator of a factor in lowest terms (R5): with
``MAX_MS`` this keeps a refill's need in units inside int64."""

# name -> smallest allowed value, for the integer fields (R1..R22 defaults below).
_INT_MINIMUM = {
    "size": 4,
    "line_length": 1,
    "round_ms": 1,
    "rounds_to_win": 1,
    "max_rounds": 1,
    "set_ms": 0,
    "recharge_place_ms": 0,
    "recharge_knockout_ms": 0,
    "crater_ms": 0,
    "mark_limit": 1,
    "powerup_max": 0,
    "spawn_min_ms": 0,
    "spawn_max_ms": 1,
    "powerup_ms": 0,
    "freeze_ms": 0,
    "haste_ms": 0,
    "swap_max": 0,
}


def _finite(value: float) -> bool:
    """math.isfinite, but an int too large for a float is simply not finite here."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def factor_fraction(value: float, name: str) -> Fraction:
    """R5: a speed factor as an exact fraction in lowest terms.

    The decimal text of the number is taken at face value (2.5 → 5/2, 0.1 → 1/10), so
    a factor means the same on every machine.
    """
    frac = Fraction(value) if isinstance(value, int) else Fraction(repr(float(value)))
    if frac.numerator > MAX_FACTOR_TERM or frac.denominator > MAX_FACTOR_TERM:
        raise ValueError(
            f"rules.{name}={value!r}: as a fraction {frac} its terms exceed {MAX_FACTOR_TERM}"
        )
    return frac


@dataclass(frozen=True)
class Rules:
    """Every number of docs/blitz.md (defaults shown), by the names
    docs/replay-format.md uses.

    >>> Rules().round_ms
    45000
    >>> Rules(set_ms=1200).set_ms
    1200
    >>> Rules(size=9)
    Traceback (most recent call last):
    ...
    ValueError: rules.size=9: must be an integer from 4 to 8 (the board is one uint64)

    :raises ValueError: for a value out of range, naming the field and the value.
    :raises TypeError: for a value of the wrong type (a bool or str where a number goes).
    """

    size: int = 6  # R11
    line_length: int = 4  # R10
    round_ms: int = 45_000  # R2, R20
    rounds_to_win: int = 3  # R22
    max_rounds: int = 7  # R22
    set_ms: int = 1_600  # R6
    recharge_place_ms: int = 450  # R5
    recharge_knockout_ms: int = 700  # R5
    crater_ms: int = 2_000  # R9
    mark_limit: int = 8  # R12
    powerup_max: int = 2  # R16
    spawn_min_ms: int = 2_500  # R16
    spawn_max_ms: int = 4_500  # R16
    powerup_ms: int = 6_000  # R16
    powerup_weights: Mapping[str, float] = field(
        default_factory=lambda: dict(DEFAULT_WEIGHTS)
    )  # R14
    freeze_ms: int = 3_000  # R18
    freeze_factor: float = 2.5  # R5, R18
    haste_ms: int = 4_000  # R19
    haste_factor: float = 2  # R5, R19
    swap_max: int = 2  # R17

    def __post_init__(self) -> None:
        for name, minimum in _INT_MINIMUM.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"rules.{name}={value!r}: must be an integer")
            if name == "size":
                if not 4 <= value <= 8:
                    raise ValueError(
                        f"rules.size={value!r}: must be an integer from 4 to 8 "
                        "(the board is one uint64)"
                    )
            elif not minimum <= value <= MAX_MS:
                raise ValueError(f"rules.{name}={value!r}: must be from {minimum} to {MAX_MS}")
        if self.line_length > self.size:
            raise ValueError(
                f"rules.line_length={self.line_length!r}: must be at most size ({self.size})"
            )
        if self.spawn_min_ms > self.spawn_max_ms:
            raise ValueError(
                f"rules.spawn_min_ms={self.spawn_min_ms!r}: "
                f"must not exceed spawn_max_ms ({self.spawn_max_ms})"
            )
        for name in ("freeze_factor", "haste_factor"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"rules.{name}={value!r}: must be a number")
            if not _finite(value) or value <= 0:
                raise ValueError(f"rules.{name}={value!r}: must be a finite number > 0")
            factor_fraction(value, name)
        weights = self.powerup_weights
        if not isinstance(weights, Mapping):
            raise TypeError(f"rules.powerup_weights={weights!r}: must be an object by kind")
        for key, value in weights.items():
            if key not in DEFAULT_WEIGHTS:
                raise ValueError(
                    f"rules.powerup_weights has unknown kind {key!r}: expected "
                    f"{', '.join(kind.key for kind in PowerupKind)}"
                )
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"rules.powerup_weights.{key}={value!r}: must be a number")
            if not _finite(value) or value < 0:
                raise ValueError(
                    f"rules.powerup_weights.{key}={value!r}: must be a finite number >= 0"
                )
        if sum(weights.values()) <= 0:
            raise ValueError(
                f"rules.powerup_weights={dict(weights)!r}: the weights must have a positive sum"
            )
        # R14: missing kinds weigh 0.  Stored complete and in kind order, read-only.
        object.__setattr__(
            self, "powerup_weights", _FrozenWeights({k: weights.get(k, 0) for k in DEFAULT_WEIGHTS})
        )

    # -- derived numbers (R5, R14, R11) -------------------------------------------------

    @property
    def weights(self) -> Tuple[float, float, float, float]:
        """R14: weights in PowerupKind order (bomb, freeze, haste, swap)."""
        return tuple(float(self.powerup_weights[k.key]) for k in PowerupKind)  # type: ignore[return-value]

    @property
    def speed_units(self) -> Tuple[int, int, int, int]:
        """R5: charge units one ms adds ``(normal, frozen, hasted, frozen and hasted)``.

        With ``freeze_factor = a/b`` and ``haste_factor = c/d``: ``(a·d, b·d, a·c, b·c)``.
        """
        f = factor_fraction(self.freeze_factor, "freeze_factor")
        h = factor_fraction(self.haste_factor, "haste_factor")
        a, b, c, d = f.numerator, f.denominator, h.numerator, h.denominator
        return (a * d, b * d, a * c, b * c)

    def refill_need(self, recharge_ms: int) -> int:
        """R5: the units a refill of ``recharge_ms`` needs (``recharge × a·d``)."""
        return recharge_ms * self.speed_units[0]

    @property
    def cells(self) -> int:
        return self.size * self.size

    @property
    def random_spawns(self) -> bool:
        """R16 can ever put a powerup on the board (else no spawn is drawn at all)."""
        return self.powerup_max > 0 and self.powerup_ms > 0

    def native_params(self) -> Tuple[Any, ...]:
        """The numbers the native core takes, in ``blitz_core.blitz.match.RULES_PARAMS``
        order, unpacked there in one place (``fill_rules``): every game's rules cross
        into native code as one flat tuple (issue 27). The derived numbers are computed
        here once: R5's charge units and refill needs, R14's weights, R16's spawns."""
        speeds = self.speed_units
        return (
            self.size,
            self.line_length,
            self.round_ms,
            self.rounds_to_win,
            self.max_rounds,
            self.set_ms,
            self.crater_ms,
            self.mark_limit,
            self.powerup_max,
            self.spawn_min_ms,
            self.spawn_max_ms,
            self.powerup_ms,
            self.freeze_ms,
            self.haste_ms,
            self.swap_max,
            *speeds,
            self.recharge_place_ms * speeds[0],  # refill_need, R5
            self.recharge_knockout_ms * speeds[0],
            *self.weights,
            self.random_spawns,
        )

    # -- plain data -----------------------------------------------------------------------

    def to_dict(self) -> Dict[str, Any]:
        """A plain dict of every field (JSON-ready); ``Rules.from_dict`` inverts it."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["powerup_weights"] = dict(self.powerup_weights)
        return out

    def overrides(self) -> Dict[str, Any]:
        """Only the fields that differ from the defaults (what a scenario file writes)."""
        default = Rules().to_dict()
        return {k: v for k, v in self.to_dict().items() if v != default[k]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Rules":
        """Build from a dict of overrides; unknown names are an error.

        :raises ValueError: for an unknown rule name or a bad value.
        """
        return rules_from_dict(cls, data)  # the one check of every game's rules

    def setup_marks(self, setup: object) -> List[Tuple[int, "Player"]]:
        """Validate a docs/replay-format.md setup board (``size`` strings of ``size`` characters
        ``X``/``O``/``.``, at most ``mark_limit`` marks each, R12); returns its marks as
        ``(cell number, owner)`` in reading order, the R12 age order of setup marks.

        :raises TypeError: if it is not a list of strings.
        :raises ValueError: for a wrong shape, a bad character or too many marks.
        """
        from .types import Player

        size = self.size
        if isinstance(setup, str) or not isinstance(setup, (list, tuple)):
            raise TypeError(f"setup must be a list of {size} strings, not {setup!r}")
        if len(setup) != size:
            raise ValueError(f"setup must have {size} rows, not {len(setup)}: {setup!r}")
        marks = []
        for row, text in enumerate(setup):
            if not isinstance(text, str):
                raise TypeError(f"setup row {row} must be a string, not {text!r}")
            if len(text) != size or any(ch not in "XO." for ch in text):
                raise ValueError(
                    f"setup row {row} must be {size} characters of X, O or '.', not {text!r}"
                )
            marks += [(row * size + col, Player[ch]) for col, ch in enumerate(text) if ch != "."]
        for player in Player:
            count = sum(1 for _, owner in marks if owner == player)
            if count > self.mark_limit:
                raise ValueError(
                    f"setup has {count} {player.letter} marks: more than "
                    f"mark_limit ({self.mark_limit}, R12)"
                )
        return marks

    @classmethod
    def from_assignments(cls, pairs: Iterable[str]) -> "Rules":
        """Rules from command-line ``NAME=VALUE`` / ``NAME.KEY=VALUE`` strings, values
        read as JSON (``powerup_weights.bomb=2`` changes one weight, the others kept).

        >>> Rules.from_assignments(["set_ms=1200", 'powerup_weights={"bomb": 2}']).set_ms
        1200
        >>> dict(Rules.from_assignments(["powerup_weights.bomb=2"]).powerup_weights)
        {'bomb': 2, 'freeze': 1, 'haste': 1, 'swap': 1}

        :raises ValueError: for a malformed pair, an unknown rule or a bad value.
        """
        from ..options import parse_rule_assignments  # the one parser of --rule

        return cls.from_dict(parse_rule_assignments(pairs, cls().to_dict()))

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "Rules":
        return cls.from_dict(json.loads(text))

    def replace(self, **changes: Any) -> "Rules":
        """A copy with some numbers changed (validated like a new one)."""
        return replace(self, **changes)


class _FrozenWeights(dict[str, float]):
    """A read-only dict, so a Rules stays immutable and hashable by value."""

    def _readonly(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("Rules are immutable: use rules.replace(powerup_weights=...)")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _readonly  # type: ignore[assignment]

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items())))

    def __reduce__(self) -> Tuple[Any, ...]:
        return (_FrozenWeights, (dict(self),))
