"""The native Match's Python surface: validation, copies, bytes, planes, recording."""

from __future__ import annotations

import copy
import json
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blitz_core.blitz.kernels import has_line_batch, lowest_line_batch, timeout_score_batch
from blitz_core.blitz.playout import play_random
from tictacblitz import STATE_BYTES, Action, ActionKind, EventKind, Match, Player, Reason, Rules
from tictacblitz.games.blitz.playout import play_random as api_play_random
from tictacblitz.games.blitz.scenario import load_scenario, run_scenario


def busy_match(seed=3, **rules):
    match = Match(Rules(**rules), seed=seed)
    play_random(match, seed, whole_match=False)
    return match


# -- rules ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "field, value",
    [
        ("size", 3),
        ("size", 9),
        ("line_length", 0),
        ("line_length", 7),
        ("round_ms", 0),
        ("mark_limit", 0),
        ("set_ms", -1),
        ("spawn_min_ms", 5000),
        ("spawn_max_ms", 0),
        ("freeze_factor", 0),
        ("haste_factor", -2),
        ("freeze_factor", float("nan")),
        ("freeze_factor", 0.0001),
        ("powerup_weights", {"bomb": 0}),
        ("powerup_weights", {"nuke": 1}),
        ("powerup_weights", {"bomb": -1}),
    ],
)
def test_bad_rule_values_raise_value_error_naming_field_and_value(field, value):
    with pytest.raises(ValueError) as info:
        Rules(**{field: value})
    message = str(info.value)
    assert field in message or "powerup_weights" in message
    if not isinstance(value, dict):
        assert repr(value) in message or str(value) in message


@pytest.mark.parametrize(
    "field, value", [("size", "6"), ("set_ms", 1.5), ("mark_limit", True), ("haste_factor", "2")]
)
def test_wrong_rule_types_raise_type_error(field, value):
    with pytest.raises(TypeError, match=field):
        Rules(**{field: value})


def test_rules_round_trip_through_dict_and_json():
    rules = Rules(set_ms=1200, freeze_factor=1.5, powerup_weights={"bomb": 2, "swap": 0.5})
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_json(rules.to_json()) == rules
    assert rules.overrides() == {
        "set_ms": 1200,
        "freeze_factor": 1.5,
        "powerup_weights": {"bomb": 2, "freeze": 0, "haste": 0, "swap": 0.5},
    }
    with pytest.raises(ValueError, match="unknown rule 'speed'"):
        Rules.from_dict({"speed": 3})


def test_rules_speed_units_are_exact_fractions():
    # R5: freeze 5/2 and haste 2/1 give 5, 2, 10, 4 units a ms.
    assert Rules().speed_units == (5, 2, 10, 4)
    assert Rules(freeze_factor=1.5, haste_factor=0.75).speed_units == (3 * 4, 2 * 4, 3 * 3, 2 * 3)


# -- malformed input changes nothing -------------------------------------------------------


@pytest.mark.parametrize(
    "player, action, error",
    [
        ("Z", Action.place((0, 0)), ValueError),
        (2, Action.place((0, 0)), ValueError),
        (None, Action.place((0, 0)), TypeError),
        (Player.X, Action.place((6, 0)), ValueError),
        (Player.X, Action.place((0, -1)), ValueError),
        (Player.X, Action.place((0, "1")), TypeError),
        (Player.X, Action.place((0,)), TypeError),
        (Player.X, ("place", (0, 0)), TypeError),
        (Player.X, Action(kind=7, cell=(0, 0)), TypeError),
    ],
)
def test_malformed_actions_raise_and_change_nothing(player, action, error):
    match = busy_match()
    before = match.to_bytes()
    with pytest.raises(error):
        match.act(player, action)
    assert match.to_bytes() == before


