"""The last table of a game between members says how it moved their ratings."""

from __future__ import annotations

import re

from bot.boards import leaderboard
from bot.store.base import SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alice_against, public_table
from tests.discord.backend import ALICE_ID, BOB_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver

LINE = re.compile(
    r"📈 Ratings: Alice ([\d,]+) → ([\d,]+) \(([+-][\d,]+)\) · Bob ([\d,]+) → ([\d,]+)"
)


async def _resigned(driver: InteractionDriver, rival: SeatRecord) -> str:
    await alice_against(driver, rival)
    return public_table(await driver.slash("resign", {}, user_id=ALICE_ID)).content or ""


async def test_a_game_between_members_ends_with_their_rating_moves(
    driver: InteractionDriver,
) -> None:
    """Before → after for each member, the after as /leaderboard then shows it."""
    text = await _resigned(driver, SeatRecord(1, "Bob", user_id=BOB_ID))
    found = LINE.search(text)
    assert found, text
    alice_before, alice_after, alice_delta, bob_before, bob_after = (
        int(g.replace(",", "")) for g in found.groups()
    )
    assert alice_before == bob_before == 1000, "both were new to the ladder"
    assert alice_after - alice_before == alice_delta
    assert bob_after > alice_after, "Bob won"
    results = await running_bot(driver).store.results(game_key="mille", guild_id=GUILD_ID)
    just_after = max(r.record.finished_at for r in results)
    board = leaderboard(
        results, game_key="mille", guild_id=GUILD_ID, caller=ALICE_ID, now=just_after
    )
    shown = {row.name: row.value for row in board.rows}
    assert shown == {"Alice": alice_after, "Bob": bob_after}


async def test_a_game_against_the_computer_moves_no_rating(driver: InteractionDriver) -> None:
    text = await _resigned(driver, SeatRecord(1, "Computer (random)", policy="random"))
    assert "won" in text and "Ratings" not in text
