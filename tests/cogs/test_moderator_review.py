"""A server moderator's view of Junction: permissions taken away, channels deleted, games left.

Each test drives the real cogs through the fake Discord and holds a fix for what a moderator's
review found (each docstring says what it was): permissions, a moderator's /abort, deleted
channels, the bot removed from the server, /table floods.
"""

from __future__ import annotations

import asyncio

import discord

from bot.client import JunctionBot
from bot.store.base import GuildSettings, SeatRecord
from cogs.play import REPOST_SECONDS
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import component_id, replies, sweep_after
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    BOT_ROLE_ID,
    CAROL_ID,
    CATEGORY_ID,
    GAMES_CHANNEL_ID,
    GUILD_ID,
    InteractionResult,
    role_payload,
    text_channel_payload,
)
from tests.discord.payloads import InteractionDriver

TWO_MEMBERS = [SeatRecord(0, "Alice", user_id=ALICE_ID), SeatRecord(1, "Bob", user_id=BOB_ID)]


def _deny_bot(driver: InteractionDriver, channel_id: int, *permissions: str) -> None:
    """Take ``permissions`` from the bot's role in a channel (as a moderator would)."""
    channel = driver.backend.channel(channel_id)
    assert channel is not None
    deny = discord.Permissions(**dict.fromkeys(permissions, True)).value
    channel["permission_overwrites"] = [
        {"id": str(BOT_ROLE_ID), "type": 0, "allow": "0", "deny": str(deny)}
    ]


def _new_channel(driver: InteractionDriver, name: str) -> int:
    """Another text channel in the server, known to the bot."""
    channel_id = driver.backend.ids.next()
    channel = text_channel_payload(channel_id, GUILD_ID, name, parent_id=CATEGORY_ID)
    driver.backend.world.channels.append(channel)
    guild = driver.bot.get_guild(GUILD_ID)
    assert guild is not None
    state = driver.bot._connection
    guild._add_channel(discord.TextChannel(state=state, guild=guild, data=channel))  # type: ignore[arg-type]
    return channel_id


def _make_moderator(driver: InteractionDriver, user_id: int) -> None:
    """Give a member a Moderators role with Manage Messages."""
    role_id = driver.backend.ids.next()
    moderators = discord.Permissions(manage_messages=True).value
    driver.backend.world.roles.append(role_payload(role_id, "Moderators", permissions=moderators))
    member = driver.backend.world.member(user_id)
    assert member is not None
    member["roles"].append(str(role_id))


async def _members_game(bot: JunctionBot, channel_id: int = GAMES_CHANNEL_ID) -> None:
    await bot.tables.start(
        channel_id=channel_id, guild_id=GUILD_ID, game_key="mille", seats=TWO_MEMBERS, seed=3
    )


async def _until_ended(bot: JunctionBot, channel_id: int) -> None:
    """Wait (briefly) for a gateway listener to end the channel's game."""
    for _ in range(200):
        if await bot.store.active_game(channel_id) is None:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the game is still running")


# --- permissions ---------------------------------------------------------------------------------


async def test_a_thread_game_needs_send_messages_in_threads(driver: InteractionDriver) -> None:
    """/play thread:true where the bot may create threads but not post in them. Found by a
    moderator's review: the thread was made and the game stored, then posting the first table
    failed ("Something went wrong"), leaving a game nobody could see in a thread where /table and
    /abort were refused too. The missing permission is now named before anything happens."""
    bot = running_bot(driver)
    channel_id = _new_channel(driver, "no-thread-posts")
    _deny_bot(driver, channel_id, "send_messages_in_threads")
    result = await driver.slash("play", {"game": "mille", "thread": True}, channel_id=channel_id)
    said = replies(result)
    assert result.ephemeral and "Send Messages in Threads" in said, said
    assert await bot.store.active_games() == []
    assert driver.backend.threads() == []


async def test_a_game_can_be_aborted_where_images_are_no_longer_allowed(
    driver: InteractionDriver,
) -> None:
    """A moderator makes the channel text-only (the bot loses Attach Files) during a game
    between members. Found by a moderator's review: /abort and its "Agree to abort" button were
    refused like the commands that post a table, so the game could only be resigned (which
    loses). Ending it posts words only; it now works without Attach Files or Embed Links."""
    bot = running_bot(driver)
    await _members_game(bot)
    _deny_bot(driver, GAMES_CHANNEL_ID, "attach_files", "embed_links")
    refused = await driver.slash("table", {}, user_id=ALICE_ID)
    assert refused.ephemeral and "Attach Files" in replies(refused)
    asked = await driver.slash("abort", {}, user_id=ALICE_ID)
    assert not asked.ephemeral, replies(asked)
    agreed = await driver.click(asked, component_id(asked, "Agree to abort"), user_id=BOB_ID)
    assert "aborted" in replies(agreed), replies(agreed)
    assert await bot.store.active_game(GAMES_CHANNEL_ID) is None


