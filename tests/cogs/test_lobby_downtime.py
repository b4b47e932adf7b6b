"""Invitations and open tables stop their clock while the bot is down, as turns do.

Driven through the fake Discord, as ``test_timers_downtime`` drives turns: the first bot sweeps,
is closed where it stands (``restarted``) and a new bot on the same database sweeps at a time of
the test's choosing. The lobbies' clock (``cogs.lobby.clock``) is kept with the timers' (each
step sets both), then the lobby sweep runs. Before, an invitation open for five minutes when the
bot went down for an hour was expired by the first lobby sweep after the restart, though nobody
could press Accept meanwhile; and the lobby sweep went on expiring a shard's lobbies while that
shard was cut off from Discord.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest

import cogs.lobby as lobby_cog
from tests.cogs.conftest import CHALLENGE_TIMEOUT, running_bot
from tests.cogs.helpers import (
    DEADLINE_SLACK,
    challenge_mille,
    component_id,
    labels,
    lobby_sweep,
    replies,
    restarted,
    shown_message,
    stored_lobby,
    sweep_at,
)
from tests.discord.backend import ALICE_ID, BOB_ID, CAROL_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver

HOUR = 3600.0


async def _at(driver: InteractionDriver, when: float, *, lobbies: bool = True) -> None:
    """Both clocks at ``when``; one timer sweep, then (``lobbies``) one lobby sweep."""
    lobby_cog.clock = lambda: when
    await sweep_at(driver, when)
    if lobbies:
        await lobby_sweep(driver)


def _timers(driver: InteractionDriver) -> Any:
    cog = running_bot(driver).get_cog("Timers")
    assert cog is not None
    return cog


async def _invited_then_swept(driver: InteractionDriver) -> tuple[dict[str, Any], int, float]:
    """Alice invites Bob (five minutes); the bot sweeps 10 s later. The invitation's message,
    its lobby id, and the time of that sweep (the last before the bot goes down)."""
    opened = running_bot(driver).tables.clock()
    lobby_cog.clock = lambda: opened
    message, lobby_id = await challenge_mille(driver)
    assert (await stored_lobby(driver, lobby_id)).expires_at == opened + CHALLENGE_TIMEOUT
    await _at(driver, opened + 10)
    return message, lobby_id, opened + 10


async def test_an_invitation_open_when_the_bot_went_down_keeps_its_time(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Down 10 s into Bob's five minutes, back an hour later: the invitation is still open,
    closes an hour later than it would have, and Bob's Accept starts the game."""
    message, lobby_id, stopped = await _invited_then_swept(driver)
    closing = (await stored_lobby(driver, lobby_id)).expires_at
    async with restarted(driver, tmp_path) as again:
        await _at(again, stopped + HOUR)
        lobby = await stored_lobby(again, lobby_id)
        assert lobby.status == "open"
        assert lobby.expires_at == pytest.approx(closing + HOUR, abs=DEADLINE_SLACK)
        assert labels(shown_message(again, message)) == ["Accept", "Decline", "Start", "Cancel"]
        accepted = await again.forge(message, f"jn:l:{lobby_id}:a", user_id=BOB_ID)
        assert "expired" not in replies(accepted)
        assert (await stored_lobby(again, lobby_id)).status == "started"
        assert await running_bot(again).tables.store.active_game(GAMES_CHANNEL_ID) is not None


