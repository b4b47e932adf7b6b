"""A review of games played slowly, by correspondence: a move in the morning, one in the
evening, a turn timer of a week, and the channel's chat in between.

Driven through the fake Discord: members write in the channel between the moves
(``create_user_message``), the seam's clock is moved on by days and the Timers cog's sweep run
by hand (``sweep_after``). What a member needs: to be pinged when the game waits for them, once,
and to find the table again when the channel has buried it.
"""

from __future__ import annotations

from bot.boards import message_link
from bot.store.base import GuildSettings
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    play_first_offered,
    public_table,
    stacked_mille,
    store_rigged,
    sweep_after,
)
from tests.cogs.test_windows_review import THREE_MEMBERS
from tests.discord.backend import ALICE_ID, BOB_ID, CAROL_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver
from tests.engine.dragon_helpers import act, start

DAY = 86400.0
WEEK = 7 * DAY


def _reminders(driver: InteractionDriver) -> list[str]:
    """What the channel's half-time reminders read, oldest first."""
    return [
        str(m.get("content"))
        for m in driver.backend.channel_messages(GAMES_CHANNEL_ID)
        if "your turn runs out" in str(m.get("content"))
    ]


async def _bobs_turn_on_a_weeks_timer(driver: InteractionDriver) -> int:
    """A week's turn timer: Alice plays first at Mille Bornes (``stacked_mille``), and it is
    Bob's turn. The table message her move posted."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, int(WEEK), "computer"))
    await stacked_mille(driver)
    await play_first_offered(driver, ALICE_ID)
    table = (await bot.tables.current(GAMES_CHANNEL_ID)).message_id
    assert table is not None
    return table


async def test_a_reminder_links_to_the_table_the_chat_buried(driver: InteractionDriver) -> None:
    """A week's turn timer: Alice plays her Go, the channel chats two hundred times, and Bob's
    half-time reminder comes three and a half days later. It links to the newest table, where
    his turn is. Found by this review: it pinged him at the bottom of the channel with no way
    back to the table but scrolling up or asking for it again."""
    table = await _bobs_turn_on_a_weeks_timer(driver)
    for said in range(200):
        driver.backend.create_user_message(GAMES_CHANNEL_ID, CAROL_ID, f"chat {said}")
    await sweep_after(driver, WEEK / 2 + 60)
    (reminder,) = _reminders(driver)
    assert reminder.startswith(f"⏳ <@{BOB_ID}>, your turn runs out <t:")
    assert message_link(GUILD_ID, GAMES_CHANNEL_ID, table) in reminder


async def test_a_member_taking_a_second_card_is_not_pinged_by_their_own_move(
    driver: InteractionDriver,
) -> None:
    """Ticket to Ride, three members: Alice takes a first card, and the table calls on her for
    the second without pinging her; she is at the table, pressing. Found by this review: every
    turn of hers notified her of her own move."""
    bot = running_bot(driver)
    await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="ttr", seats=THREE_MEMBERS, seed=1
    )
    for member in (ALICE_ID, BOB_ID, CAROL_ID):
        await play_first_offered(driver, member)  # the opening tickets
    took = public_table(await play_first_offered(driver, ALICE_ID))
    assert "now takes a second card" in str(took.content)
    assert f"<@{ALICE_ID}>, your turn" in str(took.content)
    assert ALICE_ID not in [int(u) for u in took.data["allowed_mentions"].get("users", [])]


async def test_members_still_choosing_their_tickets_are_pinged_once(
    driver: InteractionDriver,
) -> None:
    """Ticket to Ride, three members choose their opening tickets at once, pinged by the deal.
    Alice keeps hers: the table names Bob and Carol, still choosing, without pinging them
    again. Found by this review: Carol, choosing last, was pinged once by the deal and once
    more by each member who chose before her."""
    bot = running_bot(driver)
    await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="ttr", seats=THREE_MEMBERS, seed=1
    )
    kept = public_table(await play_first_offered(driver, ALICE_ID))
    assert f"<@{BOB_ID}> <@{CAROL_ID}>, your turn" in str(kept.content)
    assert not kept.data["allowed_mentions"].get("users")


async def test_the_last_ticket_kept_pings_the_member_who_starts(
    driver: InteractionDriver,
) -> None:
    """Ticket to Ride, three members: when Carol keeps the last opening tickets, Alice, who
    starts, is pinged: her turn is news (she had kept hers already)."""
    bot = running_bot(driver)
    await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="ttr", seats=THREE_MEMBERS, seed=1
    )
    await play_first_offered(driver, ALICE_ID)
    await play_first_offered(driver, BOB_ID)
    last = public_table(await play_first_offered(driver, CAROL_ID))
    assert "Alice starts" in str(last.content)
    assert [int(u) for u in last.data["allowed_mentions"]["users"]] == [ALICE_ID]


async def test_members_still_choosing_are_not_pinged_by_a_resignation(
    driver: InteractionDriver,
) -> None:
    """Ticket to Ride, three members choosing their opening tickets: Alice resigns. The table
    names Bob and Carol, still choosing as before, without pinging them again."""
    bot = running_bot(driver)
    await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="ttr", seats=THREE_MEMBERS, seed=1
    )
    left = public_table(await driver.slash("resign", {}, user_id=ALICE_ID))
    assert f"<@{BOB_ID}> <@{CAROL_ID}>, your turn" in str(left.content)
    assert not left.data["allowed_mentions"].get("users")


async def test_a_reminder_whose_table_a_moderator_deleted_says_how_to_see_it_again(
    driver: InteractionDriver,
) -> None:
    """A week's turn timer: Alice plays, and a moderator deletes the table her move posted.
    Bob's reminder gives no link to the deleted message (Discord would open nothing): it says
    /table posts the table again."""
    table = await _bobs_turn_on_a_weeks_timer(driver)
    del driver.backend.messages[table]
    await sweep_after(driver, WEEK / 2 + 60)
    (reminder,) = _reminders(driver)
    assert "discord.com/channels" not in reminder
    assert reminder.endswith("/table posts the table again.")


async def test_a_turn_a_resignation_hands_on_pings_its_member(driver: InteractionDriver) -> None:
    """Dragon, three members: Alice fires a Rocket at Bob, who may armor, and resigns in his
    window. Her shot is void and the turn passes to Bob: his own turn now, no longer the
    window he was pinged for, so the table pings him. Found by this review: he was waited for
    before and after the resignation, so the table named him without a ping."""
    state = start(cw=[["rocket-front"], ["armor-front"], []])
    await store_rigged(driver, "dragon", THREE_MEMBERS, act(state, 0, "rocket-front @1"))
    left = public_table(await driver.slash("resign", {}, user_id=ALICE_ID))
    assert "Bob to play" in str(left.content)
    assert [int(u) for u in left.data["allowed_mentions"]["users"]] == [BOB_ID]


async def test_a_deleted_table_the_reminder_found_is_not_linked_by_mygames(
    driver: InteractionDriver,
) -> None:
    """The table deleted while the bot heard nothing of it (no MESSAGE_DELETE came): the
    reminder finds it gone, and /mygames stops linking to it too."""
    table = await _bobs_turn_on_a_weeks_timer(driver)
    del driver.backend.messages[table]
    await sweep_after(driver, WEEK / 2 + 60)
    listed = await driver.slash("mygames", {}, user_id=BOB_ID)
    assert "discord.com/channels" not in str(listed.content)
    assert str(listed.content).endswith("`/table` there posts the table again")


async def test_a_reminder_after_a_deletion_discord_reported_says_how_to_see_the_table(
    driver: InteractionDriver,
) -> None:
    """A moderator deletes the table and Discord tells the bot: the reminder says /table posts
    it again, with no link, and asks Discord nothing about the message."""
    table = await _bobs_turn_on_a_weeks_timer(driver)
    driver.backend.delete_by_moderator(GAMES_CHANNEL_ID, table)
    await driver.deliver_events()
    await sweep_after(driver, WEEK / 2 + 60)
    (reminder,) = _reminders(driver)
    assert "discord.com/channels" not in reminder
    assert reminder.endswith("/table posts the table again.")
    asked = [r for r in driver.requests if r.matches("GET", rf".*/messages/{table}")]
    assert not asked
