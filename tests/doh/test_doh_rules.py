"""Tic Tac Doh rule by rule (D1-D9), on both engines: the native one (through the
replay's absolute-square table) and the plain-Python reference."""

from __future__ import annotations

import pytest
from doh_helpers import ENGINES, table

from tictacblitz.games.doh.rules import DohRules
from tictacblitz.games.doh.types import (
    CONTENTS,
    COUNTS_AS,
    PLACE_ONTO,
    REASONS,
    Size,
    parse_size,
    place_onto,
)

S, M, L = Size.S, Size.M, Size.L


# -- the rules configuration --------------------------------------------------------------


def test_rules_defaults_and_round_trip():
    rules = DohRules()
    assert (rules.pieces_per_size, rules.grid, rules.total_pieces) == (5, 3, 15)
    assert rules.to_dict() == {"pieces_per_size": 5, "grid": 3, "players": 2}
    assert rules.overrides() == {}
    changed = DohRules.from_dict({"pieces_per_size": 2})
    assert changed.overrides() == {"pieces_per_size": 2}
    assert DohRules.from_dict(changed.to_dict()) == changed
    assert changed.replace(grid=2) == DohRules(pieces_per_size=2, grid=2)


@pytest.mark.parametrize(
    "overrides, error, words",
    [
        ({"pieces_per_size": 0}, ValueError, "rules.pieces_per_size=0"),
        ({"pieces_per_size": 11}, ValueError, "rules.pieces_per_size=11"),
        ({"players": 5}, ValueError, "rules.players=5"),
        ({"players": 1}, ValueError, "rules.players=1"),
        ({"grid": 4}, ValueError, "rules.grid=4"),
        ({"grid": 0}, ValueError, "rules.grid=0"),
        ({"grid": "3"}, TypeError, "rules.grid='3'"),
        ({"pieces_per_size": True}, TypeError, "rules.pieces_per_size=True"),
        ({"pieces_per_size": 2.0}, TypeError, "rules.pieces_per_size=2.0"),
        ({"stash": 3}, ValueError, "'stash'"),
    ],
)
def test_rules_errors_name_the_field_and_value(overrides, error, words):
    with pytest.raises(error) as info:
        DohRules.from_dict(overrides)
    assert words in str(info.value)


def test_rules_from_dict_wants_a_mapping():
    with pytest.raises(TypeError):
        DohRules.from_dict([("grid", 3)])


# -- the vocabulary (D4, D5, D6) --------------------------------------------------------------


def test_d4_the_nine_contents_and_how_they_are_built():
    assert CONTENTS[1:] == ("S", "M", "L", "LM", "LMS", "MS", "SM", "SML", "ML")
    # stacking: one size smaller on top of a single piece or a stack
    assert place_onto("L", M) == "LM" and place_onto("LM", S) == "LMS"
    assert place_onto("M", S) == "MS"
    # nesting: one size larger over a single piece or a nest
    assert place_onto("S", M) == "SM" and place_onto("SM", L) == "SML"
    assert place_onto("M", L) == "ML"
    # never a stack and a nest on one square; nothing onto a full stack/nest
    for content in ("LMS", "SML", "ML", "MS"):
        assert all(place_onto(content, size) is None for size in Size)
    assert place_onto("LM", L) is None and place_onto("SM", S) is None
    assert place_onto("S", S) is None and place_onto("L", L) is None and place_onto("S", L) is None
    # every content is reachable
    assert set(PLACE_ONTO.values()) == set(CONTENTS[1:])


def test_d5_what_a_square_counts_as():
    assert COUNTS_AS["LMS"] == {S, M, L} and COUNTS_AS["LM"] == {L, M} and COUNTS_AS["MS"] == {M, S}
    assert COUNTS_AS["SM"] == {M} and COUNTS_AS["SML"] == {L} and COUNTS_AS["ML"] == {L}


def test_d6_reasons_in_order():
    assert REASONS == ("game_over", "none_left", "not_adjacent", "outside_grid", "cannot_stack")


def test_parse_size():
    assert parse_size("M") is M
    with pytest.raises(ValueError, match="'XL'"):
        parse_size("XL")
    with pytest.raises(TypeError):
        parse_size(1)


# -- the rules, on both engines ------------------------------------------------------------------


@pytest.fixture(params=ENGINES)
def engine(request):
    return request.param


def play_all(t, moves):
    return [t.play(size, square) for size, square in moves]


def test_d1_shared_stash_and_alternation(engine):
    t = table(engine, pieces_per_size=1)
    assert t.summary()["to_move"] == "first"
    assert t.play(S, (0, 0)) is None
    assert t.summary()["to_move"] == "second"
    assert t.play(S, (0, 1)) == "none_left"  # first used the one S: it is gone for both
    assert t.summary()["to_move"] == "second"  # a rejected move: the same player again
    assert t.play(M, (0, 1)) is None
    assert t.summary()["stash"] == {"S": 0, "M": 0, "L": 1}
    assert t.summary()["to_move"] == "first"


def test_d2_the_box_and_translation(engine):
    t = table(engine)
    assert play_all(t, [(S, (10, 10)), (M, (11, 11)), (L, (12, 12))]) == [None] * 3
    assert t.play(S, (13, 13)) == "outside_grid"  # adjacent, but 4 rows and 4 columns
    assert t.play(S, (13, 12)) == "outside_grid"  # adjacent, 4 rows
    assert t.play(S, (12, 9)) == "not_adjacent"  # two columns from the nearest piece
    assert t.summary()["squares"] == {"0,0": "S", "1,1": "M", "2,2": "L"}


