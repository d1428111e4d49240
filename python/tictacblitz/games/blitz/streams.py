"""Tic Tac Blitz's random stream layouts (R23; docs/engine.md "The random stream").

R23 asks for one seeded chance per match that gives the same match everywhere; how the
draws are laid out is the engine's:

- **layout 1**: one SplitMix64 stream per match, drawn in the order things happen (the
  files recorded before issue 22; a replay or scenario without a ``stream`` field);
- **layout 2** (new matches): four purposes (spawn times, spawn cells, spawn kinds, the
  R3 coin), each keyed by the seed, the round and an index, so that a draw does not
  depend on how many draws came before it. Two rule sets played on one seed then share
  every draw the changed rule does not touch (common random numbers, issue 22).

This module is the Python side of layout 2's keys; the native core has the same
constants in ``src/blitz_core/blitz/seeds.pxd`` and the differential tests tie the two.

>>> hex(purpose_key(base_keys(7)[PURPOSE_COIN], 1, 0))
'0x8637a84a026f1309'
"""

from __future__ import annotations

from typing import Tuple

from ..rng import MASK64, mix64

__all__ = [
    "STREAM_LAYOUTS",
    "DEFAULT_STREAM",
    "PURPOSE_SALTS",
    "PURPOSE_TIME",
    "PURPOSE_CELL",
    "PURPOSE_KIND",
    "PURPOSE_COIN",
    "base_keys",
    "purpose_key",
    "check_stream",
]

STREAM_LAYOUTS = (1, 2)
DEFAULT_STREAM = 2
"""The layout of a new match; a file without a ``stream`` field is layout 1."""

PURPOSE_TIME, PURPOSE_CELL, PURPOSE_KIND, PURPOSE_COIN = 0, 1, 2, 3
PURPOSE_SALTS = (
    0x5851F42D4C957F2D,  # spawn times
    0x2545F4914F6CDD1D,  # spawn cells
    0x4F1BBCDCBFA53E0B,  # spawn kinds
    0x9E6C63D0676A9A99,  # the R3 coin
)


def base_keys(seed: int) -> Tuple[int, int, int, int]:
    """``match_key ^ salt_P`` for the four purposes, in PURPOSE order, where
    ``match_key = mix64(seed)``."""
    match_key = mix64(seed & MASK64)
    return tuple(match_key ^ salt for salt in PURPOSE_SALTS)  # type: ignore[return-value]


def purpose_key(base: int, round_: int, index: int) -> int:
    """``key_P(round, index) = mix64(match_key ^ salt_P ^ (round << 32) ^ index)``, with
    ``base = match_key ^ salt_P``: the state of the stream (or, for the coin, the word)
    of one round's ``index``-th draw of a purpose."""
    return mix64(base ^ ((round_ << 32) & MASK64) ^ index)


def check_stream(stream: object) -> int:
    """``stream`` if it names a layout; else TypeError / ValueError naming the value."""
    if isinstance(stream, bool) or not isinstance(stream, int):
        raise TypeError(f"stream must be a stream layout (1 or 2), not {stream!r}")
    if stream not in STREAM_LAYOUTS:
        raise ValueError(f"stream must be a stream layout (1 or 2), not {stream!r}")
    return stream
