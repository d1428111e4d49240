"""Doh's RL adapter (envs/games/doh.py over blitz_core.doh.batch): the native batched stepper
against the protocol env step by step (2 to 4 players, D10), Gymnasium's checks,
autoreset, threads, errors. More on 3 and 4 players: test_doh_rl_players.py."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import tictacblitz.envs as envs  # noqa: E402
from tictacblitz.envs import GameEnv  # noqa: E402
from tictacblitz.envs.games.doh import DohEnv, DohVectorEnv  # noqa: E402


def _masked(rng: np.random.Generator, masks: np.ndarray, illegal_every: int, t: int) -> np.ndarray:
    acts = np.zeros(len(masks), dtype=np.int64)
    for i, m in enumerate(masks):
        legal = np.flatnonzero(m)
        if t % illegal_every == i % illegal_every and (~m).any():
            acts[i] = int(rng.choice(np.flatnonzero(~m)))  # now and then a rejected move
        elif legal.size:
            acts[i] = int(rng.choice(legal))
    return acts


TWO_PLAYERS = [
    (2, opponent, seat)
    for opponent in ("random", "greedy", "easy", "medium", "perfect")
    for seat in (0, 1)
]
# Issue 25: 3 and 4 players, every seat at 3, one bot for all or one per seat (the perfect
# bot for N > 2 is the paranoid solver's).
MORE_PLAYERS = [
    (3, opponent, seat)
    for opponent in ("random", "greedy", "easy", "perfect")
    for seat in (0, 1, 2)
]
MORE_PLAYERS += [
    (3, ("easy", None, "greedy"), 1),
    (4, ("perfect", "medium", "hard"), 2),
    (4, "random", 0),
    (4, "greedy", 1),
    (4, "easy", 2),
    (4, ("random", "greedy", "easy"), 3),
]


@pytest.mark.parametrize("players, opponent, seat", TWO_PLAYERS + MORE_PLAYERS)
def test_the_native_vector_env_equals_the_protocol_env_step_by_step(
    players: int, opponent, seat: int
) -> None:
    """Same seeds, same actions: the same observations, masks, rewards, flags and reasons,
    across autoresets (each new game is replayed on a fresh protocol env of its seed)."""
    n = 12
    rules = {"pieces_per_size": 4, "players": players}
    vec = DohVectorEnv(n, opponent=opponent, seat=seat, num_threads=2, rules=rules)
    obs, info = vec.reset(seed=1000 + seat)
    ref = [GameEnv("doh", opponent=opponent, seat=seat, rules=rules) for _ in range(n)]
    ref_obs = [env.reset(seed=1000 + seat + i)[0] for i, env in enumerate(ref)]
    assert vec.episode_seeds.tolist() == [1000 + seat + i for i in range(n)]
    rng = np.random.default_rng(seat)
    episodes = 0
    restart = np.zeros(n, dtype=bool)
    for t in range(60):
        for i in range(n):
            assert np.array_equal(obs["observation"][i], ref_obs[i]["observation"]), (t, i)
            assert np.array_equal(obs["action_mask"][i], ref_obs[i]["action_mask"]), (t, i)
        acts = _masked(rng, vec.action_masks(), 7, t)
        obs, rewards, terminated, truncated, info = vec.step(acts)
        for i in range(n):
            if restart[i]:  # NEXT_STEP: this step started a new game
                ref_obs[i] = ref[i].reset(seed=int(vec.episode_seeds[i]))[0]
                assert rewards[i] == 0 and not terminated[i] and info["reason"][i] == -1
                continue
            o, r, te, tr, inf = ref[i].step(int(acts[i]))
            ref_obs[i] = o
            assert (rewards[i], terminated[i], truncated[i]) == (r, te, tr), (t, i)
            assert info["reason"][i] == inf["reason"] and info["steps"][i] == inf["steps"]
            episodes += te or tr
        restart = terminated | truncated
    assert episodes >= n  # every env finished a game or more


@pytest.mark.parametrize("players, opponent", [(2, "medium"), (3, "easy"), (4, "greedy")])
def test_results_do_not_depend_on_the_number_of_threads(players: int, opponent: str) -> None:
    runs = []
    for threads in (1, 2, 3):
        vec = DohVectorEnv(
            64, opponent=opponent, num_threads=threads, seed=5, rules={"players": players}
        )
        rng = np.random.default_rng(0)
        trace = []
        for _ in range(30):
            obs, r, te, tr, _ = vec.step(_masked(rng, vec.action_masks(), 11, 0))
            trace.append((obs["observation"].copy(), r.copy(), te.copy()))
        runs.append(trace)
    for other in runs[1:]:
        for (a, b, c), (x, y, z) in zip(runs[0], other, strict=True):
            assert np.array_equal(a, x) and np.array_equal(b, y) and np.array_equal(c, z)


def test_gymnasium_checks_and_registration() -> None:
    env = envs.make_env("doh", opponent="greedy", seat=1)
    assert isinstance(env, DohEnv)
    check_env(env, skip_render_check=True)
    env = gymnasium.make(envs.env_id("doh"), opponent="perfect")
    obs, _ = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    vec = gymnasium.make_vec(
        envs.env_id("doh"), num_envs=5, vectorization_mode="vector_entry_point", opponent="hard"
    )
    assert isinstance(vec, DohVectorEnv) and vec.num_envs == 5
    obs, info = vec.reset(seed=0)
    assert vec.observation_space.contains(obs)
    for _ in range(40):
        obs, rewards, terminated, truncated, info = vec.step(vec.batch.sample_actions(7))
        assert vec.observation_space.contains(obs) and rewards.shape == (5,)
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        assert info["_reason"].all() and info["reason"].dtype == np.int64


def test_the_single_env_equals_the_protocol_env_and_the_aec_face_passes_api_test() -> None:
    for seed in range(20):
        mine = DohEnv(opponent="greedy", seat=seed % 2)
        ref = GameEnv("doh", opponent="greedy", seat=seed % 2)
        a, _ = mine.reset(seed=seed)
        b, _ = ref.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while True:
            assert np.array_equal(a["observation"], b["observation"])
            assert np.array_equal(a["action_mask"], b["action_mask"])
            act = int(rng.choice(np.flatnonzero(mine.action_masks())))
            a, r1, t1, u1, i1 = mine.step(act)
            b, r2, t2, u2, i2 = ref.step(act)
            assert (r1, t1, u1) == (r2, t2, u2) and i1 == i2
            if t1 or u1:
                break
    api_test(envs.aec_env("doh"), num_cycles=200)


def test_autoreset_truncation_masks_and_options() -> None:
    vec = DohVectorEnv(3, opponent="random", max_steps=2, seed=1, mask_in_info=True)
    obs, info = vec.reset(seed=9)
    assert "action_mask" not in obs and info["action_mask"].shape == (3, 75)
    for _ in range(2):
        obs, r, te, tr, info = vec.step(vec.batch.sample_actions(1))
    assert np.all(te | tr)  # two steps: over or truncated
    assert not vec.observation_space.contains({"observation": obs["observation"][:2]})
    obs, r, te, tr, info = vec.step(np.zeros(3, dtype=np.int64))  # the restart step
    assert np.all(info["reason"] == -1) and not (te | tr).any() and np.all(r == 0)
    vec.reset(options={"reset_mask": np.array([True, False, False])}, seed=4)
    assert int(vec.episode_seeds[0]) == 4
    vec.set_opponent("perfect")
    assert vec.opponent == "perfect"
    with pytest.raises(ValueError, match="unknown opponent"):
        DohVectorEnv(2, opponent="nobody")
    with pytest.raises(ValueError, match="actions"):
        vec.step(np.array([0, 1]))
    with pytest.raises(ValueError, match="0..74"):
        vec.step(np.array([0, 1, 75]))
    with pytest.raises(ValueError, match="seat"):
        DohEnv(seat=2)


def test_the_native_batch_steps_on_one_thread_unless_told():
    # issue 28 item 1: every core by default (with OpenMP's spinning wait) collapses
    # beside a busy neighbour; the batch used directly now defaults as the env faces do
    from blitz_core.doh.batch import DohBatch
    from tictacblitz.games.doh.rules import DohRules

    params = DohRules().native_params()
    assert DohBatch(4, params, (0, 0.0, 0), 0).num_threads == 1
    assert DohBatch(4, params, (0, 0.0, 0), 0, num_threads=2).num_threads == 2
