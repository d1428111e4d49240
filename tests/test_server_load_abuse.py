"""The load tool's issue 26 attacks (``--abuse rift-relock``, ``replay-fetch``,
``slow-upload``: loadtest/procs.py), short: they run, stay bounded, and the server
refuses the attacker while the honest Rift players play on."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("websockets")
pytest.importorskip("blitz_core.rift")

from tictacblitz.loadtest import run as load
from tictacblitz.loadtest.cluster import free_port
from tictacblitz.server.games.rift import MOVES_PER_TURN


def _run(scenario: str, seconds: float = 8.0) -> dict:
    import anyio

    port = free_port()
    proc = load.start_server(port, [json.dumps({"game": "rift", "pause_ms": 200})])
    try:
        return anyio.run(
            lambda: load.run_load(
                "127.0.0.1", port, 4, seconds, proc.pid, 2.0, 1.0, game="rift", abuse=scenario
            )
        )
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_rift_relock_holds_a_bounded_log_while_honest_players_play() -> None:
    """Four rooms, a seat in each changing its mind 45 times a second for 8 s: the old
    server recorded every one (~360 script entries a room); now a turn holds at most
    MOVES_PER_TURN of a seat."""
    result = _run("rift-relock")
    assert result["honest_refused"] == 0 and result["actions"] > 0, result
    answers = result["abuse"]["answers"]
    assert answers["move_limit"] > answers["sent"] // 2, answers
    replays = result["abuse"]["replays"]
    assert len(replays) == 4 and all(r["entries"] <= MOVES_PER_TURN for r in replays), replays


def test_the_load_tool_names_its_scenarios(capsys) -> None:
    with pytest.raises(SystemExit):
        load.main(["--abuse", "nonsense"])
    assert "--abuse nonsense: one of flood, rift-relock" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        load.main(["--abuse", "rift-relock"])  # a Blitz server has no re-locks
    assert "--abuse rift-relock needs --game rift" in capsys.readouterr().err
