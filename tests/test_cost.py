"""A cost before the run and runs sized for a precision (issue 22, item 7).

Counted, never timed: the estimate line is there and names the right number of matches
and pilot matches; the pilot is not counted in the results; --precision plays the
number it fixed from the pilot and meets the half-width asked (or says it did not, at
the --matches cap); its bad inputs are one line, exit 2, nothing played."""

from __future__ import annotations

import json
import math
import re

import pytest

from tictacblitz.cli import main
from tictacblitz.lab import cost
from tictacblitz.lab.simulation import simulate

ESTIMATE = re.compile(
    r"^tictacblitz (\w+): estimate: ([\d,]+) matches(?: \(([^)]*)\))?, about .+ CPU, "
    r".+ wall on \d+ threads? \(from a pilot of ([\d,]+) matches on other seeds, not counted\)$"
)


def run(argv, capsys):
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def estimate(err):
    lines = [line for line in err.splitlines() if ": estimate: " in line]
    assert len(lines) == 1, err
    m = ESTIMATE.match(lines[0])
    assert m, lines[0]
    return m.group(1), int(m.group(2).replace(",", "")), m.group(3), int(m.group(4))


@pytest.mark.parametrize("game", ["blitz", "doh", "rift"])
def test_simulate_prints_the_estimate_of_every_run_it_plays(game, capsys):
    # Two different bots and a rule: the main run, the seats swapped and the base rules.
    rule = {"blitz": "set_ms=1200", "doh": "grid=3", "rift": "swap_cooldown=2"}[game]
    status, out, err = run(
        ["simulate", "--game", game, "--x", "greedy", "--o", "random", "--rule", rule]
        + ["--matches", "40", "--workers", "1", "--json", "--no-progress"],
        capsys,
    )
    assert status == 0, err
    assert estimate(err) == ("simulate", 120, "40 x 3 runs of the same seeds", 40)
    assert json.loads(out)["matches"] == 40


def test_the_pilot_is_not_counted(capsys):
    status, out, err = run(
        ["simulate", "--matches", "100", "--seed", "7", "--workers", "1", "--json"]
        + ["--no-progress"],
        capsys,
    )
    assert status == 0
    assert estimate(err) == ("simulate", 100, None, 64)
    _, alone = simulate(matches=100, seed=7, workers=1, table=False)
    got = json.loads(out)
    assert (got["matches"], got["x_wins"], got["o_wins"]) == (
        alone["matches"],
        alone["x_wins"],
        alone["o_wins"],
    )


def test_sweep_and_tournament_print_the_estimate(capsys, tmp_path):
    status, _, err = run(
        ["sweep", "--grid", "set_ms=1200,1400,1600", "--matches", "30", "--workers", "1"]
        + ["--out", str(tmp_path / "s"), "--no-progress"],
        capsys,
    )
    assert status == 0, err
    # The pilot: 64 // 3 = 21 matches at the first, middle and last point.
    assert estimate(err) == ("sweep", 90, "3 points x 30", 63)
    status, _, err = run(
        ["tournament", "--game", "doh", "--bots", "random,greedy,easy", "--matches", "10"]
        + ["--no-progress"],
        capsys,
    )
    assert status == 0, err
    assert estimate(err) == ("tournament", 30, "3 pairs x 10", 24)


@pytest.mark.parametrize(
    "game, x, o, precision",
    [
        ("doh", "random", "random", "x_win_rate=0.03"),
        ("rift", "random", "random", "draw_rate=0.04"),
        ("blitz", "greedy", "greedy", "decisiveness=0.03"),
    ],
)
def test_precision_plays_until_the_half_width_is_met(game, x, o, precision, capsys):
    status, out, err = run(
        ["simulate", "--game", game, "--x", x, "--o", o, "--precision", precision]
        + ["--matches", "20000", "--workers", "1", "--json", "--no-progress"],
        capsys,
    )
    assert status == 0, err
    summary = json.loads(out)
    result = summary["precision"]
    metric, asked = precision.split("=")
    assert result["metric"] == metric and result["half_width_asked"] == float(asked)
    # Exactly the number fixed from the pilot is played, below the cap, and it is enough.
    assert summary["matches"] == result["matches"] < 20000
    assert result["pilot_matches"] == 200
    assert result["met"] and result["half_width"] <= float(asked)
    _, ci = cost.metric_interval(summary, metric, game)
    assert math.isclose((ci[1] - ci[0]) / 2, result["half_width"])
    assert f"so the run plays {result['matches']:,}" in err
    _, total, _, pilot = estimate(err)
    assert (total, pilot) == (result["matches"], 200)


