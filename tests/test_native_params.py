"""Issue 27, item 5: every game's rules cross into native code one way, a flat tuple
from the rules object's ``native_params()``, in the order the native module names
(Blitz: ``match.RULES_PARAMS``, Rift: ``engine.RULES_SCALARS`` then the catalogue, Doh:
``engine.RULES_PARAMS``), unpacked there in one place."""

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


def test_doh_params_follow_the_native_order() -> None:
    engine = pytest.importorskip("blitz_core.doh.engine")
    from tictacblitz.games.doh.rules import DohRules

    rules = DohRules(pieces_per_size=4, grid=2, players=3)  # three different numbers
    assert set(engine.RULES_PARAMS) == {f.name for f in fields(DohRules)}  # every rule crosses
    params = dict(zip(engine.RULES_PARAMS, rules.native_params(), strict=True))
    position = engine.Position(rules.native_params())  # what the native side read
    for name, value in params.items():
        assert value == getattr(rules, name) == getattr(position, name), name


def _doh_entry_points() -> dict:
    """Every native entry point of Doh that takes the rules, each called with ``rules``."""
    from blitz_core.doh import best_response, engine
    from blitz_core.doh.batch import DohBatch
    from blitz_core.doh.solver import Solver

    return {
        "Position": lambda rules: engine.Position(rules),
        "Position.from_key": lambda rules: engine.Position.from_key(0, rules),
        "random_games": lambda rules: engine.random_games(rules, n=1),
        "key_stash_bits": lambda rules: engine.key_stash_bits(rules),
        "Solver": lambda rules: Solver(rules),
        "DohBatch": lambda rules: DohBatch(2, rules, (0, 0.0, 0), 0),
        "start_key": lambda rules: best_response.start_key(rules),
        "expand": lambda rules: best_response.expand([0], rules),
        "observe": lambda rules: best_response.observe([0], rules, 0),
    }


def test_doh_rules_reach_every_entry_point_through_them() -> None:
    pytest.importorskip("blitz_core.doh.engine")
    from tictacblitz.games.doh.rules import DohRules

    rules = DohRules(pieces_per_size=4, grid=2)
    calls = _doh_entry_points()
    position = calls["Position"](rules.native_params())
    assert (position.pieces_per_size, position.grid, position.stash) == (4, 2, (4, 4, 4))
    solver = calls["Solver"](rules.native_params())
    assert (solver.pieces_per_size, solver.grid, solver.players) == (4, 2, 2)
    batch = calls["DohBatch"](DohRules(players=4).native_params())
    assert batch.players == 4 and batch.rules == (5, 3, 4)
    moves, draws, *wins = calls["random_games"](DohRules(players=3).native_params())
    assert len(wins) == 3  # one count a seat of the rules it was given
    assert calls["start_key"](rules.native_params()) == position.key()


BAD_DOH_PARAMS = [
    ((5, 3), ValueError, "expected the 3 numbers of DohRules.native_params()"),
    ((5, 3, 2, 1), ValueError, "expected the 3 numbers of DohRules.native_params()"),
    ((11, 3, 2), ValueError, "rules.pieces_per_size must be from 1 to 10, not 11"),
    ((5, 0, 2), ValueError, "rules.grid must be from 1 to 3, not 0"),
    ((5, 3, 5), ValueError, "rules.players must be from 2 to 4, not 5"),
    ((5, "3", 2), TypeError, "rules.grid must be an integer, not '3'"),
    ((5, 3, True), TypeError, "rules.players must be an integer, not True"),
    ((5.0, 3, 2), TypeError, "rules.pieces_per_size must be an integer, not 5.0"),
    ([5, 3, 2], TypeError, "rules must be the tuple of DohRules.native_params()"),
    (None, TypeError, "rules must be the tuple of DohRules.native_params()"),
]


@pytest.mark.parametrize("bad, error, line", BAD_DOH_PARAMS)
def test_every_doh_entry_point_refuses_bad_rules_in_one_line(bad, error, line) -> None:
    pytest.importorskip("blitz_core.doh.engine")
    for name, call in _doh_entry_points().items():
        with pytest.raises(error) as caught:
            call(bad)
        message = str(caught.value)
        assert line in message and "\n" not in message, (name, message)


def test_a_doh_rules_object_is_refused_for_its_params() -> None:
    pytest.importorskip("blitz_core.doh.engine")
    from tictacblitz.games.doh.rules import DohRules

    for call in _doh_entry_points().values():
        with pytest.raises(TypeError, match=r"not DohRules$"):
            call(DohRules())


def test_the_best_response_refuses_rules_of_more_players() -> None:
    pytest.importorskip("blitz_core.doh.engine")
    from blitz_core.doh import best_response
    from tictacblitz.games.doh.rules import DohRules

    three = DohRules(players=3).native_params()
    for call in (
        lambda: best_response.start_key(three),
        lambda: best_response.expand([0], three),
        lambda: best_response.observe([0], three, 0),
    ):
        with pytest.raises(ValueError, match=r"rules.players=3: the best response is for 2"):
            call()
