"""Per-match records as Arrow: the schema, a chunk's columns as a table, and a writer that
streams tables to Parquet or CSV atomically.

Every game's record starts with the lab's columns ``match`` (the index in the run),
``seed`` (the match's seed) and ``winner`` (``"X"``, ``"O"`` or ``"draw"``: seat 0, seat
1, neither); the game's own columns follow, from its ``record_fields``/
``record_columns`` hooks or, without them, from its runner's columns as they are.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ..games.registry import DEFAULT_GAME
from .hooks import GameHooks, hooks_for

__all__ = [
    "require_pyarrow",
    "record_schema",
    "chunk_table",
    "RecordWriter",
    "check_out_path",
    "probe_folder",
    "OUT_SUFFIXES",
    "WINNERS",
    "NOT_RECORDED",
]

OUT_SUFFIXES = (".parquet", ".csv")
WINNERS = ("X", "O", "draw")  # seat 0, seat 1, a draw: the dictionary of `winner`
NOT_RECORDED = ("match", "seed", "winner", "start", "seeds")
"""Runner columns a record without a hook leaves out: the lab's own columns (a seed the
runner echoes is the lab's ``seed``) and what play_chunk adds."""


def require_pyarrow() -> Any:
    try:
        import pyarrow
    except ImportError:  # pragma: no cover - the sim extra
        raise ImportError(
            "records need pyarrow: pip install tictacblitz (it depends on pyarrow, "
            "rich and matplotlib)"
        ) from None
    return pyarrow


def _lab_fields(pa: Any) -> List[Tuple[str, Any]]:
    return [
        ("match", pa.int64()),
        ("seed", pa.uint64()),
        ("winner", pa.dictionary(pa.int8(), pa.string())),
    ]


def _generic_columns(cols: Dict[str, Any], pa: Any) -> Dict[str, Any]:
    """A runner's columns without a record hook: 1-D as is, (n, 2) per seat, else lists."""
    n = len(cols["winner"])
    out: Dict[str, Any] = {}
    for name, values in cols.items():
        if name in NOT_RECORDED:
            continue
        values = np.asarray(values)
        if values.ndim == 1 and len(values) == n:
            out[name] = pa.array(values)
        elif values.ndim == 2 and values.shape == (n, 2):
            out[f"{name}_x"] = pa.array(values[:, 0])
            out[f"{name}_o"] = pa.array(values[:, 1])
        elif values.ndim >= 2 and values.shape[0] == n:
            out[name] = pa.array(list(values.reshape(n, -1)))
    return out


def record_schema(game: str = DEFAULT_GAME, cols: Optional[Dict[str, Any]] = None) -> Any:
    """The Arrow schema of a game's per-match records (docs/simulate.md, "The records").
    A game without a ``record_fields`` hook has its columns from its runner: pass a
    chunk's ``cols`` to get them (else only the lab's three)."""
    pa = require_pyarrow()
    hooks = hooks_for(game)
    fields = _lab_fields(pa)
    hook = hooks.get("record_fields")
    if hook is not None:
        fields += list(hook())
    elif cols is not None:
        fields += [(name, arr.type) for name, arr in _generic_columns(cols, pa).items()]
    return pa.schema(fields)


def chunk_table(cols: Dict[str, Any], game: str = DEFAULT_GAME, players: int = 2) -> Any:
    """A chunk's columns (:func:`~tictacblitz.lab.jobs.play_chunk`) as an Arrow table of
    :func:`record_schema`. ``winner`` is ``X``, ``O`` or ``draw`` with two ``players``;
    with three or four, the seat's name (``GameType.seat_names``) or ``draw``."""
    pa = require_pyarrow()
    hooks: GameHooks = hooks_for(game)
    n = len(cols["winner"])
    names = WINNERS if players == 2 else (*hooks.type.seat_names[:players], "draw")
    winner = np.asarray(cols["winner"]).astype(np.int8)
    codes = np.where(winner < 0, names.index("draw"), winner).astype(np.int8)
    data: Dict[str, Any] = {
        "match": pa.array(np.arange(cols["start"], cols["start"] + n, dtype=np.int64)),
        "seed": pa.array(cols["seeds"], type=pa.uint64()),
        "winner": pa.DictionaryArray.from_arrays(pa.array(codes, type=pa.int8()), pa.array(names)),
    }
    hook = hooks.get("record_columns")
    data.update(hook(cols) if hook is not None else _generic_columns(cols, pa))
    return pa.Table.from_pydict(data, schema=record_schema(game, cols))


