"""A six-car Dragon Mille Bornes game (three members, three computers) played through the fake
Discord as members would, and as a hostile member would: presses out of turn, forged ids and
typed moves while another car's reaction window is open, and a driver already killed.

Every refusal is a private sentence that says why, and the stored game is unchanged. Each test
says, in its docstring, what this review found before its fix.
"""

from __future__ import annotations

from bot.engine.dragon import GAME
from bot.engine.dragon.damage import kill
from bot.engine.dragon.state import DragonState
from bot.engine.mille.cards import Card
from bot.store.base import GuildSettings, StoredGame
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    alt_text_of,
    component_id,
    current_game,
    public_table,
    replies,
    store_rigged,
    sweep_after,
)
from tests.cogs.test_dragon_cogs import CW, MB, SEATS, dealt
from tests.discord.backend import ALICE_ID, BOB_ID, CAROL_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver


async def _carol_killed(driver: InteractionDriver) -> StoredGame:
    """The review's table with Carol's driver (seat 2) killed by Alice before the first move."""
    state = GAME.new_game([seat.name for seat in SEATS], 1, {}, deck=[*MB, *CW])
    kill(state, 2, 0)
    return await _store_rigged(driver, state)


async def _store_rigged(driver: InteractionDriver, state: DragonState) -> StoredGame:
    """The review's six seats at a table dealt as ``state`` (rigged by the test), stored."""
    return await store_rigged(driver, "dragon", SEATS, state)


async def test_the_driver_whose_turn_it_is_is_told_a_reaction_is_awaited(
    driver: InteractionDriver,
) -> None:
    """Alice's Machine Gun opens Bob's window. Alice (whose turn it still is) types her next
    move, Carol forges Bob's Armor button, and both open My hand: each is told the table waits
    for Bob to react, and nothing changes. Found by this review: both were told "It is not your
    turn", which Alice, whose turn it is, could not make sense of, and her hand said "it is not
    your turn yet"."""
    game = await dealt(driver)
    window = public_table(await driver.slash("move", {"action": "mg-front @1"}))
    bobs = await driver.click(window.message_id, f"jn:h:{game.id}", user_id=BOB_ID)
    armor = component_id(bobs, "Armor")
    before = await current_game(driver)
    typed = await driver.slash("move", {"action": "play speed-limit @2"})
    forged = await driver.forge(window.message_id, armor, user_id=CAROL_ID)
    for refused in (typed, forged):
        assert refused.ephemeral, replies(refused)
        assert replies(refused) == "Not now: waiting for Bob to react.", replies(refused)
    for user_id in (ALICE_ID, CAROL_ID):
        hand = await driver.click(window.message_id, f"jn:h:{game.id}", user_id=user_id)
        assert hand.ephemeral and replies(hand) == "Your hand — waiting for Bob to react."
    assert await current_game(driver) == before


async def test_a_killed_driver_is_told_they_are_out(driver: InteractionDriver) -> None:
    """Carol's driver is dead; the other five play on. Her typed move, a forged button of
    Alice's hand and her own My hand tell her she is out, and change nothing. Found by this
    review: she was told "It is not your turn; waiting for Alice" and "it is not your turn
    yet", as if a turn of hers were still to come."""
    game = await _carol_killed(driver)
    table = public_table(await driver.slash("table", {}))
    alices = await driver.click(table.message_id, f"jn:h:{game.id}")
    before = await current_game(driver)
    typed = await driver.slash("move", {"action": "end"}, user_id=CAROL_ID)
    forged = await driver.forge(
        table.message_id, component_id(alices, "Machine Gun (Front)"), user_id=CAROL_ID
    )
    for refused in (typed, forged):
        assert refused.ephemeral, replies(refused)
        assert replies(refused) == "You are out of this game; the others play on."
    hand = await driver.click(table.message_id, f"jn:h:{game.id}", user_id=CAROL_ID)
    assert replies(hand) == "Your hand — you are out of this game; the others play on."
    assert await current_game(driver) == before


