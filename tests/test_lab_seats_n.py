"""The lab with three or four seats (issue 25, item 1): simulate, its command line,
sweep and tournament for a game whose GameType seats 2 to 4 players.

A tiny game, ``ring``, is registered for these tests only (as tests/test_lab_generic.py
does with ``coin``): its rule ``seats`` sets the number of players (not Doh's name, so
that nothing here leans on one game's vocabulary), and a ``strong`` bot is twice as
likely to win as a ``weak`` one.
"""

import argparse
import json

import numpy as np
import pytest

pytest.importorskip("pyarrow")

from lab_support import registered_game, run_simulate
from tictacblitz.lab import tournament
from tictacblitz.lab.seated import seatings
from tictacblitz.lab.simulation import simulate
from tictacblitz.lab.sweep import sweep

RING_GAME = '''
"""A ring of 2-4 seats: the winner is drawn by weight (strong 2, weak 1) from the seed;
a seed divisible by 10 is a draw."""
from dataclasses import asdict, dataclass, replace

import numpy as np

from tictacblitz.games.protocol import GameType, TimeModel

GAME_TYPE = GameType(name="ring", long_name="Ring", time_model=TimeModel.ALTERNATING,
                     seeded=True, min_num_players=2, max_num_players=4,
                     seat_names=("North", "East", "South", "West"))


@dataclass(frozen=True)
class RingRules:
    seats: int = 2
    tilt: int = 0  # no effect: a second rule for the A/B

    def __post_init__(self):
        if self.seats not in (2, 3, 4):
            raise ValueError(f"rules.seats={self.seats!r}: must be 2, 3 or 4")

    def to_dict(self):
        return asdict(self)


class RingGame:
    type = GAME_TYPE
    bot_names = ("weak", "strong")

    def __init__(self, rules=None):
        self.rules = rules or RingRules()

    @property
    def num_players(self):
        return self.rules.seats

    @property
    def seat_names(self):
        return GAME_TYPE.seat_names[: self.rules.seats]

    def with_rules(self, overrides):
        return RingGame(replace(self.rules, **dict(overrides)))


def make_game(rules=None):
    return RingGame().with_rules(rules or {})


def play_matches(rules, seat_bots, seeds):
    assert len(seat_bots) == rules.seats, (seat_bots, rules)
    seeds = np.asarray(seeds, dtype=np.uint64)
    u = (seeds >> np.uint64(11)).astype(np.float64) * 2.0**-53
    weights = np.array([2.0 if b == "strong" else 1.0 for b in seat_bots])
    edges = np.cumsum(weights) / weights.sum()
    winner = np.searchsorted(edges, u, side="right").astype(np.int8)
    winner[seeds % np.uint64(10) == 0] = -1
    return {"winner": winner, "moves": (seeds % np.uint64(7)).astype(np.int32)}
'''


@pytest.fixture
def ring(tmp_path):
    with registered_game(tmp_path, "ring", RING_GAME) as name:
        yield name


def test_simulate_three_seats_reports_every_seat(ring):
    res = simulate(600, rules={"seats": 3}, game=ring, workers=1, bots=("weak", "strong", "weak"))
    s = res.summary
    assert s["seat_keys"] == ["north", "east", "south"]
    assert "x_wins" not in s and "x_bot" not in s
    assert [s[f"{k}_bot"] for k in s["seat_keys"]] == ["weak", "strong", "weak"]
    assert sum(s[f"{k}_wins"] for k in s["seat_keys"]) + s["draws"] == 600
    # the strong seat wins about half the decided games: well above the fair third
    east = s["seat_advantage"]["east_share_of_decided"]
    assert 0.4 < east < 0.6 and s["seat_advantage"]["east_p_adjusted"] < 0.05
    assert s["seat_advantage"]["significant"] and s["seat_advantage"]["fair_share"] == 1 / 3
    lo, hi = s["east_win_ci"]
    assert lo < s["east_win_rate"] < hi
    assert set(res.table.column("winner").to_pylist()) <= {"North", "East", "South", "draw"}


def test_simulate_command_names_one_bot_a_seat(ring, capsys):
    base = ["simulate", "--no-progress", "--game", ring, "--matches", "40", "--workers", "1"]
    status, out, err = run_simulate(
        [*base, "--rule", "seats=4", "--seat", "west=strong", "--x", "strong", "--json"], capsys
    )
    assert status == 0, err
    s = json.loads(out)
    assert [s[f"{k}_bot"] for k in s["seat_keys"]] == ["strong", "weak", "weak", "strong"]
    status, out, err = run_simulate(
        [*base, "--rule", "seats=3", "--seat", "all=strong", "--seat", "2=weak", "--json"], capsys
    )
    s = json.loads(out)
    assert [s[f"{k}_bot"] for k in s["seat_keys"]] == ["strong", "weak", "strong"]
    status, out, err = run_simulate([*base, "--rule", "seats=3", "--seat", "3=strong"], capsys)
    assert status == 0 and "South = strong" not in out and "south = strong" in out
    assert "south's share of decided matches (fair: 33.3 %)" in out.replace("South", "south")
    for argv, message in (
        (
            ["--rule", "seats=3", "--seat", "west=strong"],
            "--seat west=strong: this run has 3 seats",
        ),
        (["--seat", "nobody=strong"], "--seat nobody=strong: unknown seat 'nobody'"),
        (
            ["--seat", "east=titan"],
            "--seat east='titan': unknown bot; expected one of weak, strong",
        ),
        (["--x", "strong", "--seat", "1=weak"], "seat North already has a bot (--x strong)"),
        (["--seat", "east"], "--seat 'east': expected NAME=BOT"),
    ):
        status, out, err = run_simulate([*base, *argv], capsys)
        assert status == 2 and out == "" and message in err, (argv, err)
        assert len(err.strip().splitlines()) == 1


