"""Tic Tac Blitz's RL environments (tictacblitz.envs, served by its native hook
tictacblitz.envs.games.blitz) and the native batch behind them (docs/rl.md)."""

from __future__ import annotations

import os
import warnings

# Threads sleep, not spin, between steps: the 2-thread tests stay fast on a busy machine
# (read when the OpenMP runtime loads, i.e. at the first import of the batch).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import tictacblitz.envs  # noqa: E402,F401  (registers the Gymnasium ids)
from tictacblitz import Match, Player, Rules  # noqa: E402
from tictacblitz.envs.games.blitz import (  # noqa: E402
    BatchedMatches,
    BlitzVectorEnv,
    StateBatch,
    action_code,
    decode_action,
    parallel_env,
)
from tictacblitz.games.blitz.types import Action  # noqa: E402

CELLS = 36
N_ACTIONS = 1 + 2 * CELLS


def python_step(match, codes, interval_ms=50):
    """One decision step over the public Match API (the contract of BatchedMatches.step)."""
    x, o = (decode_action(int(c)) for c in codes)
    reasons = match.act_both(x, o)  # None for a seat that waits
    match.advance(interval_ms)
    ended = match.rounds[-1] if match.round_over else None
    if match.round_over and not match.match_over:
        match.start_next_round()
    return reasons, ended


# -- action codes --------------------------------------------------------------------------


def test_action_codes_round_trip():
    assert action_code(None) == 0
    for code in range(1, N_ACTIONS):
        assert action_code(decode_action(code)) == code
    assert decode_action(1) == Action.place((0, 0))
    assert decode_action(1 + CELLS) == Action.knockout((0, 0))
    for bad in (-1, N_ACTIONS):
        with pytest.raises(ValueError):
            decode_action(bad)
    for bad in (1.0, True, "3"):
        with pytest.raises(TypeError):
            decode_action(bad)


# -- the batch against the public API ------------------------------------------------------


def test_batch_matches_python_loop_step_for_step():
    """Same seeds and actions: the batch and a Python loop over Match give the same
    states, observations, masks, rewards and rejections at every step."""
    n = 6
    batch = BatchedMatches(n, seed=100)
    matches = [Match(seed=100 + i) for i in range(n)]
    rng = np.random.default_rng(0)
    for step in range(8000):
        actions = batch.sample_actions()
        # Mix in illegal codes now and then: rejections must agree too (R7).
        noise = rng.random((n, 2)) < 0.1
        actions[noise] = rng.integers(0, N_ACTIONS, size=int(noise.sum()))
        obs, rewards, term, trunc, info = batch.step(actions)
        for i, m in enumerate(matches):
            if m.match_over:
                continue
            reasons, ended = python_step(m, actions[i])
            for p in range(2):
                expected = -1 if actions[i, p] == 0 else (0 if reasons[p] is None else 1)
                got = info["reasons"][i, p]
                assert (got > 0) == (expected > 0) and (got == -1) == (expected == -1), (step, i, p)
            if ended is None:
                assert rewards[i, 0] == 0.0
            else:
                sign = {Player.X: 1.0, Player.O: -1.0, None: 0.0}[ended.result]
                extra = 0.0
                if m.match_over:
                    extra = {Player.X: 1.0, Player.O: -1.0, None: 0.0}[m.match_result]
                assert rewards[i, 0] == sign + extra and rewards[i, 1] == -rewards[i, 0]
            assert bool(term[i]) == m.match_over
            if not m.match_over:
                view = batch.get_match(i)
                assert view.state_dict() == m.state_dict(), (step, i)
                for p in (Player.X, Player.O):
                    assert np.array_equal(obs["planes"][i, p], m.planes(p)), (step, i, p)
        if all(m.match_over for m in matches):
            break
    assert all(m.match_over for m in matches)


