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


# -- issue 27, item 2: Blitz's stepper and Rift's joint step use the same checks ----------


def test_blitz_reset_refuses_bad_indices_and_seeds_and_changes_nothing() -> None:
    pytest.importorskip("blitz_core.blitz")
    from blitz_core.blitz.rollouts import BatchStepper
    from tictacblitz import Rules

    batch = BatchStepper(Rules(), 3)
    batch.reset(7)
    before = np.array(batch.scalars, copy=True)
    for args, words in (
        ((1, np.array([3])), r"env index 3 out of range \(0..2\)"),
        ((1, np.array([-1])), r"env index -1 out of range \(0..2\)"),
        ((1, np.array([0.5])), "env indices must be integers, not float64"),
        ((np.array([1, -2]), np.array([0, 1])), r"seeds\[1\] must be an integer in \[0, 2\*\*64\)"),
        ((np.array([1, 2]), None), "seeds must be an int or 3 integers"),
        ((-1, None), r"seed must be an integer in \[0, 2\*\*64\), not -1"),
    ):
        with pytest.raises(ValueError, match=words):
            batch.reset(*args)
    assert np.array_equal(batch.scalars, before)


def test_rift_step_joint_refuses_bad_actions_and_seeds_and_changes_nothing() -> None:
    pytest.importorskip("blitz_core.rift")
    from tictacblitz.envs.games.rift import RiftVectorEnv

    batch = RiftVectorEnv(3, seed=1).batch
    before = np.array(batch.obs, copy=True)
    ok = np.full(3, -1)
    for args, words in (
        ((np.zeros(2, np.int64), ok), r"x_actions must have shape \(3,\)"),
        ((ok, np.full(3, 324)), r"o_actions must be -1 or in 0..323"),
        ((np.full(3, -2), ok), r"x_actions must be -1 or in 0..323"),
        ((np.zeros(3), ok), "x_actions must be integers, not float64"),
        ((ok, ok, np.zeros(2, np.uint64)), r"reset_seeds must have shape \(3,\)"),
        ((ok, ok, np.array([0, -1, 0])), r"reset_seeds\[1\] must be an integer"),
    ):
        with pytest.raises(ValueError, match=words):
            batch.step_joint(*args)
    assert np.array_equal(np.asarray(batch.obs), before)
