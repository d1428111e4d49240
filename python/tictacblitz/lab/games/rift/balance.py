"""Rift & Grid's balance hooks: what the game-agnostic lab (``tictacblitz.lab``:
simulate, sweep, tournament) needs of Rift beyond the protocol (docs/simulate.md, "A
game's balance hooks"; docs/rift.md, "Balance").

The lab already reports the match results (X wins, O wins, draws, X's share of decided
games) with 95 % Wilson intervals. This module adds the questions a designer of Rift
asks, each with its 95 % interval:

- **seat advantage** as X's score (a win 1, a draw ½; does X's control of the next
  sector, G9, favour X?);
- **game length** in turns: mean, p10 / median / p90, the distribution;
- **collisions and grey cells**: the share of turns with a collision and of turns that
  greyed a cell (Wilson over turns), and the grey share of collisions;
- **abilities** (shield, swap, reveal): uses a game, and the win rate of a seat that used
  the ability in a game against one that did not (a *correlation*; the *effect* is the
  lab's ablation, ``simulate --ablate``, with :func:`ablations` switching each ability
  and the objectives off, paired by seed through :func:`match_values`);
  collisions won by a lone shield and lone swaps a game;
- **objectives** (G17): each catalogue objective's completion rate (of the hands dealt
  it) and its share of all points scored, and the share of points from objectives.

The runner is :func:`~.game.play_matches` (its columns are listed there). ``Metrics``
gets the lab's statistics module handed down, so this module imports nothing of the lab
(a game looks only downward).
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..base import first_seat_score2
from ..stats import Z95, Moments, quantiles, ratio_ci, wilson_or_none
from .bots import BOT_NAMES, GUI_LEVELS, SEARCHES, BotSpec
from .bots import resolve_bot as _resolve
from .game import play_matches as _play_matches
from .rules import RiftRules
from .types import MAX_TURNS, OBJECTIVE_IDS, Ability, Player

__all__ = [
    "GUI_LEVELS",
    "play_matches",
    "Metrics",
    "metric_rows",
    "summary_lines",
    "resolve_bot",
    "describe_bot",
    "slow_bot",
    "METRICS",
    "PANELS",
    "SWEEP_COLUMNS",
    "REPORT_COLUMNS",
    "DEFAULT_BOT",
    "TOURNAMENT_BOTS",
    "PAIR_MEANS",
    "ABILITIES",
    "SEATS",
    "match_values",
    "ablations",
    "ABLATION_NOTE",
    "EFFECT_METRICS",
    "CODE_COLUMNS",
    "PRECISION_METRICS",
]

DEFAULT_BOT = "greedy"
TOURNAMENT_BOTS: Tuple[str, ...] = BOT_NAMES
PAIR_MEANS: Dict[str, str] = {"mean_turns": "turns", "mean_collisions": "collisions"}
"""Per-match columns a tournament reports the mean of, per pair."""

ABILITIES: Tuple[str, ...] = tuple(a.key for a in Ability if a)  # G14, codes 1, 2, 3
SEATS: Tuple[str, ...] = tuple(p.name.lower() for p in Player)  # "x", "o": column suffixes
PLOTTED_OBJECTIVES = ("full_energy", "centre_cells", "centre", "diagonal_win", "shield_win")
"""The objectives a sweep plot draws (every one is in the table and the JSON)."""


def play_matches(rules: Any, seat_bots: Sequence[Any], seeds: Any) -> Dict[str, np.ndarray]:
    """The lab's runner hook: :func:`.game.play_matches` with one bot a seat (X, O)."""
    x_bot, o_bot = seat_bots
    return _play_matches(rules, x_bot, o_bot, seeds)


def resolve_bot(bot: Any) -> Tuple[BotSpec, str]:
    """(what :func:`play_matches` takes, the name reports show) of a preset name or a
    :class:`~.bots.BotSpec`. :raises ValueError/TypeError: naming the bad bot."""
    spec = _resolve(bot)
    return spec, bot if isinstance(bot, str) else spec.kind


