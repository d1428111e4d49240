"""Blitz's timers for snapshots: setting marks, craters and powerups with their end
times (engine ms), kept from the engine's events. Part of the Blitz server adapter
(``server/games/blitz/``, which re-exports :class:`TimerBook`)."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Tuple

from ....games.blitz.types import EventKind

__all__ = ["TimerBook"]


class TimerBook:
    """Setting marks, craters and powerups with their end times (engine ms), kept from
    the engine's events: what a client needs to draw rings between messages."""

    def __init__(self) -> None:
        self.setting: Dict[Tuple[int, int], Tuple[str, int]] = {}
        self.craters: Dict[Tuple[int, int], Optional[int]] = {}
        self.powerups: Dict[Tuple[int, int], Tuple[str, Optional[int]]] = {}

    def apply(self, event: Mapping[str, Any]) -> None:
        """One event as ``Event.to_dict()`` gives it."""
        kind = EventKind[event["kind"].upper()]
        cell: Any = tuple(event["cell"]) if "cell" in event else None
        if kind == EventKind.ROUND_STARTED:
            self.setting.clear()
            self.craters.clear()
            self.powerups.clear()
        elif kind in (EventKind.PLACED, EventKind.STOLEN):  # R6, R17
            self.setting[cell] = (event["player"], event["until"])
        elif kind in (EventKind.SET, EventKind.RETIRED, EventKind.BOMBED):
            self.setting.pop(cell, None)
        elif kind == EventKind.KNOCKED_OUT:  # R9
            self.setting.pop(cell, None)
            if event.get("until") is not None:
                self.craters[cell] = event["until"]
        elif kind == EventKind.CRATER_CLEARED:
            self.craters.pop(cell, None)
        elif kind == EventKind.POWERUP_SPAWNED:  # R16
            self.powerups[cell] = (event["powerup"], event.get("until"))
        elif kind in (EventKind.POWERUP_CLAIMED, EventKind.POWERUP_BURNED_OUT):
            self.powerups.pop(cell, None)

    def to_dict(self) -> Dict[str, Any]:
        return {
            "setting": [
                {"cell": list(c), "player": p, "until": u}
                for c, (p, u) in sorted(self.setting.items())
            ],
            "craters": [{"cell": list(c), "until": u} for c, u in sorted(self.craters.items())],
            "powerups": [
                {"cell": list(c), "powerup": k, "until": u}
                for c, (k, u) in sorted(self.powerups.items())
            ],
        }
