"""The timers' clock stops while a shard's connection to Discord is lost.

The process stays up, but Discord is out of reach (an outage, a network cut): members cannot
press anything, so their turns and reaction windows must not run out meanwhile. The local fake
Discord has no gateway, so the tests drive the seam the sweep asks (``Timers.connected``), or
the websocket it reads by default. Before, the sweep went on through the outage: a member with
``on_timeout: forfeit`` forfeited a game they could not play on, a reaction window closed on
them, and a direct message's game went on while shard 0, which carries its presses, was down.
"""

from __future__ import annotations

import asyncio
import errno
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from discord.gateway import DiscordWebSocket

from bot.client import make_bot
from bot.store.base import GuildSettings, Resumed, SeatRecord, Shards, StoredGame
from bot.tables import COMPUTER_GRACE
from cogs.timers import BLIP_SECONDS, Timers
from tests.cogs.conftest import bot_settings, running_bot
from tests.cogs.helpers import (
    DEADLINE_SLACK,
    MILLE_DECK,
    current_game,
    every_word_posted,
    stacked_mille,
    sweep_after,
    sweep_at,
)
from tests.cogs.test_timers_downtime import HOUR, TURN, bob_s_window, window_kept
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    GENERAL_CHANNEL_ID,
    GUILD_ID,
)
from tests.discord.fake_discord import FakeDiscord
from tests.discord.payloads import InteractionDriver
from tests.test_fake_discord import make_bot as throwaway_bot

OTHER_GUILD_ID = GUILD_ID + (1 << 22)
"""A server on shard 1 of 2 (``GUILD_ID`` is on shard 0)."""


def _timers(driver: InteractionDriver) -> Any:
    """The bot's Timers cog (an instance of the class its extension loaded, not of
    ``cogs.timers.Timers`` as imported here)."""
    cog = running_bot(driver).get_cog("Timers")
    assert cog is not None
    return cog


def _cut_off(driver: InteractionDriver, *shards: int) -> None:
    """From now on, ``shards`` are cut off from Discord (none: every shard is connected)."""
    _timers(driver).connected = lambda shard: shard not in shards


def _two_shards(driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch) -> None:
    """This process runs both shards of two (``AutoShardedBot``, one process)."""
    bot = running_bot(driver)
    monkeypatch.setattr(bot, "shard_count", 2)
    monkeypatch.setattr(bot, "shard_ids", [0, 1], raising=False)


async def _forfeit_timer(driver: InteractionDriver) -> StoredGame:
    """Alice against Bob at Mille Bornes, a one-minute turn timer whose runners-out forfeit;
    Alice's turn, reminded at 30 s, out at 60 s."""
    await running_bot(driver).store.set_guild_settings(GuildSettings(GUILD_ID, TURN, "forfeit"))
    game = (await stacked_mille(driver)).game
    assert game.turn_deadline is not None
    return game


async def _lost_after_ten_seconds(driver: InteractionDriver) -> float:
    """Alice's forfeit timer runs 10 s, swept, then Discord goes out of reach: that time."""
    await _forfeit_timer(driver)
    await sweep_after(driver, 10)
    _cut_off(driver, 0)
    return running_bot(driver).tables.clock()


async def test_a_turn_does_not_run_out_while_discord_is_out_of_reach(
    driver: InteractionDriver,
) -> None:
    """Discord goes out of reach 10 s into Alice's minute, for an hour, the sweep running on:
    back, she has not forfeited and has her 50 s left."""
    game = await _forfeit_timer(driver)
    await sweep_after(driver, 10)
    _cut_off(driver, 0)
    lost = running_bot(driver).tables.clock()
    await sweep_at(driver, lost + TURN)
    await sweep_at(driver, lost + HOUR - 1)
    _cut_off(driver)
    await sweep_at(driver, lost + HOUR)
    now = await current_game(driver)
    assert now.version == game.version, "nothing was played for Alice"
    assert now.turn_deadline == pytest.approx(lost + HOUR + 50, abs=DEADLINE_SLACK)
    assert "ran out of time" not in every_word_posted(driver)


async def test_the_time_left_runs_out_as_any_turn_once_discord_is_back(
    driver: InteractionDriver,
) -> None:
    """Back after the hour with 50 s left, Alice lets them run out: she forfeits then."""
    lost = await _lost_after_ten_seconds(driver)
    await sweep_at(driver, lost + HOUR / 2)
    _cut_off(driver)
    await sweep_at(driver, lost + HOUR)
    await sweep_at(driver, lost + HOUR + 49)
    assert "ran out of time" not in every_word_posted(driver)
    await sweep_at(driver, lost + HOUR + 51)
    assert "Alice ran out of time and forfeits the game." in every_word_posted(driver)


