"""A hostile review of multi-seat games where out-of-turn decisions, timers and leaving meet.

Dragon Mille Bornes with three cars (members and a computer), Ticket to Ride with four seats and
1000 Mile Race's two-seat windows, driven through the fake Discord with raw interaction payloads
(real buttons, and forged or old custom ids). What every test expects: a refusal is a readable
private sentence and changes nothing, nobody is left due to act forever, no hidden card shows
publicly, and the game ends with the right result. A test that holds a fix says, in its
docstring, what the review found before it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.client import JunctionBot
from bot.games.bundle import PolicyFactory
from bot.store.base import GuildSettings, SeatRecord, StoredGame
from cogs.moving import ACKNOWLEDGE_AFTER
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    component_id,
    held_thinking,
    is_answered,
    labels,
    public_messages,
    public_table,
    replies,
    restarted,
    select_of,
    sweep_after,
)
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    GAMES_CHANNEL_ID,
    GUILD_ID,
    CapturedResponse,
    InteractionResult,
)
from tests.discord.payloads import InteractionDriver

# Three cars. Mille Bornes hands of six: Alice a Speed Limit, Bob the Right of Way (his coup
# fourré against it), Carol 50s. Car Wars hands of five: Alice a Machine Gun (Front), Bob an
# Armor for the front, Carol Armor for the left. Nobody holds a Go: nothing drives.
MB = [
    *["speed-limit", "gasoline", "gasoline", "gasoline", "gasoline", "gasoline"],
    *["right-of-way", "75", "75", "75", "75", "75"],
    *["50"] * 6,
]
CW = [
    *["mg-front", "swerve", "swerve", "swerve", "swerve"],
    *["armor-front", "swerve", "swerve", "swerve", "swerve"],
    *["swerve", "swerve", "armor-left", "armor-left", "armor-left"],
]
# The same, Alice holding a Stampede instead of the Machine Gun.
STAMPEDE_CW = ["stampede", *CW[1:]]
THREE_MEMBERS = [
    SeatRecord(0, "Alice", user_id=ALICE_ID),
    SeatRecord(1, "Bob", user_id=BOB_ID),
    SeatRecord(2, "Carol", user_id=CAROL_ID),
]
# Seat 1 a computer (it holds the Armor); Carol watches.
WITH_A_COMPUTER = [
    SeatRecord(0, "Alice", user_id=ALICE_ID),
    SeatRecord(1, "Computer", policy="normal"),
    SeatRecord(2, "Bob", user_id=BOB_ID),
]
# Three computers' hands beside those, for six cars.
SIX_CARS_MB = [*["100"] * 12, *["25"] * 6]
SIX_CARS_CW = [*["armor-right"] * 7, *["armor-back"] * 7, "tire-shot"]


async def six_cars_stampede(driver: InteractionDriver) -> CapturedResponse:
    """Six cars (Alice, Bob, Carol and three computers): Alice plays her Stampede, which asks
    every other car for a side at once. The table it posts."""
    seats = [*THREE_MEMBERS, *(SeatRecord(s, f"Computer {s}", policy="normal") for s in (3, 4, 5))]
    await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="dragon",
        seats=seats,
        deck=[*MB, *SIX_CARS_MB, *STAMPEDE_CW, *SIX_CARS_CW],
    )
    return public_table(await driver.slash("move", {"action": "stampede"}))


# Carol not seated: a spectator.
CAROL_WATCHES = [*THREE_MEMBERS[:2], SeatRecord(2, "Computer", policy="normal")]

# 1000 Mile Race (as in test_race_cogs): Alice holds a Flat Tire, Bob a Coup Fourré.
RACE_DECK = [
    *["100", "50", "25", "flat-tire", "spare-tire", "extra-tank", "pit-crew"],
    *["75", "50", "200", "green-light", "repairs"],
    "/",
    *["25", "75", "coup-fourre", "roadblock", "jammer", "gasoline", "repairs"],
]

Thinker = Callable[[PolicyFactory, Any, str], Awaitable[str]]


async def _dragon(
    bot: JunctionBot, seats: list[SeatRecord] = THREE_MEMBERS, cw: list[str] = CW
) -> StoredGame:
    update = await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="dragon",
        seats=seats,
        deck=[*MB, *cw],
    )
    return update.game


async def _stored(bot: JunctionBot) -> StoredGame:
    return await bot.tables.current(GAMES_CHANNEL_ID)


async def _bobs_window(
    driver: InteractionDriver, action: str = "mg-front @1"
) -> tuple[CapturedResponse, InteractionResult]:
    """Alice's ``action`` opens Bob's window; the public table, and Bob's hand opened from it."""
    bot = running_bot(driver)
    game = await _stored(bot)
    window = public_table(await driver.slash("move", {"action": action}))
    assert f"<@{BOB_ID}>, you may react" in (window.content or ""), window.content
    bobs = await driver.click(window.message_id, f"jn:h:{game.id}", user_id=BOB_ID)
    return public_table(await driver.slash("table", {}, user_id=CAROL_ID)), bobs


