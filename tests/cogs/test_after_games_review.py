"""After games end, through the fake Discord: what /stats, /leaderboard and /history answer
members of a busy server (found in a review of results, ratings and the boards)."""

from __future__ import annotations

import time
from functools import partial

from bot.store.base import SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alice_against, alt_text_of, public_table
from tests.discord.backend import ALICE_ID, BOB_ID, GAMES_CHANNEL_ID, GUILD_ID, InteractionResult
from tests.discord.payloads import InteractionDriver


def _days_ago(days: int) -> float:
    return time.time() - days * 86_400


def _said(result: InteractionResult) -> tuple[str, int]:
    """The first follow-up's words and how many files it carried."""
    first = result.followups[0]
    return first.content or "", len(first.attachments)


async def test_stats_of_a_member_with_no_games_is_a_sentence(driver: InteractionDriver) -> None:
    """A member with no finished game of it asked /stats: the card was all zeros and dashes,
    with "Kills: 0 (in 0 games)". Now a sentence says so, and what to do about it."""
    text, files = _said(await driver.slash("stats", {"game": "dragon"}))
    assert files == 0
    assert text.startswith(
        "You have not finished a game of Dragon Mille Bornes on this server yet."
    ), text
    assert "/play" in text


async def test_stats_of_another_member_names_the_game_they_do_play(
    driver: InteractionDriver,
) -> None:
    """Bob has played Mille Bornes against the computer, never Dragon."""
    await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="mille",
        seats=[
            SeatRecord(0, "Bob", user_id=BOB_ID),
            SeatRecord(1, "Computer (random)", policy="random"),
        ],
    )
    assert "won" in (public_table(await driver.slash("resign", {}, user_id=BOB_ID)).content or "")
    text, files = _said(
        await driver.slash("stats", {"game": "dragon", "member": BOB_ID}, user_id=ALICE_ID)
    )
    assert files == 0
    assert text == (
        "bob has not finished a game of Dragon Mille Bornes on this server yet. "
        "Their most played on this server: Mille Bornes (1 finished game)."
    ), text
    # Their Mille Bornes card is still an image.
    _, files = _said(await driver.slash("stats", {"game": "mille", "member": BOB_ID}))
    assert files == 1


async def test_a_period_board_rates_only_the_period_s_games(driver: InteractionDriver) -> None:
    """As README says: Alice beat Bob forty days ago and lost to him today. On the all-time
    board they are level; on the last 30 days' board Bob won his only game there."""
    tables = running_bot(driver).tables
    for days_ago, loser in ((40, BOB_ID), (0, ALICE_ID)):
        tables.clock = partial(_days_ago, days_ago)
        await alice_against(driver)
        await driver.slash("resign", {}, user_id=loser)
    always = alt_text_of(await driver.slash("leaderboard", {"game": "mille"}), "leaderboard.png")
    month = alt_text_of(
        await driver.slash("leaderboard", {"game": "mille", "period": "month"}), "leaderboard.png"
    )
    assert ", 2 games, 50% won" in always, always
    assert "1. Bob, rating" in month and "1 game, 100% won" in month, month
    assert "2. Alice, rating" in month and "1 game, 0% won" in month, month
