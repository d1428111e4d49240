"""Rift's RL adapter (envs/games/rift.py over blitz_core.rift.batch): equal step by step to
the protocol envs (GameEnv, GameParallelEnv) for the same seeds, rejected moves, missing
moves and truncation included, and passing Gymnasium's and PettingZoo's checks."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pettingzoo = pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import parallel_api_test, parallel_seed_test  # noqa: E402

from blitz_core.rift import batch as native_batch  # noqa: E402
from tictacblitz import envs  # noqa: E402
from tictacblitz.envs.games import rift as rl  # noqa: E402
from tictacblitz.games.rift import game as rift_game  # noqa: E402


def _pick(mask, rng, illegal_rate):
    legal = np.flatnonzero(mask)
    if rng.random() < illegal_rate or not len(legal):
        bad = np.flatnonzero(mask == 0)
        return int(rng.choice(bad)) if len(bad) else 0
    return int(rng.choice(legal))


def _same_info(native, protocol):
    for key in ("round", "t", "round_wins", "reason", "rejected", "steps"):
        assert native[key] == protocol[key], (key, native, protocol)


def test_the_observation_layout_is_the_games():
    for name, value in native_batch.OFFSETS.items():
        assert getattr(rift_game, name) == value
    assert native_batch.OBSERVATION_SIZE == rift_game.OBSERVATION_SIZE


@pytest.mark.parametrize(
    ("opponent", "seat", "illegal", "max_steps"),
    [
        ("random", 0, 0.0, None),
        ("greedy", 1, 0.03, None),
        ("lookahead", 0, 0.0, 12),
        ("hard", 1, 0.0, 4),
        ("easy", 0, 0.02, None),
    ],
)
def test_the_vector_env_equals_the_protocol_env(opponent, seat, illegal, max_steps):
    n, base = 3, 40
    vec = rl.RiftVectorEnv(n, opponent=opponent, seat=seat, max_steps=max_steps)
    obs, info = vec.reset(seed=base)
    refs = [
        envs.GameEnv("rift", opponent=opponent, seat=seat, max_steps=max_steps) for _ in range(n)
    ]
    ref_obs = [env.reset(seed=base + i) for i, env in enumerate(refs)]
    live = [True] * n
    for i in range(n):
        assert np.array_equal(obs["observation"][i], ref_obs[i][0]["observation"])
        assert np.array_equal(obs["action_mask"][i], ref_obs[i][0]["action_mask"])
    rng = np.random.default_rng(7)
    for _ in range(90):
        if not any(live):
            break
        actions = np.array([_pick(obs["action_mask"][i], rng, illegal) for i in range(n)])
        obs, rewards, term, trunc, info = vec.step(actions)
        for i in range(n):
            if not live[i]:
                continue
            o, r, t, tr, inf = refs[i].step(int(actions[i]))
            assert np.array_equal(obs["observation"][i], o["observation"]), i
            assert np.array_equal(obs["action_mask"][i], o["action_mask"]), i
            assert (rewards[i], term[i], trunc[i]) == (r, t, tr)
            assert (info["reason"][i], info["steps"][i]) == (inf["reason"], inf["steps"])
            live[i] = not (t or tr)
    assert not any(live)


def test_the_single_env_equals_the_protocol_env_and_passes_check_env():
    env = envs.make_env("rift", opponent="greedy", max_steps=60)
    assert isinstance(env, rl.RiftEnv)
    check_env(env, skip_render_check=True)
    ref = envs.GameEnv("rift", opponent="greedy", max_steps=60)
    obs, info = env.reset(seed=5)
    ref_obs, ref_info = ref.reset(seed=5)
    _same_info(info, ref_info)
    rng = np.random.default_rng(1)
    done = False
    while not done:
        action = _pick(obs["action_mask"], rng, 0.01)
        obs, r, t, tr, info = env.step(action)
        o, r2, t2, tr2, inf = ref.step(action)
        assert np.array_equal(obs["observation"], o["observation"])
        assert (r, t, tr) == (r2, t2, tr2)
        _same_info(info, inf)
        done = t or tr


@pytest.mark.parametrize("seed", [0, 3, 11])
def test_the_parallel_env_equals_the_protocol_parallel_env(seed):
    par = envs.parallel_env("rift", max_steps=70)
    ref = envs.GameParallelEnv("rift", max_steps=70)
    obs, infos = par.reset(seed=seed)
    ref_obs, ref_infos = ref.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        for a in ("X", "O"):
            assert np.array_equal(obs[a]["observation"], ref_obs[a]["observation"]), a
            assert np.array_equal(obs[a]["action_mask"], ref_obs[a]["action_mask"]), a
            _same_info(infos[a], ref_infos[a])
        assert np.array_equal(par.state(), ref.state())
        if not par.agents:
            break
        actions = {}
        for a in ("X", "O"):
            roll = rng.random()
            if roll < 0.1:
                continue  # this seat does not act this step
            actions[a] = _pick(obs[a]["action_mask"], rng, 0.01)
        obs, rewards, terms, truncs, infos = par.step(actions)
        ref_obs, ref_rewards, ref_terms, ref_truncs, ref_infos = ref.step(actions)
        assert rewards == ref_rewards and terms == ref_terms and truncs == ref_truncs
        assert par.agents == ref.agents


def test_the_parallel_env_passes_pettingzoo_tests():
    parallel_api_test(envs.parallel_env("rift", max_steps=200), num_cycles=300)
    parallel_seed_test(lambda: rl.RiftParallelEnv(max_steps=100))
    par = envs.parallel_env("rift", max_steps=100, render_mode="ansi", mask_in_info=True)
    par.reset(seed=0)
    assert par.state_space.contains(par.state())
    assert '"score"' in par.render()


def test_threads_do_not_change_results_and_options_are_checked():
    one = rl.RiftVectorEnv(16, opponent="greedy", seed=3)
    two = rl.RiftVectorEnv(16, opponent="greedy", seed=3, num_threads=2)
    for _ in range(60):
        actions = one.batch.sample_actions(9)
        a, b = one.step(actions), two.step(actions)
        assert all(np.array_equal(x, y) for x, y in zip(a[1:4], b[1:4], strict=True))
        assert np.array_equal(a[0]["observation"], b[0]["observation"])
    with pytest.raises(ValueError, match="unknown opponent"):
        rl.RiftVectorEnv(2, opponent="nobody")
    with pytest.raises(ValueError, match="actions must be in"):
        one.step(np.full(16, 400))
    with pytest.raises(ValueError, match="seat"):
        rl.RiftVectorEnv(2, seat=2)
    text = rl.RiftVectorEnv(2, render_mode="ansi", seed=0)
    assert text.render().count("env ") == 2
    assert one.action_masks().shape == (16, 324)


def _deal(state: np.ndarray) -> bytes:
    """The objectives block of both seats' observations in a global state (the deal)."""
    size = rift_game.OBSERVATION_SIZE
    at, end = rift_game.OBS_OBJECTIVES, rift_game.OBS_HIDDEN
    return state[at:end].tobytes() + state[size + at : size + end].tobytes()


