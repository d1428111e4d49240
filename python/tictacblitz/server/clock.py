"""Time for the server: wall clocks in ms with one-shot timers, and a room's one timer.

Everything in the server runs on one thread (the event loop) and reads time only from a
:class:`Clock`: :class:`RealClock` in production, :class:`ManualClock` in tests, which
moves only when told, so every test is deterministic and instant. Nothing here knows
about games or rooms.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
import time
from typing import Any, Callable, List, Optional, Protocol, Tuple

__all__ = ["Handle", "Clock", "RealClock", "ManualClock", "Timer"]


class Handle(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    """Wall time in ms (Unix epoch) and one-shot timers on it."""

    def now_ms(self) -> float: ...

    def call_at(self, when_ms: float, callback: Callable[[], None]) -> Handle: ...


class RealClock:
    """``time.time()`` in ms; timers on the running asyncio loop (bind it first)."""

    def __init__(self) -> None:
        self.loop: Any = None

    def bind(self, loop: Any) -> None:
        self.loop = loop

    def now_ms(self) -> float:
        return time.time() * 1000.0

    def call_at(self, when_ms: float, callback: Callable[[], None]) -> Handle:
        delay = max(0.0, (when_ms - self.now_ms()) / 1000.0)
        return self.loop.call_later(delay, callback)


class _ManualHandle:
    __slots__ = ("when", "callback", "cancelled")

    def __init__(self, when: float, callback: Callable[[], None]) -> None:
        self.when = when
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that moves only when told (tests). ``advance(ms)`` runs every timer due
    on the way, in time order, with ``now_ms()`` at the timer's time. Bound to an asyncio
    loop running in another thread (Starlette's TestClient), it runs them on that loop
    and returns when they are done."""

    def __init__(self, start_ms: float = 1_000_000.0) -> None:
        self._now = float(start_ms)
        self._heap: List[Tuple[float, int, _ManualHandle]] = []
        self._order = itertools.count()
        self._lock = threading.RLock()
        self.loop: Any = None

    def bind(self, loop: Any) -> None:
        self.loop = loop

    def now_ms(self) -> float:
        return self._now

    def call_at(self, when_ms: float, callback: Callable[[], None]) -> Handle:
        handle = _ManualHandle(float(when_ms), callback)
        with self._lock:
            heapq.heappush(self._heap, (handle.when, next(self._order), handle))
        return handle

    def advance(self, ms: float) -> None:
        self.advance_to(self._now + ms)

    def advance_to(self, target: float) -> None:
        if self.loop is not None and self.loop.is_running():
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is not self.loop:

                async def run() -> None:
                    self._advance(target)

                asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout=30)
                return
        self._advance(target)

    def _advance(self, target: float) -> None:
        while True:
            with self._lock:
                while self._heap and self._heap[0][2].cancelled:
                    heapq.heappop(self._heap)
                if not self._heap or self._heap[0][0] > target:
                    break
                when, _, handle = heapq.heappop(self._heap)
            self._now = max(self._now, when)
            handle.callback()
        self._now = max(self._now, float(target))


class Timer:
    """One pending wake-up on a clock (a room keeps exactly one: never a busy loop).

    ``set(when, callback)`` replaces whatever was pending; setting the same time and
    callback again keeps the pending timer (no churn on the clock's heap).
    """

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._handle: Optional[Handle] = None
        self._when: Optional[float] = None
        self._callback: Optional[Callable[[], None]] = None

    @property
    def when(self) -> Optional[float]:
        return self._when

    def set(self, when: float, callback: Callable[[], None]) -> None:
        if self._handle is not None:
            if self._when == when and callback == self._callback:
                return
            self._handle.cancel()
        self._when = when
        self._callback = callback
        self._handle = self._clock.call_at(when, self._fire)

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
        self._handle = self._when = self._callback = None

    def _fire(self) -> None:
        callback = self._callback
        self._handle = self._when = self._callback = None
        if callback is not None:
            callback()
