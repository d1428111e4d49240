"""Every registered game's RL faces follow one contract (issue 28, "every game the same
faces"; docs/rl.md): the faces ``tictacblitz.envs`` serves for each game of the registry
(its native hook where it has one) pass Gymnasium's ``check_env`` and PettingZoo's API
tests; the vector env's info has the shared keys with their ``_key`` masks; every
autoreset mode behaves as Gymnasium specifies; snapshots restore the exact stream;
masks are never empty; observations stay in their space's bounds; ``rules=`` takes a
dict or a rules object; seeded runs are deterministic; callable opponents and self-play
rows work. Parametrised by the registry, never by a game's name."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

import tictacblitz.envs as envs  # noqa: E402
from tictacblitz.envs.native.options import INFO_KEYS, NOOP_ACTION  # noqa: E402
from tictacblitz.games import available_games, load_game  # noqa: E402

GAMES = available_games()
N = 4
LIMIT = 6  # max_steps: episodes end within a short test


def first_legal(masks: np.ndarray) -> np.ndarray:
    """A deterministic policy over legal actions: the last legal code of each row."""
    masks = np.asarray(masks).astype(bool)
    return (masks.shape[1] - 1 - masks[:, ::-1].argmax(axis=1)).astype(np.int64)


def random_legal(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in np.asarray(masks).astype(bool)])


def step_until_an_env_ends(env):
    """Step by ``first_legal`` until some row's episode ends (within 4 x LIMIT steps);
    that step's observation, info and ended rows."""
    for _ in range(4 * LIMIT):
        obs, rewards, term, trunc, info = env.step(first_legal(env.action_masks()))
        ended = term | trunc
        if ended.any():
            return obs, info, ended
    raise AssertionError(f"no episode ended within {4 * LIMIT} steps")


def vector(game: str, n: int = N, **options):
    options.setdefault("max_steps", LIMIT)
    return envs.make_vector_env(game, n, **options)


@pytest.mark.parametrize("game", GAMES)
def test_the_single_env_passes_check_env(game):
    env = envs.make_env(game, max_steps=50)
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=0)
    assert set(INFO_KEYS) <= set(info), sorted(set(INFO_KEYS) - set(info))


@pytest.mark.parametrize("game", GAMES)
def test_the_pettingzoo_faces_pass_the_api_tests(game):
    parallel_api_test(envs.parallel_env(game, max_steps=60), num_cycles=120)
    api_test(envs.aec_env(game), num_cycles=120)
    par = envs.parallel_env(game, max_steps=60)
    obs, infos = par.reset(seed=0)
    for agent in par.possible_agents:
        assert set(INFO_KEYS) <= set(infos[agent]), (agent, sorted(infos[agent]))
    assert par.state_space.contains(par.state())


@pytest.mark.parametrize("game", GAMES)
def test_one_mask_space_type_on_every_face(game):
    single = envs.make_env(game).observation_space["action_mask"]
    rows = vector(game).single_observation_space["action_mask"]
    for space in (single, rows):
        assert isinstance(space, gymnasium.spaces.Box) and space.dtype == np.int8
        assert space.low.min() == 0 and space.high.max() == 1


@pytest.mark.parametrize("game", GAMES)
def test_the_vector_info_has_the_shared_keys_and_their_masks(game):
    env = vector(game)
    _, info = env.reset(seed=0)
    for _ in range(3):
        for key in INFO_KEYS:
            assert key in info and len(info[key]) == env.num_envs, key
            assert info["_" + key].dtype == np.bool_ and info["_" + key].all(), key
        _, _, _, _, info = env.step(first_legal(env.action_masks()))


@pytest.mark.parametrize("game", GAMES)
def test_next_step_restarts_an_ended_env_at_the_next_step(game):
    env = vector(game, autoreset_mode=AutoresetMode.NEXT_STEP)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    env.reset(seed=1)
    ended = np.zeros(env.num_envs, dtype=bool)
    for _ in range(4 * LIMIT):
        obs, rewards, term, trunc, info = env.step(first_legal(env.action_masks()))
        assert not (rewards[ended] != 0).any() and not (term | trunc)[ended].any()
        ended = term | trunc
        if ended.any():
            break
    assert ended.any()
    obs, rewards, term, trunc, info = env.step(first_legal(env.action_masks()))
    assert (rewards[ended] == 0).all() and not (term | trunc)[ended].any()


@pytest.mark.parametrize("game", GAMES)
def test_same_step_restarts_at_once_with_the_final_obs_and_info(game):
    env = vector(game, autoreset_mode="same_step")
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    env.reset(seed=2)
    obs, info, ended = step_until_an_env_ends(env)
    assert (info["_final_obs"] == ended).all() and (info["_final_info"] == ended).all()
    final_obs, final_info = info["final_obs"], info["final_info"]
    assert isinstance(final_obs, dict) and isinstance(final_info, dict) and final_info
    for key in INFO_KEYS:
        assert key in final_info, key
    for key, value in final_obs.items():
        if not key.startswith("_"):
            assert len(value) == env.num_envs and (final_obs["_" + key] == ended).all()
    assert (info["t"][ended] == 0).all()  # the rows already play the next episode


