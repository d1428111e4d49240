"""Rule-by-rule tests of lines, windows, the mark limit, timeout scores, rounds
and the match (docs/blitz.md R10-R13, R20-R22, docs/engine.md), run on both engines:
the pure-Python reference model and the native engine.

Every expectation here is worked out by hand from the rules text; tests are named after
the rule they pin down (``test_r9_...``).  Matches default to scripted powerups
(``random_powerups=False``) so that nothing random happens unless a test asks for it
(blitz_rules_support.new)."""

from __future__ import annotations

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

from tictacblitz.games.blitz.reference import windows
from tictacblitz.games.blitz.types import (
    Reason,
    RoundEnd,
)

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
