"""A hostile member's and an operator's review of the lobby expiry sweep
(``cogs.lobby.expire_due``, run by the Timers cog): what a press meets on a lobby the sweep
closed, and how the sweep behaves with a backlog and with Discord failing.

The lobbies' clock (``cogs.lobby.clock``) is moved past a lobby's time and one sweep is run by
hand, as in ``tests/cogs/test_lobby_expiry.py``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import cogs.lobby as lobby_cog
from bot.store.base import LobbyRecord
from tests.cogs.conftest import CHALLENGE_TIMEOUT, running_bot
from tests.cogs.helpers import (
    challenge_mille,
    labels,
    lobby_later,
    lobby_sweep,
    replies,
    shown_message,
    stored_lobby,
)
from tests.discord.backend import (
    BOB_ID,
    CAROL_ID,
    GAMES_CHANNEL_ID,
    GUILD_ID,
    HTTPError,
    RecordedRequest,
)
from tests.discord.payloads import InteractionDriver
from tests.store.helpers import lobby_record


def _edits_fail(driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make Discord answer 500 to every edit of a message through its channel (the sweep's
    way); the ids of the messages it refused."""
    backend = driver.backend
    refused: list[str] = []

    def patch(record: RecordedRequest, channel_id: str, message_id: str) -> tuple[int, Any]:
        refused.append(message_id)
        raise HTTPError(500, "Internal Server Error", 0)

    monkeypatch.setattr(backend, "_patch_message", patch)
    return refused


