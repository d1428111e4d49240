"""The GUI ladder of every game (issue 23, item 3): the levels a player picks are strictly
ordered, and their names mean what they say. One command measures it and rewrites the
table in docs/bots.md (only its marked block):

    PYTHONPATH=python python -m tictacblitz.lab.ladder --games 400 --write docs/bots.md

For every registered game with ``GUI_LEVELS`` (a balance hook: :mod:`.hooks`), each level
plays the one below it on ``games`` seeds in each seat order (seeds ``seed, seed+1,
...``; the game's default rules; its native loop, the two orders on two threads), and the
table gives the upper level's share of the *decided* games per seat with its 95 % Wilson
interval (a draw, frequent in Doh, counts for neither). A pair is ordered when the lower
bound is above 50 % in both seats. The game's ``LADDER_BASELINES`` ((level, bot) pairs:
Blitz's top level against raw greedy at 0 ms) are measured the same way.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from typing import List, NoReturn, Optional, Sequence, Tuple

import numpy as np

from ..games.ladder import Pairing, both_seats, pct, rewrite_block
from ..games.registry import available_games
from ..games.rng import check_seed
from .hooks import hooks_for

__all__ = ["BEGIN", "END", "Rung", "ladder_pairs", "measure", "render", "main"]

BEGIN = "<!-- gui-ladder:begin (python -m tictacblitz.lab.ladder --write docs/bots.md) -->"
END = "<!-- gui-ladder:end -->"


@dataclass(frozen=True)
class Rung:
    """One measured pairing of a game's ladder: ``first`` (the level that should win)
    against ``second``."""

    game: str
    first: str
    second: str
    pairing: Pairing


def ladder_pairs(game: str) -> List[Tuple[str, str]]:
    """A game's pairings, (upper, lower): each GUI level against the one below it, then
    its baselines. Empty for a game with no ``GUI_LEVELS``."""
    hooks = hooks_for(game)
    levels = tuple(hooks.get("GUI_LEVELS") or ())
    pairs = [(str(levels[i + 1]), str(levels[i])) for i in range(len(levels) - 1)]
    return pairs + [(str(a), str(b)) for a, b in hooks.get("LADDER_BASELINES") or ()]


def measure(games: int, seed: int = 0, only: Sequence[str] = ()) -> List[Rung]:
    """Every game's ladder (``only``: those games), ``games`` seeds a seat a pairing."""
    rungs = []
    for game in only or available_games():
        hooks = hooks_for(game)
        run = hooks.play_matches

        def play(x_bot: object, o_bot: object, seeds: np.ndarray, run=run) -> np.ndarray:
            return np.asarray(run(None, [x_bot, o_bot], seeds)["winner"])

        for upper, lower in ladder_pairs(game):
            pairing = both_seats(play, f"{upper} vs {lower}", upper, lower, games, seed)
            rungs.append(Rung(game, upper, lower, pairing))
    return rungs


def _decided(p: Pairing) -> str:
    return f"{p.decided[0]:,} / {p.decided[1]:,}"


def render(rungs: Sequence[Rung], games: int, seed: int) -> str:
    """The markdown block docs/bots.md holds between BEGIN and END."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [
        BEGIN,
        "| game | pairing | decided games (as X / as O) | first bot's share of decided "
        "games as X [95 % Wilson] | as O | ordered |",
        "|---|---|---:|---|---|---|",
    ]
    for rung in rungs:
        p = rung.pairing
        lines.append(
            f"| {rung.game} | {p.label} | {_decided(p)} | {pct(p.share(0))} | "
            f"{pct(p.share(1))} | {'yes' if p.above_half() else '**no**'} |"
        )
    lines += [
        "",
        f"{games:,} games a seat a pairing, seeds {seed:,} on, default rules; *ordered*: the "
        "Wilson lower bound above 50 % in both seats. Load average "
        f"{load:.1f} on the 2-core machine when the table was written.",
        END,
    ]
    return "\n".join(lines)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2 (house rule)
        print(f"{self.prog}: {message}", file=sys.stderr)
        sys.exit(2)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = _Parser(prog="python -m tictacblitz.lab.ladder", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="seeds a seat a pairing")
    parser.add_argument("--seed", type=int, default=70_000, help="the first seed")
    parser.add_argument("--write", metavar="FILE", help="rewrite FILE's ladder block")
    args = parser.parse_args(argv)
    if args.games < 1:
        print(f"--games={args.games}: must be >= 1", file=sys.stderr)
        return 2
    try:
        check_seed(args.seed, "--seed")
    except ValueError as err:
        print(err, file=sys.stderr)
        return 2
    if args.write:
        try:
            rewrite_block(args.write, BEGIN, END, None)  # the file and block, before the games
        except (OSError, ValueError) as err:
            print(f"--write={args.write!r}: {err}", file=sys.stderr)
            return 2
    block = render(measure(args.games, args.seed), args.games, args.seed)
    if args.write:
        rewrite_block(args.write, BEGIN, END, block)
    print(block)
    return 0


if __name__ == "__main__":
    sys.exit(main())
