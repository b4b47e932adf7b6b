"""A hostile play-through of small things a member reads, driven through the fake Discord: a
button pressed twice, a hand's header while others decide, a result line with a seat that left.

Each test says, in its docstring, what the play-through found before its fix.
"""

from __future__ import annotations

from bot.store.base import SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import component_id, public_table, replies, stacked_mille
from tests.discord.backend import GAMES_CHANNEL_ID
from tests.discord.payloads import InteractionDriver

COMPUTER = SeatRecord(1, "Computer", policy="normal")


async def test_a_hand_button_pressed_twice_says_the_move_is_made(
    driver: InteractionDriver,
) -> None:
    """Alice presses Go in her hand, then the same button again (a double click whose second
    press came after the first was applied): she reads that she has already made that move,
    and whom the table waits for, and nothing changes. Before the fix she read "That button
    is from an earlier turn", which left her wondering whether her move counted."""
    bot = running_bot(driver)
    game = (await stacked_mille(driver)).game
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{game.id}")
    go = component_id(hand, "Go")
    await driver.click(hand, go)
    before = await bot.tables.current(GAMES_CHANNEL_ID)
    again = await driver.forge(hand, go)
    assert again.ephemeral, replies(again)
    assert replies(again) == (
        "You have already made that move. It is not your turn; waiting for Bob."
    ), replies(again)
    after = await bot.tables.current(GAMES_CHANNEL_ID)
    assert (after.version, after.state) == (before.version, before.state)


async def test_another_button_of_that_old_hand_is_from_an_earlier_turn(
    driver: InteractionDriver,
) -> None:
    """After Go, a different button of the same old hand (Discard 50 miles) is not the move she
    made: it is still answered as from an earlier turn, not "already made"."""
    game = (await stacked_mille(driver)).game
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{game.id}")
    await driver.click(hand, component_id(hand, "Go"))
    other = await driver.forge(hand, component_id(hand, "Discard 50"))
    assert replies(other).startswith("That button is from an earlier turn."), replies(other)


async def test_a_hint_played_twice_says_the_move_is_made(driver: InteractionDriver) -> None:
    """Against a computer, Alice presses her hint's Play it twice; the computer answered her
    move in between, so the last stored move is not even hers. The second press reads that
    she has already made that move and to use the newest table for her next one (her turn
    again). Before the fix: "That is from an earlier turn"."""
    bot = running_bot(driver)
    await stacked_mille(driver, COMPUTER)
    hint = await driver.slash("hint", {})
    play_it = component_id(hint, "Play it")
    played = await driver.click(hint, play_it)
    assert "Alice plays Go." in (public_table(played).content or "")
    before = await bot.tables.current(GAMES_CHANNEL_ID)
    again = await driver.forge(hint, play_it)
    assert again.ephemeral, replies(again)
    assert replies(again) == (
        "You have already made that move. Use the newest table for your next one "
        "(or /table to post it again)."
    ), replies(again)
    after = await bot.tables.current(GAMES_CHANNEL_ID)
    assert (after.version, after.state) == (before.version, before.state)
