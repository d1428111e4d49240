"""Issue 28 item 6 for Blitz's vector env: Gymnasium's `_key` info masks, a real SAME_STEP
final_obs/final_info, every auto-reset mode, rules= as a dict, bounded spaces, a legal
no-op on terminal rows."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import tictacblitz.envs  # noqa: E402,F401  (registers tictacblitz/Blitz-v0)
from tictacblitz.envs.games.blitz import BlitzVectorEnv  # noqa: E402

TINY = {"size": 4, "line_length": 3, "round_ms": 2_000, "rounds_to_win": 1, "max_rounds": 1}
STEP_KEYS = ("round", "t", "round_wins", "reason", "rejected", "round_result", "match_result")


def _play(env, steps, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        codes = np.array([rng.choice(np.flatnonzero(m)) for m in env.action_masks()])
        yield env.step(codes)


def test_vector_info_has_the_key_masks():
    env = BlitzVectorEnv(5, opponent="random", seed=0)
    _, info = env.reset(seed=0)
    for out in [info] + [step[4] for step in _play(env, 3)]:
        for key in STEP_KEYS:
            assert out["_" + key].dtype == np.bool_ and out["_" + key].shape == (5,)
            assert out["_" + key].all()


def test_same_step_gives_the_final_observation_and_info():
    same = BlitzVectorEnv(6, opponent="easy", seed=0, rules=TINY, autoreset_mode="same_step")
    nxt = BlitzVectorEnv(6, opponent="easy", seed=0, rules=TINY)
    same.reset(seed=0)
    nxt.reset(seed=0)
    rng = np.random.default_rng(1)
    checked = 0
    for _ in range(45):  # 40 steps of 50 ms end every 2 s round; NEXT_STEP then resets
        codes = np.array([rng.choice(np.flatnonzero(m)) for m in nxt.action_masks()])
        obs_n, r_n, term_n, _, info_n = nxt.step(codes)
        obs_s, r_s, term_s, _, info_s = same.step(codes)
        assert (r_n == r_s).all() and (term_n == term_s).all()
        if not term_n.any():
            continue
        ended = np.flatnonzero(term_n)
        assert (info_s["_final_obs"] == term_n).all() and (info_s["_final_info"] == term_n).all()
        final = info_s["final_info"]
        for i in ended:
            assert (info_s["final_obs"]["planes"][i] == obs_n["planes"][i]).all()
            assert (info_s["final_obs"]["scalars"][i] == obs_n["scalars"][i]).all()
            assert info_s["final_obs"]["_planes"][i]
            for key in STEP_KEYS:
                assert np.array_equal(final[key][i], info_n[key][i]), key
                assert final["_" + key][i]
            checked += 1
        assert not final["_round"][~term_n].any()
        break
    assert checked > 0


@pytest.mark.parametrize("mode", ["next_step", "same_step", "disabled"])
def test_every_autoreset_mode_keeps_a_legal_no_op(mode):
    env = BlitzVectorEnv(4, opponent="random", seed=0, rules=TINY, autoreset_mode=mode)
    assert env.metadata["autoreset_mode"].name == mode.upper()
    env.reset(seed=0)
    done_seen = 0
    for _, _, term, trunc, _ in _play(env, 90):
        masks = env.action_masks()
        assert masks[:, 0].all()  # wait is legal on every row, ended ones too
        done_seen += int((term | trunc).sum())
    assert done_seen > 0
    if mode == "disabled":  # ended rows stay ended until a reset_mask reset
        _, _, term, _, _ = env.step(np.zeros(4, dtype=np.int64))
        assert term.all()
        env.reset(seed=7, options={"reset_mask": np.array([True, False, False, False])})
        _, _, term, _, _ = env.step(np.zeros(4, dtype=np.int64))
        assert not term[0] and term[1:].all()


def test_rules_as_a_dict_on_every_entry_point():
    env = gymnasium.make("tictacblitz/Blitz-v0", rules={"size": 4, "line_length": 3})
    obs, _ = env.reset(seed=0)
    assert obs["planes"].shape == (12, 4, 4)
    vec = gymnasium.make_vec(
        "tictacblitz/Blitz-v0", num_envs=2, vectorization_mode="vector_entry_point", rules=TINY
    )
    assert vec.action_masks().shape == (2, 33)
    with pytest.raises(ValueError, match="'sise'"):
        BlitzVectorEnv(2, rules={"sise": 4})


@pytest.mark.parametrize("obs", ["planes", "bits"])
def test_observation_spaces_are_bounded(obs):
    env = BlitzVectorEnv(2, opponent="random", seed=0, obs=obs)
    space = env.single_observation_space
    for key, sub in space.spaces.items():
        if isinstance(sub, gymnasium.spaces.Box):
            assert np.isfinite(sub.low).all() and np.isfinite(sub.high).all(), key
            if key in ("planes", "scalars"):
                assert (sub.low == 0).all() and (sub.high == 1).all()
    mask = space["action_mask"]  # one mask space on every game's faces: Box int8 0/1
    assert isinstance(mask, gymnasium.spaces.Box) and mask.dtype == np.int8
    assert mask.low.min() == 0 and mask.high.max() == 1
    first, _ = env.reset(seed=0)
    for o, *_ in _play(env, 30):
        assert env.observation_space.contains(o)
    assert env.observation_space.contains(first)
