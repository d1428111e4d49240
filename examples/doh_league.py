"""A league on Tic Tac Doh: self-play against a pool of past snapshots with prioritised
fictitious self-play (PFSP), and the learner's exact exploitability over training.

NumPy only (torch optional, not used). The learner is a tabular softmax policy over the
legal moves (one row of logits a position, found from the env's observation by
``observation_keys``), trained with REINFORCE (the game's result, a mean baseline).
Every iteration it plays ``--games`` games, half in each seat, each against
an opponent drawn from the pool of its frozen past snapshots with PFSP weights
``(1 - w) ** p + eps``, ``w`` the learner's score (wins + draws / 2) against that
opponent so far (opponents that beat it are drawn most). Every ``--snapshot`` iterations
the learner is frozen into the pool and its exact exploitability computed
(``tictacblitz.games.doh.exploitability``, docs/rl.md "Evaluation"). The games are
played on the native layers of ``blitz_core.doh.best_response`` (expand, observe): all
games of a batch are at the same ply, so one seat moves in all of them at once.

The rules are small so that an exact exploitability takes a fraction of a second:
``pieces_per_size=3, grid=2`` (6,672 positions a seat; ``second`` wins under perfect
play; uniform random play's exploitability is 0.8385). Each checkpoint also adds an
*exploiter* to the pool: the exact best response to the frozen learner (AlphaStar's
main exploiters, found exactly here); PFSP draws it most while it still wins::

    PYTHONPATH=python python examples/doh_league.py                       # 7 CPU-seconds
    PYTHONPATH=python python examples/doh_league.py --iters 6 --out /tmp/l.png
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Union

import numpy as np

from blitz_core.doh import best_response as native
from tictacblitz.games.doh.encoding import NUM_ACTIONS
from tictacblitz.games.doh.exploitability import best_response, observation_keys
from tictacblitz.games.doh.rules import DohRules


class Table:
    """Logits per position (the row of its key; a position never seen has logits 0:
    the uniform policy over its legal moves)."""

    def __init__(self) -> None:
        self.rows: Dict[int, int] = {}
        self.logits = np.zeros((1024, NUM_ACTIONS))

    def index(self, keys: np.ndarray, *, grow: bool) -> np.ndarray:
        out = np.full(len(keys), -1, dtype=np.int64)
        for i, key in enumerate(keys.tolist()):
            row = self.rows.get(key)
            if row is None and grow:
                row = self.rows[key] = len(self.rows)
                if row >= len(self.logits):
                    self.logits = np.concatenate([self.logits, np.zeros_like(self.logits)])
            out[i] = -1 if row is None else row
        return out

    def copy(self) -> "Table":
        twin = Table()
        twin.rows = dict(self.rows)
        twin.logits = self.logits.copy()
        return twin

    def probabilities(self, keys: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Softmax over the legal moves (uniform on a row with none)."""
        rows = self.index(keys, grow=False)
        z = np.where(rows[:, None] >= 0, self.logits[np.maximum(rows, 0)], 0.0)
        legal = mask | ~mask.any(axis=1, keepdims=True)
        z = np.where(legal, z, -np.inf)
        z = np.exp(z - z.max(axis=1, keepdims=True))
        return z / z.sum(axis=1, keepdims=True)


class Exploiter:
    """An exact best response to a snapshot of the learner (both seats): its move in
    every position it reaches against that snapshot, uniform elsewhere."""

    def __init__(self, moves: Dict[int, int]) -> None:
        self.moves = moves

    def probabilities(self, keys: np.ndarray, mask: np.ndarray) -> np.ndarray:
        out = mask.astype(np.float64)
        for i, key in enumerate(keys.tolist()):
            move = self.moves.get(key)
            if move is not None:
                out[i] = 0.0
                out[i, move] = 1.0
        return out / np.maximum(out.sum(axis=1, keepdims=True), 1.0)


def as_policy(table: Table, rules: DohRules):
    """A frozen snapshot as a policy of the platform (``policy(obs, mask) -> probs``)."""
    frozen = table.copy()

    def policy(obs: Dict[str, np.ndarray], mask: np.ndarray) -> np.ndarray:
        return frozen.probabilities(observation_keys(obs["observation"], rules), mask)

    return policy


