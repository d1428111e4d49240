"""Categorical metrics are shares, never means (issue 22, item 2).

Every game declares its metrics in one place (its ``METRICS`` hook: label, unit,
definition; its code columns in ``CODE_COLUMNS``), and the lab never averages a code
column: for every registered game, no metric of a summary, of an A/B comparison or of a
sweep row is the mean of a column the game's records store as codes. Before issue 22,
Doh's A/B showed "first piece a match (mean)" and "end a match (mean)".
"""

from __future__ import annotations

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")

from lab_support import registered_game, run_simulate  # noqa: E402
from tictacblitz.games.registry import available_games  # noqa: E402
from tictacblitz.lab import hooks as lab_hooks  # noqa: E402
from tictacblitz.lab.columns import code_columns  # noqa: E402
from tictacblitz.lab.report import format_summary, metric_rows  # noqa: E402
from tictacblitz.lab.simulation import simulate  # noqa: E402
from tictacblitz.lab.units import label, unit  # noqa: E402

GAMES = [g for g in available_games() if g in ("blitz", "doh", "rift")]


def dictionary_columns(game: str):
    """The columns a game's records store as codes (an Arrow dictionary): the evidence
    of a code column independent of the ``CODE_COLUMNS`` declaration."""
    fields = lab_hooks.hooks_for(game).get("record_fields")
    out = []
    for name, kind in fields() if fields else []:
        if pa.types.is_list(kind):  # a code a round (Blitz's round_result)
            kind = kind.value_type
        if pa.types.is_dictionary(kind):
            out.append(name)
    return out


def averaged(metric: str, column: str) -> bool:
    return metric in (f"{column}_mean", f"{column}_x_mean", f"{column}_o_mean")


@pytest.mark.parametrize("game", GAMES)
def test_no_game_averages_a_code_column(game):
    hooks = lab_hooks.hooks_for(game)
    declared = set(code_columns(hooks))
    # every column the records store as codes is declared a category, in one place
    assert hooks.get("CODE_COLUMNS") and set(dictionary_columns(game)) <= declared
    codes = declared | set(dictionary_columns(game))
    res = simulate(24, seed=5, game=game, workers=1, chunk_size=12, base={}, table=False)
    s = res.summary
    metrics = set(s["comparison"]["differences"]) | {r["metric"] for r in metric_rows(s)}
    for column in codes:
        bad = [m for m in metrics if averaged(m, column)]
        assert not bad, f"{game}: code column {column!r} averaged as {bad}"
        assert column not in s.get("columns", {}), f"{game}: {column!r} averaged"
    # Every metric of the A/B is declared: a label and a unit, none a column's mean.
    for m in s["comparison"]["differences"]:
        assert unit(m, game), f"{game}: metric {m!r} has no declared unit"
        assert not m.endswith("_mean"), f"{game}: undeclared per-match column {m!r}"
    assert "(mean)" not in "".join(
        label(m, game) for m in metrics if any(m.startswith(c) for c in codes)
    )


def test_doh_ab_rows_are_scores_shares_and_a_length():
    s = simulate(
        300, "medium", "greedy", {"pieces_per_size": 4}, seed=1, game="doh", base={}, table=False
    ).summary
    d = s["comparison"]["differences"]
    wanted = {
        "first_score": "share",
        "draw_rate": "share",
        "line_share": "share",
        "stash_empty_share": "share",
        "no_move_share": "share",
        "game_length": "plies",
        "S_first_share": "share",
        "L_first_share": "share",
    }
    for name, u in wanted.items():
        assert name in d and unit(name, "doh") == u, name
        assert d[name]["variant_ci"][0] <= d[name]["variant"] <= d[name]["variant_ci"][1]
    assert "first_piece_mean" not in d and "end_mean" not in d
    # The paired values agree with the summary of the same run.
    assert d["first_score"]["variant"] == pytest.approx(s["seat_advantage"]["first_score"])
    assert d["line_share"]["variant"] == pytest.approx(s["ends"]["line"]["share"])
    assert d["game_length"]["variant"] == pytest.approx(s["game_length"]["mean"])
    ends = sum(d[f"{e}_share"]["variant"] for e in ("line", "stash_empty", "no_move"))
    assert ends == pytest.approx(1.0)
    text = format_summary(s)
    assert "first player's score (win 1, draw 1/N)" in text and "a match (mean)" not in text


