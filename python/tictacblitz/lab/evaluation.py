"""``tictacblitz evaluate``: a policy against every bot of a game (issue 28, "Evaluation").

The policy (:mod:`.policies`: a callable, or a model file) plays ``matches`` games in
each seat against each bot, through the game's native vector env (its RL adapter's
``make_vector_env``, ``envs/games/<name>.py``: what ``tictacblitz.envs`` serves, the
same observations a learner trained on). A
game's result for the policy is the sign of its episode return (every env pays
zero-sum rewards whose sum has the sign of the match result: +1 a win, 0 a draw, -1 a
loss). Per bot: win, draw and loss shares with 95 % Wilson intervals, and the p-value
of "the policy's score (wins + draws / 2) / games differs from 1/2", Holm-adjusted over
the bots. A game that ships an ``exploitability`` module (``games/<name>/
exploitability.py``) also gives the policy's exact exploitability on request.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any, Dict, Optional, Sequence

import numpy as np

from ..games.registry import DEFAULT_GAME, game_module
from .command import report_error
from .edges import guarded, one_line_errors, seed_number, whole_number
from .hooks import hooks_for
from .policies import Policy, load_policy
from .stats import holm, normal_p, wilson

__all__ = ["evaluate_policy", "play_seat", "register", "main"]

MAX_STEPS = 1_000_000
"""A bound on the steps of one batch of games (every game of the platform ends, R22/D8)."""


def choose(answer: Any, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The actions of a policy's answer: codes as they are, probabilities sampled.

    :raises ValueError: for an answer of neither shape.
    """
    answer = np.asarray(answer)
    n, actions = mask.shape
    if answer.shape == (n,):
        return answer.astype(np.int64)
    if answer.shape != (n, actions):
        raise ValueError(f"a policy answers ({n},) codes or ({n}, {actions}) probabilities, "
                         f"not shape {answer.shape}")  # fmt: skip
    probs = np.clip(answer.astype(np.float64), 0.0, None)
    cdf = probs.cumsum(axis=1)
    u = rng.random(n) * cdf[:, -1]
    return np.minimum((cdf <= u[:, None]).sum(axis=1), actions - 1).astype(np.int64)


def play_seat(
    policy: Policy, game: str, bot: Any, seat: int, matches: int, seed: Any,
    env_options: Optional[Dict[str, Any]] = None,
) -> np.ndarray:  # fmt: skip
    """``matches`` games of ``policy`` in ``seat`` against ``bot``: each game's result
    for the policy (int8: +1 win, 0 draw, -1 loss), games seeded ``seed + i``."""
    hooks_for(game)  # an unknown game: one line naming the registered ones
    # The game's RL adapter (envs/games/<game>.py, issue 27): imported here, not at the
    # top, so the lab imports without the rl extra.
    from ..envs.games import native_env

    adapter = native_env(game)
    if adapter is None:
        raise ValueError(f"the game {game!r} has no native RL environments to play a policy in")
    # Disabled autoreset: a finished game waits instead of starting games nobody counts
    # until the slowest one ends (the results are the same: only unfinished rows count).
    options = {**(env_options or {}), "autoreset_mode": "disabled"}
    env = adapter.make_vector_env(matches, opponent=bot, seat=seat, **options)
    seeds = np.asarray(seed)  # an int (game i: seed + i) or one seed per game
    rng = np.random.default_rng(seeds.astype(np.uint64).ravel()[:1] if seeds.ndim else seed)
    obs, info = env.reset(seed=seed if not seeds.ndim else seeds)
    returns = np.zeros(matches)
    done = np.zeros(matches, dtype=bool)
    for _ in range(MAX_STEPS):
        mask = np.asarray(obs["action_mask"] if "action_mask" in obs else info["action_mask"])
        mask = mask.astype(bool)
        actions = np.zeros(matches, dtype=np.int64)
        live = np.flatnonzero(~done)
        rows = {k: np.asarray(v)[live] for k, v in obs.items()}
        actions[live] = choose(policy(rows, mask[live]), mask[live], rng)
        obs, rewards, terminated, truncated, info = env.step(actions)
        returns[~done] += np.asarray(rewards)[~done]
        done |= np.asarray(terminated) | np.asarray(truncated)
        if done.all():
            break
    env.close()
    return np.sign(returns).astype(np.int8)


def _row(bot: str, results: Sequence[np.ndarray]) -> Dict[str, Any]:
    both = np.concatenate(results)
    n = len(both)
    counts = {k: int((both == v).sum()) for k, v in (("wins", 1), ("draws", 0), ("losses", -1))}
    score = (counts["wins"] + counts["draws"] / 2) / n
    points = (both + 1) / 2
    se = float(points.std(ddof=1) / math.sqrt(n)) if n > 1 else None
    row: Dict[str, Any] = {"bot": bot, "games": n, **counts, "score": score}
    for key in ("wins", "draws", "losses"):
        row[f"{key}_share"] = counts[key] / n
        row[f"{key}_ci"] = list(wilson(counts[key], n))
    row["by_seat"] = [
        {"seat": s, "games": len(r), "wins": int((r == 1).sum()), "draws": int((r == 0).sum())}
        for s, r in enumerate(results)
    ]
    row["p"] = normal_p(score - 0.5, se)
    return row


