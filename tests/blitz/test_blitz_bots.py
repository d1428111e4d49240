"""Bots: each greedy rule in a constructed position, search in forced positions, the
Python loop against the native one, determinism, and bad input (docs/bots.md)."""

import numpy as np
import pytest

from blitz_core.blitz.bots import SEAT_SALTS
from tictacblitz import Action, Match, Player, Rules
from tictacblitz.games.blitz.bots import (
    BOT_NAMES,
    PRESETS,
    Bot,
    BotSpec,
    Decision,
    drive,
    make_bot,
    match_records,
    play_match,
    play_matches,
)

E = "......"


def scenario(setup, rules=None, seed=1):
    return Match(rules or Rules(), seed=seed, setup=setup, random_powerups=False)


def greedy_decision(match, seat="X", **overrides):
    return make_bot("greedy", seed=5, **overrides).decide(match, seat)


# -- greedy: one scenario per rule ---------------------------------------------------------


def test_knocks_out_the_unset_last_mark_of_a_four():
    match = scenario([E, E, E, "OOO...", E, "X....."])
    match.act(Player.O, Action.place((3, 3)))
    match.advance(1)
    d = greedy_decision(match)
    assert (d.action, d.rule) == (Action.knockout((3, 3)), "ko_four")


def test_knocks_out_a_mark_giving_three_in_an_open_window():
    match = scenario([E, E, "OO....", E, E, "X....."])
    match.act(Player.O, Action.place((2, 2)))
    match.advance(1)
    d = greedy_decision(match)
    assert (d.action, d.rule) == (Action.knockout((2, 2)), "ko_three")


def test_no_knockout_when_the_window_holds_an_own_mark():
    # The three are boxed in by X marks: no room for a fourth, no knock-out.
    match = scenario([E, E, "XOO.X.", E, E, E])
    match.act(Player.O, Action.place((2, 3)))
    match.advance(1)
    d = greedy_decision(match)
    assert d.action.kind.name == "PLACE"


def test_leaves_lone_marks_alone():
    match = scenario([E, E, E, E, E, "X....."])
    match.act(Player.O, Action.place((3, 3)))
    match.advance(1)
    d = greedy_decision(match)
    assert d.action.kind.name == "PLACE" and d.rule == "build"


def test_builds_from_set_marks_rather_than_setting_ones():
    match = scenario([E, E, E, E, "XX....", E])
    match.act(Player.X, Action.place((1, 0)))
    match.advance(450)
    match.act(Player.X, Action.place((1, 1)))
    match.advance(450)
    d = greedy_decision(match)
    assert d.rule == "build"
    assert d.action.cell in {(4, 2), (4, 3)}


def test_places_on_a_cell_that_completes_a_line_of_set_marks():
    match = scenario(["XXX...", E, E, E, E, "O....."])
    d = greedy_decision(match)
    assert (d.action, d.rule) == (Action.place((0, 3)), "threat")


def test_keeps_several_threats():
    # One threat is already being filled (setting); the next mark goes to another.
    match = scenario(["XXX...", "XXX...", E, E, E, "O....."])
    match.act(Player.X, Action.place((0, 3)))
    match.advance(450)
    d = greedy_decision(match)
    assert d.rule == "threat" and d.action.cell in {(1, 3), (2, 3)}


def test_blocks_three_set_marks_with_a_mark():
    match = scenario([E, E, E, "OOO...", E, "X....."])
    d = greedy_decision(match)
    assert (d.action, d.rule) == (Action.place((3, 3)), "block")


@pytest.mark.parametrize("kind", ["freeze", "haste"])
def test_claims_freeze_or_haste_when_one_or_two_from_a_line(kind):
    match = scenario(["XX....", E, E, E, E, "O....."])
    assert match.spawn_powerup(kind, (5, 5))
    d = greedy_decision(match)
    assert (d.action, d.rule) == (Action.place((5, 5)), "powerup")


@pytest.mark.parametrize("kind", ["freeze", "haste"])
def test_ignores_freeze_or_haste_far_from_a_line(kind):
    match = scenario([E, E, E, E, E, "O....."])
    assert match.spawn_powerup(kind, (5, 5))
    d = greedy_decision(match)
    assert d.rule == "build" and d.action.cell != (5, 5)


def test_claims_a_bomb_touching_two_opponent_set_marks():
    match = scenario([E, E, "..OO..", E, E, "X....."])
    assert match.spawn_powerup("bomb", (1, 2))
    d = greedy_decision(match)
    assert (d.action, d.rule) == (Action.place((1, 2)), "powerup")


