"""Crash safety under load: the real bot process, killed with SIGKILL again and again.

:func:`campaign` starts the local fake Discord and the real bot (``python -m bot run`` through
:mod:`tests.reliability.botwrap`, which adds kill points), deals a game of every registered game
(every table size) in many channels, and lets members play them all at once through the fake —
"My hand" and a picker, or ``/move`` with an autocomplete value — while the bot is killed at
random moments and at chosen ones (mid-move, mid-commit, mid-render, during the timer sweep;
turn timers and reaction windows are short so the sweep is busy) and restarted on the same
database. Afterwards every game is checked against the replay of its log and against the moves
Discord was told succeeded:

* every acknowledged move is in the log exactly once, by its presser's seat (none lost);
* every game's stored state is the replay of its deal and log (none applied twice, no half
  move); the version counts the log;
* every running game is resumable: ``/table`` posts it and its member can move;
* every table message ever posted still answers a press of its buttons (a move, or a private
  sentence such as "that was offered before the latest move"), never silence or an apology;
* the bot logged no error.

Each failed check is a *discrepancy*; the report counts moves, kills (by moment) and
discrepancies.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.games import BUILTIN, all_bundles
from bot.store import open_store
from bot.store.base import GuildSettings, Store, StoredGame
from bot.tables import Tables
from tests.discord.backend import EPHEMERAL, GUILD_ID, JSON, CallbackType, walk_components
from tests.discord.fake_discord import FakeDiscord
from tests.discord.latency import _add_channels
from tests.e2e.harness import TOKEN, BotProcess
from tests.reliability.driving import Seating, apologised, seatings
from tests.reliability.history import History

REPLY = 15.0  # seconds to wait for one answer (a restart may be in between)
KILLS_WHILE_STARTING = 5  # restarts a kill point may cut short in a row before we give up
KILL_POINTS = "move:0.004,commit:0.004,render:0.003,sweep:0.05"


@dataclass
class Report:
    store: str
    kills: Counter[str] = field(default_factory=Counter)
    kills_while_starting: int = 0  # kill points that fired before a restart was ready
    acknowledged: int = 0  # member moves Discord was told succeeded
    stored_moves: int = 0  # every move in the logs (computers', timeouts' included)
    games: int = 0
    interactions: int = 0
    buttons_pressed: int = 0
    discrepancies: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def line(self) -> str:
        kills = sum(self.kills.values())
        moments = ", ".join(f"{k} {v}" for k, v in sorted(self.kills.items()))
        return (
            f"crash[{self.store}]: {kills} kills ({moments}), {self.kills_while_starting} more "
            f"while starting; {self.acknowledged} acknowledged "
            f"member moves, {self.stored_moves} stored moves in {self.games} games; "
            f"{self.interactions} interactions, {self.buttons_pressed} old buttons pressed; "
            f"{len(self.discrepancies)} discrepancies; {self.seconds:.0f} s"
        )


def extra_games() -> str:
    """Modules of registered games the bot process would not know by itself."""
    import sys

    found = []
    for game in all_bundles():
        for name, module in list(sys.modules.items()):
            if getattr(module, "BUNDLE", None) is game and name not in BUILTIN:
                found.append(name)
    return ",".join(sorted(set(found)))


@dataclass
class Ack:
    interaction_id: int
    channel_id: int
    user_id: int


class Campaign:
    def __init__(
        self, fake: FakeDiscord, bot: BotProcess, store: Store, rng: random.Random
    ) -> None:
        self.fake, self.bot, self.store, self.rng = fake, bot, store, rng
        self.tables = Tables(store)
        self.stop = asyncio.Event()
        self.acks: list[Ack] = []
        self.report: Report | None = None
        self.interactions = 0
        self.layouts: dict[int, Seating] = {}

    async def send(self, payload: JSON, *, followups: int = 0) -> Any:
        """Send one interaction; its result, or None when the bot died before answering."""
        self.interactions += 1
        try:
            interaction_id = await self.fake.send_interaction(payload, timeout=60)
            return await self.fake.wait_for_response(
                interaction_id, timeout=REPLY, followups=followups
            )
        except TimeoutError:
            return None

    def table_message(self, channel_id: int) -> JSON | None:
        newest = None
        for message in self.fake.backend.messages.values():
            if (
                int(message["channel_id"]) == channel_id
                and not int(message.get("flags") or 0) & EPHEMERAL
                and any(a.get("filename") == "table.png" for a in message.get("attachments") or [])
                and (newest is None or int(message["id"]) > int(newest["id"]))
            ):
                newest = message
        return newest

    async def deal(self, channel_id: int, seed: int) -> None:
        seating = self.layouts[channel_id]
        await self.tables.start(
            channel_id=channel_id,
            guild_id=GUILD_ID,
            game_key=seating.key,
            seats=seating.seats(),
            seed=seed,
        )
        await self.send(
            self.fake.factory.slash("table", {}, user_id=seating.members[0], channel_id=channel_id),
            followups=1,
        )

    async def play(self, channel_id: int, rng: random.Random) -> None:
        """Members of one channel's game make its decisions until told to stop."""
        dealt = 0
        while not self.stop.is_set():
            stored = await self.store.active_game(channel_id)
            if stored is None:
                dealt += 1
                await self.deal(channel_id, seed=channel_id % 1000 + dealt * 7919)
                continue
            here = self.tables.position(stored)
            due = [stored.seats[s].user_id for s in here.acting]
            members = [u for u in due if u is not None]
            if not members:
                await asyncio.sleep(0.3)  # computers, or the sweep, are due
                continue
            user = rng.choice(members)
            pause = rng.choice([0, 0, 0, 0.2, 0.5, 1.0, 7.0])  # 7 s outlasts the turn timer
            await asyncio.sleep(pause)
            if rng.random() < 0.5:
                await self.by_command(channel_id, user, rng)
            else:
                await self.by_button(channel_id, user, rng)

    async def by_command(self, channel_id: int, user: int, rng: random.Random) -> None:
        factory = self.fake.factory
        offered = await self.send(
            factory.autocomplete("move", "action", "", user_id=user, channel_id=channel_id)
        )
        if offered is None or not offered.choices:
            return
        value = rng.choice(offered.choices)["value"]
        payload = factory.slash("move", {"action": value}, user_id=user, channel_id=channel_id)
        result = await self.send(payload)
        if result is None:
            return
        done = (
            result.callback_type == CallbackType.DEFERRED_CHANNEL_MESSAGE and not result.ephemeral
        )
        if done or (result.content or "").startswith("Done."):
            self.acks.append(Ack(int(payload["id"]), channel_id, user))

    async def by_button(self, channel_id: int, user: int, rng: random.Random) -> None:
        table = self.table_message(channel_id)
        if table is None:
            return
        ids = [
            str(c["custom_id"])
            for c in walk_components(table.get("components") or [])
            if "custom_id" in c
        ]
        source: JSON | None = table
        hand = next((c for c in ids if c.startswith("jn:h:")), None)
        if hand is not None:
            opened = await self.send(
                self.fake.factory.component(table, hand, user_id=user), followups=1
            )
            source = opened.followup_messages[0] if opened and opened.followup_messages else None
        if source is None:
            return
        pickers = [
            c
            for c in walk_components(source.get("components") or [])
            if str(c.get("custom_id", "")).startswith(("jn:p", "jn:s"))
        ]
        if not pickers:
            return
        picked = rng.choice(pickers)
        values = None
        if picked.get("type") == 3:
            options = [str(o["value"]) for o in picked.get("options") or []]
            low = int(picked.get("min_values") or 1)
            values = rng.sample(options, rng.randint(low, max(low, min(len(options), 3))))
        payload = self.fake.factory.component(
            source, picked["custom_id"], values=values, user_id=user
        )
        result = await self.send(payload)
        if result is not None and result.callback_type == CallbackType.DEFERRED_UPDATE_MESSAGE:
            self.acks.append(Ack(int(payload["id"]), channel_id, user))

    async def kill_again_and_again(self, kills: int, report: Report, kill_log: Path) -> None:
        """SIGKILL the bot (or let a kill point do it) ``kills`` times, restarting it each time."""
        for _ in range(kills):
            process = self.bot.process
            assert process is not None
            try:
                await asyncio.wait_for(process.wait(), timeout=self.rng.uniform(0.5, 3.0))
                lines = kill_log.read_text().split() if kill_log.exists() else []
                report.kills[lines[-1] if lines else "itself"] += 1
                kill_log.write_text("")
            except TimeoutError:
                await self.bot.kill()
                report.kills["random moment"] += 1
            await self.start_despite_kill_points(report, kill_log)

    async def start_despite_kill_points(self, report: Report, kill_log: Path) -> None:
        """Start the bot again. A kill point may fire while it resumes its games, before it is
        ready (a slow machine makes that likelier): that is one more crash survived, counted
        as such, and the bot is started once more."""
        for _ in range(KILLS_WHILE_STARTING):
            try:
                await self.bot.start(timeout=90)
                return
            except RuntimeError:
                lines = kill_log.read_text().split() if kill_log.exists() else []
                if not lines:
                    raise  # it died of something other than a kill point
                report.kills_while_starting += 1
                kill_log.write_text("")
        await self.bot.start(timeout=90)


