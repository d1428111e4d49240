"""A game's lab adapter (lab/adapter.py ``LabAdapter``, found by lab/hooks.py
``hooks_for`` in ``tictacblitz.lab.games.<game>``): a misspelled hook, a hook of the
wrong kind, or a misspelled adapter folder fails loudly, instead of the lab silently
falling back to its default (issue 27, item 1)."""

from __future__ import annotations

import pytest

import tictacblitz.lab.games as lab_games
from tictacblitz.games import registry
from tictacblitz.games.adapters import AdapterError
from tictacblitz.lab import hooks
from tictacblitz.lab.adapter import HOOKS, LabAdapter
from tictacblitz.lab.hooks import hooks_for


@pytest.mark.parametrize("game", ["blitz", "doh", "rift"])
def test_every_game_has_its_lab_adapter_under_lab_games(game):
    adapter = hooks_for(game)
    assert isinstance(adapter, LabAdapter) and type(adapter) is not LabAdapter
    assert type(adapter).__module__ == f"tictacblitz.lab.games.{game}"
    assert adapter.get("DEFAULT_BOT") in adapter.bot_names
    assert adapter.get("play_matches") is not None


def subclass(**body: object) -> type:
    return type("MisspeltLab", (LabAdapter,), {"__module__": "tests.fake_lab", **body})


@pytest.mark.parametrize("misspelled", ["PAIR_MEAN", "record_field", "Summary_Lines"])
def test_a_misspelled_hook_fails_loudly(misspelled):
    """Before, ``PAIR_MEAN`` was never read and the tournament showed no per-pair means."""
    with pytest.raises(ValueError) as caught:
        subclass(**{misspelled: {}})
    assert isinstance(caught.value, AdapterError)
    assert isinstance(caught.value, hooks.HookError)  # a ValueError: the CLI's one line
    message = str(caught.value)
    assert "\n" not in message
    assert f"{misspelled} is no LabAdapter name (did you mean " in message
    assert "tests.fake_lab.MisspeltLab" in message


def test_the_misspelling_names_the_hook_it_misses():
    with pytest.raises(ValueError, match=r"sweepabel is no LabAdapter name .*sweepable"):
        subclass(sweepabel=lambda self: {})


def test_a_hook_of_the_wrong_kind_fails_loudly():
    with pytest.raises(ValueError) as caught:
        subclass(PAIR_MEANS=["moves"], DEFAULT_BOT=("random",))
    message = str(caught.value)
    assert "hook DEFAULT_BOT is a tuple, expected a string" in message
    assert "hook PAIR_MEANS is a list, expected a mapping" in message


def test_a_name_far_from_every_hook_is_the_adapters_own():
    cls = subclass(OPENING_NAMES=("centre",), first_seat_share=lambda self: 0.5)
    assert cls.OPENING_NAMES == ("centre",)


def test_the_lab_asks_only_for_declared_hooks():
    with pytest.raises(KeyError, match="PAIR_MEAN"):
        hooks_for("doh").get("PAIR_MEAN")
    assert "play_matches" in HOOKS


def test_a_misspelled_lab_games_folder_fails_loudly(tmp_path):
    """A ``lab/games/dho.py`` (for doh) adapted no game and was never read: now every
    look-up in the lab names it."""
    (tmp_path / "dho.py").write_text(
        "from tictacblitz.lab.adapter import LabAdapter\n\n\nclass DhoLab(LabAdapter):\n    pass\n"
    )
    lab_games.__path__.append(str(tmp_path))
    hooks_for.cache_clear()
    try:
        with pytest.raises(ValueError, match=r"tictacblitz\.lab\.games\.dho adapts no registered"):
            hooks_for("doh")
    finally:
        lab_games.__path__.remove(str(tmp_path))
        hooks_for.cache_clear()
    assert type(hooks_for("doh")).__name__ == "DohLab"


def test_a_game_without_a_lab_adapter_runs_nothing_and_says_why(monkeypatch):
    """A registered game with no ``lab/games/<game>``: its bots and rules work, a run
    fails with one line naming where its adapter goes."""
    monkeypatch.setattr(hooks, "adapter_class", lambda *args: None)
    hooks_for.cache_clear()
    try:
        adapter = hooks_for("doh")
        assert adapter.bot_names == tuple(registry.load_game("doh").bot_names)
        with pytest.raises(ValueError, match=r"no native batch runner.*lab/games/doh"):
            adapter.play_matches(None, ("random", "random"), [1])
    finally:
        hooks_for.cache_clear()
