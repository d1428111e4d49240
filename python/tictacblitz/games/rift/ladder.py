"""Rift & Grid's ladder (issue 23, item 4): the GUI's levels in order, and what a game
of each costs. One command measures it and rewrites the table in docs/rift.md:

    PYTHONPATH=python python -m tictacblitz.games.rift.ladder --games 400 --write docs/rift.md

Each pairing plays ``games`` seeds in each seat order (seeds ``seed, seed+1, ...``) in
the native batch loop (``play_matches``; the two orders on two threads) and reports
the share of *decided* games the first bot won, with its 95 % Wilson interval, per
seat. A level's cost is the process CPU time of ``cost_games`` games of it against
itself, counted in the same run as the games (``time.process_time``), so it does not
depend on the machine's other load; the load average is printed with the table.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import List, Optional, Sequence, Tuple

import numpy as np

from ..ladder import Pairing, rewrite_block
from ..ladder import both_seats as shared_both_seats
from ..ladder import pct as _pct
from ..ladder import wilson as wilson  # re-exported: tests/rift/test_rift_ladder.py
from .bots import GUI_LEVELS, PRESETS, BotSpec
from .game import play_matches

LEVELS: Tuple[str, ...] = GUI_LEVELS
"""The GUI's levels, weakest first (the server's BOT_LEVELS)."""
OLD_HARD = BotSpec("search", simulations=2000, description="hard before issue 23")
OLD_GREEDY = BotSpec("greedy_fixed", description="greedy before issue 23")
PAIRS: Tuple[Tuple[str, object, object, float], ...] = (
    ("medium vs easy", "medium", "easy", 1.0),
    ("hard vs medium", "hard", "medium", 1.0),
    ("greedy vs lookahead", "greedy", "lookahead", 1.0),
    ("hard vs greedy", "hard", "greedy", 1.0),
    ("greedy vs old greedy", "greedy", OLD_GREEDY, 1.0),
    ("hard vs old greedy", "hard", OLD_GREEDY, 1.0),
    ("hard vs old hard", "hard", OLD_HARD, 0.5),
)
"""(label, first bot, second bot, share of ``games`` played): the GUI ladder first, then
the new bots against the ones they replace (the old hard, ~0.24 s a game, on fewer)."""
COSTED: Tuple[Tuple[str, object], ...] = (
    *((name, name) for name in LEVELS),
    ("greedy", "greedy"),
    ("old hard", OLD_HARD),
)
BEGIN = "<!-- rift-ladder:begin (python -m tictacblitz.games.rift.ladder --write) -->"
END = "<!-- rift-ladder:end -->"


def _winners(x_bot, o_bot, seeds: np.ndarray) -> np.ndarray:
    return play_matches(None, x_bot, o_bot, seeds)["winner"]


def both_seats(label: str, first, second, games: int, seed: int = 0) -> Pairing:
    """``first`` against ``second`` on ``games`` seeds in each seat order."""
    return shared_both_seats(_winners, label, first, second, games, seed)


def cpu_ms_per_game(bot, other, games: int, seed: int = 0) -> float:
    """CPU milliseconds a game of ``bot`` (X) against ``other`` (one thread, this
    process, games and CPU time counted in the same run)."""
    seeds = np.arange(seed, seed + games, dtype=np.uint64)
    start = time.process_time()
    play_matches(None, bot, other, seeds)
    return (time.process_time() - start) / games * 1e3


Costs = List[Tuple[float, float]]


def measure(games: int, cost_games: int, seed: int = 0) -> Tuple[List[Pairing], Costs]:
    """Every pairing of PAIRS, and the cost of every bot of COSTED against itself and
    against greedy."""
    pairs = [
        both_seats(label, a, b, max(1, int(games * part)), seed) for label, a, b, part in PAIRS
    ]
    n = max(1, cost_games)
    costs = [
        (cpu_ms_per_game(bot, bot, n, seed), cpu_ms_per_game(bot, "greedy", n, seed))
        for _, bot in COSTED
    ]
    return pairs, costs


def render(pairs: Sequence[Pairing], costs: Costs, cost_games: int, seed: int) -> str:
    """The markdown block docs/rift.md holds between BEGIN and END."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [
        BEGIN,
        "| pairing | games a seat | first bot's share of decided games as X | as O |",
        "|---|---:|---|---|",
    ]
    for p in pairs:
        lines.append(f"| {p.label} | {p.games:,} | {_pct(p.share(0))} | {_pct(p.share(1))} |")
    lines += [
        "",
        "| bot | CPU ms a game against itself | against greedy |",
        "|---|---:|---:|",
    ]
    for (name, bot), (mirror, vs_greedy) in zip(COSTED, costs, strict=True):
        what = getattr(PRESETS.get(name, bot), "description", "")
        label = f"{name} ({what})" if what else name
        lines.append(f"| {label} | {mirror:.2f} | {vs_greedy:.2f} |")
    lines += [
        "",
        f"Seeds {seed} on; each cost over {cost_games} games, the process's CPU time "
        f"(`time.process_time`) on one thread; load average {load:.1f} on the 2-core "
        "machine when the table was written.",
        END,
    ]
    return "\n".join(lines)


def rewrite(path: str, block: Optional[str]) -> None:
    """Replace docs/rift.md's block (None: only check that there is one).
    :raises ValueError: when the file has no block."""
    rewrite_block(path, BEGIN, END, block)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tictacblitz.games.rift.ladder", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--games", type=int, default=400, help="seeds a seat a pairing")
    parser.add_argument("--cost-games", type=int, default=100, help="games a costed bot")
    parser.add_argument("--seed", type=int, default=50_000, help="the first seed")
    parser.add_argument("--write", metavar="FILE", help="rewrite FILE's ladder block")
    args = parser.parse_args(argv)
    for name in ("games", "cost_games"):
        if getattr(args, name) < 1:
            print(
                f"--{name.replace('_', '-')}={getattr(args, name)}: must be >= 1", file=sys.stderr
            )
            return 2
    if args.write:
        try:
            rewrite(args.write, None)  # checks the file and its block before the games
        except (OSError, ValueError) as err:
            print(f"--write={args.write!r}: {err}", file=sys.stderr)
            return 2
    pairs, costs = measure(args.games, args.cost_games, args.seed)
    block = render(pairs, costs, args.cost_games, args.seed)
    if args.write:
        rewrite(args.write, block)
    print(block)
    return 0


if __name__ == "__main__":
    sys.exit(main())
