"""Rule-by-rule tests of the powerups: the random stream, spawning, bomb, swap,
freeze and haste (docs/blitz.md R14-R19, docs/engine.md), run on both engines:
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
    EMPTY6,
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

from tictacblitz.games.blitz.reference import SplitMix64
from tictacblitz.games.blitz.rules import Rules
from tictacblitz.games.blitz.types import (
    EventKind,
    PowerupKind,
)

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