def test_masks_agree_with_engine_check():
    """On many reachable states, mask[code] is True exactly when Match.check accepts."""
    batch = BatchedMatches(24, seed=7)
    rng = np.random.default_rng(1)
    checked = 0
    for step in range(600):
        actions = batch.sample_actions()
        actions[rng.random(actions.shape) < 0.7] = 0  # often wait: charges stay full
        batch.step(actions)
        if step % 12:
            continue
        masks = batch.masks
        for i in range(batch.num_envs):
            match = batch.get_match(i)
            for p in (Player.X, Player.O):
                assert masks[i, p, 0]
                for code in range(1, N_ACTIONS):
                    accepted = match.check(p, decode_action(code)) is None
                    assert masks[i, p, code] == accepted, (step, i, p, code)
                    checked += 1
    assert checked > 100_000


def test_scalars_in_range_and_meaningful():
    batch = BatchedMatches(16, seed=1, policies=("random", "random"))
    for _ in range(300):
        batch.step()
        s = batch.scalars
        assert s.min() >= 0.0 and s.max() <= 1.0
        # Seat views mirror each other: own of X is opponent of O.
        assert np.array_equal(s[:, 0, 0], s[:, 1, 1])
        assert np.array_equal(s[:, 0, 9], s[:, 1, 10])
        assert np.array_equal(batch.planes[:, 0, 0], batch.planes[:, 1, 2])


def test_bits_observation_matches_planes():
    a = BatchedMatches(8, seed=5, policies=("random", "random"), obs="planes")
    b = BatchedMatches(8, seed=5, policies=("random", "random"), obs="bits")
    for _ in range(200):
        a.step()
        b.step()
        planes = a.planes.reshape(8, 2, 12, CELLS) > 0
        for k, plane in enumerate([0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11]):
            bits = b.bits[:, :, k]
            unpacked = ((bits[..., None] >> np.arange(CELLS, dtype=np.uint64)) & np.uint64(1)) == 1
            assert np.array_equal(unpacked, planes[:, :, plane])
        assert np.array_equal(a.scalars, b.scalars)


def test_bad_actions_raise_before_any_change():
    batch = BatchedMatches(4, seed=0)
    before = batch.state_info()
    planes = batch.planes.copy()
    for bad in (np.full((4, 2), N_ACTIONS), np.full((4, 2), -1)):
        with pytest.raises(ValueError, match="out of range"):
            batch.step(bad)
    with pytest.raises(ValueError, match="shape"):
        batch.step(np.zeros((3, 2), dtype=np.int64))
    with pytest.raises(TypeError):
        batch.step(np.zeros((4, 2), dtype=np.float32))
    after = batch.state_info()
    assert all(np.array_equal(before[k], after[k]) for k in before)
    assert np.array_equal(planes, batch.planes)

    env = gymnasium.make("tictacblitz/Blitz-v0").unwrapped
    env.reset(seed=0)
    with pytest.raises(ValueError):
        env.step(N_ACTIONS)
    pz = parallel_env()
    pz.reset(seed=0)
    with pytest.raises(ValueError):
        pz.step({"X": -1, "O": 0})


def test_illegal_codes_are_rejections_counted():
    batch = BatchedMatches(1, seed=3)
    code = action_code(Action.knockout((0, 0)))  # nothing to knock out yet: R7
    batch.step(np.array([[code, 0]]))
    assert batch.info["reasons"][0, 0] == 5  # not_opponent_mark
    assert batch.rejections()[0].tolist() == [1, 0]
    batch.step(np.array([[1, 1]]))  # both place on cell 0: one loses R3
    assert sorted(batch.info["reasons"][0].tolist()) == [0, 3]  # accepted, occupied


# -- determinism ---------------------------------------------------------------------------


def _run(num_threads, n=300, steps=150, **options):
    batch = BatchedMatches(n, seed=11, num_threads=num_threads, **options)
    digest = []
    for _ in range(steps):
        actions = batch.sample_actions()
        obs, rewards, term, trunc, info = batch.step(actions)
        digest.append(
            (
                obs["planes"].sum(axis=(2, 3, 4)).tobytes(),
                obs["scalars"].tobytes(),
                obs["action_mask"].tobytes(),
                rewards.tobytes(),
                term.tobytes(),
                info["reasons"].tobytes(),
            )
        )
    return digest, batch.state_info(), batch.rejections()


