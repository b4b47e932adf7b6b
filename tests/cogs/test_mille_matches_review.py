"""Classic Mille Bornes and Mille Bornes Solo played through the fake Discord as a newcomer and
as a hostile member would, with the commands around them (/stats, /history, /leaderboard,
/settings, old buttons). Each test says, in its docstring, what a member saw before its fix.
"""

from __future__ import annotations

from bot.store.base import SeatRecord
from tests.cogs.helpers import public_table, stacked_mille
from tests.discord.payloads import InteractionDriver

COMPUTER = SeatRecord(1, "Computer", policy="normal")


async def test_a_match_resigned_in_its_first_hand_posts_no_empty_score_sheet(
    driver: InteractionDriver,
) -> None:
    """Alice resigns her match against the computer before the first hand is over. The last
    table came with a second picture, a score sheet reading only "No hand has finished yet",
    which a screen reader announced as "(empty)". Now the last table comes alone: it and its
    caption say who won and why."""
    await stacked_mille(driver, COMPUTER)
    ended = public_table(await driver.slash("resign", {}))
    names = [attachment["filename"] for attachment in ended.attachments]
    assert names == ["table.png"], names
    assert "resigned" in (ended.content or ""), ended.content