def test_precision_stops_at_the_cap_and_says_the_half_width_is_not_met(capsys):
    status, out, err = run(
        ["simulate", "--game", "doh", "--x", "random", "--o", "random", "--precision"]
        + ["x_win_rate=0.005", "--matches", "300", "--workers", "1", "--no-progress"],
        capsys,
    )
    assert status == 0, err
    assert "so the run plays 300 (the --matches cap)" in err
    line = out.strip().splitlines()[-1]
    assert line.startswith("precision: x_win_rate 95 % half-width ")
    assert "with 300 matches (asked <= 0.005: NOT met (raise --matches))" in line


@pytest.mark.parametrize(
    "value, message",
    [
        ("nosuch=0.01", "unknown metric 'nosuch' for blitz; expected one of x_win_rate"),
        ("first_score=0.01", "unknown metric 'first_score' for blitz"),
        ("x_win_rate=-0.01", "the half-width must be a number > 0, not -0.01"),
        ("x_win_rate=0", "the half-width must be a number > 0, not 0"),
        ("x_win_rate=nan", "the half-width must be a number > 0, not nan"),
        ("x_win_rate=lots", "the half-width 'lots' is not a number"),
        ("x_win_rate", "expected METRIC=HALFWIDTH"),
    ],
)
def test_bad_precision_is_one_line_exit_2_nothing_played(value, message, capsys):
    status, out, err = run(["simulate", "--precision", value, "--matches", "10"], capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and f"--precision {value!r}: {message}" in err, err


def test_every_precision_metric_is_in_a_real_summary():
    for game in ("blitz", "doh", "rift"):
        _, summary = simulate(matches=40, game=game, x="random", o="random", workers=1)
        for metric in cost.precision_metrics(game):
            value, ci = cost.metric_interval(summary, metric, game)
            assert value is not None and ci[0] <= value <= ci[1], (game, metric)


class Terminal:
    def __init__(self, tty):
        self.tty = tty

    def isatty(self):
        return self.tty


def test_a_long_run_asks_a_terminal_and_never_blocks_a_pipe():
    long = cost.ASK_ABOVE_S + 1
    asked = []

    def answer(text):
        def ask(prompt):
            asked.append(prompt)
            return text

        return ask

    assert cost.confirm("simulate", long, False, Terminal(True), answer("y"))
    assert not cost.confirm("simulate", long, False, Terminal(True), answer("n"))
    assert len(asked) == 2
    # --yes, a pipe (CI), a short run or a cluster: no question.
    assert cost.confirm("simulate", long, True, Terminal(True), answer("n"))
    assert cost.confirm("simulate", long, False, Terminal(False), answer("n"))
    assert cost.confirm("simulate", cost.ASK_ABOVE_S - 1, False, Terminal(True), answer("n"))
    assert cost.confirm("simulate", None, False, Terminal(True), answer("n"))
    assert len(asked) == 2


def test_declining_plays_nothing(capsys, monkeypatch):
    monkeypatch.setattr(cost, "ASK_ABOVE_S", -1.0)  # every run is "long"
    monkeypatch.setattr("sys.stdin", Terminal(True))
    monkeypatch.setattr("builtins.input", lambda prompt="": "no")
    status, out, err = run(["simulate", "--matches", "50", "--no-progress"], capsys)
    assert status == 1 and out == ""
    assert err.rstrip().endswith("tictacblitz simulate: not started; nothing played")