def evaluate_policy(
    policy: Policy,
    game: str = DEFAULT_GAME,
    *,
    bots: Optional[Sequence[str]] = None,
    matches: int = 100,
    seed: int = 0,
    seats: Sequence[int] = (0, 1),
    env_options: Optional[Dict[str, Any]] = None,
) -> Dict[str, Any]:
    """``policy`` against each bot (default: every bot of ``game``), ``matches`` games
    per seat; the report described in the module (``rows``, one per bot).

    :raises ValueError: for an unknown game or bot, or a bad policy answer.
    """
    hooks = hooks_for(game)
    names = list(bots) if bots else list(hooks.bot_names)
    rows = []
    for k, bot in enumerate(names):
        results = [
            play_seat(
                policy, game, bot, seat, matches, seed + 1_000_003 * (2 * k + seat), env_options
            )
            for seat in seats
        ]
        rows.append(_row(bot, results))
    for row, adjusted in zip(rows, holm([r["p"] for r in rows]), strict=True):
        row["p_holm"] = adjusted
    return {"game": game, "matches_per_seat": matches, "seed": seed, "rows": rows}


def exploitability_module(game: str) -> Optional[Any]:
    """The game's ``exploitability`` module, or None when it has none."""
    return game_module(game, "exploitability")


def format_report(report: Dict[str, Any]) -> str:
    lines = [
        f"{report['game']}: {report['matches_per_seat']} games per seat and bot, "
        f"seed {report['seed']}",
        f"{'bot':<10} {'games':>5}  {'win %':>22}  {'draw %':>22}  {'loss %':>22}  {'p (Holm)':>8}",
    ]
    pct = "{:5.1f} [{:5.1f}, {:5.1f}]"
    for r in report["rows"]:
        cells = [
            pct.format(100 * r[f"{k}_share"], *(100 * x for x in r[f"{k}_ci"]))
            for k in ("wins", "draws", "losses")
        ]
        p = "-" if r["p_holm"] is None else f"{r['p_holm']:.3g}"
        shares = "  ".join(f"{c:>22}" for c in cells)
        lines.append(f"{r['bot']:<10} {r['games']:>5}  {shares}  {p:>8}")
    if "exploitability" in report:
        lines.append(
            f"exploitability: {report['exploitability']['exploitability']:.4f} outcome points"
        )
    return "\n".join(lines)


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``evaluate`` subcommand; its handler returns the exit status."""
    parser = subparsers.add_parser(
        "evaluate",
        help="a policy (model file) against every bot of a game, with Wilson intervals",
        description="Play a policy (a .npz model file of tictacblitz.lab.policies, or a "
        "TorchScript .pt with torch) against each bot of a game in both seats: win, draw "
        "and loss shares with 95 %% Wilson intervals, Holm-adjusted p-values of score = 1/2, "
        "and with --exploitability the exact exploitability where the game has one (Doh).",
    )
    parser.add_argument("policy", metavar="MODEL", help="the policy's model file (.npz or .pt)")
    parser.add_argument("--game", default=DEFAULT_GAME, help=f"the game (default: {DEFAULT_GAME})")
    parser.add_argument("--bots", default=None, help="comma-separated bots (default: every bot)")
    parser.add_argument("--matches", type=whole_number(), default=100, metavar="N",
                        help="games per seat and bot (default: 100)")  # fmt: skip
    parser.add_argument(
        "--seed", type=seed_number, default=0, metavar="S", help="seed (default: 0)"
    )
    parser.add_argument("--rules", default=None, metavar="JSON",
                        help='rule overrides as JSON, e.g. \'{"pieces_per_size": 3}\'')  # fmt: skip
    parser.add_argument("--greedy", action="store_true", help="play the most probable move")
    parser.add_argument("--exploitability", action="store_true",
                        help="also the exact exploitability (games that have one)")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    one_line_errors(parser, "evaluate")
    parser.set_defaults(handler=guarded("evaluate", main))
    return parser


def main(args: argparse.Namespace) -> int:
    try:
        rules = json.loads(args.rules) if args.rules else None
    except json.JSONDecodeError:
        return report_error("evaluate", f"--rules {args.rules!r} is not JSON")
    try:
        policy = load_policy(args.policy, greedy=args.greedy)
        module = exploitability_module(args.game) if args.exploitability else None
        if args.exploitability and module is None:
            return report_error("evaluate", f"the game {args.game!r} has no exploitability")
        bots = [b for b in args.bots.split(",") if b] if args.bots else None
        options = {"rules": rules} if rules else None
        report = evaluate_policy(
            policy, args.game, bots=bots, matches=args.matches, seed=args.seed, env_options=options
        )
        if module is not None:
            report["exploitability"] = module.evaluate(policy, rules).to_dict()
    except (ValueError, TypeError) as exc:
        return report_error("evaluate", str(exc))
    print(json.dumps(report, indent=2) if args.json else format_report(report))
    return 0
