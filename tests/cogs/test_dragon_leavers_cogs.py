"""Dragon Mille Bornes through the cogs: a member resigns in the middle of a reaction chain,
and the bot restarts before the next move (docs/rules/dragon.md, Rulings, Leaving)."""

from __future__ import annotations

from pathlib import Path

from tests.cogs.conftest import running_bot
from tests.cogs.helpers import public_table, restarted
from tests.cogs.test_windows_review import MB, THREE_MEMBERS
from tests.discord.backend import ALICE_ID, BOB_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver

# Car Wars hands of five: Alice an Autocannon (Front) and an Armor for the front, Bob an
# Autocannon Backfires; nobody else holds anything that answers.
CW = [
    *["ac-front", "armor-front", "swerve", "swerve", "swerve"],
    *["backfire", "swerve", "swerve", "swerve", "swerve"],
    *["swerve", "swerve", "armor-left", "armor-left", "armor-left"],
]


async def test_a_backfire_left_behind_by_a_resign_resumes_after_a_restart(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Alice's autocannon at Bob backfires; Bob resigns while she may armor her front. The
    table still asks her, the bot restarts, and her "pass" lands the backfire on her own front,
    the table saying whose front it hit (it read "Bob left the arena. 4 hits to the front.",
    as if on the car of the player who left)."""
    await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="dragon",
        seats=THREE_MEMBERS,
        deck=[*MB, *CW],
    )
    await driver.slash("move", {"action": "ac-front @1"})
    await driver.slash("move", {"action": "backfire"}, user_id=BOB_ID)
    left = public_table(await driver.slash("resign", {}, user_id=BOB_ID))
    assert f"<@{ALICE_ID}>, you may react" in (left.content or ""), left.content
    async with restarted(driver, tmp_path) as again:
        landed = public_table(await again.slash("move", {"action": "pass"}))
        assert (landed.content or "").startswith(
            "Bob left the game and will finish 3rd; the car is out and its cards are "
            "discarded. Alice and Carol race on. The backfire still strikes the front of Alice. "
            "4 hits to the front."
        ), landed.content
        game = await running_bot(again).tables.current(GAMES_CHANNEL_ID)
        state = running_bot(again).tables.position(game).state
        assert state.cars[0].hits[0] == 4 and state.cars[1].hits[0] == 0
