"""`simulate`: seeds per match index, split independence, records, summary, outputs,
bad arguments (exit 2, nothing written)."""

import json
import os

import numpy as np
import pytest

from lab_support import run_simulate

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from tictacblitz import PowerupKind, Rules  # noqa: E402
from tictacblitz.games.blitz.bots import match_records, play_matches  # noqa: E402
from tictacblitz.games.rng import mix64 as _mix  # noqa: E402
from tictacblitz.lab import simulation as sim  # noqa: E402
from tictacblitz.lab.report import format_summary, metric_rows  # noqa: E402
from tictacblitz.lab.simulation import match_seeds, simulate  # noqa: E402

RUN_FIELDS = (
    "matches_per_s",
    "seconds",
    "cpu_seconds",
    "workers",
    "chunk_size",
    "out",
    "scheduler",
)


run_cli = run_simulate


def outcome(summary):
    """The summary without the fields that describe the run rather than the matches."""
    return {k: v for k, v in summary.items() if k not in RUN_FIELDS}


def test_match_seeds_are_a_function_of_seed_and_index():
    seeds = match_seeds(7, 0, 50)
    assert seeds.dtype == np.uint64
    assert [int(s) for s in seeds] == [_mix(_mix(7) ^ i) for i in range(50)]
    assert np.array_equal(match_seeds(7, 20, 10), seeds[20:30])
    assert not np.array_equal(match_seeds(8, 0, 50), seeds)
    assert int(match_seeds(-1, 3, 1)[0]) == _mix(_mix(2**64 - 1) ^ 3)


def test_results_do_not_depend_on_how_work_is_split():
    a = simulate(300, "greedy", "medium", seed=5, workers=1, chunk_size=300)
    b = simulate(300, "greedy", "medium", seed=5, workers=2, chunk_size=7)
    c = simulate(300, "greedy", "medium", seed=5, workers=2)
    assert a.table.equals(b.table) and a.table.equals(c.table)
    assert outcome(a.summary) == outcome(b.summary) == outcome(c.summary)
    assert a.table["match"].to_pylist() == list(range(300))


def test_records_match_the_native_match_records():
    res = simulate(40, "greedy", "easy", rules=Rules(set_ms=1200), seed=2, workers=2, chunk_size=9)
    rows = res.table.to_pylist()
    seeds = [r["seed"] for r in rows]
    native = match_records(play_matches(Rules(set_ms=1200), "greedy", "easy", seeds), seeds)
    for row, rec in zip(rows, native, strict=False):
        assert row["winner"] == rec["winner"]
        assert row["rounds"] == rec["rounds"]
        assert [row["x_round_wins"], row["o_round_wins"]] == [
            rec["round_wins"]["X"],
            rec["round_wins"]["O"],
        ]
        assert row["round_result"] == [r["result"] for r in rec["round_results"]]
        assert row["round_by"] == [r["by"] for r in rec["round_results"]]
        assert row["round_end_ms"] == [r["end_t"] for r in rec["round_results"]]
        assert row["match_ms"] == sum(r["end_t"] for r in rec["round_results"])
        for seat, key in (("x", "X"), ("o", "O")):
            for name in (
                "placements",
                "knockouts",
                "retirements",
                "rejected",
                "bombed",
                "stolen",
                "decisions",
                "waits",
            ):
                assert row[f"{seat}_{name}"] == rec[key][name]
            for kind in (k.key for k in PowerupKind):
                assert row[f"{seat}_{kind}"] == rec[key]["powerups"][kind]
                assert sum(row[f"round_{kind}_{seat}"]) == rec[key]["powerups"][kind]
            assert sum(row[f"round_knockouts_{seat}"]) == rec[key]["knockouts"]


