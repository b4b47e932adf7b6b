"""A hostile review of out-of-turn decisions across a restart, members who leave the server in
the middle of a game, and the names /stats and /leaderboard show, played through the fake
Discord. A test that holds a fix says, in its docstring, what a member saw before it; the others
hold what the review tried and found sound.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.store.base import GuildSettings
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    alt_text_of,
    component_id,
    current_game,
    public_table,
    replies,
    restarted,
    select_of,
    stacked_mille,
    sweep_after,
)
from tests.cogs.test_windows_review import STAMPEDE_CW, THREE_MEMBERS, _dragon, race_window
from tests.discord.backend import ALICE_ID, BOB_ID, CAROL_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver


def _nick(driver: InteractionDriver, user_id: int, name: str) -> None:
    member = driver.backend.world.member(user_id)
    assert member is not None
    member["nick"] = name


async def _mille_lost_by(driver: InteractionDriver, host: int, guest: int, loser: int) -> None:
    """``host`` challenges ``guest`` to Mille Bornes, who accepts; ``loser`` resigns."""
    invited = await driver.slash("challenge", {"game": "mille", "member": guest}, user_id=host)
    await driver.click(invited, component_id(invited, "Accept"), user_id=guest)
    ended = await driver.slash("resign", {}, user_id=loser)
    assert "won" in replies(ended), replies(ended)


# --- names on the boards --------------------------------------------------------------------


async def test_two_opponents_of_one_name_are_told_apart_on_a_card_and_the_board(
    driver: InteractionDriver,
) -> None:
    """Alice and Bob both go by "Sam" here, never at one table; Carol loses to one and beats the
    other. Found by this review: Carol's /stats said "Against Sam: 0–1–0. Against Sam: 2–0–0."
    and /leaderboard listed "Sam" twice, so nobody could tell which Sam beat her. The later Sam
    is numbered, as at a table ("Sam (2)"), alike on the card and the board."""
    _nick(driver, ALICE_ID, "Sam")
    _nick(driver, BOB_ID, "Sam")
    await _mille_lost_by(driver, ALICE_ID, CAROL_ID, CAROL_ID)
    await _mille_lost_by(driver, BOB_ID, CAROL_ID, BOB_ID)
    await _mille_lost_by(driver, BOB_ID, CAROL_ID, BOB_ID)
    card = alt_text_of(
        await driver.slash("stats", {"game": "mille"}, user_id=CAROL_ID), "stats.png"
    )
    assert "Against Sam: 0–1–0." in card and "Against Sam (2): 2–0–0." in card, card
    board = alt_text_of(
        await driver.slash("leaderboard", {"game": "mille"}, user_id=CAROL_ID), "leaderboard.png"
    )
    assert "Sam, rating" in board and "Sam (2), rating" in board, board


# --- out-of-turn decisions across a restart -------------------------------------------------


async def test_a_stampede_half_answered_survives_a_restart(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Alice's Stampede asks Bob and Carol for a side; Bob answers, then the bot restarts. His
    old button is refused as already made, Alice's press of it changes nothing, and Carol's side
    pressed twice at once is played once."""
    bot = running_bot(driver)
    game = await _dragon(bot, cw=STAMPEDE_CW)
    window = public_table(await driver.slash("move", {"action": "stampede"}))
    bobs = await driver.click(window.message_id, f"jn:h:{game.id}", user_id=BOB_ID)
    carols = await driver.click(window.message_id, f"jn:h:{game.id}", user_id=CAROL_ID)
    bob_side, carol_side = component_id(bobs, "Take it on"), component_id(carols, "Take it on")
    await driver.click(bobs.message, bob_side, user_id=BOB_ID)
    async with restarted(driver, tmp_path) as again:
        before = await current_game(again)
        # Bob's hand was redrawn when he chose: his old button is pressed from a stale client.
        twice = await again.forge(window.message_id, bob_side, user_id=BOB_ID)
        assert twice.ephemeral and "already made that move" in replies(twice), replies(twice)
        alice = await again.forge(window.message_id, carol_side, user_id=ALICE_ID)
        assert alice.ephemeral and replies(alice), replies(alice)
        assert await current_game(again) == before
        await asyncio.gather(
            again.forge(window.message_id, carol_side, user_id=CAROL_ID),
            again.forge(window.message_id, carol_side, user_id=CAROL_ID),
        )
        moves = await running_bot(again).store.moves(game.id)
        assert [m.seat for m in moves] == [0, 1, 2], "each side was taken once"
        assert running_bot(again).tables.position(await current_game(again)).acting == [0]