def test_same_results_for_any_thread_count():
    d1, s1, r1 = _run(1)
    d2, s2, r2 = _run(2)
    assert d1 == d2
    assert all(np.array_equal(s1[k], s2[k]) for k in s1)
    assert np.array_equal(r1, r2)


def test_native_policies_deterministic_across_threads():
    runs = []
    for nt in (1, 2):
        batch = BatchedMatches(
            300, seed=2, policies=("random", "random"), obs="bits", masks=False, num_threads=nt
        )
        total = np.zeros((300, 2))
        ends = 0
        for _ in range(1500):
            _, rewards, term, _, _ = batch.step()
            total += rewards
            ends += int(term.sum())
        runs.append((total, ends, batch.bits.copy()))
    assert np.array_equal(runs[0][0], runs[1][0]) and runs[0][1] == runs[1][1] > 0
    assert np.array_equal(runs[0][2], runs[1][2])
    assert np.all(runs[0][0][:, 0] == -runs[0][0][:, 1])  # zero-sum


# -- auto-reset ----------------------------------------------------------------------------


def _play_to_end(batch, limit=20_000):
    for step in range(limit):
        obs, rewards, term, trunc, info = batch.step(batch.sample_actions())
        if term[0] or trunc[0]:
            return step
    raise AssertionError("no episode ended")


def test_next_step_autoreset():
    batch = BatchedMatches(1, seed=21, autoreset_mode="next_step")
    _play_to_end(batch)
    assert batch.info["match_result"][0] in (0, 1, 2)
    final = batch.planes.copy()
    first_seed = batch.state_info()["match_seed"][0]
    # The next step ignores the actions and starts a new match (reward 0, not done).
    obs, rewards, term, trunc, info = batch.step(np.array([[1, 1]]))
    state = batch.state_info()
    assert rewards.tolist() == [[0.0, 0.0]] and not term[0] and not trunc[0]
    assert (
        state["round"][0] == 1 and state["t"][0] == 0 and state["round_wins"][0].tolist() == [0, 0]
    )
    assert state["match_seed"][0] != first_seed
    assert info["reasons"][0].tolist() == [-1, -1]
    fresh = Match(seed=int(state["match_seed"][0]))
    assert np.array_equal(obs["planes"][0, 0], fresh.planes(Player.X))
    assert not np.array_equal(final, obs["planes"])


def test_same_step_autoreset_and_final_obs():
    a = BatchedMatches(1, seed=21, autoreset_mode="disabled")
    b = BatchedMatches(1, seed=21, autoreset_mode="same_step")
    while True:
        actions = a.sample_actions()
        b.sample_actions()  # keep b's sample stream in step with a's
        _, ra, ta, _, _ = a.step(actions)
        obs, rb, tb, _, info = b.step(actions)
        assert ra.tolist() == rb.tolist() and ta[0] == tb[0]
        if ta[0]:
            break
        assert not info["final_ended"][0]
    assert info["final_ended"][0]
    assert np.array_equal(info["final_planes"], a.planes)
    assert np.array_equal(info["final_scalars"], a.scalars)
    state = b.state_info()
    assert state["round"][0] == 1 and state["t"][0] == 0
    # DISABLED: a finished env stays finished until reset().
    _, r, t, _, _ = a.step(np.zeros((1, 2), dtype=np.int64))
    assert t[0] and r.tolist() == [[0.0, 0.0]]


def test_round_episodes():
    batch = BatchedMatches(1, seed=4, episode="round", round_reward=2.0, match_reward=5.0)
    rounds_seen = 0
    while True:
        _play_to_end(batch)
        rounds_seen += 1
        r = batch.rewards[0, 0]
        assert abs(r) in (0.0, 2.0, 7.0)
        if batch.info["match_result"][0] >= 0:
            break
        batch.step(np.zeros((1, 2), dtype=np.int64))  # next round, same match
        assert batch.state_info()["round"][0] == rounds_seen + 1
    assert rounds_seen >= 3


