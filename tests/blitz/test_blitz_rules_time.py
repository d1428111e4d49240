"""Rule-by-rule tests of time, the order of one ms, simultaneous actions and
determinism (docs/blitz.md R1-R3, R23, docs/engine.md), run on both engines:
the pure-Python reference model and the native engine.

Every expectation here is worked out by hand from the rules text; tests are named after
the rule they pin down (``test_r9_...``).  Matches default to scripted powerups
(``random_powerups=False``) so that nothing random happens unless a test asks for it
(blitz_rules_support.new)."""

from __future__ import annotations

import random

import pytest

# each_engine: the autouse fixture that runs every test on both engines
from blitz_rules_support import (
    O,
    X,
    at,
    each_engine,  # noqa: F401
    first_coin_seeds,
    knockout,
    log,
    new,
    place,
)

from tictacblitz.games.blitz.types import (
    EventKind,
    Reason,
)

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
