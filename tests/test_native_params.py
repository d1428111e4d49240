"""Issue 27, item 5: every game's rules cross into native code one way, a flat tuple
from the rules object's ``native_params()``, in the order the native module names
(Blitz: ``match.RULES_PARAMS``, Rift: ``engine.RULES_SCALARS`` then the catalogue),
unpacked there in one place."""

from __future__ import annotations

from dataclasses import fields

import pytest

from tictacblitz import Rules


def test_blitz_params_follow_the_native_order() -> None:
    match = pytest.importorskip("blitz_core.blitz.match")
    rules = Rules(size=5, line_length=4, mark_limit=9, freeze_factor=0.5, swap_max=2)
    params = dict(zip(match.RULES_PARAMS, rules.native_params(), strict=True))
    for name in {f.name for f in fields(Rules)} & set(params):
        assert params[name] == getattr(rules, name), name
    speeds = [params[f"speed_{k}"] for k in ("normal", "frozen", "hasted", "frozen_hasted")]
    assert tuple(speeds) == rules.speed_units
    assert params["need_place"] == rules.refill_need(rules.recharge_place_ms)
    assert params["need_knockout"] == rules.refill_need(rules.recharge_knockout_ms)
    weights = [params[f"weight_{k}"] for k in ("bomb", "freeze", "haste", "swap")]
    assert tuple(weights) == rules.weights
    assert params["random_spawns"] == rules.random_spawns


def test_blitz_rules_reach_the_engine_through_them() -> None:
    pytest.importorskip("blitz_core.blitz.match")
    from tictacblitz import ActionKind, Match

    rules = Rules(size=5, line_length=4, round_ms=9000)
    match = Match(rules, seed=1)
    assert len(match.legal_cells("X", ActionKind.PLACE)) == 25  # the size the engine got


def test_rift_params_follow_the_native_order() -> None:
    engine = pytest.importorskip("blitz_core.rift.engine")
    from tictacblitz.games.rift.rules import RiftRules

    rules = RiftRules(energy_start=3, shield_cost=2)
    params = rules.native_params()
    scalars = dict(zip(engine.RULES_SCALARS, params, strict=False))
    for name, value in scalars.items():
        assert value == getattr(rules, name), name
    assert params[len(engine.RULES_SCALARS)] == len(rules.objectives)
    engine.Core(params, 1)  # the native side takes the tuple as it comes
