"""``tune`` on the Dask path (issue 24, item 1): the candidates are played by the lab's
cluster runner and give the very answer of a local run with the same seeds."""

import os

import pytest

pytest.importorskip("optuna")
distributed = pytest.importorskip("distributed")

from tictacblitz.lab.tune import tune  # noqa: E402
from tictacblitz.lab.tune_report import tune_json  # noqa: E402


@pytest.fixture(scope="module")
def client():
    # As tests/test_distributed.py: worker processes import the package from PYTHONPATH.
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (os.path.join(root, "python"), path) if p)
    try:
        with distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
            silence_logs=50,
        ) as cluster, distributed.Client(cluster) as c:  # fmt: skip
            c.wait_for_workers(1, timeout=60)
            yield c
    finally:
        os.environ["PYTHONPATH"] = path


def _answer(**where):
    result = tune("doh", ["pieces_per_size=1..4"], ["game_length <= 3"], seats=["all=greedy"],
                  trials=4, matches=8, confirm=2, confirm_matches=12, sampler_seed=2,
                  storage="sqlite:///:memory:", **where)  # fmt: skip
    answer = tune_json(result)
    answer.pop("study")  # named by the question: the same, but say so plainly below
    return result, answer


def test_the_cluster_gives_the_answer_of_a_local_run(client):
    with distributed.get_task_stream(client) as stream:
        on_cluster, a = _answer(client=client)
    local, b = _answer(workers=1)
    assert on_cluster.study == local.study
    assert a == b
    assert a["best"][0]["rules"] == {"pieces_per_size": 1}
    # At least a chunk a run went through the cluster: a search candidate or more (one
    # proposed twice is played once), then the re-plays (the base is a finalist).
    assert len(stream.data) >= 1 + len(on_cluster.finalists)
