"""Rule-by-rule tests (docs/blitz.md R1..R23, docs/engine.md), run on both engines: the
pure-Python reference model and the native engine.

Every expectation here is worked out by hand from the rules text; tests are named after
the rule they pin down (``test_r9_...``).  Matches default to scripted powerups
(``random_powerups=False``) so that nothing random happens unless a test asks for it.
"""

from __future__ import annotations

import random

import pytest

from tictacblitz import Match
from tictacblitz.games.blitz.reference import ReferenceMatch, SplitMix64, windows
from tictacblitz.games.blitz.rules import Rules
from tictacblitz.games.blitz.types import (
    Action,
    ActionKind,
    EventKind,
    Player,
    PowerupKind,
    Reason,
    RoundEnd,
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


# -- R1: integer ms, stepping-independent ----------------------------------------------------


def test_r1_time_is_integer_ms_from_round_start():
    m = new()
    assert (m.round, m.t) == (1, 0)
    m.advance(250)
    m.advance(0)
    assert m.t == 250
    m.advance_to(1000)
    assert m.t == 1000


def test_r1_one_big_step_equals_many_small_ones():
    a, b = new(seed=3, scripted=False), new(seed=3, scripted=False)
    for m in (a, b):
        m.act(X, place((2, 2)))
        m.advance(1)
        m.act(O, place((3, 3)))
    events_a = []
    for _ in range(10_000):
        a.advance(1)
        events_a += a.events
    b.advance(10_000)
    assert [e.to_dict() for e in events_a] == [e.to_dict() for e in b.events]
    assert a.state_dict() == b.state_dict()


def test_r1_next_event_t_lists_timed_things_only():
    m = new(round_ms=9000)
    assert m.next_event_t() == 9000  # only the round clock
    m.act(X, place((0, 0)))
    assert m.next_event_t() == 1600  # the mark sets (a charge is no event)
    m.advance_to_next_event()
    assert (m.t, log(m)) == (1600, ["set X 0,0"])
    m.advance_to(9000)
    assert m.round_over and m.next_event_t() is None
    m.advance_to_next_event()  # nothing more happens
    assert m.t == 9000 and m.events == []


# -- R2: the order of one ms ------------------------------------------------------------------


def test_r2_timed_steps_in_order_then_timeout():
    # Everything ends at 3000 = round_ms: O's mark sets, X's crater clears, the bomb
    # burns out, X's freeze ends, then the bell.
    m = new(set_ms=3000, crater_ms=2000, powerup_ms=3000, freeze_ms=3000, round_ms=3000)
    assert m.spawn_powerup("freeze", (4, 4)) and m.spawn_powerup("bomb", (5, 0))
    assert m.act(O, place((4, 4))) is None  # claims the freeze: X frozen [0, 3000)
    assert at(m, 500, O, place((2, 2))) is None
    assert at(m, 1000, X, knockout((2, 2))) is None  # crater [1000, 3000)
    m.advance_to(3000)
    assert log(m) == [
        "set O 4,4",
        "crater_cleared 2,2",
        "powerup_burned_out 5,0 bomb",
        "freeze_ended X",
        "round_over result=O timeout scores=0-1",
    ]
    assert all(e.t == 3000 for e in m.events)


def test_r2_a_burned_out_powerup_frees_its_slot_for_the_spawn_of_that_ms():
    # powerup_max 1: the spawn due at 6000 finds a slot only because step 3 ran first.
    m = new(scripted=False, powerup_max=1, spawn_min_ms=3000, spawn_max_ms=3000, powerup_ms=3000)
    m.advance_to(3000)
    assert [e.kind for e in m.events] == [EventKind.POWERUP_SPAWNED]
    m.advance_to(6000)
    assert [e.kind for e in m.events] == [EventKind.POWERUP_BURNED_OUT, EventKind.POWERUP_SPAWNED]


def test_r2_a_line_ends_the_round_and_the_later_steps_do_not_run():
    m = new(["OOO...", "......", "......", "......", "......", "......"], crater_ms=1000)
    assert m.act(O, place((0, 3))) is None  # sets at 1600
    assert at(m, 450, O, place((5, 5))) is None
    assert at(m, 600, X, knockout((5, 5))) is None  # crater until 1600
    m.advance_to(5000)
    assert log(m) == ["set O 0,3", "round_over result=O line line=0,0 0,1 0,2 0,3"]
    assert m.t == 1600 and m.round_over
    assert m.board_text()[5] == ".....#"  # the final board keeps its crater


def test_r2_no_action_at_or_after_round_ms():
    m = new(round_ms=1000)
    m.advance_to(999)
    assert m.act(X, place((0, 0))) is None
    m.advance(1)
    assert m.act(O, place((1, 1))) == Reason.ROUND_OVER
    assert log(m) == ["rejected O 1,1 round_over"]


# -- R3: simultaneous actions and the coin ---------------------------------------------------


def test_r3_coin_orders_both_players_and_both_orders_happen():
    x_seed, o_seed = first_coin_seeds()
    m = new(seed=x_seed)
    assert m.act_both(place((2, 2)), place((2, 2))) == (None, Reason.OCCUPIED)
    assert log(m) == ["placed X 2,2 until=1600", "rejected O 2,2 occupied"]
    m = new(seed=o_seed)
    assert m.act_both(place((2, 2)), place((2, 2))) == (Reason.OCCUPIED, None)
    assert log(m) == ["placed O 2,2 until=1600", "rejected X 2,2 occupied"]


def test_r3_second_action_is_checked_against_the_state_the_first_left():
    x_seed, o_seed = first_coin_seeds()
    m = new(seed=x_seed)  # X places, then O knocks it out
    assert m.act_both(place((1, 1)), knockout((1, 1))) == (None, None)
    assert log(m) == ["placed X 1,1 until=1600", "knocked_out O 1,1 until=2000"]
    m = new(seed=o_seed)  # O finds nothing, then X places
    assert m.act_both(place((1, 1)), knockout((1, 1))) == (None, Reason.NOT_OPPONENT_MARK)
    assert log(m) == ["rejected O 1,1 not_opponent_mark", "placed X 1,1 until=1600"]
    assert m.status(O).charge_full  # a rejected action costs nothing


def test_r3_the_coin_is_drawn_only_for_both_players_in_a_live_round():
    # With random spawns on, a coin drawn by mistake would shift the next round's spawns.
    plain, tried = (
        new(seed=9, scripted=False, round_ms=100, spawn_min_ms=10, spawn_max_ms=90)
        for _ in range(2)
    )
    for m in (plain, tried):
        m.act(X, place((0, 0)))  # one player: no coin
        m.advance_to(100)
    assert tried.act_both(place((1, 1)), place((2, 2))) == (Reason.ROUND_OVER, Reason.ROUND_OVER)
    assert log(tried) == ["rejected X 1,1 round_over", "rejected O 2,2 round_over"]
    for m in (plain, tried):
        m.start_next_round()
        m.advance_to(100)
    assert log(plain) == log(tried) and any("powerup_spawned" in line for line in log(plain))


def test_r3_one_action_per_player_per_ms():
    m = new()
    m.act(X, place((0, 0)))
    before = m.state_dict()
    with pytest.raises(ValueError, match="already acted"):
        m.act(X, place((0, 1)))
    with pytest.raises(ValueError, match="already acted"):
        m.act(O, place((0, 1)))  # simultaneous actions go through act_both
    with pytest.raises(ValueError):
        m.act_both(place((0, 1)), place((0, 2)))
    assert m.state_dict() == before
    m.advance(1)
    assert m.act(X, place((0, 1))) == Reason.NOT_CHARGED  # a new ms; rejected counts as acted
    with pytest.raises(ValueError):
        m.act(X, place((0, 1)))


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
        engine(Rules(), setup=setup)


def test_r7_bad_constructor_arguments():
    with pytest.raises(TypeError):
        engine({"size": 6})
    with pytest.raises(TypeError):
        engine(seed="7")
    with pytest.raises(TypeError):
        engine(random_powerups=1)
    with pytest.raises(ValueError):
        engine().spawn_powerup("bomb", (0, 0))  # random powerups are on


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


# -- R10, R11: lines and windows -------------------------------------------------------------


def test_r10_a_line_wins_the_moment_its_last_mark_sets():
    m = new(["XXX...", "......", "......", "......", "......", "......"])
    m.act(X, place((0, 3)))
    m.advance_to(1599)
    assert not m.round_over  # setting marks never count
    m.advance_to(1600)
    assert log(m) == ["set X 0,3", "round_over result=X line line=0,0 0,1 0,2 0,3"]
    assert m.rounds[0].to_dict() == {
        "round": 1,
        "result": "X",
        "by": "line",
        "end_t": 1600,
        "line": [[0, 0], [0, 1], [0, 2], [0, 3]],
    }
    assert m.round_wins == (1, 0) and not m.match_over


def test_r10_both_lines_at_one_ms_draw_the_round():
    m = new(["XXX...", "OOO...", "......", "......", "......", "......"])
    assert m.act_both(place((0, 3)), place((1, 3))) == (None, None)
    m.advance_to(1600)
    assert log(m)[-1] == "round_over result=draw double_line"
    assert m.rounds[0].line is None and m.round_wins == (0, 0)


def test_r10_the_reported_line_is_the_lowest_complete_window():
    m = new(["XXXXX.", "......", "......", "......", "......", "......"])
    assert m.round_over and m.t == 0  # a setup line ends round 1 at t = 0
    assert m.rounds[0].line == ((0, 0), (0, 1), (0, 2), (0, 3))
    # From start 3, down-left (3, 8, 13, 18) is lower than down (3, 9, 15, 21).
    m = new(["...X..", "..XX..", ".X.X..", "X..X..", "......", "......"])
    assert m.rounds[0].line == ((0, 3), (1, 2), (2, 1), (3, 0))
    assert log(m) == ["round_started", "round_over result=X line line=0,3 1,2 2,1 3,0"]


def test_r10_set_ms_zero_checks_lines_after_the_action():
    m = new(["XXX...", "......", "......", "......", "......", "......"], set_ms=0)
    assert m.act(X, place((0, 3))) is None
    assert log(m) == [
        "placed X 0,3 until=0",
        "set X 0,3",
        "round_over result=X line line=0,0 0,1 0,2 0,3",
    ]
    assert m.round_over and m.t == 0


def test_r10_set_ms_zero_ends_the_round_before_the_second_simultaneous_action():
    x_seed, o_seed = first_coin_seeds()
    setup = ["XXX...", "OOO...", "......", "......", "......", "......"]
    m = new(setup, seed=x_seed, set_ms=0)
    assert m.act_both(place((0, 3)), place((1, 3))) == (None, Reason.ROUND_OVER)
    assert m.rounds[0].result == X
    m = new(setup, seed=o_seed, set_ms=0)
    assert m.act_both(place((0, 3)), place((1, 3))) == (Reason.ROUND_OVER, None)
    assert m.rounds[0].result == O


def test_r10_set_ms_zero_line_check_runs_after_retirement():
    # X's 5th mark completes a row, but the mark limit retires (0,0) first: no line.
    m = new(["XXX...", "......", "......", "X.....", "......", "......"], set_ms=0, mark_limit=4)
    assert m.act(X, place((0, 3))) is None
    assert log(m) == ["placed X 0,3 until=0", "set X 0,3", "retired X 0,0"]
    assert not m.round_over


def test_r11_windows_and_cell_numbers():
    assert len(windows(6, 4)) == 54
    assert len(windows(4, 4)) == 10
    assert len(windows(8, 5)) == 8 * 4 + 8 * 4 + 4 * 4 + 4 * 4
    assert windows(6, 4)[:4] == ((0, 1, 2, 3), (0, 6, 12, 18), (0, 7, 14, 21), (1, 2, 3, 4))
    assert (3, 8, 13, 18) in windows(6, 4) and (3, 10, 17, 24) not in windows(6, 4)


# -- R12, R13: the mark limit ----------------------------------------------------------------


def test_r12_the_ninth_mark_retires_the_oldest_setup_marks_first():
    setup = ["X.X.X.", "......", "X.X.X.", "......", "X.X...", "......"]  # 8 set marks
    m = new(setup)
    assert m.status(X).next_to_retire == (0, 0)  # at the limit: reading order first
    assert m.act(X, place((5, 5))) is None
    assert log(m) == ["placed X 5,5 until=1600", "retired X 0,0"]
    assert m.board_text()[0] == "..X.X."  # R13: empty, not a crater
    assert m.status(X).marks == 8 and m.status(X).next_to_retire == (0, 2)
    assert at(m, 1, O, place((0, 0))) is None  # the retired cell takes a mark at once


def test_r12_next_to_retire_only_at_the_limit():
    m = new(mark_limit=2)
    m.act(X, place((0, 0)))
    assert m.status(X).next_to_retire is None
    at(m, 450, X, place((0, 1)))
    assert m.status(X).next_to_retire == (0, 0)


def test_r12_aging_with_swaps():
    # O: (0,1) and (2,3) set (setup), (0,2) and (2,2) setting.  X claims a swap at (1,2)
    # with swap_max 3: set ones first, oldest first, then the oldest setting one.
    setup = [".O....", "......", "...O..", "......", "......", "......"]
    m = new(setup, mark_limit=4, swap_max=3)
    m.spawn_powerup("swap", (1, 2))
    m.act(O, place((0, 2)))
    at(m, 1, X, place((5, 5)))
    at(m, 450, O, place((2, 2)))
    assert at(m, 500, X, place((1, 2))) is None
    assert log(m) == [
        "placed X 1,2 until=2100",
        "powerup_claimed X 1,2 swap",
        "stolen X 0,1 until=2100",
        "stolen X 2,3 until=2100",
        "stolen X 0,2 until=2100",
        "retired X 5,5",
    ]
    assert m.board_text()[:3] == [".xx...", "..x...", "..ox.."]
    # The claiming mark is older than the marks its swap stole.
    assert m.status(X).next_to_retire == (1, 2)
    at(m, 950, X, place((4, 4)))
    assert log(m)[-1] == "retired X 1,2"
    assert m.status(X).next_to_retire == (0, 1)
    assert m.status(O).marks == 1 and m.status(O).next_to_retire is None


# -- R14..R16: powerups and spawning ---------------------------------------------------------


def test_r14_splitmix64_stream_and_kind_draws():
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]
    assert SplitMix64(-1).state == 2**64 - 1
    # A single positive weight always gives that kind; missing kinds weigh 0 (R14).
    assert {SplitMix64(s).kind(Rules(powerup_weights={"swap": 1}).weights) for s in range(50)} == {
        PowerupKind.SWAP
    }
    rng = SplitMix64(11)
    draws = [rng.kind((1.0, 1.0, 1.0, 1.0)) for _ in range(4000)]
    assert all(800 < draws.count(k) < 1200 for k in PowerupKind)
    assert all(0 <= SplitMix64(s).below(7) < 7 for s in range(100))


