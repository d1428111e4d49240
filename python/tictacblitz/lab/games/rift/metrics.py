"""Rift & Grid's summary counters (:class:`Metrics`): what the lab adds to a Rift run's
summary, each figure with its 95 % interval (docs/rift.md, "Balance"):

- **seat advantage** as X's score (a win 1, a draw 1/2; does X's control of the next
  sector, G9, favour X?), counted by the lab (:class:`~tictacblitz.lab.metric.FirstSeatScore`);
- **game length** in turns: mean, p10 / median / p90, the distribution;
- **collisions and grey cells**: the share of turns with a collision and of turns that
  greyed a cell (Wilson over turns), and the grey share of collisions;
- **abilities** (shield, swap, reveal): uses a game, and the win rate of a seat that used
  the ability in a game against one that did not (a *correlation*; the *effect* is the
  lab's ablation, :mod:`.ablations`); collisions won by a lone shield and lone swaps a game;
- **objectives** (G17): each catalogue objective's completion rate (of the hands dealt
  it) and its share of all points scored, and the share of points from objectives.
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ....games.rift.rules import RiftRules
from ....games.rift.types import MAX_TURNS, OBJECTIVE_IDS, Ability, Player
from ....games.stats import Z95, Moments, ratio_ci, wilson_or_none
from ...metric import FirstSeatScore, game_length_summary

__all__ = ["Metrics", "ABILITIES", "SEATS", "TARGETS", "objective_bits"]

ABILITIES: Tuple[str, ...] = tuple(a.key for a in Ability if a)  # G14, codes 1, 2, 3
SEATS: Tuple[str, ...] = tuple(p.name.lower() for p in Player)  # "x", "o": column suffixes


def objective_bits(masks: Any) -> np.ndarray:
    """(n, 12) 0/1 of objective-code bit masks."""
    m = np.asarray(masks).astype(np.int64)
    return (m[:, None] >> np.arange(len(OBJECTIVE_IDS))[None, :]) & 1


def _diff_ci(a: int, n: int, b: int, m: int) -> Optional[List[float]]:
    """A normal 95 % interval of a/n - b/m (two independent proportions)."""
    if not n or not m:
        return None
    p, q = a / n, b / m
    half = Z95 * math.sqrt(p * (1 - p) / n + q * (1 - q) / m)
    return [p - q - half, p - q + half]


class Metrics:
    """Rift's extra summary metrics, from exact integer counters (order-free, mergeable).

    :param rules: the rules played (a :class:`RiftRules`, a mapping, or None).
    """

    _ARRAYS = (
        "length_hist",
        "turn_counts",
        "uses",
        "users",
        "non_users",
        "dealt",
        "done",
        "done_wins",
        "obj_points",
        "share_sums",
        "total_points",
    )

    def __init__(self, rules: Any) -> None:
        self.rules = rules if isinstance(rules, RiftRules) else RiftRules.from_dict(rules or {})
        k, c = len(ABILITIES), len(OBJECTIVE_IDS)
        self.length = Moments()  # turns a game
        self.first = FirstSeatScore()  # X's score (the lab's, issue 27)
        self.uses_game = [Moments() for _ in ABILITIES]  # both seats, a game
        self.shield_wins = Moments()  # collisions won by a lone shield, a game
        self.swaps = Moments()  # lone swaps, a game
        self.length_hist = np.zeros(MAX_TURNS + 1, np.int64)
        self.turn_counts = np.zeros(3, np.int64)  # turns, collisions, greys
        self.uses = np.zeros((2, k), np.int64)  # by seat, by ability
        # per ability: (game, seat) pairs where the seat used it >= 1 [n, won, lost],
        # and pairs where it did not
        self.users = np.zeros((k, 3), np.int64)
        self.non_users = np.zeros((k, 3), np.int64)
        self.dealt = np.zeros(c, np.int64)  # hands dealt each objective
        self.done = np.zeros(c, np.int64)  # ... that accomplished it
        self.done_wins = np.zeros(c, np.int64)  # ... and won the game
        self.obj_points = np.zeros(c, np.int64)  # points it scored
        # per objective, the sums [n, Sa, Sb, Saa, Sbb, Sab] over games of a = its
        # points, b = all points (both seats): its share of points with an interval;
        # the last row is every objective together
        self.share_sums = np.zeros((c + 1, 6), np.float64)
        self.total_points = np.zeros(1, np.int64)

    def add(self, cols: Dict[str, Any]) -> None:
        """Fold in a chunk's columns (:func:`play_matches`)."""
        winner = np.asarray(cols["winner"]).astype(np.int64)
        turns = np.asarray(cols["turns"]).astype(np.int64)
        self.length.add(turns)
        self.length_hist += np.bincount(np.minimum(turns, MAX_TURNS), minlength=MAX_TURNS + 1)
        self.first.add(winner)
        self.turn_counts += (
            int(turns.sum()),
            int(np.asarray(cols["collisions"]).sum()),
            int(np.asarray(cols["greys"]).sum()),
        )
        self.shield_wins.add(np.asarray(cols["shield_wins_x"]) + np.asarray(cols["shield_wins_o"]))
        self.swaps.add(np.asarray(cols["swaps_x"]) + np.asarray(cols["swaps_o"]))
        for a, ability in enumerate(ABILITIES):
            per_seat = [np.asarray(cols[f"{ability}_{s}"]).astype(np.int64) for s in SEATS]
            self.uses_game[a].add(per_seat[0] + per_seat[1])
            for s in (0, 1):
                used = per_seat[s] > 0
                won, lost = winner == s, winner == 1 - s
                self.uses[s, a] += int(per_seat[s].sum())
                self.users[a] += (
                    int(used.sum()),
                    int((used & won).sum()),
                    int((used & lost).sum()),
                )
                other = ~used
                self.non_users[a] += (
                    int(other.sum()),
                    int((other & won).sum()),
                    int((other & lost).sum()),
                )
        points = np.array([self.rules.points(o) for o in OBJECTIVE_IDS], np.int64)
        total = (np.asarray(cols["score_x"]) + np.asarray(cols["score_o"])).astype(np.float64)
        self.total_points += int(total.sum())
        per_game = np.zeros((len(winner), len(OBJECTIVE_IDS)), np.float64)
        for s, seat in enumerate(SEATS):
            dealt, done = (
                objective_bits(cols[f"dealt_{seat}"]),
                objective_bits(cols[f"done_{seat}"]),
            )
            self.dealt += dealt.sum(axis=0)
            self.done += done.sum(axis=0)
            self.done_wins += (done * (winner == s)[:, None]).sum(axis=0)
            per_game += done * points[None, :]
        self.obj_points += per_game.sum(axis=0).astype(np.int64)
        parts = np.concatenate([per_game, per_game.sum(axis=1, keepdims=True)], axis=1)
        n = float(len(winner))
        self.share_sums[:, 0] += n
        self.share_sums[:, 1] += parts.sum(axis=0)
        self.share_sums[:, 2] += total.sum()
        self.share_sums[:, 3] += (parts * parts).sum(axis=0)
        self.share_sums[:, 4] += (total * total).sum()
        self.share_sums[:, 5] += (parts * total[:, None]).sum(axis=0)

    def merge(self, other: "Metrics") -> None:
        for name in self._ARRAYS:
            getattr(self, name).__iadd__(getattr(other, name))
        for name in ("length", "first", "shield_wins", "swaps"):
            getattr(self, name).merge(getattr(other, name))
        for mine, theirs in zip(self.uses_game, other.uses_game, strict=True):
            mine.merge(theirs)

    def to_dict(self) -> Dict[str, Any]:
        """The metrics, merged by the lab into its summary (``seat_advantage`` gains X's
        score)."""
        wilson = wilson_or_none
        score, score_ci = self.first.score(clip=True)
        turns, collisions, greys = (int(v) for v in self.turn_counts)
        games = self.length.n
        abilities = {}
        for a, ability in enumerate(ABILITIES):
            u_n, u_w, u_l = (int(v) for v in self.users[a])
            o_n, o_w, o_l = (int(v) for v in self.non_users[a])
            mean, ci = self.uses_game[a].mean_ci()
            abilities[ability] = {
                "uses": int(self.uses[:, a].sum()),
                "uses_x": int(self.uses[0, a]),
                "uses_o": int(self.uses[1, a]),
                "uses_per_game": mean,
                "uses_per_game_ci": ci,
                "user_games": u_n,
                "user_share": u_n / (u_n + o_n) if u_n + o_n else None,
                "user_share_ci": wilson(u_n, u_n + o_n),
                "user_win_rate": u_w / u_n if u_n else None,
                "user_win_ci": wilson(u_w, u_n),
                "non_user_win_rate": o_w / o_n if o_n else None,
                "non_user_win_ci": wilson(o_w, o_n),
                "win_rate_difference": (u_w / u_n - o_w / o_n) if u_n and o_n else None,
                "win_rate_difference_ci": _diff_ci(u_w, u_n, o_w, o_n),
            }
        shield_mean, shield_ci = self.shield_wins.mean_ci()
        swap_mean, swap_ci = self.swaps.mean_ci()
        total_points = int(self.total_points[0])
        objectives = {}
        for c, oid in enumerate(OBJECTIVE_IDS):
            dealt, done = int(self.dealt[c]), int(self.done[c])
            share, share_ci = ratio_ci(self.share_sums[c], clip=(0.0, 1.0))
            objectives[oid] = {
                "points": self.rules.points(oid),
                "dealt": dealt,
                "completed": done,
                "completion_rate": done / dealt if dealt else None,
                "completion_ci": wilson(done, dealt),
                "completer_win_rate": int(self.done_wins[c]) / done if done else None,
                "completer_win_ci": wilson(int(self.done_wins[c]), done),
                "points_scored": int(self.obj_points[c]),
                "points_share": share,
                "points_share_ci": share_ci,
            }
        all_share, all_share_ci = ratio_ci(self.share_sums[-1], clip=(0.0, 1.0))
        return {
            "seat_advantage": {
                "x_score": score,
                "x_score_ci": score_ci,
            },
            "game_length": game_length_summary(self.length, self.length_hist),
            "collisions": {
                "turns": turns,
                "collisions": collisions,
                "greys": greys,
                "collision_rate": collisions / turns if turns else None,
                "collision_ci": wilson(collisions, turns),
                "grey_rate": greys / turns if turns else None,
                "grey_ci": wilson(greys, turns),
                "grey_share_of_collisions": greys / collisions if collisions else None,
                "grey_share_ci": wilson(greys, collisions),
                "collisions_per_game": collisions / games if games else None,
                "shield_wins_per_game": shield_mean,
                "shield_wins_per_game_ci": shield_ci,
                "swaps_per_game": swap_mean,
                "swaps_per_game_ci": swap_ci,
            },
            "abilities": abilities,
            "targets": _targets(self.first, abilities),
            "objectives": objectives,
            "points": {
                "total": total_points,
                "per_game": total_points / games if games else None,
                "objective_share": all_share,
                "objective_share_ci": all_share_ci,
            },
        }


def _targets(first: FirstSeatScore, abilities: Dict[str, Dict[str, Any]]) -> Dict[str, Any]:
    """The names a designer's targets use (issue 24, ``tune``): ``seat_gap``, X's score
    minus 1/2 (0: an even seat), and ``ABILITY_uses``, its uses a game (both seats)."""
    gap, gap_ci = first.gap()
    out: Dict[str, Any] = {"seat_gap": gap, "seat_gap_ci": gap_ci}
    for a in ABILITIES:
        out[f"{a}_uses"] = abilities[a]["uses_per_game"]
        out[f"{a}_uses_ci"] = abilities[a]["uses_per_game_ci"]
    return out


TARGETS: Tuple[str, ...] = ("seat_gap", *(f"{a}_uses" for a in ABILITIES))
"""The target metrics' names, in table order (the summary's ``targets``)."""
