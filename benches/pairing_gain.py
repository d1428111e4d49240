#!/usr/bin/env python3
"""How much pairing by seed buys in Tic Tac Blitz, per stream layout (issue 22).

For each rule change below, plays the same ``--matches`` match seeds (the lab's
``match_seeds``) under the default rules and under the change, bot against bot, once
with stream layout 1 (one stream per match) and once with layout 2 (streams by purpose,
docs/engine.md), and prints per metric the lab's pairing gain: the width of the paired
95 % interval of the difference over the unpaired one's (``PairedRatios.width_ratio``,
the figure ``simulate`` prints). Also, as evidence of where the arms part: the
correlation of the two arms' per-match line shares and, over ``--divergence`` matches
stepped through the API with the same bots, the ms of round 1 at which the two arms'
events first differ (the first event the change touches; after it the two real-time
trajectories are different games).

    PYTHONPATH=python python benches/pairing_gain.py --matches 2000   # docs/simulate.md
    PYTHONPATH=python python benches/pairing_gain.py --game rift --matches 2000

Rift & Grid and Tic Tac Doh (``--game``) have one layout; their table is the gain of
the lab's own runner, same seeds, greedy against greedy.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Dict, List, Tuple

import numpy as np

from blitz_core.blitz.bots import SEAT_SALTS
from tictacblitz import Match, Rules
from tictacblitz.games.blitz.bots import drive, make_bot, play_matches
from tictacblitz.lab.hooks import hooks_for
from tictacblitz.lab.paired import PairedRatios, match_values
from tictacblitz.lab.seeds import match_seeds

# (label, rule overrides): the six changes of issue 22, each a step a designer might try.
CHANGES: List[Tuple[str, Dict[str, Any]]] = [
    ("set_ms=2100", {"set_ms": 2100}),
    ("crater_ms=2100", {"crater_ms": 2100}),
    ("recharge_knockout_ms=1500", {"recharge_knockout_ms": 1500}),
    ("bomb weight 2", {"powerup_weights": {"bomb": 2.0, "freeze": 1.0, "haste": 1.0, "swap": 1.0}}),
    ("powerup_max=4", {"powerup_max": 4}),
    ("round_ms=30000", {"round_ms": 30000}),
]
OTHER_GAMES: Dict[str, Tuple[List[Tuple[str, Dict[str, Any]]], List[Tuple[str, str]]]] = {
    "rift": (
        [
            ("shield_cost=3", {"shield_cost": 3}),
            ("swap_cooldown=6", {"swap_cooldown": 6}),
            ("reveal_cost=6", {"reveal_cost": 6}),
            ("energy_start=3", {"energy_start": 3}),
            ("energy_idle_gain=2", {"energy_idle_gain": 2}),
            ("meta_line_points=8", {"meta_line_points": 8}),
        ],
        [("X's score", "x_score"), ("seat share", "x_share_of_decided"), ("length", "game_length")],
    ),
    "doh": (
        [
            # Doh has two rule settings (D1, D2): every other value of them here.
            ("pieces_per_size=2", {"pieces_per_size": 2}),
            ("pieces_per_size=3", {"pieces_per_size": 3}),
            ("pieces_per_size=4", {"pieces_per_size": 4}),
            ("grid=2", {"grid": 2}),
        ],
        [("seat share", "x_share_of_decided"), ("draws", "draw_rate"), ("length", "game_length")],
    ),
}
METRICS = [
    ("line share", "decisiveness"),
    ("seat share", "x_share_of_decided"),
    ("match length", "match_length_s"),
]


def measure(change: Dict[str, Any], stream: int, seeds: np.ndarray, bot: str) -> Dict[str, float]:
    """The width ratios and the two pieces of evidence for one change and layout."""
    base = play_matches(Rules(), bot, bot, seeds, stream=stream)
    variant = play_matches(Rules(**change), bot, bot, seeds, stream=stream)
    pair = PairedRatios()
    values_v, values_b = match_values(variant, "blitz"), match_values(base, "blitz")
    pair.add(values_v, values_b)
    out = {key: pair.width_ratio(key) for _, key in METRICS}
    num_v, den_v, _ = values_v["decisiveness"]
    num_b, den_b, _ = values_b["decisiveness"]
    out["line_corr"] = float(np.corrcoef(num_v / den_v, num_b / den_b)[0, 1])
    return out


def round_one_events(rules: Rules, seed: int, stream: int, bot: str) -> List[Tuple[Any, ...]]:
    """Round 1 of the match ``play_matches`` plays for ``seed``, as (t, kind, player,
    cell) events (the times a rule sets, ``until``, left out)."""
    events: List[Tuple[Any, ...]] = []
    match = Match(rules, seed=seed, stream=stream)
    x = make_bot(bot, seed=seed ^ SEAT_SALTS[0])
    o = make_bot(bot, seed=seed ^ SEAT_SALTS[1])

    def keep(batch: Any) -> None:
        events.extend((e.t, e.kind, e.player, e.cell) for e in batch)

    drive(match, x, o, whole_match=False, on_events=keep)
    return events


def first_difference_ms(
    change: Dict[str, Any], stream: int, seeds: np.ndarray, bot: str
) -> Tuple[float, float]:
    """Median ms of round 1 at which the arms' events first differ, and the share of
    matches whose round 1 is identical in both arms."""
    firsts, same = [], 0
    for seed in seeds.tolist():
        a = round_one_events(Rules(), seed, stream, bot)
        b = round_one_events(Rules(**change), seed, stream, bot)
        k = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)
        if k is None and len(a) == len(b):
            same += 1
            continue
        k = min(len(a), len(b)) if k is None else k
        firsts.append(min(events[k][0] for events in (a, b) if k < len(events)))
    median = float(np.median(firsts)) if firsts else float("nan")
    return median, same / len(seeds)


def other_game(game: str, seeds: np.ndarray) -> None:
    """The gain of the lab's runner for Rift & Grid or Doh (one stream layout each)."""
    hooks = hooks_for(game)
    changes, metrics = OTHER_GAMES[game]
    rules = hooks.default_game.rules
    print(f"{game}: {len(seeds):,} matches per arm, greedy vs greedy; paired / unpaired width")
    print("| change | " + " | ".join(m for m, _ in metrics) + " |")
    print("|---" * (len(metrics) + 1) + "|")
    base = match_values(hooks.play_matches(rules, ("greedy", "greedy"), seeds), game)
    for label, change in changes:
        variant = hooks.play_matches(rules.replace(**change), ("greedy", "greedy"), seeds)
        pair = PairedRatios()
        pair.add(match_values(variant, game), base)
        ratios = [pair.width_ratio(key) for _, key in metrics]
        cells = ["-" if r is None else f"{r:.2f}" for r in ratios]
        print(f"| {label} | " + " | ".join(cells) + " |", flush=True)


