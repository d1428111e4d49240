"""The fourth game passes the platform's conformance suite (tests/test_conformance.py),
registered by its folders only (docs/architecture.md, "Adding a game"): the suite's
tests run here again with ``game`` the fourth game, as they run for every game of the
package."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from fourth_game_folders import GAME, HERE

from test_conformance import (  # noqa: F401 (collected here again, with this module's game)
    random_final_bytes,
    test_a_game_speaks_the_protocol,
    test_a_malformed_replay_is_one_clear_error,
    test_a_recorded_game_replays_to_the_same_state,
    test_bad_input_raises_and_changes_nothing,
    test_bots_play_legal_moves,
    test_copies_continue_identically,
    test_masks_are_what_apply_accepts,
    test_observations_have_the_declared_shape,
    test_random_games_reach_the_end,
    test_rule_changes_are_validated,
)
from tictacblitz.games import Game, ReplayError, available_games, game_type, load_game

ROOT = HERE.parent.parent
PACKAGE = ROOT / "python" / "tictacblitz"


@pytest.fixture
def game() -> Game:
    """The conformance suite's ``game``: here the fourth game (two seats, its only count)."""
    return load_game(GAME)


def test_the_folders_alone_register_the_game() -> None:
    assert GAME in available_games() and game_type(GAME).name == GAME
    assert load_game(GAME, {"misere": True}).rules.misere is True
    naming = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*")
        if path.is_file()
        and path.suffix in (".py", ".pyi", ".js", ".json", ".toml")
        and GAME in path.read_text(encoding="utf-8", errors="replace").lower()
    ]
    assert naming == [], "a file of the package names the fourth game"


def test_the_registration_ends_with_the_block_and_holds_in_a_new_process() -> None:
    """In a fresh interpreter: no fourth game before or after ``registered()`` (no module,
    no cached adapter left), and the same game from the same seed in it as here (the
    suite's cross-process check)."""
    code = f"""
import json, sys
sys.path[:0] = [{str(HERE)!r}, {str(HERE.parent)!r}]
from fourth_game_folders import registered
from tictacblitz.games import available_games
before = available_games()
with registered():
    import test_conformance as suite
    inside = available_games()
    from tictacblitz.games import load_game
    from tictacblitz.lab.hooks import hooks_for
    from tictacblitz.server.adapter import adapter_for
    from tictacblitz.server.settings import Settings
    game = load_game({GAME!r})
    hooks_for({GAME!r}), adapter_for(game, Settings(game=game))  # every layer's adapter
    final = suite.random_final_bytes({GAME!r}, 12, 2).hex()
after = available_games()
try:
    hooks_for({GAME!r})  # lru-cached inside the block: emptied at its end
    modules = ["a stale lab adapter"]
except ValueError:
    modules = []
modules += [m for m in sys.modules if m.endswith(".{GAME}") or ".{GAME}." in m]
import tictacblitz.games, tictacblitz.lab.games, tictacblitz.server.games
packages = (tictacblitz.games, tictacblitz.lab.games, tictacblitz.server.games)
modules += [p.__name__ for p in packages if hasattr(p, {GAME!r})]
print(json.dumps([before, inside, after, final, modules]))
"""
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    before, inside, after, final, modules = json.loads(run.stdout)
    assert GAME not in before and GAME in inside and after == before
    assert modules == []
    assert bytes.fromhex(final) == random_final_bytes(GAME, 12, 2)


def test_a_replay_refuses_a_move_the_rules_refuse_on_both_engines(game: Game) -> None:
    for moves, reason in (([4, 4], "occupied"), ([0, 3, 1, 4, 2, 5], "game_over")):
        for engine in ("native", "reference"):
            with pytest.raises(ReplayError, match=f"moves\\[{len(moves) - 1}\\].*{reason}"):
                game.replay({"moves": moves}, engine=engine)


@pytest.mark.parametrize("misere, result", [(False, "X"), (True, "O")])
def test_a_line_wins_or_under_misere_loses_on_both_engines(game: Game, misere, result) -> None:
    data = {"rules": {"misere": misere}, "moves": [0, 3, 1, 4, 2]}  # X: a1 b1 c1 (T3)
    native = game.replay(data)
    assert native["result"] == result and native["state"]["board"] == ["XXX", "OO.", "..."]
    assert game.replay(data, engine="reference") == native
    draw = {"moves": [0, 1, 2, 4, 3, 5, 7, 6, 8]}  # T4: full, no line
    assert game.replay(draw)["result"] == "draw" == game.replay(draw, engine="reference")["result"]
