"""Dealing a game and posting its first table: the seats computers take, the checks every start
makes (how many seats, which level), the game's own thread, and :func:`deal` for a game with no
lobby to wait for (/play, a rematch alone against the computer).

Dependency direction: under ``cogs.new_game``, ``cogs.lobby`` and ``cogs.rematch``, which
import it; it imports ``cogs.ui`` only.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.engine.core import BadOption, players_wanted
from bot.engine.words import names
from bot.games import get_policy
from bot.games.bundle import GameBundle
from bot.seats import computer_names
from bot.store.base import DailyClaim, SeatRecord
from bot.typed_moves import typed_move
from bot.updates import TableUpdate
from cogs.ui import (
    answer,
    answered_in_time,
    bot_of,
    defer,
    drop_thinking,
    post_table,
    post_table_in_channel,
    quote_number,
    send_table,
)

log = logging.getLogger("junction.dealing")

NO_THREAD = (
    "I could not create a thread here (is the Create Public Threads permission missing?). "
    "Try again without a thread."
)


def computer_seats(start: int, count: int, level: str) -> list[SeatRecord]:
    """``count`` computers playing at ``level``, seated from ``start`` on."""
    names = computer_names(count, level)
    return [SeatRecord(start + i, name, policy=level) for i, name in enumerate(names)]


def vs_computers(count: int) -> str:
    """The headline's opponents when they are all computers: "vs the computer", or
    "vs 2 computers" (a table of three cars is not one computer)."""
    return "vs the computer" if count == 1 else f"vs {count} computers"


def check_seats(found: GameBundle, seats: int, counted: Sequence[str] = ()) -> None:
    """Refuse a table of ``seats`` the game is not played by. ``counted``: what the command
    asked for that adds up to them ("you", "4 open seats"), said in the refusal, since a member
    who asked for four seats may not count the one they sit in."""
    info = found.info
    if not info.min_players <= seats <= info.max_players:
        wanted = players_wanted(info.min_players, info.max_players)
        how = f" ({names(list(counted))})" if counted else ""
        raise BadOption(f"{info.title} is played by {wanted}, not {quote_number(seats)}{how}.")


def level_of(found: GameBundle, level: str | None) -> str:
    """The computers' level named in a command's level field, read as a typed move is
    (``typed_move``: full width, zero-width spaces), or the game's default one."""
    name = typed_move(level or found.default_policy).lower()
    get_policy(found.key, name)  # an unknown level is a readable BadOption
    return name


THREAD_NAME = 90
"""The most characters of a game thread's name (Discord takes 100)."""


def thread_name(title: str, names: Sequence[str]) -> str:
    """A game thread's name, "Dragon Mille Bornes: Ann vs Bob vs Cy", naming whole players
    only: the names that do not fit are counted ("… and 2 more"). Cut where the limit fell,
    two members sharing a long name read alike, their table's "(2)" cut away."""
    for count in range(len(names), 0, -1):
        rest = len(names) - count
        shown = f"{title}: {' vs '.join(names[:count])}" + (f" and {rest} more" if rest else "")
        if len(shown) <= THREAD_NAME:
            return shown
    return f"{title}: {len(names)} players"


async def thread_for(
    interaction: discord.Interaction[Any], wanted: bool, name: str
) -> discord.Thread | None:
    """A public thread for the game when asked for one in a text channel, else None: opened
    under the interaction's public "thinking…" (which must be answered so first), the message
    that then says where the game is.

    Under a message rather than in the channel: Discord may open a thread and still answer with
    a server error (an outage's 5xx), and discord.py then asks again by itself. A channel
    opened a second thread, the game went into one and the other stayed empty in the channel's
    thread list; a message has one thread at most, so the second try is refused and the thread
    under the message taken (``thread_under``).

    A thread Discord will not open under the answer, for a reason other than a missing
    permission or an outage, is opened in the channel as before: a thread under an answer
    still "thinking…" is what the fake Discord allows, and a real one refusing it must not cost
    every member their thread.

    Refused by Discord, the "thinking…" is taken back first, so that the refusal is told to
    the member alone."""
    channel = interaction.channel
    if not wanted or not isinstance(channel, discord.TextChannel):
        return None
    name = name[:THREAD_NAME]
    try:
        try:
            thinking = await interaction.original_response()
            return await thread_under(interaction.client, thinking, name)
        except (discord.Forbidden, discord.DiscordServerError):
            raise  # the channel would refuse it alike, or may open one Discord already has
        except discord.HTTPException:
            log.warning("no thread under /play's answer; opening it in the channel", exc_info=True)
            return await channel.create_thread(name=name, type=discord.ChannelType.public_thread)
    except discord.HTTPException:
        await drop_thinking(interaction)
        raise BadOption(NO_THREAD) from None


