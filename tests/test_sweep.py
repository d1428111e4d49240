"""`sweep`: grid parsing, grid and random sweeps, the tidy table, plots and HTML report,
bad arguments (exit 2, nothing written)."""

import argparse
import csv
import json
import os

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("matplotlib")

from tictacblitz import Rules
from tictacblitz.lab import sweep as sw
from tictacblitz.lab.simulation import simulate
from tictacblitz.lab.sweep import parse_grid, sweep


def run_cli(argv, capsys):
    parser = argparse.ArgumentParser(prog="tictacblitz")
    sw.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    status = args.handler(args)
    out = capsys.readouterr()
    return status, out.out, out.err


def test_parse_grid():
    assert parse_grid("set_ms=1200:2000:200") == (
        "set_ms",
        {"values": [1200, 1400, 1600, 1800, 2000]},
    )
    assert parse_grid("set_ms=1200:2100:400") == ("set_ms", {"values": [1200, 1600, 2000]})
    assert parse_grid("mark_limit=6,8,10") == ("mark_limit", {"values": [6, 8, 10]})
    assert parse_grid("freeze_factor=1.5:2.5:0.5") == ("freeze_factor", {"values": [1.5, 2.0, 2.5]})
    assert parse_grid("powerup_weights.bomb=0,1,2") == (
        "powerup_weights.bomb",
        {"values": [0, 1, 2]},
    )
    assert parse_grid("round_ms=20000:60000") == ("round_ms", {"range": (20000, 60000)})


@pytest.mark.parametrize(
    "spec, message",
    [
        ("set_ms", "expected NAME="),
        ("sett_ms=1:2:1", "unknown rule"),
        ("set_ms=1.5:3:1", "integers"),
        ("set_ms=2000:1000:100", "below START"),
        ("set_ms=1000:2000:0", "STEP must be > 0"),
        ("set_ms=a,b", "not a number"),
        ("set_ms=1,1", "twice"),
        ("set_ms=1:2:3:4", "START:STOP"),
    ],
)
def test_parse_grid_errors(spec, message):
    with pytest.raises(ValueError, match=message):
        parse_grid(spec)


def test_grid_sweep_uses_the_same_match_seeds_at_every_point():
    res = sweep({"set_ms": [1200, 1600], "mark_limit": [6, 8]}, matches=40, seed=3, workers=2)
    assert res.points == [
        {"set_ms": 1200, "mark_limit": 6},
        {"set_ms": 1200, "mark_limit": 8},
        {"set_ms": 1600, "mark_limit": 6},
        {"set_ms": 1600, "mark_limit": 8},
    ]
    default = simulate(40, seed=3, workers=1, table=False).summary
    point = res.summaries[3]  # set_ms 1600, mark_limit 8: the defaults
    for key in ("x_wins", "o_wins", "draws", "rounds", "powerups", "knockouts_per_round"):
        assert point[key] == default[key]
    metrics = {row["metric"] for row in res.rows}
    assert len(res.rows) == 4 * len(metrics)
    row = next(r for r in res.rows if r["point"] == 0 and r["metric"] == "x_win_rate")
    assert row["set_ms"] == 1200 and row["mark_limit"] == 6
    assert row["lo"] <= row["value"] <= row["hi"]
    assert res.table().num_rows == len(res.rows)


def test_random_sweep_is_deterministic_and_in_range():
    a = sweep(
        {"round_ms": (10000, 20000), "freeze_factor": (1.5, 3.0)},
        random=3,
        matches=5,
        seed=8,
        workers=1,
    )
    b = sweep(
        {"round_ms": (10000, 20000), "freeze_factor": (1.5, 3.0)},
        random=3,
        matches=5,
        seed=8,
        workers=1,
    )
    assert a.points == b.points and len(a.points) == 3
    for p in a.points:
        assert 10000 <= p["round_ms"] <= 20000 and isinstance(p["round_ms"], int)
        assert 1.5 <= p["freeze_factor"] <= 3.0


def test_sweep_weights():
    res = sweep({"powerup_weights.bomb": [0, 4]}, matches=20, seed=1, workers=1)
    assert res.summaries[0]["powerups"]["bomb"]["claims"] == 0
    assert res.summaries[1]["powerups"]["bomb"]["claims"] > 0
    assert res.summaries[1]["rules"]["powerup_weights"]["bomb"] == 4


