"""/play thread:True: the game's thread, opened under /play's own answer.

In an outage Discord may open a thread and still answer 500 (502, 504, 524); discord.py 2.7
then asks again by itself (``HTTPClient.request``: up to five tries). A thread opened in the
channel was opened twice: the game went into one and the other stayed empty in the channel's
thread list. A message has one thread at most, so the thread is opened under /play's
"thinking…" (the answer that then says where the game is): the second try is refused "a thread
has already been created for this message" (160004), and the thread under the message is taken.

Driven through the fake Discord with discord.py's own HTTP client and webhook adapter
(``InteractionDriver.library_http``, ``library_webhooks``), so the second try is the library's.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.dealing import NO_THREAD
from tests.cogs.conftest import running_bot
from tests.discord.backend import (
    BOT_ROLE_ID,
    EPHEMERAL,
    GAMES_CHANNEL_ID,
    JSON,
    LOADING,
    HTTPError,
    RecordedRequest,
)
from tests.discord.payloads import InteractionDriver

pytestmark = pytest.mark.usefixtures("quick_second_tries")

OPENS_A_THREAD = r"/channels/\d+(/messages/\d+)?/threads"
"""A thread opened in a channel, or under one of its messages."""


def _tables_in(driver: InteractionDriver, channel_id: int) -> list[JSON]:
    return [
        m
        for m in driver.messages.values()
        if int(m["channel_id"]) == channel_id
        and any(a.get("filename") == "table.png" for a in m.get("attachments") or [])
    ]


async def test_a_thread_discord_opened_then_failed_is_the_games_only_thread(
    driver: InteractionDriver,
) -> None:
    """Alice's /play thread:True; Discord opens the thread and answers 500. Before the fix
    discord.py's second try opened a second thread, the game in it and the first left empty in
    the channel. Now there is one thread, under the answer, and the game and its table are in
    it; the answer says so, once, and nobody is told threads cannot be opened."""
    driver.backend.fail_after("POST", OPENS_A_THREAD)
    with driver.library_webhooks(), driver.library_http():
        result = await driver.dispatch(
            driver.factory.slash("play", {"game": "mille", "thread": True})
        )
    threads = driver.backend.threads()
    assert len(threads) == 1, [t["name"] for t in threads]
    (thread,) = threads
    opened = [r for r in driver.requests if r.matches("POST", OPENS_A_THREAD)]
    assert [r.status for r in opened] == [500, 400], "opened, failed, then told it exists"
    (game,) = await running_bot(driver).store.active_games()
    assert game.channel_id == int(thread["id"])
    assert len(_tables_in(driver, game.channel_id)) == 1
    notes = [
        m
        for m in driver.backend.channel_messages(GAMES_CHANNEL_ID)
        if "Your game is in" in str(m["content"])
    ]
    assert [m["content"] for m in notes] == [f"Your game is in <#{thread['id']}>."]
    assert int(notes[0]["id"]) == int(thread["id"]), "the thread is under the answer"
    assert NO_THREAD not in " ".join(str(r.content) for r in result.responses)


async def test_the_game_is_in_the_thread_under_the_answer(driver: InteractionDriver) -> None:
    """What members see: /play's answer in the channel says "Your game is in #thread", the
    thread under it (it bears the answer's id), named as before; the channel's thread list
    holds that one thread, and the first table is in it, not in the channel."""
    result = await driver.slash("play", {"game": "mille", "thread": True})
    (thread,) = driver.backend.threads()
    (game,) = await running_bot(driver).store.active_games()
    assert thread["name"] == f"Mille Bornes: {game.seats[0].name} vs the computer"
    assert int(thread["parent_id"]) == GAMES_CHANNEL_ID and thread["type"] == 11  # public
    assert result.original_message is not None
    answer = driver.messages[int(result.original_message["id"])]
    assert not int(answer.get("flags") or 0) & (EPHEMERAL | LOADING)
    assert answer["content"] == f"Your game is in <#{thread['id']}>."
    assert int(answer["thread"]["id"]) == int(thread["id"]), "the thread shows under the answer"
    assert [m["id"] for m in driver.backend.channel_messages(GAMES_CHANNEL_ID)] == [answer["id"]]
    assert game.channel_id == int(thread["id"])
    assert len(_tables_in(driver, game.channel_id)) == 1
    listed = driver.backend.handle("GET", f"/guilds/{thread['guild_id']}/threads/active")[1]
    assert [t["id"] for t in listed["threads"]] == [thread["id"]]


async def test_a_thread_discord_refuses_is_told_privately_and_nothing_is_stored(
    driver: InteractionDriver,
) -> None:
    """Discord refuses the thread (the bot's Create Public Threads was taken away after Discord
    sent Alice's /play, whose permissions still had it): Alice alone is told, the public
    "thinking…" is taken back, no thread and no game."""
    payload = driver.factory.slash("play", {"game": "mille", "thread": True})
    channel = driver.backend.channel(GAMES_CHANNEL_ID)
    assert channel is not None
    denied = discord.Permissions(create_public_threads=True).value
    channel["permission_overwrites"] = [
        *channel.get("permission_overwrites", []),
        {"id": str(BOT_ROLE_ID), "type": 0, "allow": "0", "deny": str(denied)},
    ]
    result = await driver.dispatch(payload)
    refused = [r for r in driver.requests if r.matches("POST", OPENS_A_THREAD)]
    assert [r.status for r in refused] == [403], "Discord refused the thread"
    said = [r for r in result.responses if r.content]
    assert [(r.ephemeral, r.content) for r in said] == [(True, NO_THREAD)]
    assert driver.backend.channel_messages(GAMES_CHANNEL_ID) == [], (
        "the thinking was taken back, nothing said publicly"
    )
    assert driver.backend.threads() == []
    assert await running_bot(driver).store.active_games() == []


def _failing_every_try(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch, *, opens: bool
) -> list[int]:
    """Discord answers every thread asked of a message 500, the first opened when ``opens``
    (an outage that lasts past discord.py's five tries). The statuses' list, one per try."""
    serve = driver.backend._start_thread_from_message
    tries: list[int] = []

    def start(record: RecordedRequest, channel_id: str, message_id: str) -> tuple[int, Any]:
        tries.append(500)
        if opens and len(tries) == 1:
            serve(record, channel_id, message_id)
        raise HTTPError(500, "Internal Server Error", 0)

    monkeypatch.setattr(driver.backend, "_start_thread_from_message", start)
    return tries


async def test_a_thread_opened_though_every_try_failed_holds_the_game(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord opens the thread at the first try and answers every try 500. Before, Alice
    was told threads could not be opened, her answer was taken back and the thread stayed,
    empty, in the channel's list; now the thread under the answer is found and holds the
    game."""
    tries = _failing_every_try(driver, monkeypatch, opens=True)
    with driver.library_webhooks(), driver.library_http():
        result = await driver.dispatch(
            driver.factory.slash("play", {"game": "mille", "thread": True})
        )
    assert len(tries) == 5, "discord.py's own tries"
    (thread,) = driver.backend.threads()
    (game,) = await running_bot(driver).store.active_games()
    assert game.channel_id == int(thread["id"])
    assert len(_tables_in(driver, game.channel_id)) == 1
    assert result.original_message is not None
    assert int(result.original_message["id"]) == int(thread["id"])
    assert result.content == f"Your game is in <#{thread['id']}>."


async def test_a_thread_never_opened_at_any_try_is_refused_privately(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every try answered 500 and no thread opened: looked for and not found, Alice alone is
    told, the "thinking…" taken back, no game."""
    tries = _failing_every_try(driver, monkeypatch, opens=False)
    with driver.library_webhooks(), driver.library_http():
        result = await driver.dispatch(
            driver.factory.slash("play", {"game": "mille", "thread": True})
        )
    assert len(tries) == 5
    said = [r for r in result.responses if r.content]
    assert [(r.ephemeral, r.content) for r in said] == [(True, NO_THREAD)]
    assert driver.backend.channel_messages(GAMES_CHANNEL_ID) == []
    assert driver.backend.threads() == []
    assert await running_bot(driver).store.active_games() == []


async def test_a_thread_refused_under_the_answer_is_opened_in_the_channel(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should Discord refuse a thread under an answer still "thinking…" (the fake allows it;
    Discord's documents do not say), the game's thread is opened in the channel as before the
    thread moved under the answer, rather than every /play thread:True refused."""

    def refuse(record: RecordedRequest, channel_id: str, message_id: str) -> tuple[int, Any]:
        raise HTTPError(400, "Cannot execute action on this channel type", 50024)

    monkeypatch.setattr(driver.backend, "_start_thread_from_message", refuse)
    result = await driver.dispatch(driver.factory.slash("play", {"game": "mille", "thread": True}))
    (thread,) = driver.backend.threads()
    (game,) = await running_bot(driver).store.active_games()
    assert game.channel_id == int(thread["id"])
    assert len(_tables_in(driver, game.channel_id)) == 1
    assert result.content == f"Your game is in <#{thread['id']}>."
    assert NO_THREAD not in " ".join(str(r.content) for r in result.responses)
