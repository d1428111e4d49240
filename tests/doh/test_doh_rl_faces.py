"""Doh's own side of issue 28's faces (tests/test_rl_faces.py holds every game's
contract): self-play rows' rewards and masks at 3 players, a callable opponent's
rejected move, a callable seat between native bots, and the greedy bot's memo giving the
protocol env's (unmemoised) moves."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from tictacblitz.envs import GameEnv
from tictacblitz.envs.games.doh import DohSelfPlayVectorEnv, DohVectorEnv
from tictacblitz.envs.native.options import NOOP_ACTION


def test_self_play_rows_at_three_players():
    env = DohSelfPlayVectorEnv(16, rules={"players": 3}, seed=0)
    assert env.num_envs == 48
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(40):
        masks = env.action_masks().reshape(16, 3, -1)
        movers = masks.sum(axis=2) > 1
        # one row a game moves (the seat to move); the others have the no-op alone
        for g in range(16):
            waiting = [s for s in range(3) if not movers[g, s]]
            for s in waiting:
                assert np.flatnonzero(masks[g, s]).tolist() == [NOOP_ACTION]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks.reshape(48, -1)])
        obs, rewards, term, trunc, info = env.step(actions)
        per_game = rewards.reshape(16, 3)
        assert np.allclose(per_game.sum(axis=1), 0.0)
        for g in np.flatnonzero(term.reshape(16, 3)[:, 0]):
            ended += 1
            assert sorted(per_game[g].tolist()) in ([-0.5, -0.5, 1.0], [0.0, 0.0, 0.0])
    assert ended > 0


def test_a_rejected_self_play_move_loses_its_row():
    env = DohSelfPlayVectorEnv(2, seed=1)
    masks = env.action_masks()
    mover = int(np.flatnonzero(masks.sum(axis=1) > 1)[0])
    actions = np.array([int(np.flatnonzero(m)[0]) for m in masks])
    actions[mover] = int(np.flatnonzero(~masks[mover])[0])  # an illegal move
    _, rewards, term, _, info = env.step(actions)
    assert rewards[mover] == -1.0 and rewards[mover ^ 1] == 1.0 and term[mover]
    assert info["reason"][mover] > 0 and info["reason"][mover ^ 1] == -1


def test_a_callable_opponent_that_breaks_the_rules_loses():
    def illegal(obs, mask):
        return np.array([int(np.flatnonzero(~m)[0]) for m in mask])

    env = DohVectorEnv(4, opponent=illegal, seed=2)
    masks = env.action_masks()
    _, rewards, term, _, info = env.step(np.array([np.flatnonzero(m)[0] for m in masks]))
    assert term.all() and (rewards == 1.0).all() and (info["reason"] == 0).all()


def test_a_callable_between_native_bots_plays_in_turn():
    seen = []

    def second(obs, mask):
        seen.append(obs["observation"][:, 14].any(axis=(1, 2)).copy())  # the to-move plane
        return np.array([int(np.flatnonzero(m)[0]) for m in mask])

    env = DohVectorEnv(8, rules={"players": 3}, opponent=["greedy", second], seed=3)
    rng = np.random.default_rng(3)
    for _ in range(10):
        masks = env.action_masks()
        env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    assert seen and all(rows.any() for rows in seen)  # asked where it is to move


@pytest.mark.parametrize("players, opponent", [(2, "greedy"), (2, "easy"), (3, "greedy")])
def test_the_greedy_memo_plays_the_protocol_bots_moves(players, opponent):
    """The native batch memoises greedy's move scores (solver.pxd's GreedyCache); the
    protocol env's bot does not: the games are the same, over many positions."""
    n, rules = 64, {"players": players}
    vec = DohVectorEnv(n, opponent=opponent, rules=rules, seed=500)
    refs = [GameEnv("doh", opponent=opponent, rules=rules) for _ in range(n)]
    ref_obs = [env.reset(seed=500 + i)[0] for i, env in enumerate(refs)]
    obs = vec._obs()
    for i in range(n):
        assert np.array_equal(obs["observation"][i], ref_obs[i]["observation"])
    rng = np.random.default_rng(players)
    live = np.ones(n, dtype=bool)
    compared = 0
    for _ in range(12):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_masks()])
        obs, _, term, trunc, _ = vec.step(acts)
        for i in np.flatnonzero(live):
            o, *_ = refs[i].step(int(acts[i]))
            assert np.array_equal(obs["observation"][i], o["observation"])
            compared += 1
        live &= ~(term | trunc)
    assert compared > 2 * n  # every game several moves
