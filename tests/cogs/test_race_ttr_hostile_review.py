"""A hostile member's review of 1000 Mile Race and Ticket to Ride through the fake Discord.

What this review tried and found already held (each a readable private sentence, the stored game
unchanged): the other member pressing a hand's move, reaction or ticket menu; a reaction pressed
by its attacker, by a spectator, twice at once, or with a turn from the past or the future;
forged ids (another game, extra path parts, out-of-range pickers, non-digits); forged menu values
(never offered, repeated, too many, none, 500 characters, another member's tickets, a Railyard
set of two colours); typed garbage. The tests below hold what it found broken: each docstring
says what a member was told before the fix.
"""

from __future__ import annotations

from typing import Any

from bot.store.base import SeatRecord, StoredGame
from bot.updates import TableUpdate
from cogs.play import TURN_MARK
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import public_table, replies, store_rigged
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    GAMES_CHANNEL_ID,
    GUILD_ID,
    walk_components,
)
from tests.discord.payloads import InteractionDriver
from tests.engine.ttr_helpers import lay

# 1000 Mile Race (as in test_race_cogs): Alice holds a Flat Tire, Bob a Coup Fourré.
RACE_DECK = [
    *["100", "50", "25", "flat-tire", "spare-tire", "extra-tank", "pit-crew"],
    *["75", "50", "200", "green-light", "repairs"],
    "/",
    *["25", "75", "coup-fourre", "roadblock", "jammer", "gasoline", "repairs"],
]
THREE = [
    SeatRecord(0, "Alice", user_id=ALICE_ID),
    SeatRecord(1, "Bob", user_id=BOB_ID),
    SeatRecord(2, "Carol", user_id=CAROL_ID),
]


async def _race(driver: InteractionDriver) -> TableUpdate:
    """Alice and Bob at a 1000 Mile Race dealt from ``RACE_DECK``."""
    return await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="race",
        seats=THREE[:2],
        deck=RACE_DECK,
    )


async def ttr_of_three(driver: InteractionDriver) -> StoredGame:
    """Alice, Bob and Carol at Ticket to Ride, three cards each in hand and tickets to
    complete (Alice to play)."""
    state = lay(3, hands=[["red"] * 3, ["orange"] * 3, ["white"] * 3])
    return await store_rigged(driver, "ttr", THREE, state)


async def test_a_member_who_left_a_game_of_three_is_told_so_when_typing_a_move(
    driver: InteractionDriver,
) -> None:
    """Carol resigns from a three-seat Ticket to Ride game (Alice and Bob play on), then types
    a move. Before the fix she read "It is not your turn; waiting for Alice.", as if her turn
    were still to come."""
    bot = running_bot(driver)
    stored = await ttr_of_three(driver)
    public_table(await driver.slash("resign", {}, user_id=CAROL_ID))
    before = await bot.tables.store.get_game(stored.id)
    assert before is not None and before.status == "active"
    typed = await driver.slash("move", {"action": "take 1"}, user_id=CAROL_ID)
    assert typed.ephemeral and "You have left this game" in replies(typed), replies(typed)
    after = await bot.tables.store.get_game(stored.id)
    assert after is not None and (after.version, after.state) == (before.version, before.state)


async def test_move_suggests_what_an_alias_names(driver: InteractionDriver) -> None:
    """Bob, asked to react to Alice's Flat Tire, types the rules' own short forms into /move:
    "cf" (Coup Fourré) and "no" (No reaction). Each suggests the move it names, first. Before
    the fix /move listed nothing for either, as if there were nothing to play, though sending
    the text played the move."""
    bot = running_bot(driver)
    update = await _race(driver)
    public_table(await driver.slash("move", {"action": "play flat-tire"}))
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    for typed, meant in (("cf", "react coup-fourre"), ("no", "pass")):
        offered = await driver.autocomplete("move", "action", typed, user_id=BOB_ID)
        assert offered.choices, typed
        mark = f"{TURN_MARK}{stored.id}:{stored.version}"
        assert offered.choices[0]["value"] == f"{meant}{mark}", offered.choices
    # Alice, waiting for Bob, is offered nothing, whatever she types.
    assert not (await driver.autocomplete("move", "action", "cf")).choices
    assert (await bot.tables.current(GAMES_CHANNEL_ID)).id == update.game.id


async def _three_choosing_tickets(driver: InteractionDriver) -> tuple[int, dict[int, Any]]:
    """A three-member Ticket to Ride game at its opening tickets (everyone chooses at once),
    each member's hand opened: the game id and each member's hand message."""
    bot = running_bot(driver)
    update = await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="ttr", seats=THREE, seed=5
    )
    table = public_table(await driver.slash("table", {}))
    hands = {}
    for user in (ALICE_ID, BOB_ID, CAROL_ID):
        hand = await driver.click(table.message_id, f"jn:h:{update.game.id}", user_id=user)
        hands[user] = hand.message
    return update.game.id, hands