@pytest.mark.parametrize(
    "make", [lambda: envs.parallel_env("rift"), lambda: envs.GameParallelEnv("rift")]
)
def test_an_unseeded_reset_deals_afresh_and_seeded_resets_replay(make):
    """Issue 28: reset() without a seed used to replay seed 0, the same secret deal
    every game; now it draws a seed from the env's stream (seeded by the last seeded
    reset), or from OS entropy when never seeded."""
    never_seeded = make()
    deals = set()
    for _ in range(6):
        never_seeded.reset()
        deals.add(_deal(never_seeded.state()))
    assert len(deals) > 1
    runs = []
    for _ in range(2):
        env = make()
        env.reset(seed=3)
        deals = [_deal(env.state())]
        for _ in range(5):
            env.reset()
            deals.append(_deal(env.state()))
        runs.append(deals)
    assert runs[0] == runs[1] and len(set(runs[0])) > 1


def test_the_gymnasium_faces_deal_afresh_without_a_seed_and_replay_with_one():
    at, end = rift_game.OBS_OBJECTIVES, rift_game.OBS_HIDDEN
    for env in (envs.make_env("rift"), envs.GameEnv("rift")):
        hands = {env.reset()[0]["observation"][at:end].tobytes() for _ in range(6)}
        assert len(hands) > 1
        first = [env.reset(seed=2)[0]["observation"].tobytes()]
        first += [env.reset()[0]["observation"].tobytes() for _ in range(3)]
        again = [env.reset(seed=2)[0]["observation"].tobytes()]
        again += [env.reset()[0]["observation"].tobytes() for _ in range(3)]
        assert first == again