async def test_the_outage_is_given_back_once(driver: InteractionDriver) -> None:
    """The sweeps after the one that gave the hour back give nothing more."""
    lost = await _lost_after_ten_seconds(driver)
    await sweep_at(driver, lost + HOUR / 2)
    _cut_off(driver)
    await sweep_at(driver, lost + HOUR)
    await sweep_at(driver, lost + HOUR + 5)
    await sweep_at(driver, lost + HOUR + 10)
    assert (await current_game(driver)).turn_deadline == pytest.approx(
        lost + HOUR + 50, abs=DEADLINE_SLACK
    )


async def test_a_reaction_window_does_not_close_while_discord_is_out_of_reach(
    driver: InteractionDriver,
) -> None:
    """Bob may answer Alice's Flat Tire for 20 s; Discord goes out of reach 5 s in, for an
    hour: the bot does not answer "no reaction" for him, and his 15 s are left when it is
    back."""
    window = await bob_s_window(driver)
    _cut_off(driver, 0)
    lost = running_bot(driver).tables.clock()
    await sweep_at(driver, lost + HOUR - 1)
    _cut_off(driver)
    await sweep_at(driver, lost + HOUR)
    await window_kept(driver, window, HOUR)


async def test_another_shards_game_still_times_out(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One process runs both shards; shard 0 loses Discord. Carol, on a server of shard 1, runs
    out of time and forfeits as ever; Alice, on shard 0, waits."""
    _two_shards(driver, monkeypatch)
    bot = running_bot(driver)
    alices = await _forfeit_timer(driver)
    await bot.store.set_guild_settings(GuildSettings(OTHER_GUILD_ID, TURN, "forfeit"))
    await bot.tables.start(
        channel_id=GENERAL_CHANNEL_ID,
        guild_id=OTHER_GUILD_ID,
        game_key="mille",
        seats=[SeatRecord(0, "Carol", user_id=CAROL_ID), SeatRecord(1, "Bob", user_id=BOB_ID)],
        deck=MILLE_DECK,
    )
    await sweep_after(driver, 10)
    _cut_off(driver, 0)
    await sweep_after(driver, TURN)
    assert "Carol ran out of time and forfeits the game." in every_word_posted(driver)
    assert (await current_game(driver)).version == alices.version
    assert "Alice ran out of time" not in every_word_posted(driver)


async def _direct_game(driver: InteractionDriver) -> StoredGame:
    """Alice against the computer in her direct messages with the bot, her turn timed to run
    out in ``COMPUTER_GRACE`` (as a reaction window or a computer seat due would): the computer
    then plays it for her."""
    bot = running_bot(driver)
    channel = driver.backend.dm_channel_for(ALICE_ID)
    update = await bot.tables.start(
        channel_id=int(channel["id"]),
        guild_id=None,
        game_key="mille",
        seats=[SeatRecord(0, "Computer", policy="random"), SeatRecord(1, "Alice", ALICE_ID)],
        deck=MILLE_DECK,
    )
    due = bot.tables.clock() + COMPUTER_GRACE
    await bot.store.set_timer(update.game.id, remind_at=None, deadline=due)
    game = await bot.store.get_game(update.game.id)
    assert game is not None and game.turn_deadline == due
    return game


async def test_a_direct_messages_game_waits_for_shard_0(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord sends direct messages to shard 0 only: while it is cut off (shard 1 is not),
    the direct message's game is not played on."""
    _two_shards(driver, monkeypatch)
    game = await _direct_game(driver)
    await sweep_after(driver, 1)
    _cut_off(driver, 0)
    await sweep_after(driver, COMPUTER_GRACE + 5)
    now = await running_bot(driver).store.get_game(game.id)
    assert now is not None and now.version == game.version


async def test_a_process_without_shard_0_leaves_direct_messages_games_alone(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process running shard 1 of 2 does not time a direct message's game: the process
    running shard 0, which takes its members' presses, does."""
    bot = running_bot(driver)
    monkeypatch.setattr(bot, "shard_count", 2)
    monkeypatch.setattr(bot, "shard_ids", [1], raising=False)
    game = await _direct_game(driver)
    await sweep_after(driver, COMPUTER_GRACE + 5)
    now = await bot.store.get_game(game.id)
    assert now is not None and now.version == game.version


async def test_a_short_blip_gives_nothing_back_and_writes_nothing_more(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord out of reach for one sweep (a RESUME): back within ``BLIP_SECONDS``, no time is
    given back (no game is written), Alice's deadline stands."""
    game = await _forfeit_timer(driver)
    await sweep_after(driver, 5)
    resumed: list[object] = []
    store = running_bot(driver).store
    real = store.resume_timers

    async def counted(*args: object, **kwargs: object) -> Resumed:
        resumed.append(args)
        return await real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "resume_timers", counted)
    _cut_off(driver, 0)
    await sweep_after(driver, 5)
    _cut_off(driver)
    await sweep_after(driver, BLIP_SECONDS - 5)
    assert resumed == []
    assert (await current_game(driver)).turn_deadline == game.turn_deadline


async def test_a_connection_that_cannot_be_read_keeps_the_timers_running(
    driver: InteractionDriver,
) -> None:
    """Asking whether the shard is connected fails: the sweep takes it as connected rather than
    stop (an error there ended the sweep's loop, and every timer, for good); Alice forfeits."""
    await _forfeit_timer(driver)

    def unreadable(shard: int) -> bool:
        raise AttributeError("'NoneType' object has no attribute 'closed'")

    _timers(driver).connected = unreadable
    await sweep_after(driver, TURN + 1)
    assert "Alice ran out of time and forfeits the game." in every_word_posted(driver)


class _Socket:
    """Stands for the bot's gateway websocket (``Client.ws``): open or not."""

    def __init__(self) -> None:
        self.open = True

    async def close(self, code: int = 1000) -> None:
        self.open = False


async def test_a_missed_reconnection_event_does_not_stop_the_timers(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sweep reads the websocket itself: the connection closes and opens again with no
    disconnect or resume event dispatched, and the timers pause, give the time back and run
    on: Alice forfeits when her 50 s left are out."""
    socket = _Socket()
    monkeypatch.setattr(running_bot(driver), "ws", socket)
    await _forfeit_timer(driver)
    await sweep_after(driver, 10)
    lost = running_bot(driver).tables.clock()
    socket.open = False
    await sweep_at(driver, lost + HOUR / 2)
    assert "ran out of time" not in every_word_posted(driver)
    socket.open = True
    await sweep_at(driver, lost + HOUR)
    await sweep_at(driver, lost + HOUR + 51)
    assert "Alice ran out of time and forfeits the game." in every_word_posted(driver)


class _ShardInfo:
    """Stands for discord.py's ``ShardInfo``: its connection closed or not."""

    def __init__(self, closed: bool) -> None:
        self.closed = closed

    def is_closed(self) -> bool:
        return self.closed


def test_a_sharded_process_reads_each_shards_own_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a process running several shards, a shard is connected when its own websocket is
    open: shard 1's closed connection leaves shard 0 sweeping."""
    bot = make_bot(bot_settings(tmp_path), shard_ids=[0, 1], shard_count=2)
    shards = {0: _ShardInfo(closed=False), 1: _ShardInfo(closed=True)}
    monkeypatch.setattr(bot, "get_shard", shards.get)
    timers = Timers(bot)
    assert [timers.gateway_open(i) for i in (0, 1)] == [True, False]


def test_a_process_running_every_shard_times_each_on_its_own(tmp_path: Path) -> None:
    """``--shard-count 3`` alone runs the three shards in one process: each is paused (and
    dated) on its own, not the three as one."""
    bot = make_bot(bot_settings(tmp_path), shard_count=3)
    assert Timers(bot)._timed_shards() == Shards(3, (0, 1, 2))


async def _until(check: Callable[[], bool], seconds: float = 20.0) -> None:
    """Wait until ``check()`` holds (the real gateway reconnects on its own time)."""
    async with asyncio.timeout(seconds):
        while not check():
            await asyncio.sleep(0.05)


async def test_the_connection_is_read_from_discord_pys_own_websocket(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A real discord.py bot on the fake Discord's gateway: connected once ready; cut off
    while its websocket is dropped and the network refuses a new one; connected again once
    discord.py gets back in by itself, with nothing told to the timers."""
    async with FakeDiscord(token="test-token") as fake:
        bot = throwaway_bot(sync=False)
        await fake.start_bot(bot)
        timers = Timers(bot)
        assert timers.gateway_open(0)
        reach = DiscordWebSocket.from_client

        async def unreachable(*args: object, **kwargs: object) -> DiscordWebSocket:
            raise OSError(errno.ENETUNREACH, "Network is unreachable")

        monkeypatch.setattr(DiscordWebSocket, "from_client", unreachable)
        for socket in list(fake._sockets):
            await socket.close()
        await _until(lambda: not timers.gateway_open(0))
        await asyncio.sleep(1)
        assert not timers.gateway_open(0), "still cut off while the network refuses"
        monkeypatch.setattr(DiscordWebSocket, "from_client", reach)
        await _until(lambda: fake.live_session() is not None and timers.gateway_open(0))
