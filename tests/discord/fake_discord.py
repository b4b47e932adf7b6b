"""A local fake Discord server (REST ``/api/v10`` + gateway v10) for the real discord.py bot.

:class:`FakeDiscord` serves, on ``127.0.0.1`` and a free port:

* the gateway as a JSON websocket at ``/``: HELLO, heartbeat ACKs, IDENTIFY -> READY (bot
  user, application, the guild as unavailable) + GUILD_CREATE (channels, roles, members with
  ``flags``; ``member_count`` == members so no chunking is needed), RESUME (replays missed
  events, or INVALID_SESSION for unknown sessions), REQUEST_GUILD_MEMBERS -> one chunk, and the
  events the REST side causes (MESSAGE_CREATE/UPDATE/DELETE, THREAD_CREATE ...) filtered by the
  identified intents;
* the REST API under ``/api/v10`` via :class:`~tests.discord.backend.FakeBackend` (JSON answers
  use ``Content-Type: application/json`` exactly -- discord.py compares the header verbatim);
* attachment bytes under ``/attachments/...`` (so ``Attachment.read()`` works);
* a small control API under ``/_fake/...`` for driving a fake that runs in another process
  (see :class:`FakeDiscordRemote`).

In pytest::

    async with FakeDiscord() as fake:                 # also points discord.py at the fake
        bot = make_bot()                              # guild_ready_timeout=0.05 keeps it fast
        await fake.start_bot(bot)                     # login, gateway, on_ready; closed on exit
        iid = await fake.send_slash("ping", {"word": "hi"})
        result = await fake.wait_for_response(iid, followups=1)
        assert result.content == "pong"
        click = await fake.send_component(result.message["id"], result.custom_ids[0])
        assert (await fake.wait_for_response(click)).ephemeral

As a process (e.g. an end-to-end test that kills and restarts the real bot)::

    python -m tests.discord.fake_discord --port 8555 --state-file /tmp/fake.json
    python -m tests.discord.run_with_fake --url http://127.0.0.1:8555 -m bot

The process prints ``FAKE_DISCORD_URL http://127.0.0.1:PORT`` once listening; with
``--state-file`` messages, commands and interactions survive restarts of the fake itself.

Pointing discord.py at the fake (done by :func:`point_discord_at`, which ``FakeDiscord`` calls
unless ``patch_discord=False``): ``discord.http.Route.BASE`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` must be set before login. A plain
``Client``/``Bot`` never asks ``/gateway/bot``; an ``AutoShardedBot`` does (and connects to the
URL it returns). Note ``Client(guild_ready_timeout=...)`` (default 2 s): discord.py waits that
long after the last GUILD_CREATE before firing ``on_ready``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import email.message
import email.parser
import json
import os
import re
import secrets
import signal
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import aiohttp
import discord
import yarl
from aiohttp import web
from discord.gateway import DiscordWebSocket
from discord.http import Route

from tests.discord.backend import (
    JSON,
    FakeBackend,
    InteractionResult,
    RecordedFile,
    RecordedRequest,
    World,
)
from tests.discord.payloads import InteractionFactory

T = TypeVar("T")

API_PREFIX = "/api/v10"

# Gateway opcodes
OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_PRESENCE_UPDATE = 3
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_GUILD_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

# Gateway intents
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15


def point_discord_at(url: str) -> Callable[[], None]:
    """Make discord.py talk to the fake at ``url`` (``http://host:port``); returns an undo."""
    url = url.rstrip("/")
    old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = f"{url}{API_PREFIX}"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL("ws" + url[len("http") :] + "/")

    def restore() -> None:
        Route.BASE = old_base
        DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    return restore


def _json_response(status: int, body: Any) -> web.Response:
    if status == 204 or body is None:
        return web.Response(status=204)
    # Exactly "application/json": discord.py's json_or_text compares the header verbatim.
    return web.Response(
        status=status,
        body=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )


def _read_multipart(body: bytes, content_type: str) -> tuple[Any, list[RecordedFile]]:
    """The ``payload_json`` and the files of a whole multipart body.

    Read whole and split here rather than with aiohttp's part reader, which pushes bytes read
    past a part back with the deprecated ``StreamReader.unread_data`` when a request reaches it
    in pieces. Parts are split on ``CRLF--boundary`` (RFC 2046): a part's bytes never hold it.
    """
    boundary = _header_params(f"Content-Type: {content_type}").get_param("boundary")
    if not isinstance(boundary, str) or not boundary:
        raise ValueError(f"a multipart body without a boundary: {content_type!r}")
    body_json: Any = None
    files: list[RecordedFile] = []
    # The CRLF before the first delimiter is optional; the preamble (section 0) is ignored.
    for section in (b"\r\n" + body).split(b"\r\n--" + boundary.encode())[1:]:
        if section.startswith(b"--"):  # the close delimiter: what follows is the epilogue
            break
        headers, _, data = section.partition(b"\r\n\r\n")
        # What follows the delimiter on its line is transport padding, then the headers.
        part = _header_params(headers.partition(b"\r\n")[2].decode("utf-8"))
        name = part.get_param("name", header="content-disposition")
        name = name if isinstance(name, str) else ""
        if name == "payload_json":
            body_json = json.loads(data)
        else:
            files.append(
                RecordedFile(
                    field_name=name,
                    filename=part.get_filename() or name or "file",
                    data=data,
                    content_type=part.get("Content-Type"),
                )
            )
    return body_json, files


def _header_params(headers: str) -> email.message.Message:
    """MIME headers, parsed for their parameters (``name``, ``filename``, ``boundary``)."""
    return email.parser.HeaderParser().parsestr(headers)


class GatewaySession:
    """One identified gateway session (survives websocket reconnects via RESUME)."""

    def __init__(self, session_id: str, intents: int, shard: list[int]) -> None:
        self.session_id = session_id
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.ws: web.WebSocketResponse | None = None
        self.ready = False
        self.presence: JSON | None = None
        #: Dispatch frames sent, for RESUME replays.
        self.sent: list[JSON] = []
        self._lock = asyncio.Lock()

    @property
    def alive(self) -> bool:
        """Whether a websocket is attached and open."""
        return self.ws is not None and not self.ws.closed

    def covers(self, guild_id: int | None) -> bool:
        """Whether this session's shard receives events of ``guild_id``."""
        shard_id, shard_count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % shard_count == shard_id

    async def send_raw(self, frame: JSON) -> None:
        """Send a frame as-is (no sequence number)."""
        async with self._lock:
            if self.ws is not None and not self.ws.closed:
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await self.ws.send_str(json.dumps(frame))

    async def dispatch(self, name: str, data: JSON) -> None:
        """Send a DISPATCH event with the next sequence number."""
        async with self._lock:
            self.seq += 1
            frame = {"op": OP_DISPATCH, "t": name, "s": self.seq, "d": data}
            self.sent.append(frame)
            del self.sent[:-1000]
            if self.ws is not None and not self.ws.closed:
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await self.ws.send_str(json.dumps(frame))

    async def replay(self, ws: web.WebSocketResponse, after_seq: int) -> None:
        """Attach ``ws`` and resend every event after ``after_seq``, then RESUMED."""
        async with self._lock:
            self.ws = ws
            for frame in self.sent:
                if frame["s"] > after_seq:
                    await ws.send_str(json.dumps(frame))
        await self.dispatch("RESUMED", {"_trace": ["fake-discord"]})


class FakeDiscord:
    """The fake Discord server. See the module docstring for an example.

    ``token``: if set, IDENTIFY and REST calls must use it (else any token works).
    ``world``: the guild/users/channels to serve (default :meth:`World.default`).
    ``state_file``: load state (world included) from / save it to this JSON file.
    ``patch_discord``: call :func:`point_discord_at` on start (undone on stop).
    ``stop_close_code``: close code sent to still-connected bots on :meth:`stop`. The default
    4004 is fatal for discord.py, so a forgotten bot shuts down instead of reconnecting forever
    (on Python 3.11 a cancelled ``Client.start`` that is inside its reconnect loop can swallow
    the cancellation and hang the event loop's shutdown); use 1001 to make bots reconnect to a
    restarted fake (the CLI does).
    """

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        token: str | None = None,
        world: World | None = None,
        state_file: str | os.PathLike[str] | None = None,
        patch_discord: bool = True,
        heartbeat_interval_ms: int = 41250,
        stop_close_code: int = 4004,
    ) -> None:
        self.host = host
        self.stop_close_code = stop_close_code
        self.port = port
        self.token = token
        self.state_file = Path(state_file) if state_file is not None else None
        self.patch_discord = patch_discord
        self.heartbeat_interval_ms = heartbeat_interval_ms
        if self.state_file is not None and self.state_file.exists():
            self.backend = FakeBackend.from_state(json.loads(self.state_file.read_text()))
        else:
            self.backend = FakeBackend(world)
        self.factory = InteractionFactory(self.backend)
        #: Gateway sessions ever identified, oldest first.
        self.sessions: list[GatewaySession] = []
        #: Every gateway frame received from the bot (heartbeats excluded).
        self.gateway_received: list[JSON] = []
        self._sockets: set[web.WebSocketResponse] = set()
        self._runner: web.AppRunner | None = None
        self._restore: Callable[[], None] | None = None
        self._cond: asyncio.Condition | None = None
        self._bots: dict[discord.Client, asyncio.Task[None]] = {}

    # ------------------------------------------------------------------ lifecycle

    @property
    def url(self) -> str:
        """``http://host:port`` of the running server."""
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must be."""
        return self.url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """What ``DiscordWebSocket.DEFAULT_GATEWAY`` must be."""
        return f"ws://{self.host}:{self.port}/"

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    async def start(self) -> None:
        """Start listening (on a random free port unless one was given)."""
        self._cond = asyncio.Condition()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self._gateway)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn)
        app.router.add_get("/_fake/state", self._control_state)
        app.router.add_get("/_fake/requests", self._control_requests)
        app.router.add_post("/_fake/interactions", self._control_send)
        app.router.add_get("/_fake/interactions/{interaction_id}", self._control_result)
        app.router.add_post("/_fake/wait_ready", self._control_wait_ready)
        self._runner = web.AppRunner(app, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        address = self._runner.addresses[0]
        self.port = int(address[1])
        self.backend.cdn_base_url = self.url
        self.backend.gateway_url = self.gateway_url
        if self.patch_discord:
            self._restore = point_discord_at(self.url)

    async def start_bot(
        self, bot: discord.Client, token: str | None = None, *, timeout: float = 5.0
    ) -> asyncio.Task[None]:
        """Run ``bot.start(token)`` in a task and wait for ``on_ready``; :meth:`stop` closes it.

        Give the bot ``guild_ready_timeout=0.05`` (or so): discord.py waits that long (default
        2 s) after the last GUILD_CREATE before it is ready.
        """
        task = asyncio.create_task(bot.start(token or self.token or "fake-token"))
        self._bots[bot] = task
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when="FIRST_COMPLETED")
        if ready not in done:
            ready.cancel()
            if task in done:
                task.result()  # re-raise the login/connect error
            await self.stop_bot(bot)
            raise TimeoutError(f"bot not ready after {timeout}s")
        return task

    async def stop_bot(self, bot: discord.Client, *, timeout: float = 5.0) -> None:
        """Close a bot started with :meth:`start_bot` and wait for its task."""
        task = self._bots.pop(bot, None)
        await asyncio.wait_for(bot.close(), timeout)
        if task is not None:
            await asyncio.wait({task}, timeout=timeout)
            if not task.done():
                task.cancel()
            elif not task.cancelled() and (error := task.exception()) is not None:
                raise error

    async def stop(self) -> None:
        """Close started bots and websockets, stop the server, undo the patch, save state."""
        for bot in list(self._bots):
            with contextlib.suppress(Exception):
                await self.stop_bot(bot)
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(
                    ws.close(code=self.stop_close_code, message=b"fake Discord stopped"), 1.0
                )
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._restore is not None:
            self._restore()
            self._restore = None
        self.save_state()

    def save_state(self) -> None:
        """Write the state file now (atomic), if one is configured."""
        if self.state_file is None:
            return
        self.state_file.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.state_file.parent, prefix=".fake-discord-")
        with os.fdopen(fd, "w") as handle:
            json.dump(self.backend.to_state(), handle)
        os.replace(tmp, self.state_file)

    # ------------------------------------------------------------------ inspection

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every REST call made to the fake (method, path, query, JSON body, files...)."""
        return self.backend.requests

    @property
    def messages(self) -> dict[int, JSON]:
        """Stored messages by id."""
        return self.backend.messages

    @property
    def world(self) -> World:
        """The guild, channels, roles and members served."""
        return self.backend.world

    def requests_matching(self, method: str, pattern: str) -> list[RecordedRequest]:
        """Requests with ``method`` whose path fully matches regex ``pattern``."""
        return [r for r in self.requests if r.matches(method, pattern)]

    def live_session(self, guild_id: int | None = None) -> GatewaySession | None:
        """The newest connected, ready session covering ``guild_id`` (default: the guild)."""
        guild_id = self.world.guild_id if guild_id is None else guild_id
        for session in reversed(self.sessions):
            if session.alive and session.ready and session.covers(guild_id):
                return session
        return None

    async def _notify(self) -> None:
        if self._cond is None:
            return
        async with self._cond:
            self._cond.notify_all()

    async def wait_for(
        self, predicate: Callable[[], T], *, timeout: float = 5.0, what: str = "condition"
    ) -> T:
        """Wait until ``predicate()`` is truthy (re-checked after every request/event)."""
        if self._cond is None:
            raise RuntimeError("FakeDiscord is not started")
        async with self._cond:
            try:
                return await asyncio.wait_for(self._cond.wait_for(predicate), timeout)
            except TimeoutError:
                raise TimeoutError(
                    f"fake Discord: timed out after {timeout}s waiting for {what}"
                ) from None

    async def wait_for_ready(self, *, timeout: float = 5.0) -> GatewaySession:
        """Wait for a bot session that identified and got READY + GUILD_CREATE."""
        session = await self.wait_for(self.live_session, timeout=timeout, what="a ready session")
        assert session is not None
        return session

    async def wait_for_request(
        self, method: str, pattern: str, *, timeout: float = 5.0, count: int = 1
    ) -> RecordedRequest:
        """Wait until ``count`` requests ``method pattern`` were made; returns the last one."""

        def found() -> RecordedRequest | None:
            matching = self.requests_matching(method, pattern)
            return matching[count - 1] if len(matching) >= count else None

        request = await self.wait_for(found, timeout=timeout, what=f"{method} {pattern}")
        assert request is not None
        return request

    # ------------------------------------------------------------------ interactions

    async def send_interaction(self, payload: JSON, *, timeout: float = 5.0) -> int:
        """Deliver a raw ``INTERACTION_CREATE`` payload to the bot; returns the interaction id.

        Waits (up to ``timeout``) for a connected bot session, e.g. while the bot restarts.
        """
        guild_id = int(payload["guild_id"]) if payload.get("guild_id") else None
        session = await self.wait_for(
            lambda: self.live_session(guild_id), timeout=timeout, what="a ready bot session"
        )
        assert session is not None
        interaction_id = self.backend.register_interaction(payload)
        self.save_state()
        await session.dispatch("INTERACTION_CREATE", payload)
        return interaction_id

    async def send_slash(
        self,
        name: str,
        options: Mapping[str, Any] | Sequence[JSON] | None = None,
        *,
        user_id: int | None = None,
        channel_id: int | None = None,
        timeout: float = 5.0,
    ) -> int:
        """Invoke a synced slash command (``"group sub"`` for subcommands) with options."""
        payload = self.factory.slash(name, options, user_id=user_id, channel_id=channel_id)
        return await self.send_interaction(payload, timeout=timeout)

    async def send_autocomplete(
        self,
        name: str,
        focused: str,
        value: str = "",
        options: Mapping[str, Any] | None = None,
        *,
        user_id: int | None = None,
        channel_id: int | None = None,
        timeout: float = 5.0,
    ) -> int:
        """Autocomplete option ``focused`` of a synced command, typed so far as ``value``."""
        payload = self.factory.autocomplete(
            name, focused, value, options, user_id=user_id, channel_id=channel_id
        )
        return await self.send_interaction(payload, timeout=timeout)

    async def send_component(
        self,
        message: JSON | int | str,
        custom_id: str,
        *,
        values: Sequence[str] | None = None,
        user_id: int | None = None,
        timeout: float = 5.0,
    ) -> int:
        """Click a button / use a select (``values``) on a stored message (id or payload)."""
        if isinstance(message, str):
            message = int(message)
        payload = self.factory.component(message, custom_id, values=values, user_id=user_id)
        return await self.send_interaction(payload, timeout=timeout)

    click_button = send_component

    async def send_modal_submit(
        self,
        custom_id: str,
        fields: Mapping[str, str],
        *,
        message_id: int | None = None,
        user_id: int | None = None,
        channel_id: int | None = None,
        timeout: float = 5.0,
    ) -> int:
        """Submit modal ``custom_id`` with ``{text_input_custom_id: value}``."""
        message = None if message_id is None else self.messages[int(message_id)]
        payload = self.factory.modal_submit(
            custom_id, fields, message=message, user_id=user_id, channel_id=channel_id
        )
        return await self.send_interaction(payload, timeout=timeout)

    async def wait_for_response(
        self,
        interaction_id: int,
        *,
        timeout: float = 5.0,
        followups: int = 0,
        edits: int = 0,
    ) -> InteractionResult:
        """Wait for the interaction's callback (and ``followups``/``edits`` more); snapshot."""

        def done() -> bool:
            acknowledged, n_followups, n_edits = self.backend.response_counts(interaction_id)
            return acknowledged and n_followups >= followups and n_edits >= edits

        try:
            await self.wait_for(done, timeout=timeout, what=f"responses to {interaction_id}")
        except TimeoutError as exc:
            so_far = self.backend.interaction_result(interaction_id)
            kinds = [r.kind for r in so_far.responses]
            raise TimeoutError(f"{exc} (received so far: {kinds})") from None
        return self.backend.interaction_result(interaction_id)

    async def send_user_message(
        self, content: str, *, user_id: int | None = None, channel_id: int | None = None
    ) -> JSON:
        """A member writes ``content`` in a channel (MESSAGE_CREATE to the bot)."""
        message = self.backend.create_user_message(
            channel_id or self.factory.default_channel_id,
            user_id or self.factory.default_user_id,
            content,
        )
        await self._flush_events()
        self.save_state()
        return message

    async def delete_by_moderator(self, channel_id: int, *message_ids: int) -> None:
        """A moderator deletes messages (``FakeBackend.delete_by_moderator``): MESSAGE_DELETE,
        or MESSAGE_DELETE_BULK for several, to the bot."""
        self.backend.delete_by_moderator(channel_id, *message_ids)
        await self._flush_events()
        self.save_state()

    async def reconnect_sessions(self) -> None:
        """Send op 7 RECONNECT to every live session (the client then RESUMEs)."""
        for session in self.sessions:
            if session.alive:
                await session.send_raw({"op": OP_RECONNECT, "d": None, "s": None, "t": None})

    # ------------------------------------------------------------------ gateway

    def _wants(self, session: GatewaySession, name: str, data: JSON) -> bool:
        if name.startswith("MESSAGE_"):
            intent = INTENT_GUILD_MESSAGES if "guild_id" in data else INTENT_DIRECT_MESSAGES
            return bool(session.intents & intent)
        if name.startswith(("THREAD_", "CHANNEL_", "GUILD_")):
            return bool(session.intents & INTENT_GUILDS)
        return True

    def _redact(self, session: GatewaySession, name: str, data: JSON) -> JSON:
        if not name.startswith("MESSAGE_") or session.intents & INTENT_MESSAGE_CONTENT:
            return data
        author = data.get("author") or {}
        if int(author.get("id", 0)) == self.world.bot_user_id or "guild_id" not in data:
            return data
        # Without the MESSAGE_CONTENT intent, content of others' guild messages is empty.
        return {**data, "content": "", "embeds": [], "attachments": [], "components": []}

    async def _flush_events(self) -> None:
        for name, data in self.backend.pop_events():
            guild_id = int(data["guild_id"]) if data.get("guild_id") else None
            for session in self.sessions:
                live = session.alive and session.ready and session.covers(guild_id)
                if live and self._wants(session, name, data):
                    await session.dispatch(name, self._redact(session, name, data))

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._sockets.add(ws)
        session: GatewaySession | None = None
        try:
            hello = {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["fake-discord"]}
            await ws.send_str(json.dumps({"op": OP_HELLO, "d": hello, "s": None, "t": None}))
            async for msg in ws:
                if msg.type is not aiohttp.WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, data = frame.get("op"), frame.get("d")
                if op == OP_HEARTBEAT:
                    await ws.send_str(json.dumps({"op": OP_HEARTBEAT_ACK, "d": None}))
                    continue
                self.gateway_received.append(frame)
                if op == OP_IDENTIFY:
                    session = await self._identify(ws, data)
                elif op == OP_RESUME:
                    session = await self._resume(ws, data)
                elif op == OP_REQUEST_GUILD_MEMBERS and session is not None:
                    await self._request_members(session, data)
                elif op == OP_PRESENCE_UPDATE and session is not None:
                    session.presence = data
                await self._notify()
        finally:
            self._sockets.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
            await self._notify()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: JSON) -> GatewaySession | None:
        if self.token is not None and data.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard = list(data.get("shard") or [0, 1])
        session = GatewaySession(secrets.token_hex(16), int(data.get("intents") or 0), shard)
        session.ws = ws
        self.sessions.append(session)
        world = self.world
        user = {**world.bot_user, "verified": True, "mfa_enabled": False, "email": None}
        covers_guild = session.covers(world.guild_id)
        ready = {
            "v": 10,
            "user": user,
            "guilds": [{"id": str(world.guild_id), "unavailable": True}] if covers_guild else [],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "shard": shard,
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["fake-discord"],
        }
        await session.dispatch("READY", ready)
        if covers_guild:
            guild = world.guild_payload(threads=self.backend.threads())
            await session.dispatch("GUILD_CREATE", guild)
        session.ready = True
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: JSON) -> GatewaySession | None:
        for session in self.sessions:
            if session.session_id == data.get("session_id"):
                if self.token is not None and data.get("token") != self.token:
                    break
                await session.replay(ws, int(data.get("seq") or 0))
                return session
        await ws.send_str(json.dumps({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None}))
        return None

    async def _request_members(self, session: GatewaySession, data: JSON) -> None:
        members = self.world.members
        if data.get("user_ids"):
            wanted = {int(u) for u in data["user_ids"]}
            members = [m for m in members if int(m["user"]["id"]) in wanted]
        elif data.get("query"):
            query = str(data["query"]).lower()
            members = [m for m in members if m["user"]["username"].lower().startswith(query)]
        limit = int(data.get("limit") or 0)
        if limit:
            members = members[:limit]
        chunk: JSON = {
            "guild_id": str(data["guild_id"]),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    # ------------------------------------------------------------------ REST

    async def _read_body(self, request: web.Request) -> tuple[Any, list[RecordedFile]]:
        if request.content_type.startswith("multipart/"):
            return _read_multipart(await request.read(), request.headers["Content-Type"])
        text = await request.text()
        return (json.loads(text) if text else None), []

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        public = re.match(r"/(webhooks|interactions)/", path) is not None
        auth = request.headers.get("Authorization")
        if self.token is not None and not public and auth != f"Bot {self.token}":
            return _json_response(401, {"message": "401: Unauthorized", "code": 0})
        body, files = await self._read_body(request)
        status, response = self.backend.handle(
            request.method, path, query=dict(request.query), body=body, files=files
        )
        await self._flush_events()
        if request.method != "GET":
            self.save_state()
        await self._notify()
        return _json_response(status, response)

    async def _cdn(self, request: web.Request) -> web.Response:
        data = self.backend.attachment_data.get(int(request.match_info["attachment_id"]))
        if data is None:
            return web.Response(status=404)
        return web.Response(body=data, content_type="application/octet-stream")

    # ------------------------------------------------------------------ control API

    async def _control_state(self, request: web.Request) -> web.Response:
        sessions = [
            {"session_id": s.session_id, "alive": s.alive, "ready": s.ready, "intents": s.intents}
            for s in self.sessions
        ]
        return _json_response(
            200,
            {
                "url": self.url,
                "sessions": sessions,
                "messages": [m for _, m in sorted(self.messages.items())],
                "commands": self.backend.commands,
                "request_count": len(self.requests),
            },
        )

    async def _control_requests(self, request: web.Request) -> web.Response:
        since = int(request.query.get("since", "0"))
        return _json_response(200, [r.to_state() for r in self.requests[since:]])

    async def _control_send(self, request: web.Request) -> web.Response:
        spec = await request.json()
        kind = spec.pop("kind")
        timeout = float(spec.pop("timeout", 5.0))
        senders: dict[str, Callable[..., Any]] = {
            "slash": self.send_slash,
            "autocomplete": self.send_autocomplete,
            "component": self.send_component,
            "modal": self.send_modal_submit,
            "raw": self.send_interaction,
        }
        try:
            interaction_id = await senders[kind](**spec, timeout=timeout)
        except (LookupError, ValueError, TypeError, TimeoutError) as exc:
            return _json_response(400, {"message": f"{type(exc).__name__}: {exc}", "code": 0})
        return _json_response(200, {"id": str(interaction_id)})

    async def _control_result(self, request: web.Request) -> web.Response:
        interaction_id = int(request.match_info["interaction_id"])
        if not self.backend.has_interaction(interaction_id):
            return _json_response(404, {"message": "unknown interaction", "code": 0})
        try:
            result = await self.wait_for_response(
                interaction_id,
                timeout=float(request.query.get("timeout", "5")),
                followups=int(request.query.get("followups", "0")),
                edits=int(request.query.get("edits", "0")),
            )
        except TimeoutError as exc:
            return _json_response(408, {"message": str(exc), "code": 0})
        return _json_response(200, result.to_state())

    async def _control_wait_ready(self, request: web.Request) -> web.Response:
        try:
            session = await self.wait_for_ready(timeout=float(request.query.get("timeout", "5")))
        except TimeoutError as exc:
            return _json_response(408, {"message": str(exc), "code": 0})
        return _json_response(200, {"session_id": session.session_id})


class FakeDiscordRemote:
    """Drive a :class:`FakeDiscord` running in another process through ``/_fake/...``.

    Usage::

        async with FakeDiscordRemote("http://127.0.0.1:8555") as remote:
            await remote.wait_for_ready(timeout=20)
            iid = await remote.send_slash("ping", {"word": "hi"})
            result = await remote.wait_for_response(iid)
    """

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> FakeDiscordRemote:
        self._session = aiohttp.ClientSession()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._session is not None:
            await self._session.close()

    async def _call(
        self, method: str, path: str, *, params: Mapping[str, str] | None = None, body: Any = None
    ) -> Any:
        if self._session is None:
            raise RuntimeError("use `async with FakeDiscordRemote(...)`")
        async with self._session.request(
            method, self.url + path, params=params, json=body
        ) as response:
            data = await response.json()
            if response.status == 408:
                raise TimeoutError(data["message"])
            if response.status >= 400:
                raise RuntimeError(data["message"])
            return data

    async def wait_for_ready(self, *, timeout: float = 5.0) -> str:
        """Wait for a ready bot session; returns its session id."""
        data = await self._call("POST", "/_fake/wait_ready", params={"timeout": str(timeout)})
        return str(data["session_id"])

    async def state(self) -> JSON:
        """Sessions, stored messages, commands and the request count."""
        data: JSON = await self._call("GET", "/_fake/state")
        return data

    async def requests(self, since: int = 0) -> list[RecordedRequest]:
        """Recorded REST calls (from index ``since``)."""
        data = await self._call("GET", "/_fake/requests", params={"since": str(since)})
        return [RecordedRequest.from_state(r) for r in data]

    async def _send(self, kind: str, **spec: Any) -> int:
        data = await self._call("POST", "/_fake/interactions", body={"kind": kind, **spec})
        return int(data["id"])

    async def send_slash(
        self, name: str, options: Mapping[str, Any] | None = None, **kw: Any
    ) -> int:
        """See :meth:`FakeDiscord.send_slash` (options must be JSON-serialisable)."""
        return await self._send("slash", name=name, options=dict(options or {}), **kw)

    async def send_autocomplete(
        self,
        name: str,
        focused: str,
        value: str = "",
        options: Mapping[str, Any] | None = None,
        **kw: Any,
    ) -> int:
        """See :meth:`FakeDiscord.send_autocomplete`."""
        return await self._send(
            "autocomplete",
            name=name,
            focused=focused,
            value=value,
            options=dict(options or {}),
            **kw,
        )

    async def send_component(self, message_id: int | str, custom_id: str, **kw: Any) -> int:
        """See :meth:`FakeDiscord.send_component`."""
        return await self._send("component", message=str(message_id), custom_id=custom_id, **kw)

    async def wait_for_response(
        self, interaction_id: int, *, timeout: float = 5.0, followups: int = 0, edits: int = 0
    ) -> InteractionResult:
        """See :meth:`FakeDiscord.wait_for_response`."""
        params = {"timeout": str(timeout), "followups": str(followups), "edits": str(edits)}
        data = await self._call("GET", f"/_fake/interactions/{interaction_id}", params=params)
        return InteractionResult.from_state(data)


# --------------------------------------------------------------------------- CLI


async def _serve(args: argparse.Namespace) -> None:
    fake = FakeDiscord(
        host=args.host,
        port=args.port,
        token=args.token,
        state_file=args.state_file,
        patch_discord=False,
        heartbeat_interval_ms=args.heartbeat_ms,
        stop_close_code=1001,  # let a running bot reconnect to a restarted fake
    )
    await fake.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    print(f"FAKE_DISCORD_URL {fake.url}", flush=True)
    try:
        await stop.wait()
    finally:
        await fake.stop()


def main(argv: Sequence[str] | None = None) -> None:
    """Run the fake as a process until SIGINT/SIGTERM."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 = pick a free port")
    parser.add_argument("--state-file", default=None, help="persist state in this JSON file")
    parser.add_argument("--token", default=None, help="require this bot token")
    parser.add_argument("--heartbeat-ms", type=int, default=41250)
    args = parser.parse_args(argv)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(args))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