def describe_bot(bot: Any) -> Dict[str, Any]:
    spec = _resolve(bot)
    return {"name": bot if isinstance(bot, str) else spec.kind, **spec.to_dict()}


def slow_bot(bot: Any) -> bool:
    """The search (``hard``) takes milliseconds a move: the lab makes its chunks small."""
    return _resolve(bot).kind in SEARCHES


def _bits(masks: Any) -> np.ndarray:
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
    _MOMENTS = ("length", "score2", "uses_game", "shield_wins", "swaps")

    def __init__(self, rules: Any) -> None:
        self.rules = rules if isinstance(rules, RiftRules) else RiftRules.from_dict(rules or {})
        k, c = len(ABILITIES), len(OBJECTIVE_IDS)
        self.length = Moments()  # turns a game
        self.score2 = Moments()  # X's score doubled (loss 0, draw 1, win 2)
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
        self.score2.add(first_seat_score2(winner))
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
            dealt, done = _bits(cols[f"dealt_{seat}"]), _bits(cols[f"done_{seat}"])
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
        for name in ("length", "score2", "shield_wins", "swaps"):
            getattr(self, name).merge(getattr(other, name))
        for mine, theirs in zip(self.uses_game, other.uses_game, strict=True):
            mine.merge(theirs)

    def to_dict(self) -> Dict[str, Any]:
        """The metrics, merged by the lab into its summary (``seat_advantage`` gains X's
        score)."""
        wilson = wilson_or_none
        score, score_ci = self.score2.mean_ci()
        length, length_ci = self.length.mean_ci()
        p10, p50, p90 = quantiles(self.length_hist, 1, (0.1, 0.5, 0.9))
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
                "x_score": None if score is None else score / 2,
                "x_score_ci": None
                if score_ci is None
                else [max(score_ci[0] / 2, 0.0), min(score_ci[1] / 2, 1.0)],
            },
            "game_length": {
                "mean": length,
                "mean_ci": length_ci,
                "p10": p10,
                "median": p50,
                "p90": p90,
                "distribution": {str(k): int(v) for k, v in enumerate(self.length_hist) if v},
            },
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
            "targets": _targets(score, score_ci, abilities),
            "objectives": objectives,
            "points": {
                "total": total_points,
                "per_game": total_points / games if games else None,
                "objective_share": all_share,
                "objective_share_ci": all_share_ci,
            },
        }


def _targets(
    score2: Optional[float], ci2: Optional[List[float]], abilities: Dict[str, Dict[str, Any]]
) -> Dict[str, Any]:
    """The names a designer's targets use (issue 24, ``tune``): ``seat_gap``, X's score
    minus 1/2 (0: an even seat), and ``ABILITY_uses``, its uses a game (both seats)."""
    out: Dict[str, Any] = {
        "seat_gap": None if score2 is None else score2 / 2 - 0.5,
        "seat_gap_ci": None if ci2 is None else [ci2[0] / 2 - 0.5, ci2[1] / 2 - 0.5],
    }
    for a in ABILITIES:
        out[f"{a}_uses"] = abilities[a]["uses_per_game"]
        out[f"{a}_uses_ci"] = abilities[a]["uses_per_game_ci"]
    return out


TARGETS: Tuple[str, ...] = ("seat_gap", *(f"{a}_uses" for a in ABILITIES))
"""The target metrics' names, in table order (the summary's ``targets``)."""


# -- the designer's questions: paired values, ablations -------------------------------------


