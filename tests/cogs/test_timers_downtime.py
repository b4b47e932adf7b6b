"""The timers' clock stops while the bot is down.

Driven through the fake Discord: the first bot sweeps (``sweep_after``), is closed where it
stands (``restarted``: a crash, nothing written on the way out) and a new bot on the same
database sweeps at a time of the test's choosing (``sweep_at``). Before, a turn or reaction
window that ran out while the bot was down was handled at the first sweep after it: with
``on_timeout: forfeit`` a member lost a rated game they could not have played on.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

from bot.store.base import GuildSettings, StoredGame
from bot.updates import TableUpdate
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    DEADLINE_SLACK,
    current_game,
    every_word_posted,
    restarted,
    stacked_mille,
    sweep_after,
    sweep_at,
)
from tests.cogs.test_windows_review import race_window
from tests.discord.backend import ALICE_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver

TURN = 60  # seconds: a one-minute turn timer
HOUR = 3600.0


async def _forfeit_timer(driver: InteractionDriver) -> StoredGame:
    """Alice against Bob at Mille Bornes, a one-minute turn timer whose runners-out forfeit;
    Alice's turn, reminded at 30 s, out at 60 s."""
    await running_bot(driver).store.set_guild_settings(GuildSettings(GUILD_ID, TURN, "forfeit"))
    game = (await stacked_mille(driver)).game
    assert game.turn_deadline is not None and game.remind_at is not None
    return game


async def bob_s_window(driver: InteractionDriver) -> StoredGame:
    """Bob may answer Alice's Flat Tire for 20 s (a one-minute turn timer whose runners-out
    forfeit), 5 s of it swept: the game as the window opened."""
    await race_window(driver, GuildSettings(GUILD_ID, TURN, "forfeit", 20))
    window = await current_game(driver)
    assert window.turn_deadline is not None
    await sweep_after(driver, 5)
    return window


async def window_kept(driver: InteractionDriver, window: StoredGame, later: float) -> None:
    """Bob's window is still open, its deadline ``later`` than it was: the bot did not answer
    "no reaction" for him."""
    assert window.turn_deadline is not None
    now = await current_game(driver)
    assert now.version == window.version, "no reaction was played for Bob"
    assert running_bot(driver).tables.position(now).acting == [1]
    assert now.turn_deadline == pytest.approx(window.turn_deadline + later, abs=DEADLINE_SLACK)
    assert "did not react in time" not in every_word_posted(driver)


