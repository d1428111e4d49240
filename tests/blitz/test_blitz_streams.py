"""Blitz's random stream layouts (docs/engine.md "The random stream", issue 22).

Layout 2 keys every draw by its purpose, the round and an index, so that a change of
history leaves the other draws alone (common random numbers); layout 1, one stream in
the order things happen, is what files without a ``stream`` field replay with. The
exact draws of both are held to the reference engine by tests/blitz/test_blitz_differential.py.
"""

from __future__ import annotations

import pytest

from tictacblitz import Action, EventKind, Match, Player, PowerupKind, Rules
from tictacblitz.games.blitz.reference import ReferenceMatch
from tictacblitz.games.blitz.scenario import ScenarioError, load_scenario, run_scenario
from tictacblitz.games.blitz.streams import (
    PURPOSE_CELL,
    PURPOSE_COIN,
    PURPOSE_KIND,
    PURPOSE_TIME,
    base_keys,
    purpose_key,
)
from tictacblitz.games.rng import SplitMix64

EngineCls = [Match, ReferenceMatch]


def spawns(match):
    """Every powerup spawn of round 1 up to its timeout, as (t, kind, cell)."""
    seen = []
    while not match.round_over:
        match.advance_to_next_event()
        spawned = [e for e in match.events if e.kind == EventKind.POWERUP_SPAWNED]
        seen += [(e.t, e.powerup, e.cell) for e in spawned]
    return seen


@pytest.mark.parametrize("engine", EngineCls)
def test_new_matches_use_layout_2_and_old_files_layout_1(engine):
    assert engine(Rules(), seed=1).stream == 2
    assert load_scenario({"seed": 1}).stream == 1  # a file without the field: as recorded
    assert load_scenario({"seed": 1, "stream": 2}).stream == 2


@pytest.mark.parametrize("engine", EngineCls)
@pytest.mark.parametrize("bad", [0, 3, "2", True, 2.0])
def test_a_bad_stream_layout_is_one_clear_error(engine, bad):
    with pytest.raises((TypeError, ValueError), match="stream must be a stream layout"):
        engine(Rules(), seed=1, stream=bad)
    with pytest.raises(ScenarioError, match="stream must be a stream layout"):
        load_scenario({"stream": bad})


def test_the_worked_example_of_engine_md():
    """docs/engine.md's table: seed 7, default rules, layout 2."""
    base = base_keys(7)
    assert base[PURPOSE_TIME] == 0x63CBE1E459320DD7 ^ 0x5851F42D4C957F2D  # match_key ^ salt
    time_stream = SplitMix64(purpose_key(base[PURPOSE_TIME], 1, 0))
    assert 2500 + time_stream.below(2001) == 3506
    cells = SplitMix64(purpose_key(base[PURPOSE_CELL], 1, 0))
    assert [cells.below(36) for _ in range(3)] == [25, 17, 11]
    assert purpose_key(base[PURPOSE_KIND], 1, 0) == 0xA9BC992F7D5DD499
    assert purpose_key(base[PURPOSE_COIN], 1, 1234) == 0xAA7E4A23A0CE9F15
    for engine in EngineCls:  # the same first spawn on both engines
        assert spawns(engine(Rules(), seed=7))[0] == (3506, PowerupKind.BOMB, (4, 1))
    for engine in EngineCls:  # both act at t = 1234 of round 1: the coin says O first
        match = engine(Rules(), seed=7)
        match.advance_to(1234)
        match.act_both(Action.place((0, 0)), Action.place((0, 0)))
        assert match.board_text()[0][0].lower() == "o"


def first_round_spawns_with_and_without_a_mark(stream, seed):
    marked = Match(Rules(set_ms=0), seed=seed, stream=stream)
    marked.act(Player.X, Action.place((0, 0)))
    plain = Match(Rules(set_ms=0), seed=seed, stream=stream)
    return spawns(marked), spawns(plain)


def test_layout_2_spawns_do_not_depend_on_the_board():
    """One mark more on the board changes no spawn time or kind in layout 2, and a cell
    only where the spawn's priority order reaches the marked cell first. In layout 1 the
    same mark moves every later cell (the empty-cell count changes) - issue 22's cause."""
    same = {1: 0, 2: 0}
    total = {1: 0, 2: 0}
    for seed in range(40):
        for stream in (1, 2):
            marked, plain = first_round_spawns_with_and_without_a_mark(stream, seed)
            assert [s[0] for s in marked] == [s[0] for s in plain]  # times: never the board's
            total[stream] += len(plain)
            same[stream] += sum(a == b for a, b in zip(marked, plain, strict=True))
            if stream == 2:
                assert [s[1] for s in marked] == [s[1] for s in plain]  # kinds too
    assert same[2] / total[2] > 0.9
    assert same[1] / total[1] < 0.5


@pytest.mark.parametrize("engine", EngineCls)
def test_layout_2_coin_is_a_function_of_round_and_ms(engine):
    """R3's order at (round, t) is the same whatever coins came before (layout 2)."""
    orders = {1: set(), 2: set()}
    for stream in (1, 2):
        for earlier in (0, 1, 2, 3):
            match = engine(Rules(set_ms=0, recharge_place_ms=0), seed=5, stream=stream)
            for k in range(earlier):  # earlier simultaneous actions: earlier coins
                match.advance(10)
                match.act_both(Action.place((0, 2 * k)), Action.place((1, 2 * k)))
            match.advance_to(200)
            match.act_both(Action.place((5, 0)), Action.place((5, 0)))  # one wins the cell
            orders[stream].add(match.board_text()[5][0])
    assert len(orders[2]) == 1


def test_old_and_new_recordings_replay_as_they_were_played():
    for stream in (1, 2):
        match = Match(Rules(round_ms=9000), seed=11, record=True, stream=stream)
        for t in range(0, 9000, 700):
            if match.round_over:
                break
            match.advance_to(t)
            match.act_both(Action.place((t // 700 % 6, 1)), Action.place((t // 700 % 6, 4)))
        scenario = match.to_scenario()
        assert scenario["stream"] == stream
        replayed = run_scenario(load_scenario(scenario), Match)
        assert replayed["state"]["board"] == match.board_text()
        assert Match.from_bytes(match.to_bytes()).stream == stream
