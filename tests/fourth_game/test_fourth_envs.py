"""The RL environments serve the fourth game with no file of its own: a game without an
RL adapter (``envs/games/<game>.py``, a native stepper) gets the protocol environments
(docs/rl.md), checked by Gymnasium's check_env and PettingZoo's API tests."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from fourth_game_folders import GAME, HERE  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

import tictacblitz.envs as envs  # noqa: E402


def play(env, seed: int) -> list:
    """Random legal moves (from the observation's mask) to the end: the rewards seen."""
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards = []
    for _ in range(9):
        assert np.array_equal(env.action_masks().astype(np.int8), obs["action_mask"])
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, _ = env.step(int(rng.choice(legal)))
        rewards.append(reward)
        if terminated or truncated:
            return rewards
    raise AssertionError("a game of tic-tac-toe outlasted its nine squares")


@pytest.mark.parametrize("seat", [0, 1])
def test_make_env_is_the_protocol_env_and_passes_check_env(seat) -> None:
    assert envs.native_env(GAME) is None  # no envs/games/tictactoe.py
    env = envs.make_env(GAME, opponent="greedy", seat=seat)
    assert type(env) is envs.GameEnv  # so: the protocol env
    assert env.observation_space["observation"].shape == (3, 3, 3)
    assert env.action_space.n == 9
    check_env(env, skip_render_check=True)
    endings = [play(env, seed)[-1] for seed in range(30)]
    assert set(endings) <= {-1.0, 0.0, 1.0} and -1.0 in endings  # greedy wins some
    assert [play(env, seed) for seed in range(5)] == [play(env, seed) for seed in range(5)]


def test_a_taken_square_ends_the_episode_with_the_game_s_reason() -> None:
    env = envs.make_env(GAME, seat=1)  # O: X (a bot) has already moved
    obs, _ = env.reset(seed=4)
    taken = int(np.flatnonzero(obs["observation"][1].ravel())[0])  # the other seat's mark
    _, reward, terminated, _, info = env.step(taken)
    assert terminated and reward == -1.0 and info["rejected"] == "occupied"


def test_the_vector_env_steps_every_copy() -> None:
    vec = envs.make_vector_env(GAME, num_envs=3, opponent="random")
    obs, _ = vec.reset(seed=7)
    assert obs["observation"].shape == (3, 3, 3, 3)
    done = np.zeros(3, dtype=bool)
    for _ in range(9):
        masks = vec.action_masks()
        actions = [int(np.flatnonzero(mask)[0]) for mask in masks]
        obs, rewards, terminated, truncated, _ = vec.step(np.array(actions))
        done |= terminated
    assert done.all()
    vec.close()


def test_the_pettingzoo_faces_pass_their_api_tests() -> None:
    api_test(envs.aec_env(GAME), num_cycles=300)
    parallel_api_test(envs.parallel_env(GAME), num_cycles=300)
    aec = envs.aec_env(GAME)
    aec.reset(seed=1)
    assert aec.agents == ["X", "O"] and aec.agent_selection == "X"


def test_gymnasium_make_knows_the_game_when_its_folders_come_first() -> None:
    """``tictacblitz.envs`` registers an id for every game the registry lists when it is
    first imported: a game whose folders are on the path by then is made by name."""
    code = f"""
import json, sys
sys.path[:0] = [{str(HERE)!r}]
from fourth_game_folders import registered
with registered():
    import gymnasium, tictacblitz.envs as envs
    env = gymnasium.make(envs.env_id({GAME!r}))
    obs, _ = env.reset(seed=3)
    print(json.dumps([envs.env_id({GAME!r}), int(obs["action_mask"].sum())]))
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(run.stdout) == ["tictacblitz/Tictactoe-v0", 9]
