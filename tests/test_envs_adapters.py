"""The envs layer's per-game RL adapters (issue 27, items 1-2): each game's one
``NativeVectorEnv`` subclass in ``envs/games/<game>.py``, found by the shared lookup,
serves ``tictacblitz.envs``; a game without one gets the protocol envs; a misspelled
override of the base fails when the class is made."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import tictacblitz.envs as envs
from tictacblitz.envs.native.vector import NativeVectorEnv
from tictacblitz.games import available_games
from tictacblitz.games.adapters import AdapterError


@pytest.mark.parametrize("game", available_games())
def test_every_game_is_served_by_its_adapter(game):
    adapter = envs.native_env(game)
    assert adapter is not None and issubclass(adapter, NativeVectorEnv)
    assert adapter.__module__ == f"tictacblitz.envs.games.{game}"
    vec = envs.make_vector_env(game, 2, seed=0)
    assert type(vec) is adapter and vec.num_envs == 2
    single = envs.make_env(game)
    assert adapter.single_env is not None and isinstance(single, adapter.single_env)


def test_a_game_without_an_adapter_gets_the_protocol_envs(monkeypatch):
    monkeypatch.setattr(envs, "native_env", lambda game: None)
    assert isinstance(envs.make_env("doh"), envs.GameEnv)
    assert isinstance(envs.make_vector_env("doh", 2), envs.GameVectorEnv)
    # GameParallelEnv and GameAECEnv are factories of local classes: their module tells
    for face in (envs.parallel_env("rift"), envs.aec_env("doh")):
        assert type(face).__module__ == "tictacblitz.envs.multi_agent"


def test_an_unknown_game_is_one_line_naming_the_games():
    with pytest.raises(ValueError, match="unknown game 'bliz'.*blitz"):
        envs.make_vector_env("bliz", 2)


def test_a_misspelled_override_fails_when_the_adapter_is_made():
    with pytest.raises(AdapterError, match="make_bach.*make_batch"):

        class Misspelled(NativeVectorEnv):
            def make_bach(self, num_envs, bot, seat, max_steps, num_threads):
                raise AssertionError("never called")