async def race_window(
    driver: InteractionDriver, settings: GuildSettings
) -> tuple[CapturedResponse, InteractionResult]:
    """A 1000 Mile Race of Alice and Bob on ``RACE_DECK`` under ``settings``: Alice's Flat Tire
    opens Bob's window. Its public table, and Bob's hand opened from it."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(settings)
    update = await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="race",
        seats=THREE_MEMBERS[:2],
        deck=RACE_DECK,
    )
    window = public_table(await driver.slash("move", {"action": "play flat-tire"}))
    return window, await driver.click(window.message_id, f"jn:h:{update.game.id}", user_id=BOB_ID)


# --- leaving while a window is open -------------------------------------------------------


async def test_the_victim_who_resigns_in_the_window_lets_the_game_go_on(
    driver: InteractionDriver,
) -> None:
    """Bob, asked to react to Alice's machine gun, resigns: the window closes with him, Alice's
    turn goes on, and his old Armor button (his own, a spectator's forged press) changes
    nothing."""
    bot = running_bot(driver)
    await _dragon(bot)
    _, bobs = await _bobs_window(driver)
    left = await driver.slash("resign", {}, user_id=BOB_ID)
    assert "Bob left the game" in replies(left) and f"<@{ALICE_ID}>, your turn" in replies(left)
    before = await _stored(bot)
    assert bot.tables.position(before).acting == [0]
    armor = component_id(bobs, "Armor")
    old = await driver.click(bobs.message, armor, user_id=BOB_ID)
    # He has left: that, not "an earlier turn", is why it holds no more.
    assert old.ephemeral and "You have left this game" in replies(old), replies(old)
    mine = await driver.slash("mygames", {}, user_id=BOB_ID)
    assert mine.ephemeral and "not playing any game" in replies(mine), replies(mine)
    assert await _stored(bot) == before


async def test_the_attacker_who_resigns_in_the_window_hands_on_the_turn(
    driver: InteractionDriver,
) -> None:
    """Alice resigns while Bob's window on her shot is open: the shot is void (no hits) and the
    turn passes to Bob, whose old "Armor on the front" is refused in a sentence."""
    bot = running_bot(driver)
    await _dragon(bot)
    _, bobs = await _bobs_window(driver)
    left = await driver.slash("resign", {}, user_id=ALICE_ID)
    assert f"<@{BOB_ID}>, your turn" in replies(left), replies(left)
    before = await _stored(bot)
    here = bot.tables.position(before)
    assert here.acting == [1] and here.state.cars[1].hits == [0, 0, 0, 0]
    old = await driver.click(bobs.message, component_id(bobs, "Armor"), user_id=BOB_ID)
    said = replies(old)
    assert old.ephemeral and said and "went wrong" not in said, said
    assert await _stored(bot) == before


async def test_a_coup_fourre_from_a_closed_window_is_not_played_as_something_else(
    driver: InteractionDriver,
) -> None:
    """Alice plays a Speed Limit on Bob, who holds the Right of Way: his hand shows "Coup fourré!
    Right of Way". Alice resigns before he answers; the window closes and the turn passes to Bob.
    His old coup-fourré button must be refused as from an earlier turn: the decision it offered is
    gone. Found by this review: a hand's buttons stay good while the member "must still decide"
    (kept for simultaneous choices), so the button was played on Bob's own turn as an ordinary
    safety ("Bob plays the safety Right of Way…"), a move he never pressed."""
    bot = running_bot(driver)
    await _dragon(bot)
    _, bobs = await _bobs_window(driver, "play speed-limit @1")
    coup = component_id(bobs, "Coup fourré! Right of Way")
    await driver.slash("resign", {}, user_id=ALICE_ID)
    before = await _stored(bot)
    assert bot.tables.position(before).acting == [1]
    pressed = await driver.click(bobs.message, coup, user_id=BOB_ID)
    assert pressed.ephemeral and "before the latest move" in replies(pressed), replies(pressed)
    assert await _stored(bot) == before


async def test_a_side_picker_closed_by_the_attacker_leaving(driver: InteractionDriver) -> None:
    """Alice's Stampede asks Bob and Carol for a side; Alice resigns with both pickers open. The
    stampede is void, Carol's old side button is refused, and when Bob then lets his turn run
    out (on_timeout forfeit), Carol is the last driver in and wins."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "forfeit", 15))
    game = await _dragon(bot, cw=STAMPEDE_CW)
    window = public_table(await driver.slash("move", {"action": "stampede"}))
    carols = await driver.click(window.message_id, f"jn:h:{game.id}", user_id=CAROL_ID)
    await driver.slash("resign", {}, user_id=ALICE_ID)
    before = await _stored(bot)
    old = await driver.click(
        carols.message, component_id(carols, "Take it on the left"), user_id=CAROL_ID
    )
    assert old.ephemeral and "before the latest move" in replies(old), replies(old)
    assert await _stored(bot) == before
    await sweep_after(driver, 61)
    assert await bot.store.active_game(GAMES_CHANNEL_ID) is None
    (result,) = await bot.store.results(game_key="dragon")
    assert result.record.ranks[2] == 0 and result.record.counted, result.record


@pytest.mark.parametrize("leaver", [ALICE_ID, BOB_ID], ids=["attacker", "victim"])
async def test_resigning_in_a_race_window_loses(driver: InteractionDriver, leaver: int) -> None:
    """1000 Mile Race: Alice or Bob resigns while Bob may answer her Flat Tire: the other one
    wins, and Bob's old Coup Fourré button says the game has ended."""
    _, bobs = await race_window(driver, GuildSettings(GUILD_ID, 60, "forfeit", 20))
    left = await driver.slash("resign", {}, user_id=leaver)
    winner = "Bob" if leaver == ALICE_ID else "Alice"
    assert f"**{winner}** won" in replies(left), replies(left)
    (result,) = await running_bot(driver).store.results(game_key="race")
    assert result.record.ranks == ((1, 0) if leaver == ALICE_ID else (0, 1))
    old = await driver.click(bobs.message, component_id(bobs, "cancel"), user_id=BOB_ID)
    assert old.ephemeral and "has ended" in replies(old), replies(old)


async def test_a_resign_is_answered_while_a_computer_thinks(driver: InteractionDriver) -> None:
    """Alice shoots the computer, which thinks about its armor (a strong computer may take
    seconds); Bob resigns meanwhile. Discord gives the bot three seconds to answer, so Bob's
    /resign must be answered at once, and his leaving applied once the computer has moved. Found
    by this review: /resign waited for the channel's lock before answering, so a long think left
    Bob with "The application did not respond" although he was taken out of the game."""
    bot = running_bot(driver)
    await _dragon(bot, WITH_A_COMPUTER)
    thinking, release = held_thinking(bot.tables)
    shot = asyncio.ensure_future(driver.slash("move", {"action": "mg-front @1"}))
    await asyncio.wait_for(thinking.wait(), 10)
    payload = driver.factory.slash("resign", {}, user_id=BOB_ID)
    resign = asyncio.ensure_future(driver.dispatch(payload))
    await asyncio.sleep(0.2)
    answered_in_time = is_answered(driver, payload)
    release.set()
    await shot
    left = await resign
    assert answered_in_time, "Bob's /resign waited unanswered behind the computer's thinking"
    assert "Bob left the game" in replies(left), replies(left)
    assert [s.seat for s in await bot.tables.hindsight.members_playing(await _stored(bot))] == [0]


async def test_a_typed_move_is_answered_while_a_computer_thinks(
    driver: InteractionDriver,
) -> None:
    """Alice shoots the computer, which thinks about its armor; meanwhile Bob types a move.
    It must be answered before Discord's three seconds run out (after ``ACKNOWLEDGE_AFTER``,
    with a public "thinking…"), and when it is then refused the placeholder goes and the
    refusal is Bob's alone. Found by this review: a typed /move waited for the channel
    unanswered, so a long think left Bob with "The application did not respond"."""
    bot = running_bot(driver)
    await _dragon(bot, WITH_A_COMPUTER)
    thinking, release = held_thinking(bot.tables)
    shot = asyncio.ensure_future(driver.slash("move", {"action": "mg-front @1"}))
    await asyncio.wait_for(thinking.wait(), 10)
    payload = driver.factory.slash("move", {"action": "cw-discard all"}, user_id=BOB_ID)
    typed = asyncio.ensure_future(driver.dispatch(payload))
    await asyncio.sleep(ACKNOWLEDGE_AFTER + 0.3)
    answered_in_time = is_answered(driver, payload)
    release.set()
    await shot
    refused = await typed
    assert answered_in_time, "Bob's /move waited unanswered behind the computer's thinking"
    said = [r for r in refused.responses if r.content]
    assert said and all(r.ephemeral for r in said), replies(refused)
    assert "not your turn" in replies(refused).lower(), replies(refused)
    assert any(r.kind == "delete" for r in refused.responses), "the public thinking… was kept"
    public = public_messages(driver)
    assert not any("not your turn" in str(m.get("content") or "").lower() for m in public)


async def test_a_press_is_answered_while_the_computer_plays_a_late_turn(
    driver: InteractionDriver,
) -> None:
    """Alice's turn runs out (on_timeout computer) just as she presses her machine gun's target
    button: the computer, playing her turn, thinks. Her press must be answered at once (then
    refused, changing nothing), not left waiting behind the thinking past Discord's three
    seconds (it is, after ``ACKNOWLEDGE_AFTER``). Found by this review: a button's press waited
    for the channel's lock before answering."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "computer"))
    game = await _dragon(bot, WITH_A_COMPUTER)
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{game.id}")
    aim = await driver.click(hand.message, component_id(hand, "Machine Gun (Front)"))
    target = component_id(aim, "Computer")
    thinking, release = held_thinking(bot.tables)
    timer = asyncio.ensure_future(sweep_after(driver, 61))
    await asyncio.wait_for(thinking.wait(), 10)
    assert aim.message is not None
    payload = driver.factory.component(aim.message, target)
    press = asyncio.ensure_future(driver.dispatch(payload))
    await asyncio.sleep(ACKNOWLEDGE_AFTER + 0.3)
    answered_in_time = is_answered(driver, payload)
    release.set()
    await timer
    pressed = await press
    assert answered_in_time, "the press waited unanswered behind the computer"
    said = replies(pressed)
    assert "Your time ran out" in said or "same moment" in said, said
    assert pressed.followups and all(f.ephemeral for f in pressed.followups), "said privately"
    assert "ran out of time" in " ".join(m["content"] for m in driver.messages.values())


async def test_a_resign_sent_twice_at_once_is_refused_privately(
    driver: InteractionDriver,
) -> None:
    """Bob's /resign arrives twice at the same moment (a double send): he leaves once, and the
    second is told so privately. Found by this review, after /resign was made to answer before
    waiting for the channel: the second was answered publicly ("thinking…") before the refusal,
    so "You have already left this game." was posted for the whole channel."""
    bot = running_bot(driver)
    await _dragon(bot)
    presses = await asyncio.gather(
        driver.slash("resign", {}, user_id=BOB_ID), driver.slash("resign", {}, user_id=BOB_ID)
    )
    said = sorted((replies(p) for p in presses), key=lambda text: "already left" in text)
    assert "Bob left the game" in said[0] and "already left" in said[1], said
    (refused,) = [p for p in presses if "already left" in replies(p)]
    assert all(r.ephemeral for r in refused.responses if r.content), "refused privately"
    moves = await bot.tables.store.moves((await _stored(bot)).id)
    assert [m.seat for m in moves] == [1], "Bob left once"


# --- presses that are not the member's, or too late ---------------------------------------


async def test_a_reaction_pressed_by_others_or_too_late_changes_nothing(
    driver: InteractionDriver,
) -> None:
    """Bob's Armor button, forged by a spectator (Carol, not seated) and pressed by Bob after
    the window ran out, twice at once: each is a readable private refusal."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, None, "computer", 15))
    await _dragon(bot, CAROL_WATCHES)
    table, bobs = await _bobs_window(driver)
    armor = component_id(bobs, "Armor")
    before = await _stored(bot)
    spectator = await driver.forge(table.message_id, armor, user_id=CAROL_ID)
    assert spectator.ephemeral and "not playing in this game" in replies(spectator)
    assert await _stored(bot) == before
    await sweep_after(driver, 16)
    after = await _stored(bot)
    assert after.version == before.version + 1, "the window closed with no reaction"
    presses = await asyncio.gather(
        driver.click(bobs.message, armor, user_id=BOB_ID),
        driver.click(bobs.message, armor, user_id=BOB_ID),
    )
    for late in presses:
        assert late.ephemeral, replies(late)
        assert replies(late).startswith(
            "Your time to react ran out, so the bot answered for you: no reaction."
        ), replies(late)
    assert await _stored(bot) == after


async def test_a_side_pressed_after_the_window_ran_out_names_the_side_taken(
    driver: InteractionDriver,
) -> None:
    """Alice's Stampede asks Carol for a side; her window runs out and the bot picks the side
    for her. Her late "Take it on the left" says which side the bot took, not "an earlier
    turn"."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, None, "computer", 15))
    game = await _dragon(bot, cw=STAMPEDE_CW)
    window = public_table(await driver.slash("move", {"action": "stampede"}))
    carols = await driver.click(window.message_id, f"jn:h:{game.id}", user_id=CAROL_ID)
    await sweep_after(driver, 16)
    after = await _stored(bot)
    (taken,) = [m for m in await bot.store.moves(game.id) if m.seat == 2]
    assert taken.interaction_id is None, "the bot closed Carol's window"
    old = await driver.click(
        carols.message, component_id(carols, "Take it on the left"), user_id=CAROL_ID
    )
    side = taken.action.split()[-1]
    assert old.ephemeral and replies(old).startswith(
        f"Your time to react ran out, so the bot answered for you: take it on the {side}."
    ), replies(old)
    assert await _stored(bot) == after


async def test_a_press_and_the_window_closing_at_the_same_moment(
    driver: InteractionDriver,
) -> None:
    """Bob presses Armor just as his window runs out: one of them happens, once."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, None, "computer", 15))
    await _dragon(bot)
    _, bobs = await _bobs_window(driver)
    before = await _stored(bot)
    pressed, _ = await asyncio.gather(
        driver.click(bobs.message, component_id(bobs, "Armor"), user_id=BOB_ID),
        sweep_after(driver, 16),
    )
    after = await _stored(bot)
    assert after.version == before.version + 1
    state = bot.tables.position(after).state
    armored = "armor-front" in state.cw_discard
    assert armored == (state.cars[1].hits == [0, 0, 0, 0])
    if not armored:
        assert "Your time to react ran out" in replies(pressed), replies(pressed)


async def test_a_hand_button_of_someone_else_says_whose_move_it_is(
    driver: InteractionDriver,
) -> None:
    """Carol presses Bob's Armor button (a forged id: it is on Bob's private hand), and so does
    Bob after he resigned. Each is told in words why not. Found by this review: both were told
    "That button no longer matches the table; use the newest one", though the table had not
    moved and no newer button would let them answer Bob's window."""
    bot = running_bot(driver)
    await _dragon(bot)
    table, bobs = await _bobs_window(driver)
    armor = component_id(bobs, "Armor")
    before = await _stored(bot)
    carol = await driver.forge(table.message_id, armor, user_id=CAROL_ID)
    assert carol.ephemeral and "waiting for Bob" in replies(carol), replies(carol)
    assert await _stored(bot) == before
    # Alice's turn again once Bob has left; Bob's old button now is not his at all.
    await driver.slash("resign", {}, user_id=BOB_ID)
    table = public_table(await driver.slash("table", {}, user_id=CAROL_ID))
    before = await _stored(bot)
    again = await driver.forge(
        table.message_id,
        ":".join([*armor.split(":")[:3], str(before.version), *armor.split(":")[4:]]),
        user_id=BOB_ID,
    )
    assert again.ephemeral and "left this game" in replies(again), replies(again)
    assert await _stored(bot) == before


async def test_a_reaction_button_after_a_restart(driver: InteractionDriver, tmp_path: Path) -> None:
    """The bot restarts while Bob's window is open: his Armor button still works for him, and
    for nobody else."""
    bot = running_bot(driver)
    await _dragon(bot)
    _, bobs = await _bobs_window(driver)
    armor = component_id(bobs, "Armor")
    async with restarted(driver, tmp_path) as again:
        other = await again.click(bobs.message, armor, user_id=CAROL_ID)
        assert other.ephemeral and "went wrong" not in replies(other), replies(other)
        pressed = await again.click(bobs.message, armor, user_id=BOB_ID)
        assert "Bob plays Armor on the front" in replies(pressed), replies(pressed)
        state = running_bot(again).tables.position(await _stored(running_bot(again))).state
        assert state.cars[1].hits == [0, 0, 0, 0]


# --- aborting while a window is open ------------------------------------------------------


async def test_an_abort_asked_in_a_window_lapses_when_the_window_closes(
    driver: InteractionDriver,
) -> None:
    """Bob asks to abort while his window is open; the window times out (a move), so Carol's
    agreement afterwards is refused in words and the game goes on."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, None, "computer", 15))
    await _dragon(bot)
    await _bobs_window(driver)
    asked = await driver.slash("abort", {}, user_id=BOB_ID)
    await sweep_after(driver, 16)
    late = await driver.click(asked, component_id(asked, "Agree to abort"), user_id=CAROL_ID)
    assert late.ephemeral and "Nobody is asking" in replies(late), replies(late)
    assert await bot.store.active_game(GAMES_CHANNEL_ID) is not None


async def test_the_last_agreement_pressed_twice_at_once(driver: InteractionDriver) -> None:
    """Bob asks to abort in his window, Carol agrees, Alice's last agreement arrives twice at
    once: the game is aborted once, and the second press is told it has ended."""
    bot = running_bot(driver)
    await _dragon(bot)
    await _bobs_window(driver)
    asked = await driver.slash("abort", {}, user_id=BOB_ID)
    agree = component_id(asked, "Agree to abort")
    await driver.click(asked, agree, user_id=CAROL_ID)
    presses = await asyncio.gather(
        driver.click(asked, agree, user_id=ALICE_ID),
        driver.click(asked, agree, user_id=ALICE_ID),
    )
    said = sorted(replies(p) for p in presses)
    assert "Everyone agreed" in said[1] and "already ended" in said[0], said
    assert await bot.store.active_game(GAMES_CHANNEL_ID) is None
    assert not await bot.store.results(game_key="dragon")


# --- what members see during a window -----------------------------------------------------


async def test_mygames_and_table_during_a_window(driver: InteractionDriver) -> None:
    """While Bob's window is open, /mygames tells Bob it is his move and Alice that it is not,
    and /table names who may react without naming the card Bob holds."""
    bot = running_bot(driver)
    await _dragon(bot)
    posted, _ = await _bobs_window(driver)
    assert f"<@{BOB_ID}>, you may react" in (posted.content or "")
    assert "Armor" not in (posted.content or "") and "Armor" not in " ".join(labels(posted))
    bobs = await driver.slash("mygames", {}, user_id=BOB_ID)
    alices = await driver.slash("mygames", {}, user_id=ALICE_ID)
    assert "your move" in replies(bobs), replies(bobs)
    assert "your move" not in replies(alices), replies(alices)


# --- after a member resigned -------------------------------------------------------------


async def test_a_hint_for_the_last_member_among_computers(driver: InteractionDriver) -> None:
    """Alice and Bob play Dragon with a computer. While Bob plays, /hint is refused (it would
    help Alice against him); once he has resigned, Alice plays on alone against the computer
    and may have one, as in any game against the computer. Bob, who left, gets none. Found by
    this review: Alice was told "Hints are only for games against the computer or played
    alone", which is what her game had become (Bob's place is settled when he leaves, and a game
    with a computer moves no rating)."""
    bot = running_bot(driver)
    await _dragon(bot, CAROL_WATCHES)
    refused = await driver.slash("hint", {})
    assert refused.ephemeral and "only for games against the computer" in replies(refused)
    await driver.slash("resign", {}, user_id=BOB_ID)
    hinted = await driver.slash("hint", {})
    assert hinted.ephemeral and "💡" in replies(hinted), replies(hinted)
    bobs = await driver.slash("hint", {}, user_id=BOB_ID)
    assert bobs.ephemeral and "💡" not in replies(bobs), replies(bobs)


async def test_a_rematch_after_a_resignation_invites_everyone_again(
    driver: InteractionDriver,
) -> None:
    """Bob resigns, then Alice does: the computer wins. Either may ask for a rematch, which
    invites the other member (Bob too: nobody is dealt into a game they did not accept), with
    the computer's seat kept; a spectator may not."""
    bot = running_bot(driver)
    game = await _dragon(bot, CAROL_WATCHES)
    await driver.slash("resign", {}, user_id=BOB_ID)
    ended = public_table(await driver.slash("resign", {}))
    assert "Computer" in (ended.content or "") and "won" in (ended.content or ""), ended.content
    spectator = await driver.click(ended.message_id, f"jn:r:{game.id}", user_id=CAROL_ID)
    assert spectator.ephemeral and "Only the players" in replies(spectator)
    asked = await driver.click(ended.message_id, f"jn:r:{game.id}", user_id=BOB_ID)
    invitation = asked.responses[0]
    assert not invitation.ephemeral and f"<@{ALICE_ID}>" in (invitation.content or "")
    assert "computer" in (invitation.content or "").lower(), invitation.content
    assert await bot.store.active_game(GAMES_CHANNEL_ID) is None


