"""How the server and the load tool find a game's adapter (issue 27, items 1 and 4): one
package per game in ``server/games/<game>/`` holding one ``GameAdapter`` subclass, one
module per game in ``loadtest/games/<game>.py`` holding one ``LoadClient`` subclass, both
found by the shared lookup (``tictacblitz.games.adapters.adapter_class``), which fails
loudly on a misspelled folder or override instead of skipping it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict

import pytest

pytest.importorskip("blitz_core.blitz")

from tictacblitz.games import available_games, load_game
from tictacblitz.games.adapters import AdapterError, adapter_class
from tictacblitz.games.protocol import TimeModel
from tictacblitz.loadtest import games as load_games
from tictacblitz.loadtest import run as load
from tictacblitz.loadtest.client import LoadClient, NoClients, client_class
from tictacblitz.server import games as server_games
from tictacblitz.server.adapter import GameAdapter, adapter_for, adapter_games
from tictacblitz.server.settings import Settings

PYTHON = Path(__file__).resolve().parent.parent / "python"


def test_every_game_package_is_found_by_the_shared_lookup() -> None:
    assert adapter_games() == list(available_games())  # every game is served
    for name in adapter_games():
        game = load_game(name)
        adapter = adapter_for(game, Settings(game=game))
        assert type(adapter) is adapter_class(server_games, name, GameAdapter)
        assert type(adapter).__module__ == f"tictacblitz.server.games.{name}"
        assert adapter.time_model == game.type.time_model


def _misspelled_folder(monkeypatch: Any, tmp_path: Path, package: Any, entry: str) -> None:
    """Put ``entry`` (a folder ``name/`` or a module ``name.py``) beside the package's own."""
    if entry.endswith("/"):
        (tmp_path / entry).mkdir()
        (tmp_path / entry / "__init__.py").write_text("")
    else:
        (tmp_path / entry).write_text("")
    monkeypatch.setattr(package, "__path__", [*package.__path__, str(tmp_path)])


def test_a_misspelled_server_adapter_folder_fails_loudly(monkeypatch, tmp_path) -> None:
    # Before issue 27 a stray server/games module was skipped (found by find_spec on
    # the game's own name): a misspelled adapter left its game unserved, silently.
    _misspelled_folder(monkeypatch, tmp_path, server_games, "bliz/")
    game = load_game("blitz")
    with pytest.raises(AdapterError) as refused:
        adapter_for(game, Settings(game=game))
    message = str(refused.value)
    assert "bliz" in message and "did you mean blitz" in message and "\n" not in message


def test_a_misspelled_load_client_module_fails_loudly(monkeypatch, tmp_path) -> None:
    _misspelled_folder(monkeypatch, tmp_path, load_games, "rfit.py")
    with pytest.raises(AdapterError, match="rfit adapts no registered game .did you mean rift"):
        client_class("blitz")


def test_a_misspelled_override_is_refused_when_the_class_is_made() -> None:
    # ``replay_frame`` for ``replay_frames`` would leave the abstract method in force;
    # ``bot_name`` for ``bot_names`` the base's empty tuple: both refused at once.
    with pytest.raises(AdapterError, match="replay_frame is no GameAdapter name"):

        class Misspelled(GameAdapter):
            time_model = TimeModel.ALTERNATING

            def replay_frame(self, data: Any) -> Dict[str, Any]:
                return {}

    with pytest.raises(AdapterError, match="bot_name is no LoadClient name"):

        class MisspelledClient(LoadClient):
            bot_name = ("person",)


def test_an_adapter_driving_another_time_model_is_refused(monkeypatch) -> None:
    adapter = adapter_class(server_games, "doh", GameAdapter)
    monkeypatch.setattr(adapter, "time_model", TimeModel.REAL_TIME)
    game = load_game("doh")
    with pytest.raises(RuntimeError, match="drives a real_time game, but 'doh' is alternating"):
        adapter_for(game, Settings(game=game))


def test_each_load_client_is_found_with_its_bots() -> None:
    blitz, rift = client_class("blitz"), client_class("rift")
    assert blitz.__name__ == "BlitzLoadClient" and blitz.default_bot in blitz.bot_names
    assert rift.__name__ == "RiftLoadClient" and rift.bot_names == ("person",)
    assert rift.relocks() and not blitz.relocks()  # --abuse rift-relock's seat is Rift's
    with pytest.raises(NoClients, match="no load clients for 'doh'"):
        client_class("doh")


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--game", "doh"], "--game doh: no load clients (loadtest/games/doh.py)"),
        (["--game", "nope"], "--game nope: unknown game 'nope'"),
        (["--game", "blitz", "--bot", "nobody"], "--bot nobody: one of"),
        (["--game", "blitz", "--abuse", "rift-relock"], "needs --game rift"),
    ],
)
def test_the_load_command_refuses_bad_input_in_one_line(argv, words, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        load.main([*argv, "--matches", "1", "--seconds", "1"])
    assert exited.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert words in last


def test_the_load_tool_runs_as_its_own_module() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tictacblitz.loadtest", "--matches", "0"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(PYTHON)},
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().splitlines()[-1].endswith("--matches must be 1..500")