async def _short_deadlines_swept(store: Store, within: float = 60.0) -> None:
    """Wait (up to a minute) until no game in play has a deadline due in ``within`` seconds:
    the short timers of the campaign are all swept, and only the checks' hour-long ones are
    left, so no game moves while ``verify`` reads it."""
    for _ in range(120):
        soon = time.time() + within
        if not any(
            g.turn_deadline is not None and g.turn_deadline < soon
            for g in await store.active_games()
        ):
            return
        await asyncio.sleep(0.5)


async def replay_problems(store: Store, game_id: int) -> tuple[StoredGame | None, list[str]]:
    """A game read back against its move log: the stored game (None when its log does not
    replay) and what disagrees (the version, the state)."""
    history = History(store, game_id)
    try:
        states = await history.update()
    except Exception as error:  # a log that does not replay is a discrepancy
        return None, [f"game {game_id}: its log does not replay ({error})"]
    stored = await store.get_game(game_id)
    assert stored is not None and history.game is not None
    problems: list[str] = []
    extra = 1 if stored.status == "aborted" else 0
    if stored.version != len(states) - 1 + extra:
        problems.append(f"game {game_id}: version {stored.version}, log {len(states) - 1}")
    if dict(stored.state) != history.game.to_dict(states[-1]):
        problems.append(f"game {game_id}: the stored state is not the replay of its log")
    return stored, problems


