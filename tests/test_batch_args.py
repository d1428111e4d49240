"""The boundary of every game's batched stepper (``blitz_core/common/batch_args.py``):
bad arrays, indices and actions are refused with a ValueError naming them, and the
batch is unchanged, before any unchecked native loop runs."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")


def _vector(game: str):
    pytest.importorskip(f"blitz_core.{game}")
    if game == "doh":
        from tictacblitz.envs.games.doh import DohVectorEnv as Env
    else:
        from tictacblitz.envs.games.rift import RiftVectorEnv as Env
    return Env(3, seed=1)


@pytest.mark.parametrize("game", ["doh", "rift"])
def test_bad_reset_and_step_arguments_are_refused_and_change_nothing(game: str) -> None:
    env = _vector(game)
    batch, n = env.batch, 3
    before = np.array(batch.obs, copy=True)
    num_actions = env.single_action_space.n
    for args, words in (
        ((np.zeros(2, np.uint64), None), "3 envs to reset but 2 seeds"),
        ((np.zeros(1, np.uint64), np.array([3])), "env index 3 out of range"),
        ((np.zeros(1, np.uint64), np.array([-1])), "env index -1 out of range"),
    ):
        with pytest.raises(ValueError, match=words):
            batch.reset(*args)
    for actions, words in (
        (np.zeros(2, np.int64), rf"must have shape \({n},\)"),
        (np.full(n, num_actions), rf"actions must be in 0..{num_actions - 1}"),
        (np.full(n, -1), rf"actions must be in 0..{num_actions - 1}"),
    ):
        with pytest.raises(ValueError, match=words):
            batch.step(actions, np.zeros(n, np.uint64))
    assert np.array_equal(np.asarray(batch.obs), before)