def pfsp_weights(scores: np.ndarray, power: float = 2.0, eps: float = 0.05) -> np.ndarray:
    """PFSP's sampling distribution over the pool: ``(1 - score) ** power + eps``,
    normalised; ``score`` the learner's score against each opponent (0.5 unknown)."""
    w = (1.0 - np.clip(scores, 0.0, 1.0)) ** power + eps
    return w / w.sum()


@dataclass
class League:
    rules: DohRules
    seed: int = 0
    lr: float = 1.0
    power: float = 2.0
    table: Table = field(default_factory=Table)
    exploiters: bool = True
    pool: List[Union[Table, Exploiter]] = field(default_factory=list)
    results: List[List[float]] = field(default_factory=list)  # [score sum, games] per opponent

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng(self.seed)
        self.start = self.checkpoint()

    def snapshot(self) -> None:
        self.pool.append(self.table.copy())
        self.results.append([0.0, 0.0])

    def scores(self) -> np.ndarray:
        """The learner's score against each opponent of the pool (0.5 before any game)."""
        return np.array([(s + 1.0) / (n + 2.0) for s, n in self.results])  # Laplace

    def play(self, games: int) -> Dict[str, float]:
        """One batch of games, learner vs PFSP-drawn snapshots; one REINFORCE step."""
        params = self.rules.native_params()  # the one way the rules cross (issue 27)
        scores = self.scores()
        probs_pool = pfsp_weights(scores, self.power)
        opponent = self.rng.choice(len(self.pool), size=games, p=probs_pool)
        seat = np.arange(games) % 2  # the learner's seat
        keys = np.full(games, native.start_key(params), dtype=np.uint64)
        outcome = np.zeros(games)  # for the learner: +1 win, 0 draw, -1 loss
        live = np.ones(games, dtype=bool)
        states, acts, ps, rows = [], [], [], []
        ply = 0
        while live.any():
            mover = ply % 2
            idx = np.flatnonzero(live)
            _, mask = native.observe(keys[idx], params, mover)
            chosen = np.zeros(len(idx), dtype=np.int64)
            mine = seat[idx] == mover
            for k in np.unique(opponent[idx[~mine]]).tolist() + [-1]:
                sel = mine if k == -1 else (~mine & (opponent[idx] == k))
                if not sel.any():
                    continue
                player = self.table if k == -1 else self.pool[k]
                pr = player.probabilities(keys[idx[sel]], mask[sel])
                u = self.rng.random(int(sel.sum()))[:, None]
                chosen[sel] = np.minimum((pr.cumsum(axis=1) < u).sum(axis=1), NUM_ACTIONS - 1)
                if k == -1:
                    states.append(self.table.index(keys[idx[sel]], grow=True))
                    acts.append(chosen[sel])
                    ps.append(pr)
                    rows.append(idx[sel])
            winner, _, offsets, actions, children = native.expand(keys[idx], params)
            table = np.zeros((len(idx), NUM_ACTIONS), dtype=np.uint64)
            edge_state = np.repeat(np.arange(len(idx)), np.diff(offsets))
            table[edge_state, actions] = children
            keys[idx] = table[np.arange(len(idx)), chosen]
            ply += 1
            after, _, _, _, _ = native.expand(keys[idx], params)
            over = after != native.ONGOING
            end = idx[over]
            won = after[over]
            outcome[end] = np.where(won == native.DRAW, 0.0, np.where(won == seat[end], 1.0, -1.0))
            live[end] = False
        for k in range(len(self.pool)):
            played = opponent == k
            self.results[k][0] += float(((outcome[played] + 1) / 2).sum())
            self.results[k][1] += float(played.sum())
        S, A, P = np.concatenate(states), np.concatenate(acts), np.concatenate(ps)
        G = outcome[np.concatenate(rows)]
        adv = G - G.mean()
        grad = -P * adv[:, None]
        grad[np.arange(len(A)), A] += adv
        np.add.at(self.table.logits, S, self.lr * grad)  # REINFORCE, one row a position
        return {
            "score": float(((outcome + 1) / 2).mean()),
            "scores": scores.tolist(),  # the learner's, when the opponents were drawn
            "pfsp": probs_pool.tolist(),
            "opponents": np.bincount(opponent, minlength=len(self.pool)).tolist(),
        }

    def checkpoint(self) -> float:
        """Freeze the learner into the pool, and its exact best response too (an
        exploiter, when ``exploiters``); returns the learner's exact exploitability."""
        policy = as_policy(self.table, self.rules)
        seats = [best_response(policy, s, self.rules, strategy=True) for s in (0, 1)]
        self.gains = [seats[0].gain, seats[1].gain]  # per seat of the learner
        self.snapshot()
        if self.exploiters:
            moves = {**(seats[0].strategy or {}), **(seats[1].strategy or {})}
            self.pool.append(Exploiter(moves))
            self.results.append([0.0, 0.0])
        return (seats[0].gain + seats[1].gain) / 2


