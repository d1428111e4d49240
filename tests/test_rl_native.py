"""Issue 15: native opponents at batch speed, callable opponents, self-play, snapshots
and the conventions RL tools expect, against the official checkers (docs/rl.md)."""

from __future__ import annotations

import os
import pickle

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, state_test  # noqa: E402

import tictacblitz.envs as envs  # noqa: E402
from tictacblitz import Rules  # noqa: E402
from tictacblitz.envs.games.blitz import (  # noqa: E402
    PRESETS as RL_PRESETS,
)
from tictacblitz.envs.games.blitz import (  # noqa: E402
    BatchedMatches,
    BlitzEnv,
    BlitzSelfPlayVectorEnv,
    BlitzVectorEnv,
    make_env,
    make_vector_env,
    marks_potential,
    parallel_env,
)
from tictacblitz.games import TimeModel, available_games, game_type  # noqa: E402
from tictacblitz.games.blitz.bots import PRESETS, play_matches  # noqa: E402

INFO_KEYS = {"round", "t", "round_wins", "reason", "rejected"}


def _first_legal(obs, mask):
    """A deterministic batched policy: the first legal non-wait action, else wait."""
    m = mask.copy()
    m[:, 0] = False
    return np.where(m.any(1), m.argmax(1), 0).astype(np.int64)


# -- native opponents ------------------------------------------------------------------------


def _result_codes(winner: np.ndarray) -> np.ndarray:
    """play_matches' winner (-1 a draw, as every game's runner) as the steppers'
    match_result codes (2 a draw, RESULT_DRAW)."""
    return np.where(winner < 0, 2, winner)


@pytest.mark.parametrize(
    "x, o, n",
    [
        ("greedy", "easy", 12),
        ("medium", "random", 12),
        ("easy", "search", 2),
        ("hard", "greedy", 2),
    ],
)
def test_native_bots_in_the_step_play_exactly_play_matches(x, o, n):
    """At a 1 ms interval the batched step asks the bots at every ms, as play_matches
    does: one seed gives the same match, so the bots' streams and timing are the same."""
    seeds = np.arange(n, dtype=np.uint64) + 40
    ref = play_matches(Rules(), x, o, seeds.tolist())
    batch = BatchedMatches(
        n,
        seed=0,
        interval_ms=1,
        autoreset_mode="disabled",
        policies=(x, o),
        obs="bits",
        masks=False,
        num_threads=1,
    )
    batch.reset(seed=seeds)
    winner = np.full(n, -1)
    for _ in range(1_000_000):
        batch.step()
        winner = np.where(batch.info["match_result"] >= 0, batch.info["match_result"], winner)
        if batch.terminated.all():
            break
    assert np.array_equal(winner, _result_codes(ref["winner"]))
    assert np.array_equal(batch.state_info()["round_wins"][:, 0], ref["round_wins"][:, 0])
    assert np.array_equal(batch.state_info()["round_wins"][:, 1], ref["round_wins"][:, 1])


@pytest.mark.parametrize("opponent", ["greedy", "easy", "hard"])
def test_native_opponents_deterministic_across_threads(opponent):
    runs = []
    for nt in (1, 2):
        env = BlitzVectorEnv(300, opponent=opponent, seed=4, obs="bits", num_threads=nt)
        env.reset(seed=4)
        total = np.zeros(300)
        for _ in range(60 if opponent == "hard" else 400):
            obs, r, term, trunc, info = env.step(env.batch.sample_actions()[:, 0])
            total += r
        runs.append((total, obs["bits"]))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])


def test_every_preset_is_native_and_bad_specs_are_clear():
    for name in PRESETS:
        batch = BatchedMatches(2, seed=0, policies=(None, name))
        assert batch._native.policies[1] in ("random", PRESETS[name].native())
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        BatchedMatches(2, policies=(None, "nobody"))
    with pytest.raises(ValueError, match="error_rate"):
        BatchedMatches(2, policies=(None, ("greedy", 0, 2.0, 0, 1, 1)))


def test_greedy_beats_a_waiting_agent():
    env = BlitzVectorEnv(8, opponent="greedy", seed=0, obs="bits")
    env.reset(seed=0)
    ends = []
    for _ in range(3000):
        _, r, term, _, info = env.step(np.zeros(8, dtype=np.int64))
        ends.extend(info["match_result"][term].tolist())
    assert ends and all(e == 1 for e in ends)


