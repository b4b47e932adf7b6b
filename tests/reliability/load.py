"""Load: many channels playing every registered game at once through the fake Discord.

:func:`measure` deals a game of every game (every table size, in turn) in each of ``channels``
channels, starts the real bot process, and lets the members of every channel play for
``seconds`` — each pausing like a person (``think``) before every press — through "My hand" and
its pickers or ``/move``. Figures, timed on the fake's side of the wire:

* ``first_response_p50/p99_ms``: an interaction is sent → the bot's first answer arrives;
* ``image_p50/p99_ms``: an interaction that posts a table is sent → the table image arrives;
* ``errors``: interactions never answered, deferred ones ("Junction is thinking…") whose answer
  never came, answers that apologise, and errors in the bot's log;
* ``bot_rss_mb`` and ``worker_rss_mb`` (the render workers, summed) at the end, and peaks.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from pathlib import Path
from typing import Any

from bot.store import open_store
from bot.timing import percentile
from tests.discord.backend import JSON, CallbackType
from tests.discord.fake_discord import FakeDiscord
from tests.discord.latency import Stopwatch, _add_channels
from tests.e2e.harness import TOKEN, BotProcess
from tests.reliability.crash import Campaign, extra_games
from tests.reliability.driving import apologised, seatings


def rss_mb(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of a process in MiB; zeros when it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0, 0.0
    found = [re.search(rf"^{k}:\s+(\d+) kB", status, re.MULTILINE) for k in ("VmRSS", "VmHWM")]
    return tuple(int(m.group(1)) / 1024 if m else 0.0 for m in found)  # type: ignore[return-value]


def descendants(pid: int) -> list[int]:
    """Every process started (directly or not) by ``pid``."""
    found: list[int] = []
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for task in Path(f"/proc/{parent}/task").glob("*/children"):
            try:
                children = [int(c) for c in task.read_text().split()]
            except OSError:
                continue
            found += children
            frontier += children
    return found


# How long the answers still being worked on when play stops may take to arrive.
GRACE = 5.0


def unfinished(fake: FakeDiscord, sent: list[int]) -> int:
    """Interactions acknowledged with a deferral whose answer (a follow-up, or an edit of the
    deferred message) never came: a member left looking at "Junction is thinking…"."""
    count = 0
    for interaction_id in sent:
        result = fake.backend.interaction_result(interaction_id)
        deferred = result.callback_type in (
            CallbackType.DEFERRED_CHANNEL_MESSAGE,
            CallbackType.DEFERRED_UPDATE_MESSAGE,
        )
        if deferred and not result.followups and not result.edits:
            count += 1
    return count


class Timed(Campaign):
    """A campaign without kills whose every interaction is timed."""

    def __init__(self, *args: Any, watch: Stopwatch, think: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.watch, self.think = watch, think
        self.unanswered = 0
        self.apologies = 0

    async def send(self, payload: JSON, *, followups: int = 0) -> Any:
        await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
        interaction_id = int(payload["id"])
        self.watch.kind[interaction_id] = {2: "command", 3: "button", 4: "autocomplete"}.get(
            int(payload["type"]), "other"
        )
        self.watch.token_of[interaction_id] = str(payload["token"])
        self.watch.sent[interaction_id] = time.perf_counter()
        result = await super().send(payload, followups=followups)
        if result is None:
            self.unanswered += 1
        elif any(apologised(r.content or "") for r in result.responses):
            self.apologies += 1
        return result


async def measure(
    folder: Path,
    *,
    channels: int,
    seconds: float,
    think: float = 3.0,
    seed: int = 1,
    sabotage: str = "",
) -> dict[str, float]:
    """Play ``channels`` games at once for ``seconds``; the figures of the module docstring."""
    url = f"sqlite:///{folder / 'load.db'}"
    async with FakeDiscord(token=TOKEN, patch_discord=False) as fake:
        watch = Stopwatch()
        watch.attach(fake.backend)
        channel_ids = _add_channels(fake, channels, "load")
        store = open_store(url)
        await store.open()
        bot = BotProcess(
            fake,
            folder / "load.db",
            folder / "bot.log",
            log_level="WARNING",
            module="tests.reliability.botwrap",
            extra_env={"JUNCTION_EXTRA_GAMES": extra_games(), "JUNCTION_SABOTAGE": sabotage},
        )
        try:
            run = Timed(fake, bot, store, random.Random(seed), watch=watch, think=think)
            layouts = seatings()
            run.layouts = {c: layouts[i % len(layouts)] for i, c in enumerate(channel_ids)}
            for channel_id in channel_ids:
                seating = run.layouts[channel_id]
                await run.tables.start(
                    channel_id=channel_id,
                    guild_id=fake.world.guild_id,
                    game_key=seating.key,
                    seats=seating.seats(),
                    seed=channel_id % 100_000,
                )
            await bot.start(timeout=90)
            started = time.perf_counter()
            players = [
                asyncio.create_task(run.play(c, random.Random(f"{seed}:{c}"))) for c in channel_ids
            ]
            peak_bot = peak_workers = 0.0
            while time.perf_counter() - started < seconds:
                await asyncio.sleep(1.0)
                peak_bot = max(peak_bot, rss_mb(bot.pid)[0])
                peak_workers = max(peak_workers, sum(rss_mb(p)[0] for p in descendants(bot.pid)))
            run.stop.set()
            await asyncio.wait(players, timeout=5.0)
            for task in players:
                task.cancel()
            failed = [t for t in players if t.done() and not t.cancelled() and t.exception()]
            elapsed = time.perf_counter() - started
            # The acknowledgement alone is not an answer: a deferred interaction must be
            # followed by its answer (a move that hangs is acknowledged all the same).
            answered = [i for i in watch.sent if i in watch.callback_at]
            settle = time.perf_counter() + GRACE
            while (left := unfinished(fake, answered)) and time.perf_counter() < settle:
                await asyncio.sleep(0.2)
            bot_rss = rss_mb(bot.pid)[0]
            workers = descendants(bot.pid)
            worker_rss = sum(rss_mb(p)[0] for p in workers)
            first = watch.first_responses_ms()
            images = watch.images_ms()
            errors = run.unanswered + left + run.apologies + len(bot.errors_logged()) + len(failed)
            return {
                "channels": float(channels),
                "seconds": elapsed,
                "interactions": float(len(first)),
                "tables_posted": float(len(images)),
                "first_response_p50_ms": percentile(first, 0.50),
                "first_response_p99_ms": percentile(first, 0.99),
                "image_p50_ms": percentile(images, 0.50),
                "image_p99_ms": percentile(images, 0.99),
                "errors": float(errors),
                "unanswered": float(run.unanswered),
                "unfinished": float(left),
                "bot_rss_mb": bot_rss,
                "bot_peak_rss_mb": max(peak_bot, rss_mb(bot.pid)[1]),
                "render_workers": float(len(workers)),
                "worker_rss_mb": worker_rss,
                "worker_peak_rss_mb": peak_workers,
            }
        finally:
            await bot.kill()
            await store.close()
