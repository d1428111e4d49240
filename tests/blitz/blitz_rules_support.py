"""The helpers of the rule-by-rule tests (tests/blitz/test_blitz_rules_*.py): matches
of either engine, the pure-Python reference model and the native engine, and the events
in brief (imported as a plain module: tests/blitz is on sys.path)."""

from __future__ import annotations

import pytest

from tictacblitz import Match
from tictacblitz.games.blitz.reference import ReferenceMatch, SplitMix64
from tictacblitz.games.blitz.rules import Rules
from tictacblitz.games.blitz.types import (
    Action,
    EventKind,
    Player,
)

X, O = Player.X, Player.O  # noqa: E741 (O is the second seat's name in the rules)
place, knockout = Action.place, Action.knockout
EMPTY6 = ["......"] * 6


ENGINES = {"reference": ReferenceMatch, "native": Match}
engine = ReferenceMatch  # the engine of the running test (set by the fixture below)


@pytest.fixture(autouse=True, params=list(ENGINES))
def each_engine(request, monkeypatch):
    """Every test runs once per engine: `new` (and `engine`) build matches of that one."""
    monkeypatch.setitem(globals(), "engine", ENGINES[request.param])


def new(setup=None, *, seed=0, scripted=True, **rules):
    """A match on ``Rules(**rules)``; scripted powerups (no random spawns) by default.

    Stream layout 1 (docs/engine.md): the seeds and draws worked out below follow its one
    stream; layout 2 has its own tests (test_blitz_streams.py, the differential tests)."""
    return engine(Rules(**rules), seed=seed, setup=setup, random_powerups=not scripted, stream=1)


def brief(event):
    """One event as a short string: kind, then the fields it uses."""
    parts = [event.kind.name.lower()]
    if event.player is not None:
        parts.append(event.player.letter)
    if event.cell is not None:
        parts.append("%d,%d" % event.cell)
    if event.powerup is not None:
        parts.append(event.powerup.key)
    if event.until is not None:
        parts.append("until=%d" % event.until)
    if event.reason is not None:
        parts.append(event.reason.value)
    if event.kind in (EventKind.ROUND_OVER, EventKind.MATCH_OVER):
        parts.append("result=" + (event.result.letter if event.result is not None else "draw"))
    if event.by is not None:
        parts.append(event.by.value)
    if event.line is not None:
        parts.append("line=" + " ".join("%d,%d" % c for c in event.line))
    if event.scores is not None:
        parts.append("scores=%d-%d" % event.scores)
    return " ".join(parts)


def log(match):
    """The events of the last call, briefly."""
    return [brief(e) for e in match.events]


def at(match, t, player, action):
    """Advance to ``t`` and let one player act there."""
    match.advance_to(t)
    return match.act(player, action)


def first_coin_seeds():
    """Seeds whose first draw sends X first, and O first (R3)."""
    x_seed = next(s for s in range(100) if SplitMix64(s).coin() == X)
    o_seed = next(s for s in range(100) if SplitMix64(s).coin() == O)
    return x_seed, o_seed


def make(*args, **kwargs):
    """A match of the running test's engine, built from exactly these arguments."""
    return engine(*args, **kwargs)
