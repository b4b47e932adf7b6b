"""A command's own deferral that Discord took and still answered with a server error.

In an outage Discord may perform an interaction's answer and still answer 500 (502, 504, 524);
discord.py 2.7 then sends it again by itself, and the second try is refused "already
acknowledged" (40060). Commands that answer "thinking…" first and work after it (/table,
/resign, /hint, /leaderboard, /stats, /replay, /play in a thread, My hand, /settings) let that
refusal end them: the work was lost, the "thinking…" stayed until Discord marked it failed,
and the sentence saying Discord failed was itself refused "already acknowledged". Now such a
deferral counts as taken and the command posts its answer, once; a deferral Discord did not
take (the interaction expired) still ends the command, as before.

Driven through the fake Discord with discord.py's own webhook adapter
(``InteractionDriver.library_webhooks``), so the second try and its refusal are the library's.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    ANSWER,
    COMPUTER,
    bot_lines_with,
    component_id,
    dispatched_past_a_server_error,
    follow_up_refused_once,
    left_thinking,
    public_table,
    replies,
    stacked_mille,
)
from tests.discord.backend import (
    BOB_ID,
    GAMES_CHANNEL_ID,
    GUILD_ID,
    JSON,
    InteractionResult,
)
from tests.discord.payloads import InteractionDriver

pytestmark = pytest.mark.usefixtures("quick_second_tries")


def _told_already_answered(driver: InteractionDriver) -> None:
    """The deferral was taken, answered 500, tried again and refused 40060: no more answers."""
    callbacks = [r for r in driver.requests if r.matches("POST", ANSWER)]
    assert [r.status for r in callbacks][-2:] == [500, 400], [r.status for r in callbacks]


def _nothing_thinks(driver: InteractionDriver) -> None:
    left = left_thinking(driver)
    assert not left, f"a 'thinking…' was left: {left}"


def _said(result: InteractionResult) -> str:
    """What the member read, and that it was not Discord's failure."""
    said = replies(result)
    assert "Discord did not take" not in said, said
    return said


async def _resigned_game(driver: InteractionDriver) -> None:
    """A game between Alice and Bob finished the quickest way (Bob resigns before a move), so
    there is a result to rank and a game to replay."""
    await stacked_mille(driver)
    await running_bot(driver).tables.leave(channel_id=GAMES_CHANNEL_ID, user_id=BOB_ID)


def _files(result: InteractionResult) -> list[str]:
    return [a["filename"] for f in result.followups for a in f.attachments]


async def test_a_table_repost_whose_thinking_discord_took_then_failed_posts_the_table(
    driver: InteractionDriver,
) -> None:
    """/table: its "thinking…" is taken and answered 500. Before the fix the 40060 ended the
    command and no table came; now the placeholder becomes the table, the one remembered."""
    await stacked_mille(driver)
    payload = driver.factory.slash("table", {})
    result = await dispatched_past_a_server_error(driver, payload)
    _told_already_answered(driver)
    _said(result)
    table = public_table(result)
    assert result.original_message is not None
    assert table.message_id == int(result.original_message["id"]), "the placeholder's place"
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert stored.message_id == table.message_id
    _nothing_thinks(driver)


async def test_a_resignation_whose_thinking_discord_took_then_failed_is_made_and_shown(
    driver: InteractionDriver,
) -> None:
    """/resign against the computer: before the fix the member stayed seated, told nothing
    (the failure's own sentence refused 40060). Now they leave and the final table is shown."""
    started = await stacked_mille(driver, COMPUTER)
    payload = driver.factory.slash("resign", {})
    result = await dispatched_past_a_server_error(driver, payload)
    _told_already_answered(driver)
    _said(result)
    game = await running_bot(driver).store.get_game(started.game.id)
    assert game is not None and game.status == "finished"
    assert "left the game" in (public_table(result).content or "")
    _nothing_thinks(driver)


async def test_a_hint_whose_thinking_discord_took_then_failed_is_given(
    driver: InteractionDriver,
) -> None:
    """/hint: its private "thinking…" is taken and answered 500; the hint still comes,
    privately."""
    await stacked_mille(driver, COMPUTER)
    payload = driver.factory.slash("hint", {})
    result = await dispatched_past_a_server_error(driver, payload)
    _told_already_answered(driver)
    assert "💡" in _said(result), replies(result)
    assert all(f.ephemeral for f in result.followups)
    _nothing_thinks(driver)


@pytest.mark.parametrize(
    ("command", "options", "image"),
    [
        ("leaderboard", {"game": "mille"}, "leaderboard.png"),
        ("stats", {"game": "mille"}, "stats.png"),
        ("replay", {}, "replay.gif"),
    ],
)
async def test_a_boards_thinking_discord_took_then_failed_becomes_the_board(
    driver: InteractionDriver, command: str, options: JSON, image: str
) -> None:
    """/leaderboard, /stats, /replay: the "thinking…" is taken and answered 500. The board,
    card or replay replaces it, once."""
    await _resigned_game(driver)
    payload = driver.factory.slash(command, options)
    result = await dispatched_past_a_server_error(driver, payload)
    _told_already_answered(driver)
    _said(result)
    assert _files(result) == [image], _files(result)
    assert result.original_message is not None
    assert result.followups[0].message_id == int(result.original_message["id"])
    _nothing_thinks(driver)