def _csv_ready(table: Any) -> Any:
    """CSV has no lists: a list cell becomes its items joined by ``;`` ("X;draw;O")."""
    import pyarrow.compute as pc

    pa = require_pyarrow()
    columns = []
    for name in table.column_names:
        col = table[name]
        if pa.types.is_list(col.type):
            col = pc.binary_join(pc.cast(col, pa.list_(pa.string())), ";")
        elif pa.types.is_dictionary(col.type):
            col = pc.cast(col, pa.string())
        columns.append(col)
    return pa.table(columns, names=table.column_names)


def check_out_path(path: str, *, overwrite: bool = True) -> None:
    """:raises ValueError: for an output suffix other than .parquet / .csv, a folder
    that does not exist or cannot be written to, a path that is a folder, or an existing
    file when ``overwrite`` is off (checked before any match is played)."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix not in OUT_SUFFIXES:
        raise ValueError(f"output {path!r}: the file name must end in .parquet or .csv")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"output {path!r}: folder {folder!r} does not exist")
    if os.path.isdir(path):
        raise ValueError(f"output {path!r} is a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"output {path!r}: folder {folder!r} is not writable")
    if os.path.exists(path) and not overwrite:
        raise ValueError(f"output {path!r} exists (pass --overwrite to replace it)")
    probe_folder(folder, f"output {path!r}")


def probe_folder(folder: str, what: str) -> None:
    """Create and remove a file in ``folder``, the way the output's temporary file will
    be: a folder where ``os.access`` says yes but a file cannot be made (root in
    ``/sys``, a read-only mount) fails here, before any match is played, not after the
    run (issue 22, item 8).

    :raises ValueError: ``WHAT: cannot create a file in FOLDER: REASON``.
    """
    try:
        fd, name = tempfile.mkstemp(dir=folder, prefix=".tictacblitz-probe-")
    except OSError as exc:
        raise ValueError(
            f"{what}: cannot create a file in {folder!r}: {exc.strerror or exc}"
        ) from None
    os.close(fd)
    os.remove(name)


class RecordWriter:
    """Streams record tables to ``path`` (``.parquet`` or ``.csv``) through a temporary
    file in the same folder, renamed onto ``path`` only by :meth:`commit`: an interrupted
    or failed run leaves nothing half-written (:meth:`abort` removes the temporary)."""

    def __init__(self, path: str, *, overwrite: bool = True) -> None:
        self.path = os.fspath(path)
        check_out_path(self.path, overwrite=overwrite)
        self.kind = os.path.splitext(self.path)[1].lower()
        folder, name = os.path.split(os.path.abspath(self.path))
        self.tmp = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
        self._writer: Any = None
        self.rows = 0
        # The temporary file exists from now on, before any match is played: a file
        # that cannot be made fails here, not after the run (issue 22, item 8).
        try:
            with open(self.tmp, "wb"):
                pass
        except OSError as exc:
            raise ValueError(
                f"output {path!r}: cannot create {self.tmp!r}: {exc.strerror or exc}"
            ) from None

    def write(self, table: Any) -> None:
        if self.kind == ".csv":
            table = _csv_ready(table)
        if self._writer is None:
            if self.kind == ".parquet":
                import pyarrow.parquet as pq

                self._writer = pq.ParquetWriter(self.tmp, table.schema, compression="zstd")
            else:
                import pyarrow.csv as pcsv

                self._writer = pcsv.CSVWriter(self.tmp, table.schema)
        self._writer.write_table(table)
        self.rows += table.num_rows

    def commit(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._writer = None
        os.replace(self.tmp, self.path)

    def abort(self) -> None:
        try:
            if self._writer is not None:
                self._writer.close()
        except Exception:  # noqa: BLE001 - cleaning up after a failure
            pass
        self._writer = None
        if os.path.exists(self.tmp):
            os.remove(self.tmp)
