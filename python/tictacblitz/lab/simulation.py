"""Balancing simulations: ``tictacblitz simulate`` and :func:`simulate`.

A designer changes a rule number and plays many whole matches between two bots to see
what it does to the game. The work is split into *chunks* of consecutive match indices;
match ``i`` always has the seed :func:`match_seeds` derives from the master seed and
``i``, so records and summary are the same however the work is split (chunk size,
threads, Dask workers). Each chunk is played by the native loop
(``blitz_core.blitz.bots.play_match_columns``) without the GIL, so a pool of threads uses every
core; chunk results come back as NumPy columns, are folded into a :class:`Summary` (exact
integer counters only: order-independent) and, if asked, written as Arrow record batches
in chunk order, so memory stays flat as N grows.

>>> result = simulate(matches=20, x="greedy", o="random", seed=1, workers=1)
>>> result.summary["x_wins"], result.summary["matches"]
(20, 20)
>>> result.table.num_rows
20

The summary metrics are defined in docs/simulate.md.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple, Union

import numpy as np

from ..games.blitz.bots import BOT_NAMES, BotSpec, resolve
from ..games.blitz.rules import Rules
from .stats import Z95, wilson
from .stats import mix64 as _mix

__all__ = [
    "SimulationJob",
    "SimulationResult",
    "Summary",
    "RecordWriter",
    "simulate",
    "prepare",
    "match_seeds",
    "play_chunk",
    "chunk_table",
    "record_schema",
    "wilson",
    "default_workers",
    "register",
    "main",
    "MAX_RECORD_ROUNDS",
    "OUT_SUFFIXES",
]

MAX_RECORD_ROUNDS = 16
"""Rounds a record keeps per match (``MAX_RECORD_ROUNDS`` of bots.pxd): ``max_rounds``
above it is refused rather than summarised from part of the rounds."""

OUT_SUFFIXES = (".parquet", ".csv")
_MASK = 0xFFFFFFFFFFFFFFFF
POWERUP_KINDS = ("bomb", "freeze", "haste", "swap")            # R14, PowerupKind order
RESULTS = ("X", "O", "draw")                                  # RESULT_* codes 0, 1, 2
ENDS = ("line", "double_line", "timeout")                     # BY_* codes 0, 1, 2
SEATS = ("x", "o")
# The per-seat counters of a record, in the order of play_match_columns' seat_counts.
SEAT_COUNTS = ("decisions", "waits", "placements", "knockouts", "rejected", "retirements",
               "bombed", "stolen", "bomb", "freeze", "haste", "swap")
KO_BINS = 512          # knock-outs in one round (both seats), larger counts clipped to the last


# -- seeds -----------------------------------------------------------------------------------


def _mix_array(z: np.ndarray) -> np.ndarray:
    """:func:`_mix` on a uint64 array (NumPy's uint64 arithmetic wraps mod 2**64)."""
    z = z + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def match_seeds(seed: int, start: int, count: int) -> np.ndarray:
    """The seeds of matches ``start .. start+count-1`` of a simulation with master
    ``seed``: ``mix(mix(seed) ^ i)`` (SplitMix64's finaliser), a function of the master
    seed and the match index only.

    >>> int(match_seeds(1, 5, 1)[0]) == _mix(_mix(1) ^ 5)
    True
    """
    base = np.uint64(_mix(seed & _MASK))
    with np.errstate(over="ignore"):
        return _mix_array(np.arange(start, start + count, dtype=np.uint64) ^ base)


# -- the job -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SimulationJob:
    """Everything that determines a simulation's records (not how it is run)."""

    rules: Rules
    x: BotSpec
    o: BotSpec
    x_name: str
    o_name: str
    matches: int
    seed: int
    chunk_size: int
    random_powerups: bool = True

    @property
    def chunks(self) -> int:
        return -(-self.matches // self.chunk_size)

    def chunk_range(self, index: int) -> Tuple[int, int]:
        """(first match index, number of matches) of chunk ``index``."""
        start = index * self.chunk_size
        return start, min(self.chunk_size, self.matches - start)

    def payload(self) -> Dict[str, Any]:
        """Plain data for a remote worker (:func:`play_chunk`)."""
        return {"rules": self.rules.to_dict(), "x": self.x.native(), "o": self.o.native(),
                "matches": self.matches, "seed": self.seed, "chunk_size": self.chunk_size,
                "random_powerups": self.random_powerups}


def _int_arg(name: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer >= {minimum}, not {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, not {value!r}")
    return int(value)


def default_workers() -> int:
    """Every core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:          # not Linux
        return max(1, os.cpu_count() or 1)


def default_chunk_size(matches: int, workers: int, x: BotSpec, o: BotSpec) -> int:
    """Enough chunks for a smooth progress bar and an even load (about 8 per worker),
    but big enough that a chunk's Python overhead is small. A search bot is ~1,000 times
    slower than greedy, so its chunks are small."""
    slow = "search" in (x.kind, o.kind)
    most = 8 if slow else 2000
    least = 1 if slow else 64
    return max(1, min(most, max(least, -(-matches // (workers * 8)))))


def _bot(seat: str, bot: Union[str, BotSpec]) -> Tuple[BotSpec, str]:
    try:
        spec = resolve(bot)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{seat}: {exc}") from None
    return spec, bot if isinstance(bot, str) else spec.kind


def prepare(matches: int, x: Union[str, BotSpec] = "greedy", o: Union[str, BotSpec] = "greedy",
            rules: Optional[Union[Rules, Dict[str, Any]]] = None, seed: int = 0, *,
            workers: int = 1, chunk_size: Optional[int] = None,
            random_powerups: bool = True) -> SimulationJob:
    """Validate a simulation's arguments and fix its chunks (no match is played).

    :raises ValueError: for an unknown bot, a bad rule, N < 1, workers < 1, chunk size
        < 1, or ``max_rounds`` above what a record keeps.
    """
    matches = _int_arg("matches", matches, 1)
    workers = _int_arg("workers", workers, 1)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"seed must be an integer, not {seed!r}")
    if rules is None:
        rules = Rules()
    elif isinstance(rules, dict):
        rules = Rules.from_dict(rules)
    elif not isinstance(rules, Rules):
        raise ValueError(f"rules must be a Rules or a dict of overrides, not {type(rules).__name__}")
    if rules.max_rounds > MAX_RECORD_ROUNDS:
        raise ValueError(f"rules.max_rounds={rules.max_rounds}: a simulation records at most "
                         f"{MAX_RECORD_ROUNDS} rounds a match")
    xs, xn = _bot("x", x)
    os_, on = _bot("o", o)
    if chunk_size is None:
        chunk_size = default_chunk_size(matches, workers, xs, os_)
    chunk_size = _int_arg("chunk_size", chunk_size, 1)
    return SimulationJob(rules, xs, os_, xn, on, matches, int(seed), chunk_size,
                         bool(random_powerups))


# -- one chunk ---------------------------------------------------------------------------------


_RULES_CACHE: Dict[str, Rules] = {}


def play_chunk(payload: Dict[str, Any], index: int) -> Dict[str, Any]:
    """Play chunk ``index`` of a job (:meth:`SimulationJob.payload`): its columns, as
    ``blitz_core.blitz.bots.play_match_columns`` returns them, plus ``start`` and ``seeds``.
    A pure function of its arguments (what a Dask task runs; a retry gives the same)."""
    from blitz_core.blitz.bots import play_match_columns

    key = json.dumps(payload["rules"], sort_keys=True)
    rules = _RULES_CACHE.get(key)
    if rules is None:
        rules = _RULES_CACHE[key] = Rules.from_dict(payload["rules"])
    start = index * payload["chunk_size"]
    count = min(payload["chunk_size"], payload["matches"] - start)
    seeds = match_seeds(payload["seed"], start, count)
    cols = play_match_columns(rules, tuple(payload["x"]), tuple(payload["o"]), seeds,
                              random_powerups=payload["random_powerups"])
    cols["start"] = start
    cols["seeds"] = seeds
    return cols


# -- records -----------------------------------------------------------------------------------


def _pa() -> Any:
    try:
        import pyarrow
    except ImportError:  # pragma: no cover - the sim extra
        raise ImportError("records need pyarrow: pip install tictacblitz (it depends on pyarrow, rich and matplotlib)") from None
    return pyarrow


def record_schema() -> Any:
    """The Arrow schema of the per-match records (one row a match; docs/simulate.md)."""
    pa = _pa()
    code = pa.dictionary(pa.int8(), pa.string())
    fields = [
        ("match", pa.int64()), ("seed", pa.uint64()), ("winner", code), ("rounds", pa.int8()),
        ("x_round_wins", pa.int8()), ("o_round_wins", pa.int8()), ("match_ms", pa.int32()),
        ("round_result", pa.list_(code)), ("round_by", pa.list_(code)),
        ("round_end_ms", pa.list_(pa.int32())),
        ("round_knockouts_x", pa.list_(pa.int16())), ("round_knockouts_o", pa.list_(pa.int16())),
    ]
    for kind in POWERUP_KINDS:
        for seat in SEATS:
            fields.append((f"round_{kind}_{seat}", pa.list_(pa.int8())))
    for seat in SEATS:
        for name in SEAT_COUNTS:
            fields.append((f"{seat}_{name}", pa.int32()))
        fields.append((f"{seat}_simulations", pa.int64()))
    return pa.schema(fields)


def chunk_table(cols: Dict[str, Any]) -> Any:
    """A chunk's columns (:func:`play_chunk`) as an Arrow table of :func:`record_schema`."""
    pa = _pa()
    n = len(cols["winner"])
    rounds = cols["rounds"].astype(np.int32)
    offsets = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(rounds, out=offsets[1:])
    played = np.arange(MAX_RECORD_ROUNDS)[None, :] < rounds[:, None]      # (n, 16)
    offsets_arr = pa.array(offsets)

    def listed(values: np.ndarray, type_: Any) -> Any:
        return pa.ListArray.from_arrays(offsets_arr, pa.array(values[played], type=type_))

    def coded(values: np.ndarray, names: Tuple[str, ...]) -> Any:
        return pa.DictionaryArray.from_arrays(pa.array(values, type=pa.int8()), pa.array(names))

    def listed_codes(values: np.ndarray, names: Tuple[str, ...]) -> Any:
        return pa.ListArray.from_arrays(offsets_arr, coded(values[played], names))

    end = cols["round_end_t"]
    data: Dict[str, Any] = {
        "match": pa.array(np.arange(cols["start"], cols["start"] + n, dtype=np.int64)),
        "seed": pa.array(cols["seeds"], type=pa.uint64()),
        "winner": coded(cols["winner"], RESULTS),
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
    for k, kind in enumerate(POWERUP_KINDS):
        for s, seat in enumerate(SEATS):
            data[f"round_{kind}_{seat}"] = listed(pus[:, :, s, k], pa.int8())
    counts = cols["seat_counts"]
    for s, seat in enumerate(SEATS):
        for j, name in enumerate(SEAT_COUNTS):
            data[f"{seat}_{name}"] = pa.array(counts[:, s, j], type=pa.int32())
        data[f"{seat}_simulations"] = pa.array(cols["simulations"][:, s], type=pa.int64())
    return pa.Table.from_pydict(data, schema=record_schema())


def _csv_ready(table: Any) -> Any:
    """CSV has no lists: a list cell becomes its items joined by ``;`` ("X;draw;O")."""
    import pyarrow.compute as pc

    pa = _pa()
    columns = []
    for name in table.column_names:
        col = table[name]
        if pa.types.is_list(col.type):
            col = pc.binary_join(pc.cast(col, pa.list_(pa.string())), ";")
        elif pa.types.is_dictionary(col.type):
            col = pc.cast(col, pa.string())
        columns.append(col)
    return pa.table(columns, names=table.column_names)


class RecordWriter:
    """Streams record tables to ``path`` (``.parquet`` or ``.csv``) through a temporary
    file in the same folder, renamed onto ``path`` only by :meth:`commit`: an interrupted
    or failed run leaves nothing half-written (:meth:`abort` removes the temporary)."""

    def __init__(self, path: str) -> None:
        self.path = os.fspath(path)
        check_out_path(self.path)
        self.kind = os.path.splitext(self.path)[1].lower()
        folder, name = os.path.split(os.path.abspath(self.path))
        self.tmp = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
        self._writer: Any = None
        self.rows = 0

    def write(self, table: Any) -> None:
        if self._writer is None:
            if self.kind == ".parquet":
                import pyarrow.parquet as pq

                self._writer = pq.ParquetWriter(self.tmp, table.schema, compression="zstd")
            else:
                import pyarrow.csv as pcsv

                table = _csv_ready(table)
                self._writer = pcsv.CSVWriter(self.tmp, table.schema)
                self._writer.write_table(table)
                self.rows += table.num_rows
                return
        if self.kind == ".csv":
            table = _csv_ready(table)
        self._writer.write_table(table)
        self.rows += table.num_rows

    def commit(self) -> None:
        self._writer.close()
        self._writer = None
        os.replace(self.tmp, self.path)

    def abort(self) -> None:
        try:
            if self._writer is not None:
                self._writer.close()
        except Exception:  # noqa: BLE001 - cleaning up after a failure
            pass
        self._writer = None
        if os.path.exists(self.tmp):
            os.remove(self.tmp)


def check_out_path(path: str) -> None:
    """:raises ValueError: for an output suffix other than .parquet / .csv or a folder
    that does not exist."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix not in OUT_SUFFIXES:
        raise ValueError(f"output {path!r}: the file name must end in .parquet or .csv")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"output {path!r}: folder {folder!r} does not exist")
    if os.path.isdir(path):
        raise ValueError(f"output {path!r} is a folder")


# -- the summary -------------------------------------------------------------------------------


def _nice_width(limit: int, bins: int = 5000) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50... ms that covers ``limit`` in ``bins`` bins."""
    width = 1
    while limit / width > bins:
        for step in (2, 5 / 2, 2):
            width = int(width * step)
            if limit / width <= bins:
                break
    return max(1, width)


class _Moments:
    """Exact integer count, sum and sum of squares: a mean and its 95 % interval."""

    __slots__ = ("n", "s", "ss")

    def __init__(self) -> None:
        self.n = self.s = self.ss = 0

    def add(self, values: np.ndarray) -> None:
        v = values.astype(np.int64)
        self.n += int(v.size)
        self.s += int(v.sum())
        self.ss += int((v * v).sum())

    def merge(self, other: "_Moments") -> None:
        self.n += other.n
        self.s += other.s
        self.ss += other.ss

    def mean_ci(self) -> Tuple[Optional[float], Optional[List[float]]]:
        if self.n == 0:
            return None, None
        mean = self.s / self.n
        var = max(self.ss / self.n - mean * mean, 0.0) * self.n / max(self.n - 1, 1)
        half = Z95 * math.sqrt(var / self.n)
        return mean, [mean - half, mean + half]


def _quantiles(hist: np.ndarray, width: int, qs: Tuple[float, ...]) -> List[Optional[int]]:
    """Quantiles from a histogram of bins [k·width, (k+1)·width): the bin's lower edge
    (exact when ``width`` is 1)."""
    total = int(hist.sum())
    if total == 0:
        return [None for _ in qs]
    cum = np.cumsum(hist)
    out = []
    for q in qs:
        k = int(np.searchsorted(cum, max(1, math.ceil(q * total)), side="left"))
        out.append(k * width)
    return out


class Summary:
    """What balancing people read off a simulation, accumulated chunk by chunk from
    exact integer counters (so it does not depend on the order chunks arrive in), and
    mergeable. :meth:`to_dict` gives the metrics (docs/simulate.md defines each)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.matches = 0
        self.match_results = np.zeros(3, np.int64)                 # X, O, draw
        self.rounds_hist = np.zeros(rules.max_rounds + 1, np.int64)  # rounds per match
        self.round_outcomes = np.zeros((3, 3), np.int64)            # [by, result]
        self.round_ms_width = _nice_width(rules.round_ms)
        self.round_ms_hist = np.zeros(rules.round_ms // self.round_ms_width + 1, np.int64)
        match_limit = rules.round_ms * rules.max_rounds
        self.match_ms_width = _nice_width(match_limit)
        self.match_ms_hist = np.zeros(match_limit // self.match_ms_width + 1, np.int64)
        self.ko_hist = np.zeros(KO_BINS, np.int64)                  # KOs per round, both seats
        self.round_ms = _Moments()
        self.match_ms = _Moments()
        self.match_rounds = _Moments()
        self.round_kos = _Moments()
        self.seat_totals = np.zeros((2, len(SEAT_COUNTS)), np.int64)
        self.simulations = np.zeros(2, np.int64)
        # Powerup impact, per kind: (round, seat) pairs where the seat claimed >= 1 of
        # that kind [claimed, of which won, of which lost]; the same for pairs that did not.
        self.claimer = np.zeros((4, 3), np.int64)
        self.non_claimer = np.zeros((4, 3), np.int64)
        self.claims = np.zeros((2, 4), np.int64)                    # by seat, by kind
        # Paired, per kind: decided rounds where one seat claimed more of that kind than
        # the other [such rounds, of which the seat with more claims won].
        self.more_claims = np.zeros((4, 2), np.int64)

    def add(self, cols: Dict[str, Any]) -> None:
        """Fold in a chunk's columns (:func:`play_chunk`)."""
        winner = cols["winner"].astype(np.int64)
        n = winner.size
        rounds = cols["rounds"].astype(np.int64)
        played = np.arange(MAX_RECORD_ROUNDS)[None, :] < rounds[:, None]
        self.matches += n
        self.match_results += np.bincount(winner, minlength=3)[:3]
        self.rounds_hist += np.bincount(rounds, minlength=self.rounds_hist.size)[: self.rounds_hist.size]
        self.match_rounds.add(rounds)
        result = cols["round_result"][played].astype(np.int64)
        by = cols["round_by"][played].astype(np.int64)
        self.round_outcomes += np.bincount(by * 3 + result, minlength=9)[:9].reshape(3, 3)
        end = cols["round_end_t"]
        ends = end[played].astype(np.int64)
        self.round_ms.add(ends)
        self.round_ms_hist += np.bincount(ends // self.round_ms_width,
                                          minlength=self.round_ms_hist.size)[: self.round_ms_hist.size]
        match_ms = np.where(played, end, 0).sum(axis=1).astype(np.int64)
        self.match_ms.add(match_ms)
        self.match_ms_hist += np.bincount(match_ms // self.match_ms_width,
                                          minlength=self.match_ms_hist.size)[: self.match_ms_hist.size]
        kos = cols["round_knockouts"][played].astype(np.int64)           # (rounds, 2)
        per_round = kos.sum(axis=1)
        self.round_kos.add(per_round)
        self.ko_hist += np.bincount(np.minimum(per_round, KO_BINS - 1), minlength=KO_BINS)
        self.seat_totals += cols["seat_counts"].sum(axis=0)
        self.simulations += cols["simulations"].sum(axis=0)
        pus = cols["round_powerups"][played].astype(np.int64)             # (rounds, 2, 4)
        self.claims += pus.sum(axis=0)
        decided = result < 2
        for k in range(4):
            diff = pus[:, 0, k] - pus[:, 1, k]
            uneven = decided & (diff != 0)
            more_won = uneven & (((diff > 0) & (result == 0)) | ((diff < 0) & (result == 1)))
            self.more_claims[k] += (int(uneven.sum()), int(more_won.sum()))
        for s in (0, 1):
            won = result == s
            lost = result == 1 - s
            for k in range(4):
                claimed = pus[:, s, k] > 0
                self.claimer[k] += (int(claimed.sum()), int((claimed & won).sum()),
                                    int((claimed & lost).sum()))
                other = ~claimed
                self.non_claimer[k] += (int(other.sum()), int((other & won).sum()),
                                        int((other & lost).sum()))

    def merge(self, other: "Summary") -> None:
        for name in ("match_results", "rounds_hist", "round_outcomes", "round_ms_hist",
                     "match_ms_hist", "ko_hist", "seat_totals", "simulations", "claimer",
                     "non_claimer", "claims", "more_claims"):
            getattr(self, name).__iadd__(getattr(other, name))
        for name in ("round_ms", "match_ms", "match_rounds", "round_kos"):
            getattr(self, name).merge(getattr(other, name))
        self.matches += other.matches

    def to_dict(self) -> Dict[str, Any]:
        """The metrics as a JSON-ready dict."""
        n = self.matches
        xw, ow, dr = (int(v) for v in self.match_results)
        decided = xw + ow
        total_rounds = int(self.round_outcomes.sum())
        by = self.round_outcomes.sum(axis=1)          # line, double_line, timeout
        res = self.round_outcomes.sum(axis=0)         # X, O, draw
        r_decided = int(res[0] + res[1])
        x_share = xw / decided if decided else None
        x_share_ci = list(wilson(xw, decided)) if decided else None
        round_share = res[0] / r_decided if r_decided else None

        def dist(m: _Moments, hist: np.ndarray, width: int) -> Dict[str, Any]:
            mean, ci = m.mean_ci()
            p10, p50, p90 = _quantiles(hist, width, (0.1, 0.5, 0.9))
            nz = np.nonzero(hist)[0]
            return {"mean": mean, "mean_ci": ci, "p10": p10, "median": p50, "p90": p90,
                    "min": int(nz[0]) * width if nz.size else None,
                    "max": int(nz[-1]) * width if nz.size else None, "bin_ms": width}

        rounds_mean, rounds_ci = self.match_rounds.mean_ci()
        ko_mean, ko_ci = self.round_kos.mean_ci()
        ko_q = _quantiles(self.ko_hist, 1, (0.1, 0.5, 0.9))
        seat = {}
        for s, name in enumerate(("X", "O")):
            seat[name] = {field_: int(self.seat_totals[s, j]) for j, field_ in enumerate(SEAT_COUNTS)}
            seat[name]["simulations"] = int(self.simulations[s])
            for field_ in ("knockouts", "placements", "retirements"):
                seat[name][f"{field_}_per_round"] = (seat[name][field_] / total_rounds
                                                     if total_rounds else None)
        # Baseline: the round win rate of a seat in a round, whatever it claimed.
        base_n = 2 * total_rounds
        baseline = r_decided / base_n if base_n else None
        powerups = {}
        for k, kind in enumerate(POWERUP_KINDS):
            c_n, c_w, c_l = (int(v) for v in self.claimer[k])
            o_n, o_w, o_l = (int(v) for v in self.non_claimer[k])
            rate = c_w / c_n if c_n else None
            powerups[kind] = {
                "claims": int(self.claims[:, k].sum()), "claims_x": int(self.claims[0, k]),
                "claims_o": int(self.claims[1, k]),
                "claims_per_round": self.claims[:, k].sum() / total_rounds if total_rounds else None,
                "claimer_rounds": c_n, "claimer_wins": c_w, "claimer_losses": c_l,
                "claimer_win_rate": rate,
                "claimer_win_ci": list(wilson(c_w, c_n)) if c_n else None,
                "non_claimer_win_rate": o_w / o_n if o_n else None,
                "non_claimer_win_ci": list(wilson(o_w, o_n)) if o_n else None,
                "baseline_win_rate": baseline,
                "impact": (rate - baseline) if rate is not None and baseline is not None else None,
                "uneven_rounds": int(self.more_claims[k, 0]),
                "more_claims_win_share": (self.more_claims[k, 1] / self.more_claims[k, 0]
                                          if self.more_claims[k, 0] else None),
                "more_claims_win_ci": (list(wilson(int(self.more_claims[k, 1]), int(self.more_claims[k, 0])))
                                       if self.more_claims[k, 0] else None),
            }
            share = powerups[kind]["more_claims_win_share"]
            powerups[kind]["more_claims_win_share"] = float(share) if share is not None else None
            powerups[kind]["claims_per_round"] = (float(powerups[kind]["claims_per_round"])
                                                  if total_rounds else None)
        out: Dict[str, Any] = {
            "matches": n, "x_wins": xw, "o_wins": ow, "draws": dr,
            "x_win_rate": xw / n if n else None, "x_win_ci": list(wilson(xw, n)),
            "o_win_rate": ow / n if n else None, "o_win_ci": list(wilson(ow, n)),
            "draw_rate": dr / n if n else None, "draw_ci": list(wilson(dr, n)),
            "seat_advantage": {
                "x_share_of_decided": x_share, "x_share_ci": x_share_ci,
                "significant": bool(x_share_ci is not None and (x_share_ci[0] > 0.5 or x_share_ci[1] < 0.5)),
                "round_x_share_of_decided": float(round_share) if round_share is not None else None,
                "round_x_share_ci": list(wilson(int(res[0]), r_decided)) if r_decided else None,
            },
            "rounds": {
                "total": total_rounds, "x_wins": int(res[0]), "o_wins": int(res[1]),
                "draws": int(res[2]), "by_line": int(by[0]), "by_double_line": int(by[1]),
                "by_timeout": int(by[2]),
                "timeout_decided": int(self.round_outcomes[2, 0] + self.round_outcomes[2, 1]),
                "timeout_drawn": int(self.round_outcomes[2, 2]),
            },
            "round_draw_rate": float(res[2] / total_rounds) if total_rounds else None,
            "round_draw_ci": list(wilson(int(res[2]), total_rounds)) if total_rounds else None,
            "decisiveness": float(by[0] / total_rounds) if total_rounds else None,
            "decisiveness_ci": list(wilson(int(by[0]), total_rounds)) if total_rounds else None,
            "timeout_share": float(by[2] / total_rounds) if total_rounds else None,
            "timeout_share_ci": list(wilson(int(by[2]), total_rounds)) if total_rounds else None,
            "round_length_ms": dist(self.round_ms, self.round_ms_hist, self.round_ms_width),
            "match_length_ms": dist(self.match_ms, self.match_ms_hist, self.match_ms_width),
            "match_rounds": {"mean": rounds_mean, "mean_ci": rounds_ci,
                             "distribution": {str(k): int(v) for k, v in enumerate(self.rounds_hist) if v}},
            "knockouts_per_round": {"mean": ko_mean, "mean_ci": ko_ci, "p10": ko_q[0],
                                    "median": ko_q[1], "p90": ko_q[2],
                                    "x_mean": seat["X"]["knockouts_per_round"],
                                    "o_mean": seat["O"]["knockouts_per_round"]},
            "powerups": powerups,
            "seats": seat,
        }
        return out


# -- running -----------------------------------------------------------------------------------


class SimulationResult(NamedTuple):
    """What :func:`simulate` returns: the records (a ``pyarrow.Table``, or ``None`` when
    not kept) and the summary dict."""

    table: Any
    summary: Dict[str, Any]


ChunkSource = Callable[[SimulationJob, Callable[[int, Dict[str, Any]], None]], None]


def run_local(job: SimulationJob, on_chunk: Callable[[int, Dict[str, Any]], None],
              workers: int) -> None:
    """Play every chunk of ``job`` on a pool of ``workers`` threads (the native loop
    drops the GIL), handing each chunk's columns to ``on_chunk(index, cols)`` as it
    finishes. At most ``2 × workers`` chunks are in flight, so memory stays flat."""
    payload = job.payload()
    if workers == 1:
        for i in range(job.chunks):
            on_chunk(i, play_chunk(payload, i))
        return
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tictacblitz-sim") as pool:
        pending: Dict[Any, int] = {}
        nxt = 0
        try:
            while nxt < job.chunks or pending:
                while nxt < job.chunks and len(pending) < 2 * workers:
                    pending[pool.submit(play_chunk, payload, nxt)] = nxt
                    nxt += 1
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in sorted(done, key=pending.__getitem__):
                    on_chunk(pending.pop(fut), fut.result())
        finally:
            for fut in pending:
                fut.cancel()


class _Ordered:
    """Receives chunks in any order, passes them on in chunk order (records are written
    in match order whatever finished first); each chunk is taken once only."""

    def __init__(self, sink: Callable[[int, Dict[str, Any]], None]) -> None:
        self.sink = sink
        self.next = 0
        self.waiting: Dict[int, Dict[str, Any]] = {}

    def __call__(self, index: int, cols: Dict[str, Any]) -> None:
        if index < self.next or index in self.waiting:
            return                       # a duplicate (a retried task): already counted
        self.waiting[index] = cols
        while self.next in self.waiting:
            self.sink(self.next, self.waiting.pop(self.next))
            self.next += 1


def _progress_bar(total: int, enabled: bool) -> Tuple[Callable[[int], None], Callable[[], None]]:
    """(advance(n), close()) of a progress bar on stderr showing matches/s and the time
    left: rich if installed, else tqdm, else nothing."""
    if not enabled:
        return (lambda n: None), (lambda: None)
    try:
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)
    except ImportError:
        try:
            from tqdm import tqdm
        except ImportError:
            return (lambda n: None), (lambda: None)
        bar = tqdm(total=total, unit="match", file=sys.stderr, smoothing=0.1)
        return bar.update, bar.close
    progress = Progress(
        TextColumn("simulate"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} matches/s"), TimeElapsedColumn(),
        TextColumn("left"), TimeRemainingColumn(),
        console=Console(stderr=True), transient=False)
    task = progress.add_task("simulate", total=total, rate="-")
    started = time.perf_counter()
    done = [0]
    progress.start()

    def advance(n: int) -> None:
        done[0] += n
        elapsed = time.perf_counter() - started
        rate = f"{done[0] / elapsed:,.0f}" if elapsed > 0 else "-"
        progress.update(task, advance=n, rate=rate)

    return advance, progress.stop


def simulate(matches: int = 1000, x: Union[str, BotSpec] = "greedy",
             o: Union[str, BotSpec] = "greedy", rules: Optional[Union[Rules, Dict[str, Any]]] = None,
             seed: int = 0, *, workers: Optional[int] = None, out: Optional[str] = None,
             table: bool = True, client: Any = None, chunk_size: Optional[int] = None,
             progress: bool = False, random_powerups: bool = True,
             on_chunk: Optional[Callable[[int, Dict[str, Any]], None]] = None) -> SimulationResult:
    """Play ``matches`` whole matches of bot ``x`` against bot ``o`` (preset names or
    :class:`~tictacblitz.games.blitz.bots.BotSpec`) under ``rules``, match ``i`` with the seed
    :func:`match_seeds` gives for (``seed``, i).

    ``workers``: threads (default: every core). ``client``: a ``dask.distributed.Client``
    to send the chunks to instead (``workers`` is then ignored). ``out``: a ``.parquet``
    or ``.csv`` file the records are streamed to (written to a temporary file and renamed
    when complete). ``table``: also return the records as a ``pyarrow.Table`` (memory
    grows with N; pass ``False`` for big runs). ``progress``: a progress bar on stderr.
    ``on_chunk(index, cols)``: called with each chunk's columns in chunk order.

    Returns ``SimulationResult(table, summary)``; the summary (see docs/simulate.md) holds
    ``matches``, ``x_wins``, ``o_wins``, ``draws``, ``matches_per_s`` and the metrics.

    :raises ValueError: for a bad argument (nothing is played or written).
    """
    if workers is None:
        workers = default_workers()
    job = prepare(matches, x, o, rules, seed, workers=workers, chunk_size=chunk_size,
                  random_powerups=random_powerups)
    if out is not None:
        check_out_path(out)
    if out is not None or table:
        _pa()
    summary = Summary(job.rules)
    tables: List[Any] = []
    writer = RecordWriter(out) if out is not None else None
    advance, close = _progress_bar(job.matches, progress)

    def sink(index: int, cols: Dict[str, Any]) -> None:
        summary.add(cols)
        if writer is not None or table:
            t = chunk_table(cols)
            if writer is not None:
                writer.write(t)
            if table:
                tables.append(t)
        if on_chunk is not None:
            on_chunk(index, cols)
        advance(len(cols["winner"]))

    ordered = _Ordered(sink)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    try:
        if client is not None:
            from .distributed import run_on_client

            run_on_client(client, job, ordered)
        else:
            run_local(job, ordered, workers)
        if ordered.next != job.chunks or summary.matches != job.matches:
            raise RuntimeError(f"simulation incomplete: {summary.matches} of {job.matches} matches")
        if writer is not None:
            writer.commit()
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    finally:
        close()
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    result = summary.to_dict()
    head = {
        "matches": result.pop("matches"), "x_wins": result.pop("x_wins"),
        "o_wins": result.pop("o_wins"), "draws": result.pop("draws"),
        "matches_per_s": job.matches / wall if wall > 0 else None,
        "seconds": wall, "cpu_seconds": None if client is not None else cpu,
        "workers": None if client is not None else workers,
        "scheduler": _client_address(client), "chunk_size": job.chunk_size,
        "seed": job.seed, "x_bot": job.x_name, "o_bot": job.o_name,
        "x_spec": job.x.to_dict(), "o_spec": job.o.to_dict(),
        "rules": job.rules.overrides(), "out": os.fspath(out) if out is not None else None,
    }
    head.update(result)
    records = None
    if table:
        pa = _pa()
        records = pa.concat_tables(tables) if tables else record_schema().empty_table()
    return SimulationResult(records, head)


def _client_address(client: Any) -> Optional[str]:
    if client is None:
        return None
    try:
        return str(client.scheduler.address)
    except AttributeError:
        return "dask"


# -- the command line --------------------------------------------------------------------------


def add_common_arguments(parser: argparse.ArgumentParser, *, matches: int) -> None:
    """The arguments ``simulate`` and ``sweep`` share."""
    parser.add_argument("--matches", type=int, default=matches, metavar="N",
                        help=f"matches to play (default: {matches})")
    parser.add_argument("--x", default="greedy", metavar="BOT",
                        help=f"X's bot (default: greedy; one of {', '.join(BOT_NAMES)})")
    parser.add_argument("--o", default="greedy", metavar="BOT", help="O's bot (default: greedy)")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                        help="override a rule number (RULES.md names), e.g. --rule set_ms=1200; repeatable")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="master seed; match i's seed is derived from S and i (default: 0)")
    parser.add_argument("--workers", type=int, default=None, metavar="W",
                        help="threads (default: every core); results do not depend on it")
    parser.add_argument("--chunk-size", type=int, default=None, metavar="C",
                        help="matches a task (default: chosen from N and W); results do not depend on it")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="run the chunks on this Dask scheduler (tcp://host:8786) instead of threads")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``simulate`` subcommand to an argparse subparsers object; its handler
    (``args.handler(args)``) returns the exit status."""
    parser = subparsers.add_parser(
        "simulate", help="play many matches between two bots and summarise the game's balance",
        description="Play N whole matches between two bots under the given rules (on every "
                    "core, or a Dask cluster) and print a balance summary: seat advantage, "
                    "draws, decisiveness, round and match lengths, knock-outs, powerup "
                    "impact (docs/simulate.md). Per-match records go to --out.")
    add_common_arguments(parser, matches=1000)
    parser.add_argument("--out", default=None, metavar="FILE",
                        help="write per-match records to FILE.parquet or FILE.csv")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(handler=main)
    return parser


class ArgumentProblem(ValueError):
    """A bad command-line argument (exit status 2)."""


def job_arguments(args: argparse.Namespace) -> Dict[str, Any]:
    """Validated keyword arguments of :func:`simulate` from parsed arguments.

    :raises ArgumentProblem: with a message naming the bad argument.
    """
    try:
        rules = Rules.from_assignments(args.rule)
    except (TypeError, ValueError) as exc:
        raise ArgumentProblem(f"--rule: {exc}") from None
    for flag, name in (("--x", args.x), ("--o", args.o)):
        if name not in BOT_NAMES:
            raise ArgumentProblem(f"{flag} {name!r}: unknown bot; expected one of {', '.join(BOT_NAMES)}")
    if args.matches < 1:
        raise ArgumentProblem(f"--matches must be >= 1, not {args.matches}")
    if args.workers is not None and args.workers < 1:
        raise ArgumentProblem(f"--workers must be >= 1, not {args.workers}")
    if args.chunk_size is not None and args.chunk_size < 1:
        raise ArgumentProblem(f"--chunk-size must be >= 1, not {args.chunk_size}")
    workers = args.workers if args.workers is not None else default_workers()
    try:
        prepare(args.matches, args.x, args.o, rules, args.seed, workers=workers,
                chunk_size=args.chunk_size)
    except (TypeError, ValueError) as exc:
        raise ArgumentProblem(str(exc)) from None
    return {"matches": args.matches, "x": args.x, "o": args.o, "rules": rules,
            "seed": args.seed, "workers": workers, "chunk_size": args.chunk_size}


def connect(address: Optional[str]) -> Any:
    """A Dask client for ``--scheduler ADDRESS`` (None: no client)."""
    if address is None:
        return None
    try:
        from distributed import Client
    except ImportError:
        raise ArgumentProblem("--scheduler needs dask[distributed]: pip install 'tictacblitz[cluster]'") from None
    try:
        return Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise ArgumentProblem(f"--scheduler {address!r}: cannot connect: {exc}") from None


def _error(command: str, message: str) -> int:
    print(f"tictacblitz {command}: error: {message}", file=sys.stderr)
    return 2


def main(args: argparse.Namespace) -> int:
    """Run ``simulate`` as the parsed ``args`` say: 0 on success, 2 on a bad argument
    (reported on stderr before any match is played or any file written)."""
    from .report import format_summary

    try:
        kwargs = job_arguments(args)
        if args.out is not None:
            check_out_path(args.out)
            _pa()
        client = connect(args.scheduler)
    except (ArgumentProblem, ValueError, ImportError) as exc:
        return _error("simulate", str(exc))
    try:
        _, summary = simulate(**kwargs, out=args.out, table=False, client=client,
                              progress=not args.no_progress and sys.stderr.isatty())
    finally:
        if client is not None:
            client.close()
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print(format_summary(summary))
    return 0
