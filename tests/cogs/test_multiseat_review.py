"""A review of games with three to six seats played through the fake Discord: Ticket to Ride and
Dragon Mille Bornes gathered by /host and /challenge, members resigning, timing out or pressing
what is not theirs while the others play on.

Each test says, in its docstring, what this review found before its fix (or which combination it
pins that no other test played).
"""

from __future__ import annotations

from bot.position import OUT_OF_THE_GAME
from bot.tables import LEFT_THE_GAME
from tests.cogs.helpers import replies
from tests.cogs.test_dragon_six_review import _carol_killed
from tests.discord.backend import BOB_ID, CAROL_ID
from tests.discord.payloads import InteractionDriver


async def test_a_hint_asked_by_a_member_who_left_or_is_out_says_so(
    driver: InteractionDriver,
) -> None:
    """Six cars: Carol's driver is dead, then Bob resigns; Alice plays on against the computers.
    Asked for a hint, Carol is told she is out and Bob that he left, as a move of theirs is.
    Found by this review: both were told "Hints are only for games against the computer or
    played alone", though their game was one against the computer now, and no hint could help
    a member who has no move left to make."""
    await _carol_killed(driver)
    await driver.slash("resign", {}, user_id=BOB_ID)
    for user_id, said in ((CAROL_ID, OUT_OF_THE_GAME), (BOB_ID, LEFT_THE_GAME)):
        hint = await driver.slash("hint", {}, user_id=user_id)
        assert hint.ephemeral and replies(hint) == said, replies(hint)
