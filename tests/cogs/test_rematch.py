"""The "Rematch" button under a finished game's table: the same game again, for its players only."""

from __future__ import annotations

from bot.forget import forget_member
from bot.store.base import SeatRecord
from bot.store.sqlite import SqliteStore
from cogs.lobby import REMATCH_OF
from cogs.rematch import REMATCH_RUNNING
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import component_id, labels, public_table
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    GAMES_CHANNEL_ID,
    GUILD_ID,
    InteractionResult,
)
from tests.discord.payloads import InteractionDriver


async def _finished(
    driver: InteractionDriver,
    seats: list[SeatRecord],
    options: dict[str, str] | None = None,
    labels: dict[str, str] | None = None,
) -> tuple[int, InteractionResult]:
    """A game Alice resigns at once: its final table, with the Rematch button."""
    update = await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="mille",
        seats=seats,
        options=options,
        labels=labels,
    )
    return update.game.id, await driver.slash("resign", {}, user_id=ALICE_ID)


ALICE_VS_COMPUTER = [
    SeatRecord(0, "Alice", user_id=ALICE_ID),
    SeatRecord(1, "Computer (random)", policy="random"),
]
ALICE_VS_BOB = [SeatRecord(0, "Alice", user_id=ALICE_ID), SeatRecord(1, "Bob", user_id=BOB_ID)]


async def test_the_final_table_offers_a_rematch(driver: InteractionDriver) -> None:
    game_id, resigned = await _finished(driver, ALICE_VS_COMPUTER)
    table = public_table(resigned)
    assert "Rematch" in labels(table)
    assert component_id(table, "Rematch") == f"jn:r:{game_id}"
    assert "My hand" not in labels(table)


async def test_final_tables_leave_no_view_behind_in_memory(driver: InteractionDriver) -> None:
    """Found by an operator's security review: each final table put its Rematch button in
    discord.py's store of views to answer (a view with no timeout, kept per message for as long
    as the bot ran), so the bot's memory grew with every game finished. The button is answered
    from its id, as every other one is, and nothing is kept per message."""
    for _ in range(3):
        await _finished(driver, ALICE_VS_COMPUTER)
    kept = running_bot(driver)._connection._view_store
    assert kept._views == {} and kept._synced_message_views == {}


async def test_against_the_computer_the_rematch_is_dealt_at_once(
    driver: InteractionDriver,
) -> None:
    """Same game, same computer player, same options; the new table is posted."""
    game_id, resigned = await _finished(driver, ALICE_VS_COMPUTER, options={"deck": "modern"})
    again = await driver.click(public_table(resigned).message_id, f"jn:r:{game_id}")
    assert not again.ephemeral
    new = await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID)
    assert new is not None and new.id != game_id and new.game_key == "mille"
    assert [(s.user_id, s.policy) for s in new.seats] == [(ALICE_ID, None), (None, "random")]
    assert new.options["deck"] == "modern"
    assert "rematch" in (public_table(again).content or "")


async def test_with_another_member_the_rematch_is_a_challenge(driver: InteractionDriver) -> None:
    """Nobody is dealt into a game they did not accept: Bob's rematch invites Alice."""
    game_id, resigned = await _finished(driver, ALICE_VS_BOB)
    asked = await driver.click(public_table(resigned).message_id, f"jn:r:{game_id}", user_id=BOB_ID)
    invitation = asked.responses[0]
    assert not invitation.ephemeral
    assert f"<@{BOB_ID}> invites <@{ALICE_ID}> (waiting)" in (invitation.content or "")
    assert "Accept" in labels(invitation)
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None


async def test_only_its_players_may_ask(driver: InteractionDriver) -> None:
    game_id, resigned = await _finished(driver, ALICE_VS_COMPUTER)
    refused = await driver.click(
        public_table(resigned).message_id, f"jn:r:{game_id}", user_id=CAROL_ID
    )
    assert refused.ephemeral
    assert "Only the players of that game" in (refused.content or "")
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None


