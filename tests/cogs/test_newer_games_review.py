"""A review of the newer games (1000 Mile Race, Ticket to Ride and its solo, Dragon Mille Bornes)
played whole through the fake Discord as a member would, every message, private answer, button
label and menu option read, and as a hostile member would.

What held, through the fake Discord with the stored database compared before and after each
press: about 4,000 presses of ids made from real ones (another game, 0 and 19-20 digits; the turn
before, after, far ahead; table for hand; other pickers, options and nested paths; another kind
of component; a trailing newline, space or Arabic-Indic digit, 100 more characters, full-width
digits) and of real ids pressed by another member or an onlooker, at a turn, a reaction window
and the opening tickets of each game, each answered privately in a short line with nothing
stored; menu values never offered (none, repeated, every one plus another, 100 characters,
emoji, another case, another index, a ticket not drawn); 551 presses made twice at once (537
told "You have already made that move", the rest refused twice or after the game ended, each
applied once) and 213 pairs of two different moves pressed at once (one applied); a reaction
or side pressed after its window ran out (named what the bot played); /hint played to the end
of each game by its "Play it" button, and typed garbage. The tests below hold what it found:
each docstring says what a member saw before the fix.
"""

from __future__ import annotations

import asyncio

from bot.store.base import SeatRecord
from cogs.lobby import REMATCH_OF
from cogs.rematch import REMATCH_RUNNING
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import public_table, replies
from tests.discord.backend import ALICE_ID, BOB_ID, GAMES_CHANNEL_ID, GUILD_ID, walk_components
from tests.discord.payloads import InteractionDriver

TWO = [SeatRecord(0, "Alice", user_id=ALICE_ID), SeatRecord(1, "Bob", user_id=BOB_ID)]


async def test_a_member_who_kept_her_opening_tickets_is_not_told_it_is_not_her_turn(
    driver: InteractionDriver,
) -> None:
    """Ticket to Ride of two: Alice keeps her opening tickets while Bob still chooses, then
    types another keep and picks in her keep menu again. Her hand says she waits for Bob to keep
    his tickets; the refusals said "It is not your turn; waiting for Bob.", though at the
    opening there are no turns (at three, with two still choosing, they said "Not now").
    Now: "Not now: waiting for Bob.", and nothing changes."""
    bot = running_bot(driver)
    update = await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="ttr", seats=TWO, seed=5
    )
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{update.game.id}")
    assert hand.message is not None
    (menu,) = [c for c in walk_components(hand.message["components"]) if c.get("type") == 3]
    kept = [menu["options"][0]["value"]]
    await driver.select(hand, menu["custom_id"], kept)
    before = await bot.store.get_game(update.game.id)
    assert before is not None and before.version == update.game.version + 1
    other = menu["options"][1]["value"]
    typed = await driver.slash("move", {"action": f"keep {other}"})
    picked = await driver.forge(hand.message, menu["custom_id"], values=[other])
    for refused in (typed, picked):
        assert refused.ephemeral, replies(refused)
        assert replies(refused) == "Not now: waiting for Bob.", replies(refused)
    again = await driver.forge(hand.message, menu["custom_id"], values=kept)
    assert replies(again) == "You have already made that move. Not now: waiting for Bob."
    assert await bot.store.get_game(update.game.id) == before


async def test_rematch_pressed_twice_at_once_alone_points_at_the_game_it_dealt(
    driver: InteractionDriver,
) -> None:
    """Alice gives up her Ticket to Ride Solo and double clicks Rematch: one game is dealt, and
    the second press was told "A game is already running in this channel. Finish it, or /resign
    or /abort it first.", which asks her to give up the rematch she had just asked for. Now it
    says the rematch is running here; nothing more is stored."""
    bot = running_bot(driver)
    await driver.slash("play", {"game": "ttr-solo"})
    ended = public_table(await driver.slash("resign", {}))
    finished = await bot.store.active_game(GAMES_CHANNEL_ID)
    assert finished is None
    (rematch,) = [c for c in ended.custom_ids if c.startswith("jn:r:")]
    both = await asyncio.gather(
        driver.click(ended.message_id, rematch), driver.forge(ended.message_id, rematch)
    )
    refused = [r for r in both if r.ephemeral]
    assert len(refused) == 1, [replies(r) for r in both]
    assert replies(refused[0]) == REMATCH_RUNNING, replies(refused[0])
    (dealt,) = await bot.store.games_of_member(ALICE_ID, active=True)
    # Pressed again later, while it is played: the same answer, nothing dealt.
    later = await driver.click(ended.message_id, rematch)
    assert later.ephemeral and replies(later) == REMATCH_RUNNING, replies(later)
    assert await bot.store.games_of_member(ALICE_ID, active=True) == [dealt]


async def test_rematch_pressed_beside_another_game_still_says_to_finish_it(
    driver: InteractionDriver,
) -> None:
    """Alice's Race against the computer ends; she starts a Dragon game in the same channel,
    then presses the Race's Rematch: that game is no rematch of it, so she is told to finish it
    first, as before."""
    bot = running_bot(driver)
    await driver.slash("play", {"game": "race"})
    ended = public_table(await driver.slash("resign", {}))
    await driver.slash("play", {"game": "dragon"})
    (rematch,) = [c for c in ended.custom_ids if c.startswith("jn:r:")]
    pressed = await driver.click(ended.message_id, rematch)
    assert pressed.ephemeral, replies(pressed)
    assert replies(pressed).startswith("A game is already running here. Finish it")
    (running,) = await bot.store.games_of_member(ALICE_ID, active=True)
    assert running.game_key == "dragon"


async def test_a_new_game_of_the_same_kind_is_not_called_the_rematch(
    driver: InteractionDriver,
) -> None:
    """Alice's Race against the computer ends; she starts another Race in the same channel with
    /play, then presses the old game's Rematch. Found by the newer games' review: any game of
    the same kind dealt there since with her seated was taken for the rematch, so she was told
    "The rematch is already running in this channel", though she had asked for none. Now the
    rematch carries the finished game's id (``REMATCH_OF``): she is told to finish the game she
    started, and nothing is stored. The rematch itself is still recognised."""
    bot = running_bot(driver)
    await driver.slash("play", {"game": "race"})
    ended = public_table(await driver.slash("resign", {}))
    await driver.slash("play", {"game": "race"})
    (running,) = await bot.store.games_of_member(ALICE_ID, active=True)
    assert REMATCH_OF not in running.options
    (rematch,) = [c for c in ended.custom_ids if c.startswith("jn:r:")]
    pressed = await driver.click(ended.message_id, rematch)
    assert pressed.ephemeral, replies(pressed)
    assert replies(pressed).startswith("A game is already running here. Finish it")
    assert await bot.store.games_of_member(ALICE_ID, active=True) == [running]
    # Once that game is given up, the press deals the rematch, and a second press finds it.
    await driver.slash("resign", {})
    public_table(await driver.click(ended.message_id, rematch))
    (dealt,) = await bot.store.games_of_member(ALICE_ID, active=True)
    assert dealt.options[REMATCH_OF] == rematch.removeprefix("jn:r:")
    again = await driver.click(ended.message_id, rematch)
    assert again.ephemeral and replies(again) == REMATCH_RUNNING, replies(again)
    assert await bot.store.games_of_member(ALICE_ID, active=True) == [dealt]
