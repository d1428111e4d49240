"""tictacblitz sensitivity on the Dask path (issue 24, item 2): every rule set is
measured through lab/candidates.py, so on a cluster it gives the very estimates and
statistics of a local run with the same seed."""

import pytest

pytest.importorskip("SALib")
distributed = pytest.importorskip("distributed")

from tictacblitz import cli  # noqa: E402
from tictacblitz.lab.sensitivity import sensitivity  # noqa: E402

KWARGS = {
    "seats": ["all=greedy"],
    "trajectories": 2,
    "top": 1,
    "sobol_samples": 2,
    "matches": 24,
    "seed": 5,
}


@pytest.fixture(scope="module")
def client():
    # In-process workers: the tasks still go through the scheduler (the path under
    # test) without starting processes on a loaded machine.
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c


def test_the_cluster_gives_the_local_answer(client):
    local = sensitivity("doh", workers=1, **KWARGS)
    remote = sensitivity("doh", client=client, **KWARGS)
    assert remote.measured == local.measured
    assert remote.morris == local.morris and remote.sobol == local.sobol


def test_the_command_takes_a_scheduler(client, tmp_path, capsys):
    out = tmp_path / "sens"
    argv = ["sensitivity", "--game", "doh", "--seat", "all=greedy", "--matches", "12"]
    argv += ["--trajectories", "2", "--top", "0", "--metric", "game_length"]
    argv += ["--scheduler", client.scheduler.address, "--out", str(out), "--json"]
    assert cli.main(argv) == 0
    captured = capsys.readouterr()
    assert "wall time depends on the cluster" in captured.err
    assert '"method": "morris"' in captured.out and (out / "tornado_game_length.png").exists()