# --- Ticket to Ride with four seats -------------------------------------------------------


async def test_ttr_four_seats_a_resign_and_a_forfeit_at_the_opening(
    driver: InteractionDriver,
) -> None:
    """Four seats (three members and a computer) choose opening tickets at once. Carol
    resigns, Bob keeps, Alice lets the turn timer run out (forfeit): Bob plays on against the
    computer, and Alice's old keep menu is refused."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "forfeit"))
    seats = [*THREE_MEMBERS, SeatRecord(3, "Computer", policy="normal")]
    update = await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="ttr",
        seats=seats,
        seed=4,
    )
    table = public_table(await driver.slash("table", {}))
    bobs = await driver.click(table.message_id, f"jn:h:{update.game.id}", user_id=BOB_ID)
    alices = await driver.click(table.message_id, f"jn:h:{update.game.id}", user_id=ALICE_ID)
    await driver.slash("resign", {}, user_id=CAROL_ID)
    menu = select_of(bobs)
    await driver.select(
        bobs.message, menu["custom_id"], [menu["options"][0]["value"]], user_id=BOB_ID
    )
    await sweep_after(driver, 61)
    stored = await _stored(bot)
    assert [s.seat for s in await bot.tables.hindsight.members_playing(stored)] == [1]
    assert bot.tables.position(stored).acting, "someone is to act"
    menu = select_of(alices)
    late = await driver.select(
        alices.message, menu["custom_id"], [menu["options"][0]["value"]], user_id=ALICE_ID
    )
    assert late.ephemeral and replies(late), replies(late)
    assert await _stored(bot) == stored


# --- timers -------------------------------------------------------------------------------


async def test_a_side_picker_runs_out_with_on_timeout_forfeit(driver: InteractionDriver) -> None:
    """Six cars (three members, three computers), on_timeout forfeit: Alice's Stampede asks every
    other car for a side. The computers answer at once; Bob and Carol let the window run out.
    A window that runs out takes the least damaged side for them; nobody forfeits a game for
    not answering a window, and Alice's turn goes on."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "forfeit", 15))
    window = await six_cars_stampede(driver)
    assert f"<@{BOB_ID}> <@{CAROL_ID}>, you may react" in (window.content or ""), window.content
    await sweep_after(driver, 16)
    stored = await _stored(bot)
    here = bot.tables.position(stored)
    assert here.acting == [0] and len(await bot.tables.hindsight.members_playing(stored)) == 3
    assert all(sum(car.hits) == 2 for car in here.state.cars[1:3]), "the sides were taken"
    timed_out = " ".join(m["content"] for m in driver.messages.values())
    assert "did not react in time" in timed_out and "forfeits" not in timed_out