async def test_the_hand_says_in_words_which_move_the_turn_still_owes(
    driver: InteractionDriver,
) -> None:
    """The hand image's top line says which moves Alice still owes, and what Bob's window asks
    him; its description (what a screen reader says) says the same. Found by this review: the
    description listed the cards only, so a member using a screen reader never learnt that
    the Car Wars move was made and the Mille Bornes move still owed."""
    game = await dealt(driver)
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{game.id}")
    said = alt_text_of(hand, "hand.png")
    assert said.startswith("Your turn: one Mille Bornes move and one Car Wars move."), said
    window = public_table(await driver.slash("move", {"action": "mg-front @1"}))
    bobs = await driver.click(window.message_id, f"jn:h:{game.id}", user_id=BOB_ID)
    said = alt_text_of(bobs, "hand.png")
    assert said.startswith("Decide now: you may react to the Machine Gun from Alice"), said
    table = public_table(await driver.slash("move", {"action": "pass"}, user_id=BOB_ID))
    hand = await driver.click(table.message_id, f"jn:h:{game.id}")
    said = alt_text_of(hand, "hand.png")
    assert said.startswith("Your turn: one Mille Bornes move.\nMille Bornes: Speed Limit"), said


async def _skid_window(driver: InteractionDriver) -> StoredGame:
    """Bob (moving) swerves Alice's Machine Gun and she sends him skidding into a wall: Bob's
    window to pick the side that takes the 3 hits is open (15 seconds)."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, reaction_seconds=15))
    cw = ["mg-front", "skid", "swerve", "swerve", "swerve", *CW[5:]]
    state = GAME.new_game([seat.name for seat in SEATS], 1, {}, deck=[*MB, *cw])
    state.cars[1].mb.battle = [Card.GO]
    await _store_rigged(driver, state)
    await driver.slash("move", {"action": "mg-front @1"})
    await driver.slash("move", {"action": "swerve"}, user_id=BOB_ID)
    skid = public_table(await driver.slash("move", {"action": "skid @1"}))
    assert f"<@{BOB_ID}>, you may react" in (skid.content or ""), skid.content
    return await current_game(driver)


async def test_a_side_picked_by_the_bot_is_not_called_no_reaction(
    driver: InteractionDriver,
) -> None:
    """Bob lets the time for picking a side run out: the bot takes it on his least damaged
    side and says so. Found by this review: the channel read "Bob did not react in time: no
    reaction." right above "Bob hits the wall with the front and stops. 3 hits to the front"."""
    await _skid_window(driver)
    await sweep_after(driver, 16)
    (said,) = [m["content"] for m in driver.messages.values() if "in time" in m["content"]]
    assert said.startswith("⏰ Bob did not react in time: take it on the front.\n"), said
    assert "Bob hits the wall with the front" in said, said


async def test_the_hand_asked_to_react_says_until_when_and_what_the_bot_plays(
    driver: InteractionDriver,
) -> None:
    """Above Bob's hand: until when he may pick a side, and the side the bot picks if he does
    not. Found by this review: it said "You may react now — or let it pass", though there is
    no passing a wall (typed, "pass" is refused: "Pick the side that takes the hits"), and
    gave no time (the table's message alone did)."""
    game = await _skid_window(driver)
    table = public_table(await driver.slash("table", {}))
    bobs = await driver.click(table.message_id, f"jn:h:{game.id}", user_id=BOB_ID)
    until = f"(until <t:{int(game.turn_deadline or 0)}:T>)"
    assert replies(bobs) == (
        f"You may react now {until} — if you do not, the bot plays **Take it on the front**."
    ), replies(bobs)


async def test_a_killed_drivers_agreement_is_needed_to_abort(driver: InteractionDriver) -> None:
    """Carol's driver is dead but her place is in the result an abort would erase, so Bob's
    request needs her agreement as well as Alice's (README, /abort): after Alice agrees the
    game still runs; when Carol agrees it ends with no result."""
    await _carol_killed(driver)
    store = running_bot(driver).tables.store
    asked = await driver.slash("abort", {}, user_id=BOB_ID)
    await driver.click(asked, component_id(asked, "Agree to abort"), user_id=ALICE_ID)
    assert await store.active_game(GAMES_CHANNEL_ID) is not None, "Carol has not agreed yet"
    agreed = await driver.click(asked, component_id(asked, "Agree to abort"), user_id=CAROL_ID)
    assert not agreed.ephemeral, replies(agreed)
    assert await store.active_game(GAMES_CHANNEL_ID) is None, "everyone agreed: aborted"
