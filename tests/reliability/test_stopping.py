"""Stopping the bot: Ctrl-C (SIGINT) and ``docker stop`` / systemd (SIGTERM) at chosen moments —
while it starts, while its shards connect (PostgreSQL), while members' moves are in flight and
while a computer thinks in the process pool. The bot must exit within Docker's ten seconds,
with status 0, leave no process behind, release its SQLite lock and leave every game the replay
of its log with every acknowledged move in it (see ``stopping.py``).

Light (CI): a few moments. ``JUNCTION_HEAVY=1``: a sweep of moments on both stores.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from tests.reliability.driving import heavy
from tests.reliability.stopping import GRACE, stop, tagged


def _said(outcome: object) -> str:
    problems = getattr(outcome, "problems", [])
    log = getattr(outcome, "log", "")
    return "\n".join(problems[:20]) + "\n--- bot log ---\n" + log[-4000:]


async def test_a_stop_while_the_pools_work_ends_their_workers(tmp_path: Path) -> None:
    """SIGTERM while a computer thinks and a table is drawn in the worker processes: the bot
    exits at once. Before, it said "stopped" and then waited for the workers to finish (a
    minute here; a long search, or the pool's warm-up on a slow host), past Docker's grace."""
    outcome = await stop(
        tmp_path,
        how=signal.SIGTERM,
        after=0.5,
        ready_first=True,
        env={"JUNCTION_BUSY_POOLS": "60"},
    )
    assert outcome.ready
    assert not outcome.problems, _said(outcome)
    assert outcome.seconds < GRACE


_CLOSE_A_BUSY_POOL = """
import asyncio, time
from bot.render.pool import RenderPool

async def main():
    pool = RenderPool(1, warm=False)
    await pool.start()
    await pool.run(time.sleep, 0)
    busy = asyncio.ensure_future(pool.run(time.sleep, 60))
    await asyncio.sleep(0.5)
    await pool.close()
    print("closed", flush=True)

asyncio.run(main())
"""


async def test_closing_a_busy_pool_ends_its_worker_at_once(tmp_path: Path) -> None:
    """RenderPool.close with a task running in its worker: the process ends within seconds and
    the worker with it. Before, close only refused new work, and Python's exit waited for the
    worker's task (here a minute)."""
    tag = f"junction-pool-probe-{os.getpid()}-{time.monotonic_ns()}"
    started = time.monotonic()
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        _CLOSE_A_BUSY_POOL,
        env={**os.environ, "JUNCTION_PROBE": tag},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        said, _ = await asyncio.wait_for(process.communicate(), 20)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        for pid in tagged(tag):
            os.kill(pid, signal.SIGKILL)
    assert process.returncode == 0, said.decode()
    assert said.decode().strip() == "closed"
    assert time.monotonic() - started < 15


async def test_moves_under_way_finish_before_the_bot_stops(tmp_path: Path) -> None:
    """SIGTERM while members' moves are being made (each takes a second here): they are stored
    and shown, then the bot stops. Before, the connection closed under them: each logged
    "command failed" and tracebacks of "Session is closed"."""
    outcome = await stop(
        tmp_path,
        how=signal.SIGTERM,
        after=0.5,
        ready_first=True,
        channels=8,
        env={"JUNCTION_SLOW_MOVES": "1.0"},
        acked_first=True,
    )
    assert not outcome.problems, _said(outcome)
    assert "stopping: finishing" in outcome.log


# -- _serve with a stand-in bot: a start that loses its cancellation, a close that hangs -----

_SERVE = """
import asyncio, os, signal, sys
from bot import client

client.STOP_SECONDS = 3.0

class Bot:
    closed = False

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        await self.close()

    async def start(self, token):
        loop = asyncio.get_running_loop()
        loop.call_later(0.3, os.kill, os.getpid(), signal.SIGTERM)
        if sys.argv[1] == "twice":
            loop.call_later(0.8, os.kill, os.getpid(), signal.SIGTERM)
        if sys.argv[1] == "lost":
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                pass  # as asyncio.wait_for does when its future completed in the meantime
        await asyncio.sleep(3600)

    async def close(self):
        if sys.argv[1] in ("hangs", "twice"):
            await asyncio.Event().wait()
        self.closed = True

bot = Bot()
asyncio.run(client._serve(bot, "token"))
print("closed" if bot.closed else "not closed", flush=True)
"""


async def _serve_with(case: str) -> tuple[int | None, str, float]:
    started = time.monotonic()
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        _SERVE,
        case,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        said, _ = await asyncio.wait_for(process.communicate(), 15)
    except TimeoutError:
        process.kill()
        await process.wait()
        return None, "(still running after 15 s)", time.monotonic() - started
    return process.returncode, said.decode(), time.monotonic() - started


async def test_a_stop_whose_cancellation_is_lost_still_stops() -> None:
    """The start swallows its first cancellation, as asyncio.wait_for (Python 3.11) does when a
    shard's connection completes at that moment: the bot is closed and the process exits.
    Before, the one cancellation was all, and the bot went on running: a Ctrl-C that hung."""
    code, said, _ = await _serve_with("lost")
    assert code == 0, said
    assert said.strip().endswith("closed") and "not closed" not in said, said


async def test_a_close_that_hangs_is_given_up_in_time() -> None:
    """A close that never returns (a database that does not answer): the process exits by
    STOP_SECONDS, status 1, saying so. Before, it hung until SIGKILL."""
    code, said, seconds = await _serve_with("hangs")
    assert code == 1, said
    assert "could not stop cleanly within 3 s" in said
    assert seconds < 10


async def test_a_second_signal_ends_the_process_at_once() -> None:
    """Ctrl-C pressed again while the bot closes (here a close that hangs): the process ends
    now, with the status a shell gives a program ended by that signal, not after STOP_SECONDS."""
    code, said, _ = await _serve_with("twice")
    assert code == 128 + signal.SIGTERM, said
    assert "SIGTERM again: stopping now, without closing" in said
    assert "could not stop cleanly" not in said


# -- the real bot, stopped at chosen moments -------------------------------------------------


async def test_ctrl_c_while_the_bot_starts(tmp_path: Path) -> None:
    """SIGINT as the bot logs in (opening the store, starting and warming its pools)."""
    outcome = await stop(
        tmp_path, how=signal.SIGINT, after=0.3, ready_first=False, logged="logging in"
    )
    assert not outcome.problems, _said(outcome)
    assert outcome.code == 0


async def test_sigterm_while_shards_connect_on_postgresql(tmp_path: Path, pg_database: str) -> None:
    """`junction run --shard-ids 0,1,2 --shard-count 3` on PostgreSQL, SIGTERM after the first
    shard connected, while the next waits its turn to identify."""
    outcome = await stop(
        tmp_path,
        how=signal.SIGTERM,
        after=1.0,
        ready_first=False,
        db_url=pg_database,
        shards=3,
        logged="Shard ID 0 has connected",
    )
    assert not outcome.problems, _said(outcome)
    assert outcome.code == 0
    assert "Shard ID 2 has connected" not in outcome.log  # it was stopped while connecting


async def test_ctrl_c_while_members_play_on_shards(tmp_path: Path, pg_database: str) -> None:
    """SIGINT to a two-shard bot on PostgreSQL while members play in six channels."""
    outcome = await stop(
        tmp_path,
        how=signal.SIGINT,
        after=2.0,
        ready_first=True,
        db_url=pg_database,
        shards=2,
        channels=6,
    )
    assert not outcome.problems, _said(outcome)
    assert outcome.acknowledged > 0


# The sweep: each signal at moments from logging in to members playing, on both stores.
_MOMENTS = [("logging in", 0.0), ("logging in", 0.7), ("logging in", 1.5), ("logging in", 3.0)]
_MOMENTS += [("ready", 0.2), ("ready", 1.0), ("ready", 3.0), ("ready", 6.0)]


async def _a_stop_at(
    folder: Path, how: signal.Signals, moment: str, after: float, db_url: str | None
) -> None:
    """Every check of ``stopping.py`` after a stop at that moment (PostgreSQL: four shards,
    which connect one by one five seconds apart, so the early moments fall among them)."""
    outcome = await stop(
        folder,
        how=how,
        after=after,
        ready_first=moment == "ready",
        logged=None if moment == "ready" else moment,
        db_url=db_url,
        shards=4 if db_url else None,
        channels=8,
        seed=int(after * 10),
    )
    assert not outcome.problems, _said(outcome)


_SIGNALS = pytest.mark.parametrize(
    "how", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"]
)


@pytest.mark.skipif(not heavy(), reason="heavy: JUNCTION_HEAVY=1")
@_SIGNALS
@pytest.mark.parametrize(("moment", "after"), _MOMENTS)
async def test_a_stop_at_any_moment_on_sqlite(
    tmp_path: Path, how: signal.Signals, moment: str, after: float
) -> None:
    await _a_stop_at(tmp_path, how, moment, after, None)


# Its own test, taking the database as a fixture: asked for inside the running test
# (request.getfixturevalue), the async fixture cannot be set up ("Runner.run() cannot be called
# from a running event loop"), which failed every PostgreSQL case of the sweep.
@pytest.mark.skipif(not heavy(), reason="heavy: JUNCTION_HEAVY=1")
@_SIGNALS
@pytest.mark.parametrize(("moment", "after"), _MOMENTS)
async def test_a_stop_at_any_moment_on_postgresql(
    tmp_path: Path, pg_database: str, how: signal.Signals, moment: str, after: float
) -> None:
    await _a_stop_at(tmp_path, how, moment, after, pg_database)
