"""Posting the table after a move, when Discord answers out of order or fails part way.

Found by a review: two tables of one game posted at the same moment were remembered in the order
Discord answered them, so the older could be remembered as the newest (/mygames and /history then
linked to it); a follow-up refused after a good acknowledgement lost the table although the move
was stored; and a front end's answer that failed with anything other than an HTTP error (a lost
connection) came out of ``Tables.start`` and ``Tables.move``, after the game was stored and before
the computers played.

Driven through the fake Discord: a follow-up is held back, refused, or its acknowledgement fails
with a dropped connection.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import aiohttp
import discord
import pytest
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.store.base import SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import hand_press, public_table, stacked_mille
from tests.cogs.test_mille_hands import alice_at_700
from tests.discord.backend import (
    GAMES_CHANNEL_ID,
    JSON,
    HTTPError,
    RecordedRequest,
)
from tests.discord.payloads import InteractionDriver

COMPUTER = SeatRecord(1, "Computer", policy="normal")
PNG = b"\x89PNG\r\n\x1a\n"

Held = tuple[asyncio.Event, asyncio.Event]
"""(reached, release): a held follow-up has reached Discord; let it through."""


@pytest.fixture
def hold(driver: InteractionDriver) -> Iterator[Callable[[JSON], Held]]:
    """Hold an interaction's follow-ups back until released, as Discord answering slowly.

    Patched over the driver's own patch (and put back before the driver removes its own)."""
    held: dict[str, Held] = {}
    serve = AsyncWebhookAdapter.request

    async def request(adapter: AsyncWebhookAdapter, route: Any, *args: Any, **kw: Any) -> Any:
        for token, (reached, release) in held.items():
            if route.method == "POST" and route.url.endswith(f"/{token}"):
                reached.set()
                await release.wait()
        return await serve(adapter, route, *args, **kw)

    def holding(payload: JSON) -> Held:
        pair = asyncio.Event(), asyncio.Event()
        held[str(payload["token"])] = pair
        return pair

    setattr(AsyncWebhookAdapter, "request", request)  # noqa: B010
    yield holding
    setattr(AsyncWebhookAdapter, "request", serve)  # noqa: B010


@pytest.fixture
def refuse_followups(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., None]]:
    """Make Discord fail an interaction's follow-ups (500) once ``after`` of them went through;
    its acknowledgement still succeeds."""
    failing: dict[str, int] = {}
    backend = driver.backend
    original = backend._execute_webhook

    def execute(record: RecordedRequest, application_id: str, token: str) -> tuple[int, Any]:
        if token in failing:
            if failing[token] <= 0:
                raise HTTPError(500, "Internal Server Error", 0)
            failing[token] -= 1
        return original(record, application_id, token)

    monkeypatch.setattr(backend, "_execute_webhook", execute)

    def refuse(payload: JSON, after: int = 0) -> None:
        failing[str(payload["token"])] = after

    yield refuse


@pytest.fixture
def drop_acknowledgement(driver: InteractionDriver) -> Iterator[Callable[[JSON], None]]:
    """Make an interaction's acknowledgement fail with a dropped connection, which discord.py
    passes on as it is (not as an HTTPException): nothing reaches Discord."""
    dropped: set[str] = set()
    serve = AsyncWebhookAdapter.request

    async def request(adapter: AsyncWebhookAdapter, route: Any, *args: Any, **kw: Any) -> Any:
        if route.url.endswith("/callback") and any(f"/{t}/" in route.url for t in dropped):
            raise aiohttp.ServerDisconnectedError()
        return await serve(adapter, route, *args, **kw)

    setattr(AsyncWebhookAdapter, "request", request)  # noqa: B010
    yield lambda payload: dropped.add(str(payload["token"]))
    setattr(AsyncWebhookAdapter, "request", serve)  # noqa: B010


def _channel_messages(driver: InteractionDriver, filename: str) -> list[JSON]:
    """The public messages in the game's channel carrying image ``filename``, oldest first."""
    return [
        m
        for m in driver.messages.values()
        if int(m.get("channel_id") or 0) == GAMES_CHANNEL_ID
        and not int(m.get("flags") or 0) & discord.MessageFlags.ephemeral.flag
        and any(a.get("filename") == filename for a in m.get("attachments") or [])
    ]


def _image(driver: InteractionDriver, message: JSON, filename: str) -> bytes:
    (attachment,) = [a for a in message["attachments"] if a["filename"] == filename]
    return driver.backend.attachment_bytes(str(attachment["url"])) or b""


# --- 1. the newest table is the one remembered ---------------------------------------------------


