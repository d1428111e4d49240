"""One rule syntax for every command (issue 22, item 6): ``--rule NAME=VALUE`` and
``--rule NAME.KEY=VALUE`` (one entry of a mapping rule) through the one parser of
games/options.py in simulate, sweep, tournament, demo and serve; a whole mapping that
changes entries it does not name says so in one line."""

from __future__ import annotations

import argparse
import json

import pytest

from tictacblitz.cli import build_parser, main
from tictacblitz.games.options import parse_rule_assignments, replaced_mapping_notes
from tictacblitz.server import game_from_serve_arguments

BOMB_DOUBLED = {"bomb": 2, "freeze": 1, "haste": 1, "swap": 1}


def run(argv, capsys):
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_the_parser_merges_one_entry_and_replaces_a_whole_mapping():
    current = {"set_ms": 1600, "powerup_weights": {"bomb": 1, "freeze": 1}}
    assert parse_rule_assignments(["powerup_weights.bomb=2"], current) == {
        "powerup_weights": {"bomb": 2, "freeze": 1}
    }
    # In order: a whole mapping, then one entry of it.
    assert parse_rule_assignments(
        ['powerup_weights={"bomb": 3}', "powerup_weights.freeze=0.5"], current
    ) == {"powerup_weights": {"bomb": 3, "freeze": 0.5}}
    with pytest.raises(ValueError, match="set_ms is not a mapping rule"):
        parse_rule_assignments(["set_ms.x=1"], current)
    with pytest.raises(ValueError, match="unknown rule 'nope'"):
        parse_rule_assignments(["nope.x=1"], current)
    with pytest.raises(ValueError, match="expected NAME.KEY=VALUE"):
        parse_rule_assignments(["powerup_weights.=1"], current)


def test_the_note_names_the_entries_a_whole_mapping_changed():
    before = {"powerup_weights": {"bomb": 1, "freeze": 1, "haste": 1, "swap": 1}}
    after = {"powerup_weights": {"bomb": 2, "freeze": 0, "haste": 0, "swap": 0}}
    assert replaced_mapping_notes(['powerup_weights={"bomb": 2}'], before, after) == [
        "powerup_weights replaced: freeze, haste, swap now 0; "
        "use --rule powerup_weights.bomb=2 to change one entry"
    ]
    # Rift fills a missing objective with its default points: nothing changed, no note.
    same = {"objective_points": {"centre": 5, "meta_line": 15}}
    moved = {"objective_points": {"centre": 7, "meta_line": 15}}
    assert replaced_mapping_notes(['objective_points={"centre": 7}'], same, moved) == []


def test_simulate_takes_one_weight_and_keeps_the_others(capsys):
    status, out, err = run(
        ["simulate", "--rule", "powerup_weights.bomb=2", "--matches", "6", "--workers", "1"]
        + ["--no-base", "--json", "--no-progress"],
        capsys,
    )
    assert status == 0, err
    assert json.loads(out)["rules"] == {"powerup_weights": BOMB_DOUBLED}
    assert "replaced" not in err


def test_simulate_says_in_one_line_what_a_whole_mapping_replaced(capsys):
    status, out, err = run(
        ["simulate", "--rule", 'powerup_weights={"bomb": 2}', "--matches", "6"]
        + ["--workers", "1", "--no-base", "--json", "--no-progress"],
        capsys,
    )
    assert status == 0, err
    weights = json.loads(out)["rules"]["powerup_weights"]
    assert weights == {"bomb": 2, "freeze": 0, "haste": 0, "swap": 0}
    notes = [line for line in err.splitlines() if "replaced" in line]
    assert notes == [
        "tictacblitz: note: powerup_weights replaced: freeze, haste, swap now 0; "
        "use --rule powerup_weights.bomb=2 to change one entry"
    ]


def test_base_takes_the_same_syntax(capsys):
    status, out, err = run(
        ["simulate", "--rule", "set_ms=1200", "--base", "powerup_weights.bomb=2"]
        + ["--matches", "6", "--workers", "1", "--json", "--no-progress"],
        capsys,
    )
    assert status == 0, err
    assert json.loads(out)["comparison"]["base_rules"] == {"powerup_weights": BOMB_DOUBLED}


