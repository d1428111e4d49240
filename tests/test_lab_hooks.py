"""A game's balance hooks are looked up by name (lab/hooks.py): a misspelled hook, or one
of the wrong kind, fails loudly when the game's hooks load, instead of falling back to
the lab's default (issue 27, item 1)."""

from __future__ import annotations

import sys
from types import ModuleType

import pytest

from tictacblitz.lab import hooks
from tictacblitz.lab.hooks import GameHooks

GAME = "doh"
BALANCE = f"tictacblitz.games.{GAME}.balance"


def with_balance(monkeypatch: pytest.MonkeyPatch, **names: object) -> None:
    """Stand in for the game's balance module: the real one's names, with ``names``
    added (a fake game module; ``None`` deletes the name)."""
    import importlib

    real = importlib.import_module(BALANCE)
    fake = ModuleType(BALANCE)
    fake.__dict__.update(vars(real))
    for name, value in names.items():
        if value is None:
            del fake.__dict__[name]
        else:
            setattr(fake, name, value)
    monkeypatch.setitem(sys.modules, BALANCE, fake)


@pytest.mark.parametrize("game", ["blitz", "doh", "rift"])
def test_the_games_hooks_load_clean(game):
    assert GameHooks(game).get("DEFAULT_BOT") in GameHooks(game).bot_names


@pytest.mark.parametrize("misspelled", ["PAIR_MEAN", "record_field", "Summary_Lines"])
def test_a_misspelled_hook_fails_loudly(monkeypatch, misspelled):
    """Before, ``PAIR_MEAN`` was never read and the tournament showed no per-pair means."""
    with_balance(monkeypatch, **{misspelled: {}})
    with pytest.raises(ValueError) as caught:
        GameHooks(GAME)
    assert isinstance(caught.value, hooks.HookError)  # a ValueError: the CLI's one line
    message = str(caught.value)
    assert "\n" not in message
    assert f"{misspelled} is no hook (did you mean " in message and BALANCE in message


def test_the_misspelling_names_the_hook_it_misses(monkeypatch):
    # (the real module has no sweepable: the misspelling would have been the only one)
    with_balance(monkeypatch, sweepabel=lambda rules: {})
    with pytest.raises(ValueError, match=r"sweepabel is no hook \(did you mean sweepable\?\)"):
        GameHooks(GAME)


def test_a_hook_of_the_wrong_kind_fails_loudly(monkeypatch):
    with_balance(monkeypatch, METRICS=["moves_mean"], DEFAULT_BOT=("random",))
    with pytest.raises(ValueError) as caught:
        GameHooks(GAME)
    message = str(caught.value)
    assert "hook DEFAULT_BOT is a tuple, expected a string" in message
    assert "hook METRICS is a list, expected a mapping" in message


def test_a_name_far_from_every_hook_is_the_games_own(monkeypatch):
    with_balance(monkeypatch, OPENING_NAMES=("centre",), first_seat_score=lambda s: 0.5)
    assert GameHooks(GAME).get("PAIR_MEANS") is not None


def test_the_lab_asks_only_for_declared_hooks():
    with pytest.raises(KeyError, match="PAIR_MEAN"):
        GameHooks(GAME).get("PAIR_MEAN")
    assert hooks.RUNNER in hooks.HOOKS
