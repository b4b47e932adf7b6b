"""Prove the Discord test infrastructure works with a real, throwaway discord.py bot.

The bot has one guild slash command ``/ping`` (replies "pong" with a DynamicItem button, then
sends a file as a follow-up; its ``word`` option autocompletes). It is exercised through the
fake Discord server (real login, gateway, REST), through the in-process driver, through a fake
running as a separate process with a state file, and as a separate bot process (this module's
``__main__``) started via ``tests.discord.run_with_fake``, killed and restarted.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import subprocess
import sys
import warnings
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.discord.backend import ALICE_ID, EPHEMERAL, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.fake_discord import FakeDiscord, FakeDiscordRemote, point_discord_at
from tests.discord.payloads import InteractionDriver, InteractionFailed

WORDS = ["ping", "pong", "pang"]
FILE_BYTES = b"\x00junction\xffbytes"
REPO = Path(__file__).resolve().parent.parent


class AgainButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ping:again:(?P<count>\d+)",
):
    """A persistent button whose state lives in its custom id."""

    def __init__(self, count: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Again", style=discord.ButtonStyle.primary, custom_id=f"ping:again:{count}"
            )
        )
        self.count = count

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AgainButton:
        return cls(int(match["count"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"clicked {self.count}", ephemeral=True)


def make_bot(*, sync: bool = True) -> commands.Bot:
    """The throwaway bot: ``/ping [word]`` in the test guild."""
    bot = commands.Bot(
        command_prefix=commands.when_mentioned,
        intents=discord.Intents.default(),
        guild_ready_timeout=0.05,
    )

    @app_commands.command(name="ping", description="Ping the bot")
    @app_commands.describe(word="What to ping with")
    async def ping(interaction: discord.Interaction[Any], word: str = "ping") -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(AgainButton(1))
        await interaction.response.send_message("pong", view=view)
        data = io.BytesIO(FILE_BYTES)
        await interaction.followup.send(f"file for {word}", file=discord.File(data, "pong.bin"))

    @ping.autocomplete("word")
    async def ping_word(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=w, value=w) for w in WORDS if w.startswith(current)]

    @app_commands.command(name="boom", description="Always fails")
    async def boom(interaction: discord.Interaction[Any]) -> None:
        raise RuntimeError("kaboom")

    guild = discord.Object(GUILD_ID)
    bot.tree.add_command(ping, guild=guild)
    bot.tree.add_command(boom, guild=guild)

    async def setup_hook() -> None:
        bot.add_dynamic_items(AgainButton)
        if sync:
            await bot.tree.sync(guild=guild)

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


async def _stop(bot: commands.Bot, task: asyncio.Task[None]) -> None:
    """Close a bot started with ``bot.start`` and wait for its task (never hangs)."""
    await asyncio.wait_for(bot.close(), 5)
    await asyncio.wait_for(task, 5)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A running fake Discord server (discord.py pointed at it)."""
    async with FakeDiscord(token="test-token") as server:
        yield server


async def test_fake_server_slash_button_autocomplete_and_file(fake: FakeDiscord) -> None:
    """A real bot logs in, syncs, answers /ping, its button, autocomplete and uploads a file."""
    bot = make_bot()
    await fake.start_bot(bot)  # logs in with the fake's token; closed when the fake stops
    try:
        assert bot.user is not None and bot.user.id == fake.world.bot_user_id
        assert bot.get_guild(GUILD_ID) is not None
        sync = fake.requests_matching("PUT", rf"/applications/\d+/guilds/{GUILD_ID}/commands")
        assert [c["name"] for c in sync[0].json] == ["ping", "boom"]

        iid = await fake.send_slash("ping", {"word": "hello"})
        result = await fake.wait_for_response(iid, followups=1)
        callback = result.callback
        assert callback is not None and callback.callback_type == 4
        assert callback.content == "pong" and not callback.ephemeral
        assert result.custom_ids == ["ping:again:1"]
        followup = result.followups[0]
        assert followup.content == "file for hello"
        assert followup.file("pong.bin") == FILE_BYTES
        assert followup.attachments[0]["filename"] == "pong.bin"
        uploads = [r for r in fake.requests if r.method == "POST" and r.files]
        assert uploads[0].path.startswith("/webhooks/") and uploads[0].files[0].data == FILE_BYTES
        url = followup.attachments[0]["url"]  # the fake also serves attachment bytes
        async with aiohttp.ClientSession() as session, session.get(url) as response:
            assert await response.read() == FILE_BYTES

        message = result.message
        assert message is not None
        click_id = await fake.send_component(int(message["id"]), "ping:again:1")
        click = await fake.wait_for_response(click_id)
        assert click.content == "clicked 1" and click.ephemeral
        assert click.callback is not None and click.callback.flags & EPHEMERAL

        auto_id = await fake.send_autocomplete("ping", "word", "pa")
        auto = await fake.wait_for_response(auto_id)
        assert auto.callback_type == 8 and auto.choices == [{"name": "pang", "value": "pang"}]
        assert fake.backend.unhandled_requests == []
    finally:
        await fake.stop_bot(bot)


