"""How long players wait: the real bot process measured through the local fake Discord.

:func:`measure_latency` starts a :class:`~tests.discord.fake_discord.FakeDiscord` in this
process and the real bot (``python -m bot run``, see :mod:`tests.e2e.harness`) as a child
process, then plays one game against the computer per channel, every channel at once. For each
interaction it times, on the fake's side of the wire:

* **first response**: the interaction is dispatched on the gateway → the bot's interaction
  callback arrives (what Discord's 3-second rule is about);
* **image**: the interaction is dispatched → the follow-up carrying ``table.png`` arrives
  (the table a player is waiting to see; only interactions that post a table).

:func:`measure_memory` fills a SQLite database with stored games, starts the bot on it, plays a
few moves and reads the bot process's resident memory from ``/proc``.

Timings are figures for ``junction bench --discord`` (:mod:`bot.bench_discord`); no test asserts
them. Both the fake and the driving players share this process's event loop, so on a small
machine the figures include some of the fake's own work (multipart parsing, JSON snapshots).
"""

from __future__ import annotations

import asyncio
import math
import os
import random
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.store.base import SeatRecord
from bot.store.sqlite import SqliteStore
from bot.tables import Tables
from bot.timing import percentile
from tests.discord.backend import (
    ALICE_ID,
    CATEGORY_ID,
    GUILD_ID,
    JSON,
    PLAYERS_ROLE_ID,
    FakeBackend,
    InteractionResult,
    member_payload,
    text_channel_payload,
    user_payload,
)
from tests.discord.fake_discord import FakeDiscord
from tests.e2e.harness import TOKEN, BotProcess

REPLY_TIMEOUT = 60.0  # seconds: generous, a loaded 2-core machine must not fail the bench
_CALLBACK = re.compile(r"/interactions/(?P<id>\d+)/(?P<token>[^/]+)/callback")
_WEBHOOK = re.compile(r"/webhooks/\d+/(?P<token>[^/]+)")
_MOVE_ID = re.compile(r"jn:p:\d+:\d+:h:\d+")


@dataclass
class Stopwatch:
    """Arrival times at the fake of callbacks and table images, by interaction."""

    sent: dict[int, float] = field(default_factory=dict)
    kind: dict[int, str] = field(default_factory=dict)
    token_of: dict[int, str] = field(default_factory=dict)
    callback_at: dict[int, float] = field(default_factory=dict)
    image_at: dict[str, float] = field(default_factory=dict)

    def attach(self, backend: FakeBackend) -> None:
        """Wrap ``backend.handle`` to note when callbacks and table uploads arrive."""
        handle = backend.handle

        def timed(method: str, path: str, **kwargs: Any) -> tuple[int, Any]:
            now = time.perf_counter()
            if method.upper() == "POST":
                bare = path.split("?", 1)[0]
                if found := _CALLBACK.fullmatch(bare):
                    self.callback_at.setdefault(int(found["id"]), now)
                elif (found := _WEBHOOK.fullmatch(bare)) and any(
                    f.filename == "table.png" for f in kwargs.get("files") or []
                ):
                    self.image_at.setdefault(found["token"], now)
            return handle(method, path, **kwargs)

        backend.handle = timed  # type: ignore[method-assign]

    def clear(self) -> None:
        """Forget everything timed so far (after a warm-up)."""
        for timed in (self.sent, self.kind, self.token_of, self.callback_at, self.image_at):
            timed.clear()

    def first_responses_ms(self, kind: str | None = None) -> list[float]:
        """Milliseconds from each interaction (of ``kind``, or all) to its callback."""
        done = self.callback_at
        return [
            (done[i] - t0) * 1000
            for i, t0 in self.sent.items()
            if i in done and kind in (None, self.kind[i])
        ]

    def images_ms(self, kind: str | None = None) -> list[float]:
        """Milliseconds from each interaction that posted a table to the table's upload."""
        return [
            (self.image_at[self.token_of[i]] - t0) * 1000
            for i, t0 in self.sent.items()
            if self.token_of[i] in self.image_at and kind in (None, self.kind[i])
        ]

    def summary(self) -> dict[str, float]:
        """p50/p99 of both waits over every interaction, then the same per kind."""
        first, images = self.first_responses_ms(), self.images_ms()
        figures = {
            "first_response_p50_ms": percentile(first, 0.50),
            "first_response_p99_ms": percentile(first, 0.99),
            "image_p50_ms": percentile(images, 0.50),
            "image_p99_ms": percentile(images, 0.99),
            "interactions": float(len(first)),
            "images": float(len(images)),
        }
        for kind in sorted(set(self.kind.values())):
            first = self.first_responses_ms(kind)
            figures[f"{kind}_first_response_p50_ms"] = percentile(first, 0.50)
            figures[f"{kind}_first_response_p99_ms"] = percentile(first, 0.99)
            if images := self.images_ms(kind):
                figures[f"{kind}_image_p50_ms"] = percentile(images, 0.50)
                figures[f"{kind}_image_p99_ms"] = percentile(images, 0.99)
        return figures


