"""The Dask path: a LocalCluster gives the very records and summary of a local run with
the same seed, and a worker killed mid-job loses and duplicates no match."""

import argparse
import json
import os
import signal
import threading
import time

import pytest

pytest.importorskip("pyarrow")
distributed = pytest.importorskip("distributed")

from tictacblitz.lab import simulate_command as command  # noqa: E402
from tictacblitz.lab.simulation import simulate  # noqa: E402
from tictacblitz.lab.sweep import sweep  # noqa: E402

RUN_FIELDS = (
    "matches_per_s",
    "seconds",
    "cpu_seconds",
    "workers",
    "chunk_size",
    "out",
    "scheduler",
)


def outcome(summary):
    return {k: v for k, v in summary.items() if k not in RUN_FIELDS}


@pytest.fixture(scope="module")
def cluster():
    # Worker processes (with nannies, which restart a killed worker) so that a worker
    # can really be killed; they import the package from the same PYTHONPATH.
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (os.path.join(root, "python"), path) if p)
    try:
        with distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=50,
        ) as c:
            yield c
    finally:
        os.environ["PYTHONPATH"] = path


@pytest.fixture
def client(cluster):
    with distributed.Client(cluster) as c:
        c.wait_for_workers(2, timeout=30)
        yield c


def test_cluster_run_equals_local_run(client):
    local = simulate(600, "greedy", "medium", seed=21, workers=2)
    remote = simulate(600, "greedy", "medium", seed=21, client=client, chunk_size=37)
    assert remote.table.equals(local.table)
    assert outcome(remote.summary) == outcome(local.summary)
    assert remote.summary["scheduler"] == client.scheduler.address


@pytest.mark.slow
def test_a_worker_killed_mid_job_loses_and_duplicates_no_match(client, tmp_path):
    # 40 chunks of 25. The kill cannot come after the job's end: the 4th chunk to arrive
    # waits for it, and no chunk is submitted while one is being taken (at most twice the
    # cluster's threads, 4, are in flight: lab/distributed.py), so most of the job is
    # still to be played when the worker dies. (Before, 3000 matches raced a killer
    # polling every 5 ms; playing them twice was most of the file's CPU time.)
    n = 1000
    local = simulate(n, "greedy", "greedy", seed=5, workers=2)
    pids = list(client.run(os.getpid).values())
    arrived = []
    killed = threading.Event()
    at_kill = []

    def kill_one():
        deadline = time.monotonic() + 30
        while len(arrived) < 4 and time.monotonic() < deadline:
            time.sleep(0.005)
        at_kill.append(len(arrived))
        os.kill(pids[0], signal.SIGKILL)  # no goodbye: the scheduler must notice
        killed.set()

    def take(i, cols):
        arrived.append(i)
        if len(arrived) == 4:
            killed.wait(30)  # a bound, not a measure: the killer acts within milliseconds

    killer = threading.Thread(target=kill_one)
    killer.start()
    out = tmp_path / "records.parquet"
    remote = simulate(
        n,
        "greedy",
        "greedy",
        seed=5,
        client=client,
        chunk_size=25,
        out=str(out),
        on_chunk=take,
    )
    killer.join()
    assert killed.is_set()
    assert at_kill[0] < n // 25  # the set-up: the kill came mid-job (chunk 4 waits for it)
    assert arrived == list(range(n // 25))  # every chunk once, in order
    assert remote.table["match"].to_pylist() == list(range(n))
    assert remote.table.equals(local.table)
    assert outcome(remote.summary) == outcome(local.summary)
    import pyarrow.parquet as pq

    assert pq.read_table(out).equals(local.table)
    client.wait_for_workers(2, timeout=30)  # the nanny restarted it


def test_cli_scheduler(client, capsys):
    parser = argparse.ArgumentParser(prog="tictacblitz")
    command.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(
        [
            "simulate",
            "--matches",
            "200",
            "--seed",
            "4",
            "--scheduler",
            client.scheduler.address,
            "--json",
            "--no-progress",
        ]
    )
    assert args.handler(args) == 0
    s = json.loads(capsys.readouterr().out)
    local = simulate(200, seed=4, workers=1, table=False).summary
    assert outcome(s) == outcome(local)
    assert s["scheduler"] == client.scheduler.address and s["cpu_seconds"] is None


def test_sweep_on_the_cluster(client):
    a = sweep({"set_ms": [1200, 1600]}, matches=60, seed=2, client=client)
    b = sweep({"set_ms": [1200, 1600]}, matches=60, seed=2, workers=1)
    assert [outcome(s) for s in a.summaries] == [outcome(s) for s in b.summaries]


def test_the_ab_and_the_ablation_on_the_cluster_equal_the_local_ones(client):
    kwargs = {
        "rules": {"set_ms": 1200},
        "seed": 3,
        "base": {},
        "ablate": ["bomb"],
        "swap_seats": True,
    }
    local = simulate(200, "greedy", "medium", workers=2, **kwargs)
    remote = simulate(200, "greedy", "medium", client=client, chunk_size=23, **kwargs)
    assert remote.table.equals(local.table)
    for key in ("comparison", "ablation", "seat_swap"):
        assert json.dumps(outcome(remote.summary)[key], sort_keys=True, default=str) == json.dumps(
            outcome(local.summary)[key], sort_keys=True, default=str
        )