async def test_a_turn_running_when_the_bot_went_down_keeps_its_time(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """The bot goes down 10 s into Alice's minute and is back an hour later: she does not
    forfeit at its first sweep, and has her 50 s left."""
    game = await _forfeit_timer(driver)
    await sweep_after(driver, 10)
    stopped = running_bot(driver).tables.clock()
    async with restarted(driver, tmp_path) as again:
        await sweep_at(again, stopped + HOUR)
        now = await current_game(again)
        assert now.version == game.version, "nothing was played for Alice"
        assert now.turn_deadline == pytest.approx(stopped + HOUR + 50, abs=DEADLINE_SLACK)
        assert "ran out of time" not in every_word_posted(again)


async def test_the_time_given_back_runs_out_as_any_turn(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Back an hour later with 50 s left, Alice lets them run out: she forfeits when they have,
    not before."""
    await _forfeit_timer(driver)
    await sweep_after(driver, 10)
    stopped = running_bot(driver).tables.clock()
    async with restarted(driver, tmp_path) as again:
        await sweep_at(again, stopped + HOUR)
        await sweep_at(again, stopped + HOUR + 49)
        assert "ran out of time" not in every_word_posted(again)
        await sweep_at(again, stopped + HOUR + 51)
        assert "Alice ran out of time and forfeits the game." in every_word_posted(again)
        assert (await running_bot(again).store.results())[0].record.ranks == (1, 0)


async def test_a_reminder_comes_at_the_same_point_of_the_time_left(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Down 10 s into the minute, the half-time reminder (at 30 s) not sent yet: back an hour
    later, it is not sent at once, but 20 s later, when half her minute is left."""
    await _forfeit_timer(driver)
    await sweep_after(driver, 10)
    stopped = running_bot(driver).tables.clock()
    async with restarted(driver, tmp_path) as again:
        await sweep_at(again, stopped + HOUR)
        assert "your turn runs out" not in every_word_posted(again)
        await sweep_at(again, stopped + HOUR + 19)
        assert "your turn runs out" not in every_word_posted(again)
        await sweep_at(again, stopped + HOUR + 20)
        assert f"<@{ALICE_ID}>, your turn runs out" in every_word_posted(again)


@pytest.mark.logs_errors
async def test_a_turn_that_ran_out_before_the_bot_went_down_is_handled_as_before(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Alice's minute ran out while the bot was up, but the sweep then failed on her game (the
    database blinked) and the bot went down. She was late before the downtime: back an hour
    later, she forfeits at the first sweep, as she would have."""
    await _forfeit_timer(driver)
    bot = running_bot(driver)

    async def blink(game_id: int) -> TableUpdate | None:
        raise OSError("the database blinked")

    bot.tables.wake = blink  # type: ignore[method-assign]
    await sweep_after(driver, TURN + 5)
    stopped = bot.tables.clock()
    async with restarted(driver, tmp_path) as again:
        await sweep_at(again, stopped + HOUR)
        assert "Alice ran out of time and forfeits the game." in every_word_posted(again)


async def test_a_reaction_window_running_when_the_bot_went_down_keeps_its_time(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Bob may answer Alice's Flat Tire for 20 s; the bot goes down 5 s in and is back an hour
    later: the bot does not answer "no reaction" for him, and his 15 s are left."""
    window = await bob_s_window(driver)
    stopped = running_bot(driver).tables.clock()
    async with restarted(driver, tmp_path) as again:
        await sweep_at(again, stopped + HOUR)
        await window_kept(again, window, HOUR)


async def test_two_downtimes_in_a_row_are_each_given_back(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Down an hour 10 s into Alice's minute, back for 20 s of sweeps, down half an hour: she
    has 30 s left after both, and did not forfeit."""
    game = await _forfeit_timer(driver)
    await sweep_after(driver, 10)
    first_stop = running_bot(driver).tables.clock()
    async with restarted(driver, tmp_path) as again:
        await sweep_at(again, first_stop + HOUR)
        await sweep_at(again, first_stop + HOUR + 20)
        second_stop = first_stop + HOUR + 20
        async with restarted(again, tmp_path) as third:
            await sweep_at(third, second_stop + HOUR / 2)
            now = await current_game(third)
            assert now.version == game.version
            assert now.turn_deadline == pytest.approx(
                second_stop + HOUR / 2 + 30, abs=DEADLINE_SLACK
            )


async def test_a_turn_begun_after_the_restart_gets_no_more_than_its_time(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Back an hour later, Alice plays before the restarted bot's first sweep: Bob's minute
    starts then, and that sweep does not add the hour to it (only the deadlines that were
    running when the bot went down get it)."""
    await _forfeit_timer(driver)
    await sweep_after(driver, 10)
    stopped = running_bot(driver).tables.clock()
    async with restarted(driver, tmp_path) as again:
        back = running_bot(again)
        back.tables.clock = lambda: stopped + HOUR
        await again.slash("move", {"action": "play go"})
        bobs = await current_game(again)
        assert back.tables.position(bobs).acting == [1]
        await sweep_at(again, stopped + HOUR + 1)
        assert (await current_game(again)).turn_deadline == pytest.approx(
            stopped + HOUR + TURN, abs=DEADLINE_SLACK
        )
        await sweep_at(again, stopped + HOUR + TURN + 1)
        assert "Bob ran out of time and forfeits the game." in every_word_posted(again)


async def test_a_shard_process_writes_the_heartbeat_of_its_own_shards(
    driver: InteractionDriver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """This process runs shard 1 of 3: its sweeps date that shard's downtime only (the other
    shards' processes date theirs), and again at each sweep."""
    bot = running_bot(driver)
    monkeypatch.setattr(bot, "shard_count", 3)
    monkeypatch.setattr(bot, "shard_ids", [1], raising=False)
    await sweep_after(driver, 10)
    first = bot.tables.clock()
    await sweep_after(driver, 5)
    with contextlib.closing(sqlite3.connect(tmp_path / "bot.db")) as db:
        rows = db.execute("SELECT shard_count, shard_id, alive_at FROM timer_heartbeats").fetchall()
    assert rows == [(3, 1, first + 5)]
