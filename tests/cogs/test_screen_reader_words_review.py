"""What a screen reader says in Mille Bornes Solo and Dragon, found by a screen-reader review and
a French-names review. Each test says, in its docstring, what a member heard or read before."""

from __future__ import annotations

from bot.engine.mille.cards import ENGLISH_NAMES, FRENCH_NAMES, Card
from bot.games import bundle
from bot.games.bundle import ButtonSpec
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alt_text_of, solo_table, typed_as_it_reads
from tests.discord.backend import GAMES_CHANNEL_ID
from tests.discord.payloads import InteractionDriver


async def test_the_suggested_solo_button_typed_out_is_played(driver: InteractionDriver) -> None:
    """The Solo table's first button, the expert's favourite, was marked by a star alone, which a
    screen reader read "star, 5: 75 miles on 75 miles". Its words now end "(suggested)", and
    those words typed into /move, as a member reads them, are that move."""
    stored, offered = await solo_table(driver)
    first = offered[0]
    assert isinstance(first, ButtonSpec) and first.label.endswith(" (suggested)"), first
    await typed_as_it_reads(driver, stored, first)


async def test_the_solo_score_image_says_the_moves_and_the_wipes(
    driver: InteractionDriver,
) -> None:
    """Alice plays a move of Mille Bornes Solo, then resigns. The score image shows "Moves 1"
    and "Hands wiped …", but its description was the table's words, which say neither: a
    screen reader never heard them. It now reads the score card, figures included."""
    bot = running_bot(driver)
    await driver.slash("play", {"game": "solo"})
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    here = bot.tables.position(stored)
    first = bundle("solo").presenter.table_pickers(here.game.public_view(here.state))[0]
    assert isinstance(first, ButtonSpec)
    await driver.slash("move", {"action": first.notation})
    ended = await driver.slash("resign", {})
    finished = await bot.tables.store.get_game(stored.id)
    assert finished is not None
    after = bot.tables.position(finished)
    view = after.game.public_view(after.state)
    alt = alt_text_of(ended, "score.png")
    assert f"Moves 1, Hands wiped {view.wipes}, " in alt, alt
    assert f"Cards cleared {view.cleared}/49, {view.mileage} miles." in alt, alt
    assert "★" not in alt and "·" not in alt, alt


async def test_dragon_rules_pair_each_card_name_with_its_french_one(
    driver: InteractionDriver,
) -> None:
    """/rules for Mille Bornes and Solo pair each English card name with its French one; Dragon's
    did not (its summary fills its message), so a Dragon table with French names read Feu
    rouge and nothing said it was Stop. The pairs now come with the summary, in an embed that
    Discord's limits take (the fake Discord refuses a body over any of them)."""
    said = await driver.slash("rules", {"game": "dragon"})
    assert said.ephemeral and not driver.backend.form_errors, driver.backend.form_errors
    assert (said.content or "") == bundle("dragon").presenter.rules
    callback = said.callback
    assert callback is not None
    (embed,) = callback.embeds
    names = str(embed["description"])
    for card in Card:
        if not card.is_distance and card is not Card.ACCIDENT:
            pair = f"{ENGLISH_NAMES[card]} = {FRENCH_NAMES[card]}"
            assert pair in names, pair
    assert "25 miles = 25 bornes" in names and "Car Wars cards keep their English names" in names
