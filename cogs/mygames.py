"""/mygames: the games a member is playing on this server (in a direct message with the bot:
everywhere), and which of them wait for them.

Only to the member who asks: it names the channels and threads of their games, whose move it
is and when the turn timer runs out, each with a link to its newest table (in a direct message,
where a channel mention leads nowhere, a server's game names the server and its channel and
links to the channel too, and a game played in that direct message is "in our direct
messages"); then the open tables and invitations still gathering players that seat or invite
them, each with a link to its message and when it closes.

A table message a moderator deleted is forgotten as Discord reports the deletion (this cog
listens), so /mygames says /table posts it again instead of linking to nothing; an invitation
or open table whose message was deleted is cancelled. A deleted thread or channel takes every
table and lobby posted in it the same way (Discord names only the thread).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.words import plural
from bot.playing import ChannelNames, InPlay, games_of, lobby_lines, playing_lines
from cogs import gone, limits, links
from cogs import lobby as lobby_cog
from cogs.seat_names import place_name
from cogs.ui import MESSAGE_LIMIT, NO_PINGS, answer, bot_of, clip, junction, plain, whole_lines

NOTHING = (
    "You are not playing any game on this server. Start one with `/play` (against the computer, "
    "or alone), `/challenge` (invite members) or `/host` (a table anyone joins)."
)
NOTHING_ANYWHERE = (
    "You are not playing any game. Start one on a server with `/play`, `/challenge` or "
    "`/host`, or here with `/play` (against the computer, or alone)."
)


log = logging.getLogger("junction.mygames")


class MyGames(commands.Cog):
    """/mygames."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="mygames", description="Your games in play here, and whose move")
    async def mygames(self, interaction: discord.Interaction[Any]) -> None:
        text = await self._answer(interaction)
        await answer(interaction, text, ephemeral=True, allowed_mentions=NO_PINGS)
        # A table or lobby message deleted while the bot was away sent no event: each link is
        # looked at once (a lobby found gone is closed, its seats freed).
        await links.look_after_answer(interaction, text, lambda: self._answer(interaction))

    async def _answer(self, interaction: discord.Interaction[Any]) -> str:
        """The member's games and lobbies, as /mygames says them (read from the store)."""
        tables = bot_of(interaction).tables
        user_id, guild_id = interaction.user.id, interaction.guild_id
        # In a direct message, as /history and /stats there, every server's games: "here"
        # would be only those played in direct messages, and a member with games waiting on
        # a server read that they played none.
        anywhere = guild_id is None
        games = await games_of(tables, user_id, guild_id, everywhere=anywhere)
        # Lobbies are posted on servers only (a direct message has no /host or /challenge).
        # The clock the table's own buttons read its expiry by: one past its time is gone,
        # unless the restarted bot still owes it its downtime (it waits for players, and the
        # games-at-once limit counts it: listed alike).
        now = lobby_cog.clock()
        owes_time = limits.owed_time_of(self.bot)
        lobbies = (
            []
            if guild_id is None
            else await limits.lobbies_waiting(tables, user_id, guild_id, now, owes_time)
        )
        owed = {lobby.id for lobby in lobbies if lobby.expires_at < now}
        waiting = sum(game.waiting_for_you for game in games)
        where = "" if anywhere else " here"
        head = f"**Your games{where}** — {len(games)} in play, {waiting} waiting for you"
        if lobbies:
            head += f", {plural(len(lobbies), 'table')} waiting to start"
        # Read in a direct message, a server's game is named by its server and channel.
        away = await _names(self.bot, user_id, games) if anywhere else None
        lines = whole_lines(
            playing_lines(games, escape=plain, away=away)
            + lobby_lines(lobbies, user_id, escape=plain, owed=owed),
            MESSAGE_LIMIT - len(head) - 1,
            _more,
        )
        text = (
            (f"{head}\n" + "\n".join(lines)) if lines else NOTHING_ANYWHERE if anywhere else NOTHING
        )
        return clip(text)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        await self._tables_deleted(payload.channel_id, {payload.message_id})

    @commands.Cog.listener()
    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        await self._tables_deleted(payload.channel_id, payload.message_ids)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        # Its messages go with it, each without a MESSAGE_DELETE. (The timers' cog ends the
        # thread's game in play; this forgets where its tables were, the finished ones' too.)
        await self._channel_deleted(payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._channel_deleted(channel.id)

    async def _channel_deleted(self, channel_id: int) -> None:
        """A channel or thread a moderator deleted: every table there is forgotten (no
        /history or /mygames link into it) and every invitation or open table posted there
        is cancelled, its seats freed, as when their messages are deleted one by one."""
        try:
            await gone.channel_deleted(junction(self.bot).tables.store, channel_id)
        except Exception:
            log.warning("could not forget deleted channel %s", channel_id, exc_info=True)

    async def _tables_deleted(self, channel_id: int, message_ids: set[int]) -> None:
        """Forget the deleted messages that were tables (one indexed write per deletion, any
        channel's: the ids alone cannot tell a table from chat). The game itself is
        untouched; its next move, or /table, posts a table it remembers again."""
        try:
            await gone.messages_deleted(junction(self.bot).tables.store, channel_id, message_ids)
        except Exception:
            log.warning("could not forget deleted messages in %s", channel_id, exc_info=True)


async def _names(client: discord.Client, user_id: int, games: list[InPlay]) -> ChannelNames:
    """The server's and channel's names of each game on a server, as this bot's cache knows
    them and only as the member may see them now: a server they left (or were removed from)
    is not named, nor a channel or thread closed to them since, whatever it was renamed to
    (the channel mention of old showed them none). None: a server this bot is not on, or not
    on this process's shards; a thread it has not seen; Discord not answering (in
    ``NAMES_SECONDS``: the answer waits for them, within Discord's three seconds)."""
    guilds = {
        guild.id: guild
        for game in games
        if game.guild_id is not None and (guild := client.get_guild(game.guild_id)) is not None
    }

    async def named(
        guild: discord.Guild, member: discord.Member, game: InPlay
    ) -> tuple[tuple[int, int], tuple[str | None, str | None]]:
        channel = guild.get_channel_or_thread(game.channel_id)
        seen = channel is not None and await _sees(channel, member)
        # Anyone's words, as a member's name: shown as a seat's name is.
        return (guild.id, game.channel_id), (
            place_name(guild.name),
            place_name(channel.name) if seen and channel else None,
        )

    async def found() -> dict[tuple[int, int], tuple[str | None, str | None]]:
        # One request a server, and one a private thread, all at once.
        asked = [_member(guild, user_id) for guild in guilds.values()]
        members = dict(zip(guilds, await asyncio.gather(*asked), strict=True))
        each = [
            named(guilds[game.guild_id], member, game)
            for game in games
            if game.guild_id in guilds and (member := members[game.guild_id]) is not None
        ]
        return dict(await asyncio.gather(*each))

    try:
        known = await asyncio.wait_for(found(), NAMES_SECONDS)
    except TimeoutError:
        log.warning("Discord did not say in time which servers member %s is on", user_id)
        known = {}
    return lambda guild_id, channel_id: known.get((guild_id, channel_id), (None, None))


NAMES_SECONDS = 1.5
"""How long /mygames in a direct message waits for Discord to say which servers and private
threads the member is in; past it the games are listed without names ("on a server")."""


async def _member(guild: discord.Guild, user_id: int) -> discord.Member | None:
    """The member on that server now (one request: the bot asks for no member list), or None:
    not on it, or Discord did not say."""
    cached = guild.get_member(user_id)
    if cached is not None:
        return cached
    try:
        return await guild.fetch_member(user_id)
    except discord.HTTPException:  # NotFound: not a member (any more)
        return None


async def _sees(channel: discord.abc.GuildChannel | discord.Thread, member: discord.Member) -> bool:
    """Whether the member may see the channel or thread now; a private thread only as one of
    its members (or a moderator of threads), as Discord shows it."""
    try:
        allowed = channel.permissions_for(member)
    except discord.ClientException:  # a thread whose channel is not cached
        return False
    if not allowed.view_channel:
        return False
    if not isinstance(channel, discord.Thread) or not channel.is_private():
        return True
    if allowed.manage_threads:
        return True
    try:
        await channel.fetch_member(member.id)
    except discord.HTTPException:
        return False
    return True


def _more(count: int) -> str:
    return f"… and {count} more."


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(MyGames(bot))
