"""A moderator deletes a thread: Discord sends THREAD_DELETE, naming the thread, and no
MESSAGE_DELETE for the messages that go with it.

Found by a review of the deleted-message handling: an invitation or open table posted in a
deleted thread stayed open, holding its members' seats (games at once, /mygames) until its
time ran out, and a finished game's table there kept its /history link, which opened nothing.
"""

from __future__ import annotations

import asyncio

import discord

from bot.store.base import SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import component_id, replies, stored_lobby
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CATEGORY_ID,
    GAMES_CHANNEL_ID,
    GUILD_ID,
    text_channel_payload,
    thread_payload,
)
from tests.discord.payloads import InteractionDriver


def _thread(driver: InteractionDriver) -> int:
    """A public thread under the games channel, opened by a member."""
    thread_id = driver.backend.ids.next()
    driver.backend.extra_channels[thread_id] = thread_payload(
        thread_id, GUILD_ID, GAMES_CHANNEL_ID, ALICE_ID, "chat"
    )
    return thread_id


async def _deleted(driver: InteractionDriver, thread_id: int) -> None:
    driver.backend.delete_thread_by_moderator(thread_id)
    await driver.deliver_events()


async def test_an_invitation_in_a_deleted_thread_is_closed(driver: InteractionDriver) -> None:
    """Alice invites Bob in a thread, then a moderator deletes it: the invitation is cancelled,
    /mygames lists it no more and Alice's seat there counts no longer."""
    thread = _thread(driver)
    invited = await driver.slash(
        "challenge", {"game": "mille", "member": BOB_ID}, channel_id=thread
    )
    lobby_id = int(component_id(invited, "Accept").split(":")[2])
    listed = await driver.slash("mygames", {}, user_id=ALICE_ID)
    assert "invitation, you host" in str(listed.content), replies(listed)
    before = await stored_lobby(driver, lobby_id)
    await _deleted(driver, thread)
    after = await stored_lobby(driver, lobby_id)
    assert (after.status, after.version) == ("cancelled", before.version + 1)
    listed = await driver.slash("mygames", {}, user_id=ALICE_ID)
    assert "invitation" not in str(listed.content), replies(listed)


async def test_an_open_table_in_a_deleted_thread_frees_its_seats(
    driver: InteractionDriver,
) -> None:
    """Alice hosts a Dragon table in a thread and Bob joins it; the thread is deleted: the
    table is cancelled, and neither is listed at it any more."""
    thread = _thread(driver)
    hosted = await driver.slash("host", {"game": "dragon", "seats": 2}, channel_id=thread)
    lobby_id = int(component_id(hosted, "Join").split(":")[2])
    await driver.click(hosted, f"jn:l:{lobby_id}:j", user_id=BOB_ID)
    assert "open table" in str((await driver.slash("mygames", {}, user_id=BOB_ID)).content)
    await _deleted(driver, thread)
    assert (await stored_lobby(driver, lobby_id)).status == "cancelled"
    for member in (ALICE_ID, BOB_ID):
        listed = await driver.slash("mygames", {}, user_id=member)
        assert "open table" not in str(listed.content), replies(listed)


async def test_a_finished_games_table_in_a_deleted_thread_is_not_linked(
    driver: InteractionDriver,
) -> None:
    """Alice resigns a game played in a thread (its last table posted there), then the thread
    is deleted: /history still lists the game, without a link into the thread; a game in
    another channel keeps its link."""
    thread = _thread(driver)
    tables = running_bot(driver).tables
    seats = [SeatRecord(0, "Alice", user_id=ALICE_ID), SeatRecord(1, "Bob", user_id=BOB_ID)]
    await tables.start(channel_id=thread, guild_id=GUILD_ID, game_key="mille", seats=seats)
    await driver.slash("resign", {}, user_id=ALICE_ID, channel_id=thread)
    store = tables.store
    (ended,) = await store.games_of_member(ALICE_ID)
    assert ended.status == "finished" and ended.message_id in driver.backend.messages
    linked = await driver.slash("history", {}, user_id=ALICE_ID)
    assert f"/{thread}/" in str(linked.content), replies(linked)
    await _deleted(driver, thread)
    listed = await driver.slash("history", {}, user_id=ALICE_ID)
    assert "Mille Bornes vs Bob" in str(listed.content), replies(listed)
    assert "discord.com/channels" not in str(listed.content), replies(listed)
    after = await store.get_game(ended.id)
    assert after is not None and (after.status, after.version) == ("finished", ended.version)


async def test_an_invitation_in_a_deleted_channel_is_closed(driver: InteractionDriver) -> None:
    """The same when a moderator deletes a whole channel (CHANNEL_DELETE)."""
    channel_id = driver.backend.ids.next()
    channel = text_channel_payload(channel_id, GUILD_ID, "doomed", parent_id=CATEGORY_ID)
    driver.backend.world.channels.append(channel)
    guild = driver.bot.get_guild(GUILD_ID)
    assert guild is not None
    state = driver.bot._connection
    guild._add_channel(discord.TextChannel(state=state, guild=guild, data=channel))  # type: ignore[arg-type]
    invited = await driver.slash(
        "challenge", {"game": "mille", "member": BOB_ID}, channel_id=channel_id
    )
    lobby_id = int(component_id(invited, "Accept").split(":")[2])
    driver.backend.world.channels.remove(channel)
    before = asyncio.all_tasks()
    state.parse_channel_delete(channel)
    await asyncio.wait(asyncio.all_tasks() - before, timeout=10)
    assert (await stored_lobby(driver, lobby_id)).status == "cancelled"
