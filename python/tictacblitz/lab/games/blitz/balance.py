"""Tic Tac Blitz's balance hooks: what the game-agnostic lab (``tictacblitz.lab``:
simulate, sweep, tournament) needs of Blitz and nothing else gives it.

:class:`~tictacblitz.lab.games.blitz.BlitzLab` (the lab's adapter) hands the lab these:
the native batch runner :func:`play_matches`, the per-match record columns
(:func:`record_fields`, :func:`record_columns`), the extra summary metrics
(:class:`~.metrics.Metrics`; how reports show them is :mod:`.report`), the paired values and
ablations, the sweepable rule numbers, bot lookup and validation. Every
Blitz fact here comes from its one source: powerup kinds from
:class:`~tictacblitz.games.blitz.types.PowerupKind`, seats from ``Player``, round ends from
``RoundEnd``, per-seat counters from the native ``SEAT_COUNT_FIELDS``.

>>> import numpy as np
>>> cols = play_matches(None, ("greedy", "random"), np.arange(3, dtype=np.uint64))
>>> cols["winner"].tolist()
[0, 0, 0]
"""

from __future__ import annotations

from dataclasses import fields as dataclass_fields
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ....games.blitz.bots import BotSpec, resolve
from ....games.blitz.bots import play_matches as _play_matches
from ....games.blitz.rules import Rules
from ....games.blitz.streams import DEFAULT_STREAM
from ....games.blitz.types import POWERUP_KEYS as KINDS  # R14, in code order
from ....games.blitz.types import Player, RoundEnd
from .targets import target_values

__all__ = [
    "play_matches",
    "record_fields",
    "record_columns",
    "sweepable",
    "resolve_bot",
    "describe_bot",
    "slow_bot",
    "check_rules",
    "MAX_RECORD_ROUNDS",
    "match_values",
    "ablations",
    "ABLATION_NOTE",
    "EFFECT_METRICS",
    "CODE_COLUMNS",
]

MAX_RECORD_ROUNDS = 16
"""Rounds a record keeps per match (``MAX_RECORD_ROUNDS`` of bots.pxd; the second axis
of the native per-round columns): ``max_rounds`` above it is refused."""

SEATS: Tuple[str, ...] = tuple(p.name.lower() for p in Player)  # "x", "o"
RESULTS: Tuple[str, ...] = (*(p.name for p in Player), "draw")  # RESULT_* codes 0, 1, 2
ENDS: Tuple[str, ...] = tuple(e.value for e in RoundEnd)  # BY_* codes 0, 1, 2


def seat_counts() -> Tuple[str, ...]:
    from blitz_core.blitz.bots import SEAT_COUNT_FIELDS  # the native axis order: one source

    return tuple(SEAT_COUNT_FIELDS)


# -- bots, rules, the native runner -------------------------------------------------------------


def resolve_bot(bot: Union[str, BotSpec]) -> Tuple[BotSpec, str]:
    """(what :func:`play_matches` takes, the name reports show) of a preset name or a
    :class:`~.bots.BotSpec`. :raises ValueError/TypeError: naming the bad bot."""
    spec = resolve(bot)
    return spec, bot if isinstance(bot, str) else spec.kind


def describe_bot(bot: Union[str, BotSpec]) -> Dict[str, Any]:
    return resolve(bot).to_dict()


def slow_bot(bot: Union[str, BotSpec]) -> bool:
    """A search bot is ~1,000 times slower than greedy (the lab makes its chunks small)."""
    return resolve(bot).kind == "search"


def check_rules(rules: Rules) -> None:
    if rules.max_rounds > MAX_RECORD_ROUNDS:
        raise ValueError(
            f"rules.max_rounds={rules.max_rounds}: a simulation records at most "
            f"{MAX_RECORD_ROUNDS} rounds a match"
        )