def machine_cpu_seconds() -> float:
    """CPU time every process of the machine has used since boot; NaN without ``/proc``."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    except OSError:
        return math.nan
    user, nice, system, _idle, _iowait, irq, softirq = (int(f) for f in fields[:7])
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def _hand_buttons(message: JSON) -> list[str]:
    """The move buttons of a hand message."""
    return [
        c["custom_id"]
        for row in message.get("components") or []
        for c in row.get("components") or []
        if _MOVE_ID.fullmatch(str(c.get("custom_id", "")))
    ]


class Player:
    """Alice at one channel's table, playing the computer through the fake."""

    def __init__(
        self,
        fake: FakeDiscord,
        watch: Stopwatch,
        channel_id: int,
        rng: random.Random,
        think_s: float = 0.0,
        level: str = "normal",
        user_id: int | None = None,
    ) -> None:
        self.fake = fake
        self.watch = watch
        self.channel_id = channel_id
        self.rng = rng
        self.think_s = think_s
        self.level = level
        self.hand_message_id: int | None = None
        if user_id is None:
            # A member of their own at each table: one member at fifty is held to the games
            # at once a member may play (cogs/limits.py), and each /play past the tenth was
            # refused in its first answer, so the table this waits for never came.
            user_id = fake.backend.ids.next()
            fake.world.members.append(
                member_payload(user_payload(user_id, f"player-{user_id}"), roles=[PLAYERS_ROLE_ID])
            )
        self.user_id = user_id

    async def send(
        self, kind: str, payload: JSON, *, followups: int = 0, edits: int = 0
    ) -> InteractionResult:
        """Send one interaction (after the thinking pause) and wait for its answers."""
        if self.think_s:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think_s)
        interaction_id = int(payload["id"])
        self.watch.kind[interaction_id] = kind
        self.watch.token_of[interaction_id] = str(payload["token"])
        self.watch.sent[interaction_id] = time.perf_counter()
        await self.fake.send_interaction(payload, timeout=REPLY_TIMEOUT)
        return await self.fake.wait_for_response(
            interaction_id, timeout=REPLY_TIMEOUT, followups=followups, edits=edits
        )

    async def table(self, command: str, options: JSON) -> InteractionResult:
        """``/play`` or ``/table``: the table is posted as a follow-up."""
        payload = self.fake.factory.slash(
            command, options, channel_id=self.channel_id, user_id=self.user_id
        )
        return await self.send(command, payload, followups=1)

    async def open_hand(self, table: InteractionResult) -> None:
        """Press "My hand" under a posted table."""
        posted = table.followups[0]
        button = next(c for c in posted.custom_ids if c.startswith("jn:h:"))
        assert posted.message_id is not None
        hand = await self.send(
            "hand",
            self.fake.factory.component(posted.message_id, button, user_id=self.user_id),
            followups=1,
        )
        if hand.message is None or not hand.ephemeral:
            raise RuntimeError(f"no private hand came back: {hand.content!r}")
        self.hand_message_id = int(hand.message["id"])

    async def move(self) -> bool:
        """Press a move in the open hand (a play if there is one); False when there is none."""
        assert self.hand_message_id is not None
        message = self.fake.messages[self.hand_message_id]
        buttons = _hand_buttons(message)
        if not buttons:
            return False  # the game is over
        plays = [b for b in buttons if ":play+" in b]
        button = self.rng.choice(plays or buttons)
        # The table is posted, then the hand is refreshed in place (an edit) for the next move.
        await self.send(
            "move",
            self.fake.factory.component(message, button, user_id=self.user_id),
            followups=1,
            edits=1,
        )
        return True

    async def play(self, moves: int) -> int:
        """``/play``, "My hand", then up to ``moves`` moves; returns the moves made."""
        await self.open_hand(await self.table("play", {"game": "mille", "level": self.level}))
        made = 0
        while made < moves and await self.move():
            made += 1
        return made


