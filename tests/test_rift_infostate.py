"""Rift & Grid's information states (games/rift/infostate.py, issue 28 "hidden
information"): a seat's tensor and string depend on what it knows (its hand, the public
turn reports, what its reveals showed it) and on nothing it does not (G12, G15)."""

from __future__ import annotations

import numpy as np
import pytest

from tictacblitz.games import load_game
from tictacblitz.games.rift import infostate as hidden
from tictacblitz.games.rift.types import OBJECTIVE_IDS

X_HAND = ("centre", "two_corners", "meta_line")
# Two O hands that X cannot tell apart until a reveal: the first objective differs.
O_HAND_A = ("four_sectors", "two_edges", "clean_sweep")
O_HAND_B = ("opposite_corners", "two_edges", "clean_sweep")


def _play(o_hand, moves):
    """A game with a fixed deal, the joint moves played, and its turn records."""
    game = load_game("rift", {"reveal_cost": 2})
    state = game.new_state(deal={"X": X_HAND, "O": o_hand})
    for joint in moves:
        assert state.apply_joint(joint) == (None, None)
    reports = [e for e in state.drain_events() if e["kind"] == "turn"]
    return state, [hidden.TurnRecord.from_report(r) for r in reports]


def _quiet_moves(n):
    """n turns of plain moves chosen by a fixed rule (lowest legal plain code each)."""
    game = load_game("rift", {"reveal_cost": 2})
    state = game.new_state(deal={"X": X_HAND, "O": O_HAND_A})
    moves = []
    for _ in range(n):
        joint = tuple(min(a for a in state.legal_actions(p) if a < 81) for p in (0, 1))
        if joint[0] == joint[1]:  # keep the boards identical but simple: no collision
            joint = (joint[0], max(a for a in state.legal_actions(1) if a < 81))
        state.apply_joint(joint)
        moves.append(joint)
    return moves


def test_the_seat_that_cannot_see_the_secret_gets_the_same_information_state():
    moves = _quiet_moves(4)
    a, turns_a = _play(O_HAND_A, moves)
    b, turns_b = _play(O_HAND_B, moves)
    assert a.summary()["objectives"]["O"] != b.summary()["objectives"]["O"]
    for s in (a, b):  # nothing of O's hand accomplished: all of it still hidden from X
        assert not any(o["accomplished"] for o in s.summary()["objectives"]["O"])
    # X cannot see O's hand: same tensor, same string.
    np.testing.assert_array_equal(
        hidden.information_state_tensor(a, 0, turns_a),
        hidden.information_state_tensor(b, 0, turns_b),
    )
    assert hidden.information_state_string(a, 0, turns_a) == hidden.information_state_string(
        b, 0, turns_b
    )
    assert hidden.observation_string(a, 0) == hidden.observation_string(b, 0)
    # O sees its own hand: different tensors and strings.
    assert not np.array_equal(
        hidden.information_state_tensor(a, 1, turns_a),
        hidden.information_state_tensor(b, 1, turns_b),
    )
    assert hidden.information_state_string(a, 1, turns_a) != hidden.information_state_string(
        b, 1, turns_b
    )


def test_a_reveal_makes_the_secret_part_of_the_revealers_information_state():
    moves = _quiet_moves(2)
    a, turns_a = _play(O_HAND_A, moves)
    b, turns_b = _play(O_HAND_B, moves)
    reveal = [c for c in a.legal_actions(0) if c // 81 == 3][0]  # G15: reveal (ability 3)
    plain = min(c for c in a.legal_actions(1) if c < 81 and c != reveal % 81)
    for s, turns in ((a, turns_a), (b, turns_b)):
        s.apply_joint((reveal, plain))
        turns += [hidden.TurnRecord.from_report(e) for e in s.drain_events() if e["kind"] == "turn"]
    assert turns_a[-1].revealed[0] == OBJECTIVE_IDS.index(O_HAND_A[0])
    assert turns_b[-1].revealed[0] == OBJECTIVE_IDS.index(O_HAND_B[0])
    ta = hidden.information_state_tensor(a, 0, turns_a)
    tb = hidden.information_state_tensor(b, 0, turns_b)
    assert not np.array_equal(ta, tb)
    assert "saw=four_sectors" in hidden.information_state_string(a, 0, turns_a)
    assert "saw=opposite_corners" in hidden.information_state_string(b, 0, turns_b)


def test_the_tensor_has_a_fixed_size_and_its_blocks_where_the_layout_says():
    state, turns = _play(O_HAND_A, _quiet_moves(3))
    tensor = hidden.information_state_tensor(state, 1, turns)
    assert tensor.dtype == np.float32 and tensor.shape == (hidden.INFOSTATE_SIZE,)
    assert tensor[hidden.IS_SEAT : hidden.IS_HAND].tolist() == [0.0, 1.0]
    hand = tensor[hidden.IS_HAND : hidden.IS_NOW].reshape(hidden.CATALOGUE, hidden.CATALOGUE)
    assert [OBJECTIVE_IDS[int(np.argmax(row))] for row in hand[:3]] == list(O_HAND_A)
    np.testing.assert_array_equal(tensor[hidden.IS_NOW : hidden.IS_TURNS], state.observation(1))
    rows = tensor[hidden.IS_TURNS :].reshape(hidden.MAX_TURNS, hidden.TURN_SIZE)
    assert rows[:3, : hidden.MOVE_SIZE].sum(axis=1).tolist() == [2.0] * 3
    assert not rows[3:].any()
    mine = int(np.argmax(rows[0, :81]))
    assert mine == turns[0].moves[1][0]  # O's own move comes first in O's view


def test_the_history_read_from_a_recorded_state_is_the_one_its_reports_gave():
    game = load_game("rift")
    state = game.new_state(7, record=True)
    rng = np.random.default_rng(7)
    for _ in range(15):
        state.apply_joint([int(rng.choice(state.legal_actions(p))) for p in (0, 1)])
    reports = [e for e in state.drain_events() if e["kind"] == "turn"]
    assert hidden.turns_of(state) == [hidden.TurnRecord.from_report(r) for r in reports]


def test_bad_input_is_one_clear_error_and_changes_nothing():
    state, turns = _play(O_HAND_A, _quiet_moves(2))
    before = state.to_bytes()
    with pytest.raises(ValueError, match="1 turn records for a state at turn 3"):
        hidden.information_state_tensor(state, 0, turns[:1])
    with pytest.raises(ValueError, match="seat is 0 .X. or 1 .O., not 2"):
        hidden.information_state_string(state, 2, turns)
    assert state.to_bytes() == before


def test_the_deal_as_chance_draws_is_uniform_over_distinct_hands():
    rules = load_game("rift", {"objectives_per_player": 2}).rules
    assert hidden.deal_draws(rules) == 4
    assert hidden.deal_outcomes(rules, []) == list(range(12))
    assert 5 not in hidden.deal_outcomes(rules, [5])  # distinct within X's hand
    assert 5 in hidden.deal_outcomes(rules, [5, 6])  # O's hand may share X's (G12)
    assert hidden.deal_seat(rules, 2).letter == "O"
    assert hidden.deal_hands(rules, [0, 1, 0, 2]) == (
        (OBJECTIVE_IDS[0], OBJECTIVE_IDS[1]),
        (OBJECTIVE_IDS[0], OBJECTIVE_IDS[2]),
    )
