"""Ratings through the fake Discord: the figure /leaderboard, /stats and the result line show,
and what an aborted game leaves on them (found in a review of results, ratings and boards)."""

from __future__ import annotations

import re
import time
from functools import partial

from bot.store.base import SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alt_text_of
from tests.discord.backend import ALICE_ID, BOB_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver


def _days_ago(days: int) -> float:
    return time.time() - days * 86_400


def _duel() -> list[SeatRecord]:
    return [SeatRecord(0, "Alice", user_id=ALICE_ID), SeatRecord(1, "Bob", user_id=BOB_ID)]


async def test_leaderboard_and_stats_read_the_same_rating_after_a_year_away(
    driver: InteractionDriver,
) -> None:
    """Alice beat Bob three times a year ago: the board and her card both show her rating as
    of today (uncertainty grown by the year), the same figure."""
    tables = running_bot(driver).tables
    for day in (367, 366, 365):
        tables.clock = partial(_days_ago, day)
        await tables.start(
            channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="mille", seats=_duel()
        )
        await driver.slash("resign", {}, user_id=BOB_ID)
    board = alt_text_of(await driver.slash("leaderboard", {"game": "mille"}), "leaderboard.png")
    card = alt_text_of(await driver.slash("stats", {"game": "mille"}), "stats.png")
    on_board = re.search(r"1\. Alice, rating ([\d,]+), 3 games", board)
    on_card = re.search(r"Rating ([\d,]+), 1 of 2 on the ladder\.", card)
    assert on_board and on_card, (board, card)
    assert on_board.group(1) == on_card.group(1)
    assert "Rating over time: 3 rated games" in card, card


async def test_an_aborted_game_leaves_nothing_on_the_boards(driver: InteractionDriver) -> None:
    """A game between members that a moderator ends records no result: nobody is ranked, and
    /stats says the member has not finished a game of it."""
    tables = running_bot(driver).tables
    await tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="dragon", seats=_duel()
    )
    await tables.abort(channel_id=GAMES_CHANNEL_ID)
    board = alt_text_of(await driver.slash("leaderboard", {"game": "dragon"}), "leaderboard.png")
    assert "Nobody is ranked yet." in board, board
    stats = await driver.slash("stats", {"game": "dragon"})
    assert not stats.followups[0].attachments
    assert (stats.followups[0].content or "").startswith(
        "You have not finished a game of Dragon Mille Bornes on this server yet."
    )


async def test_stats_of_a_member_with_only_solo_games(driver: InteractionDriver) -> None:
    """Alice has only played Mille Bornes Solo: /stats of Mille Bornes says so in a sentence
    naming the solitaire, and her Mille Bornes Solo card is an image with no rating."""
    tables = running_bot(driver).tables
    await tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="solo",
        seats=[SeatRecord(0, "Alice", user_id=ALICE_ID)],
    )
    await driver.slash("resign", {}, user_id=ALICE_ID)
    stats = await driver.slash("stats", {"game": "mille"})
    assert not stats.followups[0].attachments
    assert stats.followups[0].content == (
        "You have not finished a game of Mille Bornes on this server yet. "
        "Your most played on this server: Mille Bornes Solo (1 finished game)."
    )
    card = alt_text_of(await driver.slash("stats", {"game": "solo"}), "stats.png")
    assert "1 game played" in card and "Rating" not in card, card