async def test_in_process_driver() -> None:
    """The driver runs /ping, the button and autocomplete without any server."""
    bot = make_bot()
    try:
        async with InteractionDriver(bot, run_setup_hook=True) as driver:
            assert driver.requests[0].method == "PUT"  # the guild sync hit the fake backend
            result = await driver.slash("ping", {"word": "hi"})
            assert result.callback_type == 4 and result.content == "pong" and not result.ephemeral
            assert result.followups[0].file("pong.bin") == FILE_BYTES
            assert result.followups[0].content == "file for hi"

            click = await driver.click(result, "ping:again:1")
            assert click.content == "clicked 1" and click.ephemeral

            auto = await driver.autocomplete("ping", "word", "p")
            assert [c["value"] for c in auto.choices] == WORDS

            with pytest.raises(InteractionFailed, match="kaboom"):
                await driver.slash("boom")
            with pytest.raises(ValueError, match="unknown option"):
                await driver.slash("ping", {"wrod": "typo"})
    finally:
        await bot.close()


async def test_bot_process_killed_and_restarted(fake: FakeDiscord, tmp_path: Path) -> None:
    """A bot process run via run_with_fake is SIGKILLed; its restart handles the old button."""
    log = tmp_path / "bot.log"

    async def launch(*extra: str) -> asyncio.subprocess.Process:
        with log.open("ab") as stderr:
            return await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tests.discord.run_with_fake",
                "--url",
                fake.url,
                "-m",
                "tests.test_fake_discord",
                *extra,
                cwd=REPO,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
            )

    process = await launch("--sync")
    try:
        first = await fake.wait_for_ready(timeout=15)
        await fake.wait_for_request("PUT", r"/applications/\d+/guilds/\d+/commands")
        result = await fake.wait_for_response(await fake.send_slash("ping"), followups=1)
        assert result.content == "pong" and result.message is not None
        process.kill()
        await asyncio.wait_for(process.wait(), 5)

        process = await launch()
        await fake.wait_for(
            lambda: fake.live_session() not in (None, first), timeout=15, what="restarted bot"
        )
        click_id = await fake.send_component(int(result.message["id"]), "ping:again:1")
        click = await fake.wait_for_response(click_id)
        assert click.content == "clicked 1" and click.ephemeral, log.read_text()
    finally:
        if process.returncode is None:
            process.kill()
            await asyncio.wait_for(process.wait(), 5)


async def test_fake_process_state_survives_restart(tmp_path: Path) -> None:
    """The standalone fake keeps messages in its state file, so a restarted bot handles clicks."""
    state = tmp_path / "fake.json"
    running: list[tuple[commands.Bot, asyncio.Task[None]]] = []
    processes: list[asyncio.subprocess.Process] = []

    async def start_fake() -> str:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.discord.fake_discord",
            "--state-file",
            str(state),
            cwd=REPO,
            stdout=subprocess.PIPE,
        )
        processes.append(process)
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), 10)
        return line.decode().split()[1]  # "FAKE_DISCORD_URL http://127.0.0.1:PORT"

    async def stop_all() -> None:
        while running:
            await _stop(*running.pop())
        for process in processes:
            if process.returncode is None:
                process.terminate()
                await asyncio.wait_for(process.wait(), 5)

    async def interact(*, sync: bool, send: Any) -> Any:
        url = await start_fake()
        restore = point_discord_at(url)
        try:
            bot = make_bot(sync=sync)
            running.append((bot, asyncio.create_task(bot.start("any-token"))))
            await asyncio.wait_for(bot.wait_until_ready(), 5)
            async with FakeDiscordRemote(url) as remote:
                result = await send(remote)
            await stop_all()  # bot first, then the fake (which saves its state)
            return result
        finally:
            await stop_all()
            restore()

    async def slash(remote: FakeDiscordRemote) -> Any:
        iid = await remote.send_slash("ping", {"word": "one"})
        return (await remote.wait_for_response(iid, followups=1)).message

    message = await interact(sync=True, send=slash)
    assert message is not None and state.exists()

    async def click(remote: FakeDiscordRemote) -> Any:
        click_id = await remote.send_component(message["id"], "ping:again:1")
        return await remote.wait_for_response(click_id)

    result = await interact(sync=False, send=click)  # a new fake process on the same state
    assert result.content == "clicked 1" and result.ephemeral


if __name__ == "__main__":  # the bot process of test_bot_process_killed_and_restarted
    asyncio.run(make_bot(sync="--sync" in sys.argv).start("test-token"))