def test_r15_a_claimed_powerup_triggers_before_the_mark_limit_and_the_mark_stays():
    m = new(["XX.X..", "X.X.X.", "......", "......", "......", "......"], mark_limit=6)
    m.spawn_powerup("haste", (0, 2))
    assert m.act(X, place((0, 2))) is None
    assert log(m) == [
        "placed X 0,2 until=1600",
        "powerup_claimed X 0,2 haste",
        "haste_started X until=4000",
        "retired X 0,0",
    ]
    assert m.board_text()[0] == ".XxX.."


def test_r16_first_spawn_follows_the_seeded_stream():
    for seed in (1, 2, 3):
        rng = SplitMix64(seed)
        due = 2500 + rng.below(2001)
        cell = rng.below(36)
        kind = rng.kind((1.0, 1.0, 1.0, 1.0))
        m = new(seed=seed, scripted=False)
        assert m.next_event_t() == due
        m.advance_to_next_event()
        assert [e.to_dict() for e in m.events] == [
            {
                "round": 1,
                "t": due,
                "kind": "powerup_spawned",
                "cell": [cell // 6, cell % 6],
                "powerup": kind.key,
                "until": due + 6000,
            }
        ]
        next_due = due + 2500 + rng.below(2001)
        assert m.next_event_t() == min(next_due, due + 6000)


def test_r16_spawns_are_deterministic_per_seed():
    def play(seed):
        m = new(seed=seed, scripted=False)
        m.advance(45_000)
        return log(m)

    assert play(4) == play(4)
    assert play(4) != play(5)


def test_r16_spawns_skip_occupied_cells_respect_powerup_max_and_burn_out():
    rng = random.Random(1)
    m = new(
        seed=8,
        scripted=False,
        spawn_min_ms=0,
        spawn_max_ms=300,
        powerup_max=3,
        powerup_ms=1000,
        round_ms=30_000,
    )
    spawned = {}
    while not m.round_over:
        before = m.board_text()
        m.advance(rng.randrange(1, 200))
        board = m.board_text()
        assert sum(board_row.count(k) for board_row in board for k in "BFHS") <= 3
        freed = {
            e.cell
            for e in m.events
            if e.kind in (EventKind.CRATER_CLEARED, EventKind.POWERUP_BURNED_OUT)
        }
        for e in m.events:
            if e.kind == EventKind.POWERUP_SPAWNED:
                r, c = e.cell
                assert before[r][c] == "." or e.cell in freed  # never on a mark
                assert e.until == e.t + 1000
                spawned[e.cell] = e.t
            if e.kind == EventKind.POWERUP_BURNED_OUT:
                assert e.t == spawned.pop(e.cell) + 1000
        if not m.round_over:
            cell = (rng.randrange(6), rng.randrange(6))
            m.act(rng.choice([X, O]), place(cell) if rng.random() < 0.8 else knockout(cell))
            for e in m.events:
                if e.kind == EventKind.POWERUP_CLAIMED:
                    del spawned[e.cell]  # claimed, so it will not burn out


def test_r16_at_powerup_max_the_spawn_is_skipped_and_the_next_one_still_due():
    m = new(
        seed=2, scripted=False, powerup_max=1, spawn_min_ms=100, spawn_max_ms=100, powerup_ms=10_000
    )
    m.advance_to(100)
    assert [e.kind for e in m.events] == [EventKind.POWERUP_SPAWNED]
    m.advance_to(1000)  # 200..1000: at powerup_max, skipped
    assert m.events == [] and m.next_event_t() == 1100


def test_r16_a_full_board_skips_the_spawn():
    m = new(
        ["XXOO", "OOXX", "XXOO", "OOXX"], size=4, scripted=False, spawn_min_ms=100, spawn_max_ms=100
    )
    assert not m.round_over
    m.advance_to(100)
    assert m.events == [] and m.next_event_t() == 200


def test_r16_scripted_spawns_ignore_powerup_max_and_skip_taken_cells():
    m = new(powerup_max=1, crater_ms=5000)
    assert m.spawn_powerup("bomb", (0, 0)) and m.spawn_powerup(PowerupKind.SWAP, (0, 1))
    assert log(m) == ["powerup_spawned 0,1 swap until=6000"]
    assert m.spawn_powerup("haste", (0, 0)) is False  # a powerup is there
    m.act(X, place((1, 1)))
    with pytest.raises(ValueError, match="before actions"):
        m.spawn_powerup("haste", (2, 2))  # R2: step 4 comes before the actions
    m.advance(1)
    assert m.spawn_powerup("haste", (1, 1)) is False  # a mark is there
    m.act(O, knockout((1, 1)))
    m.advance(1)
    assert m.spawn_powerup("haste", (1, 1)) is False  # a crater is there
    assert m.board_text()[:2] == ["BS....", ".#...."]


# -- R17: bomb and swap ----------------------------------------------------------------------


def test_r17_bomb_removes_every_touching_opponent_mark_set_or_setting():
    setup = ["OO.O..", ".X....", "O.O...", "......", "......", "......"]
    m = new(setup)
    m.spawn_powerup("bomb", (1, 2))
    m.act(O, place((2, 1)))  # a setting O mark, touching
    assert at(m, 1, X, place((1, 2))) is None
    assert log(m) == [
        "placed X 1,2 until=1601",
        "powerup_claimed X 1,2 bomb",
        "bombed O 0,1",
        "bombed O 0,3",
        "bombed O 2,1",
        "bombed O 2,2",
    ]
    assert m.board_text()[:3] == ["O.....", ".Xx...", "O....."]  # no craters; X's own stays


def test_r17_swap_takes_set_marks_first_and_at_most_swap_max():
    setup = ["......", ".O.O..", "......", "......", "......", "......"]
    m = new(setup)
    m.spawn_powerup("swap", (1, 2))
    m.act(O, place((0, 2)))  # setting, and O's newest
    assert at(m, 1, X, place((1, 2))) is None
    assert log(m)[2:] == ["stolen X 1,1 until=1601", "stolen X 1,3 until=1601"]
    assert m.board_text()[:2] == ["..o...", ".xxx.."]
    m.advance_to(1601)  # stolen marks set again from the steal
    assert m.board_text()[1] == ".XXX.."


def test_r17_swap_with_set_ms_zero_sets_each_stolen_mark():
    m = new(["......", ".O....", "......", "......", "......", "......"], set_ms=0)
    m.spawn_powerup("swap", (1, 2))
    m.act(X, place((1, 2)))
    assert log(m) == [
        "placed X 1,2 until=0",
        "set X 1,2",
        "powerup_claimed X 1,2 swap",
        "stolen X 1,1 until=0",
        "set X 1,1",
    ]


# -- R18, R19: freeze, haste, zero durations -------------------------------------------------


def test_r18_freeze_slows_the_opponent_and_a_new_claim_restarts_it():
    m = new()
    m.spawn_powerup("freeze", (0, 0))
    m.spawn_powerup("freeze", (5, 5))
    m.act(O, place((0, 0)))
    assert log(m)[-1] == "freeze_started X until=3000"
    assert not m.status(O).frozen
    assert at(m, 1000, O, place((5, 5))) is None
    assert log(m)[-1] == "freeze_started X until=4000"
    m.advance_to(3999)
    assert m.status(X).frozen and not any("freeze_ended" in line for line in log(m))
    m.advance_to(4000)
    assert log(m) == ["freeze_ended X"] and not m.status(X).frozen


def test_r19_haste_speeds_up_the_claimer_and_ends():
    m = new()
    m.spawn_powerup("haste", (0, 0))
    m.act(O, place((0, 0)))
    assert log(m)[-1] == "haste_started O until=4000"
    assert m.status(O).charge_ready_t == 225 and m.status(O).hasted_until == 4000
    m.advance_to(4000)
    assert log(m) == ["set O 0,0", "haste_ended O"]
    assert not m.status(O).hasted


def test_r19_zero_durations_mean_the_thing_never_exists():
    m = new(freeze_ms=0, haste_ms=0)
    m.spawn_powerup("freeze", (0, 0))
    m.spawn_powerup("haste", (1, 1))
    m.act(O, place((0, 0)))
    assert log(m) == ["placed O 0,0 until=1600", "powerup_claimed O 0,0 freeze"]
    at(m, 1, X, place((1, 1)))
    assert log(m) == ["placed X 1,1 until=1601", "powerup_claimed X 1,1 haste"]
    assert not m.status(X).frozen and not m.status(X).hasted and m.status(X).charge_ready_t == 451
    m = new(powerup_ms=0)
    assert m.spawn_powerup("bomb", (2, 2)) is False and m.events == []
    assert m.board_text() == EMPTY6


def test_r19_powerup_ms_zero_turns_random_spawns_off_without_draws():
    x_seed, o_seed = first_coin_seeds()
    for seed, first in ((x_seed, X), (o_seed, O)):
        m = new(seed=seed, scripted=False, powerup_ms=0)
        assert m.next_event_t() == 45_000  # no spawn is due
        reasons = m.act_both(place((2, 2)), place((2, 2)))
        assert reasons[first] is None  # the coin is the stream's first draw


# -- R20: timeout scores ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "setup, scores, result",
    [
        (["XXX...", "......", "......", "..OO..", "......", "......"], (3, 2), X),
        (["XXXO..", "......", "......", "......", "......", "......"], (1, 1), None),  # blocked
        (["XX....", "......", "......", "..OO..", "......", "......"], (2, 2), None),
        (["......"] * 6, (0, 0), None),
        (["X.....", "......", "......", "......", "......", ".OOO.."], (1, 3), O),
    ],
)
def test_r20_timeout_scores(setup, scores, result):
    m = new(setup, round_ms=100)
    m.advance(100)
    assert m.rounds[0].scores == scores and m.rounds[0].result == result
    assert m.rounds[0].by == RoundEnd.TIMEOUT and m.rounds[0].end_t == 100


