"""The replay files: tests/scenarios/rift/*.json (hand-worked) and the contract's
examples, on both engines and through ``python -m tictacblitz replay``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from scenario_check import first_diff
from tictacblitz.games.protocol import ReplayError
from tictacblitz.games.rift.game import make_game
from tictacblitz.games.rift.replay import load_replay

ROOT = Path(__file__).resolve().parents[2]
OWN = ROOT / "tests" / "scenarios" / "rift"
SHARED = ROOT.parent / "shared" / "scenarios" / "rift"
FILES = sorted(OWN.glob("*.json")) + (sorted(SHARED.glob("*.json")) if SHARED.is_dir() else [])
GAME = make_game()


def read(path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def expects_error(data):
    return not isinstance(data, dict) or data.get("expect_error") is True


@pytest.mark.parametrize("engine", ["native", "reference"])
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_scenario(path, engine):
    data = read(path)
    if expects_error(data):
        with pytest.raises(ReplayError) as info:
            GAME.replay(data, engine=engine)
        assert "\n" not in str(info.value)
        return
    result = GAME.replay(data, engine=engine)
    assert first_diff(data.get("expect", {}), result) is None
    json.dumps(result)  # JSON-ready


def test_every_objective_has_a_scenario():
    from tictacblitz.games.rift.types import OBJECTIVE_IDS

    scored = set()
    for path in OWN.glob("*.json"):
        data = read(path)
        if expects_error(data):
            continue
        for turn in GAME.replay(data)["turns"]:
            for gains in turn["points"].values():
                scored |= {g["objective"] for g in gains if g["cause"] == "objective"}
    assert scored == set(OBJECTIVE_IDS)


def test_malformed_messages_name_the_value():
    bad = {"game": "rift", "script": [{"turn": 1, "X": {"cell": 81}, "O": {"cell": 3}}]}
    with pytest.raises(ReplayError, match=r"script\[0\]\.X\.cell=81"):
        load_replay(bad)
    with pytest.raises(ReplayError, match="unknown ability 'bomb'"):
        load_replay({"script": [{"turn": 1, "X": {"cell": 1, "ability": "bomb"}}]})
    with pytest.raises(ReplayError, match="not 'rift'"):
        load_replay({"game": "doh"})


def test_cli_replays_the_files():
    """One process for the own files' first, a malformed one and the contract's."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    good = OWN / "obj_meta_line.json"
    out = subprocess.run(
        [sys.executable, "-m", "tictacblitz", "replay", str(good)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    assert first_diff(read(good)["expect"], json.loads(out.stdout)) is None
    out = subprocess.run(
        [sys.executable, "-m", "tictacblitz", "replay", str(OWN / "bad_cell.json")],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert out.returncode != 0 and "81" in out.stderr


def test_a_far_until_after_the_end_is_cheap_and_rejects_later_entries():
    data = read(OWN / "game_over.json")
    data["until"] = 10**12
    data["script"].append({"turn": 10**6, "O": {"cell": 5}})
    result = GAME.replay(data)
    assert result["result"] == "X" and result["stopped"] is None
    assert result["rejected"][-1] == {"turn": 10**6, "player": "O", "reason": "game_over"}
    assert len(result["turns"]) == 1


def test_a_missing_turn_stops_the_replay():
    data = {
        "game": "rift",
        "script": [
            {"turn": 1, "X": {"cell": 40}, "O": {"cell": 41}},
            {"turn": 3, "X": {"cell": 0}, "O": {"cell": 1}},
        ],
    }
    result = GAME.replay(data)
    assert result["stopped"] == {"turn": 2, "player": "X", "players": ["X", "O"]}
    assert result["state"]["turn"] == 2 and result["rejected"] == []
