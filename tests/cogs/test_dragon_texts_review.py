"""Dragon Mille Bornes read through the fake Discord by a new member and by a hostile one: the
words of a hand, a refusal and a window against what the table shows, and a typed move or a
press that must change nothing stored. Each test says, in its docstring, what this review
found before its fix.
"""

from __future__ import annotations

from bot.engine.dragon import GAME
from bot.engine.dragon.damage import kill
from bot.engine.mille.cards import Card
from bot.store.base import SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alt_text_of, labels, public_table, replies, store_rigged
from tests.cogs.test_dragon_cogs import CW, MB, SEATS
from tests.discord.backend import ALICE_ID, BOB_ID, CAROL_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver


async def test_a_dead_drivers_hand_says_it_holds_no_cards(driver: InteractionDriver) -> None:
    """Carol's driver is dead and her cards discarded; her My hand shows "no cards" under each
    deck, and its description (what a screen reader says) says so too. Found by this review:
    the description read "Mille Bornes:" and "Car Wars:" with nothing after them."""
    state = GAME.new_game([seat.name for seat in SEATS], 1, {}, deck=[*MB, *CW])
    kill(state, 2, 0)
    game = await store_rigged(driver, "dragon", SEATS, state)
    table = public_table(await driver.slash("table", {}))
    carols = await driver.click(table.message_id, f"jn:h:{game.id}", user_id=CAROL_ID)
    said = alt_text_of(carols, "hand.png")
    assert said == "Your car is out of the race.\nMille Bornes: no cards\nCar Wars: no cards", said


async def test_a_discard_typed_with_a_car_is_refused(driver: InteractionDriver) -> None:
    """Alice means to play her Speed Limit on Carol and types `discard speed-limit @2`, then
    `cw-discard all @2`: each is refused in one private sentence, and nothing is stored. Found
    by this review: the car was dropped without a word, her Speed Limit went to the discard
    pile and the table told everyone "Alice discards Speed Limit."."""
    game = await store_rigged(
        driver,
        "dragon",
        SEATS,
        GAME.new_game([seat.name for seat in SEATS], 1, {}, deck=[*MB, *CW]),
    )
    store = running_bot(driver).tables.store
    before = (await store.active_game(GAMES_CHANNEL_ID), await store.moves(game.id))
    hazard = await driver.slash("move", {"action": "discard speed-limit @2"})
    whole = await driver.slash("move", {"action": "cw-discard all @2"})
    assert hazard.ephemeral and replies(hazard) == (
        "A discard names no car: leave out '@2', or type 'play' instead of 'discard' to play "
        "the card on that car."
    ), replies(hazard)
    assert whole.ephemeral and replies(whole) == "A discard names no car: leave out '@2'."
    assert (await store.active_game(GAMES_CHANNEL_ID), await store.moves(game.id)) == before


async def test_a_stampede_names_the_cars_it_waits_for_as_the_messages_do(
    driver: InteractionDriver,
) -> None:
    """Alice's Stampede waits for Bob and Carol. The arena's description and her hand's top line
    name them as her hand's message does ("waiting for Bob and Carol to react"). Found by this
    review: "Stampede! Waiting for Bob, Carol to pick a side." and "Waiting for Bob, Carol.",
    a list read as if cut short."""
    seats = [
        SeatRecord(0, "Alice", user_id=ALICE_ID),
        SeatRecord(1, "Bob", user_id=BOB_ID),
        SeatRecord(2, "Carol", user_id=CAROL_ID),
    ]
    cw = ["stampede", *["swerve"] * 4, *["mg-front"] * 4, "jam", *["mg-left"] * 4, "jam"]
    state = GAME.new_game([seat.name for seat in seats], 1, {}, deck=[*MB[:18], *cw])
    game = await store_rigged(driver, "dragon", seats, state)
    stampede = await driver.slash("move", {"action": "stampede"})
    said = alt_text_of(stampede, "table.png")
    assert "waiting: Stampede! Waiting for Bob and Carol to pick a side." in said, said
    hand = await driver.click(public_table(stampede).message_id, f"jn:h:{game.id}")
    assert replies(hand) == "Your hand — waiting for Bob and Carol to react.", replies(hand)
    said = alt_text_of(hand, "hand.png")
    assert said.startswith("Waiting for Bob and Carol.\n"), said


async def test_a_move_typed_in_a_window_is_told_the_answers_it_has(
    driver: InteractionDriver,
) -> None:
    """Alice's Machine Gun opens Bob's window; his car is stopped and he holds an Armor for the
    front. He types `side front`, then `end`: each is refused with the answers he has, and
    nothing is stored. Found by this review: "React to the shot: armor, swerve, spin, backfire,
    oil-slick or pass.", in a game without Oil Slick cards, to a car that could neither swerve
    nor spin nor backfire a machine gun."""
    state = GAME.new_game([seat.name for seat in SEATS], 1, {}, deck=[*MB, *CW])
    game = await store_rigged(driver, "dragon", SEATS, state)
    await driver.slash("move", {"action": "mg-front @1"})
    store = running_bot(driver).tables.store
    before = (await store.active_game(GAMES_CHANNEL_ID), await store.moves(game.id))
    for typed in ("side front", "end"):
        refused = await driver.slash("move", {"action": typed}, user_id=BOB_ID)
        assert refused.ephemeral, replies(refused)
        assert replies(refused) == "React to the shot: 'armor front' or 'pass'.", replies(refused)
    assert (await store.active_game(GAMES_CHANNEL_ID), await store.moves(game.id)) == before


