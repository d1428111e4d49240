"""Running a job's chunks: a pool of threads (the games' native loops drop the GIL),
chunks passed on in chunk order whatever finished first, and a progress bar.

A Dask cluster runs the same chunks through :mod:`tictacblitz.lab.distributed`; both
hand each chunk's columns to the same ordered sink.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from typing import Any, Callable, Dict, List, Sequence, Tuple

from .jobs import SimulationJob, play_chunk

__all__ = ["run_local", "run_many", "daemon_map", "Ordered", "Joined", "progress_bar", "ChunkSink"]

ChunkSink = Callable[[int, Dict[str, Any]], None]


def run_local(job: SimulationJob, on_chunk: ChunkSink, workers: int) -> None:
    """Play every chunk of ``job`` on ``workers`` threads, handing each chunk's columns
    to ``on_chunk(index, cols)`` as it finishes. At most ``2 × workers`` chunks are in
    flight, so memory stays flat."""
    run_many([job], lambda k, i, cols: on_chunk(i, cols), workers)


def run_many(
    jobs: Sequence[SimulationJob],
    on_chunk: Callable[[int, int, Dict[str, Any]], None],
    workers: int,
) -> None:
    """Play the chunks of several jobs over the same match indices (an A/B, an ablation,
    swapped seats), chunk 0 of every job first, then chunk 1...: ``on_chunk(job, index,
    cols)`` as each finishes."""
    payloads = [job.payload() for job in jobs]
    tasks = [
        (k, i)
        for i in range(max(job.chunks for job in jobs))
        for k in range(len(jobs))
        if i < jobs[k].chunks
    ]
    daemon_map(
        lambda task: play_chunk(payloads[task[0]], task[1]),
        tasks,
        workers,
        lambda n, cols: on_chunk(tasks[n][0], tasks[n][1], cols),
    )


def daemon_map(
    fn: Callable[[Any], Any],
    tasks: Sequence[Any],
    workers: int,
    on_result: Callable[[int, Any], None],
) -> None:
    """``on_result(n, fn(tasks[n]))`` for every task, run on ``workers`` threads (the
    games' native loops drop the GIL), as each finishes; at most ``2 × workers`` in
    flight. The threads are daemons and this thread waits in short slices, so Ctrl-C
    stops the run at once: a task still in native code is abandoned, never waited for
    (and cannot keep the interpreter from exiting). A task's error is raised here."""
    todo: "queue.Queue[Any]" = queue.Queue()
    done: "queue.Queue[Any]" = queue.Queue()
    stop = threading.Event()

    def work() -> None:
        while not stop.is_set():
            n = todo.get()
            if n is None:
                return
            try:
                done.put((n, fn(tasks[n]), None))
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                done.put((n, None, exc))

    threads = [
        threading.Thread(target=work, daemon=True, name=f"tictacblitz-lab-{k}")
        for k in range(max(1, min(workers, len(tasks))))
    ]
    for t in threads:
        t.start()
    nxt = in_flight = 0
    try:
        while nxt < len(tasks) or in_flight:
            while nxt < len(tasks) and in_flight < 2 * len(threads):
                todo.put(nxt)
                nxt += 1
                in_flight += 1
            try:
                n, result, exc = done.get(timeout=0.1)
            except queue.Empty:
                continue
            in_flight -= 1
            if exc is not None:
                raise exc
            on_result(n, result)
    finally:
        stop.set()
        for _ in threads:
            todo.put(None)


class Ordered:
    """Receives chunks in any order, passes them on in chunk order (records are written
    in match order whatever finished first); each chunk is taken once only."""

    def __init__(self, sink: ChunkSink) -> None:
        self.sink = sink
        self.next = 0
        self.waiting: Dict[int, Dict[str, Any]] = {}

    def __call__(self, index: int, cols: Dict[str, Any]) -> None:
        if index < self.next or index in self.waiting:
            return  # a duplicate (a retried task): already counted
        self.waiting[index] = cols
        while self.next in self.waiting:
            self.sink(self.next, self.waiting.pop(self.next))
            self.next += 1


class Joined:
    """Receives chunk ``i`` of each of ``jobs`` jobs in any order and passes on, in chunk
    order, ``sink(i, [cols of job 0, cols of job 1, ...])`` once all are in (a paired
    run folds the same matches of every job together); duplicates are dropped."""

    def __init__(self, jobs: int, sink: Callable[[int, List[Dict[str, Any]]], None]) -> None:
        self.jobs = jobs
        self.sink = sink
        self.next = 0
        self.waiting: Dict[int, Dict[int, Dict[str, Any]]] = {}

    def __call__(self, job: int, index: int, cols: Dict[str, Any]) -> None:
        if index < self.next:
            return
        got = self.waiting.setdefault(index, {})
        if job in got:
            return
        got[job] = cols
        while len(self.waiting.get(self.next, ())) == self.jobs:
            parts = self.waiting.pop(self.next)
            self.sink(self.next, [parts[k] for k in range(self.jobs)])
            self.next += 1


def progress_bar(
    total: int, enabled: bool, label: str = "simulate"
) -> Tuple[Callable[[int], None], Callable[[], None]]:
    """(advance(n), close()) of a progress bar on stderr showing matches done, matches/s,
    elapsed time and time left: rich if installed, else tqdm, else nothing."""
    if not enabled:
        return (lambda n: None), (lambda: None)
    try:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
    except ImportError:
        try:
            from tqdm import tqdm
        except ImportError:
            return (lambda n: None), (lambda: None)
        bar = tqdm(total=total, unit="match", file=sys.stderr, smoothing=0.1, desc=label)

        def update(n: int) -> None:
            bar.update(n)

        return update, bar.close
    progress = Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} matches/s"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=False,
    )
    task = progress.add_task(label, total=total, rate="-")
    started = time.perf_counter()
    done = [0]
    progress.start()

    def advance(n: int) -> None:
        done[0] += n
        elapsed = time.perf_counter() - started
        rate = f"{done[0] / elapsed:,.0f}" if elapsed > 0 else "-"
        progress.update(task, advance=n, rate=rate)

    return advance, progress.stop