def test_summary_agrees_with_the_records():
    res = simulate(200, "greedy", "greedy", seed=11, workers=2)
    s, t = res.summary, res.table.to_pylist()
    assert s["matches"] == 200 == s["x_wins"] + s["o_wins"] + s["draws"]
    assert s["x_wins"] == sum(r["winner"] == "X" for r in t)
    results = [x for r in t for x in r["round_result"]]
    ends = [x for r in t for x in r["round_by"]]
    assert s["rounds"]["total"] == len(results) == sum(r["rounds"] for r in t)
    assert s["rounds"]["draws"] == results.count("draw")
    assert s["rounds"]["by_line"] == ends.count("line")
    assert s["decisiveness"] == pytest.approx(ends.count("line") / len(ends))
    assert s["match_rounds"]["mean"] == pytest.approx(np.mean([r["rounds"] for r in t]))
    lengths = [x for r in t for x in r["round_end_ms"]]
    assert s["round_length_ms"]["mean"] == pytest.approx(np.mean(lengths))
    assert s["round_length_ms"]["median"] == pytest.approx(np.median(lengths), abs=10)
    kos = [
        a + b
        for r in t
        for a, b in zip(r["round_knockouts_x"], r["round_knockouts_o"], strict=False)
    ]
    assert s["knockouts_per_round"]["mean"] == pytest.approx(np.mean(kos))
    # Powerup impact from the records, for one kind.
    won = claimed = 0
    for r in t:
        for i, res_ in enumerate(r["round_result"]):
            for seat, letter in (("x", "X"), ("o", "O")):
                if r[f"round_freeze_{seat}"][i] > 0:
                    claimed += 1
                    won += res_ == letter
    f = s["powerups"]["freeze"]
    assert (f["claimer_rounds"], f["claimer_wins"]) == (claimed, won)
    assert f["claims"] == sum(r["x_freeze"] + r["o_freeze"] for r in t)
    decided = s["rounds"]["x_wins"] + s["rounds"]["o_wins"]
    assert f["baseline_win_rate"] == pytest.approx(decided / (2 * len(results)))
    lo, hi = s["x_win_ci"]
    assert lo <= s["x_win_rate"] <= hi
    names = {row["metric"] for row in metric_rows(s)}
    assert {
        "x_win_rate",
        "draw_rate",
        "decisiveness",
        "freeze_impact",
        "knockouts_per_round",
    } <= names
    text = format_summary(s)
    assert "seat advantage" in text and "freeze" in text


def test_greedy_beats_random_and_rules_matter():
    s = simulate(30, "greedy", "random", seed=1, workers=1, table=False).summary
    assert s["x_wins"] == 30
    fast = simulate(60, "greedy", "greedy", rules={"set_ms": 600}, seed=1, table=False).summary
    slow = simulate(60, "greedy", "greedy", rules={"set_ms": 2400}, seed=1, table=False).summary
    assert fast["decisiveness"] > slow["decisiveness"]
    assert fast["rules"] == {"set_ms": 600}


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_records_are_written(tmp_path, suffix):
    out = tmp_path / f"records{suffix}"
    res = simulate(120, "greedy", "medium", seed=4, workers=2, chunk_size=25, out=str(out))
    assert out.exists() and os.listdir(tmp_path) == [out.name]
    if suffix == ".parquet":
        back = pq.read_table(out)
        assert back.equals(res.table)
        assert back.schema.equals(sim.record_schema())
    else:
        import pyarrow.csv as pcsv

        back = pcsv.read_csv(out)
        assert back.num_rows == 120
        assert back["match"].to_pylist() == list(range(120))
        first = res.table.slice(0, 1).to_pylist()[0]
        assert back["round_result"][0].as_py() == ";".join(first["round_result"])


def test_a_failed_run_leaves_nothing_written(tmp_path):
    out = tmp_path / "records.parquet"

    def boom(index, cols):
        if index == 2:
            raise RuntimeError("interrupted")

    with pytest.raises(RuntimeError):
        simulate(
            100, "greedy", "greedy", seed=1, workers=2, chunk_size=10, out=str(out), on_chunk=boom
        )
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"x": "grandmaster"}, "unknown bot"),
        ({"o": 3}, "a bot is a preset name"),
        ({"matches": 0}, "matches must be"),
        ({"matches": 2.5}, "matches must be"),
        ({"workers": 0}, "workers must be"),
        ({"chunk_size": 0}, "chunk_size must be"),
        ({"rules": {"set_ms": -1}}, "set_ms"),
        ({"rules": {"sett_ms": 1}}, "unknown rule"),
        ({"rules": {"max_rounds": 17}}, "max_rounds"),
        ({"out": "records.txt"}, ".parquet or .csv"),
        ({"out": "/no/such/folder/r.parquet"}, "does not exist"),
    ],
)
def test_bad_arguments_raise_before_any_work(kwargs, message):
    args = {"matches": 10, "x": "greedy", "o": "greedy", "workers": 1}
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        simulate(**args)


