"""One simulation job, checked once (issue 27, item 5).

``tictacblitz simulate`` turns its command line into one frozen
:class:`~tictacblitz.lab.jobs.SimulationJob` (:func:`~tictacblitz.lab.jobs.prepare`) and
plans its extra runs once; the job then travels as it is through the runner and the
chunk payload to the game's ``play_matches``. Before, one run prepared its job three
times (the command's check, the command, ``simulate``), planned its extras twice and had
each chunk worker validate the rules again from a dict: every count below but
``check_options``'s was higher (the runner options were checked once already).
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import json
import sys
from collections import Counter

import pytest

from tictacblitz.games.doh.rules import DohRules
from tictacblitz.lab import hooks as lab_hooks
from tictacblitz.lab import jobs, study
from tictacblitz.lab import simulate_command as command

VARIANT = DohRules(pieces_per_size=4)
ARGV = [
    "simulate",
    "--game",
    "doh",
    "--rule",
    "pieces_per_size=4",
    "--x",
    "greedy",
    "--o",
    "random",
    "--opening",
    "S",
    "--matches",
    "40",
    "--workers",
    "1",
    "--no-progress",
    "--json",
]


def counting(monkeypatch, owner, name, counts, key=None):
    """Replace ``owner.name`` with a wrapper counting its calls in ``counts[key or
    name]``; a module function is replaced in every lab module that imported it."""
    real = getattr(owner, name)

    def counted(*args, **kwargs):
        counts[key or name] += 1
        return real(*args, **kwargs)

    if inspect.ismodule(owner):
        for module in [m for n, m in sys.modules.items() if n.startswith("tictacblitz.lab")]:
            if getattr(module, name, None) is real:
                monkeypatch.setattr(module, name, counted)
    else:
        monkeypatch.setattr(owner, name, counted)


def test_one_simulate_job_checks_its_rules_bots_and_options_once(monkeypatch, capsys):
    counts: Counter = Counter()
    counting(monkeypatch, jobs, "prepare", counts)
    counting(monkeypatch, study, "plan_extras", counts)
    counting(monkeypatch, lab_hooks.GameHooks, "resolve_bot", counts)
    counting(monkeypatch, lab_hooks.GameHooks, "check_options", counts)
    real_check_rules = lab_hooks.GameHooks.check_rules

    def check_rules(self, rules):
        counts["check_rules of the run's rules"] += rules == VARIANT
        return real_check_rules(self, rules)

    monkeypatch.setattr(lab_hooks.GameHooks, "check_rules", check_rules)
    real_post_init = DohRules.__post_init__

    def post_init(self):
        # Validating the run's rules (DohRules checks its numbers when made). The lab's
        # seat count for a Summary (LabAdapter.players) takes the rules object as it is;
        # it used to rebuild the game from the rules' dict, three times a job.
        callers = {frame.function for frame in inspect.stack()[1:12]}
        where = "seat count" if "players" in callers else "job"
        counts[f"run's rules validated ({where})"] += self == VARIANT
        real_post_init(self)

    monkeypatch.setattr(DohRules, "__post_init__", post_init)

    parser = argparse.ArgumentParser(prog="tictacblitz")
    command.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(ARGV)
    assert args.handler(args) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["matches"] == 40 and summary["rules"] == {"pieces_per_size": 4}
    assert summary["options"] == {"opening": "S"} and "comparison" in summary
    assert "seat_swap" in summary  # two extra runs (A/B, seats swapped): planned once
    # Before (the old code): prepare 3, plan_extras 2, resolve_bot 6, check_rules 3,
    # the run's rules validated 4 times by the job's path (and once more by a worker).
    assert counts["prepare"] == 1, counts
    assert counts["plan_extras"] == 1, counts
    assert counts["resolve_bot"] == 2, counts  # one a seat
    assert counts["check_options"] == 1, counts
    assert counts["check_rules of the run's rules"] == 1, counts
    assert counts["run's rules validated (job)"] == 1, counts  # parsing --rule
    assert counts["run's rules validated (seat count)"] == 0, counts  # was 3


def test_the_job_is_frozen_and_its_payload_carries_the_rules_object():
    job = jobs.prepare(10, "greedy", "random", {"pieces_per_size": 4}, game="doh", options={})
    with pytest.raises(dataclasses.FrozenInstanceError):
        job.matches = 11  # type: ignore[misc]
    with pytest.raises(TypeError):
        job.options["opening"] = "S"  # type: ignore[index]
    assert job.payload()["rules"] is job.rules  # the worker does not validate a dict again
    assert job.seat_keys == ("x", "o") and job.players == 2
    bigger = job.resized(20, 5)
    assert (bigger.matches, bigger.chunks, bigger.rules) == (20, 4, job.rules)


def test_a_player_spec_on_the_command_line_is_read_once(monkeypatch, capsys):
    # A spec (issue 23) was read by the --x check and again by each of the three
    # prepare() calls: 4 times on the old code.
    from tictacblitz.games.players import PlayerModel

    spec = "greedy:reaction=250ms"
    read: Counter = Counter()
    real_parse = PlayerModel.parse

    def parse(self, text):
        read[text] += 1
        return real_parse(self, text)

    monkeypatch.setattr(PlayerModel, "parse", parse)
    parser = argparse.ArgumentParser(prog="tictacblitz")
    command.register(parser.add_subparsers(dest="command"))
    argv = ["simulate", "--x", spec, "--o", "random", "--matches", "20", "--workers", "1"]
    args = parser.parse_args([*argv, "--no-progress", "--json"])
    assert args.handler(args) == 0
    assert json.loads(capsys.readouterr().out)["x_bot"] == spec
    assert read[spec] == 1, read