# --- moderating a game ---------------------------------------------------------------------------


async def test_a_moderator_ends_a_game_nobody_finishes(driver: InteractionDriver) -> None:
    """Bob was kicked mid-game and Alice went quiet: the game blocks the channel. Found by a
    moderator's review: only its players could /abort (and every one of them had to agree), so a
    moderator could not clear the channel. A member who may manage messages there and is not
    playing now ends it at once, with no result; a member who may not is still refused."""
    bot = running_bot(driver)
    await _members_game(bot)
    refused = await driver.slash("abort", {}, user_id=CAROL_ID)
    assert refused.ephemeral and "not playing" in replies(refused)
    assert await bot.store.active_game(GAMES_CHANNEL_ID) is not None
    _make_moderator(driver, CAROL_ID)
    ended = await driver.slash("abort", {}, user_id=CAROL_ID)
    assert not ended.ephemeral and "ended this game with no result" in replies(ended)
    assert await bot.store.active_game(GAMES_CHANNEL_ID) is None
    assert await bot.store.results(game_key="mille", guild_id=GUILD_ID) == []
    again = await driver.slash("play", {"game": "solo"}, user_id=CAROL_ID)
    assert "table.png" in {a["filename"] for r in again.followups for a in r.attachments}


async def test_a_moderator_playing_asks_like_any_player(driver: InteractionDriver) -> None:
    """A moderator seated at the table gets no veto over the others: their /abort is a request."""
    bot = running_bot(driver)
    _make_moderator(driver, ALICE_ID)
    driver.backend.world.owner_id = CAROL_ID  # the owner holds every permission; Alice is not it
    await _members_game(bot)
    asked = await driver.slash("abort", {}, user_id=ALICE_ID)
    assert "wants to abort" in replies(asked), replies(asked)
    assert await bot.store.active_game(GAMES_CHANNEL_ID) is not None


# --- deleted channels ----------------------------------------------------------------------------


async def test_deleting_a_channel_ends_its_game(driver: InteractionDriver) -> None:
    """A moderator deletes a channel with a game between members running, turn timer on. Found
    by a moderator's review: the game stayed active, so its turn timer went on playing it for
    both members — the computer's moves, every few minutes, in a channel nobody can see — until
    it finished and moved their ratings. It now ends with no result when the channel goes."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "computer"))
    channel_id = _new_channel(driver, "doomed")
    await _members_game(bot, channel_id)
    channel = driver.backend.channel(channel_id)
    assert channel is not None
    driver.backend.world.channels.remove(channel)
    bot._connection.parse_channel_delete(channel)
    await _until_ended(bot, channel_id)
    await sweep_after(driver, 3600)
    assert await bot.store.results(game_key="mille", guild_id=GUILD_ID) == []


async def test_deleting_a_thread_ends_its_game(driver: InteractionDriver) -> None:
    """The same for a game played in a thread of its own, when the thread is deleted."""
    bot = running_bot(driver)
    started = await driver.slash("play", {"game": "mille", "thread": True})
    (game,) = await bot.store.active_games()
    assert started.ephemeral is False and game.channel_id != GAMES_CHANNEL_ID
    thread = driver.backend.channel(game.channel_id)
    assert thread is not None
    payload = {k: thread[k] for k in ("id", "guild_id", "parent_id", "type")}
    bot._connection.parse_thread_delete(payload)  # type: ignore[arg-type]
    await _until_ended(bot, game.channel_id)


async def test_the_sweep_ends_a_game_whose_channel_is_gone(driver: InteractionDriver) -> None:
    """A channel deleted while the bot was away: the next timer finds it gone. Found by a
    moderator's review: each timer logged a warning and played on (see above); now the game
    ends with no result at the first timer that cannot reach its channel."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "computer"))
    channel_id = _new_channel(driver, "gone")
    await _members_game(bot, channel_id)
    channel = driver.backend.channel(channel_id)
    guild = driver.bot.get_guild(GUILD_ID)
    assert channel is not None and guild is not None
    driver.backend.world.channels.remove(channel)
    cached = guild.get_channel(channel_id)
    assert cached is not None
    guild._remove_channel(cached)  # the bot never heard of the deletion
    await sweep_after(driver, 40)  # the reminder at half time
    assert await bot.store.active_game(channel_id) is None
    await sweep_after(driver, 3600)
    assert await bot.store.results(game_key="mille", guild_id=GUILD_ID) == []


# --- the bot removed from a server ---------------------------------------------------------------