@pytest.mark.slow
def test_cli_writes_table_plots_and_a_self_contained_report(capsys, tmp_path):
    out = tmp_path / "report"
    status, stdout, err = run_cli(
        [
            "sweep",
            "--grid",
            "set_ms=1000:2000:500",
            "--grid",
            "crater_ms=0,2000",
            "--matches",
            "20",
            "--seed",
            "2",
            "--out",
            str(out),
            "--no-progress",
        ],
        capsys,
    )
    assert status == 0, err
    names = sorted(os.listdir(out))
    assert names == [
        "report.html",
        "sweep.csv",
        "sweep.json",
        "sweep.parquet",
        "sweep_crater_ms.png",
        "sweep_set_ms.png",
    ]
    assert os.listdir(tmp_path) == ["report"]
    with open(out / "sweep.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert {r["set_ms"] for r in rows} == {"1000", "1500", "2000"}
    assert {r["point"] for r in rows} == {str(k) for k in range(6)}
    assert set(rows[0]) == {"point", "set_ms", "crater_ms", "metric", "value", "lo", "hi"}
    page = (out / "report.html").read_text()
    assert page.count("data:image/png;base64,") == 2
    assert "src='http" not in page and 'src="http' not in page
    assert (out / "sweep_set_ms.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    meta = json.loads((out / "sweep.json").read_text())["meta"]
    assert meta["points"] == 6 and meta["params"] == ["set_ms", "crater_ms"]
    assert "set_ms" in stdout
    # The closing line names the plots written, not a placeholder (issue 26).
    assert "sweep_set_ms.png, sweep_crater_ms.png in" in stdout and "<param>" not in stdout
    # An existing folder is refused without --overwrite, replaced with it.
    status, _, err = run_cli(
        [
            "sweep",
            "--grid",
            "set_ms=1000,1200",
            "--matches",
            "5",
            "--out",
            str(out),
            "--no-progress",
        ],
        capsys,
    )
    assert status == 2 and "--overwrite" in err
    status, _, err = run_cli(
        [
            "sweep",
            "--grid",
            "set_ms=1000,1200",
            "--matches",
            "5",
            "--out",
            str(out),
            "--no-progress",
            "--overwrite",
        ],
        capsys,
    )
    assert status == 0
    assert "sweep_crater_ms.png" not in os.listdir(out)
    assert sorted(os.listdir(tmp_path)) == ["report"]


def test_cli_json(capsys, tmp_path):
    status, stdout, _ = run_cli(
        [
            "sweep",
            "--grid",
            "mark_limit=6,8",
            "--matches",
            "10",
            "--out",
            str(tmp_path / "s"),
            "--json",
            "--no-progress",
        ],
        capsys,
    )
    assert status == 0
    rows = json.loads(stdout)
    assert {r["mark_limit"] for r in rows} == {6, 8}


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--grid", "nope=1,2"], "unknown rule"),
        (["--grid", "set_ms=-400:400:400"], "set_ms"),  # out of range at one point
        (["--grid", "spawn_min_ms=1000,6000"], "spawn_min_ms"),  # 6000 > spawn_max_ms
        (["--grid", "set_ms=1000:2000"], "needs --random"),
        (["--grid", "set_ms=1,2", "--grid", "set_ms=3"], "twice"),
        (["--grid", "set_ms=1,2", "--random", "0"], "--random"),
        (["--grid", "set_ms=1,2", "--x", "nobody"], "unknown bot"),
        (["--grid", "set_ms=1,2", "--rule", "bad=1"], "unknown rule"),
        (["--grid", "set_ms=1,2", "--matches", "0"], "--matches"),
        (["--grid", "set_ms=1,2", "--workers", "0"], "--workers"),
        (["--grid", "max_rounds=7,20"], "max_rounds"),
    ],
)
def test_cli_bad_arguments_exit_2_and_write_nothing(capsys, tmp_path, argv, message):
    status, stdout, err = run_cli(
        ["sweep", "--matches", "5", "--out", str(tmp_path / "s"), "--no-progress", *argv], capsys
    )
    assert status == 2
    assert message in err and err.startswith("tictacblitz sweep: error:")
    assert stdout == "" and os.listdir(tmp_path) == []


