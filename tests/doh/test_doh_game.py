"""Tic Tac Doh behind the platform's protocol: what the conformance suite does not pin
down for an alternating game (turns, events, observation, records, rule changes)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from tictacblitz.games import TimeModel, game_type, load_game
from tictacblitz.games.doh.encoding import (
    CENTRE,
    NUM_ACTIONS,
    action_square,
    action_to_string,
    decode_action,
    encode_action,
)
from tictacblitz.games.doh.game import GAME_TYPE, DohGame, make_game
from tictacblitz.games.doh.rules import DohRules
from tictacblitz.games.doh.types import Size


def test_the_game_type():
    assert game_type("doh") == GAME_TYPE
    assert (GAME_TYPE.name, GAME_TYPE.long_name, GAME_TYPE.time_model, GAME_TYPE.seeded) == (
        "doh",
        "Tic Tac Doh",
        TimeModel.ALTERNATING,
        False,
    )
    game = load_game("doh", {"pieces_per_size": 3})
    assert game.rules == DohRules(pieces_per_size=3) and game.num_actions == 75
    assert game.with_rules({"grid": 2}).rules == DohRules(pieces_per_size=3, grid=2)
    assert make_game(DohRules()) == DohGame() and hash(make_game()) == hash(DohGame())
    with pytest.raises(ValueError, match="rules.grid=9"):
        game.with_rules({"grid": 9})


def test_the_encoding():
    assert NUM_ACTIONS == 75 and CENTRE == 12
    assert encode_action(Size.M, -1, 2) == 25 + 1 * 5 + 4
    for action in range(NUM_ACTIONS):
        size, dr, dc = decode_action(action)
        assert encode_action(size, dr, dc) == action
    assert action_square(62, None) == (0, 0) and action_square(61, None) is None
    assert action_square(25 + 1 * 5 + 4, (3, 3)) == (2, 5)
    assert action_to_string(25 + 1 * 5 + 4) == "M@-1,+2"
    with pytest.raises(ValueError):
        encode_action(Size.S, 3, 0)
    for bad, error in [(75, ValueError), (-1, ValueError), (1.0, TypeError), (True, TypeError)]:
        with pytest.raises(error):
            decode_action(bad)


def test_first_moves_only_at_the_centre():
    state = make_game().new_state()
    assert state.legal_actions(0) == [12, 37, 62]
    assert state.legal_actions(1) == []
    probe = state.clone()
    assert probe.apply(0, 13) == "not_adjacent"  # the window has no anchor yet
    assert state.apply(0, 37) is None  # M at the centre
    assert state.to_move() == (1,)


def test_turns_alternate_and_the_wrong_seat_is_an_error():
    state = make_game().new_state()
    before = state.to_bytes()
    with pytest.raises(ValueError, match="seat 1 is not to move"):
        state.apply(1, 12)
    with pytest.raises(ValueError):
        state.apply_joint((12, 37))
    assert state.to_bytes() == before
    assert state.apply_joint((12, None)) == (None, None)
    assert state.to_move() == (1,)
    assert state.apply_joint((None, 0)) == (None, "not_adjacent")
    assert state.to_move() == (1,)


def test_events_tell_moves_rejections_and_the_end():
    state = make_game().new_state()
    state.apply(0, 62)  # L at the centre
    state.apply(1, 62)  # L onto L: cannot_stack
    state.apply(1, 63)  # L right of it
    state.apply(0, 64)  # L two right: a row of L
    events = state.drain_events()
    kinds = [e["kind"] for e in events]
    assert kinds == ["move", "rejected", "move", "move", "end"]
    assert events[1]["reason"] == "cannot_stack"
    assert events[-1] == {
        "kind": "end",
        "result": "first",
        "by": "line",
        "lines": [[[0, 0], [0, 1], [0, 2]]],
    }
    assert state.drain_events() == []
    assert state.is_over() and state.returns() == (1.0, -1.0) and state.winner() == 0
    assert state.apply(1, 12) == "game_over"
    assert state.apply(0, 12) == "game_over"  # once over, any seat: game_over (D6)


def test_the_observation():
    state = make_game().new_state()
    state.apply(0, 62)  # L at frame (0, 0)
    state.apply(1, 37)  # M onto it: LM
    obs = state.observation(0)
    assert obs.shape == (15, 3, 3) and obs.dtype == np.float32
    assert obs[4, 0, 0] == 1.0 and obs[0, 0, 0] == 0.0 and obs[0].sum() == 8  # LM; 8 empty
    assert obs[10:13, 0, 0].tolist() == [0.0, 1.0, 1.0]  # counts M, L
    assert np.allclose(obs[13, :, 0], [1.0, 0.8, 0.8])  # stash S, M, L
    assert obs[14].sum() == 9 and state.observation(1)[14].sum() == 0


def test_records_survive_copies_and_pickles():
    game = make_game()
    state = game.new_state(record=True)
    for action in (62, 11, 36):
        assert state.apply(state.to_move()[0], action) is None
    for copy in (state.clone(), pickle.loads(pickle.dumps(state))):
        assert copy.to_replay() == state.to_replay()
    data = state.to_replay()
    assert data["game"] == "doh" and data["rules"] == {}
    assert [m["piece"] for m in data["script"]] == ["L", "S", "M"]
    assert game.replay(data)["state"] == state.summary()
    with pytest.raises(ValueError, match="record=True"):
        game.new_state().to_replay()
    with pytest.raises(TypeError):
        game.new_state(seed="x")


def test_bytes_carry_the_rules():
    game = make_game({"pieces_per_size": 2, "grid": 2})
    state = game.new_state()
    state.apply(0, 12)
    again = make_game().state_from_bytes(state.to_bytes())
    assert again.game == game and again.summary() == state.summary()


def test_the_native_core_checks_its_arguments():
    from blitz_core.doh.engine import Position
    from blitz_core.doh.solver import Solver

    params = DohRules().native_params()
    p = Position(params)
    before = p.to_bytes()
    for bad, error in [
        ("x", TypeError),
        (1.5, TypeError),
        (None, TypeError),
        (True, TypeError),
        (-1, ValueError),
        (75, ValueError),
        (2**70, ValueError),
    ]:
        with pytest.raises(error):
            p.play(bad)
        with pytest.raises(error):
            p.reason(bad)
    assert p.to_bytes() == before
    for rules, error in [
        ((0, 3, 2), ValueError),
        ((11, 3, 2), ValueError),
        ((5, 3, 5), ValueError),
        ((5, 4, 2), ValueError),
        (("5", 3, 2), TypeError),
        ((5, None, 2), TypeError),
    ]:
        with pytest.raises(error):
            Position(rules)
    for key in (-1, 2**64, "x", 1 << 50):
        with pytest.raises(ValueError):
            Position.from_key(key, params)
    for data in (b"", b"xx" * 9, "text"):
        with pytest.raises((TypeError, ValueError)):
            Position.from_bytes(data)
    solver = Solver(params)
    for seeds in (np.array([[1]]), np.array(["a"]), "abc", None):
        with pytest.raises(TypeError):
            solver.play_matches([(0, 0.0, 0), (0, 0.0, 0)], seeds)
    assert solver.play_matches([(0, 0.0, 0), (0, 0.0, 0)], [1, 2])[0].shape == (2,)
