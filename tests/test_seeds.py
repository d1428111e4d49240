"""One rule for a seed wherever one enters (issue 27, item 3): an integer in [0, 2**64),
refused otherwise with the same line, ``<name> must be an integer in [0, 2**64), not
<value>`` (tictacblitz.games.rng.check_seed; the native modules' copy is
blitz_core.common.seed_check, tied in tests/test_one_source.py).

Before, a negative seed was refused by the Blitz batch (rollouts.pyx) but wrapped modulo
2**64 by Rift's play_matches and RiftBot, Blitz's play_matches and NativeBot, Doh's bots
and solver and the lab's master seed: those cases failed here on the old code.
"""

from __future__ import annotations

from typing import Any, Callable, Dict

import numpy as np
import pytest

from tictacblitz import Match
from tictacblitz.envs.games.blitz import BatchedMatches
from tictacblitz.games import load_game
from tictacblitz.games.blitz.bots import make_bot as make_blitz_bot
from tictacblitz.games.blitz.bots import play_match as blitz_play_match
from tictacblitz.games.blitz.bots import play_matches as blitz_play_matches
from tictacblitz.games.blitz.reference import ReferenceMatch
from tictacblitz.games.doh.bots import play_matches as doh_play_matches
from tictacblitz.games.doh.rules import DohRules
from tictacblitz.games.rift.bots import RiftBot
from tictacblitz.games.rift.game import play_matches as rift_play_matches
from tictacblitz.games.rng import SeedError, check_seed, check_seeds
from tictacblitz.lab.jobs import prepare
from tictacblitz.lab.tournament import run_tournament


def line(value: Any, name: str = "seed") -> str:
    return f"{name} must be an integer in [0, 2**64), not {value!r}"


def test_check_seed_takes_the_64_bit_words_and_refuses_the_rest():
    for value in (0, 1, 2**64 - 1, np.uint64(2**64 - 1), np.int32(5)):
        assert check_seed(value) == int(value)
    for value in (-1, 2**64, True, np.bool_(False), "1", 1.0, None, np.int64(-3)):
        with pytest.raises(SeedError) as info:
            check_seed(value, "--seed")
        assert str(info.value) == line(value, "--seed")
        # one error for both kinds of callers: the command line catches ValueError
        assert isinstance(info.value, ValueError) and isinstance(info.value, TypeError)


def test_check_seeds_names_the_first_bad_one():
    assert check_seeds([0, 2**64 - 1]).dtype == np.uint64
    assert check_seeds(np.array([1, 2], dtype=np.int64)).tolist() == [1, 2]
    with pytest.raises(SeedError, match=r"^seeds\[1\] must be .*, not -4$"):
        check_seeds([3, -4])
    with pytest.raises(SeedError, match=r"^seeds\[2\] must be .*, not np.int64\(-1\)$"):
        check_seeds(np.array([0, 1, -1, -2]))
    with pytest.raises(SeedError, match="sequence of integers"):
        check_seeds(7)


PLACES: Dict[str, Callable[[int], Any]] = {
    "blitz Match": lambda s: Match(seed=s),
    "blitz reference match": lambda s: ReferenceMatch(seed=s),
    "blitz make_bot": lambda s: make_blitz_bot("greedy", seed=s),
    "blitz play_match": lambda s: blitz_play_match(None, "random", "random", s),
    "blitz game.new_state": lambda s: load_game("blitz").new_state(s),
    "doh game.new_state": lambda s: load_game("doh").new_state(s),
    "doh make_bot": lambda s: load_game("doh").make_bot("random", seed=s),
    "doh perfect bot": lambda s: load_game("doh").make_bot("perfect", seed=s),
    "rift game.new_state": lambda s: load_game("rift").new_state(s),
    "rift RiftBot": lambda s: RiftBot("random", s),
    "rift make_bot": lambda s: load_game("rift").make_bot("random", seed=s),
    "lab simulate": lambda s: prepare(1, seed=s),
    "lab tournament": lambda s: run_tournament(["random", "greedy"], matches=1, seed=s),
}


@pytest.mark.parametrize("place", sorted(PLACES))
@pytest.mark.parametrize("seed", [-1, 2**64])
def test_a_seed_out_of_range_is_refused_with_the_one_line(place, seed):
    with pytest.raises(ValueError) as info:
        PLACES[place](seed)
    assert str(info.value) == line(seed)


@pytest.mark.parametrize(
    "play",
    [
        lambda seeds: blitz_play_matches(None, "random", "random", seeds),
        lambda seeds: rift_play_matches(None, "random", "random", seeds),
        lambda seeds: doh_play_matches(DohRules(), ("random", "random"), seeds),
    ],
    ids=["blitz", "rift", "doh"],
)
def test_play_matches_refuses_a_negative_seed_by_its_place(play):
    # Each wrapped -1 to 2**64 - 1 before (rift/game.py, blitz/bots.py, doh/bots.py).
    with pytest.raises(ValueError) as info:
        play([5, -1])
    assert str(info.value) == line(-1, "seeds[1]")


def test_the_batches_refuse_a_negative_seed():
    batch = BatchedMatches(num_envs=2)
    with pytest.raises(ValueError) as info:
        batch.reset(seed=-1)
    assert str(info.value) == line(-1)
    with pytest.raises(ValueError) as info:
        batch.reset(seed=np.array([4, -2]))
    assert str(info.value) == line(np.int64(-2), "seeds[1]")
