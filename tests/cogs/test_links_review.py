"""A hostile review of ``plain()`` breaking web addresses: links the bot itself writes must
stay live. Each test says what was tried and what was found."""

from __future__ import annotations

from bot.boards import message_link
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alice_against, replies
from tests.discord.backend import CAROL_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver


async def test_the_table_pointer_is_a_live_link(driver: InteractionDriver) -> None:
    """Carol sends /table twice in a row; the second is pointed at the table just posted, by
    its message link. Found: refusals go through ``plain()``, which now breaks every ``://``
    so a member's name cannot be a live link; the bot's own link to the table was broken too
    (``https:⁠//discord.com/…``, plain text nobody can press). The pointer is now answered
    as the bot's own words, its link whole."""
    bot = running_bot(driver)
    await alice_against(driver, seed=3)
    await driver.slash("table", {}, user_id=CAROL_ID)
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert stored.message_id is not None
    again = await driver.slash("table", {}, user_id=CAROL_ID)
    said = replies(again)
    assert again.ephemeral, said
    assert message_link(GUILD_ID, GAMES_CHANNEL_ID, stored.message_id) in said, said
