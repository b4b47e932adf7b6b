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

from bot.store.base import SeatRecord
from cogs.play import TURN_MARK
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import public_table, replies
from tests.discord.backend import ALICE_ID, BOB_ID, CAROL_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver
from tests.engine.ttr_helpers import G, lay

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


async def test_a_member_who_left_a_game_of_three_is_told_so_when_typing_a_move(
    driver: InteractionDriver,
) -> None:
    """Carol resigns from a three-seat Ticket to Ride game (Alice and Bob play on), then types
    a move. Before the fix she read "It is not your turn; waiting for Alice.", as if her turn
    were still to come."""
    bot = running_bot(driver)
    state = lay(3, hands=[["red"] * 3, ["orange"] * 3, ["white"] * 3])
    stored = await bot.tables.store.create_game(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="ttr",
        seats=THREE,
        options=G.resolve_options({}),
        state=G.to_dict(state),
    )
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
    update = await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="race",
        seats=THREE[:2],
        deck=RACE_DECK,
    )
    public_table(await driver.slash("move", {"action": "play flat-tire"}))
    version = (await bot.tables.current(GAMES_CHANNEL_ID)).version
    for typed, meant in (("cf", "react coup-fourre"), ("no", "pass")):
        offered = await driver.autocomplete("move", "action", typed, user_id=BOB_ID)
        assert offered.choices, typed
        assert offered.choices[0]["value"] == f"{meant}{TURN_MARK}{version}", offered.choices
    # Alice, waiting for Bob, is offered nothing, whatever she types.
    assert not (await driver.autocomplete("move", "action", "cf")).choices
    assert (await bot.tables.current(GAMES_CHANNEL_ID)).id == update.game.id
