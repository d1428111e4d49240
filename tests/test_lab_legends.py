"""``--explain`` and the legends (issue 22, item 5): every rule id a game's tables cite
is one its rules document defines, every row of every game's legend has a definition
and a unit, and a difference between two sides at 100 % gets a real interval (Newcombe's)
instead of [+0.0, +0.0]. Before issue 22, "rounds won by a line" cited R17 (bomb and
swap; the line rule is R10), and Doh's and Rift's legends had rows with neither."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from tictacblitz.lab.paired import PairedRatios
from tictacblitz.lab.report import format_summary
from tictacblitz.lab.simulation import simulate
from tictacblitz.lab.stats import newcombe_hybrid, newcombe_paired
from tictacblitz.lab.units import explanation, legend, metrics_of, unit

DOCS = Path(__file__).resolve().parent.parent / "docs"
RULE_DOCS = {
    # game: (id prefix, its rules document, how the document defines an id)
    "blitz": ("R", DOCS / "blitz.md", r"^### (R\d+) "),
    "doh": ("D", DOCS / "doh.md", r"^\*\*(D\d+) — "),
    "rift": ("G", DOCS / "rift.md", r"^(?:- \*\*|### )(G\d+)\b"),
}
CITED = re.compile(r"\b([RDG])(\d+)(?:\.\d+)?\b")


def defined_ids(game: str) -> set:
    _, path, pattern = RULE_DOCS[game]
    found = set(re.findall(pattern, path.read_text(encoding="utf-8"), flags=re.M))
    assert len(found) >= 9, f"{path.name}: the rule headings were not found"
    return found


def test_the_rules_documents_define_the_ids_we_check_against():
    assert defined_ids("blitz") == {f"R{k}" for k in range(1, 24)}
    assert {f"D{k}" for k in range(1, 10)} <= defined_ids("doh")
    assert defined_ids("rift") == {f"G{k}" for k in range(1, 18)}


@pytest.fixture(scope="module", params=sorted(RULE_DOCS))
def explained(request):
    """(game, summary, the text ``simulate --explain`` prints) of a small A/B run."""
    game = request.param
    extra = {"ablate": "all"} if game == "blitz" else {}
    s = simulate(40, seed=2, game=game, workers=1, base={}, table=False, **extra).summary
    return game, s, format_summary(s, explain=True)


def test_every_cited_rule_id_is_defined_by_the_games_rules_document(explained):
    game, _, text = explained
    prefix = RULE_DOCS[game][0]
    defined = defined_ids(game)
    texts = [text] + [f"{v[0]} {v[2]}" for v in metrics_of(game).values()]
    cited = {f"{p}{n}" for t in texts for p, n in CITED.findall(t)}
    assert cited, f"{game}: no rule id cited at all"
    wrong = sorted(c for c in cited if c[0] != prefix or c not in defined)
    assert not wrong, f"{game}: cited ids its rules document does not define: {wrong}"


def test_every_legend_row_has_a_definition_and_a_unit(explained):
    game, s, text = explained
    rows = legend(game)[1:]
    assert len(rows) == len(metrics_of(game))
    for row in rows:
        m = re.match(r"^  (.+?) \[([^\]]+)\]: (.+)$", row)
        assert m, f"{game}: legend row without a unit or a definition: {row!r}"
        assert m.group(2) != "number" and m.group(3) != "(no definition)", row
    # every metric of the A/B table is in the legend, defined, with its unit
    for name in s["comparison"]["differences"]:
        assert name in metrics_of(game), f"{game}: A/B row {name!r} is not declared"
        assert explanation(name, game) and unit(name, game), name
    assert "Units: shares are percentages" in text


def test_rounds_won_by_a_line_cite_the_line_rule():
    defined = explanation("decisiveness", "blitz")
    assert "R10" in defined and "R17" not in defined


def test_two_sides_at_100_percent_get_newcombes_interval():
    n = 400
    one = np.ones(n, np.int64)
    q = PairedRatios()
    q.add({"w": (one, one, 1.0)}, {"w": (one, one, 1.0)})
    d, ci = q.difference("w")
    assert d == 0 and ci[0] < 0 < ci[1]  # not [+0.0, +0.0]
    assert ci == pytest.approx(list(newcombe_paired(n, 0, 0, 0)))
    assert ci[1] == pytest.approx(1 - 0.990491, abs=1e-5)  # 1 - Wilson's lower bound
    # A share of some matches (different ones on each side): the hybrid interval.
    a_den = (np.arange(n) % 2).astype(np.int64)
    b_den = (np.arange(n) % 4 == 0).astype(np.int64)
    q = PairedRatios()
    q.add({"w": (a_den, a_den, 1.0)}, {"w": (b_den, b_den, 1.0)})
    assert q.difference("w")[1] == pytest.approx(list(newcombe_hybrid(200, 200, 100, 100)))
    # Away from the edges the paired normal interval stays.
    rng = np.random.default_rng(3)
    x, y = (rng.random(n) < 0.4).astype(np.int64), (rng.random(n) < 0.5).astype(np.int64)
    q = PairedRatios()
    q.add({"w": (x, one, 1.0)}, {"w": (y, one, 1.0)})
    d, ci = q.difference("w")
    assert ci[1] - d == pytest.approx(d - ci[0])


def test_newcombes_published_example():
    # Newcombe (1998), Statistics in Medicine 17: 873-890, example (a): 56/70 - 48/80
    # has the method-10 interval 0.0524 to 0.3339.
    lo, hi = newcombe_hybrid(56, 70, 48, 80)
    assert (round(lo, 4), round(hi, 4)) == (0.0524, 0.3339)


def test_doh_ab_of_two_certain_sides_has_an_interval():
    s = simulate(
        300, "medium", "greedy", {"pieces_per_size": 4}, seed=1, game="doh", base={}, table=False
    ).summary
    d = s["comparison"]["differences"]["L_first_win_rate"]
    assert d["base"] == d["variant"] == 1.0  # greedy loses every L opening to medium
    assert d["ci"][0] < 0 < d["ci"][1] and d["ci"][1] - d["ci"][0] > 0.005
    assert "[+0.0, +0.0]" not in format_summary(s)
