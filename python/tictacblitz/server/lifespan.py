"""A server's start and stop (:func:`lifespan`): the bot and replay threads, the
replay workers' preload and the scope's (a cluster's registration) before the first
request; after the last, every room closed, the scope left, the last replays on disk.
Draining before the stop (SIGTERM) is :mod:`.drain`'s."""

from __future__ import annotations

import asyncio
import contextlib
from concurrent.futures import ThreadPoolExecutor
from typing import Any, AsyncContextManager, AsyncIterator, Callable

from .budget import preload
from .clock import Clock
from .jobs import run_job
from .lobby import Lobby
from .scope import Scope
from .settings import Settings

__all__ = ["lifespan"]


def lifespan(
    lobby: Lobby, scope: Scope, settings: Settings, clock: Clock
) -> Callable[[Any], AsyncContextManager[None]]:
    """Starlette's ``lifespan`` for a server of ``settings`` around ``lobby``."""

    @contextlib.asynccontextmanager
    async def run(app: Any) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        if hasattr(clock, "bind"):
            clock.bind(loop)
        executor = (
            ThreadPoolExecutor(settings.bot_threads, thread_name_prefix="bot")
            if settings.bot_threads
            else None
        )
        lobby.executor = executor
        lobby.post = loop.call_soon_threadsafe  # type: ignore[assignment]
        # Replays are encoded and written in a thread of their own, in order (never on
        # the loop: replay_store.py).
        writer = ThreadPoolExecutor(1, thread_name_prefix="replay")

        def back(callback: Any) -> None:
            loop.call_soon_threadsafe(callback)

        lobby.replays.offload = lambda job, done: run_job(writer, back, job, done)
        # The replay workers' process server (started by the first job) imports the
        # game's adapter once.
        preload([f"{__package__}.games.{settings.game.type.name}"])
        await scope.start()
        try:
            yield
        finally:
            for room in list(lobby.rooms.values()):
                lobby.close_room(room)
            await scope.close()
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)
            lobby.replays.offload = None
            writer.shutdown(wait=True)  # the last replays reach the disk

    return run
