"""Per-member limits on what one member (or a few) could otherwise spam at every other member's
expense: the commands that keep a shared worker busy, the threads a game opens, and the games
and open tables one member holds on a server. Moves are never limited: play is never throttled.

Every number is here, each with why, and README's *Limits per member* says them. They are
generous: an honest member never meets them; a member sending a command again and again meets
them soon.

* ``HINTS``: a /hint runs the expert's search, about 0.3 s of the one thinking worker
  (``JUNCTION_THINK_PROCESSES``), which every ``expert`` computer in every channel thinks in
  too. Measured: twelve /hints sent at once kept it busy 2.4 s, and another member's own /hint
  meanwhile took 2.2 s instead of 0.3 s. Eight in 30 seconds is faster than a member can ask,
  read and play; it caps a member at 2.4 s of the worker every 30 s. One at a time
  (``limited``): the twelve at once now cost one search, and the other hint took 0.4 s.
* ``REPLAYS``: a /replay of a game not drawn lately is about 5 s of the one drawing worker
  (``JUNCTION_RENDER_PROCESSES``), which draws every table of every channel. Measured: eight
  /replays of six-car Dragon games sent at once kept it busy 41 s, and another member's /play
  in another channel posted its table in 0.5 s instead of 0.02 s throughout. Four in five
  minutes is more than one per finished game; it caps a member at about 20 s of drawing every
  five minutes. One at a time: the eight at once now draw one, and the other table took 0.08 s.
* ``BOARDS``: /leaderboard and /stats replay a ladder's ratings from its results (kept and
  extended between requests, but still read from the store each time): on a server of 50 000
  results about 0.5 s of CPU each, in a thread beside the event loop. /stats also reads all of
  the member's own results there, through their index (migration 0017), in the store's one
  connection: with ``junction bench --boards``' season of 200 000 results, 0.3 ms for a member
  with none there; for one with 18 000 games the connection is held 0.27 s on SQLite (another
  channel's read waits that long), then 1.4 s in all with the rows parsed (by the seats' text:
  0.16 s and 0.38 s). Ten in a minute is more than a member reads; one at a time, so a burst
  costs one.
* ``HISTORIES``: /history reads the member's last results on the server, in the store's one
  connection, which every move of every channel waits for meanwhile, and then looks at the
  messages it links to on Discord (``cogs.links``). Found by their seats' text, the read went
  through every result of the server: at 200 000 results 0.1 to 0.15 s for a member with games
  there, 0.56 s for one with none (any member may be named), so a member sending it again and
  again stalled every channel. Through their index (migration 0017) it reads only theirs:
  with ``junction bench --boards``' season of 200 000 results, 0.4 to 0.8 ms on SQLite (0.21
  to 0.27 s by the seats' text on the same machine), 1 to 5 ms on PostgreSQL (0.11 to 0.19 s).
  Ten in a minute is more than a member reads; one at a time, so a burst costs one.
* ``THREADS``: /play, /challenge and /host with ``thread:true`` each open a Discord thread,
  which stays in the channel's thread list for everyone; nothing else bounded how many
  (a game aborted at once frees its thread's place). Six in ten minutes is a game every
  hundred seconds.
* ``INVITATIONS``: each /challenge (and Rematch with members) pings the members it invites.
  ``OPEN_TABLES`` bounds how many wait at once, not how often: a challenge cancelled at once
  and sent again pinged its member each time, without end (a Rematch too). Ten challenges
  in ten minutes is more than an honest member sends, declined or not.
* ``GAMES_AT_ONCE``: one game per channel bounds nothing once each game has a thread of its
  own: a member could start games (and threads) without end. Ten games in play on a server at
  once is more than anyone follows. Checked whenever a member takes a seat: /play, /challenge
  and /host, and the buttons that seat them in someone else's game (Accept, Join, Rematch), as
  an 11th game came through those too. A seat once taken is kept: when the last invitee
  accepts, the last seat fills or the host presses Start, the game starts for everyone
  seated, even one (the host, say) who reached the limit since. Refusing then would turn
  away the member pressing for another's games, and the table could never fill. So a seat
  held at a table still waiting for players (hosted, joined, accepted) counts when the next
  seat is taken: a member could otherwise sit at twenty tables that all start at once. Decline
  and Leave take no seat: never refused. A computer's seat counts for nobody. A member's
  requests that may seat them are counted one at a time (``seating``), from the store, across
  processes: sent at the same moment, each passed the count before any stored its game.
* ``OPEN_TABLES``: each /challenge pings the members it invites, and lobbies stay open for
  ``JUNCTION_CHALLENGE_TIMEOUT`` (up to a week): a member could ping another twenty times in a
  second. Three tables or invitations hosted at once, waiting for players, is plenty.

Games at once and ``OPEN_TABLES`` are read from the store, so they hold across the processes
sharing it. The cooldowns (the ``Rate`` limits) are kept in each process's memory: a member
whose servers two processes serve can use each up in both (README says which is which).

The cooldowns are discord.py's own (``app_commands.Cooldown``, refused with its
``CommandOnCooldown``, here ``TooSoon``, which the bot's error handler answers with when to try
again), read on the interaction's own time as discord.py's cooldown checks read it. They are
kept on the bot rather than in discord.py's decorators, which keep theirs in the module for as
long as the process lives: a new bot (a restart) starts with none. A token is taken only once a
request has passed every other check, just before the costly work, so a refused request (no
game here, not your turn) costs nothing; an invitation or a thread counts once it is stored or
opened (``check`` first, ``count`` after). A bucket back to full is dropped at the next request,
so what is kept is bounded by the members who used a limited command in its last period.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.core import BadOption
from bot.engine.words import plural
from bot.store.base import LobbyRecord, SeatingBusy
from bot.tables import Tables
from cogs.ui import junction


@dataclass(frozen=True)
class Rate:
    """At most ``uses`` per member in ``seconds`` (a window opened by the first use)."""

    name: str
    uses: int
    seconds: float
    refusal: str
    """The sentence refusing a request past the limit; ``{when}`` is a relative timestamp."""
    busy: str = ""
    """The sentence refusing a request sent while the member's last one is still being worked
    out (``limited``): a member waits for their answer, only a flood asks again meanwhile."""


HINTS = Rate(
    "hint",
    8,
    30.0,
    "You have asked for many hints just now: ask again {when}.",
    "Your last hint is still being worked out: it comes in a moment.",
)
REPLAYS = Rate(
    "replay",
    4,
    300.0,
    "You have asked for several replays just now: ask again {when}.",
    "Your last replay is still being drawn: it comes in a moment.",
)
BOARDS = Rate(
    "board",
    10,
    60.0,
    "You have asked for many boards and cards just now: ask again {when}.",
    "Your last board is still being drawn: it comes in a moment.",
)
HISTORIES = Rate(
    "history",
    10,
    60.0,
    "You have asked for many histories just now: ask again {when}.",
    "Your last history is still being read: it comes in a moment.",
)
THREADS = Rate(
    "thread",
    6,
    600.0,
    "You have started several games in threads just now: start one in a thread again {when}, "
    "or without thread:true now.",
)
INVITATIONS = Rate(
    "invitation",
    10,
    600.0,
    "You have sent many invitations just now: invite members again {when}, or /host a table "
    "anyone may join.",
)
GAMES_AT_ONCE = 10
"""The most games in play one member may be seated at on a server when taking a seat in
another (starting it, accepting, joining, asking for a rematch)."""
OPEN_TABLES = 3
"""The most open tables and invitations (/host, /challenge) one member may host on a server."""


class TooSoon(app_commands.CommandOnCooldown):
    """discord.py's cooldown refusal, knowing which limit refused (for its sentence)."""

    def __init__(self, rate: Rate, cooldown: app_commands.Cooldown, retry_after: float) -> None:
        super().__init__(cooldown, retry_after)
        self.rate = rate

    def sentence(self, interaction: discord.Interaction[Any]) -> str:
        """The refusal, saying when to try again: Discord shows ``<t:…:R>`` as "in 2 minutes"
        in the member's own language. The next whole second after the period: a request at its
        very end is still inside it."""
        when = interaction.created_at.timestamp() + self.retry_after
        return self.rate.refusal.format(when=f"<t:{math.floor(when) + 1}:R>")