def test_error_messages_name_the_bad_value():
    match = Match()
    with pytest.raises(ValueError, match=r"\(6, 0\) is off the 6x6 board"):
        match.act(Player.X, Action.place((6, 0)))
    with pytest.raises(ValueError, match="'Z'"):
        match.act("Z", Action.place((0, 0)))
    with pytest.raises(ValueError, match="-5"):
        match.advance(-5)
    with pytest.raises(TypeError, match="1.5"):
        match.advance(1.5)


def test_one_action_per_player_per_ms():
    match = Match(Rules(recharge_place_ms=0, powerup_max=0))
    assert match.act(Player.X, Action.place((0, 0))) is None
    with pytest.raises(ValueError, match="one action per player per ms"):
        match.act(Player.X, Action.place((0, 1)))
    with pytest.raises(ValueError, match="act_both"):
        match.act(Player.O, Action.place((0, 1)))
    match.advance(1)
    assert match.act(Player.X, Action.place((0, 1))) is None


def test_rejections_report_r7_reasons_and_change_nothing():
    match = Match(Rules(powerup_max=0))
    assert match.act(Player.X, Action.place((1, 1))) is None
    match.advance(1)
    before = match.to_bytes()
    assert match.act(Player.X, Action.place((2, 2))) == Reason.NOT_CHARGED
    assert match.events[0].kind == EventKind.REJECTED
    assert match.events[0].reason == Reason.NOT_CHARGED
    match.advance(1)
    assert match.act(Player.O, Action.place((1, 1))) == Reason.OCCUPIED
    match.advance(1)
    assert match.act(Player.O, Action.knockout((3, 3))) == Reason.NOT_OPPONENT_MARK
    match.advance(1600)
    assert match.act(Player.O, Action.knockout((1, 1))) == Reason.ALREADY_SET
    assert match.check(Player.O, Action.knockout((1, 1))) == Reason.ALREADY_SET
    restored = Match.from_bytes(before)
    assert restored.board_text() == ["......", ".x....", "......", "......", "......", "......"]


def test_legal_cells_agree_with_check():
    for seed in range(5):
        match = busy_match(seed)
        match.start_next_round() if match.round_over and not match.match_over else None
        for player in Player:
            for kind in ActionKind:
                legal = set(match.legal_cells(player, kind))
                for row in range(6):
                    for col in range(6):
                        action = Action(kind, (row, col))
                        assert (match.check(player, action) is None) == ((row, col) in legal)


# -- copies and bytes ----------------------------------------------------------------------


def test_state_fits_in_512_bytes():
    assert STATE_BYTES <= 512


def test_clone_is_independent_and_equal():
    match = busy_match()
    twin = match.clone()
    assert twin.to_bytes() == match.to_bytes()
    assert copy.copy(match).to_bytes() == match.to_bytes()
    assert copy.deepcopy(match).to_bytes() == match.to_bytes()
    if not twin.round_over:
        twin.advance(1000)
        assert twin.t != match.t


def test_pickle_and_bytes_round_trip_mid_match():
    live = Match(seed=11)
    play_random(live, 11, whole_match=False)
    live.start_next_round()
    live.advance(2000)
    for match in (live, busy_match(5)):
        for restored in (pickle.loads(pickle.dumps(match)), Match.from_bytes(match.to_bytes())):
            assert restored.to_bytes() == match.to_bytes()
            assert restored.state_dict() == match.state_dict()
            assert restored.rounds == match.rounds
        # A restored match plays on exactly like the original.
        a, b = match.clone(), Match.from_bytes(match.to_bytes())
        if not a.match_over:
            if a.round_over:
                a.start_next_round()
                b.start_next_round()
            play_random(a, 99)
            play_random(b, 99)
            assert a.rounds == b.rounds and a.board_text() == b.board_text()


def test_from_bytes_rejects_other_versions_and_garbage():
    data = bytearray(busy_match().to_bytes())
    with pytest.raises(ValueError, match="magic"):
        Match.from_bytes(b"nonsense")
    with pytest.raises(ValueError, match="checksum"):
        Match.from_bytes(bytes(data[:-1]) + bytes([data[-1] ^ 1]))
    with pytest.raises(TypeError):
        Match.from_bytes("text")


