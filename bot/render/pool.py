"""Where images are drawn: a small process pool, so drawing never holds the bot's event loop.

Rendering is pure Python under the GIL; in threads it competes with the event loop and every
reply waits behind it (``junction bench --discord`` measured first-response p99 of ~120 ms at
50 busy channels with threads, ~35 ms with one worker process). Views are small picklable
values, so sending them to a worker is cheap. ``processes=0`` falls back to threads (tests,
single-core hosts).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")

# Threads beyond two only add GIL contention: a busy bot draws two images at a time at most.
_MAX_THREADS = 2


def _warm_up() -> int:
    """Import every game's renderer and fill its caches in the worker before the first move."""
    from bot.games import all_bundles
    from bot.render import fallback
    from bot.render.common import FONT_DIR

    # Which letters each fallback face has (~120 ms to read them all): else the first name in
    # emoji, Chinese or Korean a worker draws would wait for it.
    for file, _ in fallback.FALLBACKS:
        fallback.letters(str(FONT_DIR / file))
    drawn = 0
    for found in all_bundles():
        seats = [f"P{i}" for i in range(found.info.max_players)]
        view = found.game.public_view(found.game.new_game(seats, 0))
        drawn += len(found.presenter.table_png(view))
    return drawn


def _leave_with(parent: int) -> None:
    """Worker initializer: exit as soon as the bot process is gone, and leave Ctrl-C to it.

    A bot killed outright (SIGKILL, an OOM kill, a crash) runs no clean-up, and the workers —
    children of the forkserver, not of the bot — would live on, each holding tens of MB, one
    more set per restart. A daemon thread notices the bot's pid is gone and ends the worker.
    """

    def watch() -> None:
        while True:
            time.sleep(0.5)
            try:
                os.kill(parent, 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:  # pragma: no cover - the pid was reused by another user
                os._exit(0)

    threading.Thread(target=watch, name="junction-parent-watch", daemon=True).start()
    # Ctrl-C in a terminal reaches the whole process group. The bot stops its workers itself
    # (RenderPool.close), so a worker taking the interrupt would only print a traceback per
    # worker and break the pool under a bot still closing.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class RenderPool:
    """A few worker processes (or threads) for CPU work: drawing, and computer players thinking.

    ``warm`` draws every game's table once in each new worker so the first real image is fast.
    """

    def __init__(self, processes: int, *, warm: bool = True) -> None:
        self.processes = processes
        self.warm = warm
        self._executor: ProcessPoolExecutor | None = None
        self._threads = asyncio.Semaphore(_MAX_THREADS)

    async def start(self) -> None:
        if self.processes <= 0:
            return
        # forkserver: workers start from a clean interpreter, not a copy of a running loop.
        context = multiprocessing.get_context("forkserver")
        self._executor = ProcessPoolExecutor(
            self.processes,
            mp_context=context,
            initializer=_leave_with,
            initargs=(os.getpid(),),
        )
        if self.warm:
            await self.run(_warm_up)

    async def run(self, draw: Callable[..., T], *args: Any) -> T:
        """``draw(*args)`` off the event loop; ``draw`` must be a module-level function."""
        executor = self._executor
        if executor is not None:
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(executor, draw, *args)
            except BrokenProcessPool:
                if self._executor is not executor:
                    # close() ended the worker: the bot is stopping, and whoever waits is
                    # cancelled with it, not told of a broken pool in a traceback.
                    raise asyncio.CancelledError from None
                raise
        async with self._threads:
            return await asyncio.to_thread(draw, *args)

    async def close(self) -> None:
        """Stop the workers now, a task in hand or not.

        ``shutdown(wait=False)`` alone only refuses new work: Python's exit then waits for each
        worker's task (a computer's search, the warm-up), so a bot told to stop said "stopped"
        and lingered past ``docker stop``'s ten seconds. A worker stores nothing, so ending it
        mid-task loses nothing; the move it was for is not stored either, and is made again.
        """
        executor, self._executor = self._executor, None
        if executor is None:
            return
        # The executor's own list: Python 3.11 has no public way to end a busy worker.
        workers = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
        for worker in workers:
            await asyncio.to_thread(worker.join, 2.0)
