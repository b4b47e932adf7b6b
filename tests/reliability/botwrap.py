"""The real bot, run as ``python -m tests.reliability.botwrap run``, with test-only additions.

Nothing in the bot changes; before it starts, this wrapper

* registers the games that only the tests know (``JUNCTION_EXTRA_GAMES``: modules exposing
  ``BUNDLE``, comma-separated), so the bot process serves every game the test process sees;
* installs *kill points* (``JUNCTION_KILL_POINTS="move:0.02,commit:0.02,render:0.02,sweep:0.1"``):
  at each named moment, with that probability, the process sends itself SIGKILL — a crash at
  exactly that moment. The moment is written to ``JUNCTION_KILL_LOG`` first, so the harness can
  tell which moments it hit:

  ``move``   the engine applied a member's (or computer's) move, nothing is stored yet;
  ``commit`` inside the store's write transaction, before COMMIT (SQLite), or right after the
             statement that stored the move, before anyone is told (PostgreSQL);
  ``render`` a table or hand image is about to be drawn (the move is stored, the table not yet
             posted);
  ``sweep``  the timer sweep is handling a due deadline (before, or after its first move);
* shortens the timer sweep's period (``JUNCTION_SWEEP_SECONDS``);
* keeps the render and think pools busy when asked (``JUNCTION_BUSY_POOLS=SECONDS``: once ready,
  each pool's worker sleeps that long, as a computer thinking or a table being drawn), so a
  stop can come while a worker is at work;
* slows every move down when asked (``JUNCTION_SLOW_MOVES=SECONDS`` before each is made), so a
  stop can come while moves are surely in flight;
* breaks the bot on purpose when asked (``JUNCTION_SABOTAGE=unstored``: three member moves in
  ten are answered as done but never stored; ``stall``: one move in twenty hangs for 30 s), to
  show the crash and load checks can fail.
"""

from __future__ import annotations

import importlib
import os
import random
import signal
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

_rng = random.Random()
_busy: set[Any] = set()  # the pools' long tasks (JUNCTION_BUSY_POOLS), kept from the collector


def _points() -> dict[str, float]:
    found = {}
    for item in os.environ.get("JUNCTION_KILL_POINTS", "").split(","):
        name, _, chance = item.partition(":")
        if name.strip():
            found[name.strip()] = float(chance or 0)
    return found


POINTS = _points()


def maybe_die(point: str) -> None:
    """SIGKILL this process now with the probability configured for ``point``."""
    chance = POINTS.get(point, 0.0)
    if chance <= 0 or _rng.random() >= chance:
        return
    log = os.environ.get("JUNCTION_KILL_LOG")
    if log:
        with open(log, "a") as out:
            out.write(f"{point}\n")
            out.flush()
            os.fsync(out.fileno())
    os.kill(os.getpid(), signal.SIGKILL)


def install() -> None:
    """Register the extra games and install the kill points and the sweep period."""
    from bot.games import register

    for module in filter(None, os.environ.get("JUNCTION_EXTRA_GAMES", "").split(",")):
        register(importlib.import_module(module).BUNDLE)
    _rng.seed(os.environ.get("JUNCTION_KILL_SEED", "0") + str(os.getpid()))

    from bot import tables as seam
    from bot import timers
    from bot.client import JunctionBot
    from bot.position import Position
    from bot.render.pool import RenderPool
    from bot.store.postgres import PostgresStore
    from bot.store.sqlite import SqliteStore

    commit = seam.Tables._commit

    async def commit_or_die(self: Any, *args: Any, **kwargs: Any) -> Any:
        maybe_die("move")
        return await commit(self, *args, **kwargs)

    seam.Tables._commit = commit_or_die  # type: ignore[method-assign]

    if os.environ.get("JUNCTION_SABOTAGE") == "unstored":
        import dataclasses

        async def commit_unstored(
            self: Any, here: Any, seat: int, text: str, state: Any, interaction_id: Any
        ) -> Any:
            if interaction_id is not None and _rng.random() < 0.3:
                stored = dataclasses.replace(
                    here.stored, version=here.stored.version + 1, state=here.game.to_dict(state)
                )
                return Position(stored, here.bundle, state)
            return await commit_or_die(self, here, seat, text, state, interaction_id)

        seam.Tables._commit = commit_unstored  # type: ignore[method-assign,assignment]

    if os.environ.get("JUNCTION_SABOTAGE") == "stall":
        import asyncio

        move = seam.Tables.move

        async def move_or_stall(self: Any, **kwargs: Any) -> Any:
            if _rng.random() < 0.05:
                await asyncio.sleep(30)  # one move in twenty never answered in time
            return await move(self, **kwargs)

        seam.Tables.move = move_or_stall  # type: ignore[method-assign]

    writing = SqliteStore._writing

    @asynccontextmanager
    async def writing_or_die(self: SqliteStore) -> AsyncIterator[Any]:
        async with writing(self) as db:
            yield db
            maybe_die("commit")  # the transaction's statements ran; COMMIT has not

    SqliteStore._writing = writing_or_die  # type: ignore[method-assign]

    record = PostgresStore.record_move

    async def record_or_die(self: PostgresStore, **kwargs: Any) -> Any:
        stored = await record(self, **kwargs)
        maybe_die("commit")  # committed, and nobody told yet
        return stored

    PostgresStore.record_move = record_or_die  # type: ignore[method-assign]

    run = RenderPool.run

    async def run_or_die(self: RenderPool, draw: Callable[..., Any], *args: Any) -> Any:
        maybe_die("render")
        return await run(self, draw, *args)

    RenderPool.run = run_or_die  # type: ignore[method-assign]

    wake = seam.Tables.wake

    async def wake_or_die(self: Any, game_id: int) -> Any:
        maybe_die("sweep")
        update = await wake(self, game_id)
        if update is not None:
            maybe_die("sweep")
        return update

    seam.Tables.wake = wake_or_die  # type: ignore[method-assign]
    del timers

    slow = os.environ.get("JUNCTION_SLOW_MOVES")
    if slow:
        import asyncio

        unhurried = seam.Tables.move

        async def move_slowly(self: Any, **kwargs: Any) -> Any:
            await asyncio.sleep(float(slow))
            return await unhurried(self, **kwargs)

        seam.Tables.move = move_slowly  # type: ignore[method-assign]

    busy = os.environ.get("JUNCTION_BUSY_POOLS")
    if busy:
        import asyncio
        import time

        ready = JunctionBot.on_ready

        async def ready_then_busy(self: JunctionBot) -> None:
            await ready(self)
            for pool in (self.thinkers, self.renderer):
                _busy.add(asyncio.ensure_future(pool.run(time.sleep, float(busy))))

        JunctionBot.on_ready = ready_then_busy  # type: ignore[method-assign]

    period = os.environ.get("JUNCTION_SWEEP_SECONDS")
    if period:
        setup = JunctionBot.setup_hook

        async def setup_then_sweep_faster(self: JunctionBot) -> None:
            await setup(self)
            cog: Any = self.get_cog("Timers")
            cog.sweeper.change_interval(seconds=float(period))
            cog.lobby_sweeper.change_interval(seconds=float(period))

        JunctionBot.setup_hook = setup_then_sweep_faster  # type: ignore[method-assign]


def main() -> int:
    try:
        install()
    except KeyboardInterrupt:  # as the bot's own main says a Ctrl-C while it starts
        print("\njunction run: interrupted.", file=sys.stderr)
        return 130
    from bot.__main__ import main as junction

    return junction(sys.argv[1:])


if __name__ == "__main__":
    raise SystemExit(main())