@pytest.mark.parametrize(
    "make", [lambda: envs.parallel_env("rift"), lambda: envs.GameParallelEnv("rift")]
)
def test_state_is_the_true_global_state_with_both_secrets(make):
    """Issue 28: state() was X's observation (O's objectives hidden); it is X's then O's."""
    env = make()
    obs, _ = env.reset(seed=1)
    state = env.state()
    size = rift_game.OBSERVATION_SIZE
    assert state.shape == (2 * size,) and env.state_space.contains(state)
    assert np.array_equal(state[:size], obs["X"]["observation"])
    assert np.array_equal(state[size:], obs["O"]["observation"])
    hidden = rift_game.OBS_HIDDEN
    assert obs["X"]["observation"][hidden] > 0  # X does not see O's objectives ...
    assert state[size + hidden] == 0 or state[hidden] > 0  # ... the state holds O's own view


@pytest.mark.parametrize("seat", [0, 1])
def test_a_callable_opponent_locks_with_the_agent_and_loses_by_a_rejected_move(seat):
    """Issue 28: a callable opponent (both moves lock in one native step_joint); its
    rejected move (G5) loses it the game, the agent's reason stays its own."""
    seen = []

    def illegal(obs, mask):
        seen.append(obs["observation"].shape)
        return np.array([int(np.flatnonzero(~m)[0]) for m in mask])

    env = rl.RiftVectorEnv(3, opponent=illegal, seat=seat, seed=4)
    masks = env.action_masks()
    _, rewards, term, _, info = env.step(np.array([np.flatnonzero(m)[0] for m in masks]))
    assert seen == [(3, rift_game.OBSERVATION_SIZE)]
    assert term.all() and (rewards == 1.0).all() and (info["reason"] == 0).all()
    assert env.action_masks().any(axis=1).all()  # ended by a rejection: never empty


def test_the_parallel_env_is_the_shared_native_parallel_env_with_its_checks():
    """Issue 27: Rift's parallel face is NativeParallelEnv's subclass (as Blitz's is): a
    missing, None or -1 action does not lock; a bad action is refused in one line naming
    the agent and the value, the game unchanged; a step after the game ended is refused
    (the old env stepped the ended game on, with empty terminations, and took 3.7 as 3)."""
    from tictacblitz.envs.native.parallel import NativeParallelEnv

    par = envs.parallel_env("rift")
    assert isinstance(par, NativeParallelEnv)
    par.reset(seed=0)
    par.step({"X": 5, "O": None})
    assert par.locked() == (5, None)
    par.step({"X": -1})
    assert par.locked() == (5, None)
    for bad, error, words in (
        ({"O": 3.7}, TypeError, "O's action must be an integer code, not 3.7"),
        ({"O": -2}, ValueError, "O's action code -2 out of range"),
        ({"X": 0, "O": 324}, ValueError, "O's action code 324 out of range"),
    ):
        with pytest.raises(error, match=words) as raised:
            par.step(bad)
        assert "\n" not in str(raised.value)
        assert par.locked() == (5, None) and par.agents == ["X", "O"]
    illegal = int(np.flatnonzero(par.action_masks()["O"] == 0)[0])
    _, rewards, terms, _, _ = par.step({"O": illegal})  # G5 rejects it: the game ends
    assert rewards == {"X": 1.0, "O": -1.0} and all(terms.values()) and not par.agents
    with pytest.raises(ValueError, match="step after the game ended"):
        par.step({"X": 1, "O": 2})
