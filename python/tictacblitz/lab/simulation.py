"""Balancing simulations of any registered game: :func:`simulate`, the lab's public face
for simulations (``tictacblitz simulate`` is :mod:`~tictacblitz.lab.simulate_command`).

A designer changes a rule number and plays many whole matches between bots to see
what it does to the game. The work is split into *chunks* of consecutive match indices;
match ``i`` always has the seed :func:`~tictacblitz.lab.seeds.match_seeds` derives from
the master seed and ``i``, so records and summary are the same however the work is split
(chunk size, threads, Dask workers). Each chunk is played by the game's native
``play_matches`` without the GIL (:mod:`~tictacblitz.lab.jobs`), on a pool of threads
(:mod:`~tictacblitz.lab.runner`) or a Dask cluster (:mod:`~tictacblitz.lab.distributed`);
chunk results come back as NumPy columns, are folded into a
:class:`~tictacblitz.lab.summary.Summary` and, if asked, written as Arrow record batches
in chunk order (:mod:`~tictacblitz.lab.records`), so memory stays flat as N grows.

:func:`simulate` checks its arguments once (:func:`~tictacblitz.lab.jobs.prepare`,
:func:`~tictacblitz.lab.study.plan_extras`) and hands the checked job to
:func:`run_simulation`, which checks nothing again (issue 27, item 5); the command line
builds the job itself and calls :func:`run_simulation` directly.

Also here, the names users import from this module: :class:`SimulationJob`,
:func:`prepare`, :func:`play_chunk`, :func:`default_workers` (:mod:`~.jobs`),
:func:`match_seeds` (:mod:`~.seeds`), :func:`record_schema`, :func:`chunk_table`,
:class:`RecordWriter` (:mod:`~.records`), :class:`Summary` (:mod:`~.summary`),
:func:`wilson` (:mod:`~.stats`).

>>> result = simulate(matches=20, x="greedy", o="random", seed=1, workers=1)
>>> result.summary["x_wins"], result.summary["matches"], result.summary["game"]
(20, 20, 'blitz')
>>> result.table.num_rows
20

The summary metrics are defined in docs/simulate.md.
"""

from __future__ import annotations

import os
import time
from typing import Any, Callable, Dict, List, Mapping, NamedTuple, Optional, Sequence, Union

from ..games.protocol import Game
from ..games.registry import DEFAULT_GAME
from .edges import Interrupted
from .jobs import SimulationJob, default_workers, play_chunk, prepare
from .records import RecordWriter, check_out_path, chunk_table, record_schema, require_pyarrow
from .runner import Joined, progress_bar, run_many
from .seating import LEGACY_KEYS
from .seeds import match_seeds
from .stats import wilson
from .study import Extra, Study, plan_extras
from .summary import Summary

__all__ = [
    "simulate",
    "run_simulation",
    "SimulationResult",
    "Interrupted",
    "SimulationJob",
    "Summary",
    "RecordWriter",
    "prepare",
    "match_seeds",
    "play_chunk",
    "chunk_table",
    "record_schema",
    "wilson",
    "default_workers",
]


class SimulationResult(NamedTuple):
    """What :func:`simulate` returns: the records (a ``pyarrow.Table``, or ``None`` when
    not kept) and the summary dict."""

    table: Any
    summary: Dict[str, Any]


def simulate(
    matches: int = 1000,
    x: Any = None,
    o: Any = None,
    rules: Optional[Any] = None,
    seed: int = 0,
    *,
    game: Union[str, Game] = DEFAULT_GAME,
    workers: Optional[int] = None,
    out: Optional[str] = None,
    table: bool = True,
    client: Any = None,
    chunk_size: Optional[int] = None,
    progress: bool = False,
    options: Optional[Mapping[str, Any]] = None,
    on_chunk: Optional[Callable[[int, Dict[str, Any]], None]] = None,
    base: Optional[Any] = None,
    swap_seats: bool = False,
    ablate: Union[None, str, Sequence[str]] = None,
    overwrite: bool = True,
    bots: Optional[Sequence[Any]] = None,
) -> SimulationResult:
    """Play ``matches`` whole matches of ``game`` (a registered name, default
    ``"blitz"``, or a Game) between bot ``x`` (seat 0) and bot ``o`` (seat 1), by name
    (default: the game's ``DEFAULT_BOT``; for Blitz also a ``BotSpec``), or ``bots``, one
    a seat (a game of three or four players: issue 25), under ``rules``
    (a dict of overrides or the game's rules object), match ``i`` with the seed
    :func:`match_seeds` gives for (``seed``, i).

    ``workers``: threads (default: every core). ``client``: a ``dask.distributed.Client``
    to send the chunks to instead (``workers`` is then ignored). ``out``: a ``.parquet``
    or ``.csv`` file the records are streamed to (written to a temporary file and renamed
    when complete; an existing file is refused unless ``overwrite``). ``table``: also
    return the records as a ``pyarrow.Table`` (memory grows with N; pass ``False`` for
    big runs). ``progress``: a progress bar on stderr. ``options``: keywords for the
    game's ``play_matches`` (Blitz: ``{"random_powerups": False}``). ``on_chunk(index,
    cols)``: called with each chunk's columns in chunk order.

    The designer's questions, each answered by extra runs on the same match seeds
    (:mod:`~tictacblitz.lab.study`; the main run's records and numbers stay as they are):
    ``base`` (a dict of overrides, ``{}`` for the game's defaults, or a rules object):
    the A/B, in ``summary["comparison"]``; ``swap_seats``: with two different bots, bot
    strength and seat advantage separated, in ``summary["seat_swap"]``; ``ablate`` (``"all"``
    or feature names): each feature's effect, in ``summary["ablation"]``.

    Returns ``SimulationResult(table, summary)``; the summary (see docs/simulate.md) holds
    ``matches``, ``x_wins``, ``o_wins``, ``draws``, ``matches_per_s`` and the metrics.

    :raises ValueError: for a bad argument (nothing is played or written).
    :raises Interrupted: on Ctrl-C (nothing written).
    """
    if workers is None:
        workers = default_workers()
    job = prepare(
        matches,
        x,
        o,
        rules,
        seed,
        game=game,
        workers=workers,
        chunk_size=chunk_size,
        options=options,
        bots=bots,
    )
    extras = plan_extras(job, base, swap_seats, ablate)
    if out is not None:
        check_out_path(out, overwrite=overwrite)
    if out is not None or table:
        require_pyarrow()
    return run_simulation(
        job,
        extras,
        workers=workers,
        out=out,
        table=table,
        client=client,
        progress=progress,
        on_chunk=on_chunk,
        overwrite=overwrite,
    )