async def test_a_stampede_deadline_set_before_a_restart_closes_after_it(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Bob takes his side, the bot restarts, and Carol's window runs out: the new bot takes her
    side once, at the deadline set when the Stampede was played (not a fresh one), and her late
    press says which side it took."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, None, "computer", 15))
    game = await _dragon(bot, cw=STAMPEDE_CW)
    window = public_table(await driver.slash("move", {"action": "stampede"}))
    offered = (await current_game(driver)).turn_deadline
    bobs = await driver.click(window.message_id, f"jn:h:{game.id}", user_id=BOB_ID)
    carols = await driver.click(window.message_id, f"jn:h:{game.id}", user_id=CAROL_ID)
    await driver.click(bobs.message, component_id(bobs, "Take it on"), user_id=BOB_ID)
    async with restarted(driver, tmp_path) as again:
        assert (await current_game(again)).turn_deadline == offered
        await sweep_after(again, 16)
        after = await current_game(again)
        taken = [m for m in await running_bot(again).store.moves(game.id) if m.seat == 2]
        assert len(taken) == 1 and taken[0].interaction_id is None, taken
        late = await again.forge(
            window.message_id, component_id(carols, "Take it on"), user_id=CAROL_ID
        )
        assert late.ephemeral and "the bot answered for you: take it on the" in replies(late)
        assert await current_game(again) == after


async def test_a_race_window_open_across_a_restart_runs_out_once(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """1000 Mile Race: Bob may answer Alice's Flat Tire when the bot restarts. Alice pressing his
    button is told whom the table waits for; the window runs out under the new bot, and each of
    Bob's old buttons then says the bot answered for him, changing nothing."""
    window, bobs = await race_window(driver, GuildSettings(GUILD_ID, None, "computer", 15))
    buttons = [component_id(bobs, "Coup Fourré"), component_id(bobs, "No reaction")]
    async with restarted(driver, tmp_path) as again:
        before = await current_game(again)
        alice = await again.forge(window.message_id, buttons[0], user_id=ALICE_ID)
        assert alice.ephemeral and "waiting for Bob" in replies(alice), replies(alice)
        assert await current_game(again) == before
        await sweep_after(again, 16)
        after = await current_game(again)
        assert after.version == before.version + 1
        for button in buttons:
            late = await again.forge(window.message_id, button, user_id=BOB_ID)
            assert late.ephemeral and "the bot answered for you: no reaction" in replies(late)
        assert await current_game(again) == after


async def test_opening_tickets_half_kept_across_a_restart(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Ticket to Ride, three members, a one-minute timer: Bob keeps his tickets, the bot
    restarts. His keep sent again is refused as made, Carol's keep sent twice at once counts
    once, and Alice's turn runs out at the deadline set at the deal, not a fresh one."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "computer"))
    update = await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="ttr", seats=THREE_MEMBERS, seed=4
    )
    dealt = update.game.turn_deadline
    table = public_table(await driver.slash("table", {}))
    hands = {
        user: await driver.click(table.message_id, f"jn:h:{update.game.id}", user_id=user)
        for user in (BOB_ID, CAROL_ID)
    }
    menus = {user: select_of(hand) for user, hand in hands.items()}
    keeps = {user: [menu["options"][0]["value"]] for user, menu in menus.items()}
    await driver.select(
        hands[BOB_ID].message, menus[BOB_ID]["custom_id"], keeps[BOB_ID], user_id=BOB_ID
    )
    async with restarted(driver, tmp_path) as again:
        before = await current_game(again)
        assert before.turn_deadline == dealt
        twice = await again.forge(
            table.message_id, menus[BOB_ID]["custom_id"], values=keeps[BOB_ID], user_id=BOB_ID
        )
        assert twice.ephemeral and "already made that move" in replies(twice), replies(twice)
        assert await current_game(again) == before
        await asyncio.gather(
            *(
                again.forge(
                    table.message_id,
                    menus[CAROL_ID]["custom_id"],
                    values=keeps[CAROL_ID],
                    user_id=CAROL_ID,
                )
                for _ in range(2)
            )
        )
        moves = await running_bot(again).store.moves(update.game.id)
        assert [m.seat for m in moves] == [1, 2], "Carol kept once"
        await sweep_after(again, 61)
        late = [m for m in await running_bot(again).store.moves(update.game.id) if m.seat == 0]
        assert late and late[0].interaction_id and late[0].interaction_id.startswith("late:")


async def test_a_timer_turned_on_reaches_a_game_stuck_on_a_gone_members_turn(
    driver: InteractionDriver,
) -> None:
    """No turn timer; Alice plays, and Bob, to play next, has left the server. An admin turns a
    timer on to unstick the game. Found by a review: settings applied from a game's next move,
    which never came, so the game stayed on Bob's turn for ever (only a moderator's /abort
    ended it). A game waiting with no timer gets one when it is set; when it runs out, Bob
    forfeits and Alice wins."""
    bot = running_bot(driver)
    await stacked_mille(driver)
    await driver.slash("move", {"action": "play go"})
    waiting = await current_game(driver)
    assert waiting.turn_deadline is None
    said = await driver.slash("settings", {"turn_timer": 5, "on_timeout": "forfeit"})
    assert said.ephemeral and "1 game waiting with no timer got one now" in replies(said)
    timed = await current_game(driver)
    assert timed.turn_deadline is not None
    assert 299 < timed.turn_deadline - bot.tables.clock() <= 300
    assert timed.version == waiting.version, "no move was made"
    await sweep_after(driver, 301)
    ended = await bot.tables.game_by_id(waiting.id)
    assert ended.status == "finished"
    (result,) = await bot.store.results()
    assert result.record.ranks == (0, 1), "Alice (seat 0) wins"


async def test_a_timer_turned_on_leaves_a_timed_games_deadline_as_it_was(
    driver: InteractionDriver,
) -> None:
    """A game already timed (a minute a turn) keeps its deadline when the timer is changed to
    five minutes: the new one applies from its next move, as /settings says."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "computer"))
    await stacked_mille(driver)
    before = await current_game(driver)
    assert before.turn_deadline is not None
    said = await driver.slash("settings", {"turn_timer": 5})
    assert "got one now" not in replies(said), replies(said)
    assert (await current_game(driver)).turn_deadline == before.turn_deadline


async def test_a_timer_turned_on_is_answered_while_a_channel_is_busy(
    driver: InteractionDriver,
) -> None:
    """/settings gives the games waiting with no timer one, each under its channel's lock,
    which a game's computers hold while they think (seconds, for a table of experts). Found by
    a review: the answer came only once every such lock was free, past Discord's three
    seconds, so the settings, stored, read as failed. The admin is answered (privately) first,
    then told how many games got a timer."""
    bot = running_bot(driver)
    await stacked_mille(driver)
    await driver.slash("move", {"action": "play go"})

    def answers() -> int:
        return sum(r.path.endswith("/callback") for r in driver.backend.requests)

    before = answers()
    async with bot.tables.lock(GAMES_CHANNEL_ID):
        asked = asyncio.ensure_future(driver.slash("settings", {"turn_timer": 5}))
        for _ in range(200):
            await asyncio.sleep(0.01)
            if answers() > before:
                break
        assert answers() > before, "answered while the channel is still busy"
        assert not asked.done()
    said = await asked
    assert said.ephemeral and "1 game waiting with no timer got one now" in replies(said)
    assert (await current_game(driver)).turn_deadline is not None
