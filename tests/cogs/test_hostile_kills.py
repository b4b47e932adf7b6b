"""Third hostile review: names in messages, kills at the worst moment, and load a member can cause.

Each test drives the real cogs through the fake Discord (like ``test_hostile_review.py``) and
holds a fix; its docstring says what should happen and what the review found before the fix.

A *restart* is modelled in-process: the first bot is left exactly where the kill caught it (the
call it was making never returns, and nothing it would have done afterwards runs), and a fresh
``JunctionBot`` opens the same database, as a restarted process would.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.client import JunctionBot
from bot.store.base import GuildSettings, SeatRecord
from cogs.ui import plain
from tests.cogs.conftest import bot_settings, running_bot
from tests.cogs.helpers import component_id, labels, public_table, replies, sweep_after
from tests.cogs.helpers import restarted as _restarted
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    GAMES_CHANNEL_ID,
    GENERAL_CHANNEL_ID,
    GUILD_ID,
)
from tests.discord.payloads import InteractionDriver

TWO_MEMBERS = [
    SeatRecord(0, "Alice", user_id=ALICE_ID),
    SeatRecord(1, "Bob", user_id=BOB_ID),
]


async def _never() -> Any:
    """A call cut short by the kill: it never returns."""
    await asyncio.Event().wait()


# --- names in messages -----------------------------------------------------------------------


async def test_a_nickname_is_shown_as_plain_text_in_the_table_message(
    driver: InteractionDriver,
) -> None:
    """A seat's name is a member's own text (a server nickname, at most 32 characters) and the
    table message must show it as that text. Found before the fix: names go into the message
    content with no markdown escaping, so Alice's nickname ``[My hand](https://evil.co/x)``
    becomes a link labelled "My hand" to any site she likes, in the bot's own message, next to
    the bot's "press **My hand**" ("Waiting for My hand to answer." — where "My hand" is her
    link); her opponent and everyone in the channel see it. Spoilers (``||``), headings (``# ``
    at the start of a caption line), quotes and ``-# `` work the same way. Every echo of a name
    should be escaped (``discord.utils.escape_markdown``) or otherwise neutralised."""
    nick = "[My hand](https://evil.co/x)"
    member = driver.backend.world.member(ALICE_ID)
    assert member is not None
    member["nick"] = nick
    table = public_table(await driver.slash("play", {"game": "race", "level": "random"}))
    content = table.content or ""
    assert "My hand" in content and "evil.co" in content, content  # the name is there
    assert plain(nick) in content, f"the markdown is live: {content!r}"


# --- kills at the worst moment ---------------------------------------------------------------


async def test_a_daily_deal_claimed_but_not_dealt_survives_a_restart(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """/play ttr-solo daily:true stores the member's claim on today's deal, then creates the
    thread (a request to Discord) and deals. The bot is killed after the claim is stored and
    before the game is (a restart or a crash during the thread request). Nothing was dealt, so
    after the restart Alice must still get today's deal. Found before the fix: the claim is given
    back only by an ``except`` in the dying process, which a kill never runs, so the orphaned
    claim refuses her for the rest of the day ("You have already been dealt today's deal") — a
    deal she never saw is lost."""
    bot = running_bot(driver)
    # Killed while the thread is being made or the deal being dealt: nothing after runs.
    bot.tables.start = lambda **_: _never()  # type: ignore[method-assign]
    driver.timeout = 1.0
    with pytest.raises(TimeoutError):
        await driver.slash("play", {"game": "ttr-solo", "daily": True})
    async with _restarted(driver, tmp_path) as again:
        dealt = await again.slash("play", {"game": "ttr-solo", "daily": True})
        assert not dealt.ephemeral, replies(dealt)
        game = await running_bot(again).store.active_game(GAMES_CHANNEL_ID)
        assert game is not None and game.options.get("daily"), "today's deal was dealt"


@pytest.mark.parametrize("by_command", [False, True], ids=["button", "abort-command"])
async def test_an_abort_everyone_agreed_to_survives_a_restart(
    driver: InteractionDriver, tmp_path: Path, by_command: bool
) -> None:
    """Alice asks to abort and Bob presses "Agree to abort": both votes are stored, then the bot
    is killed before the game is ended. After the restart the members have agreed and should be
    able to finish the abort (Bob presses the button again, or either uses /abort). Found before
    the fix: every further request is refused — "You have already asked for this; the other
    players must agree." — for both of them, so the game they agreed to end cannot be aborted
    until someone plays a move (which lapses the votes)."""
    bot = running_bot(driver)
    await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="ttr", seats=TWO_MEMBERS, seed=1
    )
    asked = await driver.slash("abort", {})
    agree = component_id(asked, "Agree to abort")
    bot.tables.store.end_game = lambda **_: _never()  # type: ignore[method-assign]
    driver.timeout = 1.0
    with pytest.raises(TimeoutError):
        await driver.click(asked, agree, user_id=BOB_ID)
    async with _restarted(driver, tmp_path) as again:
        if by_command:
            pressed = await again.slash("abort", {}, user_id=ALICE_ID)
            assert "Everyone agreed" in replies(pressed), replies(pressed)
            assert "Agree to abort" not in labels(pressed), "no new request was posted"
        else:
            pressed = await again.click(asked, agree, user_id=BOB_ID)
        assert await running_bot(again).store.active_game(GAMES_CHANNEL_ID) is None, (
            "the agreed abort could not be completed: " + replies(pressed)
        )


async def test_a_timed_out_turn_cut_by_a_restart_gets_no_fresh_timer(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """With a 1-minute turn timer (on_timeout computer), Alice's Dragon turn runs out and the
    computer plays it for her, move by move, each move stored on its own. The bot is killed after
    the first of those moves. Her turn had run out, so after the restart the rest of it must be
    played at once (the next sweep), as without the kill. Found before the fix: each move of the
    timed-out turn stores the timer of the position it leads to — Alice still to act, so a fresh
    full turn timer and reminder — and after the restart the absent Alice holds the table for a
    whole second timer (the behaviour the second review fixed comes back on a crash)."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "computer"))
    await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="dragon", seats=TWO_MEMBERS, seed=3
    )
    started = time.time()
    record_move = bot.tables.store.record_move
    calls = 0

    async def killed_after_one(**move: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls > 1:
            await _never()
        return await record_move(**move)

    bot.tables.store.record_move = killed_after_one  # type: ignore[method-assign]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(sweep_after(driver, 61), 2.0)
    assert calls == 2, "the first move of the timed-out turn was stored, then the kill"
    async with _restarted(driver, tmp_path) as again:
        restarted = running_bot(again)
        here = restarted.tables.position(await restarted.tables.current(GAMES_CHANNEL_ID))
        assert 0 in here.acting and here.stored.version == 1  # mid-turn, as the kill left it
        # Two seconds after the original deadline, well inside a fresh minute.
        await sweep_after(again, started + 62 - restarted.tables.clock())
        here = restarted.tables.position(await restarted.tables.current(GAMES_CHANNEL_ID))
        assert 0 not in here.acting, (
            f"Alice's timed-out turn waits for a new deadline at "
            f"+{(here.stored.turn_deadline or 0) - started:.0f} s"
        )


# --- load a member can cause -----------------------------------------------------------------


@pytest.fixture
async def one_render_process(tmp_path: Path) -> AsyncIterator[InteractionDriver]:
    """A bot drawing in one worker process, as deployed by default (JUNCTION_RENDER_PROCESSES=1)."""
    bot = JunctionBot(dataclasses.replace(bot_settings(tmp_path), render_processes=1))
    async with InteractionDriver(bot, run_setup_hook=True, timeout=120.0) as running:
        yield running
    await bot.close()


async def test_replays_do_not_hold_up_other_channels_tables(
    one_render_process: InteractionDriver,
) -> None:
    """Anyone in a channel can run /replay of its last finished game, as often as they like. Each
    one rebuilds the game and draws up to 60 table images plus a GIF in the render worker — about
    3–4 s of drawing (measured: race 107 moves 3.8 s, mille 786 moves 4.1 s, dragon 6 cars 1 507
    moves 3.7 s) — with no cache and no limit. The same worker draws every table image of every
    channel, so a member who sends /replay a few times holds up every game on the bot. A table in
    another channel should still come in about the time it normally takes (~0.03 s here). Found
    before the fix: with three /replays running, Bob's /play in another channel took ~8 s to post
    its table."""
    driver = one_render_process
    bot = running_bot(driver)
    computers = [SeatRecord(0, "C1", policy="normal"), SeatRecord(1, "C2", policy="normal")]
    await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="race", seats=computers, seed=5
    )
    assert await bot.store.active_game(GAMES_CHANNEL_ID) is None, "the race was played out"

    async def bobs_table() -> float:
        await asyncio.sleep(0.3)  # the replays are being drawn
        began = time.perf_counter()
        public_table(
            await driver.slash(
                "play", {"game": "mille"}, user_id=BOB_ID, channel_id=GENERAL_CHANNEL_ID
            )
        )
        return time.perf_counter() - began

    replays = [asyncio.ensure_future(driver.slash("replay", {})) for _ in range(3)]
    took = await bobs_table()
    await asyncio.gather(*replays)
    assert took < 1.5, f"Bob's table in another channel took {took:.1f} s behind three /replays"
