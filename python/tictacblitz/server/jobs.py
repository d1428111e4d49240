"""Work off the event loop: a bot's decision runs in a thread pool and its answer comes
back on the loop's thread. Generic: nothing here names a game."""

from __future__ import annotations

from concurrent.futures import Executor
from typing import Any, Callable, Optional

__all__ = ["run_job"]


def run_job(
    executor: Optional[Executor],
    post: Optional[Callable[[Callable[[], None]], None]],
    job: Callable[[], Any],
    done: Callable[[Any, Optional[BaseException]], None],
) -> bool:
    """Run ``job`` in ``executor`` and ``done(result, error)`` back on the loop through
    ``post`` (``loop.call_soon_threadsafe``); with no executor, both at once (deterministic
    tests), and True is returned then."""
    if executor is None:
        try:
            result = job()
        except Exception as exc:  # a failed decision: the session decides what then
            done(None, exc)
        else:
            done(result, None)
        return True
    future = executor.submit(job)

    def finished(fut: Any) -> None:
        def back() -> None:
            try:
                result = fut.result()
            except Exception as exc:
                done(None, exc)
            else:
                done(result, None)

        assert post is not None
        post(back)

    future.add_done_callback(finished)
    return False
