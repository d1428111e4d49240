"""Rule-by-rule tests of charge, placing, rejections, set marks, knock-outs and
craters (docs/blitz.md R4-R9, docs/engine.md), run on both engines:
the pure-Python reference model and the native engine.

Every expectation here is worked out by hand from the rules text; tests are named after
the rule they pin down (``test_r9_...``).  Matches default to scripted powerups
(``random_powerups=False``) so that nothing random happens unless a test asks for it
(blitz_rules_support.new)."""

from __future__ import annotations

import pytest

# each_engine: the autouse fixture that runs every test on both engines
from blitz_rules_support import (
    O,
    X,
    at,
    each_engine,  # noqa: F401
    knockout,
    log,
    make,
    new,
    place,
)

from tictacblitz.games.blitz.rules import Rules
from tictacblitz.games.blitz.types import (
    Action,
    ActionKind,
    Reason,
)

# -- R4, R5: charge --------------------------------------------------------------------------


def test_r4_charges_start_full_and_every_accepted_action_empties_one():
    m = new()
    assert m.status(X).charge_full and m.status(O).charge_full
    m.act(X, place((0, 0)))
    assert not m.status(X).charge_full and m.status(O).charge_full
    m.advance(1)
    assert m.act(X, place((0, 1))) == Reason.NOT_CHARGED
    m.advance(1)
    assert m.act(O, place((0, 0))) == Reason.OCCUPIED  # rejected: costs nothing
    assert m.status(O).charge_full


def test_r5_worked_example_x_full_at_825():
    m = new()
    m.spawn_powerup("freeze", (3, 3))
    m.act(X, place((0, 0)))  # X emptied at 0: needs 450*5 = 2250
    assert at(m, 200, O, place((3, 3))) is None  # O claims the freeze at 200
    assert log(m)[-1] == "freeze_started X until=3200"
    status = m.status(X)
    assert status.charge_progress == 1000 / 2250  # 200 ms * 5 units
    assert status.charge_ready_t == 825  # 1250 more units at 2 a ms
    assert (status.frozen, status.frozen_until) == (True, 3200)
    assert at(m, 824, X, place((0, 1))) == Reason.NOT_CHARGED
    assert at(m, 825, X, place((0, 1))) is None


def test_r5_knockout_refill_is_700_ms():
    m = new()
    m.act(O, place((0, 0)))
    assert at(m, 1, X, knockout((0, 0))) is None
    assert m.status(X).charge_ready_t == 701
    assert at(m, 700, X, place((1, 1))) == Reason.NOT_CHARGED
    assert at(m, 701, X, place((1, 1))) is None


def test_r5_haste_and_a_scheduled_haste_end_mid_refill():
    m = new(haste_ms=100)
    m.spawn_powerup("haste", (0, 0))
    m.act(X, place((0, 0)))  # hasted [0, 100): 100 * 10 = 1000 units
    assert m.status(X).charge_ready_t == 350  # then 1250 at 5 a ms
    assert at(m, 349, X, place((0, 1))) == Reason.NOT_CHARGED
    assert at(m, 350, X, place((0, 1))) is None
    m = new()
    m.spawn_powerup("haste", (0, 0))
    m.act(X, place((0, 0)))
    assert m.status(X).charge_ready_t == 225  # 2250 at 10 a ms


def test_r5_frozen_and_hasted_together():
    m = new()
    m.spawn_powerup("haste", (0, 0))
    m.spawn_powerup("freeze", (1, 1))
    m.act(X, place((0, 0)))  # hasted: [0, 1) gives 10 units
    assert at(m, 1, O, place((1, 1))) is None  # X frozen too: 4 a ms from 1
    assert m.status(X).charge_ready_t == 561  # 1 + ceil(2240 / 4)
    assert at(m, 560, X, place((2, 2))) == Reason.NOT_CHARGED
    assert at(m, 561, X, place((2, 2))) is None


def test_r5_a_refill_of_zero_ms_is_full_at_once():
    m = new(recharge_place_ms=0)
    m.act(X, place((0, 0)))
    status = m.status(X)
    assert status.charge_full and status.charge_progress == 1.0 and status.charge_ready_t == 0
    assert at(m, 1, X, place((0, 1))) is None


# -- R6: placing and setting -----------------------------------------------------------------


def test_r6_a_mark_sets_exactly_set_ms_after_it_lands():
    m = new()
    m.advance_to(100)
    assert m.act(X, place((1, 2))) is None
    assert log(m) == ["placed X 1,2 until=1700"]
    m.advance_to(1699)
    assert m.board_text()[1] == "..x..."
    m.advance_to(1700)
    assert log(m) == ["set X 1,2"] and m.events[0].t == 1700
    assert m.board_text()[1] == "..X..."


# -- R7: rejections and malformed input ------------------------------------------------------


def test_r7_reasons_in_their_order():
    m = new(["X.....", "......", "......", "......", "......", "......"], crater_ms=5000)
    m.act(O, place((1, 1)))
    m.advance(1)
    assert m.act(O, place((0, 0))) == Reason.NOT_CHARGED  # not_charged before occupied
    m.advance(1)
    assert m.act(X, place((0, 0))) == Reason.OCCUPIED  # own mark
    m.advance(1)
    assert m.act(X, place((1, 1))) == Reason.OCCUPIED  # opponent's mark
    m.advance(1)
    assert m.act(X, knockout((0, 0))) == Reason.NOT_OPPONENT_MARK  # own mark
    m.advance(1)
    assert m.act(X, knockout((2, 2))) == Reason.NOT_OPPONENT_MARK  # empty cell
    m.advance(1)
    assert m.act(X, knockout((1, 1))) is None
    m.advance_to(1000)
    assert m.act(O, place((1, 1))) == Reason.CRATER
    m.advance(1)
    assert m.act(O, knockout((1, 1))) == Reason.NOT_OPPONENT_MARK  # a crater
    m.advance(1)
    m.spawn_powerup("bomb", (4, 4))
    assert m.act(O, knockout((4, 4))) == Reason.NOT_OPPONENT_MARK  # a powerup
    assert log(m) == ["rejected O 4,4 not_opponent_mark"]


