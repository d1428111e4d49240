"""The ``search`` policies (SM-MCTS, decoupled UCT with determinized hidden objectives;
``search_cut``, ``hard`` since issue 23, cuts its rollouts and scores them): the batch
loop plays the game the protocol plays, the search never reads the opponent's hidden
objectives, and its budget is checked."""

from __future__ import annotations

import numpy as np
import pytest

from blitz_core.rift.engine import SEAT_SALTS
from tictacblitz.games.rift.bots import BotSpec, RiftBot
from tictacblitz.games.rift.game import make_game, play_matches

SMALL = BotSpec("search", simulations=150)
SEARCHES = [SMALL, BotSpec("search_cut", simulations=150)]


@pytest.mark.parametrize("search", SEARCHES, ids=lambda s: s.kind)
def test_a_batch_game_of_the_search_equals_the_protocol_game(search):
    seeds = [2, 9]
    cols = play_matches(None, search, "greedy", seeds)
    game = make_game()
    for i, seed in enumerate(seeds):
        state = game.new_state(seed)
        x, o = RiftBot(search, seed ^ SEAT_SALTS[0]), RiftBot("greedy", seed ^ SEAT_SALTS[1])
        while not state.is_over():
            state.apply_joint((x.choose(state, 0), o.choose(state, 1)))
        won = state.winner()
        assert cols["winner"][i] == (-1 if won is None else won)
        assert cols["turns"][i] == state.turn - 1
        counters = state.engine.core.counters()
        assert cols["swap_x"][i] == counters["uses"][0][2]


@pytest.mark.parametrize("search", SEARCHES, ids=lambda s: s.kind)
def test_the_search_does_not_read_hidden_objectives(search):
    """Two games that differ only in O's (hidden) hand: X's search chooses the same."""
    game = make_game()
    a = game.new_state(
        4,
        deal={
            "X": ["centre", "meta_line", "two_edges"],
            "O": ["four_sectors", "clean_sweep", "swap_win"],
        },
    )
    b = game.new_state(
        4,
        deal={
            "X": ["centre", "meta_line", "two_edges"],
            "O": ["centre_cells", "two_corners", "full_energy"],
        },
    )
    assert RiftBot(search, 7).choose(a, 0) == RiftBot(search, 7).choose(b, 0)
    rand = game.make_bot("random", 1)
    for _ in range(4):  # a few identical turns in which O's hand stays hidden
        move = rand.choose(a, 0), rand.choose(a, 1)
        a.apply_joint(move)
        b.apply_joint(move)
    hidden = all(not (acc or rev) for s in (a, b) for _, acc, rev in s.engine.core.hand(1))
    assert hidden and a.engine.core.score == b.engine.core.score
    assert RiftBot(search, 7).choose(a, 0) == RiftBot(search, 7).choose(b, 0)


def test_the_search_plays_legal_moves_and_checks_its_budget():
    game = make_game()
    state = game.new_state(11)
    bot = RiftBot(SMALL, 3)
    for _ in range(10):
        x = bot.choose(state, 0)
        assert state.legal_mask(0)[x]
        state.apply_joint((x, game.make_bot("random", 5).choose(state, 1)))
    with pytest.raises(ValueError):
        BotSpec("search")  # a search needs simulations
    with pytest.raises(ValueError):
        BotSpec("search", simulations=-1)
    with pytest.raises(ValueError):
        state.engine.core.choose(0, 3, 0.0, 1, 2_000_000)
    assert RiftBot("hard", 1).spec.to_dict() == {
        "kind": "search_cut",
        "error_rate": 0.0,
        "simulations": 1000,
    }
    with pytest.raises(ValueError):
        BotSpec("search_cut")  # so does the cut search
    cols = play_matches(None, SMALL, SMALL, np.arange(2, dtype=np.uint64))
    assert set(np.unique(cols["winner"])) <= {-1, 0, 1}