@pytest.mark.parametrize("game", GAMES)
def test_disabled_leaves_an_ended_env_until_reset(game):
    env = vector(game, autoreset_mode="disabled")
    assert env.metadata["autoreset_mode"] == AutoresetMode.DISABLED
    env.reset(seed=3)
    obs, info, ended = step_until_an_env_ends(env)
    frozen = {k: v[ended].copy() for k, v in obs.items()}
    obs, rewards, term, trunc, info = env.step(first_legal(env.action_masks()))
    assert all(np.array_equal(obs[k][ended], frozen[k]) for k in obs)  # nothing happened
    assert (rewards[ended] == 0).all()
    obs, info = env.reset(seed=9, options={"reset_mask": ended})
    assert (info["t"][ended] == 0).all()


@pytest.mark.parametrize("game", GAMES)
def test_a_snapshot_restores_the_exact_stream_and_pickles(game):
    env = vector(game, max_steps=None, seed=4)
    for _ in range(3):
        env.step(first_legal(env.action_masks()))
    snapshot = env.get_state()
    clone = pickle.loads(pickle.dumps(env))

    def run(e):
        rng = np.random.default_rng(0)
        out = []
        for _ in range(25):
            obs, rewards, term, trunc, _ = e.step(random_legal(rng, e.action_masks()))
            out.append((obs, rewards.copy(), term.copy(), trunc.copy()))
        return out

    first = run(env)
    env.set_state(snapshot)
    for a, b in ((first, run(env)), (first, run(clone))):
        for (o1, r1, t1, u1), (o2, r2, t2, u2) in zip(a, b, strict=True):
            assert all(np.array_equal(o1[k], o2[k]) for k in o1)
            assert np.array_equal(r1, r2) and np.array_equal(t1, t2) and np.array_equal(u1, u2)


@pytest.mark.parametrize("game", GAMES)
def test_masks_are_never_empty_and_bounds_hold_on_random_play(game):
    env = vector(game, 8)
    single = envs.make_env(game, max_steps=LIMIT)
    rng = np.random.default_rng(5)
    obs, _ = env.reset(seed=5)
    sobs, _ = single.reset(seed=5)
    ends = 0
    for _ in range(5 * LIMIT):
        assert env.observation_space.contains(obs)
        assert single.observation_space.contains(sobs)
        masks = env.action_masks()
        assert masks.any(axis=1).all() and np.array_equal(masks, obs["action_mask"] != 0)
        obs, _, term, trunc, _ = env.step(random_legal(rng, masks))
        ended = term | trunc
        ends += int(ended.sum())
        assert obs["action_mask"][ended].any(axis=1).all()  # the terminal rows too
        smask = single.action_masks()
        assert smask.any()
        sobs, _, st, su, _ = single.step(int(rng.choice(np.flatnonzero(smask))))
        if st or su:
            assert sobs["action_mask"].any() and sobs["action_mask"][NOOP_ACTION] >= 0
            sobs, _ = single.reset()
    assert ends > 0


@pytest.mark.parametrize("game", GAMES)
def test_rules_are_a_dict_or_a_rules_object(game):
    rules = load_game(game).rules
    by_object = vector(game, 2, rules=rules, seed=0)
    by_dict = vector(game, 2, rules=rules.to_dict(), seed=0)
    a, _ = by_object.reset(seed=6)
    b, _ = by_dict.reset(seed=6)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    for form in (rules, rules.to_dict()):  # every face, the protocol ones too
        for env in (envs.make_env(game, rules=form), envs.GameEnv(game, rules=form)):
            env.reset(seed=0)
        envs.parallel_env(game, rules=form).reset(seed=0)


@pytest.mark.parametrize("game", GAMES)
def test_seeded_runs_are_deterministic(game):
    def run():
        env = vector(game, seed=7)
        rng = np.random.default_rng(7)
        out = []
        for _ in range(20):
            obs, rewards, *_ = env.step(random_legal(rng, env.action_masks()))
            out.append((obs[next(iter(obs))].copy(), rewards.copy()))
        return out

    for (o1, r1), (o2, r2) in zip(run(), run(), strict=True):
        assert np.array_equal(o1, o2) and np.array_equal(r1, r2)


@pytest.mark.parametrize("game", GAMES)
def test_callable_opponents_and_self_play(game):
    calls = []

    def frozen(obs, mask):
        calls.append(len(mask))
        return first_legal(mask)

    env = vector(game, opponent=frozen, seed=8)
    for _ in range(LIMIT):
        env.step(first_legal(env.action_masks()))
    assert calls and set(calls) == {N}
    players = len(load_game(game).seat_names)
    selfplay = vector(game, opponent=None, seed=8)
    assert selfplay.num_envs == N * players
    obs, _ = selfplay.reset(seed=8)
    for _ in range(2 * LIMIT):
        obs, rewards, term, trunc, _ = selfplay.step(first_legal(selfplay.action_masks()))
        assert selfplay.observation_space.contains(obs)
        per_game = rewards.reshape(N, players).sum(axis=1)
        assert np.allclose(per_game, 0.0)  # zero-sum within a game
