"""Turn timers in Discord: the server setting and the background sweep that enforces it.

The deadlines live in the store (``bot/timers.py``), so this cog only runs the sweep every
few seconds and says in the channel what happened: a reminder at half time, then either the
computer's move for the absent player or their forfeit, and a game whose every member has
let the computer play their last three turns ends with no result. Each sweep writes this
process's heartbeat (one row per shard it runs); the first one after a start gives the
deadlines that were running when the bot went down the time it was down, before any is
handled (``Store.resume_timers``).

The clock stops too while a shard's gateway connection to Discord is lost (an outage, a network
cut): its members cannot press anything then. Each sweep asks whether each shard is connected
(``Timers.connected``: its websocket is open, read afresh every sweep, so a reconnection is seen
even when its event is missed); one that is not neither sweeps nor writes its heartbeat, and its
games' deadlines wait. Back after more than ``BLIP_SECONDS``, it gives them the time since its
last heartbeat, once, as after a start; a shorter blip (a normal RESUME) gives nothing back and
writes nothing more. Another shard's games go on meanwhile; a direct message's game is shard
0's, the only one Discord sends direct messages to. A second loop, at the same pace,
expires the invitations and open tables past their time (``cogs.lobby.expire_due``), so their
messages say so and lose their buttons without anyone pressing them, and deletes those closed
a week before (``cogs.lobby.forget_closed``); it is a loop of its own so that deadlines never
wait for those messages' edits. Lobbies keep time as turns do: ``resume_timers`` gives the
open ones of a shard coming back the same downtime, and this loop expires only the lobbies of
the shards the last sweep handled, so none closes before it got the time back or while its
shard is cut off. It then edits the messages of those given time back (``reshow``), a few a
pass, to say their new closing time (each marked in the store until drawn, so a stop before
that leaves them to the next start); a press before the sweep that gives the time back (the
first after a start, or after a shard's return) is told to press again (``owes_time``).

A game whose channel (or thread) is deleted ends with no result: when Discord says so, or when
the sweep finds the channel gone (deleted while the bot was away). So do the games of a server
the bot is removed from (kicked, banned, or the server deleted). Nobody can play them any more,
and their timers must not play them out for their members and move their ratings.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.boards import message_link
from bot.engine.core import BadOption, GameError
from bot.engine.words import plural
from bot.store.base import (
    DEFAULT_REACTION_SECONDS,
    GuildSettings,
    LobbyRecord,
    Shards,
    StoredGame,
)
from bot.timers import TimerEvent, sweep
from cogs import gone, links
from cogs.lobby import LOBBIES_PER_SWEEP, expire_due, forget_closed, show_new_times
from cogs.ui import bot_of, defer, junction, pings, say_privately, send_table

log = logging.getLogger("junction.timers")

SWEEP_SECONDS = 5.0
BLIP_SECONDS = 3 * SWEEP_SECONDS
"""A shard whose gateway connection is back within this long of its last heartbeat (a normal
RESUME, a short network blip) gives no time back: a deadline that passed meanwhile is handled
at once, as it would have been, and nothing is written but the heartbeat."""
UNKNOWN_CHANNEL = gone.UNKNOWN_CHANNEL
MISSING_ACCESS = 50001  # ... and for one in a server the bot is not in
MAX_TURN_MINUTES = 10080  # a week
MIN_REACTION_SECONDS, MAX_REACTION_SECONDS = 5, 3600  # as GuildSettings checks
TIMEOUT_CHOICES = [
    app_commands.Choice(name="the computer plays that turn", value="computer"),
    app_commands.Choice(name="the player forfeits the game", value="forfeit"),
]


class Timers(commands.Cog):
    """/settings and the sweep (turn timers, reaction windows, computers left due)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.startup_check: asyncio.Task[None] | None = None
        # Results whose write failed are written again at the first sweep (they may have
        # failed before a restart) and after any later failure (Tables.settle_due).
        self.settle_at_start = True
        # A shard's first connected sweep gives the deadlines still running when the bot went
        # down the time it was down (``Store.resume_timers``); every sweep after it writes the
        # heartbeat that dates the next downtime. ``started``: a game moved since has a deadline
        # set here. ``beats``: when each shard last wrote its heartbeat here (absent: not
        # resumed since the start). ``offline``: the shards seen cut off from Discord since.
        self.started = 0.0
        self.beats: dict[int, float] = {}
        self.offline: set[int] = set()
        # The shards whose timers the last sweep handled: the lobby sweep expires only their
        # lobbies, so none closes before its shard gave it the downtime back (or while its
        # shard is cut off). ``reshow``: whether lobbies given time back may still show the
        # old closing time on their messages, edited a few a lobby sweep
        # (``cogs.lobby.show_new_times``). They are marked in the store
        # (``Store.lobbies_to_reshow``), so at a start too: a process stopped before it was
        # through leaves them to this one.
        self.live: frozenset[int] = frozenset()
        self.reshow = True
        # Whether a shard's gateway connection is open: asked at every sweep. Tests replace it
        # (the local fake Discord has no gateway).
        self.connected: Callable[[int], bool] = self.gateway_open

    async def cog_load(self) -> None:
        self.started = junction(self.bot).tables.clock()
        self.sweeper.start()
        self.lobby_sweeper.start()

    async def cog_unload(self) -> None:
        self.sweeper.cancel()
        self.lobby_sweeper.cancel()
        if self.startup_check is not None:
            self.startup_check.cancel()

    def _shards(self) -> Shards | None:
        """The shards this process runs, when it runs only some (None: it serves everything)."""
        shard_ids = self.bot.shard_ids if hasattr(self.bot, "shard_ids") else None
        count = self.bot.shard_count
        if not shard_ids or not count:
            return None
        return Shards(count, tuple(shard_ids))

    def _timed_shards(self) -> Shards:
        """The shards whose timers this process keeps: those it runs, all of them when it runs
        every shard of several (``--shard-count`` alone), shard 0 of 1 without shards."""
        shards = self._shards()
        if shards is not None:
            return shards
        count = self.bot.shard_count
        if isinstance(self.bot, discord.AutoShardedClient) and count:
            return Shards(count, tuple(range(count)))
        return Shards(1, (0,))

    def gateway_open(self, shard_id: int) -> bool:
        """Whether ``shard_id``'s gateway connection to Discord is open now. Read from the
        websocket itself rather than from the disconnect and resume events, so a missed event
        can never leave the timers stopped. True with no gateway yet (the sweep starts once
        the bot is ready) or a shard discord.py does not run."""
        if isinstance(self.bot, discord.AutoShardedClient):
            shard = self.bot.get_shard(shard_id)
            return shard is None or not shard.is_closed()
        ws: discord.gateway.DiscordWebSocket | None = self.bot.ws
        return ws is None or ws.open

    def _connected(self, shard_id: int) -> bool:
        """``connected``, taken as yes when it cannot tell: an error here would otherwise end
        the sweep's loop, and every timer with it, for good."""
        try:
            return self.connected(shard_id)
        except Exception:
            log.warning("could not tell whether shard %d is connected", shard_id, exc_info=True)
            return True

    async def owes_time(self, lobby: LobbyRecord) -> bool:
        """Whether ``lobby``, past its time, is still to be given a downtime back by the next
        sweep of its shard (``Store.resume_timers``): the first since this process started,
        for a lobby opened before the start, or the first since the shard reached Discord
        again after more than ``BLIP_SECONDS`` away; and it was still open at the shard's last
        sweep before. A press on it meanwhile (Discord sends presses before the bot is ready,
        or as soon as a shard is back, and the sweep waits for its turn) must not close it on
        its old time (``cogs.lobby`` asks)."""
        shards = self._timed_shards()
        shard = 0 if lobby.guild_id is None else (lobby.guild_id >> 22) % shards.count
        if shard not in shards.ids:
            return False
        last = self.beats.get(shard)
        if last is None:
            if lobby.created_at >= self.started:
                return False  # its time was set after the downtime
        elif shard not in self.offline or junction(self.bot).tables.clock() - last <= BLIP_SECONDS:
            return False  # its shard's time runs, or a blip gives nothing back
        store = junction(self.bot).tables.store
        since = (await store.last_sweeps(Shards(shards.count, (shard,)))).get(shard)
        return since is not None and lobby.expires_at > since

    def _serves(self, game: StoredGame) -> bool:
        """Only the shard that holds a game's server times it (several shards, one database)."""
        shards = self._shards()
        return shards is None or shards.holds(game.guild_id)

    @tasks.loop(seconds=SWEEP_SECONDS)
    async def sweeper(self) -> None:
        bot = junction(self.bot)
        shards = self._timed_shards()
        live = await self._keep_time(shards)
        self.live = frozenset(live)
        if not live:
            return
        if self.settle_at_start or bot.tables.settle_due:
            self.settle_at_start = False
            try:
                if recorded := await bot.tables.settle_missing():
                    log.info("recorded %d result(s) whose first write had failed", recorded)
            except Exception:
                log.exception("could not look for results left unrecorded; will retry")
                bot.tables.settle_due = True
        try:
            events = await sweep(
                bot.tables,
                bot.tables.clock(),
                only=lambda game: shard_of(game, shards) in live,
                reachable=self._reachable,
            )
        except Exception:
            # An unhandled error would stop the loop for good; log it and sweep again later.
            log.exception("turn-timer sweep failed")
            events = []
        for event in events:
            try:
                await self._announce(event)
            except discord.HTTPException as error:
                if self._unreachable(event.game, error):
                    await self._channel_gone(
                        event.game.channel_id, "cannot be reached", deleted=_deleted(error)
                    )
                    continue
                log.warning("could not announce a timer in game %s", event.game.id, exc_info=True)

    async def _keep_time(self, shards: Shards) -> set[int]:
        """The shards whose deadlines this sweep may handle: those connected to Discord whose
        heartbeat is written. A shard's first connected sweep after a start, or after its
        connection was lost for more than ``BLIP_SECONDS``, first gives its deadlines the time
        it was away (``Store.resume_timers``); while that cannot be done (the database blinked)
        it is left out: no deadline may be handled before, or a member would forfeit (or be
        played for) a turn they could not play. So is a shard cut off from Discord: it writes
        no heartbeat, so the time it is away is given back when it returns."""
        tables = junction(self.bot).tables
        now = tables.clock()
        beating: list[int] = []
        starting: list[int] = []
        returning: list[int] = []
        for shard in shards.ids:
            if not self._connected(shard):
                if shard not in self.offline:
                    self.offline.add(shard)
                    log.info("shard %d lost Discord: its games' timers wait for it", shard)
                continue
            last = self.beats.get(shard)
            if last is None:
                starting.append(shard)
            elif shard in self.offline and now - last > BLIP_SECONDS:
                returning.append(shard)
            else:
                beating.append(shard)
        live: set[int] = set()  # whose deadlines this sweep handles
        written: set[int] = set()  # whose heartbeat is now
        # After a start, a game moved since has a deadline this process set; after a lost
        # connection, any move meanwhile was one under way as it went (nobody could press),
        # which gets back the time since it (``bot/store/heartbeats.py``).
        for ids, started, what in (
            (starting, self.started, "the bot was down"),
            (returning, now, "Discord was out of reach"),
        ):
            if not ids:
                continue
            try:
                moved = await tables.store.resume_timers(
                    Shards(shards.count, tuple(ids)), now, started=started
                )
            except Exception:
                log.exception("could not give the timers the time %s; will retry", what)
                continue
            if moved.games or moved.lobbies:
                lobbies = plural(len(moved.lobbies), "lobby", "lobbies")
                given = f"{plural(moved.games, 'game')} and {lobbies}"
                log.info("%s got back the time %s", given, what)
            self.reshow = self.reshow or bool(moved.lobbies)
            live.update(ids)
            written.update(ids)
        if beating:
            live.update(beating)
            try:
                await tables.store.heartbeat(Shards(shards.count, tuple(beating)), now)
            except Exception:
                # The deadlines are still handled; a downtime now gives back a little more.
                log.warning("could not record the timer sweep's heartbeat", exc_info=True)
            else:
                written.update(beating)
        for shard in written:
            self.beats[shard] = now
        for shard in live & self.offline:
            log.info("shard %d reached Discord again: its games' timers run", shard)
            self.offline.discard(shard)
            # A message deleted meanwhile may have sent no event: links are looked at anew.
            links.forget_looked_at(self.bot)
        return live

    @tasks.loop(seconds=SWEEP_SECONDS)
    async def lobby_sweeper(self) -> None:
        """Expire the lobbies past their time, and delete those closed a week before. A loop
        of its own, beside ``sweeper``: a turn's deadline must not wait for lobby messages'
        edits, which Discord can hold for long (a channel's rate limit with many invitations
        due, an outage's retries)."""
        try:
            # Only the lobbies of the shards whose timers run: one whose shard has not given
            # it the downtime back yet (the first sweep after a start), or is cut off from
            # Discord, waits as its games' deadlines do.
            if self.live:
                count = self._timed_shards().count
                live = Shards(count, tuple(sorted(self.live)))
                if expired := await expire_due(junction(self.bot), live):
                    log.info("expired %d lobby(ies) past their time", expired)
            if self.reshow:
                # Their messages still say the old closing time: a few a sweep, not one
                # request per lobby at a start with thousands open. Asked again until none is
                # left marked (one Discord failed to edit is tried again next pass).
                bot = junction(self.bot)
                batch = await bot.tables.store.lobbies_to_reshow(LOBBIES_PER_SWEEP, self._shards())
                self.reshow = bool(batch)
                await show_new_times(bot, batch)
            # Then the lobbies closed long enough that no button can need them, a bounded
            # number a pass, so the table holds the recent ones only.
            if deleted := await forget_closed(junction(self.bot), self._shards()):
                log.info("deleted %d closed lobby(ies)", deleted)
        except Exception:
            # An unhandled error would stop the loop for good; log it and sweep again later.
            log.exception("lobby expiry sweep failed")

    async def _reachable(self, game: StoredGame) -> bool:
        """Whether a passed deadline may play this game; False for one whose channel is gone
        for good, ended here with no result.

        The deadline is asked about before it plays, not after: a bot kicked (or a channel
        deleted) while it was away for longer than a turn timer finds no reminder to send
        first, and the deadline would forfeit a member and rate the game before posting the
        table met the closed door. Only a channel the bot does not hold is asked about (one
        request, for a timer that ran out); any other answer lets the game play as before."""
        if game.guild_id is None or self.bot.get_channel(game.channel_id) is not None:
            # Not a server's channel: a direct message, or the console's game (channel 0) in
            # a database it shares with the bot, which Discord has never heard of.
            return True
        try:
            await self.bot.fetch_channel(game.channel_id)
        except discord.HTTPException as error:
            if self._unreachable(game, error):
                await self._channel_gone(
                    game.channel_id, "cannot be reached", deleted=_deleted(error)
                )
                return False
        return True

    def _unreachable(self, game: StoredGame, error: discord.HTTPException) -> bool:
        """Whether the game's channel is gone for good: deleted, or in a server the bot has
        left (removed while it was away; Discord answers "Missing Access" there)."""
        if isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL:
            return True
        return (
            error.code == MISSING_ACCESS
            and game.guild_id is not None
            and self.bot.get_guild(game.guild_id) is None
        )

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._channel_gone(channel.id, "was deleted")

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        # Also sent for the threads of a deleted channel.
        await self._channel_gone(payload.thread_id, "was deleted")

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        # Not sent when a server is only unavailable (an outage): its games wait for it.
        games = await junction(self.bot).tables.store.active_games()
        for game in games:
            if game.guild_id == guild.id:
                await self._channel_gone(game.channel_id, "is in a server Junction left")

    async def _channel_gone(self, channel_id: int, why: str, deleted: bool = False) -> None:
        """End the game of a channel nobody can play in any more with no result (if it has
        one); ``why`` says what became of the channel, for the log. ``deleted``: found deleted
        (no event came, the bot was away), so its tables and lobbies are forgotten too, as
        ``cogs.mygames`` does on the event."""
        if deleted:
            try:
                await gone.channel_deleted(junction(self.bot).tables.store, channel_id)
            except Exception:
                log.warning("could not forget deleted channel %s", channel_id, exc_info=True)
        try:
            ended = await junction(self.bot).tables.abort(channel_id=channel_id)
        except GameError:
            return  # no game there (or it ended at the same moment)
        except Exception:
            log.warning("could not end the game of channel %s", channel_id, exc_info=True)
            return
        log.info("channel %s %s: its game %s ended with no result", channel_id, why, ended.id)

    @lobby_sweeper.before_loop
    async def _lobbies_wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()

    @sweeper.before_loop
    async def _wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()
        # Beside the sweeps, not before them: it asks Discord about every channel the bot
        # does not hold (archived threads, say), one request each, and computers' moves and
        # deadlines must not wait for that. A deadline asks about its own channel anyway.
        self.startup_check = asyncio.create_task(self._end_unreachable_logged())

    async def _end_unreachable_logged(self) -> None:
        try:
            await self.end_unreachable_games()
        except Exception:
            log.warning("could not look for games nobody can reach", exc_info=True)

    async def end_unreachable_games(self) -> None:
        """At start, end the games whose channel went (deleted, or its server removed the bot)
        while the bot was away, each with no result. A game with a turn timer meets its closed
        door at its next deadline; one without would stay in play for ever, where nobody can
        /abort it, and keep its members from being forgotten (``junction forget-member``
        refuses a member in a game in play)."""
        for game in await junction(self.bot).tables.store.active_games():
            if self._serves(game):
                await self._reachable(game)

    async def _announce(self, event: TimerEvent) -> None:
        channel = self.bot.get_channel(event.game.channel_id) or await self.bot.fetch_channel(
            event.game.channel_id
        )
        if not isinstance(channel, discord.abc.Messageable):
            return
        mentions = " ".join(f"<@{s.user_id}>" for s in event.waiting if s.user_id is not None)
        if event.kind == "remind":
            deadline = event.game.turn_deadline
            when = f" <t:{int(deadline)}:R>" if deadline else " soon"
            # Days into a slow game the table may be hundreds of messages up: the ping leads
            # there, as /mygames does.
            game, link = event.game, "."
            if game.message_id is None and game.guild_id is not None:
                # Forgotten as a moderator deleted it (MyGames listens), or never posted.
                link = ". /table posts the table again."
            elif game.message_id is not None:
                table = message_link(game.guild_id, game.channel_id, game.message_id)
                link = f" · [table]({table})"
                try:
                    await channel.fetch_message(game.message_id)
                except discord.HTTPException as error:
                    # Deleted while the bot was away (no event came): its link would open
                    # nothing. (Once a turn, so the look costs little; any other failure
                    # keeps the link.) Forgotten, so /mygames stops linking to it too.
                    if await self._found_gone(game.channel_id, game.message_id, error):
                        link = ". /table posts the table again."
            await channel.send(
                f"⏳ {mentions}, your turn runs out{when}{link}",
                allowed_mentions=pings(s.user_id for s in event.waiting),
            )
            return
        await send_table(junction(self.bot), channel.send, event.update)

    async def _found_gone(
        self, channel_id: int, message_id: int, error: discord.HTTPException
    ) -> bool:
        """``gone.found_gone``, logged rather than raised: whether the message was gone."""
        try:
            return await gone.found_gone(
                junction(self.bot).tables.store, channel_id, message_id, error
            )
        except Exception:
            log.warning("could not forget deleted table %s", message_id, exc_info=True)
            return isinstance(error, discord.NotFound)

    @app_commands.command(name="settings", description="Server settings for Junction games")
    @app_commands.describe(
        turn_timer="Minutes a player may take per turn (0 turns the timer off)",
        on_timeout="What happens when the time runs out",
        reaction_window="Seconds a player has to react out of turn (5–3600, default 45)",
    )
    @app_commands.choices(on_timeout=TIMEOUT_CHOICES)
    # No default permission: any member may look at the settings (a game's timer is theirs to
    # know); a change needs Manage Server, checked below.
    @app_commands.guild_only()
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        turn_timer: app_commands.Range[int, 0, MAX_TURN_MINUTES] | None = None,
        on_timeout: str | None = None,
        reaction_window: app_commands.Range[int, MIN_REACTION_SECONDS, MAX_REACTION_SECONDS]
        | None = None,
    ) -> None:
        guild_id = interaction.guild_id
        if guild_id is None:
            # What a member playing here would ask /settings is how long a turn may take: none
            # of a server's settings reach a game in a direct message (Tables.timers), and
            # nobody waits on the member there, so a turn has no timer.
            raise BadOption(
                "Settings belong to a server. A game in our direct messages has no turn timer, "
                f"and {plural(DEFAULT_REACTION_SECONDS, 'second')} to react out of turn."
            )
        allowed = interaction.permissions
        may_change = allowed.manage_guild or allowed.administrator
        changing = turn_timer is not None or bool(on_timeout) or reaction_window is not None
        if changing and not may_change:
            # Discord offers the command to every member, to look: a change asked for (by an
            # option, or one sent by hand) is refused before any is read, so none is stored
            # and the timers of every game waiting untimed are left as they are.
            raise BadOption("Only members with Manage Server can change the Junction settings.")
        # Discord keeps its clients within the options' ranges; a request made by hand is not.
        if turn_timer is not None and not 0 <= turn_timer <= MAX_TURN_MINUTES:
            raise BadOption("Turn timer: give 0 to 10 080 minutes (a week); 0 turns it off.")
        if reaction_window is not None and not (
            MIN_REACTION_SECONDS <= reaction_window <= MAX_REACTION_SECONDS
        ):
            raise BadOption("Reaction window: give 5 to 3 600 seconds (an hour).")
        store = bot_of(interaction).store
        current = await store.guild_settings(guild_id)
        if not changing:
            # Nothing to change: the settings as they stand, and nothing written (a server
            # that never set them keeps no row of the defaults).
            how = (
                "Nothing changed: give `turn_timer`, `on_timeout` or `reaction_window` to "
                "change them."
                if may_change
                else "Members with Manage Server change them."
            )
            await say_privately(interaction, f"{settings_text(current)} {how}")
            return
        seconds = current.turn_seconds
        if turn_timer is not None:
            seconds = turn_timer * 60 if turn_timer > 0 else None
        chosen = on_timeout or current.on_timeout
        if chosen not in ("computer", "forfeit"):
            raise BadOption("On timeout: choose 'computer' or 'forfeit'.")
        updated = GuildSettings(
            guild_id,
            seconds,
            "forfeit" if chosen == "forfeit" else "computer",
            reaction_window or current.reaction_seconds,
        )
        await store.set_guild_settings(updated)
        tables = bot_of(interaction).tables
        tables.forget_settings(guild_id)
        timed = 0
        if seconds is not None:
            # Games waiting with no timer get one now; the others change at their next move.
            # Each waits for its channel's lock, held while computers there think: Discord's
            # three seconds could run out meanwhile, and the settings, stored, read as failed.
            await defer(interaction, thinking=True, ephemeral=True)
            timed = await tables.time_untimed(guild_id)
        said = f"{settings_text(updated)} The times apply from each game's next move" + (
            f"; {plural(timed, 'game')} waiting with no timer got one now." if timed else "."
        )
        if updated.on_timeout != current.on_timeout:
            # A deadline stores when a turn runs out, not what happens then: that is read from
            # the settings when it does, so a turn already running meets the new choice.
            said += " The new choice applies at once, to turns already running too."
        await say_privately(interaction, said)


def settings_text(settings: GuildSettings) -> str:
    """A server's settings in a sentence or two, as /settings answers them."""
    seconds = settings.turn_seconds
    timer = "off" if seconds is None else f"{seconds // 60} min per turn"
    action = (
        "the computer plays the turn"
        if settings.on_timeout == "computer"
        else "the player forfeits"
    )
    return (
        f"⚙️ Turn timer: **{timer}**; when it runs out, {action}. Reaction window: "
        f"**{settings.reaction_seconds} s**."
    )


def _deleted(error: discord.HTTPException) -> bool:
    """Whether Discord's answer says a channel does not exist (deleted), rather than out of
    reach (a server that removed the bot)."""
    return isinstance(error, discord.NotFound) and error.code == gone.UNKNOWN_CHANNEL


def shard_of(game: StoredGame, shards: Shards) -> int:
    """The shard whose connection carries a game's presses: its server's, as Discord assigns
    servers; shard 0 for a game on no server (Discord sends direct messages to shard 0 only)."""
    return 0 if game.guild_id is None else (game.guild_id >> 22) % shards.count


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Timers(bot))
