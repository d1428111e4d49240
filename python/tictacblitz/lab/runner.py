"""Running a job's chunks: a pool of threads (the games' native loops drop the GIL),
chunks passed on in chunk order whatever finished first, and a progress bar.

A Dask cluster runs the same chunks through :mod:`tictacblitz.lab.distributed`; both
hand each chunk's columns to the same ordered sink.
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from typing import Any, Callable, Dict, Tuple

from .jobs import SimulationJob, play_chunk

__all__ = ["run_local", "Ordered", "progress_bar", "ChunkSink"]

ChunkSink = Callable[[int, Dict[str, Any]], None]


def run_local(job: SimulationJob, on_chunk: ChunkSink, workers: int) -> None:
    """Play every chunk of ``job`` on a pool of ``workers`` threads, handing each chunk's
    columns to ``on_chunk(index, cols)`` as it finishes. At most ``2 × workers`` chunks
    are in flight, so memory stays flat."""
    payload = job.payload()
    if workers == 1:
        for i in range(job.chunks):
            on_chunk(i, play_chunk(payload, i))
        return
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tictacblitz-sim") as pool:
        pending: Dict[Any, int] = {}
        nxt = 0
        try:
            while nxt < job.chunks or pending:
                while nxt < job.chunks and len(pending) < 2 * workers:
                    pending[pool.submit(play_chunk, payload, nxt)] = nxt
                    nxt += 1
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in sorted(done, key=pending.__getitem__):
                    on_chunk(pending.pop(fut), fut.result())
        finally:
            for fut in pending:
                fut.cancel()


class Ordered:
    """Receives chunks in any order, passes them on in chunk order (records are written
    in match order whatever finished first); each chunk is taken once only."""

    def __init__(self, sink: ChunkSink) -> None:
        self.sink = sink
        self.next = 0
        self.waiting: Dict[int, Dict[str, Any]] = {}

    def __call__(self, index: int, cols: Dict[str, Any]) -> None:
        if index < self.next or index in self.waiting:
            return                       # a duplicate (a retried task): already counted
        self.waiting[index] = cols
        while self.next in self.waiting:
            self.sink(self.next, self.waiting.pop(self.next))
            self.next += 1


def progress_bar(total: int, enabled: bool, label: str = "simulate"
                 ) -> Tuple[Callable[[int], None], Callable[[], None]]:
    """(advance(n), close()) of a progress bar on stderr showing matches done, matches/s,
    elapsed time and time left: rich if installed, else tqdm, else nothing."""
    if not enabled:
        return (lambda n: None), (lambda: None)
    try:
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)
    except ImportError:
        try:
            from tqdm import tqdm
        except ImportError:
            return (lambda n: None), (lambda: None)
        bar = tqdm(total=total, unit="match", file=sys.stderr, smoothing=0.1, desc=label)
        return bar.update, bar.close
    progress = Progress(
        TextColumn(label), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} matches/s"), TimeElapsedColumn(),
        TextColumn("left"), TimeRemainingColumn(),
        console=Console(stderr=True), transient=False)
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