async def test_a_suggestion_names_the_whole_discard_as_the_hand_s_button(
    driver: InteractionDriver,
) -> None:
    """Alice types "discard" into /move: the suggestion for her whole Car Wars hand reads as
    her hand's button and the rules name it, "Discard all Car Wars cards". Found by this
    review: /move, /hint and its "Play it" button said "Discard the whole Car Wars hand", a
    button My hand does not show."""
    state = GAME.new_game([seat.name for seat in SEATS], 1, {}, deck=[*MB, *CW])
    game = await store_rigged(driver, "dragon", SEATS, state)
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{game.id}")
    assert "Discard all Car Wars cards" in labels(hand), labels(hand)
    suggested = await driver.autocomplete("move", "action", "discard")
    whole = [c["name"] for c in suggested.choices if str(c["value"]).startswith("cw-discard all")]
    assert whole == ["Discard all Car Wars cards"], suggested.choices


async def test_two_cars_the_result_line_marks_the_driver_killed(driver: InteractionDriver) -> None:
    """Two cars: Bob, 50 miles driven, his front breached and his driver hurt three times, takes
    Alice's Machine Gun and dies; Alice, still at 0 miles, is the last driver alive. The result
    line marks Bob out, as it does at three cars and more. Found by this review: "Alice won!
    Alice 0 · Bob 50.", as if the miles had decided it, and against Bob."""
    seats = [SeatRecord(0, "Alice", user_id=ALICE_ID), SeatRecord(1, "Bob", user_id=BOB_ID)]
    cw = ["mg-front", *["swerve"] * 4, "armor-back", *["mg-back"] * 3, "jam"]
    state = GAME.new_game([seat.name for seat in seats], 1, {}, deck=[*MB[:12], *cw])
    state.cars[1].hits[0], state.cars[1].driver = 12, 3
    state.cars[1].mb.miles = [Card.D50]
    await store_rigged(driver, "dragon", seats, state)
    said = public_table(await driver.slash("move", {"action": "mg-front @1"})).content or ""
    assert "🏆 **Alice** won! Alice 0 · Bob 50 (out). Alice is the last driver alive." in said, said


async def test_jammed_guns_are_told_the_repairs_card_in_the_game_s_names(
    driver: InteractionDriver,
) -> None:
    """A game with French card names: Alice's machine guns are jammed and she types
    `mg-front @1`. The refusal names the Repairs card as her hand does, "Réparations", and
    nothing is stored. Found by this review: "…or play Repairs to unjam them.", the one refusal
    that kept the English name."""
    options = GAME.resolve_options({"names": "fr"})
    state = GAME.new_game([seat.name for seat in SEATS], 1, options, deck=[*MB, *CW])
    state.cars[0].jammed = True
    store = running_bot(driver).tables.store
    game = await store.create_game(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="dragon",
        seats=SEATS,
        options=options,
        state=GAME.to_dict(state),
    )
    before = (await store.active_game(GAMES_CHANNEL_ID), await store.moves(game.id))
    refused = await driver.slash("move", {"action": "mg-front @1"})
    assert refused.ephemeral and replies(refused) == (
        "Your machine guns are jammed: discard your whole Car Wars hand (cw-discard all) or "
        "play Réparations to unjam them."
    ), replies(refused)
    assert (await store.active_game(GAMES_CHANNEL_ID), await store.moves(game.id)) == before


async def test_a_skid_typed_with_no_dodge_says_what_a_skid_follows(
    driver: InteractionDriver,
) -> None:
    """Alice types `skid @1` at the start of her turn, no shot of hers dodged: she is told what a
    skid follows, and nothing is stored. Found by this review: "There is no hit to react to
    right now.", of a card that answers no hit."""
    state = GAME.new_game([seat.name for seat in SEATS], 1, {}, deck=[*MB, *CW])
    game = await store_rigged(driver, "dragon", SEATS, state)
    store = running_bot(driver).tables.store
    before = (await store.active_game(GAMES_CHANNEL_ID), await store.moves(game.id))
    refused = await driver.slash("move", {"action": "skid @1"})
    assert refused.ephemeral and replies(refused) == (
        "Skid Into a Wall only follows a shot of yours that a car has just dodged."
    ), replies(refused)
    assert (await store.active_game(GAMES_CHANNEL_ID), await store.moves(game.id)) == before
