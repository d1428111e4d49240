"""The OpenSpiel adapter (envs/openspiel*.py, issue 28): both games pass OpenSpiel's own
checks (``pyspiel.random_sim_test``, serialisation) and its algorithms run on them: CFR
drives the exploitability of a tiny Doh down, MCCFR runs on a tiny Rift endgame, and
Rift's information states are consistent across the states of an information set."""

from __future__ import annotations

import pickle
import re
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from tictacblitz.envs import openspiel  # noqa: E402  (registers the games)
from tictacblitz.games import load_game  # noqa: E402
from tictacblitz.games.doh.solver import score_value, solver_for  # noqa: E402
from tictacblitz.games.rift import infostate as hidden  # noqa: E402

# A Doh endgame: 3 pieces of each size, six played (docs/openspiel.md), a draw under
# perfect play with three plies left; its tree has 543 histories, so CFR's iterations
# take a fraction of a second each.
TINY_DOH = {"pieces_per_size": 3, "opening": "12,18,39,42,13,74"}


def _rift_endgame_rows():
    """Sectors 0-7 full of grey (tied); sector 8 open with cells 2 and 5 empty: X takes
    the sector with cell 2 (diagonal 2-4-6), O needs both."""
    sectors = ["#########"] * 8 + ["XO.OX.XOO"]
    return "/".join(
        "".join(sectors[3 * (r // 3) + c // 3][3 * (r % 3) + c % 3] for c in range(9))
        for r in range(9)
    )


# A Rift endgame with a secret that matters: one objective each from two, reveal cheap.
TINY_RIFT = {
    "setup": _rift_endgame_rows(),
    "objectives_per_player": 1,
    "objectives": "diagonal_win;shield_win",
    "energy_start": 2,
    "swap_cost": 1000,  # no swap: a smaller tree
    "reveal_cost": 0,
}


def test_both_games_are_registered_and_blitz_is_not():
    names = set(pyspiel.registered_names())
    assert set(openspiel.GAME_NAMES) == {"tictacblitz_doh", "tictacblitz_rift"} <= names
    assert "tictacblitz_blitz" not in names  # real time: docs/openspiel.md says why


@pytest.mark.parametrize("players", [2, 3, 4])
def test_doh_passes_openspiels_random_simulation_test(players):
    game = pyspiel.load_game("tictacblitz_doh", {"players": players})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_rift_passes_openspiels_random_simulation_test():
    game = pyspiel.load_game("tictacblitz_rift")
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    tiny = pyspiel.load_game("tictacblitz_rift", TINY_RIFT)
    pyspiel.random_sim_test(tiny, num_sims=10, serialize=True, verbose=False)


def _random_play(game, seed):
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            codes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(codes, p=probs)))
        elif state.is_simultaneous_node():
            state.apply_actions([int(rng.choice(state.legal_actions(p))) for p in (0, 1)])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("name", ["tictacblitz_doh", "tictacblitz_rift"])
def test_serialisation_and_pickle_round_trips(name):
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    finished = _random_play(game, 3)
    history = finished.history()
    for action in history[: len(history) // 2]:  # a game half played
        if state.is_simultaneous_node():
            break
        state.apply_action(action)
    for twin_state in (finished, state):
        text = pyspiel.serialize_game_and_state(game, twin_state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game) and str(state2) == str(twin_state)
        assert state2.history() == twin_state.history()
    assert str(pickle.loads(pickle.dumps(finished))) == str(finished)


@pytest.mark.parametrize("opening", ["12,18,39", "12;18;39"])
def test_a_doh_game_with_an_opening_of_several_moves_round_trips(opening):
    # a comma-separated opening once went into the game's name as it was given, and
    # deserialising read "18" as the next parameter's name (SpielError)
    game = pyspiel.load_game("tictacblitz_doh", {"pieces_per_size": 3, "opening": opening})
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    game2, state2 = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state)
    )
    assert str(game2) == str(game) and "opening=12;18;39" in str(game2)
    assert str(state2) == str(state) and state2.history() == state.history()


def test_returns_are_the_protocols():
    for name, engine in (("tictacblitz_doh", "doh"), ("tictacblitz_rift", "rift")):
        for seed in range(3):
            state = _random_play(pyspiel.load_game(name), seed)
            held = state.engine_state
            assert state.returns() == list(held.returns())
            assert held.is_over() and held.game == load_game(engine)


def test_cfr_drives_the_exploitability_of_a_tiny_doh_down_to_the_solvers_value():
    """A falsifiable claim: CFR's average policy gets less exploitable with iterations
    (measured: 0.567 after 1, 0.229 after 5, 0.057 after 20; docs/openspiel.md), and
    its expected return nears the value the project's solver gives the root (a draw)."""
    game = pyspiel.load_game("tictacblitz_doh", TINY_DOH)
    root = game.new_initial_state()
    held = root.engine_state
    score = solver_for(held.game.rules).score(held.position)
    value, _ = score_value(score, sum(held.position.stash))  # for the seat to move
    assert held.to_move() == (0,) and value == 0
    uniform = pyspiel.exploitability(game, pyspiel.UniformRandomPolicy(game))
    solver = pyspiel.CFRSolver(game)
    measured = {}
    for iteration in range(1, 21):
        solver.evaluate_and_update_policy()
        if iteration in (1, 5, 20):
            measured[iteration] = pyspiel.exploitability(game, solver.average_policy())
    assert uniform > 0.5  # the uniform policy leaves lines open
    assert measured[1] == pytest.approx(uniform)  # CFR's first average is uniform
    assert measured[1] > 2 * measured[5] and measured[5] > 3 * measured[20]
    assert measured[20] < 0.06
    first = pyspiel.expected_returns(root, solver.average_policy(), -1, True)[0]
    assert abs(first - value) <= 2 * measured[20]


