"""Simulations beyond one machine: the chunks of a job as tasks on a Dask cluster.

``tictacblitz simulate --scheduler tcp://host:8786`` or
``tictacblitz.simulate(..., client=Client(...))`` sends the same job an ordinary run plays
on threads to an existing Dask cluster. Each chunk of consecutive match indices is one
task, :func:`tictacblitz.lab.jobs.play_chunk` with the job's plain-data payload: a pure
function of (job, chunk index), so a task that is run twice (a worker died and the
scheduler ran it again elsewhere, or a retry) gives the same columns. Results stream back
as tasks finish and go through the same ordered sink as a local run (records written in
chunk order, each chunk taken once), so a run on a cluster gives the very records and
summary of a local run with the same seed, and a worker lost mid-job loses and
duplicates no match.

The workers need ``tictacblitz`` (and its native ``blitz_core``, with every game's core)
importable: install the package in the workers' environment
(``pip install 'tictacblitz[cluster]'``). Any registered game runs there the same way.

    from distributed import Client, LocalCluster
    from tictacblitz.lab.simulation import simulate

    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster) as client:
        table, summary = simulate(10_000, "greedy", "greedy", client=client)
"""

from __future__ import annotations

import uuid
from typing import Any, Callable, Dict, Sequence, Tuple

from .jobs import SimulationJob, play_chunk

__all__ = ["run_on_client", "run_many_on_client", "TASK_RETRIES"]

TASK_RETRIES = 3
"""Times a failing chunk task is retried before the job fails (a worker that dies is
handled by the scheduler, which reruns the task elsewhere)."""


def _threads(client: Any) -> int:
    try:
        return max(1, sum(client.nthreads().values()))
    except Exception:  # noqa: BLE001 - an unknown cluster size: a modest window
        return 4


def run_on_client(
    client: Any,
    job: SimulationJob,
    on_chunk: Callable[[int, Dict[str, Any]], None],
    *,
    window: int = 0,
) -> None:
    """Run every chunk of ``job`` (a :class:`~tictacblitz.lab.jobs.SimulationJob`) as a
    task on ``client``'s cluster, handing each result to ``on_chunk(index, cols)`` as it
    arrives. At most ``window`` tasks (default: twice the cluster's threads) are in
    flight, so neither the cluster nor this process holds the whole job.

    :raises Exception: whatever a task raised after its retries (e.g. ``KilledWorker``).
    """
    run_many_on_client(client, [job], lambda k, i, cols: on_chunk(i, cols), window=window)


def run_many_on_client(
    client: Any,
    jobs: Sequence[SimulationJob],
    on_chunk: Callable[[int, int, Dict[str, Any]], None],
    *,
    window: int = 0,
) -> None:
    """:func:`run_on_client` for several jobs over the same match indices (an A/B, an
    ablation, swapped seats): chunk 0 of every job, then chunk 1...;
    ``on_chunk(job, index, cols)``."""
    from distributed import as_completed

    payloads = [job.payload() for job in jobs]
    tasks = [
        (k, i)
        for i in range(max(job.chunks for job in jobs))
        for k in range(len(jobs))
        if i < jobs[k].chunks
    ]
    token = uuid.uuid4().hex[:12]
    if window <= 0:
        window = 2 * _threads(client)
    index: Dict[str, Tuple[int, int]] = {}
    nxt = 0

    def submit() -> Any:
        nonlocal nxt
        k, i = tasks[nxt]
        key = f"tictacblitz-chunk-{token}-{k}-{i}"
        fut = client.submit(play_chunk, payloads[k], i, key=key, retries=TASK_RETRIES, pure=False)
        index[fut.key] = (k, i)
        nxt += 1
        return fut

    first = [submit() for _ in range(min(window, len(tasks)))]
    stream = as_completed(first)
    pending = list(first)
    try:
        for fut in stream:
            cols = fut.result()  # raises the task's error, if it failed for good
            k, i = index.pop(fut.key)
            pending.remove(fut)
            fut.release()
            on_chunk(k, i, cols)
            if nxt < len(tasks):
                new = submit()
                pending.append(new)
                stream.add(new)
    finally:
        for fut in pending:  # an error or an interrupt: stop the rest
            fut.cancel()
