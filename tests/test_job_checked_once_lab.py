"""A sweep point, a tournament and a rule candidate, each checked once (issue 27, item 5).

The sibling of tests/test_job_checked_once.py (``simulate``), counting the same way:

- ``sweep``'s command line makes one :class:`~tictacblitz.lab.sweep_plan.SweepPlan`
  (one job a point, :func:`~tictacblitz.lab.jobs.prepare`), which the pilot and the run
  take as it is. On the old code every point was prepared twice (the command's check,
  then ``sweep()`` again), its rules built twice and its bots resolved three times (the
  pilot too), and the command line prepared one more job for its base rules;
- a tournament resolves each bot once (:mod:`~tictacblitz.lab.tournament_job`); the
  old code resolved it for the command's check, again a pair for the pilot, again in
  ``run_tournament``'s check and again for every batch;
- :class:`~tictacblitz.lab.candidates.Candidates` prepares its job once; each
  candidate is that job on the candidate's rules (only the rules checked). The old code
  prepared the job afresh for every ``measure``, resolving the bots each time.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

from test_job_checked_once import counting
from tictacblitz.lab import grid as lab_grid
from tictacblitz.lab import hooks as lab_hooks
from tictacblitz.lab import jobs
from tictacblitz.lab import sweep as sweep_command
from tictacblitz.lab import tournament as tournament_command
from tictacblitz.lab.candidates import Candidates, estimates
from tictacblitz.lab.simulation import simulate
from tictacblitz.lab.tournament import run_tournament


def counted(monkeypatch) -> Counter:
    """Count every prepared job, built rule set (a point's or a candidate's), rules
    check and bot resolution (``check_bot`` resolves too: it is counted there)."""
    counts: Counter = Counter()
    counting(monkeypatch, jobs, "prepare", counts)
    counting(monkeypatch, lab_grid, "apply_point", counts)
    counting(monkeypatch, lab_hooks.GameHooks, "check_rules", counts)
    counting(monkeypatch, lab_hooks.GameHooks, "resolve_bot", counts)
    return counts


def run_command(register, argv):
    parser = argparse.ArgumentParser(prog="tictacblitz")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.handler(args)


def test_a_sweep_on_the_command_line_checks_each_point_once(monkeypatch, capsys, tmp_path):
    counts = counted(monkeypatch)
    argv = ["sweep", "--game", "doh", "--grid", "pieces_per_size=3,4,5", "--x", "greedy"]
    argv += ["--o", "random", "--matches", "20", "--workers", "1", "--no-progress", "--json"]
    assert run_command(sweep_command.register, [*argv, "--out", str(tmp_path / "s")]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["pieces_per_size"] for r in rows} == {3, 4, 5} and {r["point"] for r in rows} == {
        0,
        1,
        2,
    }
    points = 3
    # Old code: prepare 7 (1 + 2 a point), apply_point 6, resolve_bot 20 (2 + 6 a
    # point), check_rules 7 (the base's, then 2 a point).
    assert counts["prepare"] == points, counts
    assert counts["apply_point"] == points, counts
    assert counts["resolve_bot"] == 2 * points, counts  # one a seat a point
    assert counts["check_rules"] == 1 + points, counts  # the base rules, then each point's


def test_a_sweep_over_a_player_parameter_resolves_each_points_bots_once(
    monkeypatch, capsys, tmp_path
):
    # A point's bots differ (the swept error rate): the pilot and the run use each
    # point's own job. The swept seat's new spec is checked once more where it is made
    # (a bad one is named with its point: player_axes.point_players), so 3 a point.
    # Old code: resolve_bot 18 for these two points.
    counts = counted(monkeypatch)
    argv = ["sweep", "--game", "doh", "--grid", "x.error=0%,10%", "--matches", "20"]
    argv += ["--workers", "1", "--no-progress", "--json", "--out", str(tmp_path / "s")]
    assert run_command(sweep_command.register, argv) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["x.error"] for r in rows} == {0.0, 0.1}
    assert (counts["prepare"], counts["resolve_bot"]) == (2, 6), counts


BOTS = ["random", "greedy", "easy"]


def test_a_tournament_on_the_command_line_resolves_each_bot_once(monkeypatch, capsys):
    counts = counted(monkeypatch)
    argv = ["tournament", "--game", "doh", "--bots", ",".join(BOTS), "--matches", "20"]
    assert run_command(tournament_command.register, [*argv, "--no-progress", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["pairs"]) == 3 and sorted(report["bots"]) == sorted(BOTS)
    assert all(p["a_wins"] + p["b_wins"] + p["draws"] == 20 for p in report["pairs"])
    # Old code: resolve_bot 24 (3 checks, 2 a pair for the pilot, 3 checks again,
    # 2 a batch: 2 batches a pair), check_rules 2.
    assert counts["resolve_bot"] == len(BOTS), counts
    assert counts["check_rules"] == 1, counts


def test_a_tournament_resolves_each_bot_once_however_many_batches(monkeypatch):
    counts = counted(monkeypatch)
    # 1,100 matches a pair: two batches a pair (seats alternated) of 550, each cut in
    # two pieces of at most 512 matches: 4 pieces a pair, 12 in all.
    result = run_tournament(BOTS, 1100, seed=3, game="doh")
    assert len(result["pairs"]) == 3 and result["matches"] == 1100
    # Old code: resolve_bot 27 (3 checks, 2 a seat a piece).
    assert counts["resolve_bot"] == len(BOTS), counts
    assert counts["check_rules"] == 1, counts


def test_candidates_prepare_their_job_once(monkeypatch):
    counts = counted(monkeypatch)
    lab = Candidates("doh", seats=["x=greedy", "o=random"], workers=1)
    first = lab.measure_summary({"pieces_per_size": 3}, matches=20, seed=1)[1]
    lab.measure({"pieces_per_size": 4}, matches=20, seed=1)
    # Old code: prepare 3 (Candidates, then every measure), resolve_bot 6.
    assert counts["prepare"] == 1, counts
    assert counts["resolve_bot"] == 2, counts  # one a seat
    assert counts["check_rules"] == 3, counts  # one a job: the base's, then each candidate's
    assert counts["apply_point"] == 2, counts  # each candidate built once
    # A candidate seating three players is its own job, prepared once.
    three = lab.measure_summary({"players": 3}, matches=20, seed=1)[1]
    assert three["seat_keys"] == ["first", "second", "third"]
    assert counts["prepare"] == 2 and counts["resolve_bot"] == 5, counts
    # The same run as simulate() makes of the candidate (the old path), timing aside.
    same = simulate(
        20, "greedy", "random", {"pieces_per_size": 3}, 1, game="doh", workers=1, table=False
    )[1]
    timing = {"seconds", "matches_per_s", "cpu_seconds"}
    assert {k: v for k, v in first.items() if k not in timing} == {
        k: v for k, v in same.items() if k not in timing
    }
    assert estimates(first, "doh") == estimates(same, "doh")