def match_values(cols: Dict[str, Any]) -> Dict[str, Tuple[np.ndarray, np.ndarray, float]]:
    """Per-match ``(numerator, denominator, scale)`` of Rift's metrics (the lab pairs two
    runs over the same seeds match by match with them, for an A/B or an ablation):
    ``scale * sum(num) / sum(den)`` is the metric of :func:`metric_rows` with the same
    name."""
    w = np.asarray(cols["winner"]).astype(np.int64)
    one = np.ones_like(w)
    turns = np.asarray(cols["turns"]).astype(np.int64)
    total = (np.asarray(cols["score_x"]) + np.asarray(cols["score_o"])).astype(np.int64)
    objective = (np.asarray(cols["points_x"]) + np.asarray(cols["points_o"])).astype(np.int64)
    out: Dict[str, Tuple[np.ndarray, np.ndarray, float]] = {
        "x_score": (first_seat_score2(w), 2 * one, 1.0),
        "seat_gap": (first_seat_score2(w) - 1, 2 * one, 1.0),  # (2·score - 1) / 2
        "game_length": (turns, one, 1.0),
        "collision_rate": (np.asarray(cols["collisions"]).astype(np.int64), turns, 1.0),
        "grey_rate": (np.asarray(cols["greys"]).astype(np.int64), turns, 1.0),
        "grey_share_of_collisions": (
            np.asarray(cols["greys"]).astype(np.int64),
            np.asarray(cols["collisions"]).astype(np.int64),
            1.0,
        ),
        "objective_points_share": (objective, total, 1.0),
    }
    for a in ABILITIES:
        uses = np.asarray(cols[f"{a}_x"]) + np.asarray(cols[f"{a}_o"])
        out[f"{a}_uses_per_game"] = (uses.astype(np.int64), one, 1.0)
    dealt = _bits(cols["dealt_x"]) + _bits(cols["dealt_o"])
    done = _bits(cols["done_x"]) + _bits(cols["done_o"])
    for c, oid in enumerate(OBJECTIVE_IDS):
        out[f"{oid}_completion"] = (done[:, c], dealt[:, c], 1.0)
    return out


def ablations(rules: Optional[RiftRules]) -> Dict[str, Dict[str, Any]]:
    """Rift's optional features for the lab's ablation (``simulate --ablate``), as rule
    overrides that switch each off: an ability by a cost above ``energy_max`` (energy
    never exceeds it, G13, so the ability is never affordable, G5), the objectives by
    0 points each (G17). A feature already off under ``rules`` is left out."""
    r = rules if isinstance(rules, RiftRules) else RiftRules.from_dict(rules or {})
    out: Dict[str, Dict[str, Any]] = {}
    for a in ABILITIES:
        if getattr(r, f"{a}_cost") <= r.energy_max:
            out[a] = {f"{a}_cost": r.energy_max + 1}
    if any(v > 0 for v in r.objective_points.values()):
        out["objectives"] = {"objective_points": dict.fromkeys(OBJECTIVE_IDS, 0)}
    return out


CODE_COLUMNS: Dict[str, Tuple[str, ...]] = {
    f"{kind}_{seat}": () for kind in ("dealt", "done") for seat in ("x", "o")
}
"""The runner's code columns: each seat's objective hands as bitmasks of the catalogue
(G12, G17), never averaged; their per-objective rates are :class:`Metrics`'s (issue 22)."""

ABLATION_NOTE = "each ability made unaffordable (cost energy_max + 1), objectives worth 0"
"""How the ablation switches a feature off, in the words reports print."""

EFFECT_METRICS = (
    "x_win_rate",
    "o_win_rate",
    "draw_rate",
    "x_score",
    "game_length",
    "collision_rate",
)
"""The metrics an ablation table shows (every paired metric is in the JSON)."""


# -- how reports show them ----------------------------------------------------------------

