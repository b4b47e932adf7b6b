"""Lobbies expire by themselves: the timer sweep (``cogs.timers``) closes the invitations and
open tables past their time (``cogs.lobby.expire_due``) without anyone pressing them.

Each test drives the real cogs through the fake Discord. The lobbies' clock
(``cogs.lobby.clock``) is moved past a lobby's time, then one sweep is run by hand (its loop
needs a gateway login). Before the sweep did this, a lobby stayed open, its message offering
Accept or Join, until somebody pressed a button after its time.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

import cogs.lobby as lobby_cog
from bot.forget import forget_member
from bot.store.base import LobbyRecord
from cogs.mygames import NOTHING
from tests.cogs.conftest import CHALLENGE_TIMEOUT, running_bot
from tests.cogs.helpers import (
    alice_against,
    challenge_mille,
    component_id,
    labels,
    lobby_later,
    lobby_sweep,
    public_table,
    replies,
    shown_message,
    stored_lobby,
)
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    GAMES_CHANNEL_ID,
    GUILD_ID,
    InteractionResult,
)
from tests.discord.payloads import InteractionDriver


async def test_the_sweep_closes_an_invitation_past_its_time(driver: InteractionDriver) -> None:
    """Nobody answered Bob's invitation in time: the sweep marks it expired and its message
    says so, its buttons gone, as a press after its time would have made it."""
    message, lobby_id = await challenge_mille(driver)
    lobby_later(CHALLENGE_TIMEOUT + 1)
    await lobby_sweep(driver)
    assert (await stored_lobby(driver, lobby_id)).status == "expired"
    shown = shown_message(driver, message)
    assert shown["content"].endswith("\n⌛ This invitation has expired.")
    assert "expires <t:" not in shown["content"]
    assert labels(shown) == []


async def _table_with_bob_swept(driver: InteractionDriver) -> tuple[InteractionResult, int]:
    """Alice hosts a Dragon table of three seats, Bob joins, a seat stays free, its time passes
    and the sweep runs: what /host answered, and the table's lobby id."""
    hosted = await driver.slash("host", {"game": "dragon", "seats": 2})
    assert hosted.message is not None
    lobby_id = int(component_id(hosted, "Join").split(":")[2])
    await driver.click(hosted, f"jn:l:{lobby_id}:j", user_id=BOB_ID)
    lobby_later(CHALLENGE_TIMEOUT + 1)
    await lobby_sweep(driver)
    return hosted, lobby_id


async def test_the_sweep_closes_an_open_table_past_its_time(driver: InteractionDriver) -> None:
    """Alice's open table, Bob seated, a seat still free at closing time: expired, its message
    says so with Bob still in his seat, and nobody can Join any more."""
    hosted, lobby_id = await _table_with_bob_swept(driver)
    lobby = await stored_lobby(driver, lobby_id)
    assert (lobby.status, [i.user_id for i in lobby.invited]) == ("expired", [BOB_ID])
    assert hosted.message is not None
    shown = shown_message(driver, hosted.message)
    assert shown["content"].endswith("\n⌛ This table has expired.")
    assert f"Seats: 1. <@{ALICE_ID}> · 2. <@{BOB_ID}> · 3. free" in shown["content"]
    assert "closes <t:" not in shown["content"] and labels(shown) == []


async def test_forgetting_a_member_seated_at_an_expired_table_takes_them_out(
    driver: InteractionDriver,
) -> None:
    """``junction forget-member`` for Bob after the sweep expired the table he sat at: like any
    closed lobby naming him, it goes (nobody can answer it any more) — here, as the newest
    lobby, kept for its id with Bob taken out; only a table still open keeps going with his
    seat freed."""
    _, lobby_id = await _table_with_bob_swept(driver)
    assert (await stored_lobby(driver, lobby_id)).status == "expired"
    done = await forget_member(running_bot(driver).tables.store, BOB_ID)
    assert (done.lobbies, done.seats, done.kept) == (0, 0, 1)
    kept = await stored_lobby(driver, lobby_id)
    assert kept.status == "expired"
    assert BOB_ID not in {kept.host_id, *(i.user_id for i in kept.invited)}


async def test_a_lobby_not_yet_due_is_left_alone(driver: InteractionDriver) -> None:
    """A second before its time, the sweep changes neither the invitation nor its message."""
    message, lobby_id = await challenge_mille(driver)
    before, shown = await stored_lobby(driver, lobby_id), dict(shown_message(driver, message))
    lobby_later(CHALLENGE_TIMEOUT - 1)
    await lobby_sweep(driver)
    assert await stored_lobby(driver, lobby_id) == before
    assert shown_message(driver, message) == shown
    assert labels(shown) == ["Accept", "Decline", "Start", "Cancel"]


