"""docs/doh.md, "Three and four players: does it work?" (issue 25, item 4): every
command of the section runs at a small size (as tests/test_balancing_docs.py runs
docs/balancing.md's), and the headline table's rows are what the lab computes for them
today (the same seeds, so the same numbers to the digit)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import numpy as np
import pytest

from tictacblitz import cli
from tictacblitz.games.doh.rules import DohRules
from tictacblitz.lab.games.doh.balance import play_matches
from tictacblitz.lab.simulation import simulate

pytest.importorskip("pyarrow")

ROOT = Path(__file__).resolve().parents[2]
SECTION = "## Three and four players: does it work?"


def section() -> str:
    text = (ROOT / "docs" / "doh.md").read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.index("\n## ", start + len(SECTION))
    return text[start:end]


def commands() -> list:
    found = []
    for code in re.findall(r"```sh\n(.*?)```", section(), re.S):
        assert code.startswith("# needs: pip install .")
        found += [line for line in code.splitlines() if line.startswith("tictacblitz ")]
    return found


def test_the_section_s_commands_run_small(tmp_path, capsys):
    """Every simulate and tournament line, and the first sweep (a sweep draws its plots:
    seconds each, so the others are the same command over other bots and values)."""
    lines = commands()
    assert len(lines) >= 12
    sweeps = [line for line in lines if line.startswith("tictacblitz sweep ")]
    assert len(sweeps) >= 6
    for k, line in enumerate(line for line in lines if line not in sweeps[1:]):
        argv = shlex.split(re.sub(r"--matches \d+", "--matches 12", line))[1:]
        if "--out" in argv:
            argv[argv.index("--out") + 1] = str(tmp_path / f"out{k}")
        assert cli.main([*argv, "--no-progress", "--yes"]) == 0, line
        out = capsys.readouterr().out
        if "players=3 " in line or "players=2,3,4 " in line:
            assert "third" in out, line  # a third seat is reported


def _row(bots: str, players: int) -> list:
    for line in section().splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[:2] == [bots, str(players)] and len(cells) == 8:
            return cells
    raise AssertionError(f"no row {bots} {players}")


def _pct(value, ci) -> str:
    return f"{100 * value:.1f} [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


@pytest.mark.parametrize("bots,players", [("greedy", 3), ("easy", 3), ("easy", 4), ("perfect", 3)])
def test_the_headline_rows_are_what_the_lab_computes(bots, players):
    s = simulate(
        2000,
        rules={"players": players},
        game="doh",
        seed=0,
        workers=1,
        table=False,
        bots=(bots,) * players,
    ).summary
    cells = _row(bots, players)
    scores = []
    for key in s["seat_keys"]:
        v = s["seat_scores"][key]
        wins = s[f"{key}_wins"]
        # a score of 0 is shown with its win rate's Wilson interval (as the doc says)
        scores.append(_pct(v["score"], v["score_ci"] if wins else s[f"{key}_win_ci"]))
    assert cells[2] == " / ".join(scores)
    assert cells[3] == _pct(s["draw_rate"], s["draw_ci"])
    gl = s["game_length"]
    assert cells[4] == f"{gl['mean']:.2f} [{gl['mean_ci'][0]:.2f}, {gl['mean_ci'][1]:.2f}]"
    k = s["kingmaking"]
    assert cells[7] == _pct(k["share_of_line_wins"], k["share_of_line_wins_ci"])


def test_the_section_s_claims_about_the_bots():
    """What "What it cannot say" and the greedy bullet state: seat-blind bots play the
    same games at 2, 3 and 4 players on one seed, the paranoid perfect bot the same at 3
    and 4 (300 seeds), and greedy's games last 5, 6, 12 or 14 plies only."""
    seeds = np.arange(300, dtype=np.uint64)

    def cols(bot, players):
        return play_matches(DohRules(players=players), (bot,) * players, seeds)

    seat_blind = [(bot, (2, 3, 4)) for bot in ("random", "easy", "greedy")]
    for bot, counts in [*seat_blind, ("perfect", (3, 4))]:
        runs = [cols(bot, n) for n in counts]
        for other in runs[1:]:
            assert np.array_equal(runs[0]["moves"], other["moves"]), bot
            assert np.array_equal(runs[0]["end"], other["end"]), bot
    lengths = cols("greedy", 2)["moves"]
    assert set(np.unique(lengths).tolist()) <= {5, 6, 12, 14}