def test_r20_no_qualifying_window_scores_zero():
    # Every window of this 4x4 board holds a set mark of each player.
    m = new(["XO..", "..OX", "OX..", "..XO"], size=4, round_ms=100)
    m.advance(100)
    assert m.rounds[0].scores == (0, 0) and m.rounds[0].result is None


def test_r20_setting_marks_neither_count_nor_block():
    m = new(["XXX...", "......", "......", "......", "......", "......"], round_ms=2000)
    at(m, 1500, O, place((0, 3)))  # setting at the bell
    m.advance_to(2000)
    assert log(m)[-1] == "round_over result=X timeout scores=3-0"
    assert m.board_text()[0] == "XXXo.."


# -- R21, R22: rounds and the match ----------------------------------------------------------


def win_round_quickly(m, player):
    """With set_ms 0 and no refill, ``player`` fills row 0 or 5 in 4 ms (R10)."""
    row = 0 if player == X else 5
    for col in range(4):
        m.advance(1)
        m.act(player, place((row, col)))
    assert m.round_over


def test_r21_a_new_round_resets_everything_but_round_wins():
    m = new(
        ["XXX...", "......", "......", "......", "......", "......"],
        round_ms=5000,
        freeze_ms=10_000,
        crater_ms=10_000,
        recharge_knockout_ms=10_000,
    )
    m.spawn_powerup("freeze", (3, 3))
    m.spawn_powerup("bomb", (5, 5))
    m.act(O, place((3, 3)))  # X frozen past the bell
    at(m, 1, X, place((0, 3)))
    at(m, 1000, O, knockout((0, 3)))  # a crater, and O's charge stays empty
    m.advance_to(5000)
    assert m.round_over and m.rounds[0].result == X  # 3 vs 1
    assert m.board_text() == ["XXX#..", "......", "......", "...O..", "......", ".....B"]
    assert m.status(X).frozen and not m.status(O).charge_full
    assert m.act(X, place((1, 1))) == Reason.ROUND_OVER
    m.start_next_round()
    assert log(m) == ["round_started"]
    assert (m.round, m.t, m.round_over, m.round_wins) == (2, 0, False, (1, 0))
    assert m.board_text() == EMPTY6  # the setup is for round 1 only
    for p in (X, O):
        status = m.status(p)
        assert status.charge_full and not status.frozen and not status.hasted and status.marks == 0
    assert m.next_event_t() == 5000


