"""Replay files of Tic Tac Doh: the hand-worked scenarios (one or more per rule id, and
malformed ones) on both engines, the contract's examples when present, validation
errors, and recorded games played back."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from doh_helpers import subset_diff

from tictacblitz.games import ReplayError, load_game
from tictacblitz.games.doh.replay import load_replay, run_replay

ROOT = Path(__file__).resolve().parents[2]
OWN = ROOT / "tests" / "scenarios" / "doh"
SHARED = ROOT.parent / "shared" / "scenarios" / "doh"  # the contract's, when present
SHARED_PLAYERS = SHARED / "players"  # the contract's D9/D10 examples (issue 25)
FILES = sorted(OWN.glob("*.json")) + [
    path
    for folder in (SHARED, SHARED_PLAYERS)
    if folder.is_dir()
    for path in sorted(folder.glob("*.json"))
]


def file_id(path):
    return {SHARED: "shared/", SHARED_PLAYERS: "shared/players/"}.get(path.parent, "") + path.name


def read(path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def test_there_are_scenarios_for_every_rule_and_malformed_ones():
    names = [p.name for p in OWN.glob("*.json")]
    for rule in range(1, 11):
        assert any(n.startswith(f"d{rule}_") for n in names), f"no scenario for D{rule}"
    assert sum(n.startswith("bad_") for n in names) >= 10
    # issue 25: D9 and D10 with 3 and 4 players, each worked by hand
    for rule in ("d8", "d9", "d10"):
        assert any(n.startswith(f"{rule}_players") for n in names), f"no {rule} with players"
    for path in OWN.glob("d*_players*.json"):
        data = read(path)
        assert data.get("name") and data.get("why"), path.name


@pytest.mark.parametrize("engine", ["native", "reference"])
@pytest.mark.parametrize("path", FILES, ids=file_id)
def test_scenario(path, engine):
    data = read(path)
    if not isinstance(data, dict) or data.get("expect_error") is True:
        with pytest.raises(ReplayError) as info:
            run_replay(data, engine=engine)
        message = str(info.value)
        assert message and "\n" not in message
        return
    result = run_replay(data, engine=engine)
    diff = subset_diff(data.get("expect", {}), result)
    assert diff is None, diff
    json.dumps(result)  # JSON-ready


def test_the_game_replays_through_the_protocol():
    game = load_game("doh")
    data = read(OWN / "d7_diagonal.json")
    assert game.replay(data) == run_replay(data)


@pytest.mark.parametrize(
    "bad, words",
    [
        ([], "JSON object"),
        ({"game": "rift", "script": []}, "'rift'"),
        ({"script": "nope"}, "script must be a list"),
        ({"script": [{"piece": "S", "at": [0, 0], "t": 5}]}, "script[0] has unknown key(s) 't'"),
        ({"script": [{"at": [0, 0]}]}, "script[0] has no piece"),
        ({"script": [{"piece": "XL", "at": [0, 0]}]}, "'XL'"),
        (
            {"script": [{"piece": "S", "at": [0, 0]}, {"piece": "S", "at": [0, 1.5]}]},
            "script[1].at col",
        ),
        ({"script": [{"piece": "S", "at": "0,0"}]}, "script[0].at must be [row, col]"),
        ({"rules": {"grid": 7}}, "rules.grid=7"),
        ({"rules": [1]}, "rules must be an object"),
        ({"seed": 1.5}, "seed must be an integer"),
        ({"rules": {"players": 5}}, "rules.players=5"),
        ({"rules": {"players": "3"}}, "rules.players='3'"),
        # issue 25: a record of a game with more players whose rules.players is missing
        (
            {"script": [], "expect": {"result": "fourth"}},
            "expect.result names seat 'fourth', but rules.players is 2 (the default)",
        ),
        (
            {"script": [], "expect": {"moves": [{"player": "first"}, {"player": "third"}]}},
            "expect.moves[1].player names seat 'third', but rules.players is 2 (the default)",
        ),
        (
            {"rules": {"players": 3}, "expect_any": [{"state": {"to_move": "fourth"}}]},
            "expect_any[0].state.to_move names seat 'fourth', but rules.players is 3",
        ),
        (
            {"expect": {"state": {"out": []}}},
            "expect.state.out is given, but rules.players is 2 (the default)",
        ),
        (
            {"rules": {"players": 2}, "expect": {"state": {"out": ["second"]}}},
            "expect.state.out is given, but rules.players is 2:",
        ),
    ],
)
def test_malformed_files_are_one_clear_line(bad, words):
    with pytest.raises(ReplayError) as info:
        load_replay(bad)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_optional_keys_and_ignored_keys():
    result = run_replay(
        {"game": "doh", "seed": 3, "name": "x", "until": 5, "rules": None, "script": None}
    )
    assert result == {
        "moves": [],
        "rejected": [],
        "result": None,
        "lines": [],
        "state": {"squares": {}, "stash": {"S": 5, "M": 5, "L": 5}, "to_move": "first"},
    }


def test_unknown_engine():
    with pytest.raises(ValueError, match="engine"):
        run_replay({"script": []}, engine="fast")


@pytest.mark.parametrize("seed", range(25))
def test_a_recorded_game_replays_identically(seed):
    rng = random.Random(seed)
    game = load_game("doh", {"pieces_per_size": rng.randint(1, 5)})
    state = game.new_state(record=True)
    while not state.is_over():
        (player,) = state.to_move()
        state.apply(player, rng.choice(state.legal_actions(player)))
    data = json.loads(json.dumps(state.to_replay()))
    result = run_replay(data)
    assert result["state"] == state.summary()
    assert result["result"] == state.result() and result["lines"] == state.lines()
    assert result["rejected"] == []
    assert run_replay(data, engine="reference") == result
    # the recorded frame starts at 0
    assert min(m["at"][0] for m in result["moves"]) == 0
    assert min(m["at"][1] for m in result["moves"]) == 0


def test_the_command_line_replays_a_file():
    path = OWN / "d7_two_lines_at_once.json"
    proc = replay_command(path)
    assert proc.returncode == 0, proc.stderr
    assert subset_diff(read(path)["expect"], json.loads(proc.stdout)) is None
    bad = replay_command(OWN / "bad_piece_unknown.json")
    assert bad.returncode != 0 and "XL" in bad.stderr


def replay_command(path, *options):
    """``python -m tictacblitz replay [OPTIONS] PATH`` on this checkout's package."""
    return subprocess.run(
        [sys.executable, "-m", "tictacblitz", "replay", *options, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT / "python"), "PATH": "/usr/bin:/bin"},
    )


PLAYERS_FILES = sorted(OWN.glob("*players*.json")) + (
    sorted(SHARED_PLAYERS.glob("*.json")) if SHARED_PLAYERS.is_dir() else []
)


@pytest.mark.parametrize("engine", ["native", "reference"])
@pytest.mark.parametrize("path", PLAYERS_FILES, ids=file_id)
def test_the_command_line_plays_3_and_4_player_files(path, engine):
    """`tictacblitz replay` on the D9/D10 files (issue 25): the expected result on
    stdout, or for a malformed file one line on stderr and a non-zero exit."""
    proc = replay_command(path, "--engine", engine)
    data = read(path)
    if data.get("expect_error") is True:
        assert proc.returncode != 0 and proc.stdout == "" and proc.stderr.count("\n") == 1
        return
    assert proc.returncode == 0, proc.stderr
    assert subset_diff(data["expect"], json.loads(proc.stdout)) is None