async def test_an_older_table_answered_last_is_not_remembered(
    driver: InteractionDriver, hold: Callable[[JSON], Held]
) -> None:
    """Alice reposts the table (/table) and Discord is slow to post it; meanwhile she plays Go
    and its table is posted and remembered. The repost, answered last, shows the game before
    her move: before the fix it was remembered, and /mygames and /history linked to the old
    table. The move's table stays the one remembered."""
    bot = running_bot(driver)
    await stacked_mille(driver)
    payload = driver.factory.slash("table", {})
    reached, release = hold(payload)
    repost = asyncio.ensure_future(driver.dispatch(payload))
    await asyncio.wait_for(reached.wait(), 10)
    moved = public_table(await driver.slash("move", {"action": "play go"}))
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert stored.message_id == moved.message_id
    release.set()
    old = public_table(await repost)
    assert "Alice plays Go" not in (old.content or ""), "the repost shows the game before"
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert stored.message_id == moved.message_id != old.message_id
    # A repost of the game as it stands is remembered: it is the newest table now.
    again = public_table(await driver.slash("table", {}))
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert stored.message_id == again.message_id


# --- 2. a follow-up refused after a good acknowledgement -----------------------------------------


async def test_a_typed_move_whose_table_follow_up_failed_posts_it_in_the_channel(
    driver: InteractionDriver, refuse_followups: Callable[..., None]
) -> None:
    """Alice's /move is acknowledged, and Discord fails the follow-up carrying the table. Before
    the fix the table was lost (the move and the computer's answer were stored). It now reaches
    the channel once, whole, and is the table remembered."""
    bot = running_bot(driver)
    await stacked_mille(driver, COMPUTER)
    payload = driver.factory.slash("move", {"action": "play go"})
    refuse_followups(payload)
    await driver.dispatch(payload)
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert [entry.action for entry in await bot.store.moves(stored.id)][:1] == ["play go"]
    posted = [m for m in _channel_messages(driver, "table.png") if "Alice plays Go" in m["content"]]
    assert len(posted) == 1, [m["content"] for m in posted]
    assert _image(driver, posted[0], "table.png").startswith(PNG), "the image came whole"
    assert stored.message_id == int(posted[0]["id"])


async def test_a_typed_move_whose_table_follow_up_failed_leaves_no_thinking_behind(
    driver: InteractionDriver, refuse_followups: Callable[..., None]
) -> None:
    """The same /move: its public "thinking…" was to become the table, which went to the
    channel instead. Before the fix the placeholder stayed in the channel, thinking for good
    (until Discord marked it failed); now it is taken back."""
    await stacked_mille(driver, COMPUTER)
    payload = driver.factory.slash("move", {"action": "play go"})
    refuse_followups(payload)
    await driver.dispatch(payload)
    public = [
        m
        for m in driver.messages.values()
        if not int(m.get("flags") or 0) & discord.MessageFlags.ephemeral.flag
    ]
    assert any("Alice plays Go" in str(m.get("content")) for m in public)
    thinking = discord.MessageFlags.loading.flag  # the "Junction is thinking…" placeholder
    assert not [m for m in public if int(m.get("flags") or 0) & thinking], "a thinking stayed"


async def test_a_hand_button_whose_table_follow_up_failed_posts_it_in_the_channel(
    driver: InteractionDriver, refuse_followups: Callable[..., None]
) -> None:
    """The same through Go in Alice's hand: the press is acknowledged, the table's follow-up
    fails, and the table reaches the channel once."""
    bot = running_bot(driver)
    started = await stacked_mille(driver, COMPUTER)
    payload = await hand_press(driver, started.game.id, "Go")
    refuse_followups(payload)
    await driver.dispatch(payload)
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    posted = [m for m in _channel_messages(driver, "table.png") if "Alice plays Go" in m["content"]]
    assert len(posted) == 1, [m["content"] for m in posted]
    assert _image(driver, posted[0], "table.png").startswith(PNG)
    assert stored.message_id == int(posted[0]["id"])


async def test_a_hand_end_then_a_failed_table_follow_up_is_each_posted_once(
    driver: InteractionDriver, refuse_followups: Callable[..., None]
) -> None:
    """Alice stops at 700: the hand's end and its score go out as the first follow-up, then
    Discord fails the second, hand 2's table. The hand's end is not posted again; the table
    reaches the channel, once, and is the table remembered."""
    bot = running_bot(driver)
    await alice_at_700(driver)
    before = {int(m["id"]) for m in _channel_messages(driver, "table.png")}
    payload = driver.factory.slash("move", {"action": "extend no"})
    refuse_followups(payload, after=1)
    result = await driver.dispatch(payload)
    scores = [m for m in _channel_messages(driver, "score.png") if "Hand 1 is over" in m["content"]]
    assert len(scores) == 1 and [f.message_id for f in result.followups] == [int(scores[0]["id"])]
    tables = [m for m in _channel_messages(driver, "table.png") if int(m["id"]) not in before]
    assert len(tables) == 1, [m["content"] for m in tables]
    assert str(tables[0]["content"]).startswith("Hand 2: Computer (normal) starts.")
    assert _image(driver, tables[0], "table.png").startswith(PNG)
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert stored.message_id == int(tables[0]["id"])