def test_cli_json(capsys, tmp_path):
    out = tmp_path / "r.parquet"
    status, stdout, _ = run_cli(
        [
            "simulate",
            "--matches",
            "50",
            "--x",
            "greedy",
            "--o",
            "medium",
            "--rule",
            "set_ms=1200",
            "--seed",
            "3",
            "--workers",
            "2",
            "--out",
            str(out),
            "--json",
            "--no-progress",
        ],
        capsys,
    )
    assert status == 0
    s = json.loads(stdout)
    for key in ("matches", "x_wins", "o_wins", "draws", "matches_per_s"):
        assert key in s
    assert s["matches"] == 50 and s["rules"] == {"set_ms": 1200}
    assert pq.read_table(out).num_rows == 50
    api = simulate(
        50,
        "greedy",
        "medium",
        rules=Rules(set_ms=1200),
        seed=3,
        table=False,
        base={},
        swap_seats=True,
    ).summary
    assert outcome(api) == outcome(s)
    # The A/B is there by default with a rule change, the seats swapped with two bots.
    assert s["comparison"]["base_rules"] == {} and s["comparison"]["paired_by_seed"]
    assert s["seat_swap"]["bots"] == ["greedy", "medium"]
    plain = simulate(50, "greedy", "medium", rules=Rules(set_ms=1200), seed=3, table=False).summary
    assert {k: v for k, v in outcome(s).items() if k not in ("comparison", "seat_swap")} == outcome(
        plain
    )


def test_cli_table(capsys):
    status, stdout, _ = run_cli(["simulate", "--matches", "20", "--no-progress"], capsys)
    assert status == 0
    assert "X wins the match" in stdout and "Powerup claims: a CORRELATION" in stdout
    assert "A/B" not in stdout and "Seats:" not in stdout  # no rule change, one bot


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--x", "nobody"], "unknown bot"),
        (["--o", "nobody"], "unknown bot"),
        (["--rule", "nope=3"], "unknown rule"),
        (["--rule", "set_ms=-5"], "set_ms"),
        (["--rule", "set_ms"], "NAME=VALUE"),
        (["--matches", "0"], "--matches"),
        (["--workers", "0"], "--workers"),
        (["--chunk-size", "0"], "--chunk-size"),
        (["--out", "OUT.json"], ".parquet or .csv"),
        (["--scheduler", "nonsense://x"], "--scheduler"),
    ],
)
def test_cli_bad_arguments_exit_2_and_write_nothing(capsys, tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    argv = [a.replace("OUT", str(tmp_path / "r")) for a in argv]
    status, stdout, err = run_cli(
        [
            "simulate",
            "--matches",
            "10",
            "--out",
            str(tmp_path / "r.parquet"),
            "--no-progress",
            *argv,
        ],
        capsys,
    )
    assert status == 2
    assert message in err and err.startswith("tictacblitz simulate: error:")
    assert stdout == ""
    assert os.listdir(tmp_path) == []


def test_progress_bar_runs(capsys):
    res = simulate(
        30, "greedy", "greedy", seed=1, workers=2, chunk_size=5, progress=True, table=False
    )
    assert res.table is None and res.summary["matches"] == 30


def test_the_package_attribute_is_callable():
    import tictacblitz
    import tictacblitz.lab.simulation

    table, summary = tictacblitz.simulate(12, "greedy", "random", seed=1, workers=1)
    assert table.num_rows == 12 and summary["x_wins"] == 12
    assert tictacblitz.lab.simulation.Summary is sim.Summary
