"""Today's deal in /play: the seed every member of a server is dealt for a game, once a day.

A member who played today's deal (finished, or still playing it) is refused before anything is
dealt; the claim itself is stored with the game (``Tables.start``), so two requests at the same
moment deal it once.

Dependency direction: under ``cogs.new_game`` (the /play command), which imports it; it imports
``cogs.ui`` only.
"""

from __future__ import annotations

import time
from typing import Any

import discord

from bot.daily import daily_date, daily_secret, daily_seed, played_today
from bot.engine.core import BadOption
from bot.engine.words import names
from bot.games import all_bundles
from bot.games.bundle import GameBundle
from bot.store.base import DailyClaim
from bot.tables import DAILY_DEALT
from cogs.ui import bot_of


def _now() -> float:
    """The clock today's deal is read by (a function so tests can move it)."""
    return time.time()


def daily_games() -> str:
    """Which games deal a daily deal, in a sentence ("Daily deals are for Mille Bornes Solo and
    Ticket to Ride Solo."), for the daily deal asked of another game (/play, /leaderboard)."""
    daily = [b.info.title for b in all_bundles() if b.info.daily_deal]
    return f"Daily deals are for {names(daily) or 'no game yet'}."


async def daily_deal(
    interaction: discord.Interaction[Any], found: GameBundle, options: dict[str, str]
) -> tuple[int, dict[str, str]]:
    """Today's seed for this server and game, refusing a member who already played it."""
    if not found.info.daily_deal:
        raise BadOption(daily_games())
    if interaction.guild_id is None:
        raise BadOption("The daily deal is played in a server.")
    # Only how the cards are shown may be chosen (French card names): the deal is the same.
    if set(options) - found.display_options:
        raise BadOption("The daily deal uses the standard settings, so everyone plays alike.")
    now = _now()
    today = daily_date(now)
    store = bot_of(interaction).tables.store
    if await played_today(
        store,
        guild_id=interaction.guild_id,
        game_key=found.key,
        user_id=interaction.user.id,
        now=now,
    ):
        raise BadOption(
            f"You have already played today's deal. Compare results with "
            f"/leaderboard game:{found.key} period:today's deal."
        )
    # The member's own games in play only, found in SQL: every game in play on every server
    # was read and parsed for each /play daily:true (2 000 of them, 0.4 s).
    for game in await store.games_of_member(interaction.user.id, active=True):
        if game.options.get("daily") == today:
            raise BadOption(f"You are already playing today's deal in <#{game.channel_id}>.")
    secret = await daily_secret(store)
    return daily_seed(secret, interaction.guild_id, found.key, today), {"daily": today}


async def daily_claim(
    interaction: discord.Interaction[Any], found: GameBundle, labels: dict[str, str] | None
) -> DailyClaim | None:
    """The member's claim on today's deal (``labels`` says which; None: no daily deal),
    refused now if it was made before. The claim is stored with the game, in one transaction
    (``Tables.start``): an aborted deal counts, of two requests at the same moment only one is
    dealt, and a crash before the deal loses nothing."""
    if labels is None or interaction.guild_id is None:
        return None
    claim = DailyClaim(interaction.guild_id, found.key, labels["daily"], interaction.user.id)
    if await bot_of(interaction).tables.store.daily_claimed(claim):
        raise BadOption(DAILY_DEALT)
    return claim
