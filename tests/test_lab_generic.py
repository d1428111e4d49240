"""The lab is game-agnostic: simulate, sweep and tournament run any registered game
through the registry and its balance hooks (docs/simulate.md, "A game's balance hooks").

A tiny game, ``coin``, is registered for these tests only (a folder added to the games
package's path, found by the real registry); it defines nothing but the protocol's
basics and ``play_matches``, so every hook default of the lab is exercised. The games
of the repository (Tic Tac Doh, Rift & Grid) go through the same code path.
"""

import argparse
import json
import os

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")

from lab_support import registered_game  # noqa: E402
from tictacblitz.games import registry  # noqa: E402
from tictacblitz.lab import hooks as lab_hooks  # noqa: E402
from tictacblitz.lab import simulate_command as sim  # noqa: E402
from tictacblitz.lab import sweep as sw  # noqa: E402
from tictacblitz.lab import tournament  # noqa: E402
from tictacblitz.lab.seeds import match_seeds  # noqa: E402
from tictacblitz.lab.simulation import simulate  # noqa: E402

COIN_GAME = '''
"""A coin-flip game for the lab's tests: seat 0 wins when the seed's top bits fall
below ``bias``; a seed divisible by 10 is a draw."""
from dataclasses import asdict, dataclass, replace

import numpy as np

from tictacblitz.games.protocol import GameType, TimeModel

GAME_TYPE = GameType(name="coin", long_name="Coin Flip", time_model=TimeModel.ALTERNATING,
                     seeded=True)


@dataclass(frozen=True)
class CoinRules:
    bias: float = 0.5
    length: int = 3

    def __post_init__(self):
        if not 0 <= self.bias <= 1:
            raise ValueError(f"rules.bias={self.bias!r}: must be from 0 to 1")

    def to_dict(self):
        return asdict(self)


class CoinGame:
    type = GAME_TYPE
    bot_names = ("fair", "cheat")

    def __init__(self, rules=None):
        self.rules = rules or CoinRules()

    def with_rules(self, overrides):
        unknown = set(overrides) - set(CoinRules.__dataclass_fields__)
        if unknown:
            raise ValueError(f"unknown rule {sorted(unknown)[0]!r}")
        return CoinGame(replace(self.rules, **dict(overrides)))


def make_game(rules=None):
    return CoinGame().with_rules(rules or {})


def play_matches(rules, seat_bots, seeds):
    x_bot, o_bot = seat_bots
    seeds = np.asarray(seeds, dtype=np.uint64)
    u = (seeds >> np.uint64(11)).astype(np.float64) * 2.0**-53
    bias = rules.bias + (0.25 if x_bot == "cheat" else 0) - (0.25 if o_bot == "cheat" else 0)
    winner = np.where(u < bias, 0, 1).astype(np.int8)
    winner[seeds % np.uint64(10) == 0] = -1
    moves = (seeds % np.uint64(7)).astype(np.int32) + rules.length
    pair = np.stack([moves, 2 * moves], axis=1)
    return {"winner": winner, "moves": moves, "pair": pair}
'''


@pytest.fixture
def coin(tmp_path):
    """Register the ``coin`` game for one test (the registry finds its folder)."""
    with registered_game(tmp_path, "coin", COIN_GAME) as name:
        yield name


def expected_winners(seed, n, bias=0.5):
    seeds = match_seeds(seed, 0, n)
    u = (seeds >> np.uint64(11)).astype(np.float64) * 2.0**-53
    w = np.where(u < bias, 0, 1)
    w[seeds % np.uint64(10) == 0] = -1
    return w


def run(module, argv, capsys):
    parser = argparse.ArgumentParser(prog="tictacblitz")
    module.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    status = args.handler(args)
    out = capsys.readouterr()
    return status, out.out, out.err