def _with_fixed_crc(data: bytes) -> bytes:
    import zlib

    magic = 8
    body = data[magic:-4]
    return data[:magic] + body + zlib.crc32(body).to_bytes(4, "little")


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_from_bytes_on_mutated_bytes_never_crashes(data):
    """Mutated bytes (checksum repaired, so validation itself is exercised) give either a
    ValueError or a match that keeps playing safely."""
    original = busy_match(data.draw(st.integers(0, 3))).to_bytes()
    blob = bytearray(original)
    for _ in range(data.draw(st.integers(1, 6))):
        index = data.draw(st.integers(8, len(blob) - 5))
        blob[index] = data.draw(st.integers(0, 255))
    try:
        match = Match.from_bytes(_with_fixed_crc(bytes(blob)))
    except ValueError:
        return
    match.board_text()
    match.state_dict()
    if not match.match_over:
        if match.round_over:
            match.start_next_round()
        play_random(match, 1)


# -- reading -------------------------------------------------------------------------------


def test_planes_show_the_board_from_each_side():
    match = Match(
        Rules(powerup_max=0), setup=["XX....", "......", "......", "......", "......", "....OO"]
    )
    match.act(Player.O, Action.place((2, 2)))
    match.advance(400)
    x_view, o_view = match.planes(Player.X), match.planes(Player.O)
    assert x_view.shape == (12, 6, 6) and x_view.dtype == np.float32
    assert x_view[0, 0, :2].tolist() == [1, 1] and o_view[2, 0, :2].tolist() == [1, 1]
    assert x_view[3, 2, 2] == 1 and o_view[1, 2, 2] == 1
    assert x_view[9, 2, 2] == pytest.approx(400 / 1600)


def test_status_follows_r5_worked_example():
    """R5: X places at 0, O claims a freeze at 200: X is full at 825."""
    match = Match(random_powerups=False)
    match.act(Player.X, Action.place((0, 0)))
    match.advance(100)
    match.spawn_powerup("freeze", (5, 5))
    match.advance(100)
    match.act(Player.O, Action.place((5, 5)))
    status = match.status(Player.X)
    assert status.frozen and status.frozen_until == 3200 and status.charge_ready_t == 825
    match.advance_to(824)
    assert match.act(Player.X, Action.place((0, 1))) == Reason.NOT_CHARGED
    match.advance(1)
    assert match.act(Player.X, Action.place((0, 1))) is None


def test_events_serialise_to_json():
    match = Match(seed=8)
    api_play_random(match, 8, whole_match=False)  # through the API: events kept
    for event in match.events:
        json.dumps(event.to_dict())
    assert any(e.kind == EventKind.ROUND_OVER for e in match.events) == match.round_over


# -- recording -----------------------------------------------------------------------------


def test_recorded_match_replays_to_the_same_result():
    match = Match(seed=21, record=True)
    api_play_random(match, 21)  # recording sees what goes through act/act_both
    scenario = load_scenario(json.loads(json.dumps(match.to_scenario())))
    result = run_scenario(scenario, Match)
    assert result["rounds"] == [r.to_dict() for r in match.rounds]
    assert result["round_wins"] == {"X": match.round_wins[0], "O": match.round_wins[1]}
    assert result["state"] == match.state_dict()


def test_recorded_scripted_powerups_replay():
    match = Match(seed=4, random_powerups=False, record=True)
    match.spawn_powerup("bomb", (2, 2))
    match.act(Player.O, Action.place((1, 1)))
    match.advance(50)
    match.act(Player.X, Action.place((2, 2)))
    match.advance(3000)
    result = run_scenario(load_scenario(match.to_scenario()), Match)
    assert result["state"] == match.state_dict()