def test_truncation():
    batch = BatchedMatches(2, seed=0, max_steps=10)
    for _ in range(10):
        _, _, term, trunc, _ = batch.step(np.zeros((2, 2), dtype=np.int64))
    assert trunc.all() and not term.any()


def test_seeds_per_env():
    a = BatchedMatches(3, seed=None)
    a.reset(seed=[5, 6, 7])
    b = BatchedMatches(3, seed=5)
    assert np.array_equal(a.state_info()["match_seed"], b.state_info()["match_seed"])
    c = BatchedMatches(3, seed=5)
    c.reset()  # draws from the generator seeded by 5: reproducible
    d = BatchedMatches(3, seed=5)
    d.reset()
    assert np.array_equal(c.state_info()["match_seed"], d.state_info()["match_seed"])


def test_memory_per_match():
    batch = BatchedMatches(4, obs="bits")
    assert batch.state_bytes <= 1024
    # Outside the observation buffers: rewards, flags, reasons, masks, action buffer.
    extra = (
        batch.rewards.nbytes
        + batch.terminated.nbytes
        + batch.truncated.nbytes
        + sum(v.nbytes for k, v in batch.info.items())
        + batch.masks.nbytes
        + batch._actions.nbytes
    ) / 4
    assert batch.state_bytes + extra <= 1024


# -- the standard APIs ---------------------------------------------------------------------


def test_gymnasium_check_env():
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("tictacblitz/Blitz-v0")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # not even a warning
        check_env(env.unwrapped)
    obs, _ = env.reset(seed=0)
    assert obs in env.observation_space


def test_gym_env_plays_a_match_and_seeds():
    env = gymnasium.make("tictacblitz/Blitz-v0", opponent="random", seat="O")
    total, steps = 0.0, 0
    obs, info = env.reset(seed=9)
    rng = np.random.default_rng(0)
    while True:
        action = env.action_space.sample(mask=obs["action_mask"])
        obs, reward, term, trunc, info = env.step(action)
        total += reward
        steps += 1
        if term or trunc:
            break
    assert info["match_result"] in (0, 1, 2) and term and steps > 100
    assert env.unwrapped.render() is None
    ansi = gymnasium.make("tictacblitz/Blitz-v0", render_mode="ansi")
    ansi.reset(seed=1)
    assert "round 1" in ansi.render()
    del rng


def test_pettingzoo_api_and_seed_tests():
    from pettingzoo.test import parallel_api_test, parallel_seed_test

    parallel_api_test(parallel_env(), num_cycles=2000)
    parallel_seed_test(parallel_env)
    env = parallel_env()
    assert env.possible_agents == ["X", "O"]
    assert env.observation_space("X") is env.observation_space("X")
    assert env.action_space("O") is env.action_space("O")


def test_pettingzoo_full_match_is_zero_sum():
    env = parallel_env()
    obs, _ = env.reset(seed=3)
    totals = {"X": 0.0, "O": 0.0}
    while env.agents:
        actions = {a: env.action_space(a).sample(mask=obs[a]["action_mask"]) for a in env.agents}
        obs, rewards, term, trunc, infos = env.step(actions)
        for a, r in rewards.items():
            totals[a] += r
    assert totals["X"] == -totals["O"] and totals["X"] != 0 or infos["X"]["match_result"] == 2


def test_vector_env_basics():
    env = gymnasium.make_vec(
        "tictacblitz/Blitz-v0", num_envs=8, vectorization_mode="vector_entry_point"
    )
    assert isinstance(env.unwrapped, BlitzVectorEnv)
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    obs, _ = env.reset(seed=0)
    assert obs in env.observation_space
    obs2, _ = env.reset(seed=0)
    assert all(np.array_equal(obs[k], obs2[k]) for k in obs)
    env.action_space.seed(0)
    ended = np.zeros(8, dtype=bool)
    for _ in range(3000):
        actions = np.array([env.single_action_space.sample(mask=m) for m in obs["action_mask"]])
        obs, rewards, term, trunc, info = env.step(actions)
        assert rewards.shape == (8,) and term.shape == (8,)
        assert obs in env.observation_space
        ended |= term
    assert ended.any()
    env.close()


