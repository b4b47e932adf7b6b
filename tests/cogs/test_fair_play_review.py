"""A competitive member's review: ways to dodge a loss or climb the ladder dishonestly, and what a
moderator can do about them, played through the fake Discord.

A test that holds a fix says, in its docstring, what was wrong before it; the others pin a way
to cheat that this review tried and found closed, so that it stays closed.
"""

from __future__ import annotations

from bot.hindsight import LEFT_THE_GAME
from bot.store.base import GuildSettings
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import component_id, replies, stacked_mille, sweep_after
from tests.cogs.test_moderator_review import _make_moderator
from tests.cogs.test_windows_review import _dragon
from tests.discord.backend import ALICE_ID, BOB_ID, CAROL_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver

TURN = 600  # seconds: the turn timer where a test sets one
DAY = 86_400


# --- the turn timer's choice ---------------------------------------------------------------------


async def test_a_new_on_timeout_is_said_to_reach_the_turns_already_running(
    driver: InteractionDriver,
) -> None:
    """Alice against Bob with ten minutes a turn, *the computer plays that turn*. Bob's turn is
    running when a moderator switches to *the player forfeits the game*; at the deadline Bob
    forfeits and loses. Found by this review: the reply said the settings applied "from each
    game's next move", so the moderator (and a member told so) counted on Bob's turn ending as
    it began. The reply now says the new choice applies at once, to turns already running."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, TURN, "computer"))
    await stacked_mille(driver)
    await driver.slash("move", {"action": "play go"})
    said = await driver.slash("settings", {"on_timeout": "forfeit"})
    assert "applies at once, to turns already running too" in replies(said), replies(said)
    await sweep_after(driver, TURN + 1)
    (result,) = await bot.store.results()
    assert result.record.counted and result.record.ranks == (0, 1), "Bob forfeited"


async def test_a_new_turn_time_alone_says_nothing_of_running_turns(
    driver: InteractionDriver,
) -> None:
    """Only the turn's length changes: it applies from each game's next move, and the reply
    says nothing of what happens at a running turn's end, which has not changed."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, TURN, "computer"))
    said = await driver.slash("settings", {"turn_timer": 5})
    assert "from each game's next move" in replies(said), replies(said)
    assert "turns already running" not in replies(said), replies(said)


# --- dodging a loss ------------------------------------------------------------------------------


async def test_resigning_before_anyone_moved_loses_a_rated_game(driver: InteractionDriver) -> None:
    """Bob accepts Alice's challenge and resigns before anyone has moved: no game is too short
    to count, so leaving at once is a loss like any other, never a free way out."""
    invited = await driver.slash("challenge", {"game": "mille", "member": BOB_ID})
    await driver.click(invited, component_id(invited, "Accept"), user_id=BOB_ID)
    ended = await driver.slash("resign", {}, user_id=BOB_ID)
    assert "📈 Ratings: alice 1,000 → 1,086 (+86) · bob 1,000 → 954 (-46)" in replies(ended)
    (result,) = await running_bot(driver).store.results()
    assert result.record.counted and result.record.ranks == (0, 1)


async def test_an_abort_the_winner_never_answers_ends_nothing(driver: InteractionDriver) -> None:
    """Bob asks to abort and Alice, away, never answers. A month later the game still waits: an
    abort takes every other member's agreement, so a losing member cannot end a game alone."""
    bot = running_bot(driver)
    await stacked_mille(driver)
    asked = await driver.slash("abort", {}, user_id=BOB_ID)
    assert "wants to abort" in replies(asked), replies(asked)
    again = await driver.slash("abort", {}, user_id=BOB_ID)
    assert again.ephemeral and "the other players must agree" in replies(again), replies(again)
    await sweep_after(driver, 30 * DAY)
    assert (await bot.tables.current(GAMES_CHANNEL_ID)).status == "active"
    assert await bot.store.results() == []


async def test_a_moderator_who_left_a_game_cannot_end_it_as_a_moderator(
    driver: InteractionDriver,
) -> None:
    """Carol, a moderator, resigns a three-member Dragon game (placed last), then types /abort,
    which a moderator who is not playing may use to end a game with no result: that would erase
    her own last place. She sat at the table, so she is told she has left and the players still
    in it decide; the game goes on."""
    bot = running_bot(driver)
    _make_moderator(driver, CAROL_ID)
    driver.backend.world.owner_id = ALICE_ID  # the owner holds every permission; Carol is not it
    await _dragon(bot)
    await driver.slash("resign", {}, user_id=CAROL_ID)
    refused = await driver.slash("abort", {}, user_id=CAROL_ID)
    assert refused.ephemeral and replies(refused) == LEFT_THE_GAME, replies(refused)
    assert (await bot.tables.current(GAMES_CHANNEL_ID)).status == "active"


# --- farming -------------------------------------------------------------------------------------


async def test_a_member_cannot_invite_themselves(driver: InteractionDriver) -> None:
    """Alice challenges herself, to farm wins in two seats: refused, and nothing is posted (a
    member in two seats never moves a rating anyway: ``is_rated``)."""
    refused = await driver.slash("challenge", {"game": "mille", "member": ALICE_ID})
    assert refused.ephemeral and "cannot invite yourself" in replies(refused), replies(refused)
    assert await running_bot(driver).store.open_lobbies_of(ALICE_ID, GUILD_ID, 0.0) == []
