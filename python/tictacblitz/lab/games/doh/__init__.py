"""Tic Tac Doh in the lab: :class:`DohLab`, its :class:`~tictacblitz.lab.adapter.LabAdapter`
(docs/doh.md, "Balance"). The runner, records and summary counters are
:mod:`.balance`, the metrics and the printed rows :mod:`.report`, three or four players
:mod:`.seats`."""

from __future__ import annotations

from typing import Any, Dict, Sequence

import numpy as np

from ....games.doh.bots import BOT_NAMES, GUI_LEVELS
from ...adapter import LabAdapter
from . import balance, report

__all__ = ["DohLab"]


class DohLab(LabAdapter):
    """Doh's hooks: its runner and opening option, records, metrics and reports."""

    DEFAULT_BOT = "greedy"
    TOURNAMENT_BOTS = BOT_NAMES
    GUI_LEVELS = GUI_LEVELS
    PAIR_MEANS = {"mean_moves": "moves"}  # per pair of a tournament: mean plies a game
    CODE_COLUMNS = balance.CODE_COLUMNS
    RUNNER_OPTIONS = balance.RUNNER_OPTIONS
    metrics = report.DOH_METRICS

    record_fields = staticmethod(balance.record_fields)
    record_columns = staticmethod(balance.record_columns)
    Metrics = staticmethod(balance.Metrics)
    match_values = staticmethod(balance.match_values)
    summary_lines = staticmethod(report.summary_lines)

    def play_matches(
        self, rules: Any, seat_bots: Sequence[Any], seeds: Any, **options: Any
    ) -> Dict[str, np.ndarray]:
        return balance.play_matches(rules, seat_bots, seeds, **options)

    def checked_options(self, options: Dict[str, Any]) -> Dict[str, Any]:
        return balance.check_options(options)