def play_matches(
    rules: Optional[Rules],
    seat_bots: Sequence[Union[str, BotSpec]],
    seeds: np.ndarray,
    *,
    random_powerups: bool = True,
    stream: int = DEFAULT_STREAM,
) -> Dict[str, np.ndarray]:
    """Whole matches in the native loop without the GIL
    (:func:`tictacblitz.games.blitz.bots.play_matches`, the one runner): match i has seed
    ``seeds[i]``, drawn with stream layout ``stream`` (docs/engine.md; 2, streams by
    purpose, so that two rule sets on one seed share the draws the change does not touch:
    issue 22). ``winner`` is 0 (X), 1 (O) or -1 (draw); the other columns are the native
    ones. ``seat_bots``: the bots of X and O (the lab's hook takes one bot a seat)."""
    x_bot, o_bot = seat_bots
    return _play_matches(rules, x_bot, o_bot, seeds, random_powerups=random_powerups, stream=stream)


def played_rounds(cols: Dict[str, Any]) -> np.ndarray:
    rounds = cols["rounds"].astype(np.int64)
    return np.arange(cols["round_result"].shape[1])[None, :] < rounds[:, None]


# -- the designer's questions: paired values, ablations ----------------------------------------


def match_values(cols: Dict[str, Any]) -> Dict[str, Tuple[np.ndarray, np.ndarray, float]]:
    """Per-match ``(numerator, denominator, scale)`` of Blitz's metrics (the lab pairs two
    runs over the same seeds match by match with them): ``scale * sum(num) / sum(den)``
    is the metric of :func:`metric_rows` with the same name."""
    played = played_rounds(cols)
    rounds = cols["rounds"].astype(np.int64)
    result = np.where(played, cols["round_result"], -1).astype(np.int64)
    by = np.where(played, cols["round_by"], -1).astype(np.int64)
    ends = np.where(played, cols["round_end_t"], 0).astype(np.int64)
    kos = np.where(played, cols["round_knockouts"].astype(np.int64).sum(axis=2), 0)
    line, timeout = ENDS.index("line"), ENDS.index("timeout")
    x, o, draw = RESULTS.index("X"), RESULTS.index("O"), RESULTS.index("draw")
    decided = ((result == x) | (result == o)).sum(axis=1)
    one = np.ones_like(rounds)
    return {
        "round_x_share_of_decided": ((result == x).sum(axis=1), decided, 1.0),
        "round_draw_rate": ((result == draw).sum(axis=1), rounds, 1.0),
        "decisiveness": ((by == line).sum(axis=1), rounds, 1.0),
        "timeout_share": ((by == timeout).sum(axis=1), rounds, 1.0),
        "round_length_s": (ends.sum(axis=1), rounds, 1e-3),
        "match_rounds": (rounds, one, 1.0),
        "match_length_s": (ends.sum(axis=1), one, 1e-3),
        "knockouts_per_round": (kos.sum(axis=1), rounds, 1.0),
        **target_values(cols),  # issue 24: the designer's targets
    }


def ablations(rules: Optional[Rules]) -> Dict[str, Dict[str, Any]]:
    """Blitz's optional features for the lab's ablation: each powerup kind that can spawn
    under ``rules``, switched off by setting its weight to 0 (R14), as rule overrides.
    A kind whose removal would leave no powerup at all is left out (the rules need a
    positive sum of weights)."""
    weights = dict((rules or Rules()).powerup_weights)
    out: Dict[str, Dict[str, Any]] = {}
    for kind in KINDS:
        if weights.get(kind, 0) > 0 and sum(v for k, v in weights.items() if k != kind) > 0:
            out[kind] = {"powerup_weights": {**weights, kind: 0}}
    return out


CODE_COLUMNS: Dict[str, Tuple[str, ...]] = {"round_result": RESULTS, "round_by": ENDS}
"""The runner's code columns (one code a round: who won it, how it ended, R10/R20): never
averaged; their shares are :class:`Metrics`'s and :func:`match_values`'s (issue 22)."""

ABLATION_NOTE = "each powerup's spawn weight set to 0 in turn"
"""How the ablation switches a feature off, in the words reports print."""

EFFECT_METRICS = (
    "x_win_rate",
    "o_win_rate",
    "decisiveness",
    "round_length_s",
    "match_length_s",
    "knockouts_per_round",
)
"""The metrics an ablation table shows (every paired metric is in the JSON)."""