def test_simulate_any_game_through_the_hook_defaults(coin):
    a = simulate(300, seed=3, game="coin", workers=1, chunk_size=300)
    b = simulate(300, seed=3, game="coin", workers=2, chunk_size=7)
    assert a.table.equals(b.table)
    assert a.table.column_names == ["match", "seed", "winner", "moves", "pair_x", "pair_o"]
    w = expected_winners(3, 300)
    s = a.summary
    assert (s["x_wins"], s["o_wins"], s["draws"]) == (
        int((w == 0).sum()),
        int((w == 1).sum()),
        int((w == -1).sum()),
    )
    assert a.table["winner"].to_pylist() == [("X", "O", "draw")[int(v)] for v in w]
    assert s["game"] == "coin" and s["x_bot"] == "fair" and s["x_spec"] == {"name": "fair"}
    lo, hi = s["x_win_ci"]
    assert lo <= s["x_win_rate"] <= hi
    assert "rounds" not in s and "powerups" not in s  # no Blitz metric leaks in
    moves = a.table["moves"].to_numpy()
    assert s["columns"]["moves"]["mean"] == pytest.approx(moves.mean())
    assert s["columns"]["pair_o"]["total"] == 2 * int(moves.sum())
    assert set(s["columns"]) == {"moves", "pair_x", "pair_o"}
    from tictacblitz.lab.report import format_summary, metric_rows

    text = format_summary(s)
    assert "Coin Flip" in text and "moves a match: mean [95 % interval]" in text
    assert [r["metric"] for r in metric_rows(s)] == [
        "x_win_rate",
        "o_win_rate",
        "draw_rate",
        "x_share_of_decided",
        "moves_mean",
        "pair_x_mean",
        "pair_o_mean",
        "matches_per_s",
    ]
    cheat = simulate(300, "cheat", "fair", {"bias": 0.5}, seed=3, game="coin", workers=1).summary
    assert cheat["x_wins"] > s["x_wins"] and cheat["rules"] == {}
    assert simulate(20, game="coin", rules={"bias": 0.9}, workers=1).summary["rules"] == {
        "bias": 0.9
    }


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"game": "nosuchgame"}, "unknown game"),
        ({"game": "coin", "x": "greedy"}, "unknown bot 'greedy'"),
        ({"game": "coin", "rules": {"bias": 2}}, "bias"),
        ({"game": "coin", "rules": {"speed": 2}}, "unknown rule"),
    ],
)
def test_bad_arguments_name_the_game_s_facts(coin, kwargs, message):
    with pytest.raises(ValueError, match=message):
        simulate(10, workers=1, **kwargs)


def test_simulate_command_takes_game_and_rule(coin, capsys, tmp_path):
    out = tmp_path / "r.csv"
    status, stdout, _ = run(
        sim,
        [
            "simulate",
            "--game",
            "coin",
            "--rule",
            "bias=0.8",
            "--matches",
            "100",
            "--seed",
            "2",
            "--out",
            str(out),
            "--json",
            "--no-progress",
        ],
        capsys,
    )
    assert status == 0
    s = json.loads(stdout)
    assert s["game"] == "coin" and s["rules"] == {"bias": 0.8}
    assert s["x_wins"] == int((expected_winners(2, 100, 0.8) == 0).sum())
    assert out.read_text().splitlines()[0] == '"match","seed","winner","moves","pair_x","pair_o"'
    for argv, message in (
        (["--game", "nosuch"], "--game: unknown game 'nosuch'"),
        (["--game", "coin", "--x", "greedy"], "--x 'greedy': unknown bot"),
        (["--game", "coin", "--rule", "bias=3"], "--rule: rules.bias=3"),
    ):
        status, stdout, err = run(sim, ["simulate", "--no-progress", *argv], capsys)
        assert status == 2 and stdout == "" and message in err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_sweep_any_game(coin, tmp_path):
    res = sw.sweep(
        {"bias": [0.2, 0.8]},
        matches=200,
        seed=1,
        game="coin",
        workers=1,
        out_dir=str(tmp_path / "out"),
    )
    shares = {r["bias"]: r["value"] for r in res.rows if r["metric"] == "x_win_rate"}
    assert shares[0.2] < shares[0.8]
    assert res.meta["game"] == "coin"
    assert sorted(os.listdir(tmp_path / "out")) == [
        "report.html",
        "sweep.csv",
        "sweep.json",
        "sweep.parquet",
        "sweep_bias.png",
    ]
    assert "Coin Flip" in (tmp_path / "out" / "report.html").read_text()
    assert set(sw.sweepable("coin")) == {"bias", "length"}
    with pytest.raises(ValueError, match="sweep point bias=1.5"):
        sw.sweep({"bias": [0.5, 1.5]}, matches=10, game="coin", workers=1)


