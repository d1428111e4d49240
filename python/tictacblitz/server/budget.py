"""Work a request may make the server do, bounded while it runs (docs/server.md, "Limits").

An HTTP endpoint that runs a game's engine for a request (the replay viewer's frames)
runs it through :func:`run_budgeted`: in a thread of its own, never on the event loop,
with a :class:`WorkBudget` of events, bytes and CPU time.

- **Cooperative**: the game's code charges what it makes as it goes
  (``current_budget().charge(events=..., nbytes=...)``, e.g. once per replay frame);
  a charge over the budget, or made after the thread's CPU time ran out, raises
  :class:`BudgetExceeded` there and then, so the work stops before it grows further.
- **Enforced anyway**: a watchdog on the event loop reads the worker thread's CPU clock
  every few ms; past the budget it raises :class:`BudgetExceeded` inside the thread
  (at its next Python instruction), so a game whose code never charges is stopped too.
  Past ``max_wall_s`` the request is answered at once, whatever the thread does.
- The answer is encoded to JSON in the same thread, and refused if over ``max_bytes``.

Generic: nothing here names a game.
"""

from __future__ import annotations

import asyncio
import ctypes
import json
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional

__all__ = ["WorkBudget", "BudgetExceeded", "CpuTimeExceeded", "current_budget", "run_budgeted"]

_local = threading.local()
WATCH_S = 0.01                       # how often the watchdog reads the worker's CPU clock


class BudgetExceeded(Exception):
    """The request would make the server do more work than its budget."""


@dataclass
class WorkBudget:
    """The most one request may cost: engine ``events`` made, ``bytes`` of answer,
    ``cpu_s`` of the worker thread's CPU time, ``wall_s`` until it is answered."""

    max_events: int = 50_000
    max_bytes: int = 8 * 1024 * 1024
    max_cpu_s: float = 2.0
    max_wall_s: float = 10.0

    def __post_init__(self) -> None:
        self.events = 0
        self.bytes = 0
        self.cpu_start: Optional[float] = None

    def start(self) -> None:
        self.cpu_start = time.thread_time()

    def charge(self, events: int = 0, nbytes: int = 0) -> None:
        """Count work done; raise :class:`BudgetExceeded` once any part is over."""
        self.events += events
        self.bytes += nbytes
        if self.events > self.max_events:
            raise BudgetExceeded(f"more than {self.max_events} events")
        if self.bytes > self.max_bytes:
            raise BudgetExceeded(f"more than {self.max_bytes} bytes")
        if self.cpu_start is not None and time.thread_time() - self.cpu_start > self.max_cpu_s:
            raise BudgetExceeded(f"more than {self.max_cpu_s:g} s of CPU time")


class CpuTimeExceeded(BudgetExceeded):
    """Raised inside a worker thread by the watchdog (an async exception has no
    arguments, hence the fixed words)."""

    def __str__(self) -> str:
        return "over its CPU time"


class _Unlimited(WorkBudget):
    def charge(self, events: int = 0, nbytes: int = 0) -> None:
        return None


_UNLIMITED = _Unlimited()


def current_budget() -> WorkBudget:
    """The budget of the work running in this thread (unlimited outside a request:
    the CLI and the tests call the same code)."""
    return getattr(_local, "budget", None) or _UNLIMITED


def _raise_in(thread_id: int) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), ctypes.py_object(CpuTimeExceeded))


async def run_budgeted(job: Callable[[], Any], budget: WorkBudget,
                       on_end: Optional[Callable[[], None]] = None) -> bytes:
    """Run ``job()`` in a thread of its own under ``budget`` and return its result as
    JSON bytes (encoded in that thread). ``on_end()`` runs on the loop when the thread
    has ended (after the answer when the wall-time limit answered first: a slot held
    for the job is freed only when its work really stopped).

    :raises BudgetExceeded: the job went over the budget (it was stopped).
    :raises Exception: whatever ``job`` raised.
    """
    loop = asyncio.get_running_loop()
    done: "asyncio.Future[Any]" = loop.create_future()
    lock = threading.Lock()
    state = {"finished": False, "stopped": False}

    def settle(result: Any, error: Optional[BaseException]) -> None:
        if done.done():
            return
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(result)

    def work() -> None:
        _local.budget = budget
        budget.start()
        result: Any = None
        error: Optional[BaseException] = None
        try:
            try:
                out = json.dumps(job(), separators=(",", ":")).encode()
                if len(out) > budget.max_bytes:
                    raise BudgetExceeded(f"more than {budget.max_bytes} bytes")
                result = out
            finally:
                with lock:
                    state["finished"] = True
        except BaseException as exc:     # BudgetExceeded, possibly raised by the watchdog
            error = exc if isinstance(exc, Exception) else BudgetExceeded(str(exc))
        finally:
            _local.budget = None
        loop.call_soon_threadsafe(settle, result, error)
        if on_end is not None:
            loop.call_soon_threadsafe(on_end)

    thread = threading.Thread(target=work, name="work", daemon=True)
    thread.start()
    assert thread.ident is not None
    try:
        clock_id: Optional[int] = time.pthread_getcpuclockid(thread.ident)
    except OSError:                        # it already ended
        clock_id = None
    started = time.monotonic()
    while not done.done():
        await asyncio.wait([done], timeout=WATCH_S)
        if done.done():
            break
        if time.monotonic() - started > budget.max_wall_s:
            raise BudgetExceeded(f"more than {budget.max_wall_s:g} s")
        if clock_id is None:
            continue
        try:
            cpu = time.clock_gettime(clock_id)
        except OSError:                    # the thread just ended
            continue
        if cpu > budget.max_cpu_s + 0.05:
            with lock:
                if not state["finished"] and not state["stopped"]:
                    state["stopped"] = True
                    _raise_in(thread.ident)
    error = done.exception()
    if error is not None:
        raise error
    return done.result()