def test_r21_start_next_round_only_after_a_round_ends():
    m = new()
    with pytest.raises(ValueError, match="not over"):
        m.start_next_round()


def test_r22_first_to_rounds_to_win_takes_the_match():
    m = new(set_ms=0, recharge_place_ms=0, rounds_to_win=2)
    win_round_quickly(m, X)
    assert not m.match_over
    m.start_next_round()
    win_round_quickly(m, X)
    assert log(m)[-2:] == ["round_over result=X line line=0,0 0,1 0,2 0,3", "match_over result=X"]
    assert m.match_over and m.match_result == X and m.round_wins == (2, 0)
    assert [r.round for r in m.rounds] == [1, 2]
    with pytest.raises(ValueError, match="match is over"):
        m.start_next_round()


def test_r22_after_max_rounds_more_wins_take_it_or_the_match_is_drawn():
    m = new(set_ms=0, recharge_place_ms=0, max_rounds=3, round_ms=10)
    win_round_quickly(m, X)
    m.start_next_round()
    win_round_quickly(m, O)
    m.start_next_round()
    m.advance(10)  # an empty board: a drawn round
    assert log(m)[-2:] == ["round_over result=draw timeout scores=0-0", "match_over result=draw"]
    assert m.match_over and m.match_result is None and m.round_wins == (1, 1)
    m = new(set_ms=0, recharge_place_ms=0, max_rounds=2, round_ms=10)
    win_round_quickly(m, O)
    m.start_next_round()
    m.advance(10)
    assert m.match_over and m.match_result == O