# --- 3. an answer before the computers that fails otherwise ---------------------------------------


@pytest.mark.logs_errors  # the failed write or answer is logged
async def test_a_play_whose_answer_dropped_its_connection_still_posts_its_table(
    driver: InteractionDriver, drop_acknowledgement: Callable[[JSON], None]
) -> None:
    """/play Ticket to Ride against the computer: the answer before the computer's opening
    choice fails with a dropped connection. Before the fix the error came out of
    ``Tables.start`` with the game dealt: the member was told something went wrong, the
    computer had not chosen, and no table was posted. Now the computer chooses, and the table
    reaches the channel."""
    bot = running_bot(driver)
    payload = driver.factory.slash("play", {"game": "ttr", "level": "normal"})
    drop_acknowledgement(payload)
    await driver.dispatch(payload)
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert stored.version >= 1, "the computer chose its tickets"
    posted = _channel_messages(driver, "table.png")
    assert len(posted) == 1, [m["content"] for m in posted]
    assert stored.message_id == int(posted[0]["id"])


@pytest.mark.logs_errors  # the failed write or answer is logged
async def test_a_move_whose_answer_dropped_its_connection_still_posts_its_table(
    driver: InteractionDriver, drop_acknowledgement: Callable[[JSON], None]
) -> None:
    """Alice's /move against the computer: its acknowledgement fails with a dropped
    connection. The move and the computer's answer are stored and the table reaches the
    channel (before the fix, the member was told nothing had changed)."""
    bot = running_bot(driver)
    await stacked_mille(driver, COMPUTER)
    payload = driver.factory.slash("move", {"action": "play go"})
    drop_acknowledgement(payload)
    result = await driver.dispatch(payload)
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert [entry.action for entry in await bot.store.moves(stored.id)][:1] == ["play go"]
    assert 0 in bot.tables.position(stored).acting, "the computer answered"
    posted = [m for m in _channel_messages(driver, "table.png") if "Alice plays Go" in m["content"]]
    assert len(posted) == 1 and stored.message_id == int(posted[0]["id"])
    assert "nothing was changed" not in " ".join(r.content or "" for r in result.responses)


@pytest.mark.logs_errors  # the failed write or answer is logged
async def test_a_table_discord_posted_despite_a_server_error_is_not_posted_twice(
    driver: InteractionDriver,
    drop_acknowledgement: Callable[[JSON], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The table goes to the channel (its move's answer dropped), and Discord posts it but
    answers 500. discord.py sends the request again by itself, with the nonce it gives every
    channel message (and asks Discord to enforce): the second request gets the message already
    posted, which is the one the game remembers, and the channel shows the table once."""
    bot = running_bot(driver)
    await stacked_mille(driver, COMPUTER)
    backend = driver.backend
    original = backend._post_message
    failed: list[str] = []

    def post(record: RecordedRequest, channel_id: str) -> tuple[int, Any]:
        answer = original(record, channel_id)
        if not failed:
            failed.append(channel_id)
            raise HTTPError(500, "Internal Server Error", 0)
        return answer

    monkeypatch.setattr(backend, "_post_message", post)
    serve = bot.http.request

    async def request(route: Any, **kw: Any) -> Any:
        # discord.py's own HTTPClient sends a request again after a 500, with its files read
        # from the start; the in-process driver answers in its place, so it retries here.
        try:
            return await serve(route, **kw)
        except discord.DiscordServerError:
            for file in kw.get("files") or []:
                file.reset()
            return await serve(route, **kw)

    monkeypatch.setattr(bot.http, "request", request)
    payload = driver.factory.slash("move", {"action": "play go"})
    drop_acknowledgement(payload)
    await driver.dispatch(payload)
    assert failed == [str(GAMES_CHANNEL_ID)], "the channel post met its server error"
    posted = [m for m in _channel_messages(driver, "table.png") if "Alice plays Go" in m["content"]]
    assert len(posted) == 1, [m["id"] for m in posted]
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert stored.message_id == int(posted[0]["id"])