async def test_a_moderators_deletions_reach_the_bot(fake: FakeDiscord) -> None:
    """A moderator deletes one message (MESSAGE_DELETE), then purges two (MESSAGE_DELETE_BULK):
    the bot's raw listeners hear both, through the gateway."""
    bot = make_bot(sync=False)
    heard: list[tuple[int, set[int]]] = []
    both = asyncio.Event()

    async def on_raw_message_delete(payload: discord.RawMessageDeleteEvent) -> None:
        heard.append((payload.channel_id, {payload.message_id}))

    async def on_raw_bulk_message_delete(payload: discord.RawBulkMessageDeleteEvent) -> None:
        heard.append((payload.channel_id, set(payload.message_ids)))
        both.set()

    bot.add_listener(on_raw_message_delete)
    bot.add_listener(on_raw_bulk_message_delete)
    await fake.start_bot(bot)
    try:
        said = [
            int(fake.backend.create_user_message(GAMES_CHANNEL_ID, ALICE_ID, f"hi {n}")["id"])
            for n in range(3)
        ]
        await fake.delete_by_moderator(GAMES_CHANNEL_ID, said[0])
        await fake.delete_by_moderator(GAMES_CHANNEL_ID, said[1], said[2])
        await asyncio.wait_for(both.wait(), 5)
        assert heard == [(GAMES_CHANNEL_ID, {said[0]}), (GAMES_CHANNEL_ID, set(said[1:]))]
        assert not any(i in fake.backend.messages for i in said)
    finally:
        await fake.stop_bot(bot)


async def test_an_upload_arriving_in_pieces_is_read_whole(fake: FakeDiscord) -> None:
    """A multipart upload whose file arrives in two pieces, the first ending just past 8 KiB
    (aiohttp's part chunk), is recorded byte for byte, and reading it warns of nothing: aiohttp's
    own part reader pushed the overshoot back with ``unread_data``, deprecated, a warning that
    surfaced only when the network happened to split a request there."""
    boundary = b"junction-upload-boundary"
    picture = bytes(range(256)) * 72  # 18 KiB, every byte value
    delimiter = b"--" + boundary + b"\r\n"
    head = b"".join(
        [
            delimiter,
            b'Content-Disposition: form-data; name="payload_json"\r\n',
            b"Content-Type: application/json\r\n\r\n",
            json.dumps({"content": "the table"}).encode(),
            b"\r\n" + delimiter,
            b'Content-Disposition: form-data; name="files[0]"; filename="table.png"\r\n',
            b"Content-Type: image/png\r\n\r\n",
        ]
    )
    tail = b"\r\n--" + boundary + b"--\r\n"
    body = head + picture + tail
    first = len(head) + 8192 + 5  # a whole chunk, then a few bytes fewer than the boundary
    request = (
        f"POST /api/v10/channels/{GAMES_CHANNEL_ID}/messages HTTP/1.1\r\n"
        f"Host: {fake.host}:{fake.port}\r\n"
        "Authorization: Bot test-token\r\n"
        f"Content-Type: multipart/form-data; boundary={boundary.decode()}\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        reader, writer = await asyncio.open_connection(fake.host, fake.port)
        try:
            writer.write(request + body[:first])
            await writer.drain()
            await asyncio.sleep(0.2)  # the fake reads the first piece alone
            writer.write(body[first:])
            await writer.drain()
            answer = await asyncio.wait_for(reader.read(), 5)
        finally:
            writer.close()
            await writer.wait_closed()
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
    [upload] = fake.requests_matching("POST", rf"/channels/{GAMES_CHANNEL_ID}/messages")
    assert upload.json == {"content": "the table"}
    assert [(f.field_name, f.filename, f.content_type) for f in upload.files] == [
        ("files[0]", "table.png", "image/png")
    ]
    assert upload.files[0].data == picture
    assert [str(w.message) for w in caught] == []


async def test_an_upload_is_recorded_as_sent(fake: FakeDiscord) -> None:
    """The fake splits a multipart body itself: files sent as discord.py sends them (aiohttp's
    form), one ending as a delimiter line begins, come back as sent."""
    edgy = b"\x00\xff\r\n--\r\n"
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"content": "two files"}))
    form.add_field("files[0]", edgy, filename="edge.bin", content_type="application/octet-stream")
    form.add_field("files[1]", FILE_BYTES, filename="table.png", content_type="image/png")
    url = f"{fake.api_base}/channels/{GAMES_CHANNEL_ID}/messages"
    headers = {"Authorization": "Bot test-token"}
    async with aiohttp.ClientSession() as session, session.post(url, data=form, headers=headers):
        pass
    [upload] = fake.requests_matching("POST", rf"/channels/{GAMES_CHANNEL_ID}/messages")
    assert upload.status == 200 and upload.json == {"content": "two files"}
    assert [(f.field_name, f.filename, f.content_type, f.data) for f in upload.files] == [
        ("files[0]", "edge.bin", "application/octet-stream", edgy),
        ("files[1]", "table.png", "image/png", FILE_BYTES),
    ]