def test_r7_round_over_comes_first():
    m = new(round_ms=10)
    m.act(X, place((0, 0)))
    m.advance_to(10)
    assert m.act(X, place((0, 0))) == Reason.ROUND_OVER  # also occupied, not charged


def test_r7_a_rejection_changes_nothing_but_the_event_log():
    m = new()
    m.act(X, place((0, 0)))
    m.advance(10)
    before = m.state_dict()
    assert m.act(O, place((0, 0))) == Reason.OCCUPIED
    assert m.state_dict() == before
    assert [e.to_dict() for e in m.events] == [
        {
            "round": 1,
            "t": 10,
            "kind": "rejected",
            "player": "O",
            "cell": [0, 0],
            "reason": "occupied",
        }
    ]


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda m: m.act("Z", place((0, 0))), ValueError),
        (lambda m: m.act(2, place((0, 0))), ValueError),
        (lambda m: m.act(None, place((0, 0))), TypeError),
        (lambda m: m.act(True, place((0, 0))), TypeError),
        (lambda m: m.act(X, "place 0 0"), TypeError),
        (lambda m: m.act(X, Action(7, (0, 0))), TypeError),
        (lambda m: m.act(X, place((6, 0))), ValueError),
        (lambda m: m.act(X, place((0, -1))), ValueError),
        (lambda m: m.act(X, Action(ActionKind.PLACE, (0.0, 1))), TypeError),
        (lambda m: m.act(X, Action(ActionKind.PLACE, "00")), TypeError),
        (lambda m: m.act_both(place((0, 0)), knockout((9, 9))), ValueError),
        (lambda m: m.advance(-1), ValueError),
        (lambda m: m.advance(1.5), TypeError),
        (lambda m: m.advance_to(99), ValueError),
        (lambda m: m.spawn_powerup("rocket", (0, 0)), ValueError),
        (lambda m: m.spawn_powerup("bomb", (0, 6)), ValueError),
        (lambda m: m.status("Q"), ValueError),
        (lambda m: m.start_next_round(), ValueError),
    ],
)
def test_r7_malformed_input_raises_and_changes_nothing(call, error):
    m = new()
    m.act(X, place((0, 0)))
    m.advance_to(100)
    before, events = m.state_dict(), list(m.events)
    with pytest.raises(error):
        call(m)
    assert m.state_dict() == before and m.events == events
    assert m.act(O, place((1, 1))) is None  # and the match goes on


@pytest.mark.parametrize(
    "setup, error",
    [
        ("X" * 36, TypeError),
        (["......"] * 5, ValueError),
        (["......"] * 5 + [".....Y"], ValueError),
        (["......"] * 5 + ["......."], ValueError),
        (
            ["XXXXXX", "XXX...", "......", "......", "......", "......"],
            ValueError,
        ),  # 9 > mark_limit
        (["......"] * 5 + [None], TypeError),
    ],
)
def test_r7_a_bad_setup_is_an_error(setup, error):
    with pytest.raises(error):
        make(Rules(), setup=setup)


def test_r7_bad_constructor_arguments():
    with pytest.raises(TypeError):
        make({"size": 6})
    with pytest.raises(TypeError):
        make(seed="7")
    with pytest.raises(TypeError):
        make(random_powerups=1)
    with pytest.raises(ValueError):
        make().spawn_powerup("bomb", (0, 0))  # random powerups are on


# -- R8, R9: set marks stay; knock-outs and craters ------------------------------------------


def test_r8_a_set_mark_cannot_be_knocked_out_and_stays_to_the_end():
    m = new(round_ms=20_000)
    m.act(X, place((2, 2)))
    assert at(m, 1600, O, knockout((2, 2))) == Reason.ALREADY_SET
    m.advance_to(20_000)
    assert m.board_text()[2] == "..X..."


def test_r9_knockout_at_exactly_the_set_ms_is_already_set():
    m = new()
    m.act(X, place((2, 2)))
    m.advance_to(1600)
    assert log(m) == ["set X 2,2"]
    assert m.act(O, knockout((2, 2))) == Reason.ALREADY_SET
    m = new()
    m.act(X, place((2, 2)))
    assert at(m, 1599, O, knockout((2, 2))) is None  # one ms earlier it is still setting


def test_r9_crater_lasts_crater_ms_and_nobody_may_place_there():
    m = new()
    m.act(X, place((2, 2)))
    assert at(m, 100, O, knockout((2, 2))) is None
    assert log(m) == ["knocked_out O 2,2 until=2100"]
    assert m.board_text()[2] == "..#..." and m.status(X).marks == 0
    assert at(m, 2099, X, place((2, 2))) == Reason.CRATER
    assert at(m, 2100, O, place((2, 2))) is None  # cleared at 2100
    assert m.board_text()[2] == "..o..."


def test_r9_crater_ms_zero_leaves_no_crater():
    m = new(crater_ms=0)
    m.act(X, place((2, 2)))
    assert at(m, 100, O, knockout((2, 2))) is None
    assert log(m) == ["knocked_out O 2,2"] and m.events[0].until is None
    assert m.board_text()[2] == "......"
    assert at(m, 101, X, knockout((2, 2))) == Reason.NOT_CHARGED
    assert at(m, 450, X, place((2, 2))) is None
