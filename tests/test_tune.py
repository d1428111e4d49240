"""``tictacblitz tune`` (issue 24, item 1): parsing, bad input, resume, workers, a real
search on each game, the re-play, ties and the Pareto plot. Sizes are tiny (a loaded
machine, a fast CI): every assertion counts trials, matches or verdicts, never time."""

import math
import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("optuna")
import optuna

from tictacblitz.cli import main
from tictacblitz.lab import candidates
from tictacblitz.lab.candidates import Estimate
from tictacblitz.lab.targets import (
    MET,
    MISSED,
    UNSURE,
    judge,
    parse_objective,
    parse_target,
    parse_vary,
    shortfall,
)
from tictacblitz.lab.tune import CONFIRM_SEED_OFFSET, tune
from tictacblitz.lab.tune_finalists import Finalist, rank

tune_module = sys.modules["tictacblitz.lab.tune"]  # the module (lab.tune also names a function)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
METRICS = ["line_share", "match_s", "seat_gap", "game_length"]
DOH = ["--game", "doh", "--seat", "all=greedy", "--no-progress", "--workers", "1"]
DOH_SEARCH = [*DOH, "--vary", "pieces_per_size=1..5", "--target", "game_length <= 3"]
SMALL = ["--matches", "6", "--confirm", "1", "--confirm-matches", "8"]


# -- parsing -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, low, high, absolute",
    [
        ("line_share >= 0.6", 0.6, math.inf, False),
        ("line_share>60%", 0.6, math.inf, False),
        ("match_s in [120, 300]", 120.0, 300.0, False),
        ("match_s <= 300", -math.inf, 300.0, False),
        ("|seat_gap| <= 0.02", -math.inf, 0.02, True),
    ],
)
def test_targets_parse(text, low, high, absolute):
    t = parse_target(text, METRICS)
    assert (t.low, t.high, t.absolute) == (pytest.approx(low), high, absolute)