def test_tournament_any_game(coin, capsys):
    result = tournament.run_tournament(None, matches=40, seed=1, game="coin")
    assert result["game"] == "coin" and list(result["bots"]) == ["fair", "cheat"]
    pair = result["pairs"][0]
    assert pair["a_wins"] + pair["b_wins"] + pair["draws"] == 40
    assert result["elo"]["cheat"] > result["elo"]["fair"]
    assert "mean_rounds" not in pair
    status, stdout, _ = run(
        tournament, ["tournament", "--game", "coin", "--matches", "10", "--json"], capsys
    )
    assert status == 0 and json.loads(stdout)["game"] == "coin"
    status, _, err = run(
        tournament, ["tournament", "--game", "coin", "--bots", "fair,greedy"], capsys
    )
    assert status == 2 and "unknown bot 'greedy'" in err


@pytest.mark.parametrize("game", [g for g in registry.available_games() if g != "blitz"])
def test_every_other_registered_game_simulates_through_the_same_path(game):
    """Tic Tac Doh and Rift & Grid (once in the registry) with their own ``play_matches``."""
    hooks = lab_hooks.hooks_for(game)
    assert hooks.get("play_matches") is not None, f"{game} has no native batch runner"
    a = simulate(40, seed=5, game=game, workers=2, chunk_size=7)
    b = simulate(40, seed=5, game=game, workers=1)
    assert a.table.equals(b.table)
    s = a.summary
    assert s["game"] == game and s["matches"] == 40 == s["x_wins"] + s["o_wins"] + s["draws"]
    assert a.table.column_names[:3] == ["match", "seed", "winner"]
    t = tournament.run_tournament(list(hooks.bot_names[:2]), matches=6, seed=1, game=game)
    assert sum(t["pairs"][0][k] for k in ("a_wins", "b_wins", "draws")) == 6


def test_sweep_and_tournament_commands_take_game_and_rule(coin, capsys, tmp_path):
    status, stdout, err = run(
        sw,
        [
            "sweep",
            "--game",
            "coin",
            "--grid",
            "bias=0.3,0.7",
            "--matches",
            "50",
            "--out",
            str(tmp_path / "s"),
            "--json",
            "--no-progress",
        ],
        capsys,
    )
    assert status == 0, err
    assert {r["bias"] for r in json.loads(stdout)} == {0.3, 0.7}
    status, _, err = run(
        sw,
        ["sweep", "--game", "coin", "--grid", "set_ms=1:2:1", "--out", str(tmp_path / "t")],
        capsys,
    )
    assert status == 2 and "unknown rule 'set_ms'; sweepable: bias, length" in err
    for argv, message in (
        (["--game", "nosuch"], "--game: unknown game 'nosuch'"),
        (["--rule", "max_rounds=17"], "max_rounds"),
        (["--rule", "bias=0.5"], "--rule: unknown rule 'bias'"),
    ):
        status, stdout, err = run(tournament, ["tournament", "--matches", "2", *argv], capsys)
        assert status == 2 and stdout == "" and message in err and err.count("\n") == 1
    status, stdout, _ = run(
        tournament,
        [
            "tournament",
            "--bots",
            "greedy,random",
            "--matches",
            "4",
            "--rule",
            "round_ms=20000",
            "--json",
        ],
        capsys,
    )
    result = json.loads(stdout)
    assert status == 0 and result["rules"] == {"round_ms": 20000} and result["game"] == "blitz"
