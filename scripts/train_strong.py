"""Train the ``strong`` Blitz bot's tables (issue 23 item 2) against ``greedy``.

A (1+1) evolution strategy with common random numbers: start from tables that play like
greedy (``strong.greedy_like``), perturb one to three entries at random, play the
candidate against greedy on the epoch's match seeds (both seats), keep it if it scores
at least as well as the incumbent on the same seeds. Each epoch draws fresh seeds and
re-scores the incumbent (so a lucky acceptance does not stick). The score of a set of
matches is 3 x (match wins - match losses) + (round wins - round losses).

    PYTHONPATH=python python scripts/train_strong.py --seed 1 --steps 3000

Deterministic for a seed (the matches are, and so is every draw here); prints progress
each epoch and writes the tables (with how they were made) to --out, by default the
shipped python/tictacblitz/games/blitz/strong_weights.json, after every epoch.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import List, Tuple

import numpy as np

from tictacblitz import Rules
from tictacblitz.games.blitz import strong
from tictacblitz.games.blitz.bots import BotSpec, play_matches

STRONG = BotSpec("strong")
TUNED_EXTRAS = range(14)  # the extras in use (strong.EXTRA_NAMES)


def score(
    weights: strong.Weights, seeds: List[int], rule_sets: List[Rules]
) -> Tuple[int, int, int]:
    """(score, match wins, match losses) of the tables against greedy on ``seeds``,
    each seed played once from each seat, the seeds split evenly over ``rule_sets``."""
    total = [0, 0, 0]
    share = len(seeds) // len(rule_sets)
    for k, rules in enumerate(rule_sets):
        part = seeds[k * share : (k + 1) * share] if k < len(rule_sets) - 1 else seeds[k * share :]
        for i, v in enumerate(_score(weights, part, rules)):
            total[i] += v
    return total[0], total[1], total[2]


def _score(weights: strong.Weights, seeds: List[int], rules: Rules) -> Tuple[int, int, int]:
    strong.use(weights)
    as_x = play_matches(rules, STRONG, "greedy", seeds)
    as_o = play_matches(rules, "greedy", STRONG, seeds)
    wins = int((as_x["winner"] == 0).sum() + (as_o["winner"] == 1).sum())
    losses = int((as_x["winner"] == 1).sum() + (as_o["winner"] == 0).sum())
    rounds = int(  # round_wins: (match, seat)
        as_x["round_wins"][:, 0].sum()
        - as_x["round_wins"][:, 1].sum()
        + as_o["round_wins"][:, 1].sum()
        - as_o["round_wins"][:, 0].sum()
    )
    return 3 * (wins - losses) + rounds, wins, losses


def epoch_rules(rng: np.random.Generator) -> Rules:
    """--vary-rules: the epoch's other rules, a board of 5 to 8 with other mark limits,
    refills and setting times (lines of 4: what the tables count)."""
    return Rules(
        size=int(rng.integers(5, 9)),
        mark_limit=int(rng.integers(5, 11)),
        recharge_place_ms=int(rng.integers(300, 601)),
        recharge_knockout_ms=int(rng.integers(400, 1001)),
        set_ms=int(rng.integers(800, 2401)),
    )


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=100, help="match seeds per epoch (x2 seats)")
    ap.add_argument("--epoch", type=int, default=25, help="steps per set of match seeds")
    ap.add_argument("--sigma", type=float, default=0.5, help="relative step size")
    ap.add_argument("--start", default="greedy", help="'greedy' or a weights file to go on from")
    ap.add_argument("--out", type=Path, default=strong.WEIGHTS_PATH)
    ap.add_argument(
        "--vary-rules",
        action="store_true",
        help="half of each epoch's seeds under other rules (epoch_rules)",
    )
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    best = strong.greedy_like() if args.start == "greedy" else strong.load(Path(args.start))
    best = tuple(t.copy() for t in best)
    slots = [(0, strong.state_index(*s)) for s in strong.table_states(False)]
    slots += [(1, strong.state_index(*s)) for s in strong.table_states(True)]
    slots += [(2, i) for i in TUNED_EXTRAS]
    t0 = time.process_time()
    accepted = 0
    step = 0
    while step < args.steps:
        seeds = [int(s) for s in rng.integers(0, 2**63, size=args.batch)]
        rule_sets = [Rules(), epoch_rules(rng)] if args.vary_rules else [Rules()]
        best_score, wins, losses = score(best, seeds, rule_sets)
        print(
            f"step {step:5d}  score {best_score:+5d}  vs greedy {wins}-{losses} of "
            f"{2 * args.batch}  accepted {accepted}  cpu {time.process_time() - t0:.0f} s"
            + (f"  and {_changed(rule_sets[-1])}" if args.vary_rules else ""),
            flush=True,
        )
        strong.save(best, args.out, _meta(args, step, accepted))
        for _ in range(min(args.epoch, args.steps - step)):
            step += 1
            cand = tuple(t.copy() for t in best)
            for k in rng.choice(len(slots), size=int(rng.integers(1, 4)), replace=False):
                table, i = slots[k]
                w = cand[table][i]
                cand[table][i] = w + rng.normal() * args.sigma * (abs(w) + 10.0)
            s, _, _ = score(cand, seeds, rule_sets)
            if s >= best_score:
                best, best_score = cand, s
                accepted += 1
    strong.save(best, args.out, _meta(args, step, accepted))
    print(f"done: {step} steps, {accepted} accepted, cpu {time.process_time() - t0:.0f} s")
    return 0


def _changed(rules: Rules) -> dict:
    default = Rules().to_dict()
    return {k: v for k, v in rules.to_dict().items() if v != default[k]}


def _meta(args: argparse.Namespace, step: int, accepted: int) -> dict:
    extra = {"vary_rules": True} if args.vary_rules else {}  # (the default file unchanged)
    return extra | {
        "script": "scripts/train_strong.py",
        "seed": args.seed,
        "steps": step,
        "batch": args.batch,
        "epoch": args.epoch,
        "sigma": args.sigma,
        "start": args.start,
        "accepted": accepted,
    }


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
