"""A hostile review of turn timers and reaction windows met by several members at once.

Driven through the fake Discord: the seam's clock is moved on and the Timers cog's sweep run by
hand (``sweep_after``). What every test expects: a member's deadline is theirs, not moved by
what the others do; a reminder comes once per turn; what the channel reads when time runs out
names the right members and shows no hidden card.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.games.bundle import PolicyFactory
from bot.store.base import GuildSettings, SeatRecord, StoredGame
from bot.tables import Tables
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    component_id,
    play_first_offered,
    public_table,
    replies,
    restarted,
    stacked_mille,
    sweep_after,
    sweep_at,
)
from tests.cogs.test_windows_review import THREE_MEMBERS, six_cars_stampede
from tests.discord.backend import ALICE_ID, BOB_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver

Thinker = Callable[[PolicyFactory, Any, str], Awaitable[str]]


async def test_a_ticket_kept_by_another_does_not_move_a_members_deadline(
    driver: InteractionDriver,
) -> None:
    """Ticket to Ride with a 1-minute turn timer: all three keep their opening tickets at once.
    Alice keeps hers at 50 s, Bob at 55 s; Carol has not. Her minute ran from the deal, so her
    turn runs out at 60 s, and her reminder (at 30 s) is not sent again."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "computer"))
    start = bot.tables.clock()
    await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="ttr", seats=THREE_MEMBERS, seed=1
    )
    await sweep_after(driver, 31)  # the reminder for all three
    await sweep_after(driver, 19)
    await play_first_offered(driver, ALICE_ID)
    await sweep_after(driver, 5)
    await play_first_offered(driver, BOB_ID)
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert bot.tables.position(stored).acting == [2], "only Carol still chooses"
    assert stored.turn_deadline == pytest.approx(start + 60, abs=1)
    assert stored.remind_at is None, "Carol was reminded already"


async def test_a_restart_keeps_the_deadline_of_a_choice_some_have_made(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Ticket to Ride, a 1-minute turn timer: Alice keeps her tickets at 50 s, then the bot
    restarts at once. Bob's and Carol's minute still ends at 60 s; the first sweep after it
    plays their choice once, and the channel is told once."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "computer"))
    update = await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="ttr", seats=THREE_MEMBERS, seed=1
    )
    deadline = update.game.turn_deadline
    await sweep_after(driver, 50)
    await play_first_offered(driver, ALICE_ID)
    stopped = bot.tables.clock()
    async with restarted(driver, tmp_path) as again:
        back = running_bot(again)
        assert (await back.tables.current(GAMES_CHANNEL_ID)).turn_deadline == deadline
        assert deadline is not None
        await sweep_at(again, stopped)  # back at once: no time to give back
        for _ in range(2):
            await sweep_at(again, deadline + 1)
        moves = await back.store.moves(update.game.id)
        assert [m.seat for m in moves] == [0, 1, 2], "each kept once"
        said = [m["content"] for m in again.messages.values()]
        assert sum("ran out of time" in text for text in said) == 1, said
        assert "Bob and Carol ran out of time" in " ".join(said)


async def test_a_side_picked_by_another_does_not_lengthen_a_members_window(
    driver: InteractionDriver,
) -> None:
    """Dragon, a 15 s reaction window: Alice's Stampede asks Bob and Carol for a side at once.
    Bob picks his at 10 s; Carol's window still closes 15 s after it opened, not 15 s after
    Bob's choice."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, None, "computer", 15))
    await six_cars_stampede(driver)
    opened = await bot.tables.current(GAMES_CHANNEL_ID)
    assert bot.tables.position(opened).acting == [1, 2], "Bob and Carol pick their sides"
    await sweep_after(driver, 10)
    bobs = bot.tables.hand(opened, BOB_ID)[1][0].notation
    await driver.slash("move", {"action": bobs}, user_id=BOB_ID)
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert bot.tables.position(stored).acting == [2], "only Carol still picks"
    assert stored.turn_deadline == opened.turn_deadline
    await sweep_after(driver, 6)
    after = bot.tables.position(await bot.tables.current(GAMES_CHANNEL_ID))
    assert after.acting == [0], "Carol's window closed with the least damaged side"


async def test_a_late_turn_that_ends_a_hand_leaves_the_next_hand_to_its_member(
    driver: InteractionDriver,
) -> None:
    """Mille Bornes against the computer, a 1-minute turn timer: Alice reaches 700 and lets the
    extension question run out. The computer plays that turn for her (it declines), which ends
    hand 1; hand 2 is hers to start (who starts switches each hand). It is a new turn: she
    plays it herself, with a full minute, and the computer does not play it for her."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "computer"))
    await alice_at_700_declined_for_her(driver)
    await sweep_after(driver, 61)
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    moves = await bot.store.moves(stored.id)
    assert moves[-1].action == "extend no", [m.action for m in moves[-3:]]
    assert bot.tables.position(stored).acting == [1], "hand 2 waits for Alice"
    assert stored.turn_deadline == pytest.approx(bot.tables.clock() + 60, abs=1)


