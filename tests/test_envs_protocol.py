"""The protocol environments (tictacblitz.envs) for every registered game, against the
official checkers: Gymnasium's check_env, PettingZoo's api_test / parallel_api_test."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

import tictacblitz.envs as envs  # noqa: E402
from tictacblitz.games import TimeModel, available_games, game_type, load_game  # noqa: E402

GAMES = available_games()


def play_masked(env, seed: int, max_steps: int = 400):
    """Random legal actions (from action_masks) to the end; returns the rewards seen."""
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards = []
    for _ in range(max_steps):
        mask = env.action_masks()
        assert np.array_equal(mask.astype(np.int8), obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        rewards.append(reward)
        if terminated or truncated:
            break
    return rewards


@pytest.mark.parametrize("game", GAMES)
def test_the_generic_gymnasium_env_passes_check_env(game):
    env = envs.GameEnv(game, opponent="random", max_steps=300)
    check_env(env, skip_render_check=True)
    rewards = play_masked(env, seed=3)
    assert all(r in (-1.0, 0.0, 1.0) for r in rewards)
    assert env.render() is None


@pytest.mark.parametrize("game", GAMES)
def test_every_game_is_registered_with_gymnasium(game):
    env = gymnasium.make(envs.env_id(game))
    obs, info = env.reset(seed=1)
    assert set(obs) >= {"action_mask"}
    env.close()


@pytest.mark.parametrize("game", GAMES)
def test_a_masked_episode_is_deterministic(game):
    first = play_masked(envs.GameEnv(game, max_steps=200), seed=9)
    again = play_masked(envs.GameEnv(game, max_steps=200), seed=9)
    assert first == again


def test_an_illegal_turn_move_loses_with_a_clear_reason():
    turn_based = [g for g in GAMES if game_type(g).time_model is not TimeModel.REAL_TIME]
    if not turn_based:
        pytest.skip("no turn-based game registered")
    env = envs.GameEnv(turn_based[0])
    env.reset(seed=2)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and isinstance(info["rejected"], str)


@pytest.mark.parametrize("game", GAMES)
def test_the_pettingzoo_faces_pass_the_api_tests(game):
    if game_type(game).time_model is not TimeModel.ALTERNATING and envs.native_env(game) is None:
        parallel_api_test(envs.parallel_env(game, max_steps=200), num_cycles=300)
    api_test(envs.aec_env(game), num_cycles=300)


def test_bad_options_are_one_clear_error():
    with pytest.raises(ValueError, match="unknown opponent 'nobody'"):
        envs.GameEnv("blitz", opponent="nobody")
    with pytest.raises(ValueError, match="unknown game"):
        envs.make_env("chess")
    with pytest.raises(ValueError, match="seat"):
        envs.GameEnv("blitz", seat=2)
    assert load_game("blitz").num_actions == envs.GameEnv("blitz").action_space.n