def test_to_scenario_needs_recording():
    with pytest.raises(ValueError, match="record=True"):
        Match().to_scenario()


# -- batch kernels -------------------------------------------------------------------------


def test_batch_kernels_agree_with_the_engine():
    rng = np.random.default_rng(0)
    x = rng.integers(0, 2**36, size=500, dtype=np.uint64) & rng.integers(
        0, 2**36, size=500, dtype=np.uint64
    )
    o = (
        rng.integers(0, 2**36, size=500, dtype=np.uint64)
        & ~x
        & rng.integers(0, 2**36, size=500, dtype=np.uint64)
    )
    lines = has_line_batch(x)
    windows = lowest_line_batch(x)
    scores = timeout_score_batch(x, o)
    for i in range(len(x)):
        rows = [
            "".join(
                "X"
                if int(x[i]) >> (r * 6 + c) & 1
                else "O"
                if int(o[i]) >> (r * 6 + c) & 1
                else "."
                for c in range(6)
            )
            for r in range(6)
        ]
        assert bool(lines[i]) == (windows[i] != 0)
        # A match set up with this board ends round 1 at t=0 exactly when X has a line.
        if bin(int(x[i])).count("1") <= 36 and not lines[i] and not has_line_batch(o[i : i + 1])[0]:
            match = Match(Rules(mark_limit=36, round_ms=1), setup=rows)
            match.advance(1)
            assert match.rounds[0].scores == (
                scores[i],
                timeout_score_batch(o[i : i + 1], x[i : i + 1])[0],
            )


def test_batch_kernels_validate_their_input():
    boards = np.zeros(3, dtype=np.uint64)
    with pytest.raises(ValueError, match="size=9"):
        has_line_batch(boards, size=9)
    with pytest.raises(ValueError, match="line_length=7"):
        has_line_batch(boards, size=6, line_length=7)
    with pytest.raises(ValueError, match="differ in length"):
        timeout_score_batch(boards, boards[:2])
    with pytest.raises(ValueError):
        has_line_batch(np.zeros(3, dtype=np.int32))


def test_to_scenario_leaves_out_until_for_rounds_past_the_script():
    """A replay (docs/replay-format.md) plays up to the last round its script names: a
    later, untouched round cannot be in the file, and `until` (which counts in that last
    round) is left out rather than cutting it short."""
    match = Match(Rules(powerup_max=0, round_ms=3000), seed=2, record=True)
    match.act(Player.X, Action.place((0, 0)))
    match.advance(3000)
    scenario = match.to_scenario()
    assert scenario["until"] == 3000
    match.start_next_round()
    match.advance(1000)
    scenario = match.to_scenario()
    assert "until" not in scenario
    result = run_scenario(load_scenario(scenario), Match)
    assert result["rounds"] == [match.rounds[0].to_dict()]


def test_matches_cut_out_of_a_batch_start_fresh_and_pickle():
    """StateBatch slots start as new matches; a match taken out of a batch has no round
    history, which from_bytes/pickle accept (history may be shorter, never longer)."""
    from blitz_core.blitz.rollouts import StateBatch

    batch = StateBatch(n=3)
    assert batch.match(2).state_dict() == Match().state_dict()
    batch.load(busy_match(4))
    batch.rollout(("random", "random"), seeds=1, until="match")
    taken = batch.match(0)
    assert pickle.loads(pickle.dumps(taken)).state_dict() == taken.state_dict()


@pytest.mark.parametrize("call", ["winning_cells_mask", "time_decisions"])
def test_native_bot_helpers_check_the_seat(call):
    from blitz_core.blitz import bots as native
    from tictacblitz.games.blitz.bots import resolve

    args = (
        (Match(), resolve("greedy").native(), 10**8, 1)
        if call == "time_decisions"
        else (Match(), -5)
    )
    with pytest.raises(ValueError, match="seat"):
        getattr(native, call)(*args)