METRICS: Dict[str, Tuple[str, str, str]] = {
    "x_score": (
        "X's score (win 1, draw 1/2)",
        "share",
        "X's mean result; 50 % is a fair seat with the same bot in both seats (G9: X's "
        "final target names the next sector)",
    ),
    "game_length": ("game length (mean)", "turns", "turns played until the ninth sector (G16)"),
    "collision_rate": (
        "turns with a collision",
        "share",
        "turns in which both final targets were the same cell (G6.3)",
    ),
    "grey_rate": ("turns that greyed a cell", "share", "collisions not won by a lone shield"),
    "grey_share_of_collisions": ("grey share of collisions", "share", "1 - lone shield wins"),
    **{
        f"{a}_uses_per_game": (f"{a} uses a game", "uses", f"{a} played in a game, both seats")
        for a in ABILITIES
    },
    **{
        f"{a}_win_difference": (
            f"{a}: user's win rate - non-user's (correlation)",
            "pp",
            f"the win rate of a seat that used {a} in a game minus that of a seat that did "
            "not; a correlation (bots use abilities when they can), not the effect of the "
            "rule: compare runs for that",
        )
        for a in ABILITIES
    },
    "seat_gap": (
        "seat gap: X's score - 1/2",
        "pp",
        "X's mean result (win 1, draw 1/2) minus 1/2: 0 is an even seat with the same bot in "
        "both seats (the name a tune target uses)",
    ),
    **{
        f"{a}_uses": (
            f"{a} uses a game (target)",
            "uses",
            f"{a} played in a game, both seats (G14; the name a tune target uses)",
        )
        for a in ABILITIES
    },
    "objective_points_share": (
        "points from objectives",
        "share",
        "the share of all points scored that came from objectives (G12, G17)",
    ),
    **{
        f"{o}_completion": (
            f"objective {o}: completion rate",
            "share",
            f"hands dealt {o} that accomplished it",
        )
        for o in OBJECTIVE_IDS
    },
    **{
        f"{o}_points_share": (
            f"objective {o}: share of points",
            "share",
            f"the share of all points scored that {o} scored",
        )
        for o in OBJECTIVE_IDS
    },
}
"""name -> (label, unit, explanation) of the metrics :func:`metric_rows` adds, in order."""

PANELS: Tuple[Tuple[str, Tuple[str, ...]], ...] = (
    ("seat advantage: X's share of decided matches", ("x_score",)),
    ("game length (turns)", ("game_length",)),
    ("collisions and grey cells (share of turns)", ("collision_rate", "grey_rate")),
    ("ability uses a game", tuple(f"{a}_uses_per_game" for a in ABILITIES)),
    (
        "correlation: user's win rate - non-user's",
        tuple(f"{a}_win_difference" for a in ABILITIES),
    ),
    ("objective completion rate", tuple(f"{o}_completion" for o in PLOTTED_OBJECTIVES)),
    ("share of points", ("objective_points_share",)),
)
"""Sweep plot panels (a panel titled as one of the lab's gets these metrics added)."""

SWEEP_COLUMNS = ("x_score", "game_length", "collision_rate", "reveal_uses_per_game")
"""The metrics the sweep command's text table shows after the lab's."""

REPORT_COLUMNS = (
    "x_score",
    "game_length",
    "collision_rate",
    "grey_rate",
    *(f"{a}_uses_per_game" for a in ABILITIES),
    *(f"{a}_win_difference" for a in ABILITIES),
    "objective_points_share",
)
"""The metrics the sweep's HTML table shows after the lab's."""


def metric_rows(summary: Dict[str, Any], add: Any) -> None:
    """Add Rift's headline metrics as rows: ``add(name, value, (lo, hi))``."""
    s = summary
    sa = s["seat_advantage"]
    add("x_score", sa["x_score"], sa["x_score_ci"])
    add("game_length", s["game_length"]["mean"], s["game_length"]["mean_ci"])
    c = s["collisions"]
    add("collision_rate", c["collision_rate"], c["collision_ci"])
    add("grey_rate", c["grey_rate"], c["grey_ci"])
    add("grey_share_of_collisions", c["grey_share_of_collisions"], c["grey_share_ci"])
    for a in ABILITIES:
        ab = s["abilities"][a]
        add(f"{a}_uses_per_game", ab["uses_per_game"], ab["uses_per_game_ci"])
    for a in ABILITIES:
        ab = s["abilities"][a]
        add(f"{a}_win_difference", ab["win_rate_difference"], ab["win_rate_difference_ci"])
    for name in TARGETS:
        add(name, s["targets"][name], s["targets"][f"{name}_ci"])
    p = s["points"]
    add("objective_points_share", p["objective_share"], p["objective_share_ci"])
    for o in OBJECTIVE_IDS:
        ob = s["objectives"][o]
        add(f"{o}_completion", ob["completion_rate"], ob["completion_ci"])
    for o in OBJECTIVE_IDS:
        ob = s["objectives"][o]
        add(f"{o}_points_share", ob["points_share"], ob["points_share_ci"])


