"""Scenario files through the runner and through ``python -m tictacblitz replay``.

Runs every ``tests/scenarios/*.json`` (the project's own, hand-checked) and, when the
folder exists, every ``../shared/scenarios/*.json`` (the contract's examples), with the
native engine and the reference engine; plus the loader's validation and the runner's
rules (docs/replay-format.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scenario_check import expects_error, result_diff
from tictacblitz import Match
from tictacblitz.games.blitz.reference import ReferenceMatch
from tictacblitz.games.blitz.scenario import ScenarioError, load_scenario, run_scenario

HERE = Path(__file__).resolve().parent
OWN = HERE / "scenarios"
SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "scenarios"
FILES = sorted(OWN.glob("*.json")) + (sorted(SHARED.glob("*.json")) if SHARED.is_dir() else [])


def file_id(path):
    return ("shared/" if path.parent == SHARED else "") + path.name


def read(path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


ENGINES = {"native": Match, "reference": ReferenceMatch}


def replay(path, engine="native"):
    """``python -m tictacblitz replay --engine ENGINE PATH`` in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "tictacblitz", "replay", "--engine", engine, str(path)],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_project_has_its_own_scenarios():
    names = [p.name for p in OWN.glob("*.json")]
    assert len([n for n in names if n.startswith("r")]) >= 20
    for path in OWN.glob("*.json"):
        data = read(path)
        if isinstance(data, dict):
            assert data.get("name") and data.get("why"), path.name


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("path", FILES, ids=file_id)
def test_scenario_through_the_runner(path, engine):
    scenario = read(path)
    if expects_error(scenario):
        with pytest.raises((TypeError, ValueError)):
            run_scenario(load_scenario(scenario), ENGINES[engine])
        return
    result = run_scenario(load_scenario(scenario), ENGINES[engine])
    assert json.loads(json.dumps(result)) == result  # plain JSON data
    assert result_diff(scenario, result) is None, result_diff(scenario, result)


def replay_in_process(path, engine, capsys):
    """``tictacblitz replay --engine ENGINE PATH`` through the command line's own ``main``,
    in this process: (exit status, stdout, stderr). One subprocess per scenario cost ~1 s
    each of interpreter start and imports, 110 of them the slowest part of the suite's
    scenario tests (issue 27, CI item); ``python -m tictacblitz replay`` itself is run as
    a subprocess below (unreadable files) and by the shared checker's test."""
    from tictacblitz.cli import main

    capsys.readouterr()
    try:
        status = main(["replay", "--engine", engine, str(path)])
    except SystemExit as exc:  # argparse's own refusals
        status = exc.code
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("path", FILES, ids=file_id)
def test_scenario_through_the_command_line(path, engine, capsys):
    scenario = read(path)
    status, out, err = replay_in_process(path, engine, capsys)
    if expects_error(scenario):
        assert status == 2 and out == ""
        assert err.startswith("tictacblitz replay: error: ") and err.count("\n") == 1
        return
    assert status == 0, err
    diff = result_diff(scenario, json.loads(out))
    assert diff is None, diff


# -- the command line on unreadable input --------------------------------------------------


