"""A hostile play-through of small things a member reads, driven through the fake Discord: a
button pressed twice, a hand's header while others decide, a result line with a seat that left.

Each test says, in its docstring, what the play-through found before its fix.
"""

from __future__ import annotations

from typing import Any

from bot.store.base import GuildSettings, SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    component_id,
    hand_header,
    public_table,
    replies,
    stacked_mille,
    sweep_after,
)
from tests.cogs.test_race_ttr_hostile_review import (
    THREE,
    _keep_menu,
    _race,
    _three_choosing_tickets,
    ttr_of_three,
)
from tests.discord.backend import ALICE_ID, BOB_ID, CAROL_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver
from tests.engine.ttr_helpers import G

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
    said = replies(other)
    assert said.startswith("That button was shown before the latest move."), said


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


async def test_a_move_the_computer_played_for_a_late_member_is_not_theirs(
    driver: InteractionDriver,
) -> None:
    """Alice's time runs out and the computer plays Go for her. Her old Go button, pressed
    then, is refused: she never made that move, so "You have already made that move" would be
    untrue, and "from an earlier turn" left her wondering what became of it: she is told her
    time ran out and the computer played that turn."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "computer"))
    game = (await stacked_mille(driver)).game
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{game.id}")
    await sweep_after(driver, 3600)
    (late, *_) = await bot.store.moves(game.id)
    assert (late.seat, late.action) == (0, "play go"), late
    pressed = await driver.forge(hand, component_id(hand, "Go"))
    assert replies(pressed).startswith(
        "Your time ran out, so the computer played that turn for you."
    ), replies(pressed)


async def _keep(driver: InteractionDriver, hand: Any, user_id: int) -> None:
    """Keep the first two tickets of an opening hand's keep menu."""
    menu = _keep_menu(hand)
    values = [o["value"] for o in menu["options"][:2]]
    await driver.select(hand, menu["custom_id"], values, user_id=user_id)


async def test_a_hand_at_the_opening_says_who_still_keeps_tickets(
    driver: InteractionDriver,
) -> None:
    """Three members choose their opening tickets at once; Alice keeps hers and opens her
    hand. Before the fix it read "Your hand — it is not your turn yet.", though nobody has a
    turn before everyone has kept their tickets."""
    game_id, hands = await _three_choosing_tickets(driver)
    await _keep(driver, hands[ALICE_ID], ALICE_ID)
    said = await hand_header(driver, game_id, ALICE_ID)
    assert said == "Your hand — waiting for Bob and Carol to keep their tickets.", said


async def test_a_hand_waiting_for_the_last_to_keep_tickets_names_them(
    driver: InteractionDriver,
) -> None:
    """Alice and Bob have kept their tickets; only Carol chooses. Bob's hand read "it is not
    your turn yet" (one seat to act looked like an ordinary turn); it now says he waits for
    Carol to keep hers."""
    game_id, hands = await _three_choosing_tickets(driver)
    await _keep(driver, hands[ALICE_ID], ALICE_ID)
    await _keep(driver, hands[BOB_ID], BOB_ID)
    said = await hand_header(driver, game_id, BOB_ID)
    assert said == "Your hand — waiting for Carol to keep their tickets.", said


async def test_a_hand_waiting_for_members_of_long_names_counts_them(
    driver: InteractionDriver,
) -> None:
    """Alice has kept her opening tickets; Bob and Carol, under long names, still choose. Her
    hand counts them rather than spelling out a line of names."""
    bot = running_bot(driver)
    seats = [
        THREE[0],
        SeatRecord(1, "Bartholomew Fitzwilliam Smythe", user_id=BOB_ID),
        SeatRecord(2, "Carolina Montgomery-Wellesley", user_id=CAROL_ID),
    ]
    update = await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="ttr", seats=seats, seed=5
    )
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{update.game.id}")
    await _keep(driver, hand.message, ALICE_ID)
    said = await hand_header(driver, update.game.id, ALICE_ID)
    assert said == "Your hand — waiting for 2 other players to keep their tickets.", said


async def test_a_hand_during_a_race_reaction_window_says_who_may_react(
    driver: InteractionDriver,
) -> None:
    """Alice plays a Flat Tire on Bob, who holds a Coup Fourré: while his window is open, her
    hand says she waits for him to react (the table mentions him too), not that it is not her
    turn."""
    update = await _race(driver)
    public_table(await driver.slash("move", {"action": "play flat-tire"}))
    said = await hand_header(driver, update.game.id, ALICE_ID)
    assert said == "Your hand — waiting for Bob to react.", said


async def test_the_result_line_says_who_left_instead_of_a_score(
    driver: InteractionDriver,
) -> None:
    """Three members play Ticket to Ride with tickets still to complete; Carol resigns, then Bob,
    which ends the game. The result line gave each of them a score of 0 beside Alice's negative
    one ("2nd Bob 0 · 3rd Carol 0"), as if they had scored more; it now says they left, and
    Alice keeps her score."""
    bot = running_bot(driver)
    stored = await ttr_of_three(driver)
    public_table(await driver.slash("resign", {}, user_id=CAROL_ID))
    ended = public_table(await driver.slash("resign", {}, user_id=BOB_ID))
    finished = await bot.tables.store.get_game(stored.id)
    assert finished is not None and finished.status == "finished"
    outcome = G.outcome(bot.tables.position(finished).state)
    assert outcome is not None and outcome.scores[0] < 0, outcome
    line = f"1st Alice {outcome.scores[0]} · 2nd Bob (left) · 3rd Carol (left)."
    assert line in (ended.content or ""), ended.content