@pytest.mark.parametrize(
    ("option", "allowed"),
    [
        ({"turn_timer": -5}, "0 to 10 080"),
        ({"turn_timer": 10081}, "0 to 10 080"),
        ({"reaction_window": 0}, "5 to 3 600"),
        ({"reaction_window": 3601}, "5 to 3 600"),
    ],
)
async def test_settings_out_of_their_range_are_refused_and_change_nothing(
    driver: InteractionDriver, option: dict[str, int], allowed: str
) -> None:
    """/settings takes a turn timer of 0 to 10 080 minutes and a reaction window of 5 to
    3 600 seconds. A value outside (Discord keeps its own clients inside, a forged request need
    not) is refused with a sentence saying what is allowed, and the settings stay as they were.
    Before, -5 minutes turned the timer off, a 0 s window was taken as not given, and a window
    of an hour and a second answered "Something went wrong on our side"."""
    bot = running_bot(driver)
    before = GuildSettings(GUILD_ID, 600, "forfeit", 30)
    await bot.store.set_guild_settings(before)
    result = await driver.slash("settings", option)
    assert result.ephemeral and allowed in replies(result), replies(result)
    assert await bot.store.guild_settings(GUILD_ID) == before


@pytest.mark.parametrize("options", [{}, {"on_timeout": ""}])
async def test_settings_asked_with_nothing_to_change_are_told_and_nothing_stored(
    driver: InteractionDriver, tmp_path: Path, options: dict[str, str]
) -> None:
    """/settings with no options (or an empty on_timeout, which a request made by hand may
    send) asks to change nothing. Before, it stored a row of the default settings for a server
    that had none (and wrote the server's row again), answering "The times apply from each
    game's next move"; now it answers with the settings as they stand, saying nothing changed,
    and stores nothing."""
    said = await driver.slash("settings", options)
    assert said.ephemeral, replies(said)
    assert replies(said) == (
        "⚙️ Turn timer: **off**; when it runs out, the computer plays the turn. Reaction "
        "window: **45 s**. Nothing changed: give `turn_timer`, `on_timeout` or "
        "`reaction_window` to change them."
    )
    with contextlib.closing(sqlite3.connect(tmp_path / "bot.db")) as stored:
        assert stored.execute("SELECT * FROM guild_settings").fetchall() == []
    await running_bot(driver).store.set_guild_settings(GuildSettings(GUILD_ID, 600, "forfeit", 30))
    said = await driver.slash("settings", options)
    assert replies(said).startswith(
        "⚙️ Turn timer: **10 min per turn**; when it runs out, the "
        "player forfeits. Reaction window: **30 s**. Nothing changed"
    )


async def alice_at_700_declined_for_her(driver: InteractionDriver) -> int:
    """Mille Bornes, a computer against Alice: she drives to 700 herself and is asked about the
    extension; the computer, playing for her when she is late, declines it. The game's id."""
    tables = running_bot(driver).tables
    game = (
        await tables.start(
            channel_id=GAMES_CHANNEL_ID,
            guild_id=GUILD_ID,
            game_key="mille",
            seats=[
                SeatRecord(0, "Computer", policy="normal"),
                SeatRecord(1, "Alice", user_id=ALICE_ID),
            ],
            deck=[*["25"] * 6, "go", "200", "200", "100", "100", "100", *["50", "75"] * 8],
            seed=5,
        )
    ).game
    for move in ["go", "200", "200", "100", "100", "100"]:
        await driver.slash("move", {"action": f"play {move}"})
    asked = await tables.current(GAMES_CHANNEL_ID)
    assert "extend no" in [m.notation for m in tables.hand(asked, ALICE_ID)[1]]
    original: Thinker = tables.thinker

    async def declines(factory: PolicyFactory, view: Any, seed: str) -> str:
        return "extend no" if "extend no" in view.legal else await original(factory, view, seed)

    tables.thinker = declines
    return game.id


