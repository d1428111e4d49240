"""Tic Tac Blitz's part of a simulation summary (:class:`Metrics`, docs/simulate.md):
rounds, how they end, lengths, knock-outs, seats' counters and powerup impact, and the
designer's targets (:mod:`.targets`)."""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np

from ....games.blitz.rules import Rules
from ....games.blitz.types import POWERUP_KEYS as KINDS  # R14, in code order
from ....games.blitz.types import Player
from ....games.stats import Moments, nice_width, quantiles, wilson_or_none
from .balance import played_rounds, seat_counts
from .targets import TargetCounts

__all__ = ["Metrics", "KO_BINS"]

KO_BINS = 512  # knock-outs in one round (both seats), larger counts clipped to the last


class Metrics:
    """Blitz's part of a simulation summary (docs/simulate.md): rounds, how they end,
    lengths, knock-outs, seats' counters and powerup impact, folded in chunk by chunk
    from exact integer counters (order-independent) and mergeable."""

    _ARRAYS = (
        "rounds_hist",
        "round_outcomes",
        "round_ms_hist",
        "match_ms_hist",
        "ko_hist",
        "seat_totals",
        "simulations",
        "claimer",
        "non_claimer",
        "claims",
        "more_claims",
    )
    _MOMENTS = ("round_ms", "match_ms", "match_rounds", "round_kos")

    def __init__(self, rules: Rules) -> None:
        k = len(KINDS)
        self.rounds_hist = np.zeros(rules.max_rounds + 1, np.int64)  # rounds per match
        self.round_outcomes = np.zeros((3, 3), np.int64)  # [by, result]
        self.round_ms_width = nice_width(rules.round_ms)
        self.round_ms_hist = np.zeros(rules.round_ms // self.round_ms_width + 1, np.int64)
        match_limit = rules.round_ms * rules.max_rounds
        self.match_ms_width = nice_width(match_limit)
        self.match_ms_hist = np.zeros(match_limit // self.match_ms_width + 1, np.int64)
        self.ko_hist = np.zeros(KO_BINS, np.int64)  # KOs per round, both seats
        self.round_ms, self.match_ms, self.match_rounds, self.round_kos = (
            Moments() for _ in range(4)
        )
        self.seat_totals = np.zeros((2, len(seat_counts())), np.int64)
        self.simulations = np.zeros(2, np.int64)
        # Powerup impact, per kind: (round, seat) pairs where the seat claimed >= 1 of
        # that kind [claimed, of which won, of which lost]; the same for pairs that did not.
        self.claimer = np.zeros((k, 3), np.int64)
        self.non_claimer = np.zeros((k, 3), np.int64)
        self.claims = np.zeros((2, k), np.int64)  # by seat, by kind
        # Paired, per kind: decided rounds where one seat claimed more of that kind than
        # the other [such rounds, of which the seat with more claims won].
        self.more_claims = np.zeros((k, 2), np.int64)
        self.targets = TargetCounts()  # issue 24

    def add(self, cols: Dict[str, Any]) -> None:
        """Fold in a chunk's columns (:func:`play_matches`)."""
        self.targets.add(cols)
        rounds = cols["rounds"].astype(np.int64)
        played = played_rounds(cols)
        self.rounds_hist += np.bincount(rounds, minlength=self.rounds_hist.size)[
            : self.rounds_hist.size
        ]
        self.match_rounds.add(rounds)
        result = cols["round_result"][played].astype(np.int64)
        by = cols["round_by"][played].astype(np.int64)
        self.round_outcomes += np.bincount(by * 3 + result, minlength=9)[:9].reshape(3, 3)
        end = cols["round_end_t"]
        ends = end[played].astype(np.int64)
        self.round_ms.add(ends)
        self.round_ms_hist += np.bincount(
            ends // self.round_ms_width, minlength=self.round_ms_hist.size
        )[: self.round_ms_hist.size]
        match_ms = np.where(played, end, 0).sum(axis=1).astype(np.int64)
        self.match_ms.add(match_ms)
        self.match_ms_hist += np.bincount(
            match_ms // self.match_ms_width, minlength=self.match_ms_hist.size
        )[: self.match_ms_hist.size]
        per_round = cols["round_knockouts"][played].astype(np.int64).sum(axis=1)
        self.round_kos.add(per_round)
        self.ko_hist += np.bincount(np.minimum(per_round, KO_BINS - 1), minlength=KO_BINS)
        self.seat_totals += cols["seat_counts"].sum(axis=0)
        self.simulations += cols["simulations"].sum(axis=0)
        pus = cols["round_powerups"][played].astype(np.int64)  # (rounds, seat, kind)
        self.claims += pus.sum(axis=0)
        decided = result < 2
        for k in range(len(KINDS)):
            diff = pus[:, 0, k] - pus[:, 1, k]
            uneven = decided & (diff != 0)
            more_won = uneven & (((diff > 0) & (result == 0)) | ((diff < 0) & (result == 1)))
            self.more_claims[k] += (int(uneven.sum()), int(more_won.sum()))
        for s in (0, 1):
            won, lost = result == s, result == 1 - s
            for k in range(len(KINDS)):
                claimed = pus[:, s, k] > 0
                self.claimer[k] += (
                    int(claimed.sum()),
                    int((claimed & won).sum()),
                    int((claimed & lost).sum()),
                )
                other = ~claimed
                self.non_claimer[k] += (
                    int(other.sum()),
                    int((other & won).sum()),
                    int((other & lost).sum()),
                )

    def merge(self, other: "Metrics") -> None:
        for name in self._ARRAYS:
            getattr(self, name).__iadd__(getattr(other, name))
        for name in self._MOMENTS:
            getattr(self, name).merge(getattr(other, name))
        self.targets.merge(other.targets)

    def to_dict(self) -> Dict[str, Any]:
        """The metrics, merged by the lab into the summary (``seat_advantage`` gains the
        round-level share)."""
        total_rounds = int(self.round_outcomes.sum())
        by = self.round_outcomes.sum(axis=1)  # line, double_line, timeout
        res = self.round_outcomes.sum(axis=0)  # X, O, draw
        r_decided = int(res[0] + res[1])
        round_share = res[0] / r_decided if r_decided else None

        def share(count: Any) -> Optional[float]:
            return float(count / total_rounds) if total_rounds else None

        def dist(m: Any, hist: np.ndarray, width: int) -> Dict[str, Any]:
            mean, ci = m.mean_ci()
            p10, p50, p90 = quantiles(hist, width, (0.1, 0.5, 0.9))
            nz = np.nonzero(hist)[0]
            return {
                "mean": mean,
                "mean_ci": ci,
                "p10": p10,
                "median": p50,
                "p90": p90,
                "min": int(nz[0]) * width if nz.size else None,
                "max": int(nz[-1]) * width if nz.size else None,
                "bin_ms": width,
            }

        rounds_mean, rounds_ci = self.match_rounds.mean_ci()
        ko_mean, ko_ci = self.round_kos.mean_ci()
        ko_q = quantiles(self.ko_hist, 1, (0.1, 0.5, 0.9))
        seat: Dict[str, Dict[str, Any]] = {}
        for s, player in enumerate(Player):
            name = player.name
            seat[name] = {f: int(self.seat_totals[s, j]) for j, f in enumerate(seat_counts())}
            seat[name]["simulations"] = int(self.simulations[s])
            for f in ("knockouts", "placements", "retirements"):
                seat[name][f"{f}_per_round"] = (
                    seat[name][f] / total_rounds if total_rounds else None
                )
        # Baseline: the round win rate of a seat in a round, whatever it claimed.
        baseline = r_decided / (2 * total_rounds) if total_rounds else None
        powerups = {}
        for k, kind in enumerate(KINDS):
            c_n, c_w, c_l = (int(v) for v in self.claimer[k])
            o_n, o_w, _ = (int(v) for v in self.non_claimer[k])
            uneven, more_won = (int(v) for v in self.more_claims[k])
            rate = c_w / c_n if c_n else None
            powerups[kind] = {
                "claims": int(self.claims[:, k].sum()),
                "claims_x": int(self.claims[0, k]),
                "claims_o": int(self.claims[1, k]),
                "claims_per_round": share(self.claims[:, k].sum()),
                "claimer_rounds": c_n,
                "claimer_wins": c_w,
                "claimer_losses": c_l,
                "claimer_win_rate": rate,
                "claimer_win_ci": wilson_or_none(c_w, c_n),
                "non_claimer_win_rate": o_w / o_n if o_n else None,
                "non_claimer_win_ci": wilson_or_none(o_w, o_n),
                "baseline_win_rate": baseline,
                "impact": (rate - baseline) if rate is not None and baseline is not None else None,
                "uneven_rounds": uneven,
                "more_claims_win_share": more_won / uneven if uneven else None,
                "more_claims_win_ci": wilson_or_none(more_won, uneven),
            }
        return {
            "seat_advantage": {
                "round_x_share_of_decided": float(round_share) if round_share is not None else None,
                "round_x_share_ci": wilson_or_none(int(res[0]), r_decided),
            },
            "rounds": {
                "total": total_rounds,
                "x_wins": int(res[0]),
                "o_wins": int(res[1]),
                "draws": int(res[2]),
                "by_line": int(by[0]),
                "by_double_line": int(by[1]),
                "by_timeout": int(by[2]),
                "timeout_decided": int(self.round_outcomes[2, 0] + self.round_outcomes[2, 1]),
                "timeout_drawn": int(self.round_outcomes[2, 2]),
            },
            "round_draw_rate": share(res[2]),
            "round_draw_ci": wilson_or_none(int(res[2]), total_rounds),
            "decisiveness": share(by[0]),
            "decisiveness_ci": wilson_or_none(int(by[0]), total_rounds),
            "timeout_share": share(by[2]),
            "timeout_share_ci": wilson_or_none(int(by[2]), total_rounds),
            "round_length_ms": dist(self.round_ms, self.round_ms_hist, self.round_ms_width),
            "match_length_ms": dist(self.match_ms, self.match_ms_hist, self.match_ms_width),
            "match_rounds": {
                "mean": rounds_mean,
                "mean_ci": rounds_ci,
                "distribution": {str(k): int(v) for k, v in enumerate(self.rounds_hist) if v},
            },
            "knockouts_per_round": {
                "mean": ko_mean,
                "mean_ci": ko_ci,
                "p10": ko_q[0],
                "median": ko_q[1],
                "p90": ko_q[2],
                "x_mean": seat["X"]["knockouts_per_round"],
                "o_mean": seat["O"]["knockouts_per_round"],
            },
            "powerups": powerups,
            "seats": seat,
            # R22: rounds_hist's last bin counts the matches that reached max_rounds
            **self.targets.to_dict(self.match_ms, int(self.rounds_hist[-1])),
        }