# -- callable opponents, set_opponent, self-play -------------------------------------------------


def test_a_callable_opponent_plays_like_the_same_actions_given_by_hand():
    a = BatchedMatches(16, seed=3, policies=(None, _first_legal))
    b = BatchedMatches(16, seed=3)
    for _ in range(300):
        xa = a.sample_actions()[:, 0]
        xb = b.sample_actions()
        xb[:, 1] = _first_legal(None, b.masks[:, 1])
        a.step(xa)
        b.step(xb)
        assert np.array_equal(a.planes, b.planes) and np.array_equal(a.rewards, b.rewards)


def test_set_opponent_between_episodes():
    env = BlitzVectorEnv(4, opponent="wait", seed=0, obs="bits")
    env.reset(seed=0)
    for _ in range(20):
        env.step(np.zeros(4, dtype=np.int64))
    assert env.batch.state_info()["round_wins"].sum() == 0
    assert not env.batch.bits[:, 1, 0].any()  # O (wait) has no marks
    env.set_opponent("greedy")
    env.reset(seed=0)
    for _ in range(40):
        env.step(np.zeros(4, dtype=np.int64))
    assert env.batch.bits[:, 1, :2].any()  # now O plays
    env.set_opponent(_first_legal)
    assert env.opponent is _first_legal
    env.step(np.zeros(4, dtype=np.int64))
    with pytest.raises(ValueError):
        BlitzSelfPlayVectorEnv(2).set_opponent("greedy")


def test_self_play_rows_are_both_seats_of_the_batch():
    sp = BlitzSelfPlayVectorEnv(8, seed=1)
    ref = BatchedMatches(8, seed=1)
    obs, info = sp.reset(seed=1)
    ref.reset(seed=1)
    assert sp.num_envs == 16 and sp.action_masks().shape == (16, 73)
    assert sp.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    for _ in range(400):
        masks = sp.action_masks()
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, r, term, trunc, info = sp.step(acts)
        _, rr, *_ = ref.step(acts.reshape(8, 2))
        assert np.array_equal(r, rr.reshape(16)) and np.all(r[0::2] == -r[1::2])
        assert np.array_equal(obs["planes"], ref.planes.reshape(16, 12, 6, 6))
        assert np.array_equal(term[0::2], term[1::2])
    assert set(info) >= INFO_KEYS and info["round_wins"].shape == (16, 2)


# -- snapshots --------------------------------------------------------------------------------


@pytest.mark.parametrize("autoreset", ["next_step", "same_step"])
def test_snapshot_resumes_identically(autoreset):
    def run(env, steps):
        out = []
        for _ in range(steps):
            acts = env.batch.sample_actions()[:, 0]
            obs, r, term, trunc, info = env.step(acts)
            out.append((obs["bits"].copy(), r.copy(), term.copy()))
        return out

    env = BlitzVectorEnv(
        32,
        opponent="medium",
        seed=5,
        obs="bits",
        autoreset_mode=autoreset,
        episode="round",
        max_steps=150,
    )
    env.reset(seed=5)
    run(env, 200)
    snap = env.get_state()
    pickled = pickle.dumps(env.batch)
    first = run(env, 400)
    env.set_state(snap)
    again = run(env, 400)
    clone = pickle.loads(pickled)
    third = []
    for _ in range(400):
        acts = clone.sample_actions()
        clone.step(acts)
        third.append(clone.bits[:, 0].copy())
    for (o1, r1, t1), (o2, r2, t2), o3 in zip(first, again, third, strict=True):
        assert np.array_equal(o1, o2) and np.array_equal(r1, r2) and np.array_equal(t1, t2)
        assert np.array_equal(o1, o3)
    other = BatchedMatches(16, obs="bits")
    with pytest.raises(ValueError, match="other options"):
        other.set_state(env.batch.get_state())


def test_single_env_snapshot():
    env = BlitzEnv(opponent="easy")
    env.reset(seed=2)
    for _ in range(30):
        env.step(0)
    snap = env.get_state()
    a = [env.step(int(np.flatnonzero(env.action_masks())[-1]))[0]["planes"] for _ in range(50)]
    env.set_state(snap)
    b = [env.step(int(np.flatnonzero(env.action_masks())[-1]))[0]["planes"] for _ in range(50)]
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