run = run_simulate


def test_opening_fixes_the_first_piece_in_both_arms(capsys):
    status, out, err = run(
        ["simulate", "--game", "doh", "--x", "medium", "--o", "medium", "--matches", "200"]
        + ["--rule", "pieces_per_size=4", "--opening", "L", "--json", "--no-progress"],
        capsys,
    )
    assert status == 0, err
    import json

    s = json.loads(out)
    assert s["options"] == {"opening": "L"}
    assert s["first_pieces"]["L"]["games"] == 200
    d = s["comparison"]["differences"]["L_first_share"]
    assert d["base"] == d["variant"] == 1.0
    assert s["comparison"]["base"]["first_pieces"]["L"]["games"] == 200


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--game", "doh", "--opening", "X"], "--opening: unknown opening 'X'"),
        (["--opening", "S"], "--opening: game 'blitz' has no such option"),
    ],
)
def test_a_bad_opening_is_one_line(argv, message, capsys):
    status, out, err = run(["simulate", "--matches", "5", "--no-progress", *argv], capsys)
    assert status == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


DICE_GAME = '''
"""Dice for the lab's tests: seat 0 wins on an even seed; ``face`` is a code column."""
from dataclasses import asdict, dataclass

import numpy as np

from tictacblitz.games.protocol import GameType, TimeModel

GAME_TYPE = GameType(name="dice", long_name="Dice", time_model=TimeModel.ALTERNATING,
                     seeded=True)


@dataclass(frozen=True)
class DiceRules:
    sides: int = 3

    def to_dict(self):
        return asdict(self)


class DiceGame:
    type = GAME_TYPE
    bot_names = ("roll",)

    def __init__(self, rules=None):
        self.rules = rules or DiceRules()

    def with_rules(self, overrides):
        return DiceGame(DiceRules(**dict(overrides)))


def make_game(rules=None):
    return DiceGame().with_rules(rules or {})


def play_matches(rules, seat_bots, seeds):
    x_bot, o_bot = seat_bots
    seeds = np.asarray(seeds, dtype=np.uint64)
    winner = (seeds % np.uint64(2)).astype(np.int8)
    face = ((seeds >> np.uint64(7)) % np.uint64(rules.sides)).astype(np.int8)
    moves = (seeds % np.uint64(5)).astype(np.int16) + 1
    return {"winner": winner, "face": face, "moves": moves}
'''


@pytest.fixture
def dice(tmp_path):
    lab = 'CODE_COLUMNS = {"face": ("one", "two", "three")}\n'
    with registered_game(tmp_path, "dice", DICE_GAME, lab) as name:
        yield name


def test_the_lab_defaults_show_a_code_column_as_shares(dice):
    res = simulate(200, seed=2, game="dice", workers=1, base={"sides": 3}, rules={"sides": 2})
    s = res.summary
    face = res.table["face"].to_numpy()
    assert set(s["columns"]) == {"moves"}  # the value column is averaged, the code is not
    shares = s["codes"]["face"]
    assert shares["one"]["share"] == pytest.approx((face == 0).mean())
    assert shares["three"]["share"] == 0.0 and shares["three"]["share_ci"][1] > 0
    d = s["comparison"]["differences"]
    assert "face_mean" not in d and {"face_one_share", "moves_mean"} <= set(d)
    assert d["face_three_share"]["variant"] == 0.0 and d["face_three_share"]["base"] > 0.2
    rows = {r["metric"] for r in metric_rows(s)}
    assert {"face_one_share", "face_two_share", "face_three_share"} <= rows
    assert label("face_two_share", "dice") == "face: two (share of matches)"
    assert unit("face_two_share", "dice") == "share"
    assert "face: one (share of matches)" in format_summary(s)
    assert np.isclose(sum(shares[k]["share"] for k in shares), 1.0)
