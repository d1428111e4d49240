"""RiftRules: every number of the rules is a validated setting (G10-G14, G17)."""

from __future__ import annotations

import pickle

import pytest

from tictacblitz.games.rift.rules import RiftRules
from tictacblitz.games.rift.types import DEFAULT_OBJECTIVE_POINTS, OBJECTIVE_IDS, Ability


def test_defaults_are_the_contract_numbers():
    r = RiftRules()
    assert (r.sector_win_points, r.sector_tie_points, r.meta_line_points) == (3, 1, 5)
    assert (r.energy_start, r.energy_max, r.energy_idle_gain, r.energy_sector_gain) == (5, 10, 1, 1)
    assert [(r.cost(a), r.cooldown(a)) for a in Ability] == [(0, 0), (2, 3), (2, 4), (10, 5)]
    assert r.objectives_per_player == 3
    assert r.objectives == OBJECTIVE_IDS
    assert dict(r.objective_points) == DEFAULT_OBJECTIVE_POINTS
    assert r.points("meta_line") == 15 and r.points("centre_cells") == 9


def test_round_trips():
    r = RiftRules(
        shield_cost=1,
        objectives=("centre", "meta_line"),
        objectives_per_player=2,
        objective_points={"centre": 30},
    )
    assert RiftRules.from_dict(r.to_dict()) == r
    assert RiftRules.from_dict(r.overrides()) == r
    assert r.overrides() == {
        "shield_cost": 1,
        "objectives": ["centre", "meta_line"],
        "objectives_per_player": 2,
        "objective_points": {"centre": 30},
    }
    assert RiftRules().overrides() == {}
    assert pickle.loads(pickle.dumps(r)) == r and hash(pickle.loads(pickle.dumps(r))) == hash(r)
    assert RiftRules.from_assignments(["swap_cooldown=2"]).swap_cooldown == 2


@pytest.mark.parametrize(
    "change, error, words",
    [
        ({"shield_cost": -1}, ValueError, "rules.shield_cost=-1"),
        ({"shield_cost": "2"}, TypeError, "rules.shield_cost='2'"),
        ({"meta_line_points": True}, TypeError, "rules.meta_line_points=True"),
        ({"reveal_cooldown": 1001}, ValueError, "rules.reveal_cooldown=1001"),
        ({"energy_start": 11}, ValueError, "rules.energy_start=11"),
        ({"objectives_per_player": 13}, ValueError, "rules.objectives_per_player=13"),
        ({"objectives": ["centre", "moon"]}, ValueError, "'moon'"),
        ({"objectives": ["centre", "centre", "meta_line"]}, ValueError, "listed twice"),
        ({"objectives": ["centre"]}, ValueError, "fewer than objectives_per_player"),
        ({"objectives": "centre"}, TypeError, "rules.objectives='centre'"),
        ({"objective_points": {"moon": 3}}, ValueError, "'moon'"),
        ({"objective_points": {"centre": 2.5}}, TypeError, "rules.objective_points.centre=2.5"),
        ({"objective_points": {"centre": -2}}, ValueError, "rules.objective_points.centre=-2"),
    ],
)
def test_bad_values_name_the_field_and_value(change, error, words):
    with pytest.raises(error) as info:
        RiftRules.from_dict(change)
    assert words in str(info.value)


def test_unknown_rule_and_immutability():
    with pytest.raises(ValueError, match="unknown rule 'shield_price'"):
        RiftRules.from_dict({"shield_price": 1})
    with pytest.raises(TypeError, match="rules must be an object"):
        RiftRules.from_dict([("shield_cost", 1)])
    r = RiftRules()
    with pytest.raises(AttributeError):  # a frozen dataclass
        r.shield_cost = 1
    with pytest.raises(TypeError, match="immutable"):
        r.objective_points["centre"] = 1


def test_native_numbers_follow_the_engine_order():
    from blitz_core.rift import engine
    from tictacblitz.games.rift.rules import NATIVE_SCALARS

    assert NATIVE_SCALARS == engine.RULES_SCALARS
    r = RiftRules(objectives=("meta_line", "centre"), objectives_per_player=1)
    numbers = r.native_params()
    assert numbers[14:17] == (2, OBJECTIVE_IDS.index("meta_line"), OBJECTIVE_IDS.index("centre"))
    assert len(numbers) == 14 + 1 + 2 + 12