def test_sweep_api_refuses_a_bad_point_before_playing(tmp_path):
    with pytest.raises(ValueError, match="set_ms"):
        sweep({"set_ms": [1000, -1]}, matches=5, out_dir=str(tmp_path / "s"))
    assert os.listdir(tmp_path) == []
    with pytest.raises(ValueError, match="unknown rule"):
        sweep({"nope": [1]}, matches=5)
    with pytest.raises(ValueError, match="max_rounds"):
        sweep({"set_ms": [1000]}, matches=5, rules=Rules(max_rounds=20))


def test_readable_plots_tables_and_report(capsys, tmp_path, monkeypatch):
    """Issue 14: the default value marked, facets for two parameters, shares in percent
    with intervals in the console and the HTML, random rows sorted, --metrics."""
    from tictacblitz.lab import plots

    drawn = []
    real = plots._draw

    def spy(ax, rows, param, metrics, game, default):
        drawn.append((ax, param, tuple(metrics), default, {r.get("crater_ms") for r in rows}))
        return real(ax, rows, param, metrics, game, default)

    monkeypatch.setattr(plots, "_draw", spy)
    out = tmp_path / "s"
    metrics = "decisiveness,round_length_s"
    status, stdout, err = run_cli(
        [
            "sweep",
            "--grid",
            "set_ms=1600,1000",
            "--grid",
            "crater_ms=0,2000",
            "--matches",
            "20",
            "--metrics",
            metrics,
            "--out",
            str(out),
            "--no-progress",
            "--explain",
        ],
        capsys,
    )
    assert status == 0, err
    set_ms = [d for d in drawn if d[1] == "set_ms"]
    assert len(set_ms) == 4  # 2 metrics x 2 crater_ms facets
    assert {d[3] for d in set_ms} == {1600}  # the default marked
    assert sorted(tuple(sorted(d[4])) for d in set_ms) == [(0,), (0,), (2000,), (2000,)]
    assert {d[0].get_ylabel() for d in set_ms} >= {"rounds won by a line (%)"}
    lines = stdout.splitlines()
    assert "rounds won by a line" in lines[2] and "round length (mean)" in lines[2]
    rows = [ln.split()[:2] for ln in lines[3:7]]
    assert rows == [["1000", "0"], ["1000", "2000"], ["1600", "0"], ["1600", "2000"]]  # sorted
    assert " % [" in lines[3] and " s [" in lines[3]
    assert "rounds won by a line [%]: rounds that ended in a line" in stdout  # --explain
    page = (out / "report.html").read_text()
    assert "defaults: set_ms=1600, crater_ms=2000" in page and " % <small>[" in page
    assert page.index("<td>1000</td>") < page.index("<td>1600</td>")
    status, _, err = run_cli(
        [
            "sweep",
            "--grid",
            "set_ms=1000,1600",
            "--metrics",
            "nosuch",
            "--out",
            str(tmp_path / "t"),
        ],
        capsys,
    )
    assert status == 2 and "--metrics 'nosuch': unknown metric" in err
    # A metric with no row in a sweep's table (a name tune and sensitivity read) is
    # refused too; it used to print a column of "-".
    for metric in ("round_length_ms",):
        status, _, err = run_cli(
            [
                "sweep",
                "--grid",
                "set_ms=1000,1600",
                "--metrics",
                metric,
                "--out",
                str(tmp_path / "t"),
            ],
            capsys,
        )
        assert status == 2 and f"--metrics {metric!r}: unknown metric" in err
        assert "round_length_s" in err and "round_length_ms," not in err


def test_random_rows_are_sorted(capsys, tmp_path):
    status, stdout, _ = run_cli(
        [
            "sweep",
            "--grid",
            "set_ms=800:2000",
            "--random",
            "5",
            "--matches",
            "10",
            "--out",
            str(tmp_path / "r"),
            "--no-progress",
        ],
        capsys,
    )
    assert status == 0
    values = [int(ln.split()[0]) for ln in stdout.splitlines()[3:8]]
    assert values == sorted(values) and len(values) == 5
