"""A baseline that learns: a linear softmax policy trained with REINFORCE, NumPy only.

It trains one seat (X) through the native batched env (``BlitzVectorEnv``, the ``tiny``
preset: one 10 s round on a 4x4 board, lines of 3) against ``random``, then against
``easy`` (greedy with 350 ms reactions and 35 % errors), and writes a learning curve:
the win rate of the training matches, with Wilson 95 % intervals, against training
steps (docs/rl.md states the figures)::

    PYTHONPATH=python python examples/linear_reinforce.py                    # 1-3 minutes
    PYTHONPATH=python python examples/linear_reinforce.py --iters 4 --envs 32 --out /tmp/c.png

The policy: features = the agent's bitboards unpacked to 0/1 per cell (11 boards), the
14 scalars and a bias; logits = features @ W over the legal actions (the mask); one
REINFORCE step per batch of ``--horizon`` steps from every env, with discounted returns
within each episode and a per-step-of-episode mean baseline. Matplotlib draws the PNG
when it is installed; without it the curve is written as a CSV next to it.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from typing import Dict, List, Tuple

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np

from tictacblitz.envs.games.blitz import make_vector_env, unpack_bits


def wilson(wins: int, n: int, z: float = 1.96) -> Tuple[float, float, float]:
    """The win rate and its Wilson score interval."""
    if n == 0:
        return float("nan"), 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return p, centre - half, centre + half


class LinearPolicy:
    """Softmax over the legal actions of ``features @ W``."""

    def __init__(self, n_features: int, n_actions: int, seed: int) -> None:
        self.W = np.zeros((n_features, n_actions), dtype=np.float64)
        self.rng = np.random.default_rng(seed)

    @staticmethod
    def features(obs: Dict[str, np.ndarray], size: int) -> np.ndarray:
        boards = unpack_bits(obs["bits"], size).reshape(len(obs["bits"]), -1)
        bias = np.ones((len(boards), 1), dtype=np.float64)
        return np.concatenate([boards.astype(np.float64), obs["scalars"], bias], axis=1)

    def probs(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = x @ self.W
        logits = np.where(mask, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=1, keepdims=True)

    def act(self, x: np.ndarray, mask: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        p = self.probs(x, mask)
        u = self.rng.random((len(p), 1))
        a = (p.cumsum(axis=1) < u).sum(axis=1)
        return np.minimum(a, p.shape[1] - 1), p


def train(
    opponents=("random", "easy"),
    iters_per_opponent=(40, 60),
    envs=256,
    horizon=200,
    lr=4.0,
    gamma=0.99,
    seed=0,
    preset="tiny",
    log=print,
) -> Dict[str, object]:
    """Train against each opponent in turn; returns the curve (one point per batch)."""
    env = make_vector_env(
        envs,
        preset=preset,
        opponent=opponents[0],
        obs="bits",
        seed=seed,
        num_threads=min(2, os.cpu_count() or 1),
    )
    size = env.batch.rules.size
    obs, _ = env.reset(seed=seed)
    n_actions = env.single_action_space.n
    policy = LinearPolicy(LinearPolicy.features(obs, size).shape[1], n_actions, seed)
    curve: List[Dict[str, float]] = []
    steps = 0
    for phase, (opponent, iters) in enumerate(zip(opponents, iters_per_opponent, strict=True)):
        if phase:
            env.set_opponent(opponent)
            obs, _ = env.reset(seed=seed + 1000 * phase)
        for it in range(iters):
            xs, acts, rews, dones, valid, ps = [], [], [], [], [], []
            wins = played = 0
            fresh = np.zeros(envs, dtype=bool)  # NEXT_STEP: a reset step, action ignored
            for _ in range(horizon):
                x = LinearPolicy.features(obs, size)
                mask = obs["action_mask"].astype(bool)
                a, p = policy.act(x, mask)
                obs, r, term, trunc, info = env.step(a)
                xs.append(x)
                acts.append(a)
                ps.append(p)
                rews.append(r)
                dones.append(term | trunc)
                valid.append(~fresh & (mask.sum(axis=1) > 1))  # a real choice was made
                ended = term & ~fresh
                played += int(ended.sum())
                wins += int((info["match_result"][ended] == 0).sum())
                fresh = term | trunc
            steps += envs * horizon
            # Discounted returns within episodes (a done step closes its episode).
            R = np.zeros(envs)
            G = np.zeros((horizon, envs))
            for t in range(horizon - 1, -1, -1):
                R = rews[t] + gamma * R * (~dones[t])
                G[t] = R
            V = np.stack(valid)
            adv = G - (G * V).sum(axis=1, keepdims=True) / np.maximum(
                V.sum(axis=1, keepdims=True), 1
            )
            adv = adv / (adv[V].std() + 1e-8) if V.any() else adv
            X = np.concatenate(xs)  # (T * N, F)
            P = np.concatenate(ps)
            A = np.concatenate(acts)
            w = (adv * V).reshape(-1)
            grad_logits = -P * w[:, None]
            grad_logits[np.arange(len(A)), A] += w
            policy.W += lr * (X.T @ grad_logits) / max(V.sum(), 1)
            rate, lo, hi = wilson(wins, played)
            curve.append(
                {
                    "steps": steps,
                    "opponent": opponent,
                    "matches": played,
                    "wins": wins,
                    "win_rate": rate,
                    "lo": lo,
                    "hi": hi,
                }
            )
            log(
                f"{opponent:7s} iter {it + 1:3d}  steps {steps / 1e6:6.2f} M  matches {played:5d}"
                f"  win rate {rate:.3f} [{lo:.3f}, {hi:.3f}]"
            )
    return {"curve": curve, "policy": policy, "env": env}


def evaluate(
    policy: LinearPolicy, opponent: str, matches: int = 1024, seed: int = 99, preset: str = "tiny"
) -> Tuple[int, int]:
    """(wins, matches) of the sampled policy in fresh matches against ``opponent``."""
    env = make_vector_env(
        matches, preset=preset, opponent=opponent, obs="bits", autoreset_mode="disabled", seed=seed
    )
    size = env.batch.rules.size
    obs, _ = env.reset(seed=seed)
    result = np.full(matches, -1)
    for _ in range(100_000):
        a, _ = policy.act(LinearPolicy.features(obs, size), obs["action_mask"].astype(bool))
        obs, _, term, trunc, info = env.step(a)
        result = np.where(info["match_result"] >= 0, info["match_result"], result)
        if (term | trunc).all():
            break
    return int((result == 0).sum()), matches


def plot(
    curve, path: str, evals: Dict[str, Tuple[int, int]], untrained: Dict[str, Tuple[int, int]]
) -> str:
    steps = np.array([c["steps"] for c in curve]) / 1e6
    rate = np.array([c["win_rate"] for c in curve])
    lo = np.array([c["lo"] for c in curve])
    hi = np.array([c["hi"] for c in curve])
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        csv = os.path.splitext(path)[0] + ".csv"
        with open(csv, "w") as f:
            f.write("steps,opponent,matches,wins,win_rate,lo,hi\n")
            for c in curve:
                f.write(
                    ",".join(
                        str(c[k])
                        for k in ("steps", "opponent", "matches", "wins", "win_rate", "lo", "hi")
                    )
                    + "\n"
                )
        return csv
    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    for name, colour in (("random", "tab:blue"), ("easy", "tab:red")):
        sel = np.array([c["opponent"] == name for c in curve])
        if sel.any():
            ax.plot(steps[sel], rate[sel], color=colour, label=f"vs {name} (training matches)")
            ax.fill_between(steps[sel], lo[sel], hi[sel], color=colour, alpha=0.25, linewidth=0)
        if name in untrained:
            w, n = untrained[name]
            ax.axhline(
                w / n,
                color=colour,
                linewidth=0.9,
                linestyle="--",
                label=f"untrained (uniform legal) vs {name}: {w / n:.2f}",
            )
    ax.set_xlabel("training steps of the agent (millions; 50 ms each)")
    ax.set_ylabel("win rate (Wilson 95 %)")
    title = "linear softmax REINFORCE, tiny preset (4x4, lines of 3, one 10 s round)"
    ax.set_title(title, fontsize=9)
    text = "; ".join(f"final vs {k}: {w / n:.2f} ({w}/{n})" for k, (w, n) in evals.items())
    ax.text(0.01, 0.02, text, transform=ax.transAxes, fontsize=8)
    ax.set_ylim(0, 1)
    ax.legend(loc="center right", fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--horizon", type=int, default=200)
    ap.add_argument(
        "--iters",
        type=int,
        nargs=2,
        default=(40, 60),
        help="batches against random, then against easy",
    )
    ap.add_argument("--lr", type=float, default=4.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eval", type=int, default=1024, help="matches per final evaluation")
    ap.add_argument("--out", default="docs/img/rl_learning_curve.png")
    ap.add_argument("--json", default=None, help="also write the curve and evaluations here")
    args = ap.parse_args(argv)
    start = time.perf_counter()
    untrained = {}
    for opponent in ("random", "easy"):
        blank = LinearPolicy(1, 1, 1)
        env = make_vector_env(1, preset="tiny", obs="bits")
        n_features = LinearPolicy.features(env.reset(seed=0)[0], env.batch.rules.size).shape[1]
        blank = LinearPolicy(n_features, env.single_action_space.n, 1)
        untrained[opponent] = evaluate(blank, opponent, matches=args.eval)
        w, n = untrained[opponent]
        print(f"untrained (uniform legal) vs {opponent}: {w / n:.3f} over {n} matches")
    res = train(
        iters_per_opponent=tuple(args.iters),
        envs=args.envs,
        horizon=args.horizon,
        lr=args.lr,
        seed=args.seed,
    )
    policy = res["policy"]
    evals = {}
    for opponent in ("random", "easy"):
        evals[opponent] = evaluate(policy, opponent, matches=args.eval)
        w, n = evals[opponent]
        p, lo, hi = wilson(w, n)
        print(f"final vs {opponent}: {p:.3f} [{lo:.3f}, {hi:.3f}] over {n} matches")
    out = plot(res["curve"], args.out, evals, untrained)
    print(f"wrote {out} in {time.perf_counter() - start:.0f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"curve": res["curve"], "final": evals, "untrained": untrained}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