# -- records ---------------------------------------------------------------------------------------


def record_fields() -> List[Tuple[str, Any]]:
    """The record's columns after the lab's ``match``, ``seed`` and ``winner``
    (docs/simulate.md, "Records"). Needs pyarrow, which the lab checks for first."""
    import pyarrow as pa

    code = pa.dictionary(pa.int8(), pa.string())
    fields = [
        ("rounds", pa.int8()),
        ("x_round_wins", pa.int8()),
        ("o_round_wins", pa.int8()),
        ("match_ms", pa.int32()),
        ("round_result", pa.list_(code)),
        ("round_by", pa.list_(code)),
        ("round_end_ms", pa.list_(pa.int32())),
        ("round_knockouts_x", pa.list_(pa.int16())),
        ("round_knockouts_o", pa.list_(pa.int16())),
    ]
    for kind in KINDS:
        for seat in SEATS:
            fields.append((f"round_{kind}_{seat}", pa.list_(pa.int8())))
    for seat in SEATS:
        for name in seat_counts():
            fields.append((f"{seat}_{name}", pa.int32()))
        fields.append((f"{seat}_simulations", pa.int64()))
    return fields


def record_columns(cols: Dict[str, Any]) -> Dict[str, Any]:
    """A chunk's columns (:func:`play_matches`) as the Arrow arrays of :func:`record_fields`."""
    import pyarrow as pa

    n = len(cols["winner"])
    rounds = cols["rounds"].astype(np.int32)
    offsets = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(rounds, out=offsets[1:])
    played = played_rounds(cols)
    offsets_arr = pa.array(offsets)

    def listed(values: np.ndarray, type_: Any) -> Any:
        return pa.ListArray.from_arrays(offsets_arr, pa.array(values[played], type=type_))

    def listed_codes(values: np.ndarray, names: Tuple[str, ...]) -> Any:
        coded = pa.DictionaryArray.from_arrays(
            pa.array(values[played], type=pa.int8()), pa.array(names)
        )
        return pa.ListArray.from_arrays(offsets_arr, coded)

    end = cols["round_end_t"]
    data: Dict[str, Any] = {
        "rounds": pa.array(cols["rounds"], type=pa.int8()),
        "x_round_wins": pa.array(cols["round_wins"][:, 0], type=pa.int8()),
        "o_round_wins": pa.array(cols["round_wins"][:, 1], type=pa.int8()),
        "match_ms": pa.array(np.where(played, end, 0).sum(axis=1).astype(np.int32)),
        "round_result": listed_codes(cols["round_result"], RESULTS),
        "round_by": listed_codes(cols["round_by"], ENDS),
        "round_end_ms": listed(end, pa.int32()),
        "round_knockouts_x": listed(cols["round_knockouts"][:, :, 0], pa.int16()),
        "round_knockouts_o": listed(cols["round_knockouts"][:, :, 1], pa.int16()),
    }
    pus = cols["round_powerups"]
    for k, kind in enumerate(KINDS):
        for s, seat in enumerate(SEATS):
            data[f"round_{kind}_{seat}"] = listed(pus[:, :, s, k], pa.int8())
    counts = cols["seat_counts"]
    for s, seat in enumerate(SEATS):
        for j, name in enumerate(seat_counts()):
            data[f"{seat}_{name}"] = pa.array(counts[:, s, j], type=pa.int32())
        data[f"{seat}_simulations"] = pa.array(cols["simulations"][:, s], type=pa.int64())
    return data


# -- sweeps -------------------------------------------------------------------------------------


def sweepable(rules: Rules) -> Dict[str, type]:
    """The names a sweep can vary and their types: every number of :class:`~.rules.Rules`
    and ``powerup_weights.KIND`` for each powerup kind (R14)."""
    out: Dict[str, type] = {}
    for f in dataclass_fields(Rules):
        if f.name != "powerup_weights":
            out[f.name] = type(getattr(rules, f.name))
    out["freeze_factor"] = out["haste_factor"] = float
    for kind in KINDS:
        out[f"powerup_weights.{kind}"] = float
    return out