def test_ignores_a_bomb_touching_one_opponent_set_mark():
    match = scenario([E, E, "..O...", E, E, "X....."])
    assert match.spawn_powerup("bomb", (0, 5))
    d = greedy_decision(match)
    assert d.rule != "powerup"


def test_claims_a_swap_next_to_set_marks():
    match = scenario([E, E, "..O...", E, E, "X....."])
    assert match.spawn_powerup("swap", (1, 1))
    d = greedy_decision(match)
    assert (d.action, d.rule) == (Action.place((1, 1)), "powerup")


# Eight X marks (the limit): the oldest, (0,0), sits in a window with (0,1), free of O.
AT_LIMIT = ["XX....", "....X.", "X.....", "...X..", ".X...X", "....X."]


def test_checks_the_mark_to_retire_before_a_ninth_placement():
    match = scenario(AT_LIMIT)
    assert match.status("X").next_to_retire == (0, 0)
    match.act(Player.O, Action.place((3, 0)))
    match.advance(1)
    d = greedy_decision(match)
    assert (d.action, d.rule) == (Action.knockout((3, 0)), "retire_guard")


def test_places_a_ninth_mark_when_the_oldest_is_not_needed():
    setup = [".X....", "....X.", "X.....", "...X..", ".X...X", "....XX"]  # oldest (0,1) alone
    match = scenario(setup)
    match.act(Player.O, Action.place((3, 0)))
    match.advance(1)
    d = greedy_decision(match)
    assert d.action.kind.name == "PLACE"


def test_error_rate_plays_a_random_legal_action():
    match = scenario([E, E, E, "OOO...", E, "X....."])
    d = greedy_decision(match, error_rate=1.0)
    assert d.rule == "error" and match.check(Player.X, d.action) is None


def test_random_bot_plays_legal_actions():
    match = Match(Rules(), seed=4)
    d = make_bot("random", seed=1).decide(match, "O")
    assert d.rule == "random" and match.check(Player.O, d.action) is None


# -- the bot interface: timing -------------------------------------------------------------


def test_reaction_delay_and_next_t():
    bot = make_bot("greedy", reaction_ms=200, seed=1)
    match = Match(Rules(powerup_max=0), seed=2)
    d = bot.decide(match, "X")
    assert d == Decision(None, 200)  # full since 0, acts at 200
    match.advance_to(200)
    d = bot.decide(match, "X")
    assert d.action is not None and d.next_t == 201
    assert match.act(Player.X, d.action) is None
    match.advance(1)
    d = bot.decide(match, "X")  # refill 450 ms, then 200 ms
    assert d.action is None and d.next_t == 200 + 450 + 200


def test_bots_satisfy_the_protocol():
    for name in BOT_NAMES:
        assert isinstance(make_bot(name), Bot)


# -- search --------------------------------------------------------------------------------


def test_search_finds_a_forced_win():
    # O just knocked out and is charged only at 1501; marks set in 1000 ms. X's mark in
    # the gap now sets at 1450 and wins; any other action first comes too late.
    match = scenario(
        ["XXX...", E, E, E, E, "O....."], Rules(set_ms=1000, recharge_knockout_ms=1500)
    )
    match.act(Player.X, Action.place((5, 5)))
    match.advance(1)
    match.act(Player.O, Action.knockout((5, 5)))
    match.advance_to(450)
    for seed in range(3):
        d = make_bot("search", seed=seed).decide(match, "X")
        assert d.action == Action.place((0, 3)) and d.simulations > 0


def test_search_blocks_a_forced_loss_by_knocking_out():
    # O's last mark sets at 1600; a placement now would leave X uncharged until 1750.
    match = scenario([E, E, E, "OOO...", E, "X....."])
    match.act(Player.O, Action.place((3, 3)))
    match.advance_to(1300)
    for seed in range(3):
        assert make_bot("search", seed=seed).decide(match, "X").action == Action.knockout((3, 3))


def test_search_blocks_a_forced_loss_by_placing():
    # Without craters and with a 3 s knock-out refill, knocking O's marks out one by one
    # fails: X must fill the gap.
    match = scenario(
        [E, E, E, "OOO...", E, "X....."], Rules(crater_ms=0, recharge_knockout_ms=3000)
    )
    for seed in range(3):
        assert make_bot("search", seed=seed).decide(match, "X").action == Action.place((3, 3))


