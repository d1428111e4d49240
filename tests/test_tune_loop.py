"""tune's search loop (lab/tune_loop.py, issue 24's overhead benchmark): the next
trial is asked while a candidate's matches play, and that changes nothing the search
answers: the same trials, numbers, rule sets and values as asking each in turn, for
TPE (one objective) and NSGA-II (several). Counts threads and trials, never time."""

import sys
import threading

import pytest

pytest.importorskip("optuna")
import optuna

from tictacblitz.lab import tune_loop
from tictacblitz.lab.tune import tune

tune_module = sys.modules["tictacblitz.lab.tune"]  # the module (lab.tune also names a function)

VARY = ["set_ms=800..2000", "recharge_knockout_ms=500..3000"]
REAL_ASK = optuna.study.Study.ask


def _search(tmp_path, monkeypatch, ahead, objectives):
    monkeypatch.setattr(tune_module, "can_ask_ahead", lambda url: ahead)
    asked = []  # (thread name, trial number) of every ask

    def ask(self, *args, **kwargs):
        trial = REAL_ASK(self, *args, **kwargs)
        asked.append((threading.current_thread().name.split("_")[0], trial.number))
        return trial

    monkeypatch.setattr(optuna.study.Study, "ask", ask)
    storage = f"sqlite:///{tmp_path / ('ahead' if ahead else 'in-turn')}.db"
    tune(
        "blitz",
        VARY,
        ["decisiveness >= 0.5"],
        objectives,
        seats=["all=greedy"],
        trials=6,
        matches=4,
        confirm=1,
        confirm_matches=4,
        storage=storage,
        study="s",
        workers=1,
        sampler_seed=7,
    )
    trials = optuna.load_study(study_name="s", storage=storage).trials
    return [(t.number, t.state, t.params, t.values, t.user_attrs) for t in trials], asked


@pytest.mark.parametrize(
    "objectives", [[], ["max decisiveness", "max round_length_ms"]], ids=["tpe", "nsga2"]
)
def test_asking_ahead_gives_the_same_trials_as_asking_in_turn(tmp_path, monkeypatch, objectives):
    in_turn, asked_in_turn = _search(tmp_path, monkeypatch, False, objectives)
    ahead, asked_ahead = _search(tmp_path, monkeypatch, True, objectives)
    assert ahead == in_turn
    assert [t[1] for t in ahead] == [optuna.trial.TrialState.COMPLETE] * 6
    assert {name for name, _ in asked_in_turn} == {"MainThread"}
    # every trial after the first was asked while the one before played (no twins here:
    # each candidate played its matches)
    assert all("same_as" not in t[4]["tune"] for t in ahead)
    assert asked_ahead == [("MainThread", 0)] + [("tune-ask", k) for k in range(1, 6)]


def test_sqlite_in_memory_is_asked_in_turn():
    # each thread would open its own in-memory database
    assert not tune_loop.can_ask_ahead("sqlite:///:memory:")
    assert tune_loop.can_ask_ahead("sqlite:///tune.db")
