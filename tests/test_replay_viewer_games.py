"""The replay viewer's ``POST /api/replay-events`` names the file's game when the file is
not this server's (issue 26, item 11): a Blitz server took ``{"game": "chess"}`` and ``{}``
as empty replays, a Doh server showed a Blitz file as an empty Doh game, and Doh or Rift
files on another game's server failed with that loader's words ("script[0] has unknown
key(s)"). One line now, by the file's ``"game"`` key (docs/replay-format.md)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient

from tictacblitz.games import load_game
from tictacblitz.server.app import create_app
from tictacblitz.server.clock import ManualClock
from tictacblitz.server.settings import Settings

BLITZ = {"seed": 1, "script": [{"t": 0, "player": "X", "place": [0, 0]}]}
DOH = {"game": "doh", "script": [{"piece": "L", "at": [0, 0]}, {"piece": "S", "at": [0, 1]}]}
RIFT = {"game": "rift", "seed": 3, "script": [{"turn": 1, "X": {"cell": 40}, "O": {"cell": 36}}]}
FILES = {"blitz": BLITZ, "doh": DOH, "rift": RIFT}
NAMES = {"blitz": "Tic Tac Blitz", "doh": "Tic Tac Doh", "rift": "Rift & Grid"}


def _post(client: TestClient, body) -> tuple:
    r = client.post(
        "/api/replay-events",
        content=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    return r.status_code, r.json()


@pytest.fixture(params=["blitz", "doh", "rift"])
def server(request):
    game = request.param
    pytest.importorskip(f"blitz_core.{game}" if game != "blitz" else "blitz_core.blitz.engine")
    settings = Settings(game=load_game(game), work_burst=100, work_rate_per_s=100.0)
    with TestClient(create_app(settings, ManualClock())) as client:
        yield game, client


def test_the_servers_own_file_plays(server) -> None:
    game, client = server
    status, body = _post(client, FILES[game])
    assert status == 200, body
    assert body["frames"], body


def test_another_games_file_is_named(server) -> None:
    game, client = server
    for other in (g for g in FILES if g != game):
        status, body = _post(client, FILES[other])
        assert status == 422 and body["error"] == "bad_replay", body
        assert (
            body["message"] == f"this is a {NAMES[other]} replay; this server plays {NAMES[game]}"
        )


def test_no_game_no_script_and_not_an_object(server) -> None:
    game, client = server
    here = NAMES[game]
    cases = [
        ({"game": "chess"}, f'game "chess" (this server plays {here})'),
        ({"game": 7, "script": []}, f"game 7 (this server plays {here})"),
        ([1, 2], "a replay is a JSON object, not a list"),
        ("replay", "a replay is a JSON object, not a string"),
    ]
    # `{}` is a Blitz file by the format (no "game"): on Blitz's server it has nothing to
    # show; on the others it is another game's file.
    if game == "blitz":
        cases.append(({}, "no script (the match's actions) and no setup"))
        cases.append(({"rules": {"round_ms": 3000}}, "no script"))
    else:
        cases.append(({}, f"this is a Tic Tac Blitz replay; this server plays {here}"))
    for body, words in cases:
        status, answer = _post(client, body)
        assert status == 422 and answer["error"] == "bad_replay", (body, answer)
        assert words in answer["message"], (body, answer)
        assert "\n" not in answer["message"]
