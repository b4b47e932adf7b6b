"""A public follow-up Discord posted and then answered with a server error is not posted again.

In an outage Discord may perform a request and still answer 500 (or 502, 504, 524).
discord.py 2.7 then sends the request again by itself, unconditionally
(``AsyncWebhookAdapter.request``: any 5xx, up to five tries). A channel message carries a nonce
Discord is asked to enforce, so the copy is refused (``test_table_posts_review``); an
interaction's follow-up (an execution of its webhook) carries none, so each try posted the
table again. Before the fix, a member's move, its computer's answer or a new game's first
table after such an answer showed in the channel twice.

Driven through the fake Discord with discord.py's own webhook adapter
(``InteractionDriver.library_webhooks``), so its retries are the library's, not the driver's.
"""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest
from aiohttp import web

import cogs.moving
from cogs import follow_ups
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    ANSWER,
    COMPUTER,
    channel_posts,
    component_id,
    dispatched_past_a_server_error,
    follow_up_refused_once,
    hand_press,
    left_thinking,
    replies,
    stacked_mille,
)
from tests.cogs.test_mille_hands import alice_at_700
from tests.discord.backend import BOB_ID, GAMES_CHANNEL_ID
from tests.discord.fake_discord import point_discord_at
from tests.discord.payloads import InteractionDriver

pytestmark = pytest.mark.usefixtures("quick_second_tries")

FOLLOW_UP = r"/webhooks/\d+/[^/]+"
"""An interaction's follow-up: an execution of its webhook."""


def _follow_ups_sent(driver: InteractionDriver) -> int:
    return len([r for r in driver.requests if r.matches("POST", FOLLOW_UP)])


async def test_the_library_sends_a_follow_up_again_after_a_server_error(
    driver: InteractionDriver,
) -> None:
    """What the fix stands on: discord.py's own webhook adapter, answered 500 for a follow-up
    Discord performed, sends it again and posts a second message. If a later discord.py stops
    doing so, this says it (and the fix may go)."""
    await stacked_mille(driver)
    payload = driver.factory.slash("table", {})
    driver.backend.fail_after("POST", FOLLOW_UP)
    with driver.library_webhooks():
        # The bare library: no cog, the interaction answered by hand.
        interaction_id = driver.backend.register_interaction(payload)
        webhook = discord.Webhook.from_state(
            {"id": driver.backend.application_id, "type": 3, "token": payload["token"]},
            running_bot(driver)._connection,
        )
        driver.backend.handle(
            "POST", f"/interactions/{interaction_id}/{payload['token']}/callback", body={"type": 5}
        )
        await webhook.send("Once.", wait=True)
    said = [m for m in driver.messages.values() if m.get("content") == "Once."]
    assert len(said) == 2, "discord.py 2.7 sends a follow-up again after a 500"


async def test_a_hand_button_whose_table_discord_posted_then_failed_is_posted_once(
    driver: InteractionDriver,
) -> None:
    """Alice plays Go from her hand against the computer; Discord posts the table's
    follow-up and answers 500. The table shows once, and it is the one remembered."""
    bot = running_bot(driver)
    started = await stacked_mille(driver, COMPUTER)
    payload = await hand_press(driver, started.game.id, "Go")
    sent = _follow_ups_sent(driver)
    await dispatched_past_a_server_error(driver, payload, FOLLOW_UP)
    posted = channel_posts(driver, "table.png", "Alice plays Go")
    assert len(posted) == 1, [m["id"] for m in posted]
    assert _follow_ups_sent(driver) == sent + 1, "the follow-up was not sent again"
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert stored.message_id == int(posted[0]["id"])


async def test_a_typed_move_whose_table_discord_posted_then_failed_is_posted_once(
    driver: InteractionDriver,
) -> None:
    """Alice's /move: its "thinking…" becomes the table (the first follow-up edits it), then
    Discord answers 500. Before the fix the library's second try posted the table again
    below it. The table shows once, in place of the placeholder, remembered; no "thinking…"
    is left."""
    bot = running_bot(driver)
    await stacked_mille(driver, COMPUTER)
    payload = driver.factory.slash("move", {"action": "play go"})
    result = await dispatched_past_a_server_error(driver, payload, FOLLOW_UP)
    posted = channel_posts(driver, "table.png", "Alice plays Go")
    assert len(posted) == 1, [m["id"] for m in posted]
    assert result.original_message is not None
    assert int(posted[0]["id"]) == int(result.original_message["id"]), "the placeholder's place"
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert stored.message_id == int(posted[0]["id"])
    assert not left_thinking(driver)


