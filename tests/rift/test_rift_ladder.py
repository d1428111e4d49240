"""The ladder of Rift's bots (issue 13; issue 23, item 4; docs/rift.md, "The ladder"):
the GUI's levels are the ladder's (their order, easy < medium < hard, each beating the
one below in more than half of the decided games with the lower end of the 95 % Wilson
interval above 50 %, in both seats, is tests/test_gui_ladder.py's); ``greedy`` beats
``random`` so. A small run of the measurement
``python -m tictacblitz.games.rift.ladder`` makes (it writes docs/rift.md's table), in
the native batch loop, both seat orders on two threads."""

from __future__ import annotations

import os
import shutil

import pytest

from tictacblitz.games.rift import ladder
from tictacblitz.games.rift.bots import HARD_SIMULATIONS, PRESETS

DOCS = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "rift.md")


# The GUI levels' rungs (medium vs easy, hard vs medium) are measured once, with every
# game's, in tests/test_gui_ladder.py (the same bound, 400 games a seat); measuring them
# here again cost ~15 s of CPU a run and asserted nothing more (issue 27, CI item).
@pytest.mark.parametrize(("stronger", "weaker", "games"), [("greedy", "random", 300)])
def test_each_level_beats_the_one_below_in_both_seats(stronger, weaker, games):
    pairing = ladder.both_seats(f"{stronger} vs {weaker}", stronger, weaker, games, seed=10_000)
    assert pairing.above_half(), pairing


def test_the_gui_levels_are_the_ladder_and_hard_is_the_cut_search():
    from tictacblitz.server.games.rift import BOT_LEVELS

    assert ladder.LEVELS == BOT_LEVELS
    spec = PRESETS["hard"]
    assert (spec.kind, spec.simulations, spec.error_rate) == ("search_cut", HARD_SIMULATIONS, 0.0)


def test_its_wilson_interval_is_the_labs():
    from tictacblitz.lab.stats import wilson

    for won, n in ((0, 0), (0, 10), (7, 10), (10, 10), (412, 800)):
        assert ladder.wilson(won, n) == wilson(won, n)


def test_the_command_rewrites_only_the_docs_table(tmp_path, capsys):
    copy = tmp_path / "rift.md"
    shutil.copy(DOCS, copy)
    before = copy.read_text(encoding="utf-8")
    assert before.count(ladder.BEGIN) == 1 and before.count(ladder.END) == 1
    assert ladder.main(["--games", "4", "--cost-games", "1", "--write", str(copy)]) == 0
    after = copy.read_text(encoding="utf-8")
    head, tail = before.split(ladder.BEGIN)[0], before.split(ladder.END)[1]
    assert after.startswith(head) and after.endswith(tail)
    block = after[len(head) : len(after) - len(tail)]
    assert block in capsys.readouterr().out
    for label, *_ in ladder.PAIRS:  # every pairing, then every costed bot, has its row
        assert f"| {label} | " in block
    for name, _ in ladder.COSTED:
        assert f"| {name} " in block


@pytest.mark.parametrize(
    ("argv", "named"),
    [(["--games", "0"], "--games=0"), (["--write", "/nonexistent/rift.md"], "/nonexistent")],
)
def test_bad_arguments_give_one_line_and_exit_2(argv, named, capsys):
    assert ladder.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and named in err