def train(
    iters: int = 400,
    games: int = 256,
    snapshot_every: int = 25,
    seed: int = 0,
    lr: float = 1.0,
    rules: Optional[DohRules] = None,
    log=print,
    exploiters: bool = True,
) -> Dict[str, object]:
    """Train the league; returns its checkpoints (one per snapshot) and the league."""
    rules = rules or DohRules(pieces_per_size=3, grid=2)
    league = League(rules, seed=seed, lr=lr, exploiters=exploiters)
    checkpoints = [
        {
            "iteration": 0,
            "exploitability": league.start,
            "gains": league.gains,
            "pool": len(league.pool),
        }
    ]
    log(f"iter    0  exploitability {checkpoints[0]['exploitability']:.4f}")
    history = []
    for it in range(1, iters + 1):
        history.append(league.play(games))
        if it % snapshot_every == 0:
            e = league.checkpoint()
            checkpoints.append(
                {
                    "iteration": it,
                    "exploitability": e,
                    "gains": league.gains,
                    "pool": len(league.pool),
                }
            )
            first, second = league.gains
            log(f"iter {it:4d}  exploitability {e:.4f} (first {first:.3f}, second {second:.3f})"
                f"  pool {len(league.pool)}  score {history[-1]['score']:.3f}")  # fmt: skip
    return {"checkpoints": checkpoints, "history": history, "league": league}


def plot(checkpoints, path: str, games: int, seed: int) -> str:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        csv = path.rsplit(".", 1)[0] + ".csv"
        with open(csv, "w") as f:
            f.write("iteration,exploitability,pool\n")
            for c in checkpoints:
                f.write(f"{c['iteration']},{c['exploitability']},{c['pool']}\n")
        return csv
    it = [c["iteration"] for c in checkpoints]
    ex = [c["exploitability"] for c in checkpoints]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    ax.plot(
        it,
        ex,
        marker="o",
        markersize=3,
        label="learner (tabular softmax, REINFORCE, PFSP over snapshots and exploiters)",
    )
    ax.axhline(
        ex[0], color="grey", linestyle="--", linewidth=0.9, label=f"uniform random: {ex[0]:.3f}"
    )
    ax.set_xlabel(f"iteration ({games} games each, half in each seat)")
    ax.set_ylabel("exact exploitability (outcome points)")
    ax.set_title(f"Doh league, pieces_per_size=3, grid=2, seed {seed}", fontsize=9)
    ax.set_ylim(0, max(1.05, max(ex) + 0.05))
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iters", type=int, default=400)
    ap.add_argument("--games", type=int, default=256)
    ap.add_argument("--snapshot", type=int, default=25, help="iterations between snapshots")
    ap.add_argument("--lr", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-exploiters", action="store_true", help="a pool of snapshots only")
    ap.add_argument("--out", default="docs/img/doh_league_exploitability.png")
    ap.add_argument("--json", default=None, help="also write the checkpoints here")
    args = ap.parse_args(argv)
    start = time.perf_counter()
    res = train(
        args.iters, args.games, args.snapshot, args.seed, args.lr, exploiters=not args.no_exploiters
    )
    out = plot(res["checkpoints"], args.out, args.games, args.seed)
    print(f"wrote {out} in {time.perf_counter() - start:.0f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"checkpoints": res["checkpoints"]}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