async def test_the_message_shows_the_new_closing_time(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """The invitation said it expires at the old time; the lobby sweep after the restart edits
    it to say the new one."""
    message, lobby_id, stopped = await _invited_then_swept(driver)
    closing = int((await stored_lobby(driver, lobby_id)).expires_at)
    assert f"expires <t:{closing}:R>" in shown_message(driver, message)["content"]
    async with restarted(driver, tmp_path) as again:
        await _at(again, stopped + HOUR)
        new = int((await stored_lobby(again, lobby_id)).expires_at)
        assert new == closing + int(HOUR)
        shown = shown_message(again, message)
        assert f"expires <t:{new}:R>" in shown["content"]
        assert f"<t:{closing}:R>" not in shown["content"]


async def test_the_time_given_back_runs_out_as_any_invitation(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Back an hour later with 290 s left, nobody answers: the invitation expires when they
    have run out, not before."""
    message, lobby_id, stopped = await _invited_then_swept(driver)
    left = CHALLENGE_TIMEOUT - 10
    async with restarted(driver, tmp_path) as again:
        await _at(again, stopped + HOUR)
        await _at(again, stopped + HOUR + left - 1)
        assert (await stored_lobby(again, lobby_id)).status == "open"
        await _at(again, stopped + HOUR + left + 1)
        assert (await stored_lobby(again, lobby_id)).status == "expired"
        assert shown_message(again, message)["content"].endswith("has expired.")


async def test_the_lobby_sweep_waits_for_the_first_timer_sweep(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Back an hour later, the lobby sweep happens to run before the first timer sweep (the
    two loops are apart): it leaves the invitation, whose time is not given back yet."""
    _, lobby_id, stopped = await _invited_then_swept(driver)
    async with restarted(driver, tmp_path) as again:
        lobby_cog.clock = lambda: stopped + HOUR
        await lobby_sweep(again, timers_first=False)
        assert (await stored_lobby(again, lobby_id)).status == "open"
        await _at(again, stopped + HOUR)
        assert (await stored_lobby(again, lobby_id)).status == "open"


async def test_an_invitation_past_its_time_before_the_downtime_expires_as_before(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """The invitation's time ran out while the bot was up, but the bot went down before the
    lobby sweep closed it: back an hour later, it expires at the first lobby sweep."""
    opened = running_bot(driver).tables.clock()
    lobby_cog.clock = lambda: opened
    _, lobby_id = await challenge_mille(driver)
    stopped = opened + CHALLENGE_TIMEOUT + 5
    await _at(driver, stopped, lobbies=False)
    async with restarted(driver, tmp_path) as again:
        await _at(again, stopped + HOUR)
        assert (await stored_lobby(again, lobby_id)).status == "expired"


async def test_an_invitation_does_not_expire_while_discord_is_out_of_reach(
    driver: InteractionDriver,
) -> None:
    """Shard 0 loses Discord 10 s into Bob's five minutes, for an hour: the lobby sweep leaves
    the invitation meanwhile; back, it gets the hour back, once, and its message says so."""
    message, lobby_id, cut = await _invited_then_swept(driver)
    closing = (await stored_lobby(driver, lobby_id)).expires_at
    _timers(driver).connected = lambda shard: shard != 0
    await _at(driver, cut + HOUR / 2)
    await _at(driver, cut + HOUR)
    assert (await stored_lobby(driver, lobby_id)).status == "open"
    _timers(driver).connected = lambda shard: True
    await _at(driver, cut + HOUR)
    lobby = await stored_lobby(driver, lobby_id)
    assert lobby.status == "open" and lobby.expires_at == pytest.approx(
        closing + HOUR, abs=DEADLINE_SLACK
    )
    await _at(driver, cut + HOUR + 5)
    assert (await stored_lobby(driver, lobby_id)).expires_at == pytest.approx(
        closing + HOUR, abs=DEADLINE_SLACK
    )
    assert f"expires <t:{int(closing + HOUR)}:R>" in shown_message(driver, message)["content"]


async def test_an_open_table_keeps_its_time_and_its_seats(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Alice's Dragon table of three, Bob seated, one seat free; down 10 s later for an hour:
    back, the table is open with Bob in his seat, says its new closing time, and Carol's Join
    takes the last seat and starts the game."""
    opened = running_bot(driver).tables.clock()
    lobby_cog.clock = lambda: opened
    hosted = await driver.slash("host", {"game": "dragon", "seats": 2})
    assert hosted.message is not None
    lobby_id = int(component_id(hosted, "Join").split(":")[2])
    await driver.click(hosted, f"jn:l:{lobby_id}:j", user_id=BOB_ID)
    await _at(driver, opened + 10)
    closing = int((await stored_lobby(driver, lobby_id)).expires_at)
    async with restarted(driver, tmp_path) as again:
        await _at(again, opened + 10 + HOUR)
        shown = shown_message(again, hosted.message)
        assert f"Seats: 1. <@{ALICE_ID}> · 2. <@{BOB_ID}> · 3. free" in shown["content"]
        assert f"closes <t:{closing + int(HOUR)}:R>" in shown["content"]
        await again.forge(hosted.message, f"jn:l:{lobby_id}:j", user_id=CAROL_ID)
        assert (await stored_lobby(again, lobby_id)).status == "started"


async def test_a_press_before_the_first_sweep_does_not_close_the_invitation(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Back an hour later, Bob presses Accept before the restarted bot's first sweep (Discord
    sends presses before the bot is ready, and the sweep waits for it): he is told to press
    again shortly, nothing changes, and after the sweep his Accept starts the game."""
    message, lobby_id, stopped = await _invited_then_swept(driver)
    async with restarted(driver, tmp_path) as again:
        before = await stored_lobby(again, lobby_id)
        lobby_cog.clock = lambda: stopped + HOUR
        early = await again.forge(message, f"jn:l:{lobby_id}:a", user_id=BOB_ID)
        assert early.ephemeral and "press again in a few seconds" in replies(early)
        assert await stored_lobby(again, lobby_id) == before
        assert labels(shown_message(again, message)) == ["Accept", "Decline", "Start", "Cancel"]
        await _at(again, stopped + HOUR, lobbies=False)
        accepted = await again.forge(message, f"jn:l:{lobby_id}:a", user_id=BOB_ID)
        assert (await stored_lobby(again, lobby_id)).status == "started", replies(accepted)


async def test_a_press_after_discord_comes_back_before_the_sweep_does_not_close_it(
    driver: InteractionDriver,
) -> None:
    """Shard 0 loses Discord 10 s into Bob's five minutes, for an hour; back, Bob presses
    Accept before the next timer sweep gives the hour back: he is told to press again
    shortly, nothing changes, and after the sweep his Accept starts the game. (Only the
    first sweep after a start was waited for: this press closed the invitation as expired.)"""
    message, lobby_id, cut = await _invited_then_swept(driver)
    _timers(driver).connected = lambda shard: shard != 0
    await _at(driver, cut + HOUR)
    _timers(driver).connected = lambda shard: True
    before = await stored_lobby(driver, lobby_id)
    early = await driver.forge(message, f"jn:l:{lobby_id}:a", user_id=BOB_ID)
    assert early.ephemeral and "press again in a few seconds" in replies(early)
    assert await stored_lobby(driver, lobby_id) == before
    await _at(driver, cut + HOUR)
    accepted = await driver.forge(message, f"jn:l:{lobby_id}:a", user_id=BOB_ID)
    assert "expired" not in replies(accepted)
    assert (await stored_lobby(driver, lobby_id)).status == "started"


async def test_the_log_counts_the_lobbies_given_time_back(
    driver: InteractionDriver, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Two invitations open when the bot went down: the restart's log line says "2 lobbies"
    (it said "2 lobbys")."""
    opened = running_bot(driver).tables.clock()
    lobby_cog.clock = lambda: opened
    await challenge_mille(driver)
    await challenge_mille(driver, CAROL_ID)
    await _at(driver, opened + 10)
    async with restarted(driver, tmp_path) as again:
        with caplog.at_level("INFO", logger="junction.timers"):
            await _at(again, opened + 10 + HOUR)
    said = [r.getMessage() for r in caplog.records if r.name == "junction.timers"]
    assert "0 games and 2 lobbies got back the time the bot was down" in said, said


async def test_mygames_lists_an_invitation_still_owed_its_time(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Back an hour later, Alice asks /mygames before the restarted bot's first sweep: her
    invitation is past its stored time but still owed the hour, so it waits for Bob and her
    seat there counts towards games at once. Found by a review: /mygames left it out (it read
    the stored time alone) while the limit counted it. Now it is listed, saying it closes
    later; after the sweep, with its new time."""
    _, _, stopped = await _invited_then_swept(driver)
    async with restarted(driver, tmp_path) as again:
        lobby_cog.clock = lambda: stopped + HOUR
        early = str((await again.slash("mygames", {}, user_id=ALICE_ID)).content)
        assert "1 table waiting to start" in early, early
        assert "(invitation, you host: 0 of 1 accepted), expires later: the time" in early
        await _at(again, stopped + HOUR, lobbies=False)
        (lobby,) = await running_bot(again).tables.store.open_lobbies_of(ALICE_ID, GUILD_ID, 0)
        later = str((await again.slash("mygames", {}, user_id=ALICE_ID)).content)
        assert f"accepted), expires <t:{int(lobby.expires_at)}:R>" in later, later


async def test_a_stop_before_the_redraw_leaves_it_to_the_next_start(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Back an hour later, the first timer sweep gives the invitation its hour back, and the
    bot stops before the lobby sweep edits the message; started again 5 s later, the message
    says the new closing time."""
    message, lobby_id, stopped = await _invited_then_swept(driver)
    async with restarted(driver, tmp_path) as again:
        await _at(again, stopped + HOUR, lobbies=False)
        assert "<t:" in shown_message(again, message)["content"]
        async with restarted(again, tmp_path) as third:
            await _at(third, stopped + HOUR + 5)
            new = int((await stored_lobby(third, lobby_id)).expires_at)
            assert f"expires <t:{new}:R>" in shown_message(third, message)["content"]


class _Trouble:
    """What discord.DiscordServerError reads of Discord's own failure."""

    status = 503
    reason = "Service Unavailable"


async def test_a_redraw_discord_failed_is_tried_again(
    driver: InteractionDriver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Back an hour later, Discord fails the edit that shows the new closing time (its own
    trouble, past discord.py's retries). Found by a review: the lobby was dropped from the
    list kept in memory, and its message said the old time, long past, for as long as the
    process ran. The lobby stays marked in the store, and the next lobby sweep draws it."""
    message, lobby_id, stopped = await _invited_then_swept(driver)
    async with restarted(driver, tmp_path) as again:
        edit = discord.PartialMessage.edit
        failed: list[int] = []

        async def troubled(self: discord.PartialMessage, **fields: Any) -> Any:
            if not failed:
                failed.append(self.id)
                raise discord.DiscordServerError(_Trouble(), "unavailable")
            return await edit(self, **fields)

        monkeypatch.setattr(discord.PartialMessage, "edit", troubled)
        await _at(again, stopped + HOUR)
        assert failed == [int(message["id"])]
        new = int((await stored_lobby(again, lobby_id)).expires_at)
        assert f"expires <t:{new}:R>" not in shown_message(again, message)["content"]
        await _at(again, stopped + HOUR + 5)
        assert f"expires <t:{new}:R>" in shown_message(again, message)["content"]
        store = running_bot(again).tables.store
        assert await store.lobbies_to_reshow(50) == []


async def test_an_invitation_deleted_while_the_bot_was_away_closes_at_the_redraw(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """A moderator deleted the invitation while the bot was down (no MESSAGE_DELETE reached
    it). Back an hour later, the edit that would show the new closing time meets Discord's
    "Unknown Message": the invitation is cancelled then, as the event would have done, and
    Alice's seat there counts no more (it held it, open, for the rest of its time)."""
    message, lobby_id, stopped = await _invited_then_swept(driver)
    await driver.close()
    del driver.backend.messages[int(message["id"])]  # no bot listening: no event
    async with restarted(driver, tmp_path) as again:
        await _at(again, stopped + HOUR)
        assert (await stored_lobby(again, lobby_id)).status == "cancelled"
        listed = str((await again.slash("mygames", {}, user_id=ALICE_ID)).content)
        assert "invitation" not in listed, listed