async def test_a_hand_end_discord_posted_then_failed_is_followed_by_one_table(
    driver: InteractionDriver,
) -> None:
    """Alice stops at 700: the hand's end goes out first, posted and answered 500; then hand 2's
    table. Each shows once."""
    await alice_at_700(driver)
    before = {int(m["id"]) for m in channel_posts(driver, "table.png")}
    payload = driver.factory.slash("move", {"action": "extend no"})
    await dispatched_past_a_server_error(driver, payload, FOLLOW_UP)
    assert len(channel_posts(driver, "score.png", "Hand 1 is over")) == 1
    tables = [m for m in channel_posts(driver, "table.png") if int(m["id"]) not in before]
    assert len(tables) == 1, [m["content"] for m in tables]


async def test_a_second_follow_up_discord_posted_then_failed_is_posted_once(
    driver: InteractionDriver,
) -> None:
    """The same, the hand's end going through and hand 2's table (a follow-up of its own,
    not the placeholder) posted and answered 500: one table."""
    await alice_at_700(driver)
    before = {int(m["id"]) for m in channel_posts(driver, "table.png")}
    payload = driver.factory.slash("move", {"action": "extend no"})
    # The hand's end goes through.
    await dispatched_past_a_server_error(driver, payload, FOLLOW_UP, skip=1)
    assert len(channel_posts(driver, "score.png", "Hand 1 is over")) == 1
    tables = [m for m in channel_posts(driver, "table.png") if int(m["id"]) not in before]
    assert len(tables) == 1, [m["content"] for m in tables]


async def test_a_new_games_first_table_discord_posted_then_failed_is_posted_once(
    driver: InteractionDriver,
) -> None:
    """/play against the computer: the first table's follow-up is posted and answered 500.
    One first table."""
    payload = driver.factory.slash("play", {"game": "mille", "level": "normal"})
    await dispatched_past_a_server_error(driver, payload, FOLLOW_UP)
    assert len(channel_posts(driver, "table.png")) == 1


@pytest.mark.parametrize("status", [502, 504, 524])
async def test_other_server_errors_after_a_post_are_not_posted_again(
    driver: InteractionDriver, status: int
) -> None:
    """The other answers discord.py retries (502, 504, 524; any 5xx for a webhook) likewise."""
    started = await stacked_mille(driver, COMPUTER)
    payload = await hand_press(driver, started.game.id, "Go")
    await dispatched_past_a_server_error(driver, payload, FOLLOW_UP, status=status)
    assert len(channel_posts(driver, "table.png", "Alice plays Go")) == 1


async def test_an_accepted_challenges_first_table_discord_posted_then_failed_is_posted_once(
    driver: InteractionDriver,
) -> None:
    """Bob accepts Alice's challenge: the press deals the game, and its first table's follow-up
    is posted and answered 500. One first table."""
    invitation = await driver.slash("challenge", {"game": "mille", "member": BOB_ID})
    driver.backend.fail_after("POST", FOLLOW_UP)
    with driver.library_webhooks():
        await driver.click(invitation, component_id(invitation, "Accept"), user_id=BOB_ID)
    assert len(channel_posts(driver, "table.png")) == 1


async def test_a_thread_games_note_discord_posted_then_failed_is_posted_once(
    driver: InteractionDriver,
) -> None:
    """/play thread:True: the note "Your game is in #…" replaces the "thinking…" the thread
    was opened under (an edit of it), and Discord makes it and answers 500. The note shows
    once, in that answer; the table is in the thread."""
    edit = r"/webhooks/\d+/[^/]+/messages/@original"
    payload = driver.factory.slash("play", {"game": "solo", "thread": True})
    await dispatched_past_a_server_error(driver, payload, edit, method="PATCH")
    edits = [r.status for r in driver.requests if r.matches("PATCH", edit)]
    assert edits == [500, 200], "made, failed, made again by discord.py"
    notes = [m for m in driver.messages.values() if "Your game is in" in str(m.get("content"))]
    assert len(notes) == 1, [m["content"] for m in notes]
    (game,) = await running_bot(driver).store.active_games()
    assert game.channel_id != GAMES_CHANNEL_ID
    assert int(notes[0]["id"]) == game.channel_id, "the answer the thread is under"
    assert len([m for m in driver.messages.values() if int(m["channel_id"]) == game.channel_id])


