"""Issue 27, item 2: Blitz's RL faces on the shared templates (envs/native/): BlitzEnv is a
NativeSingleEnv, its PettingZoo env a NativeParallelEnv, both rows of BlitzVectorEnv, which
steps through NativeVectorEnv.step; and the one-game faces' shared action checks."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from tictacblitz.envs.games.blitz import (
    BlitzEnv,
    BlitzVectorEnv,
    marks_potential,
    parallel_env,
)
from tictacblitz.envs.games.doh import DohEnv
from tictacblitz.envs.games.rift import RiftEnv
from tictacblitz.envs.native.parallel import NativeParallelEnv
from tictacblitz.envs.native.single import NativeSingleEnv
from tictacblitz.envs.native.vector import NativeVectorEnv

TINY = {"size": 4, "line_length": 3, "round_ms": 2_000, "rounds_to_win": 2, "max_rounds": 3}


def test_blitz_faces_are_the_shared_templates():
    assert isinstance(BlitzEnv(), NativeSingleEnv)
    assert isinstance(parallel_env(), NativeParallelEnv)
    # what the base does, Blitz no longer writes again (its hooks are the base's own)
    own = set(vars(BlitzVectorEnv))
    assert not own & {"step", "action_masks", "render", "_info"}
    assert {"_info_rows", "_rewards", "_same_step"} <= own
    assert all(hasattr(NativeVectorEnv, hook) for hook in ("_info_rows", "_rewards", "frame"))


def _legal(rng, mask):
    return int(rng.choice(np.flatnonzero(mask)))


def test_blitz_env_is_row_zero_of_the_vector_env():
    options = {"opponent": "greedy", "seat": "O", "rules": TINY, "shaping": marks_potential}
    single = BlitzEnv(mask_in_info=True, **options)
    vec = BlitzVectorEnv(1, autoreset_mode="disabled", mask_in_info=True, **options)
    obs, info = single.reset(seed=4)
    vobs, vinfo = vec.reset(seed=[4])
    rng = np.random.default_rng(0)
    steps = 0
    while True:
        assert all(np.array_equal(obs[k], vobs[k][0]) for k in vobs)
        assert info["round_result"] == vinfo["round_result"][0]
        assert np.array_equal(info["action_mask"], vinfo["action_mask"][0])
        code = _legal(rng, single.action_masks())
        obs, reward, term, trunc, info = single.step(code)
        vobs, vreward, vterm, vtrunc, vinfo = vec.step(np.array([code]))
        assert reward == vreward[0] and term == vterm[0] and trunc == vtrunc[0]
        steps += 1
        if term or trunc:
            break
    assert steps > 1 and info["match_result"] in (0, 1, 2)
    # DISABLED (docs/rl.md): a step after the end changes nothing until reset()
    t = single.get_match().t
    single.step(0)
    assert single.get_match().t == t


def test_the_pettingzoo_env_is_the_self_play_rows_of_one_match():
    par = parallel_env(rules=TINY)
    vec = BlitzVectorEnv(1, opponent=None, autoreset_mode="disabled", rules=TINY)
    obs, infos = par.reset(seed=9)
    vec.reset(seed=[9])
    rng = np.random.default_rng(1)
    while par.agents:
        masks = par.action_masks()
        codes = {a: _legal(rng, masks[a]) for a in par.agents if rng.random() < 0.7}
        obs, rewards, term, trunc, infos = par.step(codes)
        vobs, vrewards, _, _, vinfo = vec.step(np.array([codes.get(a, 0) for a in "XO"]))
        for i, agent in enumerate("XO"):
            assert np.array_equal(obs[agent]["planes"], vobs["planes"][i])
            assert rewards[agent] == vrewards[i]
            assert infos[agent]["round_wins"] == tuple(vinfo["round_wins"][i])
    with pytest.raises(ValueError, match="call reset"):
        par.step({"X": 0, "O": 0})
    with pytest.raises(ValueError, match="self-play has no opponent"):
        parallel_env(opponent="easy")
    # One game, ended until reset(): an option that would change that is refused, not
    # silently overridden (it was before).
    for option in ({"autoreset_mode": "next_step"}, {"num_threads": 2}):
        with pytest.raises(ValueError, match="sets .* itself: it steps one game"):
            parallel_env(**option)


@pytest.mark.parametrize("face", [BlitzEnv, DohEnv, RiftEnv], ids=lambda f: f.__name__)
def test_one_game_faces_refuse_a_bad_action_in_one_line_and_change_nothing(face):
    env = face()
    env.reset(seed=3)
    n = int(env.action_space.n)
    for bad, error, words in ((1.5, TypeError, "integer code"), (n, ValueError, "out of range")):
        with pytest.raises(error, match=words) as caught:
            env.step(bad)
        assert "\n" not in str(caught.value) and repr(bad) in str(caught.value)
    code = int(np.flatnonzero(env.action_masks())[-1])
    again = face()  # the refused actions left the game as a fresh one of the same seed
    again.reset(seed=3)
    first, second = env.step(code)[0], again.step(code)[0]
    assert all(np.array_equal(first[k], second[k]) for k in first)


@pytest.mark.parametrize("face", [BlitzEnv, DohEnv, RiftEnv], ids=lambda f: f.__name__)
def test_a_one_game_face_needs_an_opponent(face):
    with pytest.raises(ValueError, match="needs an opponent"):
        face(opponent=None)


def test_blitz_constructor_is_the_base_one_with_its_own_options_as_game_options():
    """Issue 27: Blitz's own options (interval, episode, observation mode) travel through
    NativeVectorEnv's constructor as ``game_options`` to its batch, survive pickling, and
    an unknown one is refused in one line naming it, by Blitz and by a game with none."""
    import pickle

    from tictacblitz.envs.games.doh import DohVectorEnv

    env = BlitzVectorEnv(2, rules=TINY, interval_ms=100, episode="round", obs="bits", seed=1)
    assert (env.batch.episode, env.batch.obs_mode, env.rules.size) == ("round", "bits", 4)
    assert env._options["interval_ms"] == 100 and env._options["episode"] == "round"
    again = pickle.loads(pickle.dumps(env))
    assert (again.batch.episode, again.batch.obs_mode, again.rules.size) == ("round", "bits", 4)
    assert np.array_equal(again.batch.observation["bits"], env.batch.observation["bits"])
    with pytest.raises(TypeError, match=r"^BlitzVectorEnv takes no option 'intervalms'$"):
        BlitzVectorEnv(2, intervalms=100)
    with pytest.raises(TypeError, match=r"^DohVectorEnv takes no option 'episode'$"):
        DohVectorEnv(2, game_options={"episode": "round"})
