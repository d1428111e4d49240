"""``tictacblitz simulate`` and the lab's public face for simulations.

The work lives in focused modules; this one is the command (:func:`register`,
:func:`main`) and re-exports what users import from here:

- :mod:`~tictacblitz.lab.simulator`: :func:`simulate`, :class:`SimulationResult`;
- :mod:`~tictacblitz.lab.jobs`: :class:`SimulationJob`, :func:`prepare`,
  :func:`play_chunk` (one chunk in the game's native loop), :func:`default_workers`;
- :mod:`~tictacblitz.lab.seeds`: :func:`match_seeds`;
- :mod:`~tictacblitz.lab.records`: :func:`record_schema`, :func:`chunk_table`,
  :class:`RecordWriter`;
- :mod:`~tictacblitz.lab.summary`: :class:`Summary`;
- :mod:`~tictacblitz.lab.runner` (threads, chunk order, progress),
  :mod:`~tictacblitz.lab.distributed` (Dask), :mod:`~tictacblitz.lab.hooks` (what a
  game provides), :mod:`~tictacblitz.lab.command` (options shared with ``sweep``).

>>> result = simulate(matches=20, x="greedy", o="random", seed=1, workers=1)
>>> result.summary["x_wins"], result.summary["matches"], result.summary["game"]
(20, 20, 'blitz')
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from .command import (ArgumentProblem, add_common_arguments, connect, job_arguments,
                      progress_wanted, report_error)
from .jobs import SimulationJob, default_workers, play_chunk, prepare
from .records import RecordWriter, check_out_path, chunk_table, record_schema, require_pyarrow
from .seeds import match_seeds
from .simulator import SimulationResult, simulate
from .stats import wilson
from .summary import Summary

__all__ = [
    "SimulationJob",
    "SimulationResult",
    "Summary",
    "RecordWriter",
    "simulate",
    "prepare",
    "match_seeds",
    "play_chunk",
    "chunk_table",
    "record_schema",
    "wilson",
    "default_workers",
    "register",
    "main",
]
# Also here for the code that imported them from this module before the split:
# ArgumentProblem, add_common_arguments, connect, job_arguments (lab/command.py),
# check_out_path, require_pyarrow (lab/records.py).
_ = (ArgumentProblem, add_common_arguments, connect, job_arguments)


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``simulate`` subcommand to an argparse subparsers object; its handler
    (``args.handler(args)``) returns the exit status."""
    parser = subparsers.add_parser(
        "simulate", help="play many matches between two bots and summarise the game's balance",
        description="Play N whole matches of a game between two bots under the given rules "
                    "(on every core, or a Dask cluster) and print a balance summary: seat "
                    "advantage and draws with 95 % intervals, plus the game's own metrics "
                    "(docs/simulate.md). Per-match records go to --out.")
    add_common_arguments(parser, matches=1000)
    parser.add_argument("--out", default=None, metavar="FILE",
                        help="write per-match records to FILE.parquet or FILE.csv")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(handler=main)
    return parser


def main(args: argparse.Namespace) -> int:
    """Run ``simulate`` as the parsed ``args`` say: 0 on success, 2 on a bad argument
    (reported on stderr before any match is played or any file written)."""
    from .report import format_summary

    try:
        kwargs = job_arguments(args)
        if args.out is not None:
            check_out_path(args.out)
            require_pyarrow()
        client = connect(args.scheduler)
    except (ArgumentProblem, ValueError, ImportError) as exc:
        return report_error("simulate", str(exc))
    try:
        _, summary = simulate(**kwargs, out=args.out, table=False, client=client,
                              progress=progress_wanted(args))
    finally:
        if client is not None:
            client.close()
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print(format_summary(summary))
    return 0
