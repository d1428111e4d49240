"""The lab and the command line run the fourth game (docs/simulate.md): simulate (its API
and its command), a tournament, demo and replay, through the game's ``play_matches`` and
the lab's defaults for every other hook."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("pyarrow")

from fourth_game_folders import GAME

from tictacblitz.cli import main
from tictacblitz.games import load_game
from tictacblitz.lab import tournament
from tictacblitz.lab.seeds import match_seeds
from tictacblitz.lab.simulation import simulate


def runner():
    """The game's own batch runner, as its folder defines it."""
    from tictacblitz.games.tictactoe.game import play_matches

    return play_matches


def run(argv, capsys):
    """``tictacblitz ARGV``, in this process: (exit status, stdout, stderr)."""
    status = main(argv)
    out = capsys.readouterr()
    return status, out.out, out.err


def test_the_lab_finds_the_adapter_by_its_folder() -> None:
    from tictacblitz.lab.hooks import hooks_for

    adapter = hooks_for(GAME)
    assert type(adapter).__module__ == f"tictacblitz.lab.games.{GAME}"
    assert adapter.default_bot == "random" and adapter.tournament_bots == ("random", "greedy")
    assert adapter.sweepable() == {}  # its one rule is a bool: nothing to sweep


def test_simulate_counts_what_the_game_s_runner_plays() -> None:
    one = simulate(200, "greedy", "random", seed=3, game=GAME, workers=1, chunk_size=200)
    two = simulate(200, "greedy", "random", seed=3, game=GAME, workers=2, chunk_size=9)
    assert one.table.equals(two.table)
    assert one.table.column_names == ["match", "seed", "winner", "plies"]
    direct = runner()(None, ("greedy", "random"), match_seeds(3, 0, 200))
    s = one.summary
    assert (s["x_wins"], s["o_wins"], s["draws"]) == tuple(
        int((direct["winner"] == w).sum()) for w in (0, 1, -1)
    )
    assert s["game"] == GAME and s["x_bot"] == "greedy" and s["o_bot"] == "random"
    assert s["columns"]["plies"]["mean"] == pytest.approx(direct["plies"].mean())
    assert s["x_wins"] > s["o_wins"]  # greedy X beats random O


def test_a_rule_reaches_the_runner() -> None:
    normal = simulate(200, "greedy", "random", seed=1, game=GAME, workers=1).summary
    misere = simulate(200, "greedy", "random", {"misere": True}, seed=1, game=GAME, workers=1)
    assert misere.summary["rules"] == {"misere": True}
    direct = runner()({"misere": True}, ("greedy", "random"), match_seeds(1, 0, 200))
    assert misere.summary["x_wins"] == int((direct["winner"] == 0).sum())
    assert misere.summary["x_wins"] < normal["x_wins"]  # a line now loses (T3)


def test_the_simulate_command(capsys, tmp_path) -> None:
    out = tmp_path / "r.csv"
    argv = ["simulate", "--game", GAME, "--rule", "misere=true", "--matches", "60"]
    argv += ["--seed", "2", "--x", "random", "--o", "greedy", "--out", str(out)]
    status, stdout, _ = run([*argv, "--json", "--no-progress"], capsys)
    assert status == 0
    s = json.loads(stdout)
    assert s["game"] == GAME and s["rules"] == {"misere": True} and s["matches"] == 60
    winners = runner()({"misere": True}, ("random", "greedy"), match_seeds(2, 0, 60))["winner"]
    assert s["o_wins"] == int((winners == 1).sum())
    assert out.read_text().splitlines()[0] == '"match","seed","winner","plies"'
    for bad, words in (
        (["--x", "minimax"], "--x 'minimax': unknown bot"),
        (["--rule", "size=4"], "unknown rule 'size'"),
        (["--rule", "misere=2"], "rules.misere=2"),
    ):
        status, stdout, err = run(["simulate", "--game", GAME, *bad], capsys)
        assert status == 2 and stdout == "" and words in err, err
        assert err.count("\n") == 1


def test_a_tournament_ranks_greedy_above_random(capsys) -> None:
    result = tournament.run_tournament(None, matches=40, seed=1, game=GAME)
    assert result["game"] == GAME and list(result["bots"]) == list(load_game(GAME).bot_names)
    pair = result["pairs"][0]
    assert pair["a_wins"] + pair["b_wins"] + pair["draws"] == 40
    assert result["elo"]["greedy"] > result["elo"]["random"]
    status, stdout, _ = run(["tournament", "--game", GAME, "--matches", "8", "--json"], capsys)
    assert status == 0 and json.loads(stdout)["game"] == GAME


def test_the_runner_refuses_bad_seeds_and_seats() -> None:
    with pytest.raises(ValueError, match="seeds\\[1\\]"):
        runner()(None, ("random", "random"), [1, -2])
    with pytest.raises(ValueError, match="one bot a seat"):
        runner()(None, ("random",), np.arange(3, dtype=np.uint64))


def test_demo_and_replay_commands(capsys, tmp_path) -> None:
    status, stdout, _ = run(["demo", "--game", GAME, "--seed", "3"], capsys)
    assert status == 0 and "match over: " in stdout
    board = stdout.split("final board:\n")[1].split("final state")[0]
    moves = [line for line in stdout.splitlines() if line.startswith("move ")]
    assert len(moves) == board.count("X") + board.count("O") >= 5  # every move printed
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"game": GAME, "moves": [4, 0, 8, 2, 1, 7, 6, 5, 3]}))
    results = []
    for engine in ("native", "reference"):
        status, stdout, _ = run(["replay", str(path), "--engine", engine], capsys)
        assert status == 0
        results.append(json.loads(stdout))
    assert results[0] == results[1] and results[0]["plies"] == 9
    path.write_text(json.dumps({"game": GAME, "moves": [4, 4]}))
    status, stdout, err = run(["replay", str(path)], capsys)
    assert status == 2 and stdout == "" and err.count("\n") == 1 and "occupied" in err
