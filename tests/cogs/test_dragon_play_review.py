"""Dragon Mille Bornes played through the fake Discord as members would, and as a hostile member
would: reaction windows answered with buttons, armor stacked, windows left to run out, drivers
killed and tables rigged to reach the end.

What every test expects: the words a player reads (the table's message and alt text, the hand's
top line) say what is true on the table, and a refusal changes nothing. Each test says, in its
docstring, what this review found before its fix.
"""

from __future__ import annotations

from bot.engine.dragon import GAME
from bot.engine.dragon.damage import kill
from bot.engine.dragon.state import DragonState
from bot.engine.mille.cards import Card
from bot.store.base import SeatRecord, StoredGame
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alt_text_of, component_id, public_table, replies, store_rigged
from tests.discord.backend import ALICE_ID, BOB_ID, CAROL_ID, GAMES_CHANNEL_ID
from tests.discord.payloads import InteractionDriver

SEATS = [SeatRecord(0, "Alice", user_id=ALICE_ID), SeatRecord(1, "Bob", user_id=BOB_ID)]
MB = ["go"] * 12
"""Mille Bornes hands of six Go cards: nothing on the road matters here."""


def _dealt(car_wars: list[str]) -> DragonState:
    """Alice and Bob dealt ``car_wars`` (Alice's five Car Wars cards, then Bob's)."""
    return GAME.new_game([seat.name for seat in SEATS], 1, {}, deck=[*MB, *car_wars])


async def _stored(driver: InteractionDriver, state: DragonState) -> StoredGame:
    """``state`` (rigged by the test) stored as the channel's game."""
    return await store_rigged(driver, "dragon", SEATS, state)


async def test_a_second_armor_is_asked_for_the_hits_the_first_left(
    driver: InteractionDriver,
) -> None:
    """Alice's Laser (4 hits) meets Bob's Armor on the front, which stops 3; he may stack a
    second. His hand and the table say 1 hit is left. Found by this review: both still said
    "(1 hits on the front)"."""
    game = await _stored(
        driver,
        _dealt(["laser-front", "swerve", "swerve", "swerve", "swerve", *["armor-front"] * 5]),
    )
    window = public_table(await driver.slash("move", {"action": "laser-front @1"}))
    bobs = await driver.click(window.message_id, f"jn:h:{game.id}", user_id=BOB_ID)
    armored = await driver.click(bobs.message, component_id(bobs, "Armor"), user_id=BOB_ID)
    asked = "Bob may react to the Laser from Alice (1 hit on the front)."
    assert asked in alt_text_of(armored, "table.png")
    bobs = await driver.click(public_table(armored).message_id, f"jn:h:{game.id}", user_id=BOB_ID)
    said = alt_text_of(bobs, "hand.png")
    assert said.startswith(
        "Decide now: you may react to the Laser from Alice (1 hit on the front)."
    ), said


async def test_a_backfire_armored_once_is_asked_for_the_hits_left(
    driver: InteractionDriver,
) -> None:
    """Bob backfires Alice's Autocannon (4 hits) onto her front; her first front Armor stops
    3, and she is asked about the 1 hit left. Found by this review: the window went on saying
    "(4 hits)" after her armor."""
    await _stored(
        driver,
        _dealt(["ac-front", *["armor-front"] * 4, "backfire", *["swerve"] * 4]),
    )
    await driver.slash("move", {"action": "ac-front @1"})
    await driver.slash("move", {"action": "backfire"}, user_id=BOB_ID)
    armored = await driver.slash("move", {"action": "armor front"})
    said = alt_text_of(armored, "table.png")
    assert "Alice may armor the front against the backfire (1 hit)." in said, said


async def test_repairs_tells_only_what_it_mended(driver: InteractionDriver) -> None:
    """Alice's car took 3 hits on the front; her guns never jammed. Repairs, pressed in her
    hand, is told as clearing the body hits only. Found by this review: the table read "Alice
    plays Repairs: body hits gone, guns unjammed." of guns nobody had jammed."""
    state = GAME.new_game(
        [seat.name for seat in SEATS],
        1,
        {},
        deck=[*["repairs", *["go"] * 5], *["go"] * 6, *["swerve"] * 10],
    )
    state.cars[0].hits[0] = 3
    game = await _stored(driver, state)
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{game.id}")
    repaired = public_table(await driver.click(hand.message, component_id(hand, "Repairs")))
    assert "Alice plays Repairs: body hits gone." in (repaired.content or ""), repaired.content
    assert "unjammed" not in (repaired.content or ""), repaired.content


async def test_the_hint_in_a_coup_fourre_window_speaks_of_the_safety(
    driver: InteractionDriver,
) -> None:
    """The computer plays a Stop on Bob, who holds the Right of Way; his /hint (the game is
    against the computer) suggests keeping it, and says why in the window's own terms. Found
    by this review: "No reaction — your reactions are worth more kept for a bigger shot", of a
    safety held against a Stop, where no shot was fired."""
    seats = [SeatRecord(0, "Computer", policy="normal"), SEATS[1]]
    state = GAME.new_game(
        [seat.name for seat in seats],
        1,
        {},
        deck=[*["stop", *["50"] * 5], *["right-of-way", *["75"] * 5], *["swerve"] * 10],
    )
    state.cars[1].mb.battle = [Card.GO]
    state = GAME.apply(state, 0, GAME.parse_action("play stop @1"))
    await store_rigged(driver, "dragon", seats, state)
    said = replies(await driver.slash("hint", {}, user_id=BOB_ID))
    assert said.startswith("💡 **No reaction** — kept, Right of Way still clears the Stop"), said
    assert "shot" not in said, said


async def test_the_result_line_marks_a_driver_killed(driver: InteractionDriver) -> None:
    """Alice crosses the line; Bob, alive with 50 miles, comes second, ahead of Carol, whom
    Alice killed at 75 miles. The result line marks Carol out. Found by this review: "2nd Bob
    50 · 3rd Carol 75", a place order the miles beside it seemed to contradict."""
    seats = [*SEATS, SeatRecord(2, "Carol", user_id=CAROL_ID)]
    state = GAME.new_game(
        [seat.name for seat in seats],
        1,
        {},
        deck=[
            *["25", *["go"] * 5],
            *["go"] * 6,
            *["go"] * 2,
            *["swerve"] * 10,
            *["armor-back"] * 5,
        ],
    )
    state.cars[0].mb.battle = [Card.GO]
    state.cars[0].mb.miles = [Card.D200, Card.D200, *[Card.D100] * 5, Card.D50, Card.D25]
    state.cars[1].mb.miles = [Card.D50]
    state.cars[2].mb.miles = [Card.D50, Card.D25]
    kill(state, 2, 0)
    await store_rigged(driver, "dragon", seats, state)
    said = public_table(await driver.slash("move", {"action": "play 25"})).content or ""
    assert "won! 1st Alice 1000 · 2nd Bob 50 · 3rd Carol 75 (out)." in said, said


async def test_an_option_written_as_the_rules_write_it_is_read(driver: InteractionDriver) -> None:
    """Alice types the option as the Dragon rules write it, `oil_slick: on`, with a space after
    the colon: the game starts with the Oil Slick cards. Found by this review: "I could not
    read the option 'oil_slick:'", and no game."""
    started = await driver.slash(
        "play", {"game": "dragon", "computers": 1, "options": "oil_slick: on"}
    )
    stored = await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID)
    assert stored is not None, replies(started)
    assert stored.options["oil_slick"] == "on"