async def race_with_a_flat_tire(tables: Tables, seed: int | None = None) -> StoredGame:
    """1000 Mile Race, Alice (Red) against Bob (Blue), dealt as above; the computer playing
    for a late member plays the Flat Tire they hold whenever it can. The game."""
    game = (
        await tables.start(
            channel_id=GAMES_CHANNEL_ID,
            guild_id=GUILD_ID,
            game_key="race",
            seats=THREE_MEMBERS[:2],
            deck=[*RED, *RED_DRAWS, "/", *BLUE],
            seed=seed,
        )
    ).game
    original: Thinker = tables.thinker

    async def hazard(factory: PolicyFactory, view: Any, seed: str) -> str:
        if "play flat-tire" in view.legal:
            return "play flat-tire"
        return await original(factory, view, seed)

    tables.thinker = hazard
    return game


# 1000 Mile Race: Alice (Red) holds a Flat Tire and a Jammer, Bob (Blue) a Coup Fourré.
RED = ["100", "50", "25", "flat-tire", "spare-tire", "jammer", "pit-crew"]
RED_DRAWS = ["75", "50", "200", "green-light", "repairs"]
BLUE = ["25", "75", "coup-fourre", "roadblock", "jammer", "gasoline", "repairs"]


async def test_a_late_members_own_window_let_run_out_gives_no_fresh_timer(
    driver: InteractionDriver,
) -> None:
    """1000 Mile Race, a 1-minute turn timer and a 15 s window: Alice's turn runs out and the
    computer plays her Flat Tire on Bob. Bob answers with a Coup Fourré, which Alice could
    Jammer; she lets that window run out too. Her turn, already late, goes on: its rest is due
    at once, as when Bob's window closes, not timed anew with a reminder."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "computer", 15))
    await race_with_a_flat_tire(bot.tables)
    await sweep_after(driver, 61)
    await driver.slash("move", {"action": "react coup-fourre"}, user_id=BOB_ID)
    jammer = bot.tables.position(await bot.tables.current(GAMES_CHANNEL_ID))
    assert jammer.reacting() == [0], "Alice may Jammer the Coup Fourré"
    await sweep_after(driver, 16)
    resumed = await bot.tables.current(GAMES_CHANNEL_ID)
    assert bot.tables.position(resumed).acting == [0], "Alice's turn goes on"
    assert resumed.remind_at is None and resumed.turn_deadline is not None
    assert resumed.turn_deadline <= bot.tables.clock(), "her turn is still due, not timed anew"


async def test_a_suggestion_typed_after_the_computer_played_the_turn_says_so(
    driver: InteractionDriver,
) -> None:
    """Mille Bornes, a 1-minute turn timer: Alice picks "play go" among /move's suggestions
    (which carry their turn) just after her time ran out and the computer played Go for her.
    She is told her time ran out and the computer played that turn, not only that the choice
    is from an earlier turn; nothing changes."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "computer"))
    game = (await stacked_mille(driver)).game
    await sweep_after(driver, 61)
    before = await bot.tables.current(GAMES_CHANNEL_ID)
    late = await driver.slash("move", {"action": f"play go§{game.version}"})
    assert late.ephemeral, replies(late)
    assert replies(late).startswith("Your time ran out, so the computer played"), replies(late)
    assert await bot.tables.current(GAMES_CHANNEL_ID) == before


async def test_a_button_pressed_again_after_the_members_own_move_is_not_said_played_for_them(
    driver: InteractionDriver,
) -> None:
    """The other way round: Alice plays Go herself, then presses her old hand's Go button
    again: that is her own move (already made), not one the computer played for her."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "computer"))
    game = (await stacked_mille(driver)).game
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{game.id}")
    await driver.click(hand.message, component_id(hand, "Go"))
    pressed = await driver.forge(hand, component_id(hand, "Go"))
    assert replies(pressed).startswith("You have already made that move."), replies(pressed)


@pytest.mark.parametrize(("seated", "every"), [(2, "both"), (3, "all")])
async def test_members_late_together_are_named_in_plain_english(
    driver: InteractionDriver, seated: int, every: str
) -> None:
    """on_timeout forfeit: every member lets the opening tickets run out, so the game ends with
    no result. The channel reads "Alice and Bob both ran out of time" for two ("all" read
    oddly there) and "Alice, Bob and Carol all ran out of time" for three."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "forfeit"))
    await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="ttr",
        seats=THREE_MEMBERS[:seated],
        seed=1,
    )
    await sweep_after(driver, 61)
    said = " ".join(m["content"] for m in driver.messages.values())
    names = "Alice and Bob" if seated == 2 else "Alice, Bob and Carol"
    assert f"⏰ {names} {every} ran out of time: the game ends with no result." in said, said
