"""The text of the designer's answers (:mod:`~tictacblitz.lab.study`): the A/B table
(base and variant side by side, the difference with its paired 95 % interval), bot
strength and seat advantage from swapped seats, and each feature's effect from the
ablation. Units from :mod:`~tictacblitz.lab.units`: percentages, percentage points.
"""

from __future__ import annotations

import textwrap
from typing import Any, Dict, List, NamedTuple, Optional, Sequence

from .hooks import hooks_for
from .seating import bots_text
from .units import diff, label, metrics_of, pct, show, unit

__all__ = [
    "Section",
    "comparison",
    "seats",
    "ablation",
    "text",
    "format_comparison",
    "format_seats",
    "format_ablation",
    "ordered_metrics",
    "rules_text",
    "starred",
    "adjustment_words",
]

STAR = "  *"


def starred(row: Dict[str, Any]) -> bool:
    """Whether a tested row gets its star: significant after the table's
    multiple-testing correction (its raw interval's verdict where there is none)."""
    return bool(row.get("significant_adjusted", row.get("significant")))


def adjustment_words(adjustment: Optional[Dict[str, Any]], what: str) -> str:
    """The footer's words for a table's correction, e.g. "Holm's correction for the 18
    differences tested at once (family-wise error 5 %)"."""
    if not adjustment:
        return "no correction for multiple tests"
    return (
        f"{adjustment['method']}'s correction for the {adjustment['tests']} {what} tested "
        f"at once (family-wise error {100 * adjustment['alpha']:.0f} %)"
    )


def rules_text(rules: Dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(rules.items())) or "the defaults"


def ordered_metrics(names: Sequence[str], game: str) -> List[str]:
    """``names`` in the order of the game's vocabulary (unknown ones last)."""
    known = [m for m in metrics_of(game) if m in names]
    return known + [m for m in names if m not in known]


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> List[str]:
    width = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    out = ["  ".join(str(c).ljust(w) for c, w in zip(head, width, strict=False)).rstrip()]
    out += [
        "  ".join(str(c).ljust(w) for c, w in zip(r, width, strict=False)).rstrip() for r in rows
    ]
    return out


class Section(NamedTuple):
    """One answer as data: the sentences before it, a table (``head`` may be empty: a
    table of label/value rows), and the notes after it; :func:`text` and the HTML page
    (:mod:`~tictacblitz.lab.page`) render it."""

    intro: List[str]
    head: List[str]
    rows: List[List[str]]
    notes: List[str]


def text(section: Optional[Section]) -> List[str]:
    """A section as the lines ``simulate`` prints (empty for none)."""
    if section is None:
        return []
    table = _table(section.head or ["", ""], section.rows)
    return ["", *section.intro, "", *(table if section.head else table[1:]), "", *section.notes]


def comparison(s: Dict[str, Any]) -> Optional[Section]:
    """The A/B of a summary with ``comparison`` (None without)."""
    c = s.get("comparison")
    if not c:
        return None
    game = s["game"]
    variant, base = rules_text(c["variant_rules"]), rules_text(c["base_rules"])
    diffs = c["differences"]
    rows = []
    for m in ordered_metrics(list(diffs), game):
        d, u = diffs[m], unit(m, game)
        rows.append(
            [
                label(m, game),
                show(d["base"], d["base_ci"], u),
                show(d["variant"], d["variant_ci"], u),
                diff(d["difference"], d["ci"], u) + (STAR if starred(d) else ""),
                pairing_gain(d),
            ]
        )
    return Section(
        [
            f"A/B: {variant} (variant) against {base} (base), {bots_text(s)}: "
            f"the same {c['matches']:,} match seeds on both sides; "
            "95 % intervals.",
            "A difference's interval is paired by seed where that narrows it, else unpaired.",
        ],
        [
            "metric",
            f"base: {base}",
            f"variant: {variant}",
            "difference (variant - base)",
            "pairing gain",
        ],
        rows,
        [
            "* the rule change moved this metric: significant at 5 % after "
            + adjustment_words(c.get("adjustment"), "differences"),
            "  (the intervals are each difference's own, unadjusted 95 % interval)",
            "pairing gain: the paired interval's width / the unpaired one's (below 1.00: pairing",
            "narrowed it and the paired interval is shown; otherwise the unpaired one is)",
        ],
    )


def pairing_gain(d: Dict[str, Any]) -> str:
    """The width ratio of a difference row (issue 22), and which interval it shows."""
    ratio = d.get("width_ratio")
    if ratio is None:
        return "-"
    return f"{ratio:.2f}" + ("" if d.get("paired") else " (unpaired)")


def seats(s: Dict[str, Any]) -> Optional[Section]:
    """Bot strength and seat advantage of a summary with ``seat_swap`` (None without)."""
    c = s.get("seat_swap")
    if not c:
        return None
    a, b = c["bots"]
    bot, seat = c["bot_strength"], c["seat_advantage"]
    rows = [
        [
            f"bot strength: {a}'s share of decided matches against {b}",
            pct(bot["share_of_decided"], bot["ci"]) + (STAR if bot["significant"] else ""),
        ],
        [
            "seat advantage: X's share of decided matches, both seatings",
            pct(seat["x_share_of_decided"], seat["ci"]) + (STAR if seat["significant"] else "")
            if seat.get("measurable", True)
            else "not measurable (below)",
        ],
    ]
    why = seat.get("not_measurable_because")
    return Section(
        [
            f"Seats: {a} and {b} are different bots, so X's share above mixes bot strength "
            "and seat.",
            f"Every seed was also played with the seats exchanged (X = {b}, "
            f"O = {a}; {c['matches_each']:,} matches each way, paired by seed):",
        ],
        [],
        rows,
        ["50 % = even; * = the 95 % interval excludes 50 %"]
        + (textwrap.wrap(f"seat advantage not measurable: {why}", 100) if why else []),
    )


def ablation(s: Dict[str, Any]) -> Optional[Section]:
    """Each feature's effect of a summary with ``ablation`` (None without)."""
    c = s.get("ablation")
    if not c:
        return None
    game = s["game"]
    wanted = hooks_for(game).get("EFFECT_METRICS") or ("x_win_rate", "o_win_rate", "draw_rate")
    shown = [m for m in wanted if m in next(iter(c["features"].values()))["effects"]]
    rows = []
    for name, f in c["features"].items():
        e = f["effects"]
        rows.append(
            [name]
            + [
                diff(e[m]["difference"], e[m]["ci"], unit(m, game)) + ("*" if starred(e[m]) else "")
                for m in shown
            ]
        )
    return Section(
        [
            f"Effect of each feature (ablation: {c['how']}; the same {c['matches']:,} "
            "seeds with and without it,",
            "paired by seed; effect = with it - without it; a cause, not a correlation):",
        ],
        ["feature", *(label(m, game) for m in shown)],
        rows,
        [
            "* significant at 5 % after "
            + adjustment_words(c.get("adjustment"), "effects (every metric of every feature)")
            + ";",
            "  the intervals are each effect's own, unadjusted 95 % interval (all in --json)",
        ],
    )


def format_comparison(s: Dict[str, Any]) -> List[str]:
    """The A/B lines of a summary with ``comparison`` (empty without)."""
    return text(comparison(s))


def format_seats(s: Dict[str, Any]) -> List[str]:
    """Bot strength and seat advantage lines (empty without ``seat_swap``)."""
    return text(seats(s))


def format_ablation(s: Dict[str, Any]) -> List[str]:
    """Each feature's effect, as lines (empty without ``ablation``)."""
    return text(ablation(s))
