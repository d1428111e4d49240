"""Issue 28 item 3: SB3's VecEnv over every game's native vector env; MaskablePPO trains on it."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

from tictacblitz.envs.sb3 import SB3VecEnv, make_sb3_env

GAMES = [
    ("blitz", {"preset": "tiny", "opponent": "random"}),
    ("blitz", {"preset": "tiny", "opponent": "random", "autoreset_mode": "same_step"}),
    ("doh", {"opponent": "random"}),
    ("rift", {"opponent": "random"}),
]


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_vecenv_autoresets_in_the_same_step(game, options):
    venv = make_sb3_env(game, 6, seed=0, **options)
    obs = venv.reset()
    assert obs.shape == (6, *venv.observation_space.shape) and obs.dtype == np.float32
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        masks = np.stack(venv.env_method("action_masks"))
        assert masks.shape == (6, venv.action_space.n) and masks.any(axis=1).all()
        venv.step_async(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        new, rewards, dones, infos = venv.step_wait()
        assert new is not obs  # SB3 keeps the last observation while it asks the next
        for i in np.flatnonzero(dones):
            final = infos[i]["terminal_observation"]
            assert final.shape == new[i].shape and venv.observation_space.contains(final)
            assert not np.array_equal(final, new[i])  # the next episode's first one
            ended += 1
        obs = new
    assert ended > 0


def test_maskable_ppo_learns_on_it():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    pytest.importorskip("torch")
    for game, options in (GAMES[0], GAMES[2]):
        venv = make_sb3_env(game, 16, seed=0, **options)
        model = sb3_contrib.MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=128, seed=0)
        model.learn(total_timesteps=16 * 32 * 2)
        assert model.num_timesteps == 16 * 32 * 2
        obs = venv.reset()
        actions, _ = model.predict(obs, action_masks=venv.action_masks(), deterministic=True)
        assert venv.action_masks()[np.arange(16), actions].all()  # legal moves only


def test_dict_observations_and_bad_env():
    venv = make_sb3_env("blitz", 4, seed=0, flatten=False, preset="tiny")
    obs = venv.reset()
    assert set(obs) == {"planes", "scalars"} and obs["planes"].shape == (4, 12, 4, 4)
    with pytest.raises(TypeError, match="action_masks"):
        SB3VecEnv(object())