# -- whole matches -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "x_bot,o_bot,rules",
    [
        ("random", "greedy", Rules()),
        ("easy", "medium", Rules()),
        ("search", "hard", Rules()),
        # Instant and 1-ms refills with reaction delays: the bots time their reaction from
        # the state's charge_full_since, so even here they need no memory of earlier calls.
        ("easy", "hard", Rules(recharge_place_ms=0, recharge_knockout_ms=1, round_ms=5000)),
        ("medium", "easy", Rules(recharge_place_ms=1, recharge_knockout_ms=0, round_ms=5000)),
    ],
)
def test_python_loop_plays_the_native_match(x_bot, o_bot, rules):
    for seed in (3, 4):
        record = play_match(rules, x_bot, o_bot, seed)
        match = drive(
            Match(rules, seed=seed),
            make_bot(x_bot, seed=seed ^ SEAT_SALTS[0]),
            make_bot(o_bot, seed=seed ^ SEAT_SALTS[1]),
        )
        got = [r.to_dict() for r in match.rounds]
        assert [{k: r[k] for k in ("round", "result", "by", "end_t")} for r in got] == record[
            "round_results"
        ]
        assert {"X": match.round_wins[0], "O": match.round_wins[1]} == record["round_wins"]


def test_match_record_counts():
    record = play_match(Rules(), "greedy", "random", 11)
    assert record["winner"] == "X" and record["round_wins"]["X"] == Rules().rounds_to_win
    x = record["X"]
    assert x["placements"] + x["knockouts"] + x["rejected"] == sum(
        n for rule, n in x["rules"].items() if rule != "none"
    )
    assert set(x["powerups"]) == {"bomb", "freeze", "haste", "swap"}
    assert len(record["round_results"]) == record["rounds"]


def test_matches_are_deterministic_per_seed():
    a = match_records(play_matches(None, "search", "medium", [1, 2, 3]), [1, 2, 3])
    b = match_records(play_matches(None, "search", "medium", [1, 2, 3]), [1, 2, 3])
    assert a == b
    c = match_records(play_matches(None, "search", "medium", [4, 5, 6]), [4, 5, 6])
    assert a != c


def test_greedy_beats_random():
    out = play_matches(None, "greedy", "random", range(20))
    assert (out["winner"] == 0).sum() == 20


# -- bad input -----------------------------------------------------------------------------


def test_bad_input():
    with pytest.raises(ValueError, match="unknown bot 'nope'"):
        make_bot("nope")
    with pytest.raises(ValueError, match="error_rate"):
        make_bot("greedy", error_rate=1.5)
    with pytest.raises(ValueError, match="reaction_ms"):
        make_bot("greedy", reaction_ms=-1)
    with pytest.raises(ValueError, match="unknown bot kind"):
        make_bot(BotSpec("minimax"))
    with pytest.raises(TypeError):
        make_bot(3)
    with pytest.raises(TypeError):
        play_match(None, "greedy", "random", seed="1")
    with pytest.raises(ValueError):
        make_bot("greedy").decide(Match(), "Z")


def test_presets_are_one_table():
    assert set(BOT_NAMES) == {"random", "greedy", "search", "strong", "easy", "medium", "hard"}
    assert make_bot("hard").spec == PRESETS["hard"]


def test_play_matches_gives_one_row_a_match_as_every_games_runner():
    """Issue 27, item 2: Blitz's one runner has the shape of Doh's and Rift's (a dict of
    NumPy columns, one row a match, ``winner`` 0 X, 1 O, -1 draw)."""
    from tictacblitz.games.doh.game import play_matches as doh_matches
    from tictacblitz.games.rift.game import play_matches as rift_matches

    seeds = np.arange(6, dtype=np.uint64)
    for cols in (
        play_matches(None, "greedy", "random", seeds),
        rift_matches(None, "greedy", "random", seeds),
        doh_matches(None, "random", "random", seeds),
    ):
        assert cols and all(
            isinstance(col, np.ndarray) and col.shape[0] == len(seeds) for col in cols.values()
        ), {name: type(col) for name, col in cols.items()}
        assert set(cols["winner"].tolist()) <= {-1, 0, 1}


def test_a_drawn_match_is_minus_one_in_the_columns_and_draw_in_its_record():
    # Two rounds, two to win: 1-1 after both is a draw (R22); random play draws often.
    seeds = list(range(60))
    cols = play_matches(Rules(max_rounds=2, rounds_to_win=2), "random", "random", seeds)
    records = match_records(cols, seeds)
    drawn = cols["winner"] == -1
    assert drawn.any() and not drawn.all()
    assert [r["winner"] == "draw" for r in records] == drawn.tolist()
    assert all(
        r["round_wins"]["X"] == r["round_wins"]["O"] for r in records if r["winner"] == "draw"
    )