# -- conventions --------------------------------------------------------------------------------


def test_reset_mask_resets_only_the_masked_envs():
    env = BlitzVectorEnv(4, opponent="greedy", seed=0, obs="bits")
    env.reset(seed=0)
    for _ in range(30):
        env.step(np.zeros(4, dtype=np.int64))
    before = env.batch.state_info()
    mask = np.array([True, False, True, False])
    obs, info = env.reset(seed=100, options={"reset_mask": mask})
    after = env.batch.state_info()
    assert np.all(after["t"][mask] == 0) and np.array_equal(after["t"][~mask], before["t"][~mask])
    assert after["match_seed"][0] == 100 and after["match_seed"][2] == 102
    assert np.array_equal(after["match_seed"][~mask], before["match_seed"][~mask])
    with pytest.raises(ValueError):
        env.reset(options={"reset_mask": np.array([1, 0, 1, 0])})


def test_action_masks_and_mask_in_info_on_every_face():
    single = BlitzEnv(opponent="greedy", mask_in_info=True)
    obs, info = single.reset(seed=0)
    assert "action_mask" not in obs and np.array_equal(info["action_mask"], single.action_masks())
    check_env(single, skip_render_check=True)
    vec = BlitzVectorEnv(3, opponent="easy", mask_in_info=True, seed=0)
    obs, info = vec.reset(seed=0)
    assert "action_mask" not in obs and vec.observation_space.contains(obs)
    assert np.array_equal(info["action_mask"].astype(bool), vec.action_masks())
    plain = BlitzVectorEnv(3, seed=0)
    obs, _ = plain.reset(seed=0)
    assert np.array_equal(obs["action_mask"].astype(bool), plain.action_masks())
    generic = envs.GameEnv("doh", mask_in_info=True)
    obs, info = generic.reset(seed=0)
    assert "action_mask" not in obs and np.array_equal(
        info["action_mask"].astype(bool), generic.action_masks()
    )
    gv = envs.GameVectorEnv("doh", 3)
    gv.reset(seed=0)
    assert gv.action_masks().shape == (3, gv.single_action_space.n)


@pytest.mark.parametrize("game", available_games())
def test_the_same_info_keys_on_every_face(game):
    single = envs.GameEnv(game)
    _, info = single.reset(seed=0)
    assert set(info) >= INFO_KEYS
    _, _, _, _, info = single.step(int(np.flatnonzero(single.action_masks())[-1]))
    assert set(info) >= INFO_KEYS and info["reason"] in (0,) + tuple(range(1, 20))
    vec = envs.GameVectorEnv(game, 2)
    _, info = vec.reset(seed=0)
    assert set(info) >= INFO_KEYS
    if game_type(game).time_model is TimeModel.ALTERNATING:
        aec = envs.GameAECEnv(game)
    else:
        from pettingzoo.utils.conversions import parallel_to_aec

        aec = parallel_to_aec(envs.GameParallelEnv(game))
    aec.reset(seed=0)
    assert all(set(aec.infos[a]) >= INFO_KEYS for a in aec.agents)


def test_render_rgb_and_ansi():
    single = BlitzEnv(render_mode="rgb_array")
    single.reset(seed=0)
    img = single.render()
    assert img.dtype == np.uint8 and img.shape == (144, 144, 3)
    check_env(single)  # the render check included
    vec = BlitzVectorEnv(2, opponent="greedy", render_mode="rgb_array", seed=0)
    vec.reset(seed=0)
    for _ in range(40):
        vec.step(np.zeros(2, dtype=np.int64))
    frames = vec.render()
    assert len(frames) == 2 and frames[0].shape == (144, 144, 3) and frames[0].std() > 0
    text = BlitzVectorEnv(2, render_mode="ansi", seed=0)
    text.reset(seed=0)
    assert text.render().count("env ") == 2
    small = make_env("small", render_mode="rgb_array")
    small.reset(seed=0)
    assert small.render().shape == (96, 96, 3)
    for game in available_games():
        text_vec = envs.GameVectorEnv(game, 2, render_mode="ansi")
        text_vec.reset(seed=0)
        assert isinstance(text_vec.render(), str) and text_vec.render().count("env ") == 2
        env = envs.GameEnv(game, render_mode="rgb_array")
        env.reset(seed=0)
        assert envs.GameEnv(game).render() is None
        frame = env.render()
        assert frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8
        check_env(env)


