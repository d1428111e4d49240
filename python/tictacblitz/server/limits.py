"""Per-address limits: token buckets keyed by client address (docs/server.md, "Limits").

One :class:`Buckets` per limited thing (room creations, engine-running requests): each
address has ``burst`` tokens, refilled at ``rate_per_s``; an action takes one or is
refused. Addresses whose bucket is full again are forgotten, so the table stays as
small as the set of addresses active within ``burst / rate_per_s`` seconds.
Generic: nothing here names a game.
"""

from __future__ import annotations

from typing import Callable, Dict, Tuple

__all__ = ["Buckets"]

PRUNE_AT = 1024  # prune full buckets once the table has this many addresses


class Buckets:
    """A token bucket per address (``clock_ms``: the server's clock, in ms)."""

    def __init__(self, clock_ms: Callable[[], float], rate_per_s: float, burst: int) -> None:
        self.clock_ms = clock_ms
        self.rate = rate_per_s
        self.burst = burst
        self.table: Dict[str, Tuple[float, float]] = {}  # address: (tokens, at ms)

    def _level(self, address: str, now: float) -> float:
        tokens, at = self.table.get(address, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - at) * self.rate / 1000.0)

    def take(self, address: str) -> bool:
        """Take a token for ``address``: False if it has none left (refused)."""
        now = self.clock_ms()
        if len(self.table) >= PRUNE_AT:
            self.table = {a: v for a, v in self.table.items() if self._level(a, now) < self.burst}
        tokens = self._level(address, now)
        if tokens < 1.0:
            self.table[address] = (tokens, now)
            return False
        self.table[address] = (tokens - 1.0, now)
        return True

    def give_back(self, address: str) -> None:
        """Return a token taken by :meth:`take` (an attempt another check counts)."""
        now = self.clock_ms()
        self.table[address] = (min(float(self.burst), self._level(address, now) + 1.0), now)

    def retry_after_s(self, address: str) -> float:
        """Seconds until ``address`` has a token again."""
        tokens = self._level(address, self.clock_ms())
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate
