"""Stopping the real bot: Ctrl-C (SIGINT) or ``docker stop`` / systemd (SIGTERM) at a chosen
moment, and what must hold afterwards.

:func:`stop` starts ``python -m bot run`` (through :mod:`tests.reliability.botwrap`, so the
tests' extra games are served) against the local fake Discord — with shard options when asked,
on SQLite or PostgreSQL — optionally lets members play games in many channels (moves in flight,
computers thinking in the process pool), sends the signal at the chosen moment and checks:

* the process exits within :data:`GRACE` seconds (Docker's default before it sends SIGKILL),
  with status 0;
* no process it started (the render and think pools' workers, the forkserver, the resource
  tracker) is left behind: every process carrying the run's tag in its environment is gone;
* the SQLite lock file is released (another bot could start on the file);
* the store is consistent: every game is the replay of its move log, its version counts the
  log, and every move Discord was told succeeded is in a log;
* the bot logged no traceback and no error.

Each failed check is a line of :attr:`Outcome.problems`.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import random
import signal
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from bot.store import open_store
from bot.store.base import GuildSettings, Store
from tests.discord.backend import GUILD_ID
from tests.discord.fake_discord import FakeDiscord
from tests.discord.latency import _add_channels
from tests.e2e.harness import TOKEN, BotProcess
from tests.reliability.crash import Campaign, _all_games, extra_games, replay_problems
from tests.reliability.driving import seatings

GRACE = 10.0
"""Seconds the bot has to stop: ``docker stop``'s default before SIGKILL."""


def tagged(tag: str) -> list[int]:
    """Processes whose environment carries ``tag`` (a process and everything it started)."""
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if tag.encode() in Path(f"/proc/{pid}/environ").read_bytes():
                    found.append(int(pid))
            except OSError:
                continue
    return found


@dataclass
class Outcome:
    code: int | None = None
    seconds: float = 0.0  # from the signal to the exit
    ready: bool = False  # whether the bot was ready when signalled
    acknowledged: int = 0
    problems: list[str] = field(default_factory=list)
    log: str = ""


async def consistent(store: Store, acknowledged: set[str]) -> list[str]:
    """Every game is the replay of its log; every acknowledged interaction is in a log."""
    problems: list[str] = []
    logged: set[str] = set()
    for game_id in await _all_games(store):
        stored, found = await replay_problems(store, game_id)
        problems.extend(found)
        if stored is None:
            continue
        logged.update(m.interaction_id for m in await store.moves(game_id) if m.interaction_id)
    problems.extend(f"acknowledged move {i} was lost" for i in sorted(acknowledged - logged))
    return problems


async def stop(
    folder: Path,
    *,
    how: signal.Signals,
    after: float,
    ready_first: bool,
    db_url: str | None = None,
    shards: int | None = None,
    channels: int = 0,
    seed: int = 1,
    env: dict[str, str] | None = None,
    logged: str | None = None,
    acked_first: bool = False,
) -> Outcome:
    """Start the bot, send ``how`` ``after`` seconds (counted from its start, or from ready
    when ``ready_first``, with members playing in ``channels`` channels meanwhile, or from
    the moment its log says ``logged``, or with ``acked_first`` from a member's first move
    acknowledged: on a busy machine a fixed time after ready may come before any), check."""
    outcome = Outcome()
    tag = f"junction-stop-probe-{uuid.uuid4().hex}"
    db = folder / "junction.db"
    url = db_url or f"sqlite:///{db}"
    run_args = ["--shard-count", str(shards)] if shards else []
    if shards and db_url:
        run_args = ["--shard-ids", ",".join(map(str, range(shards))), *run_args]
    async with FakeDiscord(token=TOKEN, patch_discord=False) as fake:
        channel_ids = _add_channels(fake, channels, "stop")
        store = open_store(url)
        await store.open()
        try:
            # Short turn timers, so the timer sweep moves games too.
            await store.set_guild_settings(GuildSettings(GUILD_ID, 6, "computer", 5))
            bot = BotProcess(
                fake,
                db,
                folder / "bot.log",
                db_url=db_url,
                module="tests.reliability.botwrap",
                run_args=run_args,
                extra_env={
                    "JUNCTION_EXTRA_GAMES": extra_games(),
                    "JUNCTION_SWEEP_SECONDS": "1",
                    "JUNCTION_STOP_PROBE": tag,
                    **(env or {}),
                },
            )
            run = Campaign(fake, bot, store, random.Random(seed))
            layouts = seatings()
            run.layouts = {c: layouts[(i + seed) % len(layouts)] for i, c in enumerate(channel_ids)}
            for channel_id, seating in run.layouts.items():
                await run.tables.start(
                    channel_id=channel_id,
                    guild_id=GUILD_ID,
                    game_key=seating.key,
                    seats=seating.seats(),
                    seed=channel_id % 100_000,
                )
            players: list[asyncio.Task[None]] = []
            try:
                starting = asyncio.ensure_future(bot.start(timeout=60))
                if ready_first:
                    await starting
                    # discord.py's on_ready comes a moment after the session: the bot serves.
                    for _ in range(300):
                        if "ready as" in bot.log_text():
                            break
                        await asyncio.sleep(0.1)
                    outcome.ready = True
                    players = [
                        asyncio.create_task(run.play(c, random.Random(f"{seed}:{c}")))
                        for c in channel_ids
                    ]
                else:
                    while bot.process is None:
                        await asyncio.sleep(0.01)
                for _ in range(3000 if acked_first else 0):
                    if run.acks:
                        break
                    await asyncio.sleep(0.01)
                for _ in range(3000 if logged else 0):
                    if (logged and logged in bot.log_text()) or starting.done():
                        break
                    await asyncio.sleep(0.01)
                await asyncio.sleep(after)
                process = bot.process
                assert process is not None
                if process.returncode is not None:
                    outcome.problems.append(f"the bot exited by itself ({process.returncode})")
                signalled = time.monotonic()
                with contextlib.suppress(ProcessLookupError):
                    process.send_signal(how)
                try:
                    outcome.code = await asyncio.wait_for(process.wait(), GRACE)
                except TimeoutError:
                    outcome.problems.append(f"still running {GRACE:.0f} s after {how.name}")
                outcome.seconds = time.monotonic() - signalled
                if not starting.done():
                    starting.cancel()
                with contextlib.suppress(BaseException):
                    await starting
                run.stop.set()
                if players:
                    await asyncio.wait(players, timeout=5.0)
                for task in players:
                    task.cancel()
            finally:
                await bot.kill()
            outcome.log = bot.log_text()
            if outcome.code not in (0, None):
                outcome.problems.append(f"exit status {outcome.code}")
            left: list[int] = []
            for _ in range(20):  # the kernel reaps a pool's helpers a moment after the bot
                left = tagged(tag)
                if not left:
                    break
                await asyncio.sleep(0.1)
            for pid in left:  # do not leak them from the test either
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            if left:
                outcome.problems.append(f"{len(left)} processes outlived the bot")
            if db_url is None and not _released(Path(f"{db}.lock")):
                outcome.problems.append("the SQLite lock file is still held")
            acknowledged = {str(a.interaction_id) for a in run.acks}
            outcome.acknowledged = len(acknowledged)
            outcome.problems.extend(await consistent(store, acknowledged))
            outcome.problems.extend(f"the bot logged: {line[:300]}" for line in bot.errors_logged())
        finally:
            await store.close()
    return outcome


def _released(lock: Path) -> bool:
    """Whether no process holds the bot's lock on its SQLite file."""
    if not lock.exists():
        return True
    with lock.open("a") as probe:
        try:
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(probe, fcntl.LOCK_UN)
    return True