def test_an_ab_keeps_the_run_s_seats(ring):
    s = simulate(200, rules={"seats": 3, "tilt": 1}, game=ring, workers=1, base={}).summary
    assert s["comparison"]["base_rules"] == {"seats": 3}  # the base seats three too
    assert "east_win_rate" in s["comparison"]["differences"]
    # the seats alone changed: the base would be the run itself, so no A/B
    assert "comparison" not in simulate(50, rules={"seats": 3}, game=ring, base={}).summary


def test_sweep_over_the_number_of_seats(ring):
    res = sweep({"seats": [2, 3, 4]}, matches=60, game=ring, workers=1, seats={1: "strong"})
    assert res.meta["bots"] == [
        ["weak", "strong"],
        ["weak", "strong", "weak"],
        ["weak", "strong", "weak", "weak"],
    ]
    metrics = {(r["seats"], r["metric"]) for r in res.rows}
    assert (2, "x_win_rate") in metrics and (4, "west_win_rate") in metrics
    assert (3, "east_share_of_decided") in metrics
    everyone = sweep({"seats": [2, 3]}, matches=20, game=ring, workers=1, seats={-1: "strong"})
    assert everyone.meta["bots"] == [["strong"] * 2, ["strong"] * 3]  # --seat all=strong
    with pytest.raises(ValueError, match="seat 4 has a bot, but a point of the sweep has 3"):
        sweep({"seats": [3, 4]}, matches=10, game=ring, workers=1, seats={3: "strong"})


def test_seatings_put_each_bot_alone_in_each_seat_once():
    rows = seatings("a", "b", 4)
    assert len(rows) == 8
    for bot, other in (("a", "b"), ("b", "a")):
        alone = [r for r in rows if r.count(bot) == 1]
        assert sorted(r.index(bot) for r in alone) == [0, 1, 2, 3]
        assert all(r.count(other) == 3 for r in alone)


def test_tournament_with_three_seats(ring, capsys):
    result = tournament.run_tournament(
        ["weak", "strong"], 100, seed=2, game=ring, rules={"seats": 3}
    )
    assert result["players"] == 3 and result["matches"] == 102  # 6 seatings x 17 seeds
    (pair,) = result["pairs"]
    assert pair["a_alone_games"] == pair["b_alone_games"] == 51
    assert pair["a_wins"] + pair["b_wins"] + pair["draws"] == 102
    # weak alone against two strong: weight 1 of 5; strong alone: 2 of 4
    weak, strong = result["seated"]["alone"]["weak"], result["seated"]["alone"]["strong"]
    assert weak["share"] < 1 / 3 < strong["share"]
    assert weak["ci"][0] < weak["share"] < weak["ci"][1]
    assert result["elo"]["strong"] > result["elo"]["weak"]
    # the seat's share over all seatings: bot strength cancels, each seat near a third
    seats = result["seated"]["seats"]
    assert set(seats) == {"North", "East", "South"}
    assert sum(v["wins"] for v in seats.values()) == pair["a_wins"] + pair["b_wins"]
    text = tournament.format_report(result)
    assert "6 seatings" in text and "alone in one seat against 2 copies" in text
    again = tournament.run_tournament(
        ["weak", "strong"], 100, seed=2, game=ring, rules={"seats": 3}, jobs=2
    )
    assert again["pairs"] == result["pairs"]  # the same whatever the threads


def test_tournament_command_with_three_seats(ring, capsys):
    parser = argparse.ArgumentParser(prog="tictacblitz")
    tournament.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(
        [
            "tournament",
            "--game",
            ring,
            "--rule",
            "seats=3",
            "--matches",
            "12",
            "--no-progress",
            "--yes",
            "--json",
        ]
    )
    assert args.handler(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["players"] == 3 and out["matches"] == 12
    assert np.isclose(out["seated"]["fair_share"], 1 / 3)


def test_precision_takes_the_run_s_seats(ring, capsys):
    from tictacblitz.lab.cost import parse_precision

    keys = ("north", "east", "south")
    assert parse_precision("east_win_rate=0.05", ring, keys) == ("east_win_rate", 0.05)
    with pytest.raises(ValueError, match="unknown metric 'x_win_rate'"):
        parse_precision("x_win_rate=0.05", ring, keys)
    base = ["simulate", "--no-progress", "--game", ring, "--matches", "3000", "--workers", "1"]
    status, out, err = run_simulate(
        [*base, "--rule", "seats=3", "--precision", "south_share_of_decided=0.05"], capsys
    )
    assert status == 0, err
    assert "precision: south_share_of_decided 95 % half-width" in out and ": met)" in out