async def test_a_double_press_deals_one_game(driver: InteractionDriver) -> None:
    game_id, resigned = await _finished(driver, ALICE_VS_COMPUTER)
    message = public_table(resigned).message_id
    await driver.click(message, f"jn:r:{game_id}")
    second = await driver.click(message, f"jn:r:{game_id}")
    assert second.ephemeral and "already running" in (second.content or "")
    games = await running_bot(driver).tables.store.active_games()
    assert len(games) == 1


async def test_a_daily_deal_rematch_is_an_ordinary_deal(driver: InteractionDriver) -> None:
    game_id, resigned = await _finished(driver, ALICE_VS_COMPUTER, labels={"daily": "2026-11-26"})
    await driver.click(public_table(resigned).message_id, f"jn:r:{game_id}")
    new = await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID)
    assert new is not None and "daily" not in new.options


async def test_forged_rematch_ids_are_refused(driver: InteractionDriver) -> None:
    """A game that never existed, one handed out whose row is gone, and one still being played
    start nothing. Found by the newer games' review: an id past every game the store had dealt
    was told "That game no longer exists.", though no game ever had it."""
    store = running_bot(driver).tables.store
    running = await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="mille", seats=ALICE_VS_COMPUTER
    )
    message = public_table(await driver.slash("table", {})).message_id
    before = await store.active_games()
    for never in ("987654321", "0", "9" * 19):
        unknown = await driver.forge(message, f"jn:r:{never}")
        assert unknown.ephemeral and unknown.content == "That game never existed.", never
    # Ids up to 40 handed out, their rows gone (as after ``junction migrate-db --force``).
    assert isinstance(store, SqliteStore)
    await store._write("INSERT INTO id_floors (name, floor) VALUES ('games', 40)")
    gone = await driver.forge(message, "jn:r:40")
    assert gone.ephemeral and gone.content == "That game no longer exists.", gone.content
    assert await store.active_games() == before
    pressed = await driver.forge(message, f"jn:r:{running.game.id}")
    assert pressed.ephemeral and "still being played" in (pressed.content or "")
    assert len(await running_bot(driver).tables.store.active_games()) == 1


async def test_no_rematch_with_a_former_player(driver: InteractionDriver) -> None:
    """Alice asked to be forgotten (``junction forget-member``): her seat is a former player's,
    with an alias that is nobody on Discord, so Bob's rematch is refused rather than inviting
    (and pinging) a user id that does not exist."""
    game_id, resigned = await _finished(driver, ALICE_VS_BOB)
    await forget_member(running_bot(driver).tables.store, ALICE_ID)
    refused = await driver.click(
        public_table(resigned).message_id, f"jn:r:{game_id}", user_id=BOB_ID
    )
    assert refused.ephemeral and "has left Junction" in (refused.content or "")
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None


async def test_a_rematch_with_a_member_under_way_is_pointed_at(driver: InteractionDriver) -> None:
    """Bob's rematch invitation accepted, its game is played here: a later press of the old
    table's Rematch said "A game is already running in this channel.", as for any other game;
    it now says the rematch is running, and nothing changes."""
    game_id, resigned = await _finished(driver, ALICE_VS_BOB)
    message = public_table(resigned).message_id
    asked = await driver.click(message, f"jn:r:{game_id}", user_id=BOB_ID)
    await driver.click(asked, component_id(asked.responses[0], "Accept"), user_id=ALICE_ID)
    store = running_bot(driver).tables.store
    rematch = await store.active_game(GAMES_CHANNEL_ID)
    assert rematch is not None and rematch.options[REMATCH_OF] == str(game_id)
    again = await driver.click(message, f"jn:r:{game_id}", user_id=ALICE_ID)
    assert again.ephemeral and again.content == REMATCH_RUNNING
    assert await store.active_games() == [rematch]
