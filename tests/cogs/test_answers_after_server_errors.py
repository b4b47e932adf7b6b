"""Answers Discord performed and still answered with a server error, other than deferrals.

In an outage Discord may perform an interaction's answer and still reply 500 (502, 504, 524);
discord.py 2.7 then sends it again by itself. An answer given at once (a message, or a press's
edit of its message) is refused at the second try "already acknowledged" (40060): the member
reads the first, but the refusal escaped the commands that answered by themselves, logged as
an error of the bot, and the sentence saying Discord failed was refused in turn; an
invitation was closed as never posted while members read it. Now such an answer counts as
given (``cogs.ui.answer``, ``answer_in_place``). A private follow-up after a deferral (a hint,
a hand, the settings) was sent again by discord.py and shown twice; it is now found in the
"thinking…" it replaced (``cogs.follow_ups.answer_once``).

Driven through the fake Discord with discord.py's own webhook adapter
(``InteractionDriver.library_webhooks``), so the second tries are the library's.
"""

from __future__ import annotations

from typing import Any, cast

import discord
import pytest

import cogs.moving
from cogs.follow_ups import answer_once
from cogs.play import ABORTED_BY_ALL
from cogs.ui import defer
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    ANSWER,
    COMPUTER,
    alice_against,
    bot_lines_with,
    component_id,
    dispatched_past_a_server_error,
    left_thinking,
    replies,
    stacked_mille,
)
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    GAMES_CHANNEL_ID,
    GUILD_ID,
    JSON,
    HTTPError,
    RecordedRequest,
)
from tests.discord.payloads import InteractionDriver

pytestmark = pytest.mark.usefixtures("quick_second_tries")

FOLLOW_UP = r"/webhooks/\d+/[^/]+"
"""An interaction's follow-up: an execution of its webhook."""
HISTORY = rf"/channels/{GAMES_CHANNEL_ID}/messages"
"""The channel's latest messages, read to find a public follow-up Discord posted."""


def _answered_once(driver: InteractionDriver) -> None:
    """The answer was taken, replied 500, tried again and refused 40060, and nothing more was
    answered: no "Discord did not take…" sent after it (refused 40060 in turn, before)."""
    callbacks = [r for r in driver.requests if r.matches("POST", ANSWER)]
    assert [r.status for r in callbacks][-2:] == [500, 400], [r.status for r in callbacks]
    assert not [r for r in driver.requests if r.matches("POST", FOLLOW_UP)], "nothing followed"


def _saying(driver: InteractionDriver, words: str) -> list[JSON]:
    return [m for m in driver.messages.values() if words in str(m.get("content"))]


def _private(message: JSON) -> bool:
    return bool(int(message.get("flags") or 0) & discord.MessageFlags.ephemeral.flag)


# --- answers given at once --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "words", "private"),
    [("abort", "🛑 Game aborted with no result.", False), ("history", "Recent games of", True)],
)
async def test_an_answer_discord_took_then_failed_counts_as_given(
    driver: InteractionDriver, command: str, words: str, private: bool
) -> None:
    """/abort alone against the computer (public: "🛑 …", the game ended before it) and
    /history (private): Discord posts the answer and replies 500. Before the fix discord.py's
    second try, refused 40060, escaped the command: an error logged with its traceback, and
    "Discord did not take the bot's answer" refused in turn. Now the answer counts as given,
    once, and the bot says nothing more."""
    started = await stacked_mille(driver, COMPUTER)
    payload = driver.factory.slash(command, {})
    await dispatched_past_a_server_error(driver, payload)
    _answered_once(driver)
    (said,) = _saying(driver, words)
    assert _private(said) is private
    game = await running_bot(driver).store.get_game(started.game.id)
    assert game is not None and game.status == ("active" if private else "aborted")


async def test_a_press_answered_in_place_discord_took_then_failed_counts_as_given(
    driver: InteractionDriver,
) -> None:
    """Bob agrees to Alice's abort request: his press turns the request into "aborted by
    everyone" (an edit of the pressed message), which Discord makes and replies 500. Before
    the fix the 40060 of discord.py's second try escaped the button (an error logged, the
    failure's sentence refused); now the edit counts as made."""
    tables = running_bot(driver).tables
    await alice_against(driver)
    asked = await driver.slash("abort", {}, user_id=ALICE_ID)
    assert asked.message is not None, replies(asked)
    payload = driver.factory.component(asked.message, component_id(asked, "Agree"), user_id=BOB_ID)
    await dispatched_past_a_server_error(driver, payload)
    _answered_once(driver)
    request = driver.messages[int(asked.message["id"])]
    assert request["content"] == ABORTED_BY_ALL
    assert not request.get("components")
    assert await tables.store.active_game(GAMES_CHANNEL_ID) is None