def _add_channels(fake: FakeDiscord, count: int, prefix: str) -> list[int]:
    """New text channels in the fake's guild (before the bot connects and caches the guild)."""
    ids = []
    for index in range(count):
        channel_id = fake.backend.ids.next()
        fake.world.channels.append(
            text_channel_payload(
                channel_id,
                GUILD_ID,
                f"{prefix}-{index}",
                position=10 + index,
                parent_id=CATEGORY_ID,
            )
        )
        ids.append(channel_id)
    return ids


async def _with_bot(
    db_path: str,
    prepare: Callable[[FakeDiscord], Awaitable[Any]],
    run: Callable[[FakeDiscord, BotProcess, Any], Awaitable[dict[str, float]]],
) -> dict[str, float]:
    """A fake and the bot process on ``db_path``: ``prepare`` (bot not started yet), ``run``."""
    log_path = Path(f"{db_path}.bot.log")
    async with FakeDiscord(token=TOKEN, patch_discord=False) as fake:
        prepared = await prepare(fake)
        bot = BotProcess(fake, db_path, log_path, log_level="WARNING")
        try:
            await bot.start(timeout=60)
            return await run(fake, bot, prepared)
        except Exception as exc:
            exc.add_note(f"the bot's log ends with:\n{bot.log_tail()}")
            raise
        finally:
            await bot.kill()


async def measure_latency(
    channels: int,
    moves_per_channel: int,
    *,
    db_path: str,
    think_s: float = 0.0,
    seed: int = 1,
    expert_channels: int = 0,
) -> dict[str, float]:
    """Play ``channels`` games against the computer at once; p50/p99 of both waits, in ms.

    One game in another channel warms the bot up first and is not timed. ``think_s`` is a
    player's mean pause before each interaction (0: press as soon as the previous answer
    arrived, the heaviest load ``channels`` players can make). ``expert_channels`` more
    channels play the ``expert`` computer meanwhile, untimed, answering at once: an expert is
    searching nearly all the time, which must not slow the timed channels' replies.
    """

    async def prepare(fake: FakeDiscord) -> tuple[list[int], Stopwatch]:
        watch = Stopwatch()
        watch.attach(fake.backend)
        return _add_channels(fake, channels + 1 + expert_channels, "latency"), watch

    async def run(
        fake: FakeDiscord, bot: BotProcess, prepared: tuple[list[int], Stopwatch]
    ) -> dict[str, float]:
        (warm_up, *channel_ids), watch = prepared
        expert_ids = channel_ids[channels:]
        channel_ids = channel_ids[:channels]
        rng = random.Random(seed)
        # A bot that has been up a while has its fonts and card faces cached: warm it up once.
        await Player(fake, watch, warm_up, random.Random(seed)).play(1)
        watch.clear()
        players = [
            Player(fake, watch, channel_id, random.Random(rng.random()), think_s)
            for channel_id in channel_ids
        ]
        started, bot_before = time.perf_counter(), bot.cpu_seconds()
        own_before, machine_before = time.process_time(), machine_cpu_seconds()
        # The expert channels' interactions go to a stopwatch of their own: not in the figures.
        untimed = Stopwatch()
        searching = [
            asyncio.create_task(
                Player(fake, untimed, channel_id, random.Random(seed), level="expert").play(10**6)
            )
            for channel_id in expert_ids
        ]
        made = await asyncio.gather(*(p.play(moves_per_channel) for p in players))
        for task in searching:
            task.cancel()
        await asyncio.gather(*searching, return_exceptions=True)
        elapsed, cpu_used = time.perf_counter() - started, bot.cpu_seconds() - bot_before
        own_used = time.process_time() - own_before
        others = machine_cpu_seconds() - machine_before - cpu_used - own_used
        if fake.backend.unhandled_requests:
            raise RuntimeError(f"the bot made requests the fake cannot serve: {bot.log_tail()}")
        figures = watch.summary()
        return {
            **figures,
            "moves": float(sum(made)),
            "moves_per_s": sum(made) / elapsed if elapsed > 0 else math.nan,
            # The bot's own CPU per interaction: unlike the waits, other load hardly moves it.
            "bot_cpu_ms_per_interaction": cpu_used * 1000 / max(1.0, figures["interactions"]),
            # Cores other processes kept busy meanwhile: on a shared machine the waits grow.
            "other_processes_cores": max(0.0, others) / elapsed if elapsed > 0 else math.nan,
        }

    return await _with_bot(db_path, prepare, run)


