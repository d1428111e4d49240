"""The load tool over two server processes sharing one Redis (issue 18; docs/server.md,
"Load", "Over processes"): a short run end to end."""

from __future__ import annotations

import json
import os
import shutil

import pytest


@pytest.fixture
def redis_server() -> None:
    if shutil.which("redis-server") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI installs redis-server (apt-get install redis-server)")
        pytest.skip("no redis-server on this machine")


def test_load_over_two_processes(redis_server: None, capsys: pytest.CaptureFixture) -> None:
    """A few matches over two processes: every match plays, both processes host rooms,
    the clients follow the redirects, and Redis saw the cluster's commands."""
    from tictacblitz.loadtest import run as load

    code = load.main(
        [
            "--processes",
            "2",
            "--matches",
            "4",
            "--seconds",
            "5",
            "--round-ms",
            "2000",
            "--sample-s",
            "1",
        ]
    )
    result = json.loads(capsys.readouterr().out)
    assert code == 0, result
    assert result["matches"] == 4 and result["events"] > 0, result
    assert result["errors"] == {} and result["lost_events"] == 0 and result["closed_early"] == 0
    assert result["latency_ms"]["p99"] is not None
    assert len(result["processes"]) == 2
    assert all(p["rooms"] > 0 for p in result["processes"]), result["processes"]
    assert sum(p["rooms"] for p in result["processes"]) == 4
    assert all(p["cpu_s"] > 0 and p["rss_mib"] > 0 for p in result["processes"])
    assert result["redirects"] >= 1
    assert len(result["memory"][-1]["by_process"]) == 2
    assert result["redis"]["calls"] > 0 and "set" in result["redis"]["commands"]


def test_processes_option_is_bounded() -> None:
    from tictacblitz.loadtest import run as load

    for bad in (["--processes", "0"], ["--processes", "99"], ["--processes", "2", "--port", "1"]):
        with pytest.raises(SystemExit):
            load.main([*bad, "--matches", "1", "--seconds", "1"])