def test_vector_env_same_step_final_obs():
    env = BlitzVectorEnv(2, autoreset_mode="same_step", max_steps=5, seed=0)
    env.reset(seed=0)
    for _ in range(5):
        obs, r, term, trunc, info = env.step(np.zeros(2, dtype=np.int64))
    assert trunc.all() and info["_final_obs"].all()
    final = info["final_obs"]  # Gymnasium's Dict-space layout: arrays over rows (issue 28)
    assert final["_planes"].all()
    row = {k: v[0] for k, v in final.items() if not k.startswith("_")}
    assert row in env.single_observation_space


# -- search helpers ------------------------------------------------------------------------


def test_state_batch_clone_and_rollout():
    m = Match(seed=12)
    m.act(Player.X, Action.place((2, 2)))
    m.advance(300)
    before = m.state_dict()
    states = StateBatch(n=300)
    states.load(m)
    assert states.match(17).state_dict() == before
    r1 = states.rollout(("random", "random"), seeds=0, num_threads=1)
    assert m.state_dict() == before  # the source is untouched
    assert np.all(r1["round_result"] >= 0) and r1["accepted"] > 0
    assert len(set(r1["t"].tolist())) > 1  # different seeds, different rounds
    states.load(m)
    r2 = states.rollout(("random", "random"), seeds=0, num_threads=2)
    for key in ("round_result", "t", "round_wins"):
        assert np.array_equal(r1[key], r2[key])
    # A rolled-out slot is a real match: the public API picks it up.
    view = states.match(0)
    assert view.round_over
    other = StateBatch(n=2)
    other.copy_from(states, [5, 6], [1, 0])
    assert other.match(0).state_dict() == states.match(6).state_dict()
    # Whole matches, and a bot that never acts.
    states.load(m)
    whole = states.rollout(("random", "random"), seeds=1, until="match")
    assert np.all(whole["match_result"] >= 0)
    states.load(Match(seed=1))
    waits = states.rollout(("wait", "wait"), seeds=0)
    assert np.all(waits["t"] == 45_000) and np.all(waits["round_result"] == 2)
    with pytest.raises(ValueError):
        states.rollout(("random", None))
    with pytest.raises(ValueError):
        states.load(Match(Rules(size=5)))


def test_batch_set_match_and_get_match():
    m = Match(seed=3)
    m.act(Player.O, Action.place((1, 1)))
    m.advance(100)
    batch = BatchedMatches(2, seed=0)
    batch.set_match(1, m)
    assert batch.get_match(1).state_dict() == m.state_dict()
    assert np.array_equal(batch.planes[1, 1], m.planes(Player.O))


def test_builtin_bot_opponent():
    pytest.importorskip("tictacblitz.games.blitz.bots")
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("tictacblitz/Blitz-v0", opponent="greedy").unwrapped
    check_env(env)  # seeded resets replay with a bot too
    obs, _ = env.reset(seed=0)
    total = 0.0
    while True:
        obs, reward, term, trunc, info = env.step(0)  # the agent only waits
        total += reward
        if term or trunc:
            break
    assert info["match_result"] == 1 and total < 0  # the bot (O) wins
    vec = BlitzVectorEnv(2, opponent="easy", seat="O", seed=0)
    vec.reset(seed=0)
    for _ in range(100):
        vec.step(np.zeros(2, dtype=np.int64))
    assert vec.batch.state_info()["t"].max() > 0


def test_unpack_bits_gives_the_planes():
    """The bit-packed observation holds planes 0-8, 10 and 11 exactly."""
    from tictacblitz.envs.games.blitz import BatchedMatches, unpack_bits

    planes = BatchedMatches(64, seed=3, policies=("random", "random"), obs="planes")
    bits = BatchedMatches(64, seed=3, policies=("random", "random"), obs="bits")
    for _ in range(40):
        planes.step()
        bits.step()
    unpacked = unpack_bits(bits.bits)
    expected = planes.planes[:, :, [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11]] > 0
    assert unpacked.shape == expected.shape and (unpacked == expected).all()