def test_sweep_and_tournament_take_one_entry(capsys, tmp_path):
    status, _, err = run(
        ["sweep", "--rule", "powerup_weights.bomb=2", "--grid", "set_ms=1200,1600"]
        + ["--matches", "4", "--workers", "1", "--out", str(tmp_path / "s"), "--no-progress"],
        capsys,
    )
    assert status == 0, err
    meta = json.loads((tmp_path / "s" / "sweep.json").read_text())
    meta = meta.get("meta", meta)
    assert meta["rules"] == {"powerup_weights": BOMB_DOUBLED}
    status, out, err = run(
        ["tournament", "--game", "rift", "--rule", "objective_points.centre=7"]
        + ["--bots", "random,greedy", "--matches", "2", "--json", "--no-progress"],
        capsys,
    )
    assert status == 0, err
    assert json.loads(out)["rules"]["objective_points"]["centre"] == 7


def test_demo_and_serve_take_one_entry():
    from tictacblitz.games.options import game_from_arguments

    demo = build_parser().parse_args(["demo", "--rule", "powerup_weights.bomb=2"])
    assert dict(game_from_arguments(demo).rules.powerup_weights) == BOMB_DOUBLED
    serve = build_parser().parse_args(
        ["serve", "--game", "rift", "--rule", "objective_points.centre=7"]
    )
    assert game_from_serve_arguments(serve).rules.objective_points["centre"] == 7
    both = argparse.Namespace(**{**vars(serve), "rules": '{"shield_cost": 1}'})
    game = game_from_serve_arguments(both)
    assert game.rules.shield_cost == 1 and game.rules.objective_points["centre"] == 7


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "--matches", "5"],
        ["sweep", "--grid", "set_ms=1200,1600", "--matches", "5"],
        ["tournament", "--matches", "2"],
        ["demo"],
    ],
)
@pytest.mark.parametrize(
    "rule, message",
    [
        ("set_ms.x=2", "--rule: rule 'set_ms.x=2': set_ms is not a mapping rule"),
        ("powerup_weights.bom=2", "--rule: rules.powerup_weights has unknown kind 'bom'"),
        ("nothing.x=2", "--rule: unknown rule 'nothing'"),
    ],
)
def test_a_bad_entry_is_one_line_and_exit_2(command, rule, message, capsys, tmp_path):
    argv = [*command, "--rule", rule]
    if command[0] == "sweep":
        argv += ["--out", str(tmp_path / "s")]
    status, out, err = run(argv, capsys)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err
    assert not (tmp_path / "s").exists()


@pytest.mark.parametrize(
    "pairs", [["nope"], ["swap_cooldown=[1"], ["objective_points.nope.x=1"], ["shield_cost.x=1"]]
)
def test_rift_reads_a_rule_with_the_one_parser_and_its_words(pairs):
    # issue 27, item 3: rift/rules.py once held a copy of the --rule parser whose wording
    # had drifted; RiftRules.from_assignments is the shared parser, word for word.
    from tictacblitz.games.rift.rules import RiftRules

    with pytest.raises(ValueError) as ours:
        RiftRules.from_assignments(pairs)
    try:
        shared = RiftRules.from_dict(parse_rule_assignments(pairs, RiftRules().to_dict()))
    except ValueError as err:
        assert str(ours.value) == str(err)
    else:  # the parser took it and the rules refused it: the same refusal
        pytest.fail(f"{pairs} gave {shared}")
    if pairs == ["nope"]:
        assert str(ours.value) == "rule 'nope': expected NAME=VALUE or NAME.KEY=VALUE"


@pytest.mark.parametrize("game", ["blitz", "doh", "rift"])
def test_every_game_refuses_an_unknown_rule_in_the_one_line(game, capsys):
    # issue 27, item 3: each game's Rules.from_dict held its own copy of this check, and
    # Doh's listed its rules unsorted (it fails so on the old code); one line, for the
    # --rule parser and every game's from_dict alike.
    from dataclasses import fields

    from tictacblitz.games.base import unknown_rule
    from tictacblitz.games.registry import load_game

    known = [f.name for f in fields(load_game(game).rules)]
    with pytest.raises(ValueError) as refused:
        load_game(game, {"nope": 1})
    assert str(refused.value) == unknown_rule("nope", known)
    assert str(refused.value).endswith(", ".join(sorted(known)))
    status, out, err = run(["simulate", "--game", game, "--rule", "nope=1"], capsys)
    assert status == 2 and out == "" and f"--rule: {unknown_rule('nope', known)}" in err
