"""The platform's conformance suite: every registered game, through the protocol only.

Modelled on OpenSpiel's random-simulation test. Nothing here names a game: the suite
asks the registry for every game and drives each by its ``GameType.time_model``, so a
game added to the registry is added to this suite.
"""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from tictacblitz.games import (
    Game,
    RealTimeState,
    ReplayError,
    State,
    TimeModel,
    available_games,
    game_type,
    load_game,
)

GAMES = available_games()
CASES = [
    (name, players)
    for name in GAMES
    for players in range(
        getattr(game_type(name), "min_num_players", 2),
        getattr(game_type(name), "max_num_players", 2) + 1,
    )
]
"""Every game at every number of players its GameType declares (issue 25)."""
SEEDS = (1, 2, 3)
MAX_STEPS = 20_000  # no game of the family comes near this many decisions


def pick(rng: random.Random, state: State, player: int):
    legal = state.legal_actions(player)
    return rng.choice(legal) if legal else None


def seats(game: Game) -> range:
    """The game's seats under its rules (``Game.num_players``)."""
    return range(game.num_players)


def with_players(name: str, players: int) -> Game:
    """The registered game ``name`` seating ``players`` (its rules' default, or the one
    rule that sets it: the option D10 names ``players``)."""
    game = load_game(name)
    if game.num_players == players:
        return game
    return load_game(name, {"players": players})


def step(state: State, rng: random.Random) -> None:
    """One decision of random play, as the game's time model wants it."""
    model = state.game.type.time_model
    every = seats(state.game)
    if model is TimeModel.ALTERNATING:
        (player,) = state.to_move()
        state.apply(player, pick(rng, state, player))
    elif model is TimeModel.SIMULTANEOUS:
        state.apply_joint(
            tuple(pick(rng, state, p) if p in state.to_move() else None for p in every)
        )
    else:
        state.apply_joint(tuple(pick(rng, state, p) for p in every))
        nxt = state.next_decision_t()
        if not state.is_over():
            state.advance(0 if nxt == 0 else max(1, (nxt or state.t + 1) - state.t))


def play_random(state: State, seed: int, max_steps: int = MAX_STEPS) -> int:
    """Random legal play until the end (or ``max_steps``); returns the steps taken."""
    rng = random.Random(seed)
    steps = 0
    while not state.is_over() and steps < max_steps:
        step(state, rng)
        steps += 1
    return steps


def random_final_bytes(name: str, seed: int, players: int = 2) -> bytes:
    state = with_players(name, players).new_state(seed)
    play_random(state, seed)
    return state.to_bytes()


@pytest.fixture(params=CASES, ids=lambda case: f"{case[0]}-{case[1]}p")
def game(request) -> Game:
    name, players = request.param
    game = with_players(name, players)
    assert game.num_players == players
    return game


def test_the_registry_knows_the_games():
    assert "blitz" in GAMES
    for name in GAMES:
        assert game_type(name).name == name
        assert load_game(name).type.name == name
    with pytest.raises(ValueError, match="unknown game 'nope'"):
        load_game("nope")


def test_a_game_speaks_the_protocol(game):
    assert isinstance(game, Game)
    state = game.new_state(0)
    assert isinstance(state, State)
    if game.type.time_model is TimeModel.REAL_TIME:
        assert isinstance(state, RealTimeState)
    assert game.num_actions > 0
    assert game.bot_names and all(isinstance(n, str) for n in game.bot_names)
    assert game.type.min_num_players <= game.num_players <= game.type.max_num_players
    assert len(game.seat_names) == game.num_players
    assert tuple(game.seat_names) == tuple(game.type.seat_names[: game.num_players])


@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_reach_the_end(game, seed):
    state = game.new_state(seed)
    steps = play_random(state, seed)
    assert state.is_over(), f"{game.type.name}: not over after {steps} steps"
    assert state.to_move() == ()
    returns = state.returns()
    n = game.num_players
    assert len(returns) == n
    if game.type.zero_sum:
        assert sum(returns) == pytest.approx(0)
    winner = state.winner()
    assert winner is None or winner in seats(game)
    # the winner +1, each loser -1/(N-1) (with two seats: +1 and -1), all 0 for a draw
    expected = tuple(
        0.0 if winner is None else 1.0 if p == winner else -1.0 / (n - 1) for p in seats(game)
    )
    assert returns == pytest.approx(expected)