def run_simulation(
    job: SimulationJob,
    extras: Sequence[Extra] = (),
    *,
    workers: int,
    out: Optional[str] = None,
    table: bool = True,
    client: Any = None,
    progress: bool = False,
    on_chunk: Optional[Callable[[int, Dict[str, Any]], None]] = None,
    overwrite: bool = True,
) -> SimulationResult:
    """Play a checked ``job`` (:func:`~tictacblitz.lab.jobs.prepare`) and its ``extras``
    (:func:`~tictacblitz.lab.study.plan_extras`), the rest as :func:`simulate`; nothing
    is checked again (the caller checked ``out`` too: :func:`simulate`, or the command
    line before its estimate)."""
    summary = Summary(job.rules, job.game)
    study = Study(job, extras)
    tables: List[Any] = []
    total = job.matches * (1 + len(extras))
    advance, close = progress_bar(total, progress)
    played = [0]

    def sink(index: int, parts: List[Dict[str, Any]]) -> None:
        cols = parts[0]
        summary.add(cols)
        study.fold(cols, parts[1:])
        if writer is not None or table:
            t = chunk_table(cols, job.game, job.players)
            if writer is not None:
                writer.write(t)
            if table:
                tables.append(t)
        if on_chunk is not None:
            on_chunk(index, cols)

    joined = Joined(1 + len(extras), sink)

    def arrived(k: int, index: int, cols: Dict[str, Any]) -> None:
        n = len(cols["winner"])
        played[0] += n
        advance(n)
        joined(k, index, cols)

    jobs = [job, *(e.job for e in extras)]
    # The records' temporary file is made now, before any match is played (issue 22,
    # item 8); from here on every way out commits or removes it.
    writer = RecordWriter(out, overwrite=overwrite) if out is not None else None
    wall0, cpu0 = time.perf_counter(), time.process_time()
    try:
        if client is not None:
            from .distributed import run_many_on_client

            run_many_on_client(client, jobs, arrived)
        else:
            run_many(jobs, arrived, workers)
        if joined.next != job.chunks or summary.matches != job.matches:
            raise RuntimeError(f"simulation incomplete: {summary.matches} of {job.matches} matches")
        if writer is not None:
            writer.commit()
    except KeyboardInterrupt:
        if writer is not None:
            writer.abort()
        raise Interrupted(played[0], total) from None
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    finally:
        close()
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    result = summary.to_dict()
    hooks = job.hooks
    keys = summary.keys
    head: Dict[str, Any] = {"matches": result.pop("matches")}
    if keys != LEGACY_KEYS:  # issue 25: the seats of a three- or four-player run
        head["seat_keys"] = result.pop("seat_keys")
    head.update({f"{k}_wins": result.pop(f"{k}_wins") for k in keys})
    head.update(
        {
            "draws": result.pop("draws"),
            "matches_per_s": total / wall if wall > 0 else None,
            "seconds": wall,
            "cpu_seconds": None if client is not None else cpu,
            "workers": None if client is not None else workers,
            "scheduler": _client_address(client),
            "chunk_size": job.chunk_size,
            "seed": job.seed,
            "game": job.game,
        }
    )
    head.update({f"{k}_bot": name for k, name in zip(keys, job.names, strict=True)})
    head.update({f"{k}_spec": hooks.describe_bot(b) for k, b in zip(keys, job.bots, strict=True)})
    head["rules"] = hooks.overrides(job.rules)
    head["out"] = os.fspath(out) if out is not None else None
    if job.options:  # e.g. Doh's fixed opening (absent otherwise: the golden summaries)
        head["options"] = dict(job.options)
    head.update(result)
    head.update(study.result(hooks))
    records = None
    if table:
        pa = require_pyarrow()
        records = pa.concat_tables(tables) if tables else record_schema(job.game).empty_table()
    return SimulationResult(records, head)


def _client_address(client: Any) -> Optional[str]:
    if client is None:
        return None
    try:
        return str(client.scheduler.address)
    except AttributeError:
        return "dask"
