"""docs/rift.md states the rules the code implements: every rule id, every objective with
its default points, every default rule number and bot name."""

from __future__ import annotations

import re
from pathlib import Path

from tictacblitz.games.rift.bots import BOT_NAMES
from tictacblitz.games.rift.rules import RiftRules
from tictacblitz.games.rift.types import DEFAULT_OBJECTIVE_POINTS, OBJECTIVE_IDS

DOC = (Path(__file__).resolve().parents[2] / "docs" / "rift.md").read_text(encoding="utf-8")


def test_every_rule_id_is_described():
    for n in range(1, 18):
        assert f"**G{n}**" in DOC or f"G{n} " in DOC, f"G{n}"


def test_the_catalogue_table_matches_the_code():
    rows = re.findall(r"^\| (\d+) \| `([a-z_]+)` \| .* \| (\d+) \|$", DOC, flags=re.M)
    assert [(int(code), oid, int(points)) for code, oid, points in rows] == [
        (i, oid, DEFAULT_OBJECTIVE_POINTS[oid]) for i, oid in enumerate(OBJECTIVE_IDS)
    ]


def test_default_numbers_are_named_with_their_values():
    rules = RiftRules()
    for name in (
        "sector_win_points",
        "sector_tie_points",
        "meta_line_points",
        "objectives_per_player",
        "energy_start",
        "energy_max",
        "energy_idle_gain",
        "energy_sector_gain",
        "shield_cost",
        "shield_cooldown",
    ):
        assert f"`{name}` = {getattr(rules, name)}" in DOC, name
    assert "`swap` costs 2 with cooldown 4" in DOC and "`reveal` costs 10 with cooldown 5" in DOC
    assert (rules.swap_cost, rules.swap_cooldown, rules.reveal_cost, rules.reveal_cooldown) == (
        2,
        4,
        10,
        5,
    )


def test_bot_names_are_listed_in_order():
    listed = re.search(r"`game.bot_names`, weakest first: (.*)\.", DOC).group(1)
    assert re.findall(r"`([a-z]+)`", listed) == list(BOT_NAMES)