def main(argv: Any = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2000, help="matches per arm")
    parser.add_argument("--seed", type=int, default=22, help="the master seed")
    parser.add_argument("--bot", default="greedy", help="the bot of both seats")
    parser.add_argument(
        "--divergence", type=int, default=100, help="matches stepped to find the first difference"
    )
    parser.add_argument("--game", default="blitz", choices=["blitz", *OTHER_GAMES])
    args = parser.parse_args(argv)
    seeds = match_seeds(args.seed, 0, args.matches)
    if args.game != "blitz":
        other_game(args.game, seeds)
        return 0
    print(
        f"{args.matches:,} matches per arm, {args.bot} vs {args.bot}, master seed {args.seed}; "
        "paired / unpaired 95 % interval width (layout 1 -> layout 2)"
    )
    head = "| change | " + " | ".join(m for m, _ in METRICS)
    print(head + " | line-share correlation | round 1 parts at (median ms) | identical round 1 |")
    print("|---" * (len(METRICS) + 4) + "|")
    for label, change in CHANGES:
        got = {stream: measure(change, stream, seeds, args.bot) for stream in (1, 2)}
        cells = [f"{got[1][key]:.2f} -> {got[2][key]:.2f}" for _, key in METRICS]
        cells.append(f"{got[1]['line_corr']:+.2f} -> {got[2]['line_corr']:+.2f}")
        parts = {
            stream: first_difference_ms(change, stream, seeds[: args.divergence], args.bot)
            for stream in (1, 2)
        }
        cells.append(f"{parts[1][0]:,.0f} -> {parts[2][0]:,.0f}")
        cells.append(f"{parts[1][1]:.0%} -> {parts[2][1]:.0%}")
        print(f"| {label} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
