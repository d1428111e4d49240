"""Work a request may make the server do, bounded while it runs (docs/server.md, "Limits").

An HTTP endpoint that runs a game's engine for a request (the replay viewer's frames)
runs it through :func:`run_budgeted`: in a worker process of its own (forked from a
clean ``forkserver``, which the first job starts), never in the server's process, with a
:class:`WorkBudget` of events, bytes and CPU time. Its own process: no GIL shared with
the event loop, so the live rooms' latency does not move while it works.

- **Cooperative**: the game's code charges what it makes as it goes
  (``current_budget().charge(events=..., nbytes=...)``, e.g. once per replay frame);
  a charge over the budget, or made after the CPU time ran out, raises
  :class:`BudgetExceeded` there and then, so the work stops before it grows further.
- **Enforced anyway**: the worker runs under ``RLIMIT_CPU`` (the kernel stops it a
  second past the budget), so a game whose code never charges is stopped too; past
  ``max_wall_s`` it is killed; an answer over ``max_bytes`` is never read whole. It
  runs at nice 10: when the CPU is short, the live rooms get it first.
- The answer is encoded to JSON in the worker, and refused if over ``max_bytes``.

Generic: nothing here names a game.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import threading
import time
from dataclasses import dataclass
from typing import Any, Optional, Sequence, Tuple

__all__ = ["WorkBudget", "BudgetExceeded", "JobFailed", "current_budget", "run_budgeted", "preload"]

_local = threading.local()


class BudgetExceeded(Exception):
    """The request would make the server do more work than its budget."""


@dataclass
class WorkBudget:
    """The most one request may cost: engine ``events`` made, ``bytes`` of answer,
    ``cpu_s`` of the worker thread's CPU time, ``wall_s`` until it is answered."""

    max_events: int = 20_000
    max_bytes: int = 4 * 1024 * 1024
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


class _Unlimited(WorkBudget):
    def charge(self, events: int = 0, nbytes: int = 0) -> None:
        return None


_UNLIMITED = _Unlimited()


def current_budget() -> WorkBudget:
    """The budget of the work running in this thread (unlimited outside a request:
    the CLI and the tests call the same code)."""
    return getattr(_local, "budget", None) or _UNLIMITED


def _child(conn: Any, target: str, args: Tuple[Any, ...], budget: WorkBudget) -> None:
    """In the worker process: ``target(*args)`` under ``budget``, its JSON back."""
    import importlib
    import resource

    cpu = int(math.ceil(budget.max_cpu_s))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu + 1, cpu + 2))  # past it the kernel stops it
    os.nice(10)  # below the live rooms: the CPU goes to them first
    _local.budget = budget
    budget.start()
    try:
        module, _, name = target.partition(":")
        result = getattr(importlib.import_module(module), name)(*args)
        out = json.dumps(result, separators=(",", ":")).encode()
        if len(out) > budget.max_bytes:
            raise BudgetExceeded(f"more than {budget.max_bytes} bytes")
        conn.send_bytes(b"+" + out)
    except BudgetExceeded as exc:
        conn.send_bytes(b"!" + str(exc).encode())
    except Exception as exc:
        conn.send_bytes(b"?" + json.dumps([type(exc).__name__, str(exc)]).encode())
    finally:
        conn.close()


class JobFailed(Exception):
    """The job raised ``kind`` (its class name) with ``message``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def _context() -> Any:
    import multiprocessing

    return multiprocessing.get_context("forkserver")


def preload(modules: Sequence[str]) -> None:
    """The worker processes' server imports ``modules`` once, when the first job starts
    it: not at the server's start, where most servers never run a job (it cost every
    start 0.3 s of CPU and a resident process; issue 27, CI item). The first job waits
    for it before its wall budget starts (``Process.start`` returns once forked)."""
    _context().set_forkserver_preload(["tictacblitz.server.budget", *modules])


def _run(target: str, args: Tuple[Any, ...], budget: WorkBudget) -> bytes:
    ctx = _context()
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, target, args, budget), daemon=True)
    proc.start()
    child.close()
    try:
        if not parent.poll(budget.max_wall_s):
            raise BudgetExceeded(f"more than {budget.max_wall_s:g} s")
        try:
            answer = parent.recv_bytes(budget.max_bytes + 1)
        except EOFError:  # the kernel stopped it at its CPU time (or it died)
            raise BudgetExceeded(f"more than {budget.max_cpu_s:g} s of CPU time") from None
        except OSError:  # recv_bytes' maxlength: a longer answer
            raise BudgetExceeded(f"more than {budget.max_bytes} bytes") from None
    finally:
        parent.close()
        if proc.is_alive():
            proc.kill()
        proc.join()
    kind, body = answer[:1], answer[1:]
    if kind == b"+":
        return body
    if kind == b"!":
        raise BudgetExceeded(body.decode())
    name, message = json.loads(body)
    raise JobFailed(name, message)


async def run_budgeted(target: str, args: Tuple[Any, ...], budget: WorkBudget) -> bytes:
    """``target(*args)`` (``"module:function"``) in a worker process of its own under
    ``budget``; its result as JSON bytes, encoded there. The event loop only waits (a
    thread blocks on the pipe), so the live rooms never share a GIL with the work.

    :raises BudgetExceeded: the job went over its budget (it was stopped).
    :raises JobFailed: the job raised an exception (its class name and message).
    """
    return await asyncio.to_thread(_run, target, args, budget)