async def verify(campaign: Campaign, report: Report, *, buttons: int) -> None:
    """Every check of the module docstring; failures become discrepancies."""
    store, fake, found = campaign.store, campaign.fake, report.discrepancies
    games: dict[int, Any] = {}
    logged: dict[str, tuple[int, int, int]] = {}
    for channel_id in campaign.layouts:
        ids = {g.id for g in await store.active_games() if g.channel_id == channel_id}
        games.update({i: channel_id for i in ids})
    for move_owner in await _all_games(store):
        games.setdefault(move_owner, 0)
    for game_id in sorted(games):
        stored, problems = await replay_problems(store, game_id)
        found.extend(problems)
        if stored is None:
            continue
        for move in await store.moves(game_id):
            report.stored_moves += 1
            if move.interaction_id is not None:
                seat = stored.seats[move.seat].user_id
                logged[move.interaction_id] = (game_id, stored.channel_id, seat or 0)
    report.games = len(games)
    for ack in campaign.acks:
        where = logged.get(str(ack.interaction_id))
        if where is None:
            found.append(f"acknowledged move {ack.interaction_id} in {ack.channel_id} was lost")
        elif where[1:] != (ack.channel_id, ack.user_id):
            found.append(f"acknowledged move {ack.interaction_id} stored for another seat")
    report.acknowledged = len(campaign.acks)
    # Every running game is resumable: its table is posted and a member can move.
    for channel_id, seating in campaign.layouts.items():
        stored = await store.active_game(channel_id)
        if stored is None:
            continue
        table = await campaign.send(
            fake.factory.slash("table", {}, user_id=seating.members[0], channel_id=channel_id),
            followups=1,
        )
        files = [] if table is None else [f.filename for r in table.followups for f in r.files]
        if "table.png" not in files:
            found.append(f"channel {channel_id}: /table did not post the game")
            continue
        stored = await store.active_game(channel_id)
        due = [] if stored is None else campaign.tables.position(stored).acting
        members = [stored.seats[s].user_id for s in due] if stored is not None else []
        user = next((u for u in members if u is not None), None)
        if user is not None:
            before = len(campaign.acks)
            await campaign.by_command(channel_id, user, random.Random(channel_id))
            if len(campaign.acks) == before:
                found.append(f"channel {channel_id}: the member due could not move")
    # Every table message's buttons still answer.
    messages = [
        m
        for m in fake.backend.messages.values()
        if not int(m.get("flags") or 0) & EPHEMERAL
        and any(a.get("filename") == "table.png" for a in m.get("attachments") or [])
        and m.get("components")
    ]
    rng = random.Random(len(messages))
    for message in rng.sample(messages, min(buttons, len(messages))):
        custom_ids = [
            c["custom_id"] for c in walk_components(message["components"]) if "custom_id" in c
        ]
        layout = campaign.layouts.get(int(message["channel_id"]))
        if layout is None or not custom_ids:
            continue
        pressed = await campaign.send(
            fake.factory.component(message, rng.choice(custom_ids), user_id=layout.members[0]),
        )
        report.buttons_pressed += 1
        if pressed is None or pressed.callback is None:
            found.append(f"a button on table message {message['id']} did not answer")
        elif any(apologised(r.content or "") for r in pressed.responses):
            found.append(f"a button on table message {message['id']} got an apology")
    for line in campaign.bot.errors_logged():
        found.append(f"the bot logged: {line[:300]}")