def _keep_menu(message: Any) -> dict[str, Any]:
    (menu,) = [
        c
        for c in walk_components(message.get("components") or [])
        if c.get("type") == 3 and "Keep" in str(c.get("placeholder"))
    ]
    return menu


async def test_a_keep_menu_pressed_again_after_keeping_says_who_is_awaited(
    driver: InteractionDriver,
) -> None:
    """Alice keeps her opening tickets, then picks in the same menu again. Before the fix she
    read "That button is from an earlier turn" (use the newest table, which would not help
    her); now she reads whom the table waits for, and nothing changes."""
    bot = running_bot(driver)
    _, hands = await _three_choosing_tickets(driver)
    menu = _keep_menu(hands[ALICE_ID])
    values = [o["value"] for o in menu["options"][:2]]
    await driver.select(hands[ALICE_ID], menu["custom_id"], values)
    before = await bot.tables.current(GAMES_CHANNEL_ID)
    # Her hand was redrawn after keeping: the old menu is pressed as a client that kept it.
    again = await driver.forge(hands[ALICE_ID], menu["custom_id"], values=values)
    assert again.ephemeral and "Not now: waiting for Bob and Carol." in replies(again)
    after = await bot.tables.current(GAMES_CHANNEL_ID)
    assert (after.version, after.state) == (before.version, before.state)


async def test_a_hand_menu_of_a_member_who_left_says_they_left(driver: InteractionDriver) -> None:
    """Carol resigns while the opening tickets are chosen (Alice and Bob play on), then picks
    in her old keep menu and opens her hand. Before the fix she read "from an earlier turn"
    and "it is not your turn yet"; now both say she has left."""
    bot = running_bot(driver)
    game_id, hands = await _three_choosing_tickets(driver)
    await driver.slash("resign", {}, user_id=CAROL_ID)
    before = await bot.tables.current(GAMES_CHANNEL_ID)
    menu = _keep_menu(hands[CAROL_ID])
    values = [o["value"] for o in menu["options"][:2]]
    pressed = await driver.forge(
        hands[CAROL_ID], menu["custom_id"], values=values, user_id=CAROL_ID
    )
    assert pressed.ephemeral and "You have left this game" in replies(pressed), replies(pressed)
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{game_id}", user_id=CAROL_ID)
    assert "you have left this game" in replies(hand), replies(hand)
    after = await bot.tables.current(GAMES_CHANNEL_ID)
    assert (after.version, after.state) == (before.version, before.state)


async def test_a_menu_of_a_fixed_count_asks_for_exactly_that_many(
    driver: InteractionDriver,
) -> None:
    """A forged choice of four colours in Ticket to Ride's menu of three singles (a hand too
    big for one list of cards) read "Choose between 3 and 3 of these."; it now reads "Choose
    exactly 3 of these.", and nothing changes."""
    from tests.cogs.test_ttr_cogs import _huge_hand

    bot = running_bot(driver)
    _, hand = await _huge_hand(driver)
    assert hand.message is not None
    (menu,) = [
        c
        for c in walk_components(hand.message.get("components") or [])
        if c.get("type") == 3 and "three singles" in str(c.get("placeholder"))
    ]
    assert (menu["min_values"], menu["max_values"]) == (3, 3)
    values = [o["value"] for o in menu["options"][:4]]
    before = await bot.tables.current(GAMES_CHANNEL_ID)
    forged = await driver.forge(hand.message, menu["custom_id"], values=values)
    assert forged.ephemeral and "Choose exactly 3 of these." in replies(forged), replies(forged)
    after = await bot.tables.current(GAMES_CHANNEL_ID)
    assert (after.version, after.state) == (before.version, before.state)


async def test_a_custom_id_with_digits_of_another_script_is_not_read_as_a_number(
    driver: InteractionDriver,
) -> None:
    """Ids are numbers in ASCII digits: an Arabic-Indic zero in a forged picker id was read as
    picker 0 and played. It now matches no Junction component, and nothing changes."""
    bot = running_bot(driver)
    update = await _race(driver)
    table = public_table(await driver.slash("table", {}))
    before = await bot.tables.current(GAMES_CHANNEL_ID)
    # Picker 0 of Alice's hand is "Drive 25 miles": read as 0, the forged id played it.
    forged = f"jn:p:{update.game.id}:{before.version}:h:\u0660"
    pressed = await driver.forge(table.message_id, forged)
    assert pressed.ephemeral, replies(pressed)
    after = await bot.tables.current(GAMES_CHANNEL_ID)
    assert (after.version, after.state) == (before.version, before.state)
