"""Issue 28 items 1-2: the measured thread default, one-seat observation, the lean learner's
path (LearnerBatch), its zero-copy torch tensors and the send/recv pool."""

from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from tictacblitz.envs.games.blitz import BatchedMatches, BlitzVectorEnv, LearnerBatch, LearnerPool

N = 300  # above the stepper's serial threshold (256): the thread team is used


def _trajectory(batch: BatchedMatches, steps: int, seed: int = 5):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        mask = batch.masks[:, 0]
        codes = np.array([rng.choice(np.flatnonzero(m)) for m in mask[:, :]])
        actions = np.zeros((batch.num_envs, 2), dtype=np.int64)
        actions[:, 0] = codes
        obs, rewards, term, trunc, _ = batch.step(actions)
        out.append((obs["bits"][:, 0].copy(), rewards[:, 0].copy(), term.copy(), trunc.copy()))
    return out


def test_default_threads_are_measured_and_never_change_results():
    # issue 28 item 1: num_threads=None measures one thread against every core (both arms
    # get a mean within a few steps) and plays exactly what one thread plays.
    auto = BatchedMatches(N, seed=1, policies=(None, "easy"), obs="bits")
    assert auto._native.threads_auto
    fixed = BatchedMatches(N, seed=1, policies=(None, "easy"), obs="bits", num_threads=1)
    assert not fixed._native.threads_auto and fixed.num_threads == 1
    a, b = _trajectory(auto, 60), _trajectory(fixed, 60)
    for (ob1, r1, t1, u1), (ob2, r2, t2, u2) in zip(a, b, strict=True):
        assert (ob1 == ob2).all() and (r1 == r2).all() and (t1 == t2).all() and (u1 == u2).all()
    cores = len(os.sched_getaffinity(0))
    one, many = auto._native.thread_means
    assert one > 0
    if cores > 1:  # a probe of every core ran (after EXPLOIT_WARM = 4 steps)
        assert many > 0
        assert auto.num_threads in (1, cores)
    assert fixed._native.thread_means == (0, 0)  # a fixed count measures nothing


def test_setting_num_threads_fixes_it():
    batch = BatchedMatches(N, seed=0, obs="bits")
    batch.num_threads = 2
    assert batch.num_threads == 2 and not batch._native.threads_auto
    batch.num_threads = None  # back to measured, as at construction (not every core fixed)
    assert batch._native.threads_auto
    assert batch.num_threads == 1  # the measured default starts on one thread
    with pytest.raises(ValueError, match="num_threads"):
        BatchedMatches(4, num_threads=0)


def test_one_observed_seat_writes_that_seats_rows():
    both = BatchedMatches(64, seed=3, policies=(None, "greedy"), obs="planes")
    mine = BatchedMatches(64, seed=3, policies=(None, "greedy"), obs="planes", observe=(0,))
    assert mine.planes.shape == (64, 1, 12, 6, 6) and mine.masks.shape == (64, 1, 73)
    actions = np.zeros((64, 2), dtype=np.int64)
    for _ in range(150):
        actions[:, 0] = both.sample_actions()[:, 0]
        both.step(actions)
        mine.step(actions)
        assert (mine.planes[:, 0] == both.planes[:, 0]).all()
        assert (mine.scalars[:, 0] == both.scalars[:, 0]).all()
        assert (mine.masks[:, 0] == both.masks[:, 0]).all()
        assert (mine.rewards == both.rewards).all()


def test_a_callable_needs_its_seat_observed():
    with pytest.raises(ValueError, match="observed"):
        BatchedMatches(4, policies=(None, lambda obs, mask: mask.argmax(1)), observe=(0,))


