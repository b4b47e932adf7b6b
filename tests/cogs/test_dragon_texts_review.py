"""Dragon Mille Bornes read through the fake Discord by a new member and by a hostile one: the
words of a hand, a refusal and a window against what the table shows, and a typed move or a
press that must change nothing stored. Each test says, in its docstring, what this review
found before its fix.
"""

from __future__ import annotations

from bot.engine.dragon import GAME
from bot.engine.dragon.damage import kill
from tests.cogs.helpers import alt_text_of, public_table, store_rigged
from tests.cogs.test_dragon_cogs import CW, MB, SEATS
from tests.discord.backend import CAROL_ID
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