async def test_a_thread_games_thinking_discord_took_then_failed_opens_the_game(
    driver: InteractionDriver,
) -> None:
    """/play thread:True answers "thinking…" before opening the thread; Discord takes it and
    answers 500. Before the fix no thread and no game; now the game is in its thread and the
    note says where, in the placeholder's place."""
    payload = driver.factory.slash("play", {"game": "solo", "thread": True})
    result = await dispatched_past_a_server_error(driver, payload)
    _told_already_answered(driver)
    assert "Your game is in" in _said(result), replies(result)
    (game,) = await running_bot(driver).store.active_games()
    assert game.channel_id != GAMES_CHANNEL_ID
    notes = [m for m in driver.messages.values() if "Your game is in" in str(m.get("content"))]
    assert len(notes) == 1, [m["content"] for m in notes]
    _nothing_thinks(driver)


async def test_a_hand_whose_thinking_discord_took_then_failed_is_shown(
    driver: InteractionDriver,
) -> None:
    """My hand: its private "thinking…" is taken and answered 500; the hand still comes,
    privately."""
    started = await stacked_mille(driver)
    table = public_table(await driver.slash("table", {}))
    assert table.message_id is not None
    message = driver.messages[table.message_id]
    payload = driver.factory.component(message, f"jn:h:{started.game.id}")
    result = await dispatched_past_a_server_error(driver, payload)
    _told_already_answered(driver)
    _said(result)
    assert _files(result) == ["hand.png"], _files(result)
    assert all(f.ephemeral for f in result.followups)
    _nothing_thinks(driver)


async def test_settings_whose_thinking_discord_took_then_failed_say_what_was_stored(
    driver: InteractionDriver,
) -> None:
    """/settings turn_timer: the private "thinking…" (games are given timers behind it) is
    taken and answered 500. The settings are stored and said, privately."""
    payload = driver.factory.slash("settings", {"turn_timer": 5})
    result = await dispatched_past_a_server_error(driver, payload)
    _told_already_answered(driver)
    assert "5 min per turn" in _said(result), replies(result)
    assert all(f.ephemeral for f in result.followups)
    saved = await running_bot(driver).store.guild_settings(GUILD_ID)
    assert saved.turn_seconds == 300
    _nothing_thinks(driver)


@pytest.mark.logs_errors
async def test_a_deferral_discord_did_not_take_still_ends_the_command(
    driver: InteractionDriver, expire: Callable[[JSON], None]
) -> None:
    """/leaderboard whose interaction expired (Discord answers its deferral "Unknown
    interaction", 10062): nothing was taken, so the command stops there, as before: no board
    is drawn or sent, and nothing counts as answered."""
    await _resigned_game(driver)
    payload = driver.factory.slash("leaderboard", {"game": "mille"})
    expire(payload)
    expired = str(payload["token"])
    with driver.library_webhooks():
        result = await driver.dispatch(payload)
    assert not result.followups, replies(result)
    assert not [r for r in driver.requests if expired in r.path and "/webhooks/" in r.path]


# --- deferrals that already counted as taken, now through the same path ----------------------


async def test_a_plays_thinking_discord_took_then_failed_becomes_the_first_table(
    driver: InteractionDriver,
) -> None:
    """/play against the computer answers "thinking…" before the computer opens; Discord
    takes it and answers 500. The first table takes the placeholder's place, once."""
    payload = driver.factory.slash("play", {"game": "mille", "level": "normal"})
    result = await dispatched_past_a_server_error(driver, payload)
    _told_already_answered(driver)
    _said(result)
    table = public_table(result)
    assert result.original_message is not None
    assert table.message_id == int(result.original_message["id"])
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert stored.message_id == table.message_id
    _nothing_thinks(driver)


async def test_an_accepts_deferral_discord_took_then_failed_keeps_the_invitation(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob accepts Alice's Ticket to Ride challenge with a computer seated: the press is
    deferred (silently: a button's) before the computer's opening choice, and Discord takes it
    and answers 500; then it fails the first table's follow-up before posting it. The
    deferral counts as a button's, not a "thinking…" (taken for one, the invitation, the
    message pressed, would be found as the table "posted anyway", or deleted as a placeholder
    left thinking): the invitation stays and says the game is on, and the first table is
    posted once, through the channel."""
    options = {"game": "ttr", "member": BOB_ID, "computers": 1, "level": "normal"}
    invitation = await driver.slash("challenge", options)
    assert invitation.message is not None
    payload = driver.factory.component(
        invitation.message, component_id(invitation, "Accept"), user_id=BOB_ID
    )
    refused = follow_up_refused_once(driver, monkeypatch, str(payload["token"]))
    result = await dispatched_past_a_server_error(driver, payload)
    _told_already_answered(driver)
    _said(result)
    assert refused, "the first table's follow-up met its server error"
    shown = driver.messages.get(int(invitation.message["id"]))
    assert shown is not None, "the invitation was deleted"
    assert "The game is on" in str(shown["content"]), shown["content"]
    tables = [
        m
        for m in driver.messages.values()
        if any(a.get("filename") == "table.png" for a in m.get("attachments") or [])
    ]
    assert len(tables) == 1, [m["id"] for m in tables]
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert stored.message_id == int(tables[0]["id"])
    _nothing_thinks(driver)


def test_every_deferral_goes_through_the_shared_path() -> None:
    """``interaction.response.defer`` is called in ``cogs.ui.defer`` only: a command deferring
    by itself met the 40060 above unread (nine did, one of them under each test here)."""
    raw = bot_lines_with("response.defer(", except_in="cogs/ui.py")
    assert not raw, raw