def test_learner_batch_equals_the_vector_env_and_allocates_nothing():
    env = BlitzVectorEnv(N, opponent="easy", seed=2, obs="bits")
    lean = LearnerBatch(N, opponent="easy", seed=2)
    obs, _ = env.reset(seed=2)
    lean.reset(seed=2)
    first = lean.obs
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        codes = np.array([rng.choice(np.flatnonzero(m)) for m in env.action_masks()])
        obs, rewards, term, trunc, _ = env.step(codes)
        out = lean.step(codes)
        assert out[0] is first and out[1] is lean.rewards  # the same buffers every step
        assert (lean.obs["bits"] == obs["bits"].view(np.int64)).all()
        assert (lean.obs["scalars"] == obs["scalars"]).all()
        assert (lean.obs["action_mask"] == obs["action_mask"].astype(bool)).all()
        assert (lean.rewards == rewards).all()
        assert (lean.terminated == term).all() and (lean.truncated == trunc).all()
        ended += int(term.sum())
    assert ended > 0  # episodes ended and auto-reset on both
    assert lean.obs["bits"].dtype == np.int64 and lean.rewards.dtype == np.float32
    assert lean.obs["action_mask"].dtype == np.bool_ and lean.terminated.dtype == np.bool_


def test_learner_sample_draws_only_the_learners_seat():
    lean = LearnerBatch(64, opponent="easy", seed=0, seat="O")
    for _ in range(50):
        codes = lean.sample_actions()
        legal = lean.obs["action_mask"][np.arange(64), codes]
        assert legal.all()
        assert (lean._sampled[:, 0] == 0).all()  # the bot's seat draws nothing
        lean.step(codes)


def test_learner_batch_refuses_bad_input_and_callables():
    lean = LearnerBatch(8, opponent="random", seed=0)
    before = lean.obs["scalars"].copy()
    with pytest.raises(ValueError, match="out of range"):
        lean.step(np.full(8, 999))
    with pytest.raises(ValueError, match="shape"):
        lean.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(TypeError, match="integers"):
        lean.step(np.zeros(8))
    assert (lean.obs["scalars"] == before).all()  # nothing changed
    with pytest.raises(ValueError, match="native"):
        LearnerBatch(8, opponent=lambda obs, mask: mask.argmax(1))


def test_same_step_learner_keeps_the_final_observation():
    rules = {"round_ms": 2_000, "rounds_to_win": 1, "max_rounds": 1}
    lean = LearnerBatch(16, opponent="random", seed=0, rules=rules, autoreset_mode="same_step")
    for _ in range(60):
        lean.step(lean.sample_actions())
        if lean.final_ended.any():
            break
    ended = np.flatnonzero(lean.final_ended)
    assert len(ended) > 0
    assert (lean.final_obs["scalars"][ended, 8] == 1.0).all()  # the clock at round's end
    assert (lean.obs["scalars"][ended, 8] == 0.0).all()  # and the new match at 0 ms


def test_tensors_share_the_buffers():
    torch = pytest.importorskip("torch")
    lean = LearnerBatch(32, opponent="easy", seed=0)
    t = lean.tensors()
    assert t["bits"].dtype == torch.int64 and t["action_mask"].dtype == torch.bool
    for _ in range(20):
        lean.step(torch.as_tensor(lean.sample_actions()))
    assert t["bits"].data_ptr() == lean.obs["bits"].ctypes.data
    assert (t["scalars"].numpy() == lean.obs["scalars"]).all()
    assert (t["rewards"].numpy() == lean.rewards).all()


def test_pool_send_recv_plays_what_the_groups_play_in_turn():
    pool = LearnerPool(8, 2, seed=10, opponent="easy")
    ref = [LearnerBatch(8, opponent="easy", seed=10 + 8 * g) for g in range(2)]
    pool.reset(seed=10)
    for r in ref:
        r.reset(seed=10 + 8 * ref.index(r))
    try:
        for step in range(200):
            (obs, rewards, term, _), g = pool.recv()
            assert g == step % 2
            assert (obs["bits"] == ref[g].obs["bits"]).all()
            assert (rewards == ref[g].rewards).all() and (term == ref[g].terminated).all()
            codes = ref[g].sample_actions().copy()
            ref[g].step(codes)
            pool.send(codes)
    finally:
        pool.close()