def test_doh_observations_are_the_protocols():
    game = pyspiel.load_game("tictacblitz_doh", {"players": 3})
    state = _random_play(game, 1)
    for p in range(3):
        np.testing.assert_array_equal(
            np.asarray(state.observation_tensor(p)), state.engine_state.observation(p).ravel()
        )
    assert state.information_state_string(0) == state.history_str()


def test_rifts_deal_is_a_chance_node_of_uniform_distinct_objectives():
    game = pyspiel.load_game("tictacblitz_rift")
    state = game.new_initial_state()
    drawn = []
    for _ in range(6):  # G12: 3 for X, then 3 for O
        assert state.is_chance_node()
        outcomes = dict(state.chance_outcomes())
        assert sum(outcomes.values()) == pytest.approx(1.0)
        assert len(set(outcomes.values())) == 1
        hand = drawn[:3] if len(drawn) < 3 else drawn[3:]
        assert set(outcomes) == set(range(12)) - set(hand)
        drawn.append(max(outcomes))
        state.apply_action(drawn[-1])
    assert state.is_simultaneous_node()
    hands = [[code for code, _, _ in state.engine_state.engine.core.hand(p)] for p in (0, 1)]
    assert hands == [drawn[:3], drawn[3:]]
    assert state.information_state_string(0) != state.information_state_string(1)


def test_rifts_pyspiel_tensors_are_the_games_own():
    game = pyspiel.load_game("tictacblitz_rift")
    assert game.information_state_tensor_shape() == [hidden.INFOSTATE_SIZE]
    assert game.observation_tensor_shape() == [load_game("rift").observation_shape[0]]
    state = game.new_initial_state()
    assert state.information_state_string(1) == "O hand=[] dealing"
    rng = np.random.default_rng(5)
    while not state.is_terminal() and len(state.turns) < 6:
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
        else:
            state.apply_actions([int(rng.choice(state.legal_actions(p))) for p in (0, 1)])
    engine = state.engine_state
    for p in (0, 1):
        np.testing.assert_array_equal(
            np.asarray(state.information_state_tensor(p), dtype=np.float32),
            hidden.information_state_tensor(engine, p, state.turns),
        )
        np.testing.assert_array_equal(
            np.asarray(state.observation_tensor(p), dtype=np.float32), engine.observation(p)
        )
        assert state.information_state_string(p) == hidden.information_state_string(
            engine, p, state.turns
        )


def test_rifts_information_states_are_consistent_over_every_history():
    """Over every history of the tiny Rift (turn-based form): the states a seat cannot
    tell apart (same information state string) give it the same tensor and the same
    legal actions, and states that differ only in the other seat's deal are among them."""
    game = pyspiel.convert_to_turn_based(pyspiel.load_game("tictacblitz_rift", TINY_RIFT))
    groups = defaultdict(list)
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend(state.child(a) for a, _ in state.chance_outcomes())
            continue
        player = state.current_player()
        key = state.information_state_string(player)
        groups[(player, key)].append(
            (tuple(state.information_state_tensor(player)), tuple(state.legal_actions()))
        )
        stack.extend(state.child(a) for a in state.legal_actions())
    assert any(len(members) > 1 for members in groups.values())  # hidden deals merge
    for members in groups.values():
        assert len(set(members)) == 1
    strings = {key for _, key in groups}
    tensors = {members[0][0] for members in groups.values()}
    assert len(tensors) == len(strings)  # the tensor tells apart what the string does


def test_mccfr_runs_on_a_tiny_rift_and_gets_far_less_exploitable_than_uniform():
    """External-sampling MCCFR on the tiny Rift's turn-based form (measured:
    exploitability 0.462 for the uniform policy, 0.046 after 100 iterations, seed 1;
    docs/openspiel.md). One exploitability is computed, to keep the test short."""
    game = pyspiel.convert_to_turn_based(pyspiel.load_game("tictacblitz_rift", TINY_RIFT))
    solver = pyspiel.ExternalSamplingMCCFRSolver(game, seed=1)
    for _ in range(100):
        solver.run_iteration()
    assert pyspiel.exploitability(game, solver.average_policy()) < 0.1


@pytest.mark.parametrize(
    "name, params, named",
    [
        ("tictacblitz_doh", {"players": 5}, "players"),
        ("tictacblitz_doh", {"opening": "12,x"}, "opening"),
        ("tictacblitz_rift", {"setup": "XO"}, "setup"),
        ("tictacblitz_rift", {"objectives": "centre;nope"}, "nope"),
    ],
)
def test_bad_parameters_are_one_clear_error(name, params, named):
    with pytest.raises(Exception, match=named):
        pyspiel.load_game(name, params)


GUIDE = Path(__file__).resolve().parents[1] / "docs" / "openspiel.md"


@pytest.mark.parametrize(
    "index", range(len(re.findall(r"```python\n", GUIDE.read_text(encoding="utf-8"))))
)
def test_the_guides_python_blocks_run(index, capsys):
    blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    exec(compile(blocks[index], f"{GUIDE}#block{index}", "exec"), {"__name__": "openspiel_doc"})
    printed = capsys.readouterr().out.split()
    if printed:  # a block that prints a figure prints the one the guide gives
        assert f"# {float(printed[-1]):.4f}" in blocks[index]