# -- R23: determinism ------------------------------------------------------------------------


def random_playout(m, rng, step_by_ms):
    """Play a whole match with random actions; returns every event and state seen."""
    seen = []
    while True:
        while not m.round_over:
            target = min(m.t + rng.randrange(1, 400), m.rules.round_ms)
            if step_by_ms:
                while m.t < target and not m.round_over:
                    m.advance(1)
                    seen += [e.to_dict() for e in m.events]
            else:
                m.advance_to(target)
                seen += [e.to_dict() for e in m.events]
            board = m.board_text()
            who = rng.choice(["X", "O", "both"])
            actions = []
            for _ in range(2):
                cell = (rng.randrange(6), rng.randrange(6))
                letter = board[cell[0]][cell[1]]
                actions.append(
                    knockout(cell) if letter in "xo" and rng.random() < 0.7 else place(cell)
                )
            if who == "both":
                m.act_both(*actions)
            else:
                m.act(who, actions[0])
            seen += [e.to_dict() for e in m.events]
            seen.append(m.state_dict())
        if m.match_over:
            return seen
        m.start_next_round()
        seen += [e.to_dict() for e in m.events]


def test_r23_one_ms_stepping_equals_event_stepping_on_a_random_playout():
    rules = {
        "round_ms": 6000,
        "spawn_min_ms": 300,
        "spawn_max_ms": 1500,
        "powerup_max": 3,
        "powerup_ms": 2500,
        "freeze_ms": 1500,
        "haste_ms": 1200,
        "set_ms": 900,
        "crater_ms": 700,
        "mark_limit": 6,
        "line_length": 3,
        "max_rounds": 4,
    }
    for seed in (1, 2):
        by_ms = random_playout(new(seed=seed, scripted=False, **rules), random.Random(seed), True)
        by_event = random_playout(
            new(seed=seed, scripted=False, **rules), random.Random(seed), False
        )
        assert by_ms == by_event
        kinds = {e["kind"] for e in by_event if "kind" in e}
        assert {"powerup_claimed", "knocked_out", "round_over", "match_over"} <= kinds


