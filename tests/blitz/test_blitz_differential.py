"""Differential tests: the native engine against the pure-Python reference (R1-R23).

Hypothesis writes random timed scripts — both players, scripted and random powerups,
several rounds, rule overrides — and both engines must give the same events, states and
errors after every call; stepping time 1 ms at a time must equal jumping by events; and
the engine's invariants must hold after every step.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tictacblitz import Action, EventKind, Match, Player, Rules
from tictacblitz.games.blitz.reference import ReferenceMatch

RULE_OVERRIDES = st.fixed_dictionaries(
    {},
    optional={
        "size": st.integers(4, 8),
        "set_ms": st.sampled_from([0, 1, 300, 1600]),
        "recharge_place_ms": st.sampled_from([0, 1, 120, 450]),
        "recharge_knockout_ms": st.sampled_from([0, 200, 700]),
        "crater_ms": st.sampled_from([0, 1, 500, 2000]),
        "mark_limit": st.integers(1, 9),
        "powerup_max": st.integers(0, 5),
        "spawn_min_ms": st.sampled_from([0, 50, 400]),
        "powerup_ms": st.sampled_from([0, 1, 900, 6000]),
        "freeze_ms": st.sampled_from([0, 300, 3000]),
        "haste_ms": st.sampled_from([0, 400, 4000]),
        "freeze_factor": st.sampled_from([2.5, 1, 3, 0.5, 1.25]),
        "haste_factor": st.sampled_from([2, 1.5, 0.75, 4]),
        "swap_max": st.integers(0, 9),
        "round_ms": st.sampled_from([1, 700, 3000, 9000]),
        "rounds_to_win": st.integers(1, 3),
        "max_rounds": st.integers(1, 4),
        "powerup_weights": st.sampled_from(
            [
                {"bomb": 1},
                {"swap": 1},
                {"freeze": 2, "haste": 1},
                {"bomb": 0.5, "swap": 0.25, "freeze": 1},
            ]
        ),
    },
)


@st.composite
def rules_strategy(draw):
    overrides = draw(RULE_OVERRIDES)
    size = overrides.get("size", 6)
    overrides["line_length"] = draw(st.integers(1, min(size, 5)))
    overrides["spawn_max_ms"] = overrides.get("spawn_min_ms", 2500) + draw(
        st.sampled_from([1, 200, 2000])
    )
    return Rules(**overrides)


# The strategies are built once: building them inside the draws (a new ``st.tuples`` or
# ``st.sampled_from`` per drawn operation) made Hypothesis validate each again, most of
# these tests' time; the scripts drawn are the same.
OPERATIONS = st.sampled_from(
    ["advance", "advance", "x", "o", "both", "both", "spawn", "next", "jump"]
)
ADVANCE_MS = st.sampled_from([0, 1, 7, 100, 450, 1600, 5000])
POWERUP_KINDS = st.sampled_from(["bomb", "freeze", "haste", "swap"])
OPERATION_COUNTS = st.integers(1, 60)
STREAMS = st.sampled_from([1, 2])
SEEDS = st.integers(0, 2**64 - 1)


@functools.lru_cache(maxsize=None)
def coordinate_strategy(size):
    return st.integers(0, size - 1)


@functools.lru_cache(maxsize=None)
def action_strategy(size):
    cell = st.tuples(coordinate_strategy(size), coordinate_strategy(size))
    return st.builds(
        lambda knock, c: Action.knockout(c) if knock else Action.place(c), st.booleans(), cell
    )


@st.composite
def script_strategy(draw):
    rules = draw(rules_strategy())
    size = rules.size
    random_powerups = draw(st.booleans())
    action = action_strategy(size)
    coordinate = coordinate_strategy(size)
    ops = []
    for _ in range(draw(OPERATION_COUNTS)):
        op = draw(OPERATIONS)
        if op == "advance":
            ops.append(("advance", draw(ADVANCE_MS)))
        elif op in ("x", "o"):
            ops.append((op, draw(action)))
        elif op == "both":
            ops.append((op, draw(action), draw(action)))
        elif op == "spawn":
            ops.append((op, draw(POWERUP_KINDS), (draw(coordinate), draw(coordinate))))
        else:
            ops.append((op,))
    # Both stream layouts (docs/engine.md): 1 for old files, 2 for new matches (issue 22).
    stream = draw(STREAMS)
    return rules, draw(SEEDS), random_powerups, stream, ops


def apply(match, op):
    """One scripted call; returns its outcome or the exception type it raised."""
    kind = op[0]
    try:
        if kind == "advance":
            return match.advance(op[1])
        if kind == "x":
            return match.act(Player.X, op[1])
        if kind == "o":
            return match.act(Player.O, op[1])
        if kind == "both":
            return match.act_both(op[1], op[2])
        if kind == "spawn":
            return match.spawn_powerup(op[1], op[2])
        if kind == "jump":
            return match.advance_to_next_event()
        return match.start_next_round()
    except (ValueError, TypeError) as exc:
        return type(exc)


def snapshot(match):
    return (
        match.state_dict(),
        match.rounds,
        match.round_wins,
        match.round_over,
        match.match_over,
        match.match_result,
        match.next_event_t(),
    )


def check_invariants(match):
    rules = match.rules
    planes = match.planes(Player.X)
    # No cell holds two things: marks of either player, craters, powerups.
    assert planes[:9].sum(axis=0).max() <= 1
    for player in Player:
        status = match.status(player)
        assert status.marks <= rules.mark_limit  # R12
        assert 0.0 <= status.charge_progress <= 1.0  # R5
        assert status.charge_full == (status.charge_progress >= 1.0)
        assert status.charge_ready_t >= match.t
    assert 0 <= match.t <= rules.round_ms
    # R2: no action at or after round_ms: the round is over by then.
    if match.t == rules.round_ms:
        assert match.round_over


SLOW = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow
@SLOW
@given(script_strategy())
def test_native_matches_reference(script):
    rules, seed, random_powerups, stream, ops = script
    native = Match(rules, seed=seed, random_powerups=random_powerups, stream=stream)
    reference = ReferenceMatch(rules, seed=seed, random_powerups=random_powerups, stream=stream)
    assert native.events == reference.events
    assert snapshot(native) == snapshot(reference)
    for op in ops:
        assert apply(native, op) == apply(reference, op), op
        assert native.events == reference.events, op
        assert snapshot(native) == snapshot(reference), op
        check_invariants(native)


def advance_by_single_ms(match, ms):
    events = []
    for _ in range(ms):
        if match.round_over:
            break
        match.advance(1)
        events += match.events
    return events


@pytest.mark.slow
@SLOW
@given(script_strategy())
def test_one_ms_steps_equal_event_steps(script):
    """R1/R23: stepping 1 ms at a time gives the same match as jumping."""
    rules, seed, random_powerups, stream, ops = script
    jumping = Match(rules, seed=seed, random_powerups=random_powerups, stream=stream)
    stepping = Match(rules, seed=seed, random_powerups=random_powerups, stream=stream)
    for op in ops:
        if op[0] == "advance":
            jumping.advance(op[1])
            assert advance_by_single_ms(stepping, op[1]) == jumping.events
        elif op[0] == "jump":
            target = jumping.next_event_t()
            jumping.advance_to_next_event()
            if target is not None:
                assert advance_by_single_ms(stepping, target - stepping.t) == jumping.events
        else:
            outcome = apply(jumping, op)
            assert outcome == apply(stepping, op)
            if not isinstance(outcome, type):  # a call that raised changed nothing
                assert jumping.events == stepping.events
        assert snapshot(jumping) == snapshot(stepping)


@pytest.mark.slow
@SLOW
@given(script_strategy())
def test_set_marks_are_never_knocked_out(script):
    """R9: only setting marks are knocked out; a set mark stays (R8) but for R12/R17."""
    rules, seed, random_powerups, stream, ops = script
    match = Match(rules, seed=seed, random_powerups=random_powerups, stream=stream)
    for op in ops:
        board = match.board_text()
        setting = {(r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch in "xo"}
        if isinstance(apply(match, op), type):
            continue  # a call that raised changed nothing
        for event in match.events:  # follow the call's own placements too
            if event.kind in (EventKind.PLACED, EventKind.STOLEN):
                setting.add(event.cell)
            elif event.kind in (EventKind.SET, EventKind.BOMBED, EventKind.RETIRED):
                setting.discard(event.cell)
            elif event.kind == EventKind.KNOCKED_OUT:
                assert event.cell in setting
                setting.discard(event.cell)


def test_invariants_over_thousands_of_random_matches():
    """Thousands of whole random matches run to completion in the native loop."""
    from blitz_core.blitz.playout import random_matches

    for rules in (Rules(), Rules(set_ms=0), Rules(size=4, line_length=3, mark_limit=3)):
        result = random_matches(rules, n=2000)
        rounds_to_win = rules.rounds_to_win
        wins = np.maximum(result["x_rounds"], result["o_rounds"])
        assert (result["rounds"] >= 1).all() and (result["rounds"] <= rules.max_rounds).all()
        decided = result["winner"] != 2
        # R22: a winner has rounds_to_win, or more round wins after max_rounds.
        assert (
            (wins[decided] == rounds_to_win) | (result["rounds"][decided] == rules.max_rounds)
        ).all()
        assert result["accepted"] > 0


@pytest.mark.parametrize("seed", range(30))
def test_random_matches_keep_invariants_every_step(seed):
    """Step a random match call by call through the API, checking invariants each time."""
    from tictacblitz.games.blitz.playout import legal_actions_from_board

    rng = np.random.default_rng(seed)
    rules = Rules(round_ms=6000, max_rounds=2)
    match = Match(rules, seed=seed)
    while not match.match_over:
        if match.round_over:
            match.start_next_round()
        chosen = {}
        for player in Player:
            legal = legal_actions_from_board(match.board_text(), player)
            if legal and match.status(player).charge_full and not match.round_over:
                chosen[player] = legal[rng.integers(len(legal))]
        if len(chosen) == 2:
            match.act_both(chosen[Player.X], chosen[Player.O])
        for player, action in chosen.items() if len(chosen) == 1 else ():
            match.act(player, action)
        check_invariants(match)
        match.advance(int(rng.integers(1, 300)))
        check_invariants(match)