def test_pettingzoo_state_space_and_aec_pass_the_official_tests():
    par = parallel_env(max_steps=300)
    parallel_api_test(par, num_cycles=300)
    par.reset(seed=0)
    assert par.state_space.contains(par.state())
    parallel_seed_test(lambda: parallel_env(max_steps=200))
    api_test(envs.aec_env("blitz", max_steps=300), num_cycles=300)
    state_test(envs.aec_env("blitz", max_steps=300), parallel_env(max_steps=300))
    api_test(envs.aec_env("blitz", max_steps=300, mask_in_info=True), num_cycles=100)
    rift = envs.parallel_env("rift", max_steps=100)
    rift.reset(seed=0)
    assert rift.state_space.contains(rift.state())


def test_presets_build_and_play():
    for name in RL_PRESETS:
        env = make_vector_env(4, preset=name, opponent="easy", seed=0, obs="bits")
        env.reset(seed=0)
        ended = 0
        for _ in range(250):
            _, _, term, trunc, _ = env.step(np.zeros(4, dtype=np.int64))
            ended += int((term | trunc).sum())
        if name in ("short", "tiny", "rounds"):
            assert ended > 0, name
    with pytest.raises(ValueError, match="unknown preset"):
        make_env("huge")


def test_shaping_is_off_by_default_and_telescopes():
    plain = BlitzVectorEnv(8, opponent="random", seed=0, obs="bits", episode="round")
    shaped = BlitzVectorEnv(
        8,
        opponent="random",
        seed=0,
        obs="bits",
        episode="round",
        shaping=marks_potential,
        shaping_gamma=1.0,
    )
    plain.reset(seed=0)
    shaped.reset(seed=0)
    diff = np.zeros(8)
    saw_bonus = False
    for _ in range(1200):
        acts = plain.batch.sample_actions()[:, 0]
        shaped.batch.sample_actions()
        _, r0, t0, _, _ = plain.step(acts)
        _, r1, t1, _, _ = shaped.step(acts)
        assert np.array_equal(t0, t1)
        diff += r1 - r0
        saw_bonus |= bool(np.any(r1 != r0))
        # with gamma = 1 the bonuses of an episode sum to -phi(first state) = 0
        assert np.allclose(diff[t0], 0.0, atol=1e-9)
        diff[t0] = 0.0
    assert saw_bonus


@pytest.mark.parametrize(
    "make",
    [
        lambda: BlitzVectorEnv(4, opponent="easy", seed=0),
        lambda: BlitzVectorEnv(4, opponent="greedy", autoreset_mode="same_step", seed=0),
        lambda: BlitzSelfPlayVectorEnv(3, seed=0, mask_in_info=True),
        lambda: envs.GameVectorEnv("doh", 3),
        lambda: envs.GameVectorEnv("rift", 2, max_steps=50),
    ],
)
def test_vector_envs_keep_to_their_spaces_and_replay_a_seed(make):
    """Gymnasium 1.x has no vector-env checker: its contract, checked by hand."""
    from gymnasium.utils.env_checker import data_equivalence

    def run():
        env = make()
        obs, info = env.reset(seed=7)
        assert env.observation_space.contains(obs)
        out = [obs]
        rng = np.random.default_rng(7)
        for _ in range(60):
            masks = env.action_masks()
            acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            assert env.action_space.contains(acts)
            obs, r, term, trunc, info = env.step(acts)
            assert env.observation_space.contains(obs) and r.shape == (env.num_envs,)
            assert term.dtype == np.bool_ and trunc.shape == (env.num_envs,)
            out.append((obs, r, term, trunc))
        env.close()
        return out

    assert data_equivalence(run(), run())


