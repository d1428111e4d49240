"""The ``strong`` bot's learned tables: their layout, the shipped file, the start point.

The policy itself is native (``blitz_core.blitz.bots``, ``strong_core``): every legal
action is scored by the sum, over the windows (R11) through its cell, of a table entry
indexed by the window's counts (own set, own setting, opponent set, opponent setting
marks), plus a few extras (a knock-out's tempo, its target's time to set, powerups); the
best score is played. The tables are learned by ``scripts/train_strong.py`` and shipped
as ``strong_weights.json`` next to this module (package data: the wheel packs every file
under ``python/tictacblitz``). docs/bots.md describes the bot and how it was trained.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy as np

__all__ = [
    "EXTRA_NAMES",
    "WEIGHTS_PATH",
    "Weights",
    "greedy_like",
    "load",
    "load_native",
    "save",
    "state_index",
    "table_states",
    "use",
]

WEIGHTS_PATH = Path(__file__).with_name("strong_weights.json")

# The extras, in the order of the native SX_* slots (bots.pyx).
EXTRA_NAMES: Tuple[str, ...] = (
    "ko_bias",  # every knock-out: its longer refill (R5)
    "ko_sets_within_place_refill",  # the target sets before a placement refill ends
    "ko_sets_within_ko_refill",
    "ko_sets_within_two_ko_refills",
    "ko_sets_later",
    "claim_bomb",  # R14, R15, R17-R19
    "claim_freeze",
    "claim_haste",
    "claim_swap",
    "bomb_per_set_mark",
    "bomb_per_setting_mark",
    "swap_per_set_mark",
    "freeze_or_haste_near_line",
    "wait_below",  # only knock-outs legal: knock out only above this score
    "unused_14",
    "unused_15",
)

Weights = Tuple[np.ndarray, np.ndarray, np.ndarray]
"""(placement table, knock-out table, extras): 625, 625 and 16 floats."""


def state_index(own_set: int, own_setting: int, opp_set: int, opp_setting: int) -> int:
    """A window's entry in a table (5**4 entries: each count is 0 to 4)."""
    return own_set * 125 + own_setting * 25 + opp_set * 5 + opp_setting


def table_states(knockout: bool) -> List[Tuple[int, int, int, int]]:
    """The window states a table can meet: a placement's window has an empty cell (at
    most 3 marks); a knock-out's holds its target, an opponent setting mark."""
    out = []
    for a in range(5):
        for b in range(5 - a):
            for c in range(5 - a - b):
                for d in range(5 - a - b - c):
                    if knockout and d >= 1 or not knockout and a + b + c + d <= 3:
                        out.append((a, b, c, d))
    return out


def greedy_like() -> Weights:
    """The start of training: tables that play about like ``greedy`` (its rule order
    as score tiers: knock out a four's last mark, complete a line, block three set
    marks, knock out a three, build), losing to it about 2 matches in 3."""
    place = np.zeros(625)
    ko = np.zeros(625)
    extra = np.zeros(16)
    for a, b, c, d in table_states(False):
        v = 0.0
        if c + d == 0:
            v += 4.0**a + 2 * b
        if a + b == 0:
            v += 4.0**c - 1 + d
        if a == 3:
            v = 1e5
        if c == 3:
            v = 5e4
        place[state_index(a, b, c, d)] = v
    for a, b, c, d in table_states(True):
        if a + b == 0 and c == 3 and d == 1:
            ko[state_index(a, b, c, d)] = 2e5
        elif a + b == 0 and c + d >= 3:
            ko[state_index(a, b, c, d)] = 2e4 + 16 * (c + d) + c
    extra[0] = -1e4
    extra[1:5] = (300, 200, 100, 0)
    extra[9:13] = (40, 10, 40, 80)
    extra[13] = -1e3
    return place, ko, extra


def _table_dict(table: np.ndarray, knockout: bool) -> Dict[str, float]:
    return {
        ",".join(map(str, s)): float(table[state_index(*s)])
        for s in table_states(knockout)
        if table[state_index(*s)] != 0.0
    }


def save(weights: Weights, path: Path, meta: Dict[str, Any]) -> None:
    """Write the tables as JSON: entries keyed "own_set,own_setting,opp_set,opp_setting"
    (zeros left out), the extras by name, and ``meta`` (how they were trained)."""
    place, ko, extra = weights
    doc = {
        "format": 1,
        "meta": meta,
        "place": _table_dict(place, False),
        "knockout": _table_dict(ko, True),
        "extra": {name: float(v) for name, v in zip(EXTRA_NAMES, extra, strict=True)},
    }
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


def load(path: Path = WEIGHTS_PATH) -> Weights:
    """The tables of a file written by :func:`save`.

    :raises ValueError: for a file that is not such tables (naming what is wrong).
    """
    doc = json.loads(path.read_text(encoding="utf-8"))
    if doc.get("format") != 1:
        raise ValueError(f"{path}: format {doc.get('format')!r}, expected 1")
    tables = []
    for key, knockout in (("place", False), ("knockout", True)):
        table = np.zeros(625)
        allowed = set(table_states(knockout))
        for state, value in doc[key].items():
            counts = tuple(int(x) for x in state.split(","))
            if counts not in allowed:
                raise ValueError(f"{path}: {key} state {state!r} is not a possible window")
            table[state_index(*counts)] = float(value)
        tables.append(table)
    extra = np.zeros(16)
    for name, value in doc["extra"].items():
        if name not in EXTRA_NAMES:
            raise ValueError(f"{path}: unknown extra {name!r}")
        extra[EXTRA_NAMES.index(name)] = float(value)
    return tables[0], tables[1], extra


_loaded = False


def use(weights: Weights) -> None:
    """Make the native ``strong`` policies play with ``weights`` (training, tests) until
    the next call; without one they play with the shipped tables."""
    global _loaded
    from blitz_core.blitz.bots import set_strong_weights

    set_strong_weights(*weights)
    _loaded = True


def load_native() -> None:
    """Hand the shipped tables to the native module unless tables are in use already
    (the native ``strong`` kind refuses to play before)."""
    if not _loaded:
        use(load())