def _pp(value: Optional[float], ci: Optional[List[float]]) -> str:
    if value is None:
        return "-"
    text = f"{100 * value:+.1f} pp"
    if ci:
        text += f" [{100 * ci[0]:+.1f}, {100 * ci[1]:+.1f}]"
    return text


def summary_lines(s: Dict[str, Any], pct: Any, num: Any) -> Tuple[List[Tuple[str, str]], List[str]]:
    """(rows of the summary table after the lab's, lines after the table): what
    ``tictacblitz simulate --game rift`` prints."""
    sa, gl, c, p = s["seat_advantage"], s["game_length"], s["collisions"], s["points"]
    rows: List[Tuple[str, str]] = [
        ("X's score (win 1, draw 1/2)", pct(sa["x_score"], sa["x_score_ci"])),
    ]
    if gl["mean"] is not None:
        rows += [
            ("game length, turns: mean [CI]", num(gl["mean"], gl["mean_ci"])),
            ("  p10 / median / p90", f"{gl['p10']} / {gl['median']} / {gl['p90']}"),
        ]
    rows += [
        ("turns with a collision", pct(c["collision_rate"], c["collision_ci"])),
        ("turns that greyed a cell", pct(c["grey_rate"], c["grey_ci"])),
        ("grey share of collisions", pct(c["grey_share_of_collisions"], c["grey_share_ci"])),
        (
            "a game: lone-shield wins / lone swaps",
            f"{num(c['shield_wins_per_game'], c['shield_wins_per_game_ci'])} / "
            f"{num(c['swaps_per_game'], c['swaps_per_game_ci'])}",
        ),
        ("points a game (both seats)", num(p["per_game"])),
        ("points from objectives", pct(p["objective_share"], p["objective_share_ci"])),
    ]
    lines = [
        "",
        "Abilities (the win rates are a CORRELATION: bots use abilities when they can; the "
        "effect is the ablation, simulate --ablate, or a sweep: sweep --grid reveal_cost=...):",
        f"{'ability':<8} {'uses a game':<22} {'X / O uses':>15}  {'seat used it':<22} "
        f"{'user wins':<22} {'non-user wins':<22} {'difference':<24}",
    ]
    for a in ABILITIES:
        ab = s["abilities"][a]
        lines.append(
            f"{a:<8} {num(ab['uses_per_game'], ab['uses_per_game_ci']):<22} "
            f"{ab['uses_x']:>7,} / {ab['uses_o']:<5,}  "
            f"{pct(ab['user_share'], ab['user_share_ci']):<22} "
            f"{pct(ab['user_win_rate'], ab['user_win_ci']):<22} "
            f"{pct(ab['non_user_win_rate'], ab['non_user_win_ci']):<22} "
            f"{_pp(ab['win_rate_difference'], ab['win_rate_difference_ci']):<24}"
        )
    lines += [
        "",
        "Objectives (G17; 95 % intervals): completion = hands dealt it that accomplished it",
        f"{'objective':<17} {'pts':>3} {'dealt':>7}  {'completion':<22} "
        f"{'completer wins':<22} {'share of all points':<22}",
    ]
    for o in OBJECTIVE_IDS:
        ob = s["objectives"][o]
        lines.append(
            f"{o:<17} {ob['points']:>3} {ob['dealt']:>7,}  "
            f"{pct(ob['completion_rate'], ob['completion_ci']):<22} "
            f"{pct(ob['completer_win_rate'], ob['completer_win_ci']):<22} "
            f"{pct(ob['points_share'], ob['points_share_ci']):<22}"
        )
    return rows, lines


PRECISION_METRICS = {
    "x_score": ("seat_advantage.x_score", "seat_advantage.x_score_ci"),
    "game_length": ("game_length.mean", "game_length.mean_ci"),
    "collision_rate": ("collisions.collision_rate", "collisions.collision_ci"),
    # issue 24: the names a designer's targets use (tune)
    **{name: (f"targets.{name}", f"targets.{name}_ci") for name in TARGETS},
}
"""The lab's hook: this game's metrics for ``simulate --precision`` (JSON paths of the
value and of its 95 % interval in the summary; lab/cost.py)."""
