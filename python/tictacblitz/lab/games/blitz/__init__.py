"""Tic Tac Blitz in the lab: :class:`BlitzLab`, its
:class:`~tictacblitz.lab.adapter.LabAdapter` (docs/simulate.md). The runner, records,
paired values and ablations are :mod:`.balance`, the summary counters :mod:`.metrics`,
the designer's targets :mod:`.targets`, the metrics' declarations and printed rows
:mod:`.report`."""

from __future__ import annotations

from typing import Any, Dict, Sequence, Tuple

import numpy as np

from ....games.blitz.bots import GUI_LEVELS
from ...adapter import LabAdapter
from . import balance as _balance
from . import metrics as _metrics
from . import report as _report

__all__ = ["BlitzLab"]


class BlitzLab(LabAdapter):
    """Blitz's hooks: its runner and bot specs, records, metrics, ablations and reports."""

    DEFAULT_BOT = "greedy"
    TOURNAMENT_BOTS = ("random", "greedy", "search")
    GUI_LEVELS = GUI_LEVELS
    LADDER_BASELINES = ((GUI_LEVELS[-1], "greedy"),)  # issue 23: the top level beats greedy
    PAIR_MEANS = {"mean_rounds": "rounds"}  # per pair of a tournament: mean rounds a match
    CODE_COLUMNS = _balance.CODE_COLUMNS
    ABLATION_NOTE = _balance.ABLATION_NOTE
    EFFECT_METRICS = _balance.EFFECT_METRICS
    metrics = _report.BLITZ_METRICS

    record_fields = staticmethod(_balance.record_fields)
    record_columns = staticmethod(_balance.record_columns)
    Metrics = _metrics.Metrics
    match_values = staticmethod(_balance.match_values)
    ablations = staticmethod(_balance.ablations)
    summary_lines = staticmethod(_report.summary_lines)

    def play_matches(
        self, rules: Any, seat_bots: Sequence[Any], seeds: Any, **options: Any
    ) -> Dict[str, np.ndarray]:
        return _balance.play_matches(rules, seat_bots, seeds, **options)

    def resolve_bot(self, bot: Any) -> Tuple[Any, str]:
        return _balance.resolve_bot(bot)

    def describe_bot(self, bot: Any) -> Dict[str, Any]:
        return _balance.describe_bot(bot)

    def slow_bot(self, bot: Any) -> bool:
        return _balance.slow_bot(bot)

    def check_rules(self, rules: Any) -> None:
        _balance.check_rules(rules)

    def sweepable(self) -> Dict[str, type]:
        return _balance.sweepable(self.default_game.rules)
