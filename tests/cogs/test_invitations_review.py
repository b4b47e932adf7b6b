"""Invitations across restarts and processes: the Rematch button's one open invitation,
invitations whose message id was never stored, and invitations whose closing edit failed.

Each test drives the real cogs through the fake Discord and holds a fix; its docstring says
what should happen and what was found before the fix. A *restart* is a fresh ``JunctionBot``
on the same database and the same fake Discord (``tests.cogs.helpers.restarted``); a *kill*
leaves the first bot inside the call it was making, so nothing it would have done afterwards
runs.
"""

from __future__ import annotations

import asyncio
import copy
import logging
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.boards import message_link
from bot.engine.core import GameError
from bot.store.base import UNPOSTED_SECONDS, LobbyRecord, SeatRecord
from cogs.ui import APOLOGY
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    challenge_mille,
    component_id,
    labels,
    lobby_later,
    public_table,
    replies,
    restarted,
    shown_message,
    stored_lobby,
)
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    GAMES_CHANNEL_ID,
    GUILD_ID,
    JSON,
    HTTPError,
    RecordedRequest,
)
from tests.discord.payloads import InteractionDriver

ALICE_AND_BOB = [SeatRecord(0, "Alice", user_id=ALICE_ID), SeatRecord(1, "Bob", user_id=BOB_ID)]


async def _never(*_: Any) -> Any:
    await asyncio.Event().wait()


async def _finished(driver: InteractionDriver) -> tuple[int, int]:
    """A game of Alice and Bob that Alice resigns: its id and its final table's message."""
    update = await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="mille", seats=ALICE_AND_BOB
    )
    message = public_table(await driver.slash("resign", {}, user_id=ALICE_ID)).message_id
    assert message is not None
    return update.game.id, message


def _invitations(driver: InteractionDriver) -> list[JSON]:
    """The invitations posted so far (messages with an Accept button)."""
    return [
        m
        for m in driver.backend.messages.values()
        if any(
            c.get("custom_id", "").endswith(":a")
            for row in m.get("components") or []
            for c in row.get("components") or []
        )
        or " invites " in (m.get("content") or "")
    ]


def _lobby_id(invitation: JSON) -> int:
    ids = [
        c["custom_id"]
        for row in invitation.get("components") or []
        for c in row.get("components") or []
    ]
    return int(next(i for i in ids if i.startswith("jn:l:")).split(":")[2])