@pytest.mark.parametrize(
    "text, words",
    [
        ("speed >= 1", "unknown metric 'speed'"),
        ("match_s in [300, 120]", "is empty"),
        ("match_s in 120..300", "expected a range [A, B]"),
        ("line_share >= lots", "'lots' is not a number"),
        ("line_share", "expected METRIC >= V"),
        ("|seat_gap| <= -1", "never below"),
    ],
)
def test_bad_targets_name_the_bad_part(text, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        parse_target(text, METRICS)


def test_objectives_and_ranges_parse():
    assert parse_objective("min |seat_gap|", METRICS)[1:3] == (False, True)
    assert parse_objective("max line_share", METRICS).maximize
    rules = {"set_ms": (int, 1600), "freeze_factor": (float, 2.0)}
    assert parse_vary("set_ms=800..2000", rules)[1:] == (800, 2000, int)
    assert parse_vary("freeze_factor=1.5..3", rules)[1:3] == (1.5, 3.0)
    for text, words in [
        ("set_ms=2000..800", "empty"),
        ("set_ms=800.5..2000", "whole numbers"),
        ("speed=1..2", "not a rule number"),
        ("set_ms=800", "expected NAME=LOW..HIGH"),
    ]:
        with pytest.raises(ValueError, match=re.escape(words)):
            parse_vary(text, rules)


def test_a_target_is_judged_on_the_whole_interval():
    t = parse_target("line_share >= 0.6", METRICS)
    assert judge(t, 0.7, 0.65, 0.75) == MET
    assert judge(t, 0.62, 0.55, 0.69) == UNSURE  # the point meets it, the interval does not
    assert judge(t, 0.5, 0.45, 0.55) == MISSED
    assert shortfall(t, 0.5, "share") == pytest.approx(0.1)
    assert shortfall(parse_target("match_s in [120, 300]", METRICS), 60, "s") == 0.2


# -- ranking: no best chosen on noise -----------------------------------------------------


def _finalist(trial, changes, low, high):
    e = Estimate((low + high) / 2, low, high, "share", "line share")
    t = parse_target("line_share >= 0.6", METRICS)
    f = Finalist(trial, {}, changes, {"line_share": e})
    f.verdicts[t.text] = judge(t, e.value, e.low, e.high)
    f.shortfall = shortfall(t, e.value, "share")
    return f, t


def test_finalists_whose_intervals_overlap_tie_and_fewer_changes_come_first():
    a, t = _finalist(1, 3, 0.50, 0.62)
    b, _ = _finalist(2, 1, 0.45, 0.58)
    best, _ = rank([a, b], [t], [])
    assert [f.trial for f in best] == [2, 1]  # a tie: both best, the one-change set first


def test_a_finalist_separated_by_its_interval_is_the_one_best():
    a, t = _finalist(1, 3, 0.65, 0.75)
    b, _ = _finalist(2, 1, 0.40, 0.55)
    best, ordered = rank([b, a], [t], [])
    assert [f.trial for f in best] == [1] and [f.trial for f in ordered] == [1, 2]


# -- the command line: bad input changes nothing -------------------------------------------


def _trials(storage, study):
    return optuna.load_study(study_name=study, storage=storage).trials


def _made_study(folder):
    storage = f"sqlite:///{folder / 'tune.db'}"
    where = ["--storage", storage, "--study", "s"]
    assert main(["tune", *DOH_SEARCH, *SMALL, "--trials", "2", *where]) == 0
    return storage, where


@pytest.fixture
def study(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return _made_study(tmp_path)


@pytest.fixture(scope="module")
def untouched_study(tmp_path_factory):
    """One study for every bad-input case: each compares the study's trials before and
    after its own bad command, so a case that changed it would fail, and the next case
    starts from what that one left (a study a test may change is made per test: study).
    Made once, not once a case (issue 27, CI item: 12 studies of 2 trials)."""
    folder = tmp_path_factory.mktemp("tune")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        return _made_study(folder)


@pytest.mark.parametrize(
    "bad, words",
    [
        (["--vary", "pieces_per_size=3..1"], "pieces_per_size=3..1"),
        (["--vary", "speed=1..3"], "'speed' is not a rule number"),
        (["--vary", "pieces_per_size=1..99"], "pieces_per_size=99"),
        (["--target", "nosuch >= 1"], "unknown metric 'nosuch'"),
        (["--target", "game_length in [5, 2]"], "is empty"),
        (["--target", "game_length about 3"], "expected METRIC >= V"),
        (["--trials", "0"], "--trials must be a whole number >= 1, not 0"),
        (["--confirm", "0"], "--confirm must be a whole number >= 1, not 0"),
        (["--confirm-matches", "2"], "--confirm-matches 2 is below --matches 6"),
        (["--seat", "all=nobody"], "nobody"),
        (["--matches", "8"], "searches another question (its matches differ)"),
        (["--vary", "pieces_per_size=1..2", "--vary", "pieces_per_size=2..3"], "twice"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_the_study_is_untouched(
    untouched_study, tmp_path, monkeypatch, capsys, bad, words
):
    monkeypatch.chdir(tmp_path)
    storage, where = untouched_study
    before = [(t.number, t.state) for t in _trials(storage, "s")]
    capsys.readouterr()
    search = {  # the bad --vary or --target replaces the good one
        "--vary": [*DOH, *bad, "--target", "game_length <= 3"],
        "--target": [*DOH, "--vary", "pieces_per_size=1..3", *bad],
    }.get(bad[0], DOH_SEARCH)
    last = [] if bad[0] in ("--vary", "--target") else bad  # argparse: the last one counts
    args = ["tune", *search, *SMALL, "--trials", "2", *where, *last]
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0] and err[0].startswith("tictacblitz tune: error:")
    assert [(t.number, t.state) for t in _trials(storage, "s")] == before


def test_a_rule_that_is_not_a_number_is_refused(capsys):
    assert main(["tune", "--game", "rift", "--vary", "objectives=1..3", "--objective",
                 "max game_length"]) == 2  # fmt: skip
    assert "'objectives' is not a number" in capsys.readouterr().err


# -- resume, Ctrl-C, two workers ------------------------------------------------------------


def test_running_the_same_command_again_continues_the_study(study, capsys):
    storage, where = study
    assert main(["tune", *DOH_SEARCH, *SMALL, "--trials", "2", *where]) == 0
    trials = _trials(storage, "s")
    assert [t.number for t in trials] == [0, 1, 2, 3]
    assert trials[0].params == {"pieces_per_size": 5}  # the base rules: the first candidate
    assert "4 finished candidates (2 this run)" in capsys.readouterr().out


def test_ctrl_c_keeps_the_finished_trials_and_the_rerun_continues(study, monkeypatch, capsys):
    storage, where = study
    real = candidates.Candidates.measure
    calls = []

    def interrupted_on_the_second(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(self, *args, **kwargs)

    monkeypatch.setattr(candidates.Candidates, "measure", interrupted_on_the_second)
    monkeypatch.setattr(tune_module, "_played_before", lambda trial, rules, played: None)
    assert main(["tune", *DOH_SEARCH, *SMALL, "--trials", "3", *where]) == 130
    assert "run the same command again" in capsys.readouterr().err
    states = [t.state for t in _trials(storage, "s")]
    complete, fail = optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.FAIL
    # the interrupted candidate, and the next one, asked while it played (tune_loop) but
    # never played: both failed, none left running
    assert states == [complete] * 3 + [fail, fail]
    monkeypatch.setattr(candidates.Candidates, "measure", real)
    assert main(["tune", *DOH_SEARCH, *SMALL, "--trials", "1", *where]) == 0
    assert [t.number for t in _trials(storage, "s")] == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize("kind", ["sqlite", "journal"])
def test_two_worker_processes_share_one_study(tmp_path, kind):
    storage = f"sqlite:///{tmp_path / 'w.db'}" if kind == "sqlite" else f"journal:{tmp_path / 'j'}"
    args = [*DOH_SEARCH, *SMALL, "--storage", storage, "--study", "w", "--yes"]
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tictacblitz", "tune", *args, "--trials", str(n)],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in (3, 4)
    ]
    for p in procs:
        _, err = p.communicate(timeout=600)
        assert p.returncode == 0, err
    from tictacblitz.lab.tune_study import make_storage

    numbers = [t.number for t in _trials(make_storage(storage), "w")]
    assert sorted(numbers) == list(range(7))  # 3 + 4, no number twice


# -- real searches, the re-play, the plot --------------------------------------------------


def _search(game, vary, target, **kw):
    kw.setdefault("storage", "sqlite:///:memory:")
    return tune(game, vary, [target], seats=["all=greedy"], workers=1, sampler_seed=3, **kw)


def test_doh_finds_the_stash_that_ends_games_within_three_plies():
    r = _search("doh", ["pieces_per_size=1..3"], "game_length <= 3", trials=5, matches=10,
                confirm=2, confirm_matches=20)  # fmt: skip
    assert [f.rules for f in r.best] == [{"pieces_per_size": 1}]
    assert r.best[0].verdicts == {"game_length <= 3": MET}
    others = [f for f in r.finalists if f.rules != {"pieces_per_size": 1}]
    assert others and all(f.verdicts["game_length <= 3"] == MISSED for f in others)
    assert r.sampler == "TPESampler" and r.trials == 5


def test_blitz_finds_a_set_time_where_most_rounds_end_in_a_line():
    r = _search("blitz", ["set_ms=500..2500"], "decisiveness >= 0.3", trials=6, matches=10,
                confirm=2, confirm_matches=24)  # fmt: skip
    assert r.base.rules == {"set_ms": 1600} and r.base.verdicts["decisiveness >= 0.3"] == MISSED
    assert all(f.verdicts["decisiveness >= 0.3"] == MET for f in r.best)
    assert all(f.rules["set_ms"] <= 1400 for f in r.best)  # greedy: 12 % at 1600 ms, 61 % at 1000


def test_rift_finds_the_idle_gain_that_lengthens_games():
    r = _search("rift", ["energy_idle_gain=0..3"], "game_length >= 39", trials=8, matches=10,
                confirm=2, confirm_matches=30)  # fmt: skip
    assert [f.rules for f in r.best] == [{"energy_idle_gain": 0}]
    assert r.best[0].verdicts == {"game_length >= 39": MET}
    assert r.base.verdicts["game_length >= 39"] == MISSED


def test_the_finalists_are_replayed_with_more_matches_on_fresh_seeds(monkeypatch, tmp_path):
    storage = f"sqlite:///{tmp_path / 'c.db'}"
    real = candidates.Candidates.measure
    plays = []

    def counted(self, overrides, matches, seed, **kw):
        plays.append((matches, seed))
        return real(self, overrides, matches, seed, **kw)

    monkeypatch.setattr(candidates.Candidates, "measure", counted)
    r = _search("doh", ["pieces_per_size=1..4"], "game_length <= 3", trials=4, matches=6,
                confirm=2, confirm_matches=15, seed=9, storage=storage)  # fmt: skip
    fresh = 9 + CONFIRM_SEED_OFFSET
    study = optuna.load_study(study_name=r.study, storage=storage)
    distinct = {tuple(t.params.items()) for t in study.trials}
    searched = len(plays) - len(r.finalists)
    assert searched == len(distinct)  # a rule set proposed twice is played once
    assert plays[:searched] == [(6, 9)] * searched  # every candidate on the same seeds
    assert plays[searched:] == [(15, fresh)] * len(r.finalists)  # the base and finalists
    assert 2 <= len(r.finalists) <= 3 and r.finalists[0] in r.best


def test_several_objectives_use_nsga2_and_draw_a_pareto_plot(tmp_path):
    plot = tmp_path / "pareto.png"
    r = tune("blitz", ["set_ms=600..2400", "recharge_knockout_ms=500..3000"],
             ["decisiveness >= 0.3"], ["max decisiveness", "min round_length_ms"],
             seats=["all=greedy"], trials=5, matches=6, confirm=2, confirm_matches=10,
             storage=f"sqlite:///{tmp_path / 'p.db'}", workers=1, sampler_seed=1,
             plot=str(plot))  # fmt: skip
    study = optuna.load_study(study_name=r.study, storage=f"sqlite:///{tmp_path / 'p.db'}")
    assert len(study.directions) == 2
    assert r.sampler == "NSGAIISampler" and len(study.trials) == 5
    assert r.plot == str(plot) and plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert set(r.importances) <= {"max decisiveness", "min round_length_ms"}
    assert r.objective_names == ["max decisiveness", "min round_length_ms"]


def test_the_cli_prints_the_estimate_and_the_answer(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["tune", *DOH_SEARCH, *SMALL, "--trials", "2", "--json"]) == 0
    captured = capsys.readouterr()
    assert "tictacblitz tune: estimate: 28 matches (2 candidates x 6" in captured.err
    assert (tmp_path / "tune.db").exists()
    import json

    answer = json.loads(captured.out)
    assert answer["trials"] == 2 and answer["best"][0]["metrics"]["game_length"]["unit"] == "plies"


def test_doctests():
    import doctest
    import importlib

    from tictacblitz.lab import targets

    for module in (targets, importlib.import_module("tictacblitz.lab.tune")):
        assert doctest.testmod(module).failed == 0


def test_rule_sets_the_rules_refuse_together_are_skipped_not_fatal():
    # Each end is legal against the other's default (2,500 / 4,500 ms), but a minimum
    # above the maximum is not: such candidates are pruned, the search goes on.
    r = _search("blitz", ["spawn_min_ms=1000..4400", "spawn_max_ms=2600..4500"],
                "decisiveness >= 0.05", trials=8, matches=4, confirm=1,
                confirm_matches=4)  # fmt: skip
    assert r.refused > 0 and r.trials + r.refused == 8


def test_a_candidate_that_seats_more_players_counts_two_seat_metrics_as_missing():
    r = _search("doh", ["players=2..3"], "x_win_rate >= 0.4", trials=3, matches=6,
                confirm=1, confirm_matches=6)  # fmt: skip
    three = [f for f in r.finalists if f.rules.get("players") == 3]
    assert three  # the search tried three players and re-played it
    for f in three:
        assert f.estimates["x_win_rate"].value is None
        assert f.verdicts["x_win_rate >= 0.4"] == "unknown"


@pytest.mark.parametrize(
    "args, words",
    [
        (["--vary", "set_ms=2000..800", "--target", "decisiveness >= 0.5"], "is empty"),
        (["--vary", "set_ms=800..2000", "--target", "line_shares >= 0.5"], "unknown metric"),
        (["--vary", "set_ms=800..2000"], "give at least one --target or --objective"),
        (["--target", "decisiveness >= 0.5"], "--vary"),
    ],
)
def test_the_command_line_refuses_in_one_line_without_a_traceback(
    tmp_path, monkeypatch, capsys, args, words
):
    # through the command's entry point in this process (a traceback would fail the test
    # as an exception); test_two_worker_processes_share_one_study runs python -m
    monkeypatch.chdir(tmp_path)
    try:
        status = main(["tune", *args])
    except SystemExit as exit_:  # the parser's own errors, through the one-line parser
        status = exit_.code
    assert status == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and words in err
    assert not (tmp_path / "tune.db").exists()  # no storage opened