THREAD_EXISTS = 160004
"""Discord's code for a thread asked of a message that has one already."""


async def thread_under(
    client: discord.Client, message: discord.Message, name: str
) -> discord.Thread:
    """A thread named ``name`` under ``message`` (an invitation, /play's answer), for its game.

    Discord may open it and still answer with a server error (an outage's 5xx); discord.py's
    second try is then told the message has a thread already (160004), which is no refusal:
    the thread a message has bears the message's id, and is taken (as is one left by a start
    that failed after opening it). So is one found after a server error at every try: the
    first may have opened it."""
    try:
        return await message.create_thread(name=name)
    except discord.HTTPException as error:
        if error.code != THREAD_EXISTS and not isinstance(error, discord.DiscordServerError):
            raise
        try:
            found = await client.fetch_channel(message.id)
        except discord.HTTPException:
            raise error from None  # no thread (Unknown Channel), or Discord is still failing
        if not isinstance(found, discord.Thread):
            raise error from None
        log.warning("the message %s had its thread already; the game is played there", message.id)
        return found


async def deal(
    interaction: discord.Interaction[Any],
    found: GameBundle,
    seats: Sequence[SeatRecord],
    options: Mapping[str, str],
    headline: str,
    *,
    target: discord.Thread | None = None,
    seed: int | None = None,
    labels: Mapping[str, str] | None = None,
    claim: DailyClaim | None = None,
) -> None:
    """Deal a game with no lobby to wait for (one member, computers in the other seats) and
    post its first table, in ``target`` when the game has a thread of its own."""
    channel_id = target.id if target is not None else interaction.channel_id
    if channel_id is None:
        raise BadOption("Games are played in a channel.")
    answered = lost = False

    async def answer_first() -> None:
        # Computers open the game, and an expert searches a while: answer Discord first.
        nonlocal answered, lost
        if not answered:
            answered = True
            if target is not None:
                where = f"Your game is in {target.mention}."
                # /play answered (thinking…) before it opened the thread under that answer,
                # which now says where the game is: an edit, which discord.py may send again
                # after a server error harmlessly. (A follow-up Discord posted and failed would
                # be looked for in the answer, which discord.py read once, to open the thread,
                # and keeps as it read it: still thinking, so never found.)
                said = (
                    interaction.edit_original_response(content=where)
                    if interaction.response.is_done()
                    else answer(interaction, where)
                )
                lost = not await answered_in_time(said)
            else:
                lost = not await answered_in_time(defer(interaction, thinking=True))

    update = await bot_of(interaction).tables.start(
        channel_id=channel_id,
        guild_id=interaction.guild_id,
        game_key=found.key,
        seats=seats,
        options=options,
        seed=seed,
        labels=labels,
        before_computers=answer_first,
        daily=claim,
    )
    notice = found.presenter.start_notice(update.game.options)
    if notice:
        headline += f"\n{notice}"
    await answer_first()
    await post_first_table(interaction, update, headline, target, lost)


async def post_first_table(
    interaction: discord.Interaction[Any],
    update: TableUpdate,
    headline: str,
    thread: discord.Thread | None,
    lost: bool,
) -> None:
    """Post a new game's first table: in ``thread`` when the game has one, else to the channel
    when the interaction's answer was ``lost``, else as the interaction's follow-up."""
    if thread is not None:
        await send_table(bot_of(interaction), thread.send, update, headline)
    elif lost:
        await post_table_in_channel(interaction, update, headline)
    else:
        await post_table(interaction, update, headline)
