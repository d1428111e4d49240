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
import math
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

import numpy as np

from .bots import PRESETS, BotSpec
from .game import play_matches

LEVELS: Tuple[str, ...] = ("easy", "medium", "hard")
"""The GUI's levels, weakest first (``server/games/rift.py``'s BOT_LEVELS)."""
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
Z95 = 1.959963984540054


def wilson(successes: int, n: int) -> Tuple[float, float]:
    """The 95 % Wilson score interval of a proportion; (0, 1) for n = 0. The formula of
    ``lab.stats.wilson`` (a game may not import the lab: tests/test_architecture.py;
    tests/rift/test_rift_ladder.py holds the two equal)."""
    if n <= 0:
        return (0.0, 1.0)
    p, z2 = successes / n, Z95 * Z95
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = Z95 * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return (low, high)


BEGIN = "<!-- rift-ladder:begin (python -m tictacblitz.games.rift.ladder --write) -->"
END = "<!-- rift-ladder:end -->"


@dataclass(frozen=True)
class Pairing:
    """One pairing's result: wins and decided games of the first bot, per seat."""

    label: str
    games: int
    wins: Tuple[int, int]
    decided: Tuple[int, int]

    def share(self, seat: int) -> Tuple[float, float, float]:
        """(share, low, high) of the first bot's decided games won in ``seat`` (0 X)."""
        won, dec = self.wins[seat], self.decided[seat]
        low, high = wilson(won, dec)
        return (won / dec if dec else float("nan"), low, high)

    def above_half(self) -> bool:
        """The ladder's criterion: the Wilson lower bound above 50 % in both seats."""
        return all(self.share(seat)[1] > 0.5 for seat in (0, 1))


def both_seats(label: str, first, second, games: int, seed: int = 0) -> Pairing:
    """``first`` against ``second`` on ``games`` seeds in each seat order."""
    seeds = np.arange(seed, seed + games, dtype=np.uint64)
    with ThreadPoolExecutor(2) as pool:
        as_x = pool.submit(play_matches, None, first, second, seeds)
        as_o = pool.submit(play_matches, None, second, first, seeds)
        x, o = as_x.result()["winner"], as_o.result()["winner"]
    return Pairing(
        label,
        games,
        (int((x == 0).sum()), int((o == 1).sum())),
        (int((x >= 0).sum()), int((o >= 0).sum())),
    )


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


def _pct(value: Tuple[float, float, float]) -> str:
    share, low, high = value
    return f"{100 * share:.1f} % [{100 * low:.1f}, {100 * high:.1f}]"


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
    """Replace the block between BEGIN and END of ``path`` by ``block`` (None: only
    check that there is one). :raises ValueError: when the file has no block."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    start, stop = text.find(BEGIN), text.find(END)
    if start < 0 or stop < start:
        raise ValueError(f"no ladder block ({BEGIN} ... {END}) to rewrite")
    if block is None:
        return
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text[:start] + block + text[stop + len(END) :])


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
