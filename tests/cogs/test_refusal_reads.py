"""A move refused as stale reads the game's move log once, for every reason its refusal may give
(the member's move since, whether they left, the reaction window the bot closed for them): it
read it up to three times, or more through a hand's button.

The reads are counted through the store the bot runs on, its ``moves`` wrapped to note each
call; what the member is told is checked too, so the refusal is the same one."""

from __future__ import annotations

from typing import Any

import pytest

from bot.store.base import GuildSettings
from cogs.play import TURN_MARK
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import component_id, public_table, replies, stacked_mille, sweep_after
from tests.cogs.test_windows_review import race_window
from tests.discord.backend import BOB_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver

WINDOW_CLOSED = "Your time to react ran out, so the bot answered for you: no reaction."
TIMED = GuildSettings(GUILD_ID, None, "computer", 15)
"""A 15-second reaction window, which the timer sweep closes with the bot's default."""


def counted_reads(driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on, the id of each game whose move log the bot's store is asked for."""
    store = running_bot(driver).tables.store
    reads: list[int] = []
    original = store.moves

    async def moves(game_id: int) -> Any:
        reads.append(game_id)
        return await original(game_id)

    monkeypatch.setattr(store, "moves", moves)
    return reads


async def test_a_suggestion_sent_after_its_window_ran_out_reads_the_move_log_once(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob sends /move with a reaction suggested in his window, after the bot answered for him:
    the refusal names what the bot played, reading the log once."""
    bot = running_bot(driver)
    await race_window(driver, TIMED)
    shown = await bot.tables.current(GAMES_CHANNEL_ID)
    offered = bot.tables.legal_moves(bot.tables.position(shown), BOB_ID)[0]
    await sweep_after(driver, 16)
    reads = counted_reads(driver, monkeypatch)
    old = f"{offered.notation}{TURN_MARK}{shown.id}:{shown.version}"
    sent = await driver.slash("move", {"action": old}, user_id=BOB_ID)
    assert sent.ephemeral and replies(sent).startswith(WINDOW_CLOSED), replies(sent)
    assert reads == [shown.id]


async def test_a_reaction_pressed_after_its_window_ran_out_reads_the_move_log_once(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same, through the No reaction button of Bob's hand."""
    _, bobs = await race_window(driver, TIMED)
    game_id = (await running_bot(driver).tables.current(GAMES_CHANNEL_ID)).id
    await sweep_after(driver, 16)
    reads = counted_reads(driver, monkeypatch)
    late = await driver.forge(bobs.message, component_id(bobs, "No reaction"), user_id=BOB_ID)
    assert late.ephemeral and replies(late).startswith(WINDOW_CLOSED), replies(late)
    assert reads == [game_id]


async def test_a_hand_button_pressed_twice_reads_the_move_log_once(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice's Go pressed again once it was applied: the old hand is rebuilt as it was shown,
    and the press refused as a move already made, from one read of the log."""
    game = (await stacked_mille(driver)).game
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{game.id}")
    go = component_id(hand, "Go")
    await driver.click(hand, go)
    reads = counted_reads(driver, monkeypatch)
    again = await driver.forge(hand, go)
    assert again.ephemeral and replies(again) == (
        "You have already made that move. It is not your turn; waiting for Bob."
    ), replies(again)
    assert reads == [game.id]