@pytest.mark.parametrize("answer", ["timeout", "armor"])
async def test_a_timed_out_turn_resumed_after_a_window_gets_no_fresh_timer(
    driver: InteractionDriver, answer: str
) -> None:
    """With a 1-minute turn timer (on_timeout computer), Alice's turn runs out and the computer
    plays it for her: it fires the machine gun at Bob, whose window opens. When the window
    closes (it runs out, or Bob plays his armor), the rest of Alice's turn (her Mille Bornes
    action) is due at once and played at the next sweep, as it would have been without the
    window. Found by this review: the position after the window was an ordinary turn of
    Alice's, so she got a fresh full timer and a reminder for the rest of a turn that had
    already run out (the lateness was kept nowhere the next position could read it)."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "computer", 15))
    game = await _dragon(bot)
    original: Thinker = bot.tables.thinker

    async def shoot_first(factory: PolicyFactory, view: Any, seed: str) -> str:
        if "mg-front @1" in view.legal:
            return "mg-front @1"
        return await original(factory, view, seed)

    bot.tables.thinker = shoot_first
    await sweep_after(driver, 61)
    assert bot.tables.position(await _stored(bot)).acting == [1], "Bob's window is open"
    if answer == "timeout":
        await sweep_after(driver, 16)
    else:
        table = public_table(await driver.slash("table", {}, user_id=CAROL_ID))
        bobs = await driver.click(table.message_id, f"jn:h:{game.id}", user_id=BOB_ID)
        await driver.click(bobs.message, component_id(bobs, "Armor"), user_id=BOB_ID)
    resumed = await _stored(bot)
    assert bot.tables.position(resumed).acting == [0], "Alice's turn goes on after the window"
    assert resumed.remind_at is None and resumed.turn_deadline is not None
    assert resumed.turn_deadline <= bot.tables.clock(), "her turn is still due, not timed anew"
    await sweep_after(driver, 1)
    assert 0 not in bot.tables.position(await _stored(bot)).acting, "the rest was played"


async def test_a_new_turn_after_a_late_one_gets_its_full_timer(driver: InteractionDriver) -> None:
    """The other way round: Alice's late turn ends with a shot at Bob; when his window closes it
    is Bob's (or Carol's) own turn, with its full timer and reminder: only a late turn's rest is
    due at once."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "computer", 15))
    await _dragon(bot)
    original: Thinker = bot.tables.thinker

    async def discard_then_shoot(factory: PolicyFactory, view: Any, seed: str) -> str:
        for move in ("discard gasoline", "mg-front @1"):
            if move in view.legal:
                return move
        return await original(factory, view, seed)

    bot.tables.thinker = discard_then_shoot
    await sweep_after(driver, 61)
    assert bot.tables.position(await _stored(bot)).acting == [1], "Bob's window is open"
    await sweep_after(driver, 16)
    after = await _stored(bot)
    assert 0 not in bot.tables.position(after).acting
    assert after.remind_at is not None and after.turn_deadline is not None
    assert after.turn_deadline - bot.tables.clock() == pytest.approx(60, abs=1)
