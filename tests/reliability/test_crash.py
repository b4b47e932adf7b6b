"""Crash safety: the real bot process SIGKILLed mid-move, mid-commit, mid-render and during the
timer sweep, on SQLite and on PostgreSQL; nothing acknowledged is lost, nothing applied twice,
every game resumable, every old button answers (see ``crash.py``).

Light (CI): a handful of kills per store. ``JUNCTION_HEAVY=1``: 110 kills per store.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from pathlib import Path

import pytest

from tests.reliability.crash import campaign
from tests.reliability.driving import heavy
from tests.reliability.stopping import tagged

KILLS = 110 if heavy() else 4
CHANNELS = 24 if heavy() else 8
BUTTONS = 400 if heavy() else 40  # old table messages whose buttons are pressed afterwards


async def test_sqlite_survives_kills(tmp_path: Path) -> None:
    """SQLite: every acknowledged move kept once, every game the replay of its log."""
    report = await campaign(
        tmp_path, db_url=None, kills=KILLS, channels=CHANNELS, seed=11, buttons=BUTTONS
    )
    print("\n" + report.line())
    assert sum(report.kills.values()) == KILLS
    assert report.acknowledged > 0
    assert not report.discrepancies, "\n".join(report.discrepancies[:20])


@pytest.mark.skipif(not heavy(), reason="heavy: JUNCTION_HEAVY=1")
async def test_the_harness_sees_acknowledged_moves_that_were_not_stored(tmp_path: Path) -> None:
    """Broken on purpose (botwrap's ``unstored`` sabotage): some moves are answered as done but
    never stored. The harness reports them lost."""
    report = await campaign(
        tmp_path, db_url=None, kills=2, channels=6, seed=13, sabotage="unstored"
    )
    print("\n" + report.line())
    assert any("was lost" in d for d in report.discrepancies), report.discrepancies[:5]


async def test_postgresql_survives_kills(tmp_path: Path, pg_database: str) -> None:
    """PostgreSQL: the same, with the database on a server."""
    report = await campaign(
        tmp_path, db_url=pg_database, kills=KILLS, channels=CHANNELS, seed=12, buttons=BUTTONS
    )
    print("\n" + report.line())
    assert sum(report.kills.values()) == KILLS
    assert report.acknowledged > 0
    assert not report.discrepancies, "\n".join(report.discrepancies[:20])


async def test_a_killed_bot_leaves_no_render_workers(tmp_path: Path) -> None:
    """SIGKILL the bot while its render pool runs: within seconds no worker (nor the pool's
    helper processes) is left behind. Before, each crash leaked a forkserver, a worker and a
    resource tracker (about 90 MB), one more set per restart."""
    import asyncio
    import signal
    import sys

    if not Path("/proc/self/environ").exists():
        pytest.skip("needs /proc")
    tag = f"junction-orphan-probe-{uuid.uuid4().hex}"
    code = (
        "import asyncio\nfrom bot.render.pool import RenderPool\n"
        "async def main():\n    pool = RenderPool(1)\n    await pool.start()\n"
        "    print('up', flush=True)\n    await asyncio.sleep(120)\nasyncio.run(main())\n"
    )
    out = tmp_path / "out.txt"
    env = {**os.environ, "JUNCTION_PROBE": tag}
    with out.open("w") as sink:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", code, env=env, stdout=sink, stderr=sink
        )
    for _ in range(300):
        if "up" in out.read_text():
            break
        await asyncio.sleep(0.1)
    assert len(tagged(tag)) >= 3, "the pool started its worker processes"
    process.send_signal(signal.SIGKILL)
    await process.wait()
    left: list[int] = []
    for _ in range(50):
        await asyncio.sleep(0.1)
        left = tagged(tag)
        if not left:
            break
    for pid in left:  # do not leak them from the test either
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    assert not left, f"{len(left)} processes outlived the killed bot"