async def test_a_press_on_an_expired_lobby_whose_edit_failed_takes_its_buttons_away(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord answered 500 to the sweep's edit: the invitation is expired, its message still
    offers Accept. Bob's Accept there is told it expired, and the message now says so, its
    buttons gone; no game starts. Before, the buttons stayed for good, each press refused."""
    message, lobby_id = await challenge_mille(driver)
    lobby_later(CHALLENGE_TIMEOUT + 1)
    with monkeypatch.context() as failing:
        refused = _edits_fail(driver, failing)
        await lobby_sweep(driver)
    assert refused, "the sweep's edit met the server error"
    before = await stored_lobby(driver, lobby_id)
    assert before.status == "expired"
    assert labels(shown_message(driver, message)) == ["Accept", "Decline", "Start", "Cancel"]
    late = await driver.click(message, f"jn:l:{lobby_id}:a", user_id=BOB_ID)
    assert late.ephemeral and replies(late) == "That invitation has expired."
    shown = shown_message(driver, message)
    assert shown["content"].endswith("\n⌛ This invitation has expired.")
    assert labels(shown) == []
    assert await stored_lobby(driver, lobby_id) == before
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None


async def test_a_double_press_on_such_a_lobby_is_told_twice_and_changes_nothing(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob presses Accept twice on the stale message (his client still showing it after the
    first): both are told it expired; the second edits nothing more."""
    message, lobby_id = await challenge_mille(driver)
    lobby_later(CHALLENGE_TIMEOUT + 1)
    with monkeypatch.context() as failing:
        _edits_fail(driver, failing)
        await lobby_sweep(driver)
    first = await driver.click(message, f"jn:l:{lobby_id}:a", user_id=BOB_ID)
    closed = dict(shown_message(driver, message))
    second = await driver.forge(closed, f"jn:l:{lobby_id}:a", user_id=BOB_ID)
    assert [replies(first), replies(second)] == ["That invitation has expired."] * 2
    assert second.ephemeral and shown_message(driver, message) == closed


async def test_an_expired_lobby_of_another_server_cannot_be_pressed_from_here(
    driver: InteractionDriver,
) -> None:
    """A modified client forges the Accept of an invitation the sweep closed, on a message of
    another channel: refused, and neither message changes."""
    message, lobby_id = await challenge_mille(driver)
    other, _ = await challenge_mille(driver, CAROL_ID)
    lobby_later(CHALLENGE_TIMEOUT + 1)
    await lobby_sweep(driver)
    shown, other_shown = dict(shown_message(driver, message)), dict(shown_message(driver, other))
    forged = await driver.forge(other, f"jn:l:{lobby_id}:a", user_id=BOB_ID)
    assert forged.ephemeral
    assert replies(forged) == (
        "That button is not on its invitation: answer the invitation itself."
    )
    assert shown_message(driver, message) == shown and shown_message(driver, other) == other_shown


async def test_a_backlog_with_gone_messages_and_an_unknown_game_drains(
    driver: InteractionDriver,
) -> None:
    """More lobbies due than one sweep takes (the bot was down): most never stored their
    message, one's message was deleted, one is of a plug-in no longer installed. Each sweep
    expires a new batch, none twice, until none is left; the live message is edited."""
    bot = running_bot(driver)
    store = bot.tables.store
    live, live_id = await challenge_mille(driver)
    gone, gone_id = await challenge_mille(driver, CAROL_ID)
    del driver.backend.messages[int(gone["id"])]
    now = lobby_cog.clock()
    plugin = await store.create_lobby(
        lobby_record(
            channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="gone", expires_at=now - 5
        )
    )
    posted = await bot.get_partial_messageable(GAMES_CHANNEL_ID, guild_id=GUILD_ID).send("x")
    await store.set_lobby_message(plugin.id, posted.id)
    backlog = [
        await store.create_lobby(
            lobby_record(channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, expires_at=now - 1)
        )
        for _ in range(lobby_cog.LOBBIES_PER_SWEEP + 5)
    ]
    lobby_later(CHALLENGE_TIMEOUT + 1)
    counts = []
    for _ in range(3):
        counts.append(await lobby_cog.expire_due(bot))
    assert counts == [lobby_cog.LOBBIES_PER_SWEEP, 8, 0]
    for lobby_id in [live_id, gone_id, plugin.id, *(b.id for b in backlog)]:
        assert (await stored_lobby(driver, lobby_id)).status == "expired"
    assert shown_message(driver, live)["content"].endswith("\n⌛ This invitation has expired.")
    assert driver.backend.messages[posted.id]["content"].startswith("**gone** — ")


async def test_a_lobby_edit_waiting_on_discord_does_not_hold_up_the_turn_timers(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord holds the edit of an expired invitation's message (rate limits on a channel
    full of invitations, or an outage's retries, last minutes): the turn-timer sweep still
    finishes at once, so deadlines do not wait for it; the lobbies' own loop waits instead.
    Before, the turn-timer sweep expired the lobbies too and waited on their edits."""
    await challenge_mille(driver)
    bot = running_bot(driver)

    async def edit_held(*args: Any, **kwargs: Any) -> Any:
        await asyncio.Event().wait()  # Discord never answers in this test

    monkeypatch.setattr(bot.http, "edit_message", edit_held)
    lobby_later(CHALLENGE_TIMEOUT + 1)
    cog = bot.get_cog("Timers")
    assert cog is not None
    await asyncio.wait_for(type(cog).sweeper.coro(cog), 5)  # type: ignore[attr-defined]


async def test_the_sweep_between_an_accept_and_its_start_is_told_as_expiry(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's Accept, pressed just in time, is saved; before it claims the game, the sweep
    (its clock a moment later) closes the invitation. No game starts, the message says the
    invitation expired, and Bob is told so, not to press again (a press again would only be
    told it expired)."""
    message, lobby_id = await challenge_mille(driver)
    bot = running_bot(driver)
    store = bot.tables.store
    update = store.update_lobby
    just_in_time = lobby_cog.clock() + CHALLENGE_TIMEOUT - 1

    async def swept_after_the_answer(lobby: LobbyRecord, version: int) -> LobbyRecord:
        saved = await update(lobby, version)
        if lobby.status == "open" and lobby.invited[0].answer == "accepted":
            monkeypatch.setattr(lobby_cog, "clock", lambda: just_in_time + 2)
            assert await lobby_cog.expire_due(bot) == 1
        return saved

    monkeypatch.setattr(lobby_cog, "clock", lambda: just_in_time)
    monkeypatch.setattr(store, "update_lobby", swept_after_the_answer)
    late = await driver.click(message, f"jn:l:{lobby_id}:a", user_id=BOB_ID)
    assert late.ephemeral and replies(late) == "That invitation has expired."
    assert (await stored_lobby(driver, lobby_id)).status == "expired"
    assert shown_message(driver, message)["content"].endswith("\n⌛ This invitation has expired.")
    assert await store.active_game(GAMES_CHANNEL_ID) is None
