"""Ticket to Ride and its solo played through the fake Discord as new members and as a hostile
one would: /play with odd options, the open table, tickets, pickers, forged and old ids, the end,
/stats, /history and /replay. Each test holds a fix for what that play found; its docstring says
what a member read before."""

from __future__ import annotations

from tests.cogs.conftest import running_bot
from tests.discord.backend import GAMES_CHANNEL_ID
from tests.discord.payloads import InteractionDriver


async def test_the_daily_deal_of_another_game_names_the_games_that_have_one(
    driver: InteractionDriver,
) -> None:
    """`/play game:ttr daily:true` and `/leaderboard game:ttr period:today's deal`. Before the
    fix both read "Daily deals are for Mille Bornes Solo, Ticket to Ride Solo.", a list with no
    "and"; now the games are named as every other list of the bot names them."""
    sentence = "Daily deals are for Mille Bornes Solo and Ticket to Ride Solo."
    played = await driver.slash("play", {"game": "ttr", "daily": True})
    assert played.ephemeral and played.content == sentence, played.content
    board = await driver.slash("leaderboard", {"game": "ttr", "period": "daily"})
    said = " | ".join(r.content or "" for r in board.responses if r.content)
    assert said == sentence, said
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None
