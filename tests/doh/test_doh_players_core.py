"""The native core with three and four players (D9, D10): turn order, who goes out, the
bytes, and play_matches' per-seat bots and kingmaking column against a plain-Python
recount over the same games."""

from __future__ import annotations

import numpy as np
import pytest

from blitz_core.doh.engine import Position, random_games
from tictacblitz.games import load_game
from tictacblitz.games.doh.bots import make_bot, play_matches
from tictacblitz.games.doh.rules import DohRules


def _play_random(position: Position, rng: np.random.Generator) -> list:
    """Random legal moves to the end; the positions before each move."""
    before = []
    while not position.over:
        before.append(position.clone())
        position.play(int(rng.choice(np.flatnonzero(position.legal_mask()))))
    return before


@pytest.mark.parametrize("players", [2, 3, 4])
def test_turns_go_round_the_seats_in_order(players):
    rng = np.random.default_rng(players)
    for _ in range(50):
        position = Position(DohRules(players=players).native_params())
        for ply, before in enumerate(_play_random(position, rng)):
            assert before.to_move == ply % players  # D10: nobody is out mid-game (D9)
        assert position.ply >= 3


@pytest.mark.parametrize("players", [3, 4])
def test_a_stuck_table_puts_every_other_seat_out_in_turn(players):
    seen = 0
    rng = np.random.default_rng(7)
    for _ in range(3000):
        position = Position(DohRules(pieces_per_size=6, players=players).native_params())
        _play_random(position, rng)
        if position.winner is None or position.lines():
            assert position.out == ()  # a draw (D8) or a line (D7): nobody went out
            continue
        seen += 1  # D9: the last mover wins; the others went out from the next seat on
        last = (position.ply - 1) % players
        assert position.winner == last
        assert position.out == tuple((last + k) % players for k in range(1, players))
    assert seen > 0


def test_two_player_positions_keep_their_bytes_and_keys():
    position = Position(DohRules().native_params())
    position.play(25 + 12)
    data = position.to_bytes()
    assert data[3] == 1 and len(data) == 18  # version 1: what two players always wrote
    assert position.key() == (2 << 4 * 0) | (5 << 36) | (4 << 39) | (5 << 42)
    for players in (3, 4):
        rules = DohRules(pieces_per_size=10, players=players).native_params()
        many = Position(rules)
        many.play(50 + 12)
        again = Position.from_bytes(many.to_bytes())
        assert again == many and again.players == players and again.stash == (10, 10, 9)
        assert Position.from_key(many.key(), rules) == many


def test_bad_numbers_are_refused_by_name():
    with pytest.raises(ValueError, match="players must be from 2 to 4, not 5"):
        Position((5, 3, 5))
    with pytest.raises(ValueError, match="pieces_per_size must be from 1 to 10, not 11"):
        Position((11, 3, 2))
    with pytest.raises(
        ValueError, match=r"rules.players=5: must be an integer from 2 to 4 \(D10\)"
    ):
        DohRules(players=5)
    assert DohRules(players=4, pieces_per_size=10).total_pieces == 30


def test_random_games_count_every_seat():
    moves, draws, *wins = random_games(DohRules(players=3).native_params(), 3000, 1)
    assert len(wins) == 3 and draws + sum(wins) == 3000 and min(wins) > 500


def test_the_state_names_seats_and_shares_returns():
    game = load_game("doh", {"players": 3})
    assert game.num_players == 3 and game.seat_names == ("first", "second", "third")
    state = game.new_state()
    with pytest.raises(ValueError, match="expected 0 \\(first\\), 1 \\(second\\), 2 \\(third\\)"):
        state.legal_mask(3)
    rng = np.random.default_rng(3)
    while not state.is_over():
        (seat,) = state.to_move()
        assert state.apply(seat, int(rng.choice(state.legal_actions(seat)))) is None
    returns = state.returns()
    assert len(returns) == 3 and sum(returns) == pytest.approx(0.0)
    if state.winner() is not None:
        assert returns[state.winner()] == 1.0 and sorted(returns)[0] == -0.5


def _recount_kingmade(rules: DohRules, bots, seed: int) -> tuple:
    """The same game in Python (make_bot plays what the native loop plays), and the
    kingmaking test recomputed on the positions through the Position API."""
    position = Position(rules.native_params())
    players = [make_bot(name, seed) for name in bots]
    history = []
    while not position.over:
        history.append(position.clone())
        position.play(players[position.to_move].choose(position, position.to_move))
    if rules.players < 3 or not position.lines() or position.ply < 2:
        return position.winner, 0
    before = history[-2]  # the loser who moved just before the winner

    def stops_it(action: int) -> bool:
        child = before.clone()
        child.play(action)
        return child.over or not child.winning_actions()

    return position.winner, int(any(stops_it(a) for a in np.flatnonzero(before.legal_mask())))


@pytest.mark.parametrize("players", [3, 4])
def test_kingmaking_is_what_a_recount_finds(players):
    rules = DohRules(players=players)
    bots = ["greedy", "random", "easy", "random"][:players]
    seeds = np.arange(300, dtype=np.uint64)
    cols = play_matches(rules, bots, seeds)
    recount = [_recount_kingmade(rules, bots, int(s)) for s in seeds]
    assert cols["winner"].tolist() == [-1 if w is None else w for w, _ in recount]
    assert cols["kingmade"].tolist() == [k for _, k in recount]
    assert 0 < cols["kingmade"].sum() < len(seeds)


def test_play_matches_wants_one_bot_per_seat():
    with pytest.raises(ValueError, match="one bot per seat: 3 names for players=3"):
        play_matches(DohRules(players=3), ["random", "random"], np.arange(3))
