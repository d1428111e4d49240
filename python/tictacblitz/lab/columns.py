"""A runner's per-match columns, read by what they are: a *value* (a number a match, e.g.
moves played: its mean is a metric) or a *category* (a code a match, e.g. Doh's first
piece S/M/L or how the game ended: each code's *share* of matches is a metric, its mean
means nothing). Issue 22, item 2: the lab never averages a code column.

A game declares its code columns in its ``CODE_COLUMNS`` hook (``{column: (name of code
0, name of code 1, ...)}``; no names for a column whose codes are no categories to share
out, e.g. a bitmask: it gives no metric); a column its records store as an Arrow dictionary
(``record_fields``) is a code column too: undeclared (its codes unnamed), it is left out
of the metrics rather than averaged. The lab's defaults for a game
without ``Metrics``/``match_values`` hooks (:class:`~tictacblitz.lab.summary.ColumnMeans`,
:func:`~tictacblitz.lab.paired.match_values`) read the columns through
:func:`per_match`: values as means (``NAME_mean``), categories as shares
(``NAME_CODE_share``).
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, Tuple

import numpy as np

from .hooks import GameHooks

__all__ = ["NOT_METRICS", "code_columns", "per_match", "share_name", "MEAN"]

NOT_METRICS = ("winner", "seed", "seeds", "start", "match")
"""Runner columns that are no per-match measurement (the lab's own, or the seed echoed)."""
MEAN = "_mean"
_SHARE = "_share"


def code_columns(hooks: GameHooks) -> Dict[str, Tuple[str, ...]]:
    """``{column: code names}`` of every category column of the game: its
    ``CODE_COLUMNS`` hook, plus any column its records store as a dictionary (with no
    names when the hook does not name its codes: such a column gives no metric)."""
    out = {k: tuple(map(str, v)) for k, v in (hooks.get("CODE_COLUMNS") or {}).items()}
    fields = hooks.get("record_fields")
    if fields is not None:
        try:
            import pyarrow as pa
        except ImportError:  # no records without pyarrow: the hook alone then
            return out
        for name, kind in fields():
            if pa.types.is_dictionary(kind) and name not in out:
                out[name] = ()
    return out


def share_name(column: str, code: str) -> str:
    """The metric of one code's share of matches: ``end`` ``line`` -> ``end_line_share``."""
    return f"{column}_{code}{_SHARE}"


def per_match(
    cols: Dict[str, Any], hooks: GameHooks
) -> Iterator[Tuple[str, np.ndarray, np.ndarray]]:
    """``(metric, num, den)`` of every per-match column of a chunk: a value column as
    ``NAME_mean`` (num = the value, den = 1), each code of a category column as
    ``NAME_CODE_share`` (num = 1 where the match has that code, den = 1); a ``(n, 2)``
    value column per seat as ``NAME_x_mean``/``NAME_o_mean``. Other shapes are left out."""
    winner = np.asarray(cols["winner"])
    one = np.ones(winner.shape, np.int64)
    codes = code_columns(hooks)
    for name, values in cols.items():
        a = np.asarray(values)
        if name in NOT_METRICS or a.dtype.kind not in "iub" or a.shape[:1] != winner.shape:
            continue
        if name in codes:
            if a.ndim != 1:
                continue
            for k, code in enumerate(codes[name]):
                yield share_name(name, code), (a == k).astype(np.int64), one
        elif a.ndim == 1:
            yield f"{name}{MEAN}", a.astype(np.int64), one
        elif a.ndim == 2 and a.shape[1] == 2:
            yield f"{name}_x{MEAN}", a[:, 0].astype(np.int64), one
            yield f"{name}_o{MEAN}", a[:, 1].astype(np.int64), one
