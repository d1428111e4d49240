"""tictacblitz sensitivity (issue 24, item 2): parsing, bad input (one line, exit 2,
nothing written), a real Morris screening whose ranking is known, Sobol on a tiny design,
and the files. Small sizes; nothing here times anything."""

import json
import os

import pytest

from tictacblitz import cli
from tictacblitz.lab.hooks import hooks_for
from tictacblitz.lab.sensitivity import plan, sensitivity
from tictacblitz.lab.sensitivity_design import accepted_by, morris_design
from tictacblitz.lab.sensitivity_ranges import parse_vary, rule_ranges

pytest.importorskip("SALib")

# With no swap powerup (weight 0, R14) none ever spawns, so swap_max (R17) is never read:
# on the same seeds every match is the same whatever its value (the streams by purpose,
# issue 22). set_ms (R6) is the time a mark takes to set: it decides how many rounds end
# in a line.
NO_SWAP = {"powerup_weights": {"bomb": 1, "freeze": 1, "haste": 1, "swap": 0}}
GREEDY = ["all=greedy"]


def run_cli(argv, capsys):
    status = cli.main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# -- parsing ------------------------------------------------------------------------------


def test_the_ranges_doctest():
    import doctest

    from tictacblitz.lab import sensitivity_ranges

    result = doctest.testmod(sensitivity_ranges)
    assert result.attempted >= 1 and result.failed == 0


def test_parse_vary_reads_a_range():
    assert parse_vary("set_ms=1000..2000") == ("set_ms", 1000.0, 2000.0)
    assert parse_vary("freeze_factor=1.5..3") == ("freeze_factor", 1.5, 3.0)


@pytest.mark.parametrize(
    "text, words",
    [
        ("set_ms", "expected NAME=LO..HI"),
        ("set_ms=1000:2000", "expected NAME=LO..HI"),
        ("set_ms=abc..2000", "'abc' is not a number"),
        ("set_ms=2000..1000", "the range is empty"),
        ("set_ms=1000..1000", "the range is empty"),
    ],
)
def test_parse_vary_refuses_bad_specs(text, words):
    with pytest.raises(ValueError, match=words):
        parse_vary(text)


def test_default_ranges_surround_the_default_and_are_accepted_together():
    hooks = hooks_for("blitz")
    ranges = {r.name: r for r in rule_ranges(hooks, hooks.default_game)}
    assert set(ranges) == set(hooks.sweepable())  # every number, none pinned
    assert (ranges["set_ms"].low, ranges["set_ms"].high) == (800, 2400)
    for r in ranges.values():
        assert r.low <= r.base <= r.high and r.low < r.high
    # the limits that depend on each other (a line fits the board, spawn_min <= max):
    # shrunk in pairs, so that no trajectory of a whole-game design has to be redrawn
    assert (ranges["size"].low, ranges["line_length"].high) == (5, 5)
    assert ranges["spawn_min_ms"].high <= ranges["spawn_max_ms"].low
    accepted = accepted_by(hooks, hooks.default_game)
    design = morris_design(list(ranges.values()), 10, 0, accepted)
    assert design.redrawn == 0
    assert all(p["line_length"] <= p["size"] for p in design.points)
    assert all(isinstance(p["size"], int) for p in design.points)  # integers rounded


def test_every_game_has_default_ranges_and_a_design():
    for game in ("blitz", "doh", "rift"):
        hooks = hooks_for(game)
        ranges = rule_ranges(hooks, hooks.default_game)
        assert ranges, game
        design = morris_design(ranges, 2, 1, accepted_by(hooks, hooks.default_game))
        assert len(design.points) == 2 * (len(ranges) + 1)


# -- bad input ----------------------------------------------------------------------------

BASE = ["sensitivity", "--seat", "all=greedy", "--matches", "10", "--trajectories", "2"]


