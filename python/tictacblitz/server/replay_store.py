"""Finished matches' replay files by match id: the last ``keep`` in memory, all of them
on disk when a directory is given. Game-agnostic: a replay is whatever JSON object the
game's replay format makes (``State.to_replay`` plus the room's keys).

Off the event loop (issue 26, hole 3: writing an 8.1 MB replay blocked the loop 0.6 s):
with :attr:`ReplayStore.offload` set (the app sets it to a thread of its own), ``put``
keeps the dict as it is and encodes and writes it in that thread; :meth:`text` (the
compact JSON ``GET /replays/{id}`` sends as it is, never parsed again) is safe to call
from a thread. Without ``offload`` (tests) everything happens at once."""

from __future__ import annotations

import json
import logging
import os
import re
from collections import OrderedDict
from typing import Any, Callable, Dict, Optional, Union

__all__ = ["ReplayStore", "REPLAY_ID"]

REPLAY_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
"""The ids the store answers for: nothing that could name a path outside its directory."""

log = logging.getLogger(__name__)
Offload = Callable[[Callable[[], Any], Callable[[Any, Optional[BaseException]], None]], Any]


def _compact(replay: Dict[str, Any]) -> str:
    return json.dumps(replay, separators=(",", ":"))


class ReplayStore:
    """Replays by match id: the last ``keep`` in memory, all of them in ``directory``."""

    def __init__(self, keep: int, directory: Optional[str] = None) -> None:
        self.keep = keep
        self.directory = directory
        # Compact JSON text (a few times smaller than the dicts, so memory stays flat once
        # the store is full), or the dict itself while its text is being made.
        self._memory: "OrderedDict[str, Union[str, Dict[str, Any]]]" = OrderedDict()
        # Also told of each replay put (id, compact JSON): the cluster's shared store.
        self.mirror: Optional[Callable[[str, str], None]] = None
        # run(job, done): the job in a thread, done(result, error) back on the loop
        # (jobs.run_job's shape); None: at once.
        self.offload: Optional[Offload] = None
        if directory:
            os.makedirs(directory, exist_ok=True)

    def put(self, match_id: str, replay: Dict[str, Any]) -> None:
        """Keep ``replay`` (not changed afterwards) under ``match_id``."""
        self._memory[match_id] = replay
        self._memory.move_to_end(match_id)
        while len(self._memory) > self.keep:
            self._memory.popitem(last=False)

        def encode() -> str:
            text = _compact(replay)
            if self.directory:
                path = os.path.join(self.directory, f"{match_id}.json")
                tmp = path + ".tmp"
                try:
                    with open(tmp, "w", encoding="utf-8") as fh:
                        json.dump(replay, fh, indent=1)
                    os.replace(tmp, path)
                except OSError as exc:  # a full disk: kept in memory, said in the log
                    log.warning("replay %s not written: %s", match_id, exc)
            return text

        def encoded(text: Any, error: Optional[BaseException]) -> None:
            if error is not None:  # not encodable: said; text() tries again in its thread
                log.warning("replay %s not written: %s", match_id, error)
                return
            if self._memory.get(match_id) is replay:
                self._memory[match_id] = text
            if self.mirror is not None:
                self.mirror(match_id, text)

        if self.offload is None:
            encoded(encode(), None)
        else:
            self.offload(encode, encoded)

    def text(self, match_id: str) -> Optional[str]:
        """The replay as compact JSON text, or None (safe in a worker thread: the memory
        is only read, the disk read there)."""
        if not REPLAY_ID.match(match_id):
            return None
        found = self._memory.get(match_id)
        if isinstance(found, str):
            return found
        if found is not None:
            return _compact(found)
        if not self.directory:
            return None
        path = os.path.join(self.directory, f"{match_id}.json")
        try:
            with open(path, encoding="utf-8") as fh:
                return fh.read()
        except OSError:
            return None

    def get(self, match_id: str) -> Optional[Dict[str, Any]]:
        """The replay as a new dict, or None."""
        text = self.text(match_id)
        if text is None:
            return None
        try:
            found = json.loads(text)
        except ValueError:
            return None
        return found if isinstance(found, dict) else None

    def __len__(self) -> int:
        return len(self._memory)
