"""Helpers shared by the Doh tests (imported as a plain module: tests/doh is on sys.path)."""

from __future__ import annotations

from tictacblitz.games.doh.reference import ReferenceDoh
from tictacblitz.games.doh.replay import NativeTable
from tictacblitz.games.doh.rules import DohRules

ENGINES = ("native", "reference")


def table(engine: str, **rules):
    """A fresh table of either engine, both played in absolute squares."""
    r = DohRules(**rules)
    return NativeTable(r) if engine == "native" else ReferenceDoh(r)


def subset_diff(expected, actual, path="$"):
    """None if ``actual`` contains ``expected`` (objects key by key, lists exactly,
    scalars exactly, a bool never equal to a number), else the first difference."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{path}: expected an object, got {actual!r}"
        for key, value in expected.items():
            if key not in actual:
                return f"{path}.{key}: missing"
            diff = subset_diff(value, actual[key], f"{path}.{key}")
            if diff:
                return diff
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{path}: expected {expected!r}, got {actual!r}"
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            diff = subset_diff(e, a, f"{path}[{i}]")
            if diff:
                return diff
        return None
    if type(expected) is not type(actual) and not (
        isinstance(expected, (int, float))
        and isinstance(actual, (int, float))
        and not isinstance(expected, bool)
        and not isinstance(actual, bool)
    ):
        return f"{path}: expected {expected!r}, got {actual!r}"
    return None if expected == actual else f"{path}: expected {expected!r}, got {actual!r}"