async def test_an_invitation_discord_posted_then_failed_stays_open(
    driver: InteractionDriver,
) -> None:
    """Alice challenges Bob; Discord posts the invitation and replies 500, and discord.py's
    second try is refused 40060. Before the fix the invitation was closed as never posted
    while Bob read it, and his Accept was refused; now it stays open, its message remembered,
    and his Accept starts the game."""
    payload = driver.factory.slash("challenge", {"game": "mille", "member": BOB_ID})
    await dispatched_past_a_server_error(driver, payload)
    _answered_once(driver)
    (invitation,) = _saying(driver, "invites")
    store = running_bot(driver).store
    (lobby,) = await store.open_lobbies_of(ALICE_ID, GUILD_ID, 0.0)
    assert lobby.message_id == int(invitation["id"])
    accepted = await driver.click(invitation, f"jn:l:{lobby.id}:a", user_id=BOB_ID)
    assert "The game is on" in str(driver.messages[lobby.message_id]["content"]), replies(accepted)
    assert await store.active_game(GAMES_CHANNEL_ID) is not None


# --- private follow-ups -----------------------------------------------------------------------


async def test_a_private_answer_discord_posted_then_failed_shows_once(
    driver: InteractionDriver,
) -> None:
    """/hint: its private "thinking…" becomes the hint, which Discord posts and replies 500.
    Before the fix discord.py sent it again and the member read the hint twice (the placeholder
    and a second message); now it is found in the placeholder, not sent again."""
    await stacked_mille(driver, COMPUTER)
    payload = driver.factory.slash("hint", {})
    result = await dispatched_past_a_server_error(driver, payload, FOLLOW_UP)
    hints = _saying(driver, "💡")
    assert len(hints) == 1, [m["id"] for m in hints]
    assert _private(hints[0])
    assert result.original_message is not None
    assert int(hints[0]["id"]) == int(result.original_message["id"]), "the placeholder's place"
    sent = [r for r in driver.requests if r.matches("POST", FOLLOW_UP)]
    assert [r.status for r in sent] == [500], "not sent again"


async def test_a_private_answer_with_no_placeholder_is_sent_again_rather_than_lost(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Guard of the choice made for a private follow-up that replaces no "thinking…": Bob's
    /move out of turn is acknowledged ("thinking…"), refused, its placeholder taken back, and
    the refusal, a message of its own, is posted and replied 500. Only Bob sees it, in no
    channel's history, so it cannot be found: it is sent again (as discord.py did), shown
    twice rather than lost, and the channel is not read for it."""
    monkeypatch.setattr(cogs.moving, "ACKNOWLEDGE_AFTER", 0)  # acknowledged before the refusal
    await stacked_mille(driver)
    payload = driver.factory.slash("move", {"action": "play go"}, user_id=BOB_ID)
    result = await dispatched_past_a_server_error(driver, payload, FOLLOW_UP)
    refusals = [m for m in driver.messages.values() if "turn" in str(m.get("content")).lower()]
    assert refusals, replies(result)
    assert all(_private(m) for m in refusals), [m["content"] for m in refusals]
    assert not [r for r in driver.requests if r.matches("GET", HISTORY)], "history read"
    assert not left_thinking(driver)


# --- one path for every answer ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "home"),
    [
        ("response.send_message(", "ui.py"),
        ("response.edit_message(", "ui.py"),
        ("followup.send(", "follow_ups.py"),
    ],
)
def test_every_answer_goes_through_the_shared_path(call: str, home: str) -> None:
    """An interaction is answered in ``cogs.ui`` only (``answer``, ``answer_in_place``), and
    followed up in ``cogs.follow_ups`` only (``send_once``, ``answer_once``): an answer a
    command gave by itself met the 40060 above unread, and a follow-up of its own was shown
    twice."""
    raw = bot_lines_with(call, except_in=f"cogs/{home}")
    assert not raw, raw


async def test_a_second_private_answer_discord_failed_is_not_taken_for_the_first(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a private "thinking…" became a command's answer, a second answer (a refusal, which
    may follow now that refusals go through ``answer_once``) is failed by Discord before it is
    posted. The placeholder no longer thinks, but it says the first answer: the second is not
    taken for it (it was, and never shown), and is sent again."""
    payload = driver.factory.slash("table", {})
    driver.backend.register_interaction(payload)
    serve = driver.backend._execute_webhook
    refused: list[str] = []

    def execute(record: RecordedRequest, application_id: str, token: str) -> tuple[int, Any]:
        sent = [r for r in driver.requests if r.matches("POST", FOLLOW_UP)]
        if len(sent) == 2 and not refused:  # the second answer, before it is posted
            refused.append(token)
            raise HTTPError(500, "Internal Server Error", 0)
        return serve(record, application_id, token)

    monkeypatch.setattr(driver.backend, "_execute_webhook", execute)
    with driver.library_webhooks():
        # Made within: it takes the library's session as it is made.
        interaction: discord.Interaction[Any] = discord.Interaction(
            data=cast(Any, payload), state=running_bot(driver)._connection
        )
        await defer(interaction, thinking=True, ephemeral=True)
        await answer_once(interaction, content="The first answer.", ephemeral=True)
        await answer_once(interaction, content="The second answer.", ephemeral=True)
    assert refused, "the second answer met its server error"
    assert len(_saying(driver, "The first answer.")) == 1
    (second,) = _saying(driver, "The second answer.")
    assert _private(second)