def test_pickled_envs_continue_identically():
    vec = BlitzVectorEnv(8, opponent="easy", seed=0, obs="bits", shaping=marks_potential)
    vec.reset(seed=0)
    for _ in range(30):
        vec.step(np.zeros(8, dtype=np.int64))
    copy = pickle.loads(pickle.dumps(vec))
    for _ in range(100):
        a = vec.step(np.ones(8, dtype=np.int64))
        b = copy.step(np.ones(8, dtype=np.int64))
        assert np.array_equal(a[0]["bits"], b[0]["bits"]) and np.array_equal(a[1], b[1])
    single = BlitzEnv(opponent="hard")
    single.reset(seed=1)
    twin = pickle.loads(pickle.dumps(single))
    for _ in range(40):
        assert np.array_equal(single.step(0)[0]["planes"], twin.step(0)[0]["planes"])


@pytest.mark.parametrize("game", [g for g in available_games() if g != "blitz"])
def test_generic_env_snapshot(game):
    env = envs.GameEnv(game, max_steps=300)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(3):
        env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
    snap = env.get_state()

    def play():
        out, r = [], np.random.default_rng(1)
        for _ in range(40):
            mask = env.action_masks()
            if not mask.any():
                break
            obs, reward, term, trunc, _ = env.step(int(r.choice(np.flatnonzero(mask))))
            out.append((obs["observation"].copy(), reward))
            if term or trunc:
                break
        return out

    first = play()
    env.set_state(snap)
    again = play()
    assert len(first) == len(again) > 0
    assert all(
        np.array_equal(a[0], b[0]) and a[1] == b[1] for a, b in zip(first, again, strict=True)
    )


@pytest.mark.parametrize("game", [g for g in available_games() if g != "blitz"])
def test_generic_shaping_telescopes(game):
    def phi(obs):
        return float(obs["observation"].sum()) * 0.01

    plain = envs.GameEnv(game, max_steps=200)
    shaped = envs.GameEnv(game, max_steps=200, shaping=phi, shaping_gamma=1.0)
    plain.reset(seed=5)
    obs, _ = shaped.reset(seed=5)
    first = phi(obs)
    rng = np.random.default_rng(5)
    total = 0.0
    for _ in range(200):
        a = int(rng.choice(np.flatnonzero(plain.action_masks())))
        _, r0, t0, tr0, _ = plain.step(a)
        _, r1, t1, tr1, _ = shaped.step(a)
        total += r1 - r0
        if t0 or tr0:
            break
    assert abs(total + first) < 1e-9  # gamma 1: the bonuses sum to -phi(s0)


def test_pettingzoo_render_test():
    """PettingZoo's render_test over every mode in metadata (it first builds a "human"
    env only to read the metadata: our envs have no window, so that one is None)."""
    from pettingzoo.test import render_test
    from pettingzoo.utils.conversions import parallel_to_aec

    def wrap(make):
        return lambda render_mode=None: make(None if render_mode == "human" else render_mode)

    render_test(wrap(lambda m: envs.aec_env("blitz", render_mode=m, max_steps=100)))
    render_test(wrap(lambda m: envs.GameAECEnv("doh", render_mode=m)))
    render_test(
        wrap(lambda m: parallel_to_aec(envs.GameParallelEnv("rift", render_mode=m, max_steps=100)))
    )


@pytest.mark.parametrize(
    "x, o, n", [("greedy", "easy", 16), ("random", "medium", 16), ("hard", "search", 2)]
)
def test_state_batch_rolls_out_native_bots_as_play_matches(x, o, n):
    from tictacblitz import Match
    from tictacblitz.envs.games.blitz import StateBatch
    from tictacblitz.games.blitz.bots import BotSpec

    seeds = list(range(200, 200 + n))
    ref = play_matches(Rules(), x, o, seeds)
    # "random" by name is the fast playout policy: the random bot itself is its spec
    xs = PRESETS[x] if x == "random" else x
    for nt in (1, 2):
        batch = StateBatch(Rules(), n)
        for i, seed in enumerate(seeds):
            batch.load(Match(seed=seed), [i])
        out = batch.rollout(
            (xs, o), seeds=np.array(seeds, dtype=np.uint64), until="match", num_threads=nt
        )
        assert np.array_equal(out["match_result"], _result_codes(ref["winner"]))
        assert np.array_equal(out["round_wins"][:, 0], ref["round_wins"][:, 0])
    with pytest.raises(ValueError):
        batch.rollout((_first_legal, "random"))
    assert isinstance(PRESETS["random"], BotSpec)
