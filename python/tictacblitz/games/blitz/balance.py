"""Tic Tac Blitz's balance hooks: what the game-agnostic lab (``tictacblitz.lab``:
simulate, sweep, tournament) needs of Blitz and nothing else gives it.

The lab finds these module-level names by convention (docs/simulate.md, "A game's
balance hooks"): the native batch runner :func:`play_matches`, the per-match record
columns (:func:`record_fields`, :func:`record_columns`), the extra summary metrics
(:class:`Metrics`) and how reports show them (:func:`metric_rows`, :data:`METRICS`,
:data:`PANELS`, :func:`summary_lines`), the sweepable rule numbers, bot lookup and
validation. :class:`Metrics` counts with the platform's :mod:`tictacblitz.games.stats`
(Wilson intervals, exact moments, histogram quantiles), so this module imports nothing of
the lab (a game looks only downward) and is handed no module (issue 27, item 1). Every
Blitz fact here comes from its one source: powerup kinds from
:class:`~.types.PowerupKind`, seats from :class:`~.types.Player`, round ends from
:class:`~.types.RoundEnd`, per-seat counters from the native ``SEAT_COUNT_FIELDS``.

>>> import numpy as np
>>> cols = play_matches(None, ("greedy", "random"), np.arange(3, dtype=np.uint64))
>>> cols["winner"].tolist()
[0, 0, 0]
"""

from __future__ import annotations

from dataclasses import fields as dataclass_fields
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..stats import Moments, nice_width, quantiles, wilson_or_none
from .balance_targets import TARGET_PRECISION, TargetCounts, target_values
from .bots import GUI_LEVELS, BotSpec, resolve
from .bots import play_matches as _play_matches
from .rules import Rules
from .streams import DEFAULT_STREAM
from .types import POWERUP_KEYS as KINDS  # R14, in code order
from .types import Player, RoundEnd

LADDER_BASELINES = ((GUI_LEVELS[-1], "greedy"),)
"""The GUI ladder's other pairings (issue 23 item 3): the top level beats raw greedy."""

__all__ = [
    "GUI_LEVELS",
    "LADDER_BASELINES",
    "play_matches",
    "record_fields",
    "record_columns",
    "Metrics",
    "metric_rows",
    "summary_lines",
    "METRICS",
    "PANELS",
    "SWEEP_COLUMNS",
    "REPORT_COLUMNS",
    "sweepable",
    "resolve_bot",
    "describe_bot",
    "slow_bot",
    "check_rules",
    "DEFAULT_BOT",
    "TOURNAMENT_BOTS",
    "PAIR_MEANS",
    "MAX_RECORD_ROUNDS",
    "match_values",
    "ablations",
    "ABLATION_NOTE",
    "EFFECT_METRICS",
    "CODE_COLUMNS",
    "PRECISION_METRICS",
]

MAX_RECORD_ROUNDS = 16
"""Rounds a record keeps per match (``MAX_RECORD_ROUNDS`` of bots.pxd; the second axis
of the native per-round columns): ``max_rounds`` above it is refused."""

SEATS: Tuple[str, ...] = tuple(p.name.lower() for p in Player)  # "x", "o"
RESULTS: Tuple[str, ...] = (*(p.name for p in Player), "draw")  # RESULT_* codes 0, 1, 2
ENDS: Tuple[str, ...] = tuple(e.value for e in RoundEnd)  # BY_* codes 0, 1, 2
KO_BINS = 512  # knock-outs in one round (both seats), larger counts clipped to the last

DEFAULT_BOT = "greedy"
TOURNAMENT_BOTS = ("random", "greedy", "search")
PAIR_MEANS = {"mean_rounds": "rounds"}
"""Per-match columns a tournament reports the mean of, per pair."""


def _seat_counts() -> Tuple[str, ...]:
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
    """Whole matches in the native loop without the GIL (:func:`.bots.play_matches`, the
    one runner): match i has seed ``seeds[i]``, drawn with stream layout ``stream``
    (docs/engine.md; 2, streams by purpose, so that two rule sets on one seed share the
    draws the change does not touch: issue 22). ``winner`` is 0 (X), 1 (O) or -1
    (draw); the other columns are the native ones. ``seat_bots``: the bots of X and O
    (the lab's hook takes one bot a seat)."""
    x_bot, o_bot = seat_bots
    return _play_matches(rules, x_bot, o_bot, seeds, random_powerups=random_powerups, stream=stream)