@pytest.mark.parametrize(
    "extra, words",
    [
        (["--metric", "nope"], "--metric nope: unknown metric"),
        (["--vary", "nope=1..2"], "unknown rule 'nope'"),
        (["--vary", "powerup_weights=1..2"], "is not a number"),
        (["--only", "set_ms,nope"], "unknown rule 'nope'"),
        (["--vary", "set_ms=2000..1000"], "the range is empty"),
        (["--vary", "set_ms=1000.5..2000"], "set_ms takes integers"),
        (["--vary", "size=2..6"], "refuses size=2"),
        (["--trajectories", "1"], "Morris needs at least 2"),
        (["--sobol", "nope"], "--sobol nope: not a varied rule"),
        (["--sobol-samples", "3"], "must be a power of 2"),
        (["--matches", "0"], "--matches must be >= 1"),
        (["--game", "rift", "--metric", "decisiveness"], "unknown metric"),
        (["--game", "doh", "--vary", "players=2..9"], "refuses players=9"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, capsys, extra, words):
    out = tmp_path / "out"
    argv = BASE[:]
    if "--trajectories" in extra:
        argv = argv[:-2]
    if "--matches" in extra:
        argv = argv[:3] + argv[5:]
    status, stdout, stderr = run_cli([*argv, *extra, "--out", str(out)], capsys)
    assert status == 2
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tictacblitz sensitivity: error:"), stderr
    assert words in lines[0]
    assert stdout == "" and not out.exists()


# -- a real screening ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def screened():
    return sensitivity(
        "blitz",
        seats=GREEDY,
        rules=NO_SWAP,
        only=["set_ms", "swap_max"],
        metrics=["decisiveness", "timeout_share"],
        trajectories=3,
        sobol=["set_ms", "swap_max"],
        sobol_samples=4,
        matches=40,
        seed=3,
        workers=1,
    )


def test_morris_ranks_the_rule_that_matters_first_and_the_unread_one_at_zero(screened):
    for metric in ("decisiveness", "timeout_share"):
        assert screened.ranking(metric) == ["set_ms", "swap_max"]
        unread = screened.effect(metric, "swap_max")
        # never read: the same matches at every value, so exactly no change at all
        assert unread.mu_star == 0 and not unread.measurable
        assert screened.effect(metric, "set_ms").measurable
        assert screened.noise_floor[metric] > 0


def test_sobol_on_a_tiny_design_gives_the_variance_to_the_rule_that_matters(screened):
    indices = {s.rule: s for s in screened.sobol["decisiveness"]}
    assert indices["swap_max"].st == 0 and indices["swap_max"].s1 == 0
    assert indices["set_ms"].st > indices["swap_max"].st and indices["set_ms"].measurable
    assert screened.meta["rows"]["sobol"] == 4 * (2 + 2)
    # every point plays the same seeds, and a rule set is played once
    assert screened.meta["matches_played"] == len(screened.measured) * 40


def test_the_plan_counts_its_cost_before_playing():
    p = plan("doh", seats=GREEDY, trajectories=2, top=2, sobol_samples=4, matches=10)
    morris, sobol = p.points()
    assert morris == len(p.morris.distinct()) <= 2 * (len(p.ranges) + 1)
    assert sobol == 4 * (2 + 2)


# -- the command line and its files ---------------------------------------------------------


def test_the_command_writes_the_table_json_csv_and_a_tornado_per_metric(tmp_path, capsys):
    out = tmp_path / "sens"
    status, stdout, stderr = run_cli(
        [
            "sensitivity",
            "--game",
            "doh",
            "--seat",
            "all=greedy",
            "--matches",
            "20",
            "--trajectories",
            "2",
            "--top",
            "1",
            "--sobol-samples",
            "2",
            "--metric",
            "game_length",
            "--metric",
            "draw_rate",
            "--out",
            str(out),
        ],
        capsys,
    )
    assert status == 0, stderr
    assert "estimate:" in stderr and "Morris rule sets" in stderr
    assert "game length" in stdout and "noise floor" in stdout
    names = sorted(os.listdir(out))
    assert names == [
        "points.csv",
        "sensitivity.csv",
        "sensitivity.json",
        "tornado_draw_rate.png",
        "tornado_game_length.png",
    ]
    for png in ("tornado_draw_rate.png", "tornado_game_length.png"):
        assert (out / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    document = json.loads((out / "sensitivity.json").read_text())
    rules = {r["name"] for r in document["ranges"]}
    morris = [s for s in document["statistics"] if s["method"] == "morris"]
    assert {s["rule"] for s in morris} == rules
    assert {s["metric"] for s in morris} == {"game_length", "draw_rate"}
    header = (out / "sensitivity.csv").read_text().splitlines()[0].split(",")
    assert {"metric", "method", "rule", "mu_star", "mu_star_conf", "st", "noise"} <= set(header)


def test_ctrl_c_mid_run_is_one_line_exit_130_and_writes_nothing(tmp_path, capsys, monkeypatch):
    from tictacblitz.lab.candidates import Candidates
    from tictacblitz.lab.edges import Interrupted

    measure, calls = Candidates.measure, []

    def interrupted_at_the_third(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise Interrupted(4, 10)  # what simulate raises on Ctrl-C, 4 of its 10 played
        return measure(self, *args, **kwargs)

    monkeypatch.setattr(Candidates, "measure", interrupted_at_the_third)
    out = tmp_path / "out"
    argv = ["sensitivity", "--game", "doh", "--seat", "all=greedy", "--matches", "10"]
    status, stdout, stderr = run_cli([*argv, "--trajectories", "2", "--out", str(out)], capsys)
    assert status == 130 and stdout == "" and not out.exists()
    assert (
        stderr.strip()
        .splitlines()[-1]
        .startswith("tictacblitz sensitivity: interrupted after 24 of ")
    )
    assert stderr.strip().endswith("nothing written")