@pytest.mark.parametrize("content", [None, "{not json", ""])
def test_replay_reports_an_unreadable_file(tmp_path, content):
    path = tmp_path / "broken.json"
    if content is not None:
        path.write_text(content)
    proc = replay(path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("tictacblitz replay: error: ") and proc.stderr.count("\n") == 1


def test_main_without_a_subcommand_is_a_usage_error(capsys):
    from tictacblitz.cli import main

    with pytest.raises(SystemExit) as exc:
        main([])
    assert exc.value.code == 2


# -- the loader --------------------------------------------------------------------------------


def action(t=0, player="X", **more):
    return dict({"t": t, "player": player, "place": [0, 0]}, **more)


@pytest.mark.parametrize(
    "data, message",
    [
        ([], "JSON object"),
        ({"rules": {"bord": 6}}, "unknown rule"),
        ({"rules": {"set_ms": -1}}, "set_ms"),
        ({"rules": {"size": 6.0}}, "size"),
        ({"rules": {"freeze_factor": 0}}, "freeze_factor"),
        ({"rules": {"powerup_weights": {"nuke": 1}}}, "nuke"),
        ({"rules": ["size", 6]}, "rules must be an object"),
        ({"seed": "1"}, "seed"),
        ({"seed": True}, "seed"),
        ({"setup": ["......"] * 5}, "setup"),
        ({"setup": ["......"] * 5 + ["....Z."]}, "setup row 5"),
        ({"setup": "......"}, "setup"),
        ({"setup": ["XXXXXX", "XXX...", "......", "......", "......", "......"]}, "mark_limit"),
        ({"script": {"t": 0}}, "script must be a list"),
        ({"script": ["X 0 0"]}, "script[0]"),
        ({"script": [{"player": "X", "place": [0, 0]}]}, "no t"),
        ({"script": [action(t=-5)]}, ">= 0"),
        ({"script": [action(t=1.5)]}, "integer"),
        ({"script": [action(round=0)]}, "round"),
        ({"script": [action(player="Z")]}, "player"),
        ({"script": [action(player="x")]}, "player"),
        ({"script": [action(knockout=[1, 1])]}, "exactly one of place and knockout"),
        ({"script": [{"t": 0, "player": "X"}]}, "exactly one of place and knockout"),
        ({"script": [action(cell=[1, 1])]}, "cell"),
        ({"script": [action(spawn="bomb")]}, "both player and spawn"),
        ({"script": [{"t": 0}]}, "neither player nor spawn"),
        ({"script": [{"t": 0, "spawn": "nuke", "cell": [0, 0]}]}, "spawn"),
        ({"script": [{"t": 0, "spawn": "bomb"}]}, "cell"),
        ({"script": [{"t": 0, "spawn": "bomb", "cell": [0, 0], "place": [0, 0]}]}, "no place"),
        ({"script": [action(place=[0, 6])]}, "off the 6x6 board"),
        ({"script": [action(place=[0])]}, "cell"),
        ({"script": [action(place="0,0")]}, "place"),
        ({"script": [action(place=[True, 0])]}, "place"),
        ({"script": [action(extra=1)]}, "unknown key"),
        ({"script": [action(t=3, round=2), action(t=3, round=2, place=[1, 1])]}, "acts twice"),
        ({"until": -1}, "until"),
        ({"snapshots": [10, "20"]}, "snapshot"),
        ({"snapshots": 10}, "snapshots"),
    ],
)
def test_load_scenario_rejects_malformed_input(data, message):
    with pytest.raises(ScenarioError, match=message.replace("[", r"\[").replace("(", r"\(")):
        load_scenario(data)


def test_load_scenario_orders_the_script_and_keeps_file_order_for_ties():
    scenario = load_scenario(
        {
            "script": [
                action(t=5, round=2),
                {"t": 5, "spawn": "bomb", "cell": [1, 1]},
                action(t=5, player="O"),
                action(t=1),
            ]
        }
    )
    assert [
        (
            e.round,
            e.t,
            e.player.letter if e.player is not None else None,
            e.spawn.key if e.spawn is not None else None,
        )
        for e in scenario.script
    ] == [(1, 1, "X", None), (1, 5, None, "bomb"), (1, 5, "O", None), (2, 5, "X", None)]
    assert scenario.scripted_powerups and scenario.last_round == 2
    assert load_scenario({"name": "ignored", "expect": {}, "setup": None}).last_round == 1


# -- the runner --------------------------------------------------------------------------------


class Recording(ReferenceMatch):
    """A reference match that remembers how it was made and which rounds it played."""

    made = []

    def __init__(self, rules, **kwargs):
        super().__init__(rules, **kwargs)
        Recording.made.append(kwargs)


def run(data):
    Recording.made = []
    return run_scenario(load_scenario(data), Recording)


def test_runner_passes_seed_setup_and_scripted_powerups_to_the_factory():
    run({"seed": 9, "setup": ["X....."] + ["......"] * 5, "until": 0})
    assert Recording.made == [
        {"seed": 9, "setup": ["X....."] + ["......"] * 5, "random_powerups": True, "stream": 1}
    ]
    run({"script": [{"t": 0, "spawn": "bomb", "cell": [0, 0]}], "until": 0})
    assert Recording.made[0]["random_powerups"] is False


def test_runner_leaves_out_snapshots_after_play_stopped():
    result = run(
        {"rules": {"powerup_max": 0, "round_ms": 1000}, "snapshots": [0, 1000, 1001, 5000]}
    )
    assert list(result["snapshots"]) == ["0", "1000"]
    assert result["snapshots"]["1000"]["t"] == 1000 and result["state"]["t"] == 1000
    result = run(
        {
            "rules": {"powerup_max": 0},
            "until": 300,
            "snapshots": [300, 301],
            "script": [action(t=301)],
        }
    )
    assert list(result["snapshots"]) == ["300"] and result["rejected"] == []
    assert result["state"]["board"][0] == "......"


def test_runner_snapshot_comes_after_the_actions_of_its_ms():
    result = run(
        {"rules": {"powerup_max": 0}, "until": 10, "snapshots": [10], "script": [action(t=10)]}
    )
    assert result["snapshots"]["10"]["board"][0] == "x....."


def test_runner_records_both_rejections_in_the_order_they_happened():
    # Both knock out an empty cell at one ms: the coin decides the order (R3).
    orders = set()
    for seed in range(6):
        result = run(
            {
                "rules": {"powerup_max": 0},
                "seed": seed,
                "until": 0,
                "script": [
                    {"t": 0, "player": "O", "knockout": [0, 0]},
                    {"t": 0, "player": "X", "knockout": [0, 0]},
                ],
            }
        )
        orders.add(tuple(r["player"] for r in result["rejected"]))
    assert orders == {("X", "O"), ("O", "X")}


def test_runner_plays_unnamed_rounds_to_their_end():
    result = run(
        {"rules": {"powerup_max": 0, "round_ms": 100}, "until": 7, "script": [action(t=7, round=3)]}
    )
    assert [r["round"] for r in result["rounds"]] == [1, 2]
    assert result["state"]["round"] == 3 and result["state"]["board"][0] == "x....."


@pytest.mark.skipif(not SHARED.is_dir(), reason="no ../shared/scenarios beside the project")
def test_shared_checker_passes_with_the_installed_command():
    """The contract's own check: `check_scenarios.py "tictacblitz replay" DIR`."""
    import shutil

    command = (
        "tictacblitz replay"
        if shutil.which("tictacblitz")
        else f"{sys.executable} -m tictacblitz replay"
    )
    checker = SHARED.parent / "tools" / "check_scenarios.py"
    proc = subprocess.run(
        [sys.executable, str(checker), command, str(SHARED)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1].endswith(" failed") and ", 0 failed" in proc.stdout


def test_rounds_after_the_match_is_decided_are_rejected_in_time_order_without_playing_them():
    """A script naming round 10**12 of a 1-round match: nothing to play, and the
    actions of the rounds never played come back round_over in (round, t) order."""
    scenario = load_scenario(
        {
            "rules": {"max_rounds": 1, "round_ms": 100, "powerup_max": 0},
            "script": [
                {"round": 2, "t": 100, "player": "X", "place": [0, 0]},
                {"round": 2, "t": 50, "player": "O", "place": [0, 1]},
                {"round": 2, "t": 200, "player": "X", "place": [0, 2]},
                {"round": 10**12, "t": 0, "player": "O", "place": [0, 3]},
            ],
        }
    )
    for factory in ENGINES.values():
        result = run_scenario(scenario, factory)
        assert result["match"] == "draw"
        assert [(r["round"], r["t"], r["player"]) for r in result["rejected"]] == [
            (2, 50, "O"),
            (2, 100, "X"),
            (2, 200, "X"),
            (10**12, 0, "O"),
        ]
        assert {r["reason"] for r in result["rejected"]} == {"round_over"}


def test_stepping_observer_sees_every_call_and_changes_nothing():
    """run_scenario(on_call=...) steps event by event (R1) and gives the same result."""
    path = OWN / sorted(p.name for p in OWN.glob("r1*.json"))[0]
    scenario = load_scenario(read(path))
    seen = []
    stepped = run_scenario(scenario, Match, on_call=lambda m: seen.append(list(m.events)))
    assert stepped == run_scenario(scenario, Match)
    assert seen[0][0].kind.name == "ROUND_STARTED" and len(seen) > 2