def test_r23_clone_is_independent_and_replays_the_same():
    m = new(seed=5, scripted=False)
    m.act(X, place((0, 0)))
    twin = m.clone()
    m.advance(20_000)
    assert twin.t == 0 and twin.status(X).marks == 1
    twin.advance(20_000)
    assert log(twin) == log(m) and twin.state_dict() == m.state_dict()
    assert twin.rules is m.rules


def test_r3_act_both_with_one_seat_waiting_is_a_plain_act_without_a_coin():
    """None for a seat: that seat does not act; one action alone draws no R3 coin."""
    alone, both = new(), new()
    assert alone.act_both(place((0, 0)), None) == (None, None)
    assert both.act(X, place((0, 0))) is None
    assert alone.events == both.events and alone.state_dict() == both.state_dict()
    alone.advance(1)
    both.advance(1)
    assert alone.act_both(None, place((1, 1))) == (None, None)
    assert alone.board_text()[1][1] == "o"
    assert alone.act_both(None, None) == (None, None) and alone.events == []
    # The R3 streams stayed in step: the next two-player ms draws the same coin.
    both.act(O, place((1, 1)))
    alone.advance(500)
    both.advance(500)
    assert alone.act_both(place((2, 2)), place((2, 2))) == both.act_both(
        place((2, 2)), place((2, 2))
    )
    with pytest.raises(ValueError):
        alone.act_both(None, place((3, 3)))  # O already acted at this ms