async def test_a_follow_up_discord_failed_without_posting_reaches_the_channel_once(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord answers 500 before posting the table's follow-up: nothing is found, so the
    table goes to the channel (whose message carries a nonce, so the library's own tries there
    cannot post it twice), once, and is the one remembered. Before, the library sent the
    follow-up again, which was right only because nothing had been posted."""
    bot = running_bot(driver)
    started = await stacked_mille(driver, COMPUTER)
    payload = await hand_press(driver, started.game.id, "Go")
    refused = follow_up_refused_once(driver, monkeypatch, str(payload["token"]))
    with driver.library_webhooks():
        await driver.dispatch(payload)
    assert refused, "the follow-up met its server error"
    posted = channel_posts(driver, "table.png", "Alice plays Go")
    assert len(posted) == 1, [m["id"] for m in posted]
    assert not posted[0].get("interaction_metadata"), "posted through the channel"
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert stored.message_id == int(posted[0]["id"])


async def test_a_typed_moves_answer_discord_took_then_failed_leaves_no_thinking_behind(
    driver: InteractionDriver,
) -> None:
    """Alice's /move: Discord takes its "thinking…" and answers 500; discord.py's second try is
    told the interaction was answered already. Before the fix the answer counted as lost: the
    table went to the channel and the "thinking…" stayed, thinking, until Discord marked it
    failed. Now the placeholder becomes the table, once."""
    bot = running_bot(driver)
    await stacked_mille(driver, COMPUTER)
    payload = driver.factory.slash("move", {"action": "play go"})
    result = await dispatched_past_a_server_error(driver, payload)
    posted = channel_posts(driver, "table.png", "Alice plays Go")
    assert len(posted) == 1, [m["id"] for m in posted]
    assert result.original_message is not None
    assert int(posted[0]["id"]) == int(result.original_message["id"])
    assert not left_thinking(driver)
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert stored.message_id == int(posted[0]["id"])


async def test_a_board_discord_posted_then_failed_is_posted_once(
    driver: InteractionDriver,
) -> None:
    """/leaderboard: its image replaces the "thinking…", posted and answered 500. One board
    (before the fix, two: the library's second try posted it again below)."""
    payload = driver.factory.slash("leaderboard", {"game": "mille"})
    await dispatched_past_a_server_error(driver, payload, FOLLOW_UP)
    boards = [
        m
        for m in driver.messages.values()
        if any(a.get("filename") == "leaderboard.png" for a in m.get("attachments") or [])
    ]
    assert len(boards) == 1, [m["id"] for m in boards]


async def test_a_board_discord_failed_without_posting_is_sent_again_whole(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/leaderboard, Discord answering 500 before posting it: nothing is found, and the board is
    sent again (as discord.py did by itself), its image whole, once."""
    refused = follow_up_refused_once(driver, monkeypatch)
    with driver.library_webhooks():
        await driver.slash("leaderboard", {"game": "mille"})
    assert refused
    (board,) = [
        m
        for m in driver.messages.values()
        if any(a.get("filename") == "leaderboard.png" for a in m.get("attachments") or [])
    ]
    (attachment,) = board["attachments"]
    assert (driver.backend.attachment_bytes(attachment["url"]) or b"").startswith(b"\x89PNG")


async def test_over_a_real_session_a_follow_ups_server_error_is_raised_at_once() -> None:
    """The adapter ``send_once`` uses, over aiohttp itself (a server on this machine answering
    every request 502): the follow-up is sent once and its error raised, its response let go;
    discord.py alone sends it five times."""
    seen: list[str] = []

    async def failing(request: web.Request) -> web.Response:
        seen.append(request.method)
        return web.json_response({"message": "502: Bad Gateway", "code": 0}, status=502)

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", failing)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    restore = point_discord_at(f"http://127.0.0.1:{port}")
    try:
        async with aiohttp.ClientSession() as session:
            webhook = discord.Webhook.partial(1, "token", session=session)
            with pytest.raises(discord.DiscordServerError), follow_ups._no_second_try():
                await webhook.send("Once.", wait=True)
    finally:
        restore()
        await runner.cleanup()
    assert seen == ["POST"]


async def test_an_invitations_thread_discord_opened_then_failed_holds_the_game(
    driver: InteractionDriver,
) -> None:
    """Alice challenges Bob in a thread of its own; Bob accepts, and Discord opens the thread
    under the invitation but answers 500. discord.py's second try is told the message has a
    thread already (160004): before the fix the start was refused ("I could not create a
    thread here (is the Create Public Threads permission missing?)"), at every press after it
    too. Now the game starts in that thread, its first table there."""
    invitation = await driver.slash(
        "challenge", {"game": "mille", "member": BOB_ID, "thread": True}
    )
    driver.backend.fail_after("POST", r"/channels/\d+/messages/\d+/threads")
    with driver.library_webhooks(), driver.library_http():
        accepted = await driver.click(
            invitation, component_id(invitation, "Accept"), user_id=BOB_ID
        )
    assert "could not create a thread" not in " ".join(str(f.content) for f in accepted.followups)
    (thread,) = driver.backend.threads()
    assert int(thread["id"]) == int(invitation.message["id"])  # type: ignore[index]
    (game,) = await running_bot(driver).store.active_games()
    assert game.channel_id == int(thread["id"])
    tables = [
        m
        for m in driver.messages.values()
        if int(m["channel_id"]) == game.channel_id
        and any(a.get("filename") == "table.png" for a in m.get("attachments") or [])
    ]
    assert len(tables) == 1


async def test_a_refusal_after_an_answer_discord_took_then_failed_reaches_the_member(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's /move out of turn waits for the channel and is acknowledged ("thinking…"); Discord
    takes it and answers 500, and discord.py's second try is told it was answered (40060).
    Then the move is refused. Before the fix discord.py still held the interaction unanswered,
    so the refusal went as an answer of its own, was refused in turn (40060) and never
    reached Bob. Now it is a follow-up, private, and nothing public stays."""
    monkeypatch.setattr(cogs.moving, "ACKNOWLEDGE_AFTER", 0)  # acknowledged before the refusal
    await stacked_mille(driver)
    payload = driver.factory.slash("move", {"action": "play go"}, user_id=BOB_ID)
    result = await dispatched_past_a_server_error(driver, payload)
    callbacks = [r for r in driver.requests if r.matches("POST", ANSWER)]
    assert [r.status for r in callbacks] == [500, 400], "acknowledged, then told so, and no more"
    said = [r for r in result.responses if r.content]
    assert said, "the refusal reached Bob"
    assert all(r.ephemeral for r in said), replies(result)
    assert "turn" in replies(result).lower(), replies(result)
    assert not left_thinking(driver)


async def test_a_buttons_refusal_after_an_answer_discord_took_then_failed_reaches_the_member(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same for a button: Alice presses Go twice (a double click) while the channel is
    busy; each press is acknowledged, Discord takes each acknowledgement and answers 500 (then
    40060). The first plays Go; the second is refused. Before the fix that refusal was refused
    40060 too and never reached her; now it does, privately."""
    monkeypatch.setattr(cogs.moving, "ACKNOWLEDGE_AFTER", 0)
    bot = running_bot(driver)
    started = await stacked_mille(driver)
    first = await hand_press(driver, started.game.id, "Go")
    second = {**first, "id": str(driver.backend.ids.next()), "token": f"{first['token']}-again"}
    driver.backend.fail_after("POST", ANSWER, times=2)
    with driver.library_webhooks():
        async with bot.tables.lock(GAMES_CHANNEL_ID):  # the channel is busy: both wait
            presses = [asyncio.ensure_future(driver.dispatch(p)) for p in (first, second)]
            for _ in range(100):
                told = [r for r in driver.requests if r.matches("POST", ANSWER)]
                if [r.status for r in told].count(400) == 2:
                    break
                await asyncio.sleep(0.1)
        results = [await p for p in presses]
    moves = await bot.store.moves(started.game.id)
    assert [m.action for m in moves if m.seat == 0] == ["play go"]
    refused = results[1]
    said = [r for r in refused.responses if r.content]
    assert said, "the refusal reached Alice"
    assert all(r.ephemeral for r in said), replies(refused)
    assert "already" in replies(refused).lower(), replies(refused)
