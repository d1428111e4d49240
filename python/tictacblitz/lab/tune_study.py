"""Where a rule search lives: an Optuna study in a real database (issue 24, item 1).

``--storage`` takes any Optuna storage:

- an SQLAlchemy URL: ``sqlite:///tune.db`` (the default, a file in the working
  folder), ``postgresql://user@host/db``, ``mysql://...``: Optuna's ``RDBStorage``;
- ``journal:PATH``: a journal file (``JournalFileBackend``, file locks: several processes
  on one machine or a shared file system);
- ``redis://host:6379/0``: a Redis journal (``JournalRedisBackend``) that workers on
  several machines share.

A study remembers what it searches (:func:`fingerprint` in its ``user_attrs``: game,
seats, base rules, ranges, targets, objectives, matches, seed), so running the same
command again continues it and a second process on the same study is one more worker;
a command that asks something else of an existing study is refused before anything is
written (:func:`open_study`). Every check of the command runs before the storage is
opened, so bad input leaves a study untouched.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any, Dict, List, Optional, Sequence

__all__ = [
    "DEFAULT_STORAGE",
    "make_storage",
    "study_name",
    "open_study",
    "check_existing",
    "SPEC_KEY",
]

DEFAULT_STORAGE = "sqlite:///tune.db"
SPEC_KEY = "tictacblitz_tune"
CREATE_ATTEMPTS = 5
SQLITE_WAIT_S = 60  # several workers on one SQLite file wait for its lock, not fail


def make_storage(url: str) -> Any:
    """An Optuna storage for ``url`` (see the module doc).

    :raises ValueError: for a URL Optuna cannot open (one line).
    """
    import optuna
    from optuna.storages import journal

    try:
        if url.startswith("journal:"):
            path = url[len("journal:") :]
            if path.startswith("///"):
                path = path[2:]
            if not path:
                raise ValueError("journal:PATH needs a file path")
            return journal.JournalStorage(journal.JournalFileBackend(path))
        if url.startswith(("redis://", "rediss://")):
            return journal.JournalStorage(journal.JournalRedisBackend(url))
        kwargs: Dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["engine_kwargs"] = {"connect_args": {"timeout": SQLITE_WAIT_S}}
        for attempt in range(CREATE_ATTEMPTS):
            try:
                storage = optuna.storages.RDBStorage(url, **kwargs)
                if url.startswith("sqlite:///") and ":memory:" not in url:  # a file
                    _quick_sqlite(storage)
                return storage
            except Exception:
                # Workers started together on a new database race to create its tables:
                # the loser finds them made a moment later.
                if attempt == CREATE_ATTEMPTS - 1:
                    raise
                time.sleep(0.2 * (attempt + 1))
        raise AssertionError("unreachable")
    except ImportError as exc:
        raise ValueError(f"--storage {url!r}: needs {exc.name or exc}") from None
    except Exception as exc:  # SQLAlchemy's and Redis's errors: one line naming the URL
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValueError(f"--storage {url!r}: cannot open it: {first}") from None


def _quick_sqlite(storage: Any) -> None:
    """Write-ahead logging, synced at checkpoints (``synchronous=NORMAL``): a study
    survives a crash of the process (a power cut may lose its last trials), and a trial's
    dozen small transactions no longer wait for the disk each (benches/bench_tune.py:
    about 17 ms each on the loaded test machine, a quarter of a 1,000-match candidate)."""
    from sqlalchemy import event

    def pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    event.listen(storage.engine, "connect", pragmas)
    storage.engine.dispose()  # the connections made so far: reopened with the pragmas


def fingerprint(**spec: Any) -> Dict[str, Any]:
    """What a study searches, as JSON-ready data (the keys sorted)."""
    return json.loads(json.dumps(spec, sort_keys=True, default=str))


def study_name(spec: Dict[str, Any]) -> str:
    """The default study name: the game and a short hash of what it searches, so the
    same command finds its study again and another command makes its own."""
    digest = hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:10]
    return f"tune-{spec.get('game', 'game')}-{digest}"


def _differences(old: Dict[str, Any], new: Dict[str, Any]) -> List[str]:
    return [k for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]


def check_existing(storage: Any, name: str, spec: Dict[str, Any], url: Optional[str]) -> Any:
    """The study ``name`` if ``storage`` has it (None if not), read only.

    :raises ValueError: when it searches something else than ``spec`` (naming what
        differs) or was not made by ``tune``.
    """
    import optuna

    try:
        existing = optuna.load_study(
            study_name=name, storage=storage, sampler=optuna.samplers.RandomSampler()
        )
    except KeyError:
        return None
    old = existing.user_attrs.get(SPEC_KEY)
    for attempt in range(CREATE_ATTEMPTS):  # another worker may be making it right now
        if old is not None:
            break
        time.sleep(0.2 * (attempt + 1))
        old = existing.user_attrs.get(SPEC_KEY)
    if old is None:
        raise ValueError(
            f"--study {name!r} in {url or 'the storage'} was not made by tictacblitz tune"
        )
    changed = _differences(old, spec)
    if changed:
        raise ValueError(
            f"--study {name!r} in {url or 'the storage'} searches another question "
            f"(its {', '.join(changed)} differ); give another --study or the same options"
        )
    return existing


def open_study(
    storage: Any,
    name: str,
    spec: Dict[str, Any],
    directions: Sequence[str],
    sampler: Any,
    *,
    url: Optional[str] = None,
) -> Any:
    """The study ``name`` in ``storage``: loaded (and checked to search ``spec``), or
    created (with ``spec`` stored in it).

    :raises ValueError: when an existing study searches something else (naming what
        differs); nothing is written then.
    """
    import optuna

    if check_existing(storage, name, spec, url) is not None:
        return optuna.load_study(study_name=name, storage=storage, sampler=sampler)
    study = optuna.create_study(
        study_name=name,
        storage=storage,
        directions=[optuna.study.StudyDirection[d.upper()] for d in directions],
        sampler=sampler,
        load_if_exists=True,  # another worker may have made it a moment ago
    )
    if SPEC_KEY not in study.user_attrs:
        study.set_user_attr(SPEC_KEY, spec)
    return study