async def test_removing_the_bot_ends_the_servers_games(driver: InteractionDriver) -> None:
    """The server kicks Junction with two games between members running, turn timers on.
    Found by a moderator's review: the games stayed active, so their timers went on playing
    them out (the computer's moves, or forfeits) and moved the members' ratings, in channels
    the bot can no longer see. They now end with no result when Discord says the bot is out.
    """
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "forfeit"))
    other = _new_channel(driver, "second-table")
    await _members_game(bot)
    await _members_game(bot, other)
    driver.backend.world.bot_in_guild = False
    bot._connection.parse_guild_delete({"id": str(GUILD_ID)})
    await _until_ended(bot, GAMES_CHANNEL_ID)
    await _until_ended(bot, other)
    await sweep_after(driver, 3600)
    assert await bot.store.results(game_key="mille", guild_id=GUILD_ID) == []


async def test_an_outage_keeps_the_servers_games(driver: InteractionDriver) -> None:
    """A server that is only unavailable (a Discord outage) is not one that removed the bot:
    its games wait for it."""
    bot = running_bot(driver)
    await _members_game(bot)
    bot._connection.parse_guild_delete({"id": str(GUILD_ID), "unavailable": True})
    await asyncio.sleep(0.05)
    assert await bot.store.active_game(GAMES_CHANNEL_ID) is not None


async def test_the_sweep_ends_a_game_in_a_server_the_bot_left(driver: InteractionDriver) -> None:
    """Junction was kicked while it was down, so it never heard of it: the next timer finds
    the channel out of reach ("Missing Access") in a server the bot is not in, and ends the game
    with no result, as for a deleted channel. Found by the same review: each timer logged a
    warning and played on."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "forfeit"))
    channel_id = _new_channel(driver, "left-behind")
    await _members_game(bot, channel_id)
    driver.backend.world.bot_in_guild = False
    guild = bot.get_guild(GUILD_ID)
    assert guild is not None
    bot._connection._remove_guild(guild)  # the bot never heard of the removal
    await sweep_after(driver, 40)  # the reminder at half time
    assert await bot.store.active_game(channel_id) is None
    await sweep_after(driver, 3600)
    assert await bot.store.results(game_key="mille", guild_id=GUILD_ID) == []


# --- flooding ------------------------------------------------------------------------------------


def _tables_posted(result: InteractionResult) -> int:
    return sum(a["filename"] == "table.png" for r in result.followups for a in r.attachments)


async def test_table_cannot_flood_a_channel(driver: InteractionDriver) -> None:
    """Carol, a bystander, sends /table over and over. Found by a moderator's review: each one
    posted the same table image again (and drew it again), so one member could flood a channel.
    An unchanged table is now posted at most once in 30 s; sooner, the member is privately
    pointed at it. A move, or the time passing, lets it be posted again."""
    bot = running_bot(driver)
    await _members_game(bot)
    first = await driver.slash("table", {}, user_id=CAROL_ID)
    assert _tables_posted(first) == 1
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    again = await driver.slash("table", {}, user_id=CAROL_ID)
    said = replies(again)
    assert again.ephemeral and _tables_posted(again) == 0, said
    assert f"/{GAMES_CHANNEL_ID}/{stored.message_id}" in said and said.endswith("s."), said
    _, moves = bot.tables.hand(stored, ALICE_ID)
    await driver.slash("move", {"action": moves[0].notation}, user_id=ALICE_ID)
    assert _tables_posted(await driver.slash("table", {}, user_id=CAROL_ID)) == 1
    cog = bot.get_cog("Play")  # loaded as an extension: not the class imported here
    assert cog is not None
    reposts: dict[int, tuple[int, float]] = cog._reposts  # type: ignore[attr-defined]
    version, when = reposts[GAMES_CHANNEL_ID]
    reposts[GAMES_CHANNEL_ID] = (version, when - REPOST_SECONDS)  # half a minute later
    assert _tables_posted(await driver.slash("table", {}, user_id=CAROL_ID)) == 1


async def test_table_keeps_only_the_channels_reposted_lately(driver: InteractionDriver) -> None:
    """Found by an operator's security review: what /table kept per channel to refuse a
    second post stayed for good, so a member starting thread game after thread game and
    sending /table in each grew the bot's memory without end. A channel's post older than the
    half minute says nothing any more, and goes at the next /table."""
    bot = running_bot(driver)
    await _members_game(bot)
    assert _tables_posted(await driver.slash("table", {}, user_id=CAROL_ID)) == 1
    cog = bot.get_cog("Play")
    assert cog is not None
    reposts: dict[int, tuple[int, float]] = cog._reposts  # type: ignore[attr-defined]
    version, when = reposts[GAMES_CHANNEL_ID]
    reposts[GAMES_CHANNEL_ID] = (version, when - REPOST_SECONDS)  # half a minute later
    elsewhere = _new_channel(driver, "another-game")
    await _members_game(bot, elsewhere)
    assert _tables_posted(await driver.slash("table", {}, user_id=CAROL_ID, channel_id=elsewhere))
    assert list(reposts) == [elsewhere]
