"""A hostile review of the day's features: /mygames, ``junction forget-member``, a server that
removes the bot, and the fake Discord's form limits.

Each test drives the real cogs through the fake Discord and holds a fix for what the review
found (each docstring says what was tried, and what the fix does).
"""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

import bot.games.registry as bot_games_registry
from bot.console import PLAYER_ID as CONSOLE_PLAYER
from bot.forget import forget_member
from bot.store.base import CONSOLE_CHANNEL, GuildSettings, SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import sweep_after
from tests.discord import limits
from tests.discord.backend import ALICE_ID, BOB_ID, CAROL_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver

TWO_MEMBERS = [SeatRecord(0, "Alice", user_id=ALICE_ID), SeatRecord(1, "Bob", user_id=BOB_ID)]


# --- a server that removes the bot ---------------------------------------------------------------


async def _kicked_while_away(driver: InteractionDriver) -> None:
    """Alice and Bob play Mille Bornes; then the server removes Junction while it is down:
    its channels answer "Missing Access" and the bot never heard of the removal."""
    bot = running_bot(driver)
    await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="mille", seats=TWO_MEMBERS, seed=3
    )
    driver.backend.world.bot_in_guild = False
    guild = bot.get_guild(GUILD_ID)
    assert guild is not None
    bot._connection._remove_guild(guild)


async def test_a_deadline_long_past_does_not_play_a_game_the_bot_was_kicked_from(
    driver: InteractionDriver,
) -> None:
    """Junction is kicked while it is down, for long enough that a member's turn timer ran
    out (forfeit on timeout): the first sweep after it comes back has no reminder to send, only
    the deadline. Found by a hostile review of today's features: the sweep played the deadline
    first (Bob won by Alice's forfeit, a rated result) and only then met "Missing Access"
    posting the table, with nothing left to end. The sweep now asks Discord, before it plays a
    deadline, about a game whose channel it does not hold, and ends it with no result when the
    channel is out of reach."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "forfeit"))
    await _kicked_while_away(driver)
    await sweep_after(driver, 3600)  # away for an hour: the deadline, not the reminder
    assert await bot.store.active_game(GAMES_CHANNEL_ID) is None
    assert await bot.store.results(game_key="mille", guild_id=GUILD_ID) == []


async def test_a_deadline_long_past_does_not_play_a_game_whose_channel_went(
    driver: InteractionDriver,
) -> None:
    """The same for a channel deleted while the bot was away for longer than a turn timer.
    Found by the same review: Alice forfeited to the deadline and Bob's win was rated before
    posting met "Unknown Channel"; the sweep now asks first and ends the game with no result."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "forfeit"))
    await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="mille", seats=TWO_MEMBERS, seed=3
    )
    channel = driver.backend.channel(GAMES_CHANNEL_ID)
    guild = bot.get_guild(GUILD_ID)
    assert channel is not None and guild is not None
    driver.backend.world.channels.remove(channel)
    cached = guild.get_channel(GAMES_CHANNEL_ID)
    assert cached is not None
    guild._remove_channel(cached)  # the bot never heard of the deletion
    await sweep_after(driver, 3600)
    assert await bot.store.active_game(GAMES_CHANNEL_ID) is None
    assert await bot.store.results(game_key="mille", guild_id=GUILD_ID) == []


async def test_a_game_without_a_timer_in_a_server_that_left_ends_at_start(
    driver: InteractionDriver,
) -> None:
    """Junction is kicked while it is down, from a server with no turn timer: no deadline
    will ever meet the closed door. Found by a hostile review of today's features: the game
    stayed in play for ever, where nobody can /abort it, and ``junction forget-member`` refused
    its members for good ("still seated in a game in play"). At start the bot now asks about
    each game whose channel it does not hold, and ends those nobody can reach with no result."""
    bot = running_bot(driver)
    await _kicked_while_away(driver)
    cog = bot.get_cog("Timers")
    assert cog is not None
    await cog.end_unreachable_games()  # type: ignore[attr-defined]
    assert await bot.store.active_game(GAMES_CHANNEL_ID) is None
    assert await forget_member(bot.store, ALICE_ID) is not None


# --- the fake Discord's form limits -------------------------------------------------------------


def test_context_menu_commands_are_named_as_discord_allows() -> None:
    """A user or message command ("View Stats"), as Discord's own examples name one: mixed
    case, spaces, no description. Found by a hostile review of today's features: the checker
    held it to a slash command's lower-case, space-free name and refused a command Discord
    registers (a bot adding a context menu would have failed every test). It is now held to
    1 to 32 characters; a slash command still to the strict form."""
    for kind in (2, 3):
        assert limits.command_problems({"name": "View Stats", "type": kind}) == []
        assert limits.command_problems({"name": "x" * 33, "type": kind})
    assert limits.command_problems({"name": "View Stats", "type": 1, "description": "d"})


