"""Rift & Grid in the lab: :class:`RiftLab`, its
:class:`~tictacblitz.lab.adapter.LabAdapter` (docs/rift.md, "Balance"). Its summary
counters are :mod:`.metrics`, the paired values and ablations :mod:`.ablations`, the
metrics' declarations and the printed rows :mod:`.report`."""

from __future__ import annotations

from typing import Any, Dict, Sequence, Tuple

import numpy as np

from ....games.rift.bots import BOT_NAMES, GUI_LEVELS, SEARCHES, BotSpec
from ....games.rift.bots import resolve_bot as _resolve
from ....games.rift.game import play_matches as _play_matches
from ...adapter import LabAdapter
from . import ablations as _ablations
from . import metrics as _metrics
from . import report as _report

__all__ = ["RiftLab"]


class RiftLab(LabAdapter):
    """Rift's hooks: its runner and bot specs, metrics, ablations and reports."""

    DEFAULT_BOT = "greedy"
    TOURNAMENT_BOTS = BOT_NAMES
    GUI_LEVELS = GUI_LEVELS
    PAIR_MEANS = {"mean_turns": "turns", "mean_collisions": "collisions"}  # a tournament's
    CODE_COLUMNS = _ablations.CODE_COLUMNS
    ABLATION_NOTE = _ablations.ABLATION_NOTE
    EFFECT_METRICS = _ablations.EFFECT_METRICS
    metrics = _report.RIFT_METRICS

    Metrics = _metrics.Metrics
    match_values = staticmethod(_ablations.match_values)
    ablations = staticmethod(_ablations.ablations)
    summary_lines = staticmethod(_report.summary_lines)

    def play_matches(
        self, rules: Any, seat_bots: Sequence[Any], seeds: Any, **options: Any
    ) -> Dict[str, np.ndarray]:
        """:func:`~tictacblitz.games.rift.game.play_matches` with one bot a seat (X, O)."""
        x_bot, o_bot = seat_bots
        return _play_matches(rules, x_bot, o_bot, seeds, **options)

    def resolve_bot(self, bot: Any) -> Tuple[BotSpec, str]:
        """(what :meth:`play_matches` takes, the name reports show) of a preset name or a
        :class:`~tictacblitz.games.rift.bots.BotSpec`. :raises ValueError/TypeError:"""
        spec = _resolve(bot)
        return spec, bot if isinstance(bot, str) else spec.kind

    def describe_bot(self, bot: Any) -> Dict[str, Any]:
        spec = _resolve(bot)
        return {"name": bot if isinstance(bot, str) else spec.kind, **spec.to_dict()}

    def slow_bot(self, bot: Any) -> bool:
        """The search (``hard``) takes milliseconds a move: the lab makes its chunks small."""
        return _resolve(bot).kind in SEARCHES