def _rss_mb(pid: int) -> dict[str, float]:
    """Resident (VmRSS) and peak resident (VmHWM) memory of a process, in MiB."""
    status = Path(f"/proc/{pid}/status").read_text()
    found = {}
    for key in ("VmRSS", "VmHWM"):
        match = re.search(rf"^{key}:\s+(\d+) kB", status, re.MULTILINE)
        if match is None:
            raise RuntimeError(f"/proc/{pid}/status has no {key} (is this Linux?)")
        found[key] = int(match.group(1)) / 1024
    return {"rss_mb": found["VmRSS"], "peak_rss_mb": found["VmHWM"]}


async def store_games(
    db_path: str, channel_ids: Sequence[int], *, moves: int = 6, seed: int = 1
) -> None:
    """Start a game against the computer in each channel and play up to ``moves`` moves."""
    rng = random.Random(seed)
    store = SqliteStore(db_path)
    await store.open()
    try:
        tables = Tables(store)
        seats = [
            SeatRecord(0, "alice", user_id=ALICE_ID),
            SeatRecord(1, "Computer (normal)", policy="normal"),
        ]
        for channel_id in channel_ids:
            await tables.start(
                channel_id=channel_id,
                guild_id=GUILD_ID,
                game_key="mille",
                seats=seats,
                seed=rng.randrange(2**31),
            )
            for _ in range(moves):
                stored = await tables.current(channel_id)
                if stored.status != "active":
                    break
                choices = tables.hand(stored, ALICE_ID)[1]
                if not choices:
                    break
                plays = [c for c in choices if c.notation.startswith("play")]
                choice = rng.choice(plays or choices)
                await tables.move(channel_id=channel_id, user_id=ALICE_ID, action=choice.notation)
    finally:
        await store.close()


async def measure_memory(
    games: int,
    *,
    db_path: str,
    stored_moves: int = 6,
    played_channels: int = 5,
    moves: int = 5,
) -> dict[str, float]:
    """Resident memory of the bot process serving a database of ``games`` stored games.

    The games (against the computer, ``stored_moves`` moves each) are written through the seam
    before the bot starts; the bot then posts the table in ``played_channels`` of them
    (``/table``) and ``moves`` moves are played in each from "My hand", before
    ``/proc/<pid>/status`` is read. Only the played channels exist in the fake guild.
    """
    if games < played_channels:
        raise ValueError("games must be at least played_channels")

    async def prepare(fake: FakeDiscord) -> list[int]:
        playable = _add_channels(fake, played_channels, "stored")
        others = [fake.backend.ids.next() for _ in range(games - played_channels)]
        await store_games(db_path, [*playable, *others], moves=stored_moves)
        return playable

    async def run(fake: FakeDiscord, bot: BotProcess, playable: list[int]) -> dict[str, float]:
        at_start = _rss_mb(bot.pid)
        watch = Stopwatch()
        rng = random.Random(7)
        for channel_id in playable:
            # Alice: the stored games seat her (store_games).
            player = Player(fake, watch, channel_id, random.Random(rng.random()), user_id=ALICE_ID)
            await player.open_hand(await player.table("table", {}))
            for _ in range(moves):
                if not await player.move():
                    break
        after = _rss_mb(bot.pid)
        return {
            "rss_mb": after["rss_mb"],
            "peak_rss_mb": after["peak_rss_mb"],
            "rss_at_start_mb": at_start["rss_mb"],
            "games": float(games),
        }

    return await _with_bot(db_path, prepare, run)
