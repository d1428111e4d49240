"""Finished matches' replay files by match id: the last ``keep`` in memory, all of them
on disk when a directory is given. Game-agnostic: a replay is whatever JSON object the
game's replay format makes (``State.to_replay`` plus the room's keys)."""

from __future__ import annotations

import json
import os
import re
from collections import OrderedDict
from typing import Any, Callable, Dict, Optional

__all__ = ["ReplayStore", "REPLAY_ID"]

REPLAY_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
"""The ids the store answers for: nothing that could name a path outside its directory."""


class ReplayStore:
    """Replays by match id: the last ``keep`` in memory, all of them in ``directory``."""

    def __init__(self, keep: int, directory: Optional[str] = None) -> None:
        self.keep = keep
        self.directory = directory
        self._memory: "OrderedDict[str, str]" = OrderedDict()
        # Also told of each replay put (id, compact JSON): the cluster's shared store.
        self.mirror: Optional[Callable[[str, str], None]] = None
        if directory:
            os.makedirs(directory, exist_ok=True)

    def put(self, match_id: str, replay: Dict[str, Any]) -> None:
        # Kept as compact JSON text: a few times smaller than the dicts, so memory stays
        # flat once the store is full.
        text = json.dumps(replay, separators=(",", ":"))
        self._memory[match_id] = text
        if self.mirror is not None:
            self.mirror(match_id, text)
        self._memory.move_to_end(match_id)
        while len(self._memory) > self.keep:
            self._memory.popitem(last=False)
        if self.directory:
            path = os.path.join(self.directory, f"{match_id}.json")
            tmp = path + ".tmp"
            with open(tmp, "w", encoding="utf-8") as fh:
                json.dump(replay, fh, indent=1)
            os.replace(tmp, path)

    def get(self, match_id: str) -> Optional[Dict[str, Any]]:
        if not REPLAY_ID.match(match_id):
            return None
        found = self._memory.get(match_id)
        if found is not None:
            return json.loads(found)
        if not self.directory:
            return None
        path = os.path.join(self.directory, f"{match_id}.json")
        try:
            with open(path, encoding="utf-8") as fh:
                return json.load(fh)
        except (OSError, ValueError):
            return None

    def __len__(self) -> int:
        return len(self._memory)