def test_link_and_premium_buttons_are_read_as_discord_reads_them() -> None:
    """Found by a hostile review of today's features: the checker let a link button carry a
    custom id and an ordinary button a url (Discord refuses both: "wrong about Discord"), and
    refused a premium button for having no label (which Discord requires of it). Each is now
    checked as Discord does."""

    def problems(item: dict[str, object]) -> list[str]:
        return limits.message_problems({"components": [{"type": 1, "components": [item]}]})

    link = {"type": 2, "style": 5, "label": "Rules", "url": "https://example.org"}
    assert problems(link) == []
    assert problems(link | {"custom_id": "jn:x"})
    assert problems({"type": 2, "style": 1, "label": "Go", "custom_id": "g", "url": "https://x"})
    premium = {"type": 2, "style": 6, "sku_id": "1234"}
    assert problems(premium) == []
    assert problems(premium | {"label": "Buy"})


async def test_a_console_game_in_the_bots_database_is_left_alone(
    driver: InteractionDriver,
) -> None:
    """The operator plays on the console (``junction console``) with the bot's own database,
    its default, and starts the bot: the console's game is in no server and in a channel
    Discord never heard of (channel 0). Ending unreachable games at start must not end it."""
    bot = running_bot(driver)
    seats = [SeatRecord(0, "Operator", user_id=CONSOLE_PLAYER)]
    seats.append(SeatRecord(1, "Computer", policy="normal"))
    await bot.tables.start(
        channel_id=CONSOLE_CHANNEL, guild_id=None, game_key="mille", seats=seats, seed=3
    )
    cog = bot.get_cog("Timers")
    assert cog is not None
    await cog.end_unreachable_games()  # type: ignore[attr-defined]
    assert await bot.store.active_game(CONSOLE_CHANNEL) is not None


# --- /mygames ------------------------------------------------------------------------------------


async def test_a_game_whose_save_cannot_be_read_is_listed(driver: InteractionDriver) -> None:
    """Bob's game with Alice was stored by a Junction whose save this one cannot read. Found by
    a hostile review of today's features: /mygames left it out and told him "You are not
    playing any game on this server" while it held his seat and its channel in play (and
    ``junction forget-member`` refused him for it). It is now listed, with where and with
    whom, and says its save cannot be read and to /abort it there."""
    bot = running_bot(driver)
    started = await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="mille", seats=TWO_MEMBERS, seed=3
    )
    path = bot.settings.db_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET state = ? WHERE id = ?", ('{"x": 1}', started.game.id))
    listed = await driver.slash("mygames", {}, user_id=BOB_ID)
    head, line = (listed.content or "").splitlines()
    assert head == "**Your games here** — 1 in play, 0 waiting for you"
    assert line.startswith(f"**Mille Bornes** in <#{GAMES_CHANNEL_ID}> against Alice: its save")
    assert line.endswith("its save cannot be read: /abort it there")
    asked = await driver.slash("abort", {}, user_id=BOB_ID)  # as the line says, it works
    assert any("wants to abort" in (r.content or "") for r in asked.responses)


async def test_a_game_no_longer_installed_is_listed(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice sits in a game of a plug-in game (the toy Relay) the operator has since
    uninstalled. Found by a hostile review of today's features: /mygames answered her only
    "There is no game called 'relay'" (the unknown game stopped the whole command), so she
    could see none of her other games. It is listed under its key, as a game whose save cannot
    be read."""
    bot = running_bot(driver)
    seats = [*TWO_MEMBERS, SeatRecord(2, "Carol", user_id=CAROL_ID)]
    await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="relay", seats=seats, seed=1
    )
    monkeypatch.delitem(bot_games_registry._BUNDLES, "relay")
    listed = await driver.slash("mygames", {}, user_id=ALICE_ID)
    assert "**relay** in" in (listed.content or ""), listed.content


async def test_looking_for_unreachable_games_does_not_hold_back_the_sweeps(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At start the bot asks Discord about every active game's channel it does not hold, one
    request each. It did so before the first sweep: with many archived threads, computers'
    moves and turn deadlines waited for all of it. The look now runs beside the sweeps."""
    bot = running_bot(driver)
    cog = bot.get_cog("Timers")
    assert cog is not None
    slow = asyncio.Event()

    async def never_done() -> None:
        await slow.wait()

    async def ready() -> None:
        return None  # the fake's bot has no gateway to be ready on

    monkeypatch.setattr(cog, "end_unreachable_games", never_done)
    monkeypatch.setattr(bot, "wait_until_ready", ready)
    await asyncio.wait_for(cog._wait_until_ready(), timeout=2)  # type: ignore[attr-defined]
    check = cog.startup_check  # type: ignore[attr-defined]
    assert check is not None and not check.done()
    await cog.cog_unload()
    await asyncio.sleep(0)
    assert check.cancelled()
