"""Issue 25, item 1 for the RL faces: Tic Tac Doh with 3 and 4 players (D10) through
PettingZoo (one agent per seat, the official api_test) and Gymnasium (one seat against
N - 1 bots, check_env), the parallel face of a turn-based game (only the seat to move
acts), rewards (+1 the winner, -1/(N-1) each loser), and bad options (one clear error,
nothing changed)."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

import tictacblitz.envs as envs  # noqa: E402
from tictacblitz.envs import multi_agent  # noqa: E402
from tictacblitz.envs.games.doh import DohEnv, DohVectorEnv  # noqa: E402
from tictacblitz.envs.native import options as native_options  # noqa: E402

SEATS = ("first", "second", "third", "fourth")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_aec_env_has_one_agent_a_seat_and_passes_api_test(players: int) -> None:
    env = envs.aec_env("doh", rules={"players": players})
    assert env.possible_agents == list(SEATS[:players])
    api_test(env, num_cycles=300)


@pytest.mark.parametrize("players", [3, 4])
def test_an_aec_game_goes_round_the_seats_and_pays_the_returns(players: int) -> None:
    """Turns in seat order (D10), every agent terminated at the end, rewards the core's
    returns: +1 the winner, -1/(N-1) each loser (or all 0), zero-sum."""
    seats = SEATS[:players]
    won = 0
    for seed in range(12):
        env = envs.aec_env("doh", rules={"players": players})
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        order, totals, terminated_agents = [], dict.fromkeys(seats, 0.0), []
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            if terminated or truncated:
                assert terminated and not truncated
                terminated_agents.append(agent)
                env.step(None)
                continue
            order.append(agent)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert order == [seats[k % players] for k in range(len(order))]
        assert sorted(terminated_agents) == sorted(seats)  # all of them, at once
        state = env.unwrapped.current
        assert state.is_over()
        assert totals == {a: float(r) for a, r in zip(seats, state.returns(), strict=True)}
        assert abs(sum(totals.values())) < 1e-12
        winner = state.winner()
        if winner is None:
            assert set(totals.values()) == {0.0}
        else:
            won += 1
            assert totals[seats[winner]] == 1.0
            assert sorted(totals.values()) == [-1.0 / (players - 1)] * (players - 1) + [1.0]
    assert won > 0  # the seeds include won games, not only draws


@pytest.mark.parametrize("players", [3, 4])
def test_a_rejected_move_loses_and_pays_the_others(players: int) -> None:
    env = envs.aec_env("doh", rules={"players": players})
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.observe("first")["action_mask"])[0]))
    assert env.agent_selection == "second"
    env.step(int(np.flatnonzero(env.observe("second")["action_mask"] == 0)[0]))  # rejected
    share = 1.0 / (players - 1)
    assert env.rewards == {"second": -1.0, **{a: share for a in SEATS[:players] if a != "second"}}
    assert all(env.terminations.values()) and env.infos["second"]["rejected"] is not None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_parallel_face_moves_only_the_seat_to_move(players: int) -> None:
    """A turn-based game's ParallelEnv (issue 25's decision, docs/rl.md): each step is the
    move of the seat to move; the others' masks are all zeros and their actions ignored."""
    parallel_api_test(envs.parallel_env("doh", rules={"players": players}), num_cycles=300)
    env = envs.parallel_env("doh", rules={"players": players})
    obs, _ = env.reset(seed=0)
    for turn in range(players + 1):
        mover = SEATS[turn % players]
        for agent in env.agents:
            assert obs[agent]["action_mask"].any() == (agent == mover)
        legal = int(np.flatnonzero(obs[mover]["action_mask"])[0])
        actions = dict.fromkeys(env.agents, 74)  # ignored but for the mover's
        actions[mover] = legal
        before = env.current.position.ply
        obs, rewards, terms, truncs, infos = env.step(actions)
        assert env.current.position.ply == before + 1
        assert [infos[a]["reason"] for a in SEATS[:players]] == [
            0 if a == mover else -1 for a in SEATS[:players]
        ]
        if any(terms.values()):
            break


@pytest.mark.parametrize("players", [3, 4])
def test_the_single_agent_envs_pass_check_env(players: int) -> None:
    rules = {"players": players}
    for seat in (0, players - 1):
        check_env(envs.GameEnv("doh", rules=rules, seat=seat), skip_render_check=True)
        native = envs.make_env("doh", rules=rules, seat=seat, opponent="easy")
        assert isinstance(native, DohEnv)
        check_env(native, skip_render_check=True)


def test_the_agent_may_sit_in_any_seat_by_name_and_bots_differ_per_seat() -> None:
    rules = {"players": 4}
    env = DohVectorEnv(8, rules=rules, seat="third", opponent=("random", "greedy", None, "easy"))
    assert env.seat == 2 and env.seat_names == SEATS
    env.reset(seed=0)
    assert env.batch.players == 4
    # The agent is third: first and second have moved before its first turn.
    assert [env._position(int(key)).ply for key in env.batch.position_keys()] == [2] * 8
    vec = envs.make_vector_env("doh", 4, rules=rules, opponent="greedy")
    for _ in range(30):
        _, rewards, terminated, _, _ = vec.step(vec.batch.sample_actions(3))
        assert set(rewards[terminated].tolist()) <= {1.0, 0.0, -1.0 / 3}


def test_bad_options_are_one_clear_line_and_change_nothing() -> None:
    rules = {"players": 3}
    with pytest.raises(ValueError, match="seat must be 0 to 2 .* not 3"):
        DohVectorEnv(2, rules=rules, seat=3)
    with pytest.raises(ValueError, match="seat must be 0 to 2"):
        envs.GameEnv("doh", rules=rules, seat="fourth")
    with pytest.raises(ValueError, match="opponent must be a bot name or a list of 2 "):
        envs.GameEnv("doh", rules=rules, opponent=["random"] * 3)
    with pytest.raises(ValueError, match="unknown opponent 'nobody'"):
        DohVectorEnv(2, rules=rules, opponent=("random", "nobody"))
    assert DohVectorEnv(2, rules=rules, opponent="medium").opponent == "medium"  # paranoid
    vec = DohVectorEnv(2, rules=rules, opponent="greedy")
    for bad in ("nobody", ("random",), ("random", "nobody")):
        with pytest.raises(ValueError):
            vec.set_opponent(bad)
        assert vec.opponent == "greedy"
    env = envs.GameEnv("doh", rules=rules, opponent="easy")
    with pytest.raises(ValueError, match="unknown opponent"):
        env.set_opponent(("easy", "nobody"))
    assert env.opponent_names == ("easy", "easy")


@pytest.mark.parametrize("module", [native_options, multi_agent])
def test_doctests(module) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0  # a module without examples would pass unseen
    assert result.failed == 0