async def test_a_rematch_asked_again_after_a_restart_is_pointed_at_the_first(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Bob presses Rematch; the bot restarts; Bob presses again, then Alice does. Found
    before the fix: the open rematch invitations were known only to the process's memory, so
    the restarted bot posted a second invitation (pinging Alice again), and accepting one left
    the other open. One invitation now, each later press pointed at it with its link."""
    game_id, table = await _finished(driver)
    asked = await driver.click(table, f"jn:r:{game_id}", user_id=BOB_ID)
    invitation = asked.responses[0]
    assert not invitation.ephemeral and invitation.message_id is not None
    link = message_link(GUILD_ID, GAMES_CHANNEL_ID, invitation.message_id)
    async with restarted(driver, tmp_path) as again:
        twice = await again.click(table, f"jn:r:{game_id}", user_id=BOB_ID)
        assert twice.ephemeral
        assert replies(twice) == (
            f"You have already asked for this rematch: [the invitation]({link}) is posted."
        )
        alice = await again.click(table, f"jn:r:{game_id}", user_id=ALICE_ID)
        assert alice.ephemeral
        assert replies(alice) == (
            f"bob has already asked for this rematch: answer [their invitation]({link})."
        )
        assert len(_invitations(again)) == 1
        accepted = await again.click(
            invitation.message_id, component_id(invitation, "Accept"), user_id=ALICE_ID
        )
        assert "The game is on" in replies(accepted)


async def _posted_not_stored(driver: InteractionDriver) -> JSON:
    """Alice challenges Bob and the bot is killed after posting the invitation, before it
    stores which message it is (the state an older version's invitations are in too)."""
    running_bot(driver).tables.store.set_lobby_message = lambda *_: _never()  # type: ignore[method-assign]
    driver.timeout = 1.0
    with pytest.raises(TimeoutError):
        await driver.slash("challenge", {"game": "mille", "member": BOB_ID})
    [invitation] = _invitations(driver)
    return copy.deepcopy(invitation)


async def test_an_invitation_whose_message_was_never_stored_still_answers(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Its Accept pressed under the invitation itself is answered (and the message is
    remembered from then on); pressed under another of the bot's messages (here a finished
    table) it is refused and that message is left as it was. Found before the fix: with no
    message stored, the button was answered under any message, so a forged Accept rewrote a
    finished table as the invitation and started the game from it."""
    _, table = await _finished(driver)
    invitation = await _posted_not_stored(driver)
    lobby_id = _lobby_id(invitation)
    async with restarted(driver, tmp_path) as again:
        assert (await stored_lobby(again, lobby_id)).message_id is None
        shown = copy.deepcopy(again.backend.messages[table])
        forged = await again.forge(table, f"jn:l:{lobby_id}:a", user_id=BOB_ID)
        assert forged.ephemeral
        assert replies(forged) == (
            "That button is not on its invitation: answer the invitation itself."
        )
        assert again.backend.messages[table] == shown
        assert (await stored_lobby(again, lobby_id)).invited[0].answer == "pending"
        accepted = await again.click(invitation, f"jn:l:{lobby_id}:a", user_id=BOB_ID)
        assert "The game is on" in replies(accepted)
        assert (await stored_lobby(again, lobby_id)).message_id == int(invitation["id"])


async def test_an_unstored_invitation_expires_under_its_own_message(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Pressed after it expired, an invitation whose message id was never stored says so in
    its own message, as any invitation does, and takes its buttons away; its buttons pressed
    afterwards say it has expired."""
    invitation = await _posted_not_stored(driver)
    lobby_id = _lobby_id(invitation)
    async with restarted(driver, tmp_path) as again:
        lobby_later(10_000)
        late = await again.click(invitation, f"jn:l:{lobby_id}:a", user_id=BOB_ID)
        assert not late.ephemeral and "⌛ This invitation has expired." in replies(late)
        shown = again.backend.messages[int(invitation["id"])]
        assert "has expired" in shown["content"] and not shown.get("components")
        assert (await stored_lobby(again, lobby_id)).status == "expired"
        # A client still showing the buttons presses one.
        again_late = await again.forge(invitation, f"jn:l:{lobby_id}:c", user_id=ALICE_ID)
        assert again_late.ephemeral and replies(again_late) == "That invitation has expired."


async def test_a_rematch_invitation_lost_in_a_kill_can_be_asked_for_again(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """The bot is killed after storing Bob's rematch invitation and before posting it. After
    the restart, a press at once is told the rematch was asked for (with what to do if no
    invitation shows); a minute on, a press posts the invitation, and the lost one is closed.
    Without the time limit the lost lobby would hold the rematch until it expired, five
    minutes in which nobody could ask for it."""
    game_id, table = await _finished(driver)
    store = running_bot(driver).tables.store
    stored = store.open_rematch

    async def stored_then_killed(lobby: LobbyRecord, now: float) -> Any:
        await stored(lobby, now)
        await _never()

    store.open_rematch = stored_then_killed  # type: ignore[method-assign]
    driver.timeout = 1.0
    with pytest.raises(TimeoutError):
        await driver.click(table, f"jn:r:{game_id}", user_id=BOB_ID)
    assert _invitations(driver) == []
    async with restarted(driver, tmp_path) as again:
        soon = await again.click(table, f"jn:r:{game_id}", user_id=ALICE_ID)
        assert soon.ephemeral
        assert replies(soon) == (
            "bob has already asked for this rematch. If you cannot see the invitation, "
            "press Rematch again in a minute."
        )
        lobby_later(UNPOSTED_SECONDS + 1)
        asked = await again.click(table, f"jn:r:{game_id}", user_id=ALICE_ID)
        assert not asked.ephemeral and f"<@{ALICE_ID}> invites" in replies(asked)
        assert len(_invitations(again)) == 1


async def test_a_rematch_invitation_that_could_not_be_posted_holds_nothing(
    driver: InteractionDriver,
    expire: Callable[[JSON], None],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Discord refuses to post Bob's rematch invitation (the interaction expired): the lobby
    stored for it is closed at once, so Alice's press a moment later posts the invitation
    instead of being told of one nobody can see; the refusal is logged as a warning."""
    game_id, table = await _finished(driver)
    backend = driver.backend
    payload = driver.factory.component(backend.messages[table], f"jn:r:{game_id}", user_id=BOB_ID)
    expire(payload)
    with caplog.at_level(logging.WARNING):
        await driver.dispatch(payload)
    # Discord's refusal is no fault of the bot's: a warning, not "component … failed".
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert _invitations(driver) == []
    [lost] = await backend_lobbies(driver)
    assert lost.status == "cancelled"
    asked = await driver.click(table, f"jn:r:{game_id}", user_id=ALICE_ID)
    assert not asked.ephemeral and f"<@{ALICE_ID}> invites" in replies(asked)


async def backend_lobbies(driver: InteractionDriver) -> list[LobbyRecord]:
    """Every stored lobby, oldest first (lobby ids count from 1)."""
    found = []
    for lobby_id in range(1, 20):
        lobby = await running_bot(driver).tables.store.get_lobby(lobby_id)
        if lobby is not None:
            found.append(lobby)
    return found


async def test_a_start_given_back_after_another_rematch_invitation_closes(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice accepts Bob's rematch invitation, and the start fails (here a game began in the
    channel meanwhile), which gives the invitation back to be answered again. Had a second
    invitation to the same rematch been opened in that moment, giving the first back would
    make two open at once, which the database refuses: the first closes instead, and Alice is
    told to answer the other (not an apology for an error)."""
    game_id, table = await _finished(driver)
    asked = await driver.click(table, f"jn:r:{game_id}", user_id=BOB_ID)
    invitation = asked.responses[0]
    tables = running_bot(driver).tables
    first = _lobby_id(driver.backend.messages[invitation.message_id or 0])

    async def another_then_busy(**_: Any) -> Any:
        other = replace(await stored_lobby(driver, first), id=0, status="open", message_id=None)
        await tables.store.open_rematch(other, other.created_at)
        raise GameError("A game is already running here.")

    monkeypatch.setattr(tables, "start", another_then_busy)
    accepted = await driver.click(
        invitation.message_id, component_id(invitation, "Accept"), user_id=ALICE_ID
    )
    assert accepted.ephemeral
    assert replies(accepted) == (
        "Another invitation to this rematch was posted meanwhile: answer that one."
    )
    statuses = [lobby.status for lobby in await backend_lobbies(driver)]
    assert statuses == ["cancelled", "open"]


def _updates_fail(driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make Discord answer 500 to every press's edit of its own message (an update callback);
    the tokens of the presses refused."""
    backend = driver.backend
    refused: list[str] = []
    callback = backend._callback

    def update(record: RecordedRequest, interaction_id: str, token: str) -> tuple[int, Any]:
        body = record.json if isinstance(record.json, dict) else {}
        if body.get("type") == 7:
            refused.append(token)
            raise HTTPError(500, "Internal Server Error", 0)
        return callback(record, interaction_id, token)

    monkeypatch.setattr(backend, "_callback", update)
    return refused


def _edits_fail(driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """As ``_updates_fail``, and Discord also answers 500 to every edit of a message through
    its channel: the paths of the channel edits refused are added to the list returned."""
    refused = _updates_fail(driver, monkeypatch)

    def patch(record: RecordedRequest, channel_id: str, message_id: str) -> tuple[int, Any]:
        refused.append(record.path)
        raise HTTPError(500, "Internal Server Error", 0)

    monkeypatch.setattr(driver.backend, "_patch_message", patch)
    return refused


async def _closing_edit_failed(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch, verb: str, user_id: int
) -> tuple[JSON, int]:
    """Alice invites Bob; ``user_id`` presses ``verb`` (Cancel, Decline), which closes the
    invitation, and Discord answers 500 to both edits that say so (the press's own and the
    channel's): the invitation's message and its lobby id, the message still offering its
    buttons."""
    message, lobby_id = await challenge_mille(driver)
    with monkeypatch.context() as failing:
        refused = _edits_fail(driver, failing)
        await driver.dispatch(
            driver.factory.component(message, f"jn:l:{lobby_id}:{verb}", user_id=user_id)
        )
    assert refused, "the closing edit met the server error"
    assert (await stored_lobby(driver, lobby_id)).status == "cancelled"
    assert labels(shown_message(driver, message)) == ["Accept", "Decline", "Start", "Cancel"]
    return message, lobby_id


async def test_a_press_on_a_cancelled_invitation_whose_edit_failed_closes_it(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice cancels her invitation and Discord fails the edit: it kept Accept and Decline
    for good, each press refused. Bob's Accept is now told it was cancelled, and the message
    says so, its buttons gone; no game starts."""
    message, lobby_id = await _closing_edit_failed(driver, monkeypatch, "c", ALICE_ID)
    before = await stored_lobby(driver, lobby_id)
    late = await driver.click(message, f"jn:l:{lobby_id}:a", user_id=BOB_ID)
    assert late.ephemeral and replies(late) == "That invitation was cancelled."
    shown = shown_message(driver, message)
    assert shown["content"].endswith("\n🛑 Cancelled.") and labels(shown) == []
    assert await stored_lobby(driver, lobby_id) == before
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None


async def test_a_press_on_a_declined_invitation_whose_edit_failed_closes_it(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob declines, which closes the invitation (nobody left to play), and Discord fails the
    edit. Alice's Start is refused, and the message now says everyone declined, its buttons
    gone, as Bob's Decline would have shown it."""
    message, lobby_id = await _closing_edit_failed(driver, monkeypatch, "d", BOB_ID)
    late = await driver.click(message, f"jn:l:{lobby_id}:s", user_id=ALICE_ID)
    assert late.ephemeral and replies(late) == "That invitation was cancelled."
    shown = shown_message(driver, message)
    assert shown["content"].endswith("\nEveryone declined.") and labels(shown) == []
    assert f"<@{BOB_ID}> (declined)" in shown["content"]


async def test_a_rematch_invitation_closed_for_another_is_closed_under_a_press(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As in the test above it, Alice's Accept closed the first rematch invitation because
    another took its place, and its message kept its buttons (nothing edits it). The stored
    lobby cannot tell that from its host's Cancel after a start given back, so Bob's press
    closes it with a line true of both."""
    game_id, table = await _finished(driver)
    asked = await driver.click(table, f"jn:r:{game_id}", user_id=BOB_ID)
    invitation = driver.backend.messages[asked.responses[0].message_id or 0]
    tables = running_bot(driver).tables
    first = _lobby_id(invitation)

    async def another_then_busy(**_: Any) -> Any:
        other = replace(await stored_lobby(driver, first), id=0, status="open", message_id=None)
        await tables.store.open_rematch(other, other.created_at)
        raise GameError("A game is already running here.")

    with monkeypatch.context() as busy:
        busy.setattr(tables, "start", another_then_busy)
        await driver.click(invitation, f"jn:l:{first}:a", user_id=ALICE_ID)
    assert labels(shown_message(driver, invitation)) == ["Accept", "Decline", "Start", "Cancel"]
    late = await driver.click(invitation, f"jn:l:{first}:s", user_id=BOB_ID)
    assert late.ephemeral and replies(late) == "That invitation was cancelled."
    shown = shown_message(driver, invitation)
    assert shown["content"].endswith("\nThis invitation is closed.") and labels(shown) == []


async def test_a_start_whose_invitation_edits_fail_still_posts_the_first_table(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's Accept deals the game, and Discord fails both edits that turn the invitation into
    "the game is on" (the press's own and the channel's). The failed edit ended the press
    before the first table was posted; now the table is posted all the same."""
    message, lobby_id = await challenge_mille(driver)
    with monkeypatch.context() as failing:
        refused = _edits_fail(driver, failing)
        accepted = await driver.click(message, f"jn:l:{lobby_id}:a", user_id=BOB_ID)
    assert len(refused) == 2, "both edits met the server error"
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is not None
    assert not accepted.followups, "the press's answer was lost: the table goes to the channel"
    posted = [
        m
        for m in driver.backend.channel_messages(GAMES_CHANNEL_ID)
        if any(a.get("filename") == "table.png" for a in m.get("attachments") or [])
    ]
    assert len(posted) == 1
    assert labels(shown_message(driver, message)) == ["Accept", "Decline", "Start", "Cancel"]


async def test_a_press_on_a_started_invitation_whose_edit_failed_closes_it(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game started and the invitation kept its buttons, both edits having failed. Alice's
    Cancel is refused, and the message now says the game is on, its buttons gone; the game
    plays on."""
    message, lobby_id = await challenge_mille(driver)
    with monkeypatch.context() as failing:
        _edits_fail(driver, failing)
        await driver.click(message, f"jn:l:{lobby_id}:a", user_id=BOB_ID)
    game = await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID)
    assert game is not None
    late = await driver.click(message, f"jn:l:{lobby_id}:c", user_id=ALICE_ID)
    assert late.ephemeral and replies(late) == "That invitation has already started."
    shown = shown_message(driver, message)
    assert shown["content"].endswith("\n✅ The game is on!") and labels(shown) == []
    after = await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID)
    assert after is not None and after.version == game.version


async def _hosted_dragon(driver: InteractionDriver) -> tuple[JSON, int]:
    """Alice hosts an open Dragon table: its message and lobby id."""
    hosted = await driver.slash("host", {"game": "dragon"})
    assert hosted.message is not None, replies(hosted)
    return hosted.message, int(component_id(hosted, "Join").split(":")[2])


async def test_a_press_on_a_cancelled_table_whose_edit_failed_closes_it(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An open table's host cancels it and Discord fails both edits: Carol's Join is told the
    table was cancelled, and the message says so, its buttons gone, Bob's seat still shown."""
    message, lobby_id = await _hosted_dragon(driver)
    await driver.click(message, f"jn:l:{lobby_id}:j", user_id=BOB_ID)
    with monkeypatch.context() as failing:
        refused = _edits_fail(driver, failing)
        await driver.click(message, f"jn:l:{lobby_id}:c", user_id=ALICE_ID)
    assert refused and (await stored_lobby(driver, lobby_id)).status == "cancelled"
    assert "Join" in labels(shown_message(driver, message))
    late = await driver.click(message, f"jn:l:{lobby_id}:j", user_id=CAROL_ID)
    assert late.ephemeral and replies(late) == "That table was cancelled."
    shown = shown_message(driver, message)
    assert shown["content"].endswith("\n🛑 Cancelled.") and labels(shown) == []
    assert f"<@{BOB_ID}>" in shown["content"]


async def test_a_cancel_whose_answer_fails_is_shown_through_the_channel(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice cancels and Discord fails the press's answer (a 500). She was then told "nothing
    was changed", though the invitation was cancelled, and its message kept its buttons; now
    the message says so through the channel, buttons gone, and she is told nothing untrue."""
    message, lobby_id = await challenge_mille(driver)
    with monkeypatch.context() as failing:
        refused = _updates_fail(driver, failing)
        pressed = await driver.click(message, f"jn:l:{lobby_id}:c", user_id=ALICE_ID)
    assert refused and (await stored_lobby(driver, lobby_id)).status == "cancelled"
    assert APOLOGY not in replies(pressed)
    shown = shown_message(driver, message)
    assert shown["content"].endswith("\n🛑 Cancelled.") and labels(shown) == []


async def test_a_join_whose_answer_fails_is_shown_through_the_channel(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob joins an open table and Discord fails the press's answer: he keeps the seat, is not
    told "nothing was changed", and the table's message shows him seated."""
    message, lobby_id = await _hosted_dragon(driver)
    with monkeypatch.context() as failing:
        refused = _updates_fail(driver, failing)
        pressed = await driver.click(message, f"jn:l:{lobby_id}:j", user_id=BOB_ID)
    assert refused
    assert [i.user_id for i in (await stored_lobby(driver, lobby_id)).invited] == [BOB_ID]
    assert APOLOGY not in replies(pressed)
    assert f"<@{BOB_ID}>" in shown_message(driver, message)["content"]