async def _all_games(store: Store) -> list[int]:
    """Every game id in the store (running or ended)."""
    ids: list[int] = []
    game_id, misses = 1, 0
    while misses < 50:
        if await store.get_game(game_id) is None:
            misses += 1
        else:
            ids.append(game_id)
            misses = 0
        game_id += 1
    return ids


async def campaign(
    folder: Path,
    *,
    db_url: str | None,
    kills: int,
    channels: int,
    seed: int = 1,
    buttons: int = 40,
    kill_points: str = KILL_POINTS,
    sabotage: str = "",
) -> Report:
    """Play ``channels`` games of every game while killing the bot ``kills`` times; verify."""
    started = time.monotonic()
    report = Report(store="postgresql" if db_url else "sqlite")
    url = db_url or f"sqlite:///{folder / 'crash.db'}"
    kill_log = folder / "kills.log"
    async with FakeDiscord(token=TOKEN, patch_discord=False) as fake:
        channel_ids = _add_channels(fake, channels, "crash")
        store = open_store(url)
        await store.open()
        try:
            await store.set_guild_settings(GuildSettings(GUILD_ID, 6, "computer", 5))
            bot = BotProcess(
                fake,
                folder / "crash.db",
                folder / "bot.log",
                log_level="INFO",
                db_url=db_url,
                module="tests.reliability.botwrap",
                extra_env={
                    "JUNCTION_EXTRA_GAMES": extra_games(),
                    "JUNCTION_KILL_POINTS": kill_points,
                    "JUNCTION_KILL_LOG": str(kill_log),
                    "JUNCTION_KILL_SEED": str(seed),
                    "JUNCTION_SWEEP_SECONDS": "1",
                    "JUNCTION_SABOTAGE": sabotage,
                },
            )
            run = Campaign(fake, bot, store, random.Random(seed))
            layouts = seatings()
            run.layouts = {c: layouts[i % len(layouts)] for i, c in enumerate(channel_ids)}
            for channel_id in channel_ids:
                seating = run.layouts[channel_id]
                await run.tables.start(
                    channel_id=channel_id,
                    guild_id=GUILD_ID,
                    game_key=seating.key,
                    seats=seating.seats(),
                    seed=channel_id % 100_000,
                )
            # The first start resumes the games dealt above, and its timer sweep may reach a
            # kill point before the bot is ready: a crash like any other (it failed a run once).
            await run.start_despite_kill_points(report, kill_log)
            try:
                players = [
                    asyncio.create_task(run.play(c, random.Random(f"{seed}:{c}")))
                    for c in channel_ids
                ]
                await run.kill_again_and_again(kills, report, kill_log)
                await asyncio.sleep(2.0)
                run.stop.set()
                await asyncio.wait(players, timeout=3.0)
                for task in players:
                    if task.done() and task.exception() is not None:
                        report.discrepancies.append(f"a player failed: {task.exception()!r}")
                    task.cancel()
                # Kill points off for the checks: a last clean start on the same database.
                # Timers long for the checks, so no deadline moves a game while it is examined;
                # deadlines armed before this restart are swept first. The clock stops while
                # the bot is down, so those get the restart's time back: wait for them.
                await store.set_guild_settings(GuildSettings(GUILD_ID, None, "computer", 3600))
                bot.extra_env["JUNCTION_KILL_POINTS"] = ""
                bot.extra_env["JUNCTION_SABOTAGE"] = ""
                await bot.restart(timeout=90)
                await asyncio.sleep(7.0)
                await _short_deadlines_swept(store)
                await verify(run, report, buttons=buttons)
                report.interactions = run.interactions
            finally:
                await bot.kill()
        finally:
            await store.close()
    report.seconds = time.monotonic() - started
    return report