class Cooldowns:
    """Each member's discord.py ``Cooldown`` per limited command, for one bot."""

    def __init__(self) -> None:
        self._buckets: dict[tuple[str, int], app_commands.Cooldown] = {}
        self.running: set[tuple[str, int]] = set()
        """(command, member) whose last request is still being worked out (``limited``)."""
        # Weak: a member's lock lives only while one of their requests holds or awaits it.
        self.seating: weakref.WeakValueDictionary[tuple[int, int], asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        """(member, server) whose requests that may seat them are taken one at a time
        (``seating``)."""

    def check(self, interaction: discord.Interaction[Any], *rates: Rate) -> None:
        """``TooSoon`` for the first of ``rates`` the member has used up; counts nothing."""
        now = interaction.created_at.timestamp()
        # Buckets back to full say nothing: dropped, so memory follows the recent members only.
        full = [k for k, b in self._buckets.items() if b.get_tokens(now) == b.rate]
        for key in full:
            del self._buckets[key]
        for rate in rates:
            bucket = self._buckets.get((rate.name, interaction.user.id))
            if bucket is not None and bucket.get_tokens(now) == 0:
                raise TooSoon(rate, bucket, bucket.get_retry_after(now))

    def count(self, interaction: discord.Interaction[Any], *rates: Rate) -> None:
        """Count one use of each of ``rates`` by the member, refusing nothing (``check`` came
        first)."""
        now = interaction.created_at.timestamp()
        for rate in rates:
            key = (rate.name, interaction.user.id)
            bucket = self._buckets.setdefault(key, app_commands.Cooldown(rate.uses, rate.seconds))
            bucket.update_rate_limit(now)

    def take(self, interaction: discord.Interaction[Any], *rates: Rate) -> None:
        """Count one use of each of ``rates`` by the member; ``TooSoon`` past any of them, and
        then none is counted (``check`` then ``count``)."""
        self.check(interaction, *rates)
        self.count(interaction, *rates)

    def __len__(self) -> int:
        return len(self._buckets)


def cooldowns_of(client: Any) -> Cooldowns:
    """The bot's cooldowns, kept on it: a restart (a new bot) forgets them."""
    cooldowns = getattr(client, "cooldowns", None)
    if not isinstance(cooldowns, Cooldowns):
        cooldowns = client.cooldowns = Cooldowns()
    return cooldowns


def check(interaction: discord.Interaction[Any], *rates: Rate) -> None:
    """``TooSoon`` when the member asking has used up any of ``rates``; nothing counted: for a
    request whose use is known only once it is stored (``count`` then)."""
    cooldowns_of(interaction.client).check(interaction, *rates)


def count(interaction: discord.Interaction[Any], *rates: Rate) -> None:
    """One use of each of ``rates`` by the member asking, after ``check``; never refuses."""
    cooldowns_of(interaction.client).count(interaction, *rates)


SEATING_BUSY = (
    "Another of your requests to play on this server is still being worked out: "
    "press again in a moment."
)
"""A request that waited ``SEATING_WAIT`` for the member's claim held by another process."""


@contextlib.asynccontextmanager
async def seating(interaction: discord.Interaction[Any]) -> AsyncIterator[None]:
    """A member's requests that may seat them in a game on a server (/play, /challenge, /host,
    Accept, Join, Rematch), worked out one at a time: each counts the member's games
    (``check_room``) and then stores its game or seat, so two sent at the same moment both
    passed the count before either was stored, and a member at nine games started eleven. The
    later request waits for the earlier and counts its game. Across processes too: the limit is
    per server, and a server is one shard's, but two processes may serve the same shard for a
    while (a quick restart, the old process not yet gone, sharing one PostgreSQL store), each
    counting alone; so the request also holds the member's claim in the store
    (``Store.seating``). The
    process's own lock comes first, so a burst from one member waits here, not in the store."""
    if interaction.guild_id is None:
        yield  # no limit outside servers
        return
    key = (interaction.user.id, interaction.guild_id)
    locks = cooldowns_of(interaction.client).seating
    lock = locks.get(key)
    if lock is None:
        lock = locks[key] = asyncio.Lock()
    store = junction(interaction.client).tables.store
    async with lock, contextlib.AsyncExitStack() as held:
        try:
            await held.enter_async_context(store.seating(interaction.user.id, interaction.guild_id))
        except SeatingBusy:
            # Only the wait for the claim is refused so: what the block raises goes as it is.
            raise BadOption(SEATING_BUSY) from None
        yield


@contextlib.contextmanager
def limited(interaction: discord.Interaction[Any], rate: Rate) -> Iterator[None]:
    """One use of ``rate``'s command (``Cooldowns.take``), worked out inside the block, one at a
    time per member: a request sent while the member's last is still running is refused
    (``rate.busy``, nothing counted). Without it, a dozen /hints sent at once all queued in the
    worker within their cooldown, and another member's hint waited behind every one (2.2 s for
    0.3 s)."""
    cooldowns = cooldowns_of(interaction.client)
    key = (rate.name, interaction.user.id)
    if key in cooldowns.running:
        raise BadOption(rate.busy)
    cooldowns.take(interaction, rate)
    cooldowns.running.add(key)
    try:
        yield
    finally:
        cooldowns.running.discard(key)


async def room_for(
    interaction: discord.Interaction[Any], *, open_tables_at: float | None = None
) -> None:
    """``check_room`` for the member asking, on the interaction's server, counting the tables
    the bot's timers still owe a downtime (``Timers.owes_time``)."""
    bot = junction(interaction.client)
    await check_room(
        bot.tables,
        interaction.user.id,
        interaction.guild_id,
        open_tables_at=open_tables_at,
        owes_time=owed_time_of(bot),
    )


def owed_time_of(bot: commands.Bot) -> Callable[[LobbyRecord], Awaitable[bool]] | None:
    """The bot's timers' ``Timers.owes_time`` (None without the timers' cog, as in tools and
    some tests): whether a lobby past its stored time is still owed the downtime back."""
    owes: Callable[[LobbyRecord], Awaitable[bool]] | None = getattr(
        bot.get_cog("Timers"), "owes_time", None
    )
    return owes


async def check_room(
    tables: Tables,
    user_id: int,
    guild_id: int | None,
    *,
    open_tables_at: float | None = None,
    owes_time: Callable[[LobbyRecord], Awaitable[bool]] | None = None,
) -> None:
    """Refuse (BadOption, naming where they are) a member who starts a game, or takes a seat in
    one (Accept, Join, Rematch), while seated at ``GAMES_AT_ONCE`` games on the server: games
    in play they have not left, and seats they hold at tables still waiting for players (hosted
    or joined or accepted: such a table may start at any moment, and twenty of them starting
    at once would put the member at twenty games). Counted from the store at the moment of the
    check, under ``seating``; with ``open_tables_at`` (/challenge, /host), also one hosting
    ``OPEN_TABLES`` tables still waiting for players. A table past its time that
    ``owes_time`` (the restarted bot's first sweep is still to give it its downtime back)
    waits for players still, and counts: a member back at once after a restart was let take
    seats past the limit at the moment the table went on."""
    if guild_id is None:
        return
    from cogs import lobby as lobby_cog  # the lobbies' clock; lobby imports this module

    in_play = await tables.store.games_in_play_of(user_id, guild_id)
    now = lobby_cog.clock() if open_tables_at is None else open_tables_at
    lobbies = await lobbies_waiting(tables, user_id, guild_id, now, owes_time)
    waiting = [found for found in lobbies if holds_seat(found, user_id)]
    playing = [channel_id for _, channel_id in in_play]
    if len(playing) + len(waiting) >= GAMES_AT_ONCE:
        # Who left a game is read from its move log (and the game's seats): only when the
        # games could reach the limit.
        playing = [
            stored.channel_id
            for stored in await tables.store.games_of_member(user_id, active=True)
            if stored.guild_id == guild_id and not await tables.hindsight.has_left(stored, user_id)
        ]
    if len(playing) + len(waiting) >= GAMES_AT_ONCE:
        where = ", ".join(f"<#{c}>" for c in [*playing, *(w.channel_id for w in waiting)])
        held = [f"playing {plural(len(playing), 'game')}"] if playing else []
        if waiting:
            held.append(f"seated at {plural(len(waiting), 'table')} waiting for players")
        leave = ", or leave a table (Leave, or Cancel your own)" if waiting else ""
        raise BadOption(
            f"You are {' and '.join(held)} on this server already ({where}): finish one, "
            f"or /abort it{leave}, before starting another."
        )
    if open_tables_at is None:
        return
    hosted = [found for found in lobbies if found.host_id == user_id and found.rematch_of is None]
    if len(hosted) >= OPEN_TABLES:
        where = ", ".join(f"<#{found.channel_id}>" for found in hosted)
        raise BadOption(
            f"You have {plural(len(hosted), 'table')} waiting for players on this server "
            f"already ({where}): cancel one with its Cancel button, or let it start or close, "
            "before opening another."
        )


async def lobbies_waiting(
    tables: Tables,
    user_id: int,
    guild_id: int,
    now: float,
    owes_time: Callable[[LobbyRecord], Awaitable[bool]] | None = None,
) -> list[LobbyRecord]:
    """The open tables and invitations on a server naming ``user_id`` that still wait for
    players at ``now`` (``Store.open_lobbies_of``): one past its time too while ``owes_time``
    (the restarted bot's first sweep is still to give it its downtime back). What the limits
    count and /mygames lists, so the two never disagree."""
    if owes_time is None:
        return await tables.store.open_lobbies_of(user_id, guild_id, now)
    # Every open one (a member holds a few), those past their time only if owed time.
    return [
        found
        for found in await tables.store.open_lobbies_of(user_id, guild_id, 0.0)
        if found.expires_at >= now or await owes_time(found)
    ]


def holds_seat(lobby: LobbyRecord, user_id: int) -> bool:
    """Whether ``user_id`` has a seat at ``lobby``: its host, or a member who accepted (or
    joined an open table). An invitation not yet answered is no seat: accepting it is taking
    one, and is counted then."""
    if lobby.host_id == user_id:
        return True
    invitee = lobby.invitee(user_id)
    return invitee is not None and invitee.answer == "accepted"
