"""A review of the two solitaires (Mille Bornes Solo, Ticket to Ride Solo) played through the
cogs by a new member and by a hostile one. Each test says what the member should see and, where
it holds a fix, what the review found before it."""

from __future__ import annotations

import discord

from cogs.play import _hint_button
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import public_table, replies
from tests.discord.backend import GAMES_CHANNEL_ID
from tests.discord.payloads import InteractionDriver


async def test_the_daily_deal_does_not_suggest_options_it_refuses(
    driver: InteractionDriver,
) -> None:
    """The daily deal is dealt at the classic preset and refuses options. Before the fix its
    start line said "For a winnable game use `options: preset:refuel` or `preset:easy`.",
    advice the daily deal answers with "The daily deal uses the standard settings"; it now
    says the deal is classic and a score attack, and names no preset to try. An ordinary
    classic game still names them."""
    daily = public_table(await driver.slash("play", {"game": "solo", "daily": True}))
    said = daily.content or ""
    assert "classic preset" in said and "score attack" in said, said
    assert "preset:refuel" not in said and "options:" not in said, said
    refused = await driver.slash("play", {"game": "solo", "daily": True, "options": "preset:easy"})
    assert refused.ephemeral
    await driver.slash("resign", {})
    ordinary = public_table(await driver.slash("play", {"game": "solo"}))
    assert "preset:refuel" in (ordinary.content or ""), ordinary.content


def test_a_long_hint_button_label_is_cut_with_an_ellipsis() -> None:
    """Ticket to Ride Solo's first hint keeps three tickets with their cities. Before the fix
    its button read "Play it: Keep T01 Dallas – Houston (5), T09 Chicago – Pittsburgh (8), T32
    Dallas", cut mid-ticket with nothing to show it was cut; it now ends with "…" within
    Discord's 80 characters."""
    label = "Keep T01 Dallas – Houston (5), T09 Chicago – Pittsburgh (8), T32 Dallas – Kansas City"
    button = _hint_button(1, 0, "keep T01 T09 T32", label)
    assert isinstance(button, discord.ui.DynamicItem)
    shown = str(button.item.label)
    assert len(shown) <= 80 and shown.endswith("…"), shown
    assert shown.startswith("Play it: Keep T01 Dallas"), shown


async def test_history_says_a_ticket_to_ride_solo_game_was_lost(
    driver: InteractionDriver,
) -> None:
    """Ticket to Ride Solo is won or lost against the hidden tickets. Before the fix /history
    listed a lost one as "Ticket to Ride Solo (alone): **played** (-6)", hiding the result;
    it now says **lost**. Mille Bornes Solo, with nobody to beat, still reads **played**."""
    for game in ("ttr-solo", "solo"):
        await driver.slash("play", {"game": game})
        await driver.slash("resign", {})
    said = replies(await driver.slash("history", {}))
    assert "Ticket to Ride Solo (alone): **lost**" in said, said
    assert "Mille Bornes Solo (alone): **played**" in said, said


async def test_an_option_given_twice_with_two_values_is_refused(
    driver: InteractionDriver,
) -> None:
    """Before the fix `/play game:solo options:preset:easy preset:classic` started a classic
    game, silently dropping the easy preset the member also asked for; now it asks which, and
    nothing starts. The same value twice is harmless and plays."""
    bot = running_bot(driver)
    refused = await driver.slash("play", {"game": "solo", "options": "preset:easy preset:classic"})
    said = replies(refused)
    assert refused.ephemeral and "preset twice (easy, then classic)" in said, said
    assert await bot.tables.store.active_game(GAMES_CHANNEL_ID) is None
    await driver.slash("play", {"game": "solo", "options": "preset:easy, preset=easy"})
    assert (await bot.tables.current(GAMES_CHANNEL_ID)).options["preset"] == "easy"


async def test_the_daily_deal_may_be_played_with_french_card_names(
    driver: InteractionDriver,
) -> None:
    """The card names' language changes no card (the boards rank a French-names game as a
    standard one). Before the fix `/play game:solo daily:true options:names:fr` was refused:
    "The daily deal uses the standard settings, so everyone plays alike". It now deals
    today's deal with the French names."""
    bot = running_bot(driver)
    daily = await driver.slash("play", {"game": "solo", "daily": True, "options": "names:fr"})
    assert not daily.ephemeral, replies(daily)
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert stored.options.get("names") == "fr" and "daily" in stored.options, stored.options
