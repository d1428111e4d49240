"""Nothing lost at the end of a run (issue 22, item 8): an output that cannot be written
fails before any match is played, with one line and exit status 2, for every command
that writes (simulate --out and --html, sweep --out). As root ``os.access`` says yes to
``/sys``; only making a file there tells the truth."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tictacblitz.lab import runner
from tictacblitz.lab.records import RecordWriter
from tictacblitz.lab.simulation import simulate

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
SYS_LIES = os.path.isdir("/sys") and os.access("/sys", os.W_OK)  # root: the check passes


def run(*argv):
    return subprocess.run(
        [sys.executable, "-m", "tictacblitz", *argv, "--no-progress"],
        env=ENV,
        text=True,
        capture_output=True,
        timeout=120,
    )


@pytest.mark.skipif(not SYS_LIES, reason="needs root, where os.access passes on /sys")
@pytest.mark.parametrize(
    "argv, option",
    [
        (["simulate", "--matches", "200000", "--out", "/sys/x.csv"], "output '/sys/x.csv'"),
        (["simulate", "--matches", "200000", "--out", "/sys/x.parquet"], "output '/sys/x"),
        (["simulate", "--matches", "200000", "--html", "/sys/x.html"], "--html '/sys/x.html'"),
        (["sweep", "--grid", "set_ms=1000,1600", "--matches", "99999", "--out", "/sys/s"], "--out"),
    ],
    ids=["csv", "parquet", "html", "sweep"],
)
def test_an_output_in_sys_is_refused_before_playing(argv, option):
    proc = run(*argv)
    # Before the fix: 8 s of play, then a pyarrow PermissionError traceback.
    assert proc.returncode == 2 and proc.stdout == "", proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert option in proc.stderr and "cannot create a file in '/sys'" in proc.stderr


def count_chunks(monkeypatch):
    played = []
    real = runner.play_chunk

    def counted(payload, index):
        played.append(index)
        return real(payload, index)

    monkeypatch.setattr(runner, "play_chunk", counted)
    return played


def test_the_records_temporary_file_is_made_before_the_first_match(tmp_path, monkeypatch):
    played = count_chunks(monkeypatch)
    out = tmp_path / "r.csv"
    # The writer's temporary name is taken (a folder sits there): it cannot be made.
    (tmp_path / f".r.csv.{os.getpid()}.tmp").mkdir()
    with pytest.raises(ValueError, match="cannot create"):
        simulate(matches=50, seed=1, workers=1, out=str(out), table=False)
    assert played == [] and not out.exists()


def test_the_writer_holds_its_temporary_file_from_the_start(tmp_path):
    writer = RecordWriter(str(tmp_path / "r.parquet"))
    assert os.path.exists(writer.tmp)
    writer.abort()
    assert os.listdir(tmp_path) == []


def test_a_read_only_folder_is_refused_before_playing(tmp_path, monkeypatch):
    """A folder where making a file fails (as root, chmod cannot make one: the probe's
    mkstemp is made to fail as a read-only mount would)."""
    import tempfile

    played = count_chunks(monkeypatch)

    def read_only(*args, **kwargs):
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    with pytest.raises(ValueError, match="Read-only file system"):
        simulate(matches=50, seed=1, workers=1, out=str(tmp_path / "r.csv"), table=False)
    assert played == [] and os.listdir(tmp_path) == []
