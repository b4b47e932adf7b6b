"""Private messages with buttons (a member's hand, a nested target picker, a hint) leave nothing
behind in the bot's memory: their buttons are rebuilt from their custom ids at every press, so
discord.py need not keep their views. Sent as they were, each private message's view was given
discord.py's fifteen-minute timeout: a sleeping task and the view kept per message, thousands
an hour on a busy bot."""

from __future__ import annotations

import asyncio

from bot.store.base import SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import component_id, labels, public_table, stacked_mille
from tests.cogs.test_nested_pickers_review import _deal
from tests.discord.backend import GAMES_CHANNEL_ID
from tests.discord.payloads import InteractionDriver


def view_timers() -> list[asyncio.Task[object]]:
    """The tasks discord.py runs to time out a view (one per view it watches)."""
    return [
        task
        for task in asyncio.all_tasks()
        if "timeout_task_impl" in getattr(task.get_coro(), "__qualname__", "")
    ]


async def test_opening_my_hand_leaves_no_view_behind(driver: InteractionDriver) -> None:
    update = await stacked_mille(driver)
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{update.game.id}")
    assert hand.ephemeral and hand.followups[-1].components, "the hand came with its buttons"
    assert view_timers() == []


async def test_a_hint_leaves_no_view_behind(driver: InteractionDriver) -> None:
    await stacked_mille(driver, SeatRecord(1, "Computer (normal)", policy="normal"))
    hint = await driver.slash("hint", {})
    assert any(r.components for r in hint.followups), "the hint came with its button"
    assert view_timers() == []


async def test_a_choice_opened_in_a_new_private_message_leaves_no_view_behind(
    driver: InteractionDriver,
) -> None:
    """A group of Ticket to Ride sets pressed where it opens a private message of its own."""
    deal = await _deal(driver)
    opened = await driver.forge(deal.table, deal.id("g", f"{deal.picker}:3"))
    assert opened.ephemeral and "4 Red + 10 Locomotives" in labels(opened)
    assert view_timers() == []


async def test_the_hand_still_plays_from_a_button_no_view_is_kept_for(
    driver: InteractionDriver,
) -> None:
    """Nothing kept, the press still reaches its move: Alice plays Go from her hand."""
    update = await stacked_mille(driver)
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{update.game.id}")
    assert hand.followups[-1].message_id is not None
    await driver.click(hand.followups[-1].message_id, component_id(hand, "Go"))
    played = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert played.version == update.game.version + 1
