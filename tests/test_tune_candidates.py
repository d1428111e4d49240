"""lab/candidates.py: one rule set measured on paired seeds (issue 24, items 1 and 2)."""

import pytest

from tictacblitz.lab.candidates import Candidates, Estimate, measure, tunable_rules


def test_the_same_seed_plays_the_same_matches_for_every_candidate():
    lab = Candidates("doh", seats=["all=greedy"], workers=1)
    a = lab.measure({"pieces_per_size": 4}, matches=30, seed=7)
    again = lab.measure({"pieces_per_size": 4}, matches=30, seed=7)
    other_seed = lab.measure({"pieces_per_size": 4}, matches=30, seed=8)
    assert a == again  # common random numbers: the seeds, not the call, fix the luck
    assert set(a) >= {"x_win_rate", "draw_rate", "first_score", "game_length"}
    assert all(isinstance(e, Estimate) and e.known for e in a.values())
    assert a["game_length"].unit == "plies" and a["first_score"].unit == "share"
    assert a != other_seed


def test_a_rule_change_moves_its_metric_and_intervals_hold_their_value():
    lab = Candidates("doh", seats={"all": "greedy"}, workers=1)
    one = lab.measure({"pieces_per_size": 1}, matches=20, seed=1)["game_length"]
    five = lab.measure({}, matches=20, seed=1)["game_length"]
    # D1/D8: a stash of one piece a size ends the game within 3 plies.
    assert one.high <= 3 < five.low
    for e in (one, five):
        assert e.low <= e.value <= e.high


def test_a_candidate_that_changes_the_seats_reports_every_seat():
    from tictacblitz.lab.seating import EVERY

    lab = Candidates("doh", seats={EVERY: "random"}, workers=1)
    got = lab.measure({"players": 3}, matches=12, seed=3)
    assert {"first_win_rate", "second_win_rate", "third_win_rate"} <= set(got)


@pytest.mark.parametrize("game", ["blitz", "rift"])
def test_every_game_reports_its_own_metrics(game):
    got = measure(game, {}, matches=6, seed=2, seats=["all=greedy"], workers=1)
    assert "x_win_rate" in got and len(got) > 4


def test_tunable_rules_come_from_the_sweepable_hook_with_base_defaults():
    rules = tunable_rules("blitz", {"set_ms": 1200})
    assert rules["set_ms"].type is int and rules["set_ms"].default == 1200
    assert rules["freeze_factor"].type is float
    assert "powerup_weights.bomb" in rules


@pytest.mark.parametrize(
    "overrides, words",
    [
        ({"nope": 3}, "unknown rule 'nope'"),
        ({"pieces_per_size": 99}, "pieces_per_size=99"),
        ({"pieces_per_size": "3"}, "not a number"),
    ],
)
def test_a_bad_candidate_is_one_line_and_plays_nothing(overrides, words):
    lab = Candidates("doh", workers=1)
    with pytest.raises(ValueError, match=words) as info:
        lab.measure(overrides, matches=5, seed=0)
    assert "\n" not in str(info.value)


def test_a_bad_seat_is_refused_when_set_up():
    with pytest.raises(ValueError, match="nobody"):
        Candidates("doh", seats=["all=nobody"])


def test_doctests():
    import doctest

    from tictacblitz.lab import candidates

    assert doctest.testmod(candidates).failed == 0


def test_seats_take_player_models_and_presets():
    lab = Candidates("blitz", seats=["1=greedy:reaction=450ms,error=15%", "2=casual"], workers=1)
    assert lab.bots(lab.base) == ["greedy:reaction=450ms,error=15%", "casual"]
    got = lab.measure({"set_ms": 1000}, matches=4, seed=1)
    assert got["decisiveness"].known
    with pytest.raises(ValueError, match="reaction"):
        Candidates("blitz", seats=["1=greedy:reaction=fast"])