def _played(cols: Dict[str, Any]) -> np.ndarray:
    rounds = cols["rounds"].astype(np.int64)
    return np.arange(cols["round_result"].shape[1])[None, :] < rounds[:, None]


# -- the designer's questions: paired values, ablations ----------------------------------------


def match_values(cols: Dict[str, Any]) -> Dict[str, Tuple[np.ndarray, np.ndarray, float]]:
    """Per-match ``(numerator, denominator, scale)`` of Blitz's metrics (the lab pairs two
    runs over the same seeds match by match with them): ``scale * sum(num) / sum(den)``
    is the metric of :func:`metric_rows` with the same name."""
    played = _played(cols)
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
        for name in _seat_counts():
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
    played = _played(cols)
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
        for j, name in enumerate(_seat_counts()):
            data[f"{seat}_{name}"] = pa.array(counts[:, s, j], type=pa.int32())
        data[f"{seat}_simulations"] = pa.array(cols["simulations"][:, s], type=pa.int64())
    return data


# -- extra summary metrics -------------------------------------------------------------------------


class Metrics:
    """Blitz's part of a simulation summary (docs/simulate.md): rounds, how they end,
    lengths, knock-outs, seats' counters and powerup impact, folded in chunk by chunk
    from exact integer counters (order-independent) and mergeable."""

    _ARRAYS = (
        "rounds_hist",
        "round_outcomes",
        "round_ms_hist",
        "match_ms_hist",
        "ko_hist",
        "seat_totals",
        "simulations",
        "claimer",
        "non_claimer",
        "claims",
        "more_claims",
    )
    _MOMENTS = ("round_ms", "match_ms", "match_rounds", "round_kos")

    def __init__(self, rules: Rules) -> None:
        k = len(KINDS)
        self.rounds_hist = np.zeros(rules.max_rounds + 1, np.int64)  # rounds per match
        self.round_outcomes = np.zeros((3, 3), np.int64)  # [by, result]
        self.round_ms_width = nice_width(rules.round_ms)
        self.round_ms_hist = np.zeros(rules.round_ms // self.round_ms_width + 1, np.int64)
        match_limit = rules.round_ms * rules.max_rounds
        self.match_ms_width = nice_width(match_limit)
        self.match_ms_hist = np.zeros(match_limit // self.match_ms_width + 1, np.int64)
        self.ko_hist = np.zeros(KO_BINS, np.int64)  # KOs per round, both seats
        self.round_ms, self.match_ms, self.match_rounds, self.round_kos = (
            Moments() for _ in range(4)
        )
        self.seat_totals = np.zeros((2, len(_seat_counts())), np.int64)
        self.simulations = np.zeros(2, np.int64)
        # Powerup impact, per kind: (round, seat) pairs where the seat claimed >= 1 of
        # that kind [claimed, of which won, of which lost]; the same for pairs that did not.
        self.claimer = np.zeros((k, 3), np.int64)
        self.non_claimer = np.zeros((k, 3), np.int64)
        self.claims = np.zeros((2, k), np.int64)  # by seat, by kind
        # Paired, per kind: decided rounds where one seat claimed more of that kind than
        # the other [such rounds, of which the seat with more claims won].
        self.more_claims = np.zeros((k, 2), np.int64)
        self.targets = TargetCounts()  # issue 24

    def add(self, cols: Dict[str, Any]) -> None:
        """Fold in a chunk's columns (:func:`play_matches`)."""
        self.targets.add(cols)
        rounds = cols["rounds"].astype(np.int64)
        played = _played(cols)
        self.rounds_hist += np.bincount(rounds, minlength=self.rounds_hist.size)[
            : self.rounds_hist.size
        ]
        self.match_rounds.add(rounds)
        result = cols["round_result"][played].astype(np.int64)
        by = cols["round_by"][played].astype(np.int64)
        self.round_outcomes += np.bincount(by * 3 + result, minlength=9)[:9].reshape(3, 3)
        end = cols["round_end_t"]
        ends = end[played].astype(np.int64)
        self.round_ms.add(ends)
        self.round_ms_hist += np.bincount(
            ends // self.round_ms_width, minlength=self.round_ms_hist.size
        )[: self.round_ms_hist.size]
        match_ms = np.where(played, end, 0).sum(axis=1).astype(np.int64)
        self.match_ms.add(match_ms)
        self.match_ms_hist += np.bincount(
            match_ms // self.match_ms_width, minlength=self.match_ms_hist.size
        )[: self.match_ms_hist.size]
        per_round = cols["round_knockouts"][played].astype(np.int64).sum(axis=1)
        self.round_kos.add(per_round)
        self.ko_hist += np.bincount(np.minimum(per_round, KO_BINS - 1), minlength=KO_BINS)
        self.seat_totals += cols["seat_counts"].sum(axis=0)
        self.simulations += cols["simulations"].sum(axis=0)
        pus = cols["round_powerups"][played].astype(np.int64)  # (rounds, seat, kind)
        self.claims += pus.sum(axis=0)
        decided = result < 2
        for k in range(len(KINDS)):
            diff = pus[:, 0, k] - pus[:, 1, k]
            uneven = decided & (diff != 0)
            more_won = uneven & (((diff > 0) & (result == 0)) | ((diff < 0) & (result == 1)))
            self.more_claims[k] += (int(uneven.sum()), int(more_won.sum()))
        for s in (0, 1):
            won, lost = result == s, result == 1 - s
            for k in range(len(KINDS)):
                claimed = pus[:, s, k] > 0
                self.claimer[k] += (
                    int(claimed.sum()),
                    int((claimed & won).sum()),
                    int((claimed & lost).sum()),
                )
                other = ~claimed
                self.non_claimer[k] += (
                    int(other.sum()),
                    int((other & won).sum()),
                    int((other & lost).sum()),
                )

    def merge(self, other: "Metrics") -> None:
        for name in self._ARRAYS:
            getattr(self, name).__iadd__(getattr(other, name))
        for name in self._MOMENTS:
            getattr(self, name).merge(getattr(other, name))
        self.targets.merge(other.targets)

    def to_dict(self) -> Dict[str, Any]:
        """The metrics, merged by the lab into the summary (``seat_advantage`` gains the
        round-level share)."""
        total_rounds = int(self.round_outcomes.sum())
        by = self.round_outcomes.sum(axis=1)  # line, double_line, timeout
        res = self.round_outcomes.sum(axis=0)  # X, O, draw
        r_decided = int(res[0] + res[1])
        round_share = res[0] / r_decided if r_decided else None

        def share(count: Any) -> Optional[float]:
            return float(count / total_rounds) if total_rounds else None

        def dist(m: Any, hist: np.ndarray, width: int) -> Dict[str, Any]:
            mean, ci = m.mean_ci()
            p10, p50, p90 = quantiles(hist, width, (0.1, 0.5, 0.9))
            nz = np.nonzero(hist)[0]
            return {
                "mean": mean,
                "mean_ci": ci,
                "p10": p10,
                "median": p50,
                "p90": p90,
                "min": int(nz[0]) * width if nz.size else None,
                "max": int(nz[-1]) * width if nz.size else None,
                "bin_ms": width,
            }

        rounds_mean, rounds_ci = self.match_rounds.mean_ci()
        ko_mean, ko_ci = self.round_kos.mean_ci()
        ko_q = quantiles(self.ko_hist, 1, (0.1, 0.5, 0.9))
        seat: Dict[str, Dict[str, Any]] = {}
        for s, player in enumerate(Player):
            name = player.name
            seat[name] = {f: int(self.seat_totals[s, j]) for j, f in enumerate(_seat_counts())}
            seat[name]["simulations"] = int(self.simulations[s])
            for f in ("knockouts", "placements", "retirements"):
                seat[name][f"{f}_per_round"] = (
                    seat[name][f] / total_rounds if total_rounds else None
                )
        # Baseline: the round win rate of a seat in a round, whatever it claimed.
        baseline = r_decided / (2 * total_rounds) if total_rounds else None
        powerups = {}
        for k, kind in enumerate(KINDS):
            c_n, c_w, c_l = (int(v) for v in self.claimer[k])
            o_n, o_w, _ = (int(v) for v in self.non_claimer[k])
            uneven, more_won = (int(v) for v in self.more_claims[k])
            rate = c_w / c_n if c_n else None
            powerups[kind] = {
                "claims": int(self.claims[:, k].sum()),
                "claims_x": int(self.claims[0, k]),
                "claims_o": int(self.claims[1, k]),
                "claims_per_round": share(self.claims[:, k].sum()),
                "claimer_rounds": c_n,
                "claimer_wins": c_w,
                "claimer_losses": c_l,
                "claimer_win_rate": rate,
                "claimer_win_ci": wilson_or_none(c_w, c_n),
                "non_claimer_win_rate": o_w / o_n if o_n else None,
                "non_claimer_win_ci": wilson_or_none(o_w, o_n),
                "baseline_win_rate": baseline,
                "impact": (rate - baseline) if rate is not None and baseline is not None else None,
                "uneven_rounds": uneven,
                "more_claims_win_share": more_won / uneven if uneven else None,
                "more_claims_win_ci": wilson_or_none(more_won, uneven),
            }
        return {
            "seat_advantage": {
                "round_x_share_of_decided": float(round_share) if round_share is not None else None,
                "round_x_share_ci": wilson_or_none(int(res[0]), r_decided),
            },
            "rounds": {
                "total": total_rounds,
                "x_wins": int(res[0]),
                "o_wins": int(res[1]),
                "draws": int(res[2]),
                "by_line": int(by[0]),
                "by_double_line": int(by[1]),
                "by_timeout": int(by[2]),
                "timeout_decided": int(self.round_outcomes[2, 0] + self.round_outcomes[2, 1]),
                "timeout_drawn": int(self.round_outcomes[2, 2]),
            },
            "round_draw_rate": share(res[2]),
            "round_draw_ci": wilson_or_none(int(res[2]), total_rounds),
            "decisiveness": share(by[0]),
            "decisiveness_ci": wilson_or_none(int(by[0]), total_rounds),
            "timeout_share": share(by[2]),
            "timeout_share_ci": wilson_or_none(int(by[2]), total_rounds),
            "round_length_ms": dist(self.round_ms, self.round_ms_hist, self.round_ms_width),
            "match_length_ms": dist(self.match_ms, self.match_ms_hist, self.match_ms_width),
            "match_rounds": {
                "mean": rounds_mean,
                "mean_ci": rounds_ci,
                "distribution": {str(k): int(v) for k, v in enumerate(self.rounds_hist) if v},
            },
            "knockouts_per_round": {
                "mean": ko_mean,
                "mean_ci": ko_ci,
                "p10": ko_q[0],
                "median": ko_q[1],
                "p90": ko_q[2],
                "x_mean": seat["X"]["knockouts_per_round"],
                "o_mean": seat["O"]["knockouts_per_round"],
            },
            "powerups": powerups,
            "seats": seat,
            # R22: rounds_hist's last bin counts the matches that reached max_rounds
            **self.targets.to_dict(self.match_ms, int(self.rounds_hist[-1])),
        }


# -- how reports show them: balance_report.py (re-exported here, where the lab looks) --------

from .balance_report import (  # noqa: E402
    METRICS,
    PANELS,
    REPORT_COLUMNS,
    SWEEP_COLUMNS,
    metric_rows,
    summary_lines,
)

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


PRECISION_METRICS = {
    "decisiveness": ("decisiveness", "decisiveness_ci"),
    "timeout_share": ("timeout_share", "timeout_share_ci"),
    "round_draw_rate": ("round_draw_rate", "round_draw_ci"),
    "round_length_ms": ("round_length_ms.mean", "round_length_ms.mean_ci"),
    **TARGET_PRECISION,  # issue 24: line_share, match_s, seat_gap, KIND_uses, ...
}
"""The lab's hook: this game's metrics for ``simulate --precision`` (JSON paths of the
value and of its 95 % interval in the summary; lab/cost.py)."""
