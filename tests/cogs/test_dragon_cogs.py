"""Dragon Mille Bornes through the cogs: six cars (three members, three computers), an attack
answered with armor from a button, a target picker, and a coup-fourré window that times out."""

from __future__ import annotations

from bot.store.base import GuildSettings, SeatRecord, StoredGame
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import component_id, labels, public_table, sweep_after
from tests.discord.backend import ALICE_ID, BOB_ID, CAROL_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver

# Six Mille Bornes hands of six: Alice holds a Speed Limit, Carol the Right of Way.
MB = [
    *["speed-limit", "gasoline", "gasoline", "gasoline", "gasoline", "gasoline"],
    *["75"] * 6,
    *["right-of-way", "50", "50", "50", "50", "50"],
    *["25"] * 6,
    *["end-of-limit"] * 6,
    *["50", "50", "50", "50", "25", "25"],
]
# Six Car Wars hands of five: Alice a Machine Gun (Front), Bob an Armor for the front.
CW = [
    *["mg-front", "swerve", "swerve", "swerve", "swerve"],
    *["armor-front", "swerve", "swerve", "swerve", "swerve"],
    *["swerve", "swerve", "armor-left", "armor-left", "armor-left"],
    *["armor-right"] * 5,
    *["armor-right", "armor-right", "called-shot", "called-shot", "tire-shot"],
    *["called-shot", "called-shot", "tire-shot", "tire-shot", "tire-shot"],
]
SEATS = [
    SeatRecord(0, "Alice", user_id=ALICE_ID),
    SeatRecord(1, "Bob", user_id=BOB_ID),
    SeatRecord(2, "Carol", user_id=CAROL_ID),
    *(SeatRecord(seat, f"Computer {seat}", policy="normal") for seat in (3, 4, 5)),
]


async def dealt(driver: InteractionDriver) -> StoredGame:
    """Dragon at the games channel, ``SEATS`` dealt from the stacked ``MB`` and ``CW`` decks."""
    update = await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="dragon",
        seats=SEATS,
        deck=[*MB, *CW],
    )
    return update.game


async def test_six_cars_armor_a_target_picker_and_a_timeout(driver: InteractionDriver) -> None:
    """Alice aims a machine gun at Bob through the target picker; Bob's armor button stops
    it; her Speed Limit on Carol opens a coup-fourré window that runs out."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, reaction_seconds=15))
    game_id = (await dealt(driver)).id
    table = public_table(await driver.slash("table", {}))
    assert table.file("table.png")[:4] == b"\x89PNG"
    hand = await driver.click(table.message_id, f"jn:h:{game_id}")
    assert "Machine Gun (Front)" in labels(hand)
    aim = await driver.click(hand.message, component_id(hand, "Machine Gun (Front)"))
    assert aim.ephemeral and {"Bob", "Carol"} <= set(labels(aim))
    shot = await driver.click(aim.message, component_id(aim, "Bob"))
    window = public_table(shot)
    assert f"<@{BOB_ID}>, you may react" in (window.content or "")
    bobs = await driver.click(window.message_id, f"jn:h:{game_id}", user_id=BOB_ID)
    armored = await driver.click(bobs.message, component_id(bobs, "Armor"), user_id=BOB_ID)
    public_table(armored)
    state = bot.tables.position(await bot.tables.current(GAMES_CHANNEL_ID)).state
    assert state.cars[1].hits[0] == 0 and "armor-front" in state.cw_discard

    # Alice's Mille Bornes action: Speed Limit on Carol, who holds the Right of Way.
    table = public_table(armored)
    hand = await driver.click(table.message_id, f"jn:h:{game_id}")
    aim = await driver.click(hand.message, component_id(hand, "Speed Limit"))
    limited = await driver.click(aim.message, component_id(aim, "Carol"))
    assert f"<@{CAROL_ID}>, you may react" in (public_table(limited).content or "")
    await sweep_after(driver, 16)
    assert any("did not react in time" in m["content"] for m in driver.messages.values())
    state = bot.tables.position(await bot.tables.current(GAMES_CHANNEL_ID)).state
    assert state.cars[2].mb.speed and state.cars[2].mb.speed[-1].value == "speed-limit"


async def test_the_rules_teach_the_buttons_in_words(driver: InteractionDriver) -> None:
    """/rules dragon describes the moves as My hand shows them (a hazard or a shot is pressed,
    then its car picked under "Aim at which car?"; answers are buttons such as "No reaction").
    Found by a newcomer's review: it taught notation ("`play stop @2`", "`mg-front @2`", "answer
    with `pass`") that no button shows. Notation stays on one line, the one about typing /move."""
    said = (await driver.slash("rules", {"game": "dragon"})).content or ""
    assert "My hand" in said and "Aim at which car?" in said and "No reaction" in said, said
    typed = [line for line in said.splitlines() if "/move" in line]
    assert len(typed) == 1 and "`play stop @2`" in typed[0], said
    taught = [line for line in said.splitlines() if line not in typed]
    assert not [line for line in taught if "`" in line or "@" in line], said