async def test_a_press_after_the_sweep_is_told_only_and_changes_nothing(
    driver: InteractionDriver,
) -> None:
    """Bob's Accept (his client still showing it) after the sweep closed the invitation is
    told, only to him, that it expired; the lobby and its message stay as the sweep left
    them, and no game starts."""
    message, lobby_id = await challenge_mille(driver)
    lobby_later(CHALLENGE_TIMEOUT + 1)
    await lobby_sweep(driver)
    before, shown = await stored_lobby(driver, lobby_id), dict(shown_message(driver, message))
    late = await driver.forge(message, f"jn:l:{lobby_id}:a", user_id=BOB_ID)
    assert late.ephemeral and replies(late) == "That invitation has expired."
    assert await stored_lobby(driver, lobby_id) == before
    assert shown_message(driver, message) == shown
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None


async def test_a_start_at_the_same_moment_wins_over_the_sweep(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sweep reads the invitation as due; before it writes, Bob's Accept (pressed just in
    time) starts the game. The sweep's write finds the lobby changed and leaves it: the game
    is on, and the message says so, not that the invitation expired."""
    message, lobby_id = await challenge_mille(driver)
    store = running_bot(driver).tables.store
    read = store.lobbies_due

    async def accepted_meanwhile(*args: Any) -> list[LobbyRecord]:
        due = await read(*args)
        just_in_time = lobby_cog.clock
        monkeypatch.setattr(lobby_cog, "clock", lambda: just_in_time() - 2)
        public_table(await driver.click(message, f"jn:l:{lobby_id}:a", user_id=BOB_ID))
        monkeypatch.setattr(lobby_cog, "clock", just_in_time)
        return due

    monkeypatch.setattr(store, "lobbies_due", accepted_meanwhile)
    lobby_later(CHALLENGE_TIMEOUT + 1)
    await lobby_sweep(driver)
    assert (await stored_lobby(driver, lobby_id)).status == "started"
    assert await store.active_game(GAMES_CHANNEL_ID) is not None
    shown = shown_message(driver, message)["content"]
    assert "✅ The game is on!" in shown and "expired" not in shown


async def test_a_deleted_message_does_not_stop_the_others_expiring(
    driver: InteractionDriver, caplog: pytest.LogCaptureFixture
) -> None:
    """A moderator deleted the first invitation's message: the sweep still marks it expired
    (saying so in the log, at info) and goes on to close the second one."""
    gone, gone_id = await challenge_mille(driver, BOB_ID)
    kept, kept_id = await challenge_mille(driver, CAROL_ID)
    del driver.backend.messages[int(gone["id"])]
    lobby_later(CHALLENGE_TIMEOUT + 1)
    with caplog.at_level(logging.INFO, logger="junction.lobby"):
        await lobby_sweep(driver)
    assert (await stored_lobby(driver, gone_id)).status == "expired"
    assert (await stored_lobby(driver, kept_id)).status == "expired"
    assert shown_message(driver, kept)["content"].endswith("\n⌛ This invitation has expired.")
    assert [r.levelno for r in caplog.records if f"lobby {gone_id} " in r.getMessage()] == [
        logging.INFO
    ]


async def test_a_shard_that_does_not_hold_the_server_leaves_it(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """This process runs one shard of two, not the one Discord puts the server on: the
    invitation past its time is the other process's to close, and stays as it was."""
    message, lobby_id = await challenge_mille(driver)
    bot = running_bot(driver)
    monkeypatch.setattr(bot, "shard_count", 2)
    monkeypatch.setattr(bot, "shard_ids", [1 - (GUILD_ID >> 22) % 2], raising=False)
    before, shown = await stored_lobby(driver, lobby_id), dict(shown_message(driver, message))
    lobby_later(CHALLENGE_TIMEOUT + 1)
    await lobby_sweep(driver)
    assert await stored_lobby(driver, lobby_id) == before
    assert shown_message(driver, message) == shown


async def test_mygames_no_longer_lists_a_lobby_the_sweep_expired(
    driver: InteractionDriver,
) -> None:
    """Bob's /mygames lists the invitation while it is open; after the sweep closed it, it
    is gone from the list."""
    await challenge_mille(driver)
    listed = await driver.slash("mygames", {}, user_id=BOB_ID)
    assert listed.content != NOTHING
    lobby_later(CHALLENGE_TIMEOUT + 1)
    await lobby_sweep(driver)
    again = await driver.slash("mygames", {}, user_id=BOB_ID)
    assert again.ephemeral and again.content == NOTHING


async def test_a_rematch_the_sweep_expired_can_be_asked_for_again(
    driver: InteractionDriver,
) -> None:
    """Bob's rematch invitation expires unanswered; the sweep closes it, and Alice's Rematch
    press afterwards posts a new invitation instead of pointing at the closed one."""
    update = await alice_against(driver)
    table = public_table(await driver.slash("resign", {}, user_id=ALICE_ID)).message_id
    game_id = update.game.id
    first = await driver.click(table, f"jn:r:{game_id}", user_id=BOB_ID)
    first_id = int(component_id(first, "Accept").split(":")[2])
    lobby_later(CHALLENGE_TIMEOUT + 1)
    await lobby_sweep(driver)
    assert (await stored_lobby(driver, first_id)).status == "expired"
    second = await driver.click(table, f"jn:r:{game_id}", user_id=ALICE_ID)
    assert not second.ephemeral, replies(second)
    assert int(component_id(second, "Accept").split(":")[2]) != first_id