def test_d2_a_smaller_grid(engine):
    t = table(engine, grid=2)
    assert play_all(t, [(S, (0, 0)), (M, (1, 1))]) == [None, None]
    assert t.play(L, (2, 2)) == "outside_grid"
    assert t.play(L, (0, -1)) == "outside_grid"
    assert t.play(L, (0, 1)) is None


def test_d3_adjacency_includes_diagonals_and_the_first_piece_goes_anywhere(engine):
    t = table(engine)
    assert t.play(L, (-40, 77)) is None
    assert t.play(S, (-40, 79)) == "not_adjacent"
    assert t.play(S, (-39, 78)) is None  # diagonal neighbour
    assert t.play(M, (-38, 80)) == "not_adjacent"
    assert t.play(M, (-41, 76)) is None


def test_d4_stack_and_nest_on_an_occupied_square(engine):
    t = table(engine)
    assert play_all(t, [(L, (0, 0)), (M, (0, 0)), (S, (0, 0))]) == [None] * 3
    assert t.play(S, (0, 0)) == "cannot_stack"
    assert play_all(t, [(S, (0, 1)), (M, (0, 1)), (L, (0, 1))]) == [None] * 3
    assert t.play(S, (0, 1)) == "cannot_stack"  # no stack on a nest
    assert play_all(t, [(M, (1, 0)), (S, (1, 0))]) == [None, None]
    assert t.play(L, (1, 0)) == "cannot_stack"  # no nest over a stack
    assert t.summary()["squares"] == {"0,0": "LMS", "0,1": "SML", "1,0": "MS"}


def test_d5_a_nest_counts_only_as_its_outer_piece(engine):
    t = table(engine)
    # S line hidden by the nest: SM, S, S is no line
    assert play_all(t, [(S, (0, 0)), (M, (0, 0)), (S, (0, 1)), (S, (0, 2))]) == [None] * 4
    assert t.result is None and t.translated_lines() == []


def test_d5_a_stack_counts_as_each_size(engine):
    t = table(engine)
    assert play_all(t, [(L, (0, 0)), (M, (0, 0)), (S, (0, 0)), (S, (1, 1))]) == [None] * 4
    assert t.result is None
    assert t.play(S, (2, 2)) is None  # LMS, S, S on the diagonal: an S line
    assert t.result == "first" and t.translated_lines() == [[[0, 0], [1, 1], [2, 2]]]


def test_d6_first_reason_that_applies(engine):
    t = table(engine, pieces_per_size=1)
    t.play(S, (0, 0))
    assert t.play(S, (5, 5)) == "none_left"  # also not adjacent: none_left first
    assert t.play(M, (0, 3)) == "not_adjacent"  # also outside the grid
    t.play(M, (0, 1))
    t.play(L, (0, 1))  # last piece: D8 draw
    assert t.result == "draw"
    assert t.play(S, (0, 0)) == "game_over"  # also none_left: game_over first


def test_d6_a_rejection_changes_nothing(engine):
    t = table(engine)
    t.play(M, (0, 0))
    before = t.summary()
    for size, square in [(M, (0, 0)), (S, (0, 4)), (S, (7, 7))]:
        assert t.play(size, square) is not None
        assert t.summary() == before


@pytest.mark.parametrize(
    "line",
    [
        [(0, 0), (0, 1), (0, 2)],  # row
        [(0, 1), (1, 1), (2, 1)],  # column
        [(0, 0), (1, 1), (2, 2)],  # diagonal
        [(0, 2), (1, 1), (2, 0)],  # anti-diagonal
    ],
)
def test_d7_a_line_in_each_direction_wins_for_the_mover(engine, line):
    t = table(engine)
    assert play_all(t, [(L, line[0]), (L, line[1])]) == [None, None]
    assert t.result is None
    assert t.play(L, line[2]) is None
    assert t.result == "first"
    assert t.summary()["to_move"] is None
    r0, c0 = min(r for r, _ in line), min(c for _, c in line)
    assert t.translated_lines() == [[[r - r0, c - c0] for r, c in sorted(line)]]


def test_d7_the_line_is_the_movers_even_on_the_second_turn(engine):
    t = table(engine)
    assert play_all(t, [(M, (0, 0)), (M, (0, 1)), (L, (1, 1)), (M, (0, 2))]) == [None] * 4
    assert t.result == "second"


def test_d8_the_stash_runs_out(engine):
    t = table(engine, pieces_per_size=1)
    assert play_all(t, [(S, (0, 0)), (M, (0, 1)), (L, (1, 0))]) == [None] * 3
    assert t.result == "draw" and t.translated_lines() == []


def test_d9_no_legal_move_with_pieces_left(engine):
    t = table(engine, grid=1)
    assert play_all(t, [(L, (0, 0)), (M, (0, 0)), (S, (0, 0))]) == [None] * 3
    assert t.result == "first"  # second has 12 pieces but no move
    assert t.summary()["stash"] == {"S": 4, "M": 4, "L": 4}
    t2 = table(engine, grid=1)
    assert play_all(t2, [(M, (0, 0)), (S, (0, 0))]) == [None, None]
    assert t2.result == "second"  # MS accepts nothing: first is stuck