def _mask_matches_apply(state: State) -> int:
    """Every action of every seat tried on a clone: accepted exactly where the mask is
    True, and a rejection leaves the game as it was (its summary: a real-time engine may
    still note that the seat used its one action of this ms). Returns the actions
    checked."""
    checked = 0
    before = state.to_bytes()
    summary = state.summary()
    for player in seats(state.game):
        mask = state.legal_mask(player)
        assert mask.dtype == bool and mask.shape == (state.game.num_actions,)
        assert state.legal_actions(player) == np.flatnonzero(mask).tolist()
        waiting = state.game.type.time_model is TimeModel.SIMULTANEOUS
        if player not in state.to_move() and not waiting:
            assert not mask.any()
            continue
        # (a simultaneous seat that has locked in is no longer waited for, but may still
        # change its move until the turn resolves: its mask is checked like the others)
        for action in range(state.game.num_actions):
            probe = state.clone()
            try:
                reason = probe.apply(player, action)
            except ValueError:
                # not allowed now by the protocol itself (a real-time seat's second
                # action at one ms): the mask must say so, and nothing changed
                assert not mask[action], (state.game.type.name, player, action)
                assert probe.to_bytes() == before
                checked += 1
                continue
            assert (reason is None) == bool(mask[action]), (
                f"{state.game.type.name}: seat {player} action {action} "
                f"({state.game.action_to_string(action)}): mask {mask[action]}, apply {reason!r}"
            )
            if reason is not None:
                assert isinstance(reason, str) and reason
                assert probe.summary() == summary
            checked += 1
    assert state.to_bytes() == before
    return checked


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_masks_are_what_apply_accepts(game, seed):
    state = game.new_state(seed)
    rng = random.Random(seed)
    checked = 0
    for n in range(60):
        if state.is_over():
            break
        if n % 6 == 0:
            checked += _mask_matches_apply(state)
            for player in state.to_move():  # and right after one seat's move or rejection
                after = state.clone()
                legal = after.legal_actions(player)
                after.apply(player, legal[len(legal) // 2] if legal else 0)
                if not after.is_over():
                    checked += _mask_matches_apply(after)
        step(state, rng)
    if state.is_over():
        for player in seats(game):
            assert not state.legal_mask(player).any()
    assert checked > 0


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_copies_continue_identically(game, seed):
    state = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(15):
        if state.is_over():
            break
        step(state, rng)
    copies = [
        state.clone(),
        pickle.loads(pickle.dumps(state)),
        game.state_from_bytes(state.to_bytes()),
    ]
    for copy in copies:
        assert copy.to_bytes() == state.to_bytes()
        assert copy.summary() == state.summary()
    play_random(state, seed + 100)
    for copy in copies:
        play_random(copy, seed + 100)
        assert copy.to_bytes() == state.to_bytes()
        assert copy.summary() == state.summary()
        assert copy.returns() == state.returns()


@pytest.mark.parametrize("seed", SEEDS[:2])
@pytest.mark.parametrize("steps", [7, MAX_STEPS])
def test_a_recorded_game_replays_to_the_same_state(game, seed, steps):
    state = game.new_state(seed, record=True)
    play_random(state, seed, max_steps=steps)
    data = state.to_replay()
    assert data.get("game", "blitz") == game.type.name
    result = game.replay(data)
    assert result["state"] == state.summary()
    assert game.replay(pickle.loads(pickle.dumps(data))) == result  # replays are pure
    assert game.replay(data, engine="reference") == result  # the oracle agrees


def test_a_malformed_replay_is_one_clear_error(game):
    for bad in ([], "a string", {"script": "not a list"}, {"script": [{"nonsense": 1}]}):
        with pytest.raises(ReplayError) as info:
            game.replay(bad)
        assert "\n" not in str(info.value) and str(info.value)


def test_bad_input_raises_and_changes_nothing(game):
    state = game.new_state(5)
    rng = random.Random(5)
    for _ in range(3):
        step(state, rng)
    before = state.to_bytes()
    player = state.to_move()[0]
    bad_calls = [
        (TypeError, lambda: state.apply(player, "3")),
        (TypeError, lambda: state.apply(player, 2.0)),
        (TypeError, lambda: state.apply(player, True)),
        (ValueError, lambda: state.apply(player, -1)),
        (ValueError, lambda: state.apply(player, game.num_actions)),
        (ValueError, lambda: state.apply(game.num_players, 0)),
        ((TypeError, ValueError), lambda: state.apply("X?", 0)),
        ((TypeError, ValueError), lambda: state.legal_mask(7)),
        ((TypeError, ValueError), lambda: state.observation(-1)),
        (ValueError, lambda: state.apply_joint((None,))),
    ]
    for error, call in bad_calls:
        with pytest.raises(error):
            call()
        assert state.to_bytes() == before
    with pytest.raises(ValueError):
        game.state_from_bytes(b"not a state")
    corrupt = bytearray(before)
    corrupt[len(corrupt) // 2] ^= 0xFF
    with pytest.raises(ValueError):
        game.state_from_bytes(bytes(corrupt))


def test_observations_have_the_declared_shape(game):
    state = game.new_state(2)
    rng = random.Random(2)
    for _ in range(10):
        for player in seats(game):
            obs = state.observation(player)
            assert obs.shape == game.observation_shape and obs.dtype == np.float32
            assert np.isfinite(obs).all()
        if state.is_over():
            break
        step(state, rng)
    events = state.drain_events()
    assert events and all(isinstance(e, dict) and "kind" in e for e in events)
    assert state.drain_events() == []


def test_rule_changes_are_validated(game):
    with pytest.raises((TypeError, ValueError)) as info:
        game.with_rules({"no_such_rule": 1})
    assert "no_such_rule" in str(info.value)
    assert game.with_rules({}) == game


def test_bots_play_legal_moves(game):
    state = game.new_state(4)
    names = game.bot_names
    bots = [game.make_bot(names[i % len(names)], seed=i) for i in seats(game)]
    with pytest.raises(ValueError):
        game.make_bot("no such bot")
    rng = random.Random(4)
    for _ in range(40):
        if state.is_over():
            break
        for player in state.to_move():
            action = bots[player].choose(state, player)
            if action is not None:
                assert state.legal_mask(player)[action]
        step(state, rng)


@pytest.mark.parametrize("name, players", CASES)
def test_same_seed_same_game_across_threads_and_processes(name, players):
    seeds = [11, 12, 13, 11]
    alone = [random_final_bytes(name, s, players) for s in seeds]
    assert alone[0] == alone[3]
    with ThreadPoolExecutor(max_workers=2) as pool:
        assert list(pool.map(random_final_bytes, [name] * 4, seeds, [players] * 4)) == alone
    code = (
        "import sys, tests.test_conformance as t; "
        f"sys.stdout.write(t.random_final_bytes({name!r}, 12, {players}).hex())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parent.parent,
    ).stdout
    assert bytes.fromhex(out) == alone[1]
