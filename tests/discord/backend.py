"""In-memory model of the part of the Discord REST API a bot uses.

:class:`FakeBackend` is transport-agnostic: ``handle(method, path, query, body, files)`` returns
``(status, json_body)``. The aiohttp fake server (:mod:`tests.discord.fake_discord`) routes real
HTTP requests to it and the in-process driver (:mod:`tests.discord.payloads`) routes captured
discord.py requests to it, so both share one implementation of the semantics:

* messages (channel messages, interaction responses, webhook follow-ups) get snowflake ids and
  are stored, edited and deleted; uploaded files become attachments whose bytes are kept;
* application commands are bulk-overwritten per scope (global or guild) with stable ids;
* interaction callbacks answer like discord.py 2.7 expects (``?with_response=true``:
  ``{"interaction": {...}, "resource": {"type": ..., "message": {...}}}``) and may only happen
  once; follow-ups are only accepted after the callback; the first follow-up after a deferral
  edits the "thinking" message, as on Discord;
* every request is recorded in :attr:`FakeBackend.requests`; gateway events that Discord would
  send in reaction (``MESSAGE_CREATE``, ``THREAD_CREATE`` ...) are queued in
  :attr:`FakeBackend.pending_events`.

:class:`World` describes the single guild the fake serves (roles, channels, members) and the
module has builders for the entity payloads (users, members, channels, messages ...).
"""

from __future__ import annotations

import base64
import copy
import datetime as dt
import mimetypes
import re
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, ClassVar

import discord

from tests.discord import limits

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1420070400000
#: Message flag: only the invoking user sees the message.
EPHEMERAL = 1 << 6
#: Message flag: the "Bot is thinking..." placeholder of a deferred interaction.
LOADING = 1 << 7
#: Default ``attachment_size_limit`` put into interaction payloads (10 MiB).
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


class InteractionType(IntEnum):
    """Discord interaction types (``INTERACTION_CREATE.type``)."""

    PING = 1
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class CallbackType(IntEnum):
    """Interaction callback (response) types."""

    PONG = 1
    CHANNEL_MESSAGE = 4
    DEFERRED_CHANNEL_MESSAGE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    AUTOCOMPLETE_RESULT = 8
    MODAL = 9
    LAUNCH_ACTIVITY = 12


def _snowflake_at(epoch_ms: int, increment: int = 0) -> int:
    return ((epoch_ms - DISCORD_EPOCH_MS) << 22) | increment


class SnowflakeGenerator:
    """Monotonic, time-based snowflake ids (never repeats, even across a state reload)."""

    def __init__(self, floor: int = 0) -> None:
        self._last = floor

    @property
    def last(self) -> int:
        """The last id handed out (or observed)."""
        return self._last

    def next(self) -> int:
        """Return a fresh snowflake larger than every previous one."""
        candidate = _snowflake_at(int(time.time() * 1000))
        self._last = max(candidate, self._last + 1)
        return self._last

    def observe(self, value: int) -> None:
        """Make sure future ids are larger than ``value``."""
        self._last = max(self._last, value)


def iso_now() -> str:
    """The current time as an ISO-8601 string, as Discord formats timestamps."""
    return dt.datetime.now(dt.UTC).isoformat()


# --------------------------------------------------------------------------- entity payloads


def user_payload(
    user_id: int, username: str, *, bot: bool = False, global_name: str | None = None
) -> JSON:
    """A Discord user object."""
    return {
        "id": str(user_id),
        "username": username,
        "discriminator": "0",
        "global_name": global_name if global_name is not None else (None if bot else username),
        "avatar": None,
        "bot": bot,
        "system": False,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
    }


def member_payload(
    user: JSON,
    *,
    roles: Iterable[int] = (),
    nick: str | None = None,
    joined_at: str | None = None,
    permissions: int | None = None,
    flags: int = 0,
) -> JSON:
    """A guild member object (with ``user``); ``permissions`` is only set in interactions."""
    data: JSON = {
        "user": copy.deepcopy(user),
        "nick": nick,
        "avatar": None,
        "banner": None,
        "roles": [str(r) for r in roles],
        "joined_at": joined_at or "2024-01-01T00:00:00+00:00",
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": flags,
        "communication_disabled_until": None,
    }
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def role_payload(
    role_id: int,
    name: str,
    *,
    permissions: int,
    position: int = 0,
    color: int = 0,
    hoist: bool = False,
    managed: bool = False,
    mentionable: bool = False,
    bot_id: int | None = None,
) -> JSON:
    """A guild role object (``bot_id`` marks the bot's managed integration role)."""
    data: JSON = {
        "id": str(role_id),
        "name": name,
        "color": color,
        "colors": {"primary_color": color, "secondary_color": None, "tertiary_color": None},
        "hoist": hoist,
        "icon": None,
        "unicode_emoji": None,
        "position": position,
        "permissions": str(permissions),
        "managed": managed,
        "mentionable": mentionable,
        "flags": 0,
    }
    if bot_id is not None:
        data["tags"] = {"bot_id": str(bot_id)}
    return data


def text_channel_payload(
    channel_id: int,
    guild_id: int,
    name: str,
    *,
    position: int = 0,
    parent_id: int | None = None,
    topic: str | None = None,
    channel_type: int = 0,
) -> JSON:
    """A guild text (type 0), category (4) or forum (15) channel object."""
    data: JSON = {
        "id": str(channel_id),
        "type": channel_type,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": str(parent_id) if parent_id is not None else None,
        "flags": 0,
    }
    if channel_type != 4:
        data.update(topic=topic, last_message_id=None, rate_limit_per_user=0)
    return data


def thread_payload(
    thread_id: int,
    guild_id: int,
    parent_id: int,
    owner_id: int,
    name: str,
    *,
    thread_type: int = 11,
    auto_archive_duration: int = 1440,
    invitable: bool = True,
) -> JSON:
    """A thread channel object (11 = public thread, 12 = private thread)."""
    now = iso_now()
    return {
        "id": str(thread_id),
        "type": thread_type,
        "guild_id": str(guild_id),
        "parent_id": str(parent_id),
        "owner_id": str(owner_id),
        "name": name,
        "last_message_id": None,
        "message_count": 0,
        "member_count": 1,
        "total_message_sent": 0,
        "rate_limit_per_user": 0,
        "flags": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": auto_archive_duration,
            "archive_timestamp": now,
            "locked": False,
            "invitable": invitable,
            "create_timestamp": now,
        },
    }


def dm_channel_payload(channel_id: int, recipient: JSON) -> JSON:
    """A DM channel object."""
    return {
        "id": str(channel_id),
        "type": 1,
        "last_message_id": None,
        "recipients": [copy.deepcopy(recipient)],
        "flags": 0,
    }


def message_payload(
    *,
    message_id: int,
    channel_id: int,
    author: JSON,
    content: str = "",
    embeds: Iterable[JSON] = (),
    components: Iterable[JSON] = (),
    attachments: Iterable[JSON] = (),
    flags: int = 0,
    message_type: int = 0,
    guild_id: int | None = None,
    webhook_id: int | None = None,
    application_id: int | None = None,
) -> JSON:
    """A message object as returned by the REST API."""
    data: JSON = {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "type": message_type,
        "content": content,
        "author": copy.deepcopy(author),
        "attachments": list(attachments),
        "embeds": list(embeds),
        "components": list(components),
        "mentions": [],
        "mention_roles": [],
        "mention_everyone": False,
        "pinned": False,
        "tts": False,
        "timestamp": iso_now(),
        "edited_timestamp": None,
        "flags": flags,
    }
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    if webhook_id is not None:
        data["webhook_id"] = str(webhook_id)
    if application_id is not None:
        data["application_id"] = str(application_id)
    return data


def walk_components(components: Iterable[JSON]) -> Iterable[JSON]:
    """Yield every component of a (nested) component tree, depth first."""
    for component in components:
        yield component
        yield from walk_components(component.get("components") or [])
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            yield accessory


def find_component(message: JSON, custom_id: str) -> JSON | None:
    """The component with ``custom_id`` in a message payload, or ``None``."""
    for component in walk_components(message.get("components") or []):
        if component.get("custom_id") == custom_id:
            return component
    return None


# --------------------------------------------------------------------------- the world

_BASE_MS = 1_700_000_000_000
APPLICATION_ID = _snowflake_at(_BASE_MS, 1)
BOT_USER_ID = APPLICATION_ID  # modern bots share the application's id
GUILD_ID = _snowflake_at(_BASE_MS, 10)
PLAYERS_ROLE_ID = _snowflake_at(_BASE_MS, 11)
BOT_ROLE_ID = _snowflake_at(_BASE_MS, 12)
CATEGORY_ID = _snowflake_at(_BASE_MS, 20)
GENERAL_CHANNEL_ID = _snowflake_at(_BASE_MS, 21)
GAMES_CHANNEL_ID = _snowflake_at(_BASE_MS, 22)
ALICE_ID = _snowflake_at(_BASE_MS, 31)
BOB_ID = _snowflake_at(_BASE_MS, 32)
CAROL_ID = _snowflake_at(_BASE_MS, 33)

EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    read_message_history=True,
    use_application_commands=True,
    use_external_emojis=True,
).value
BOT_PERMISSIONS = (
    EVERYONE_PERMISSIONS
    | discord.Permissions(
        manage_messages=True, manage_threads=True, create_private_threads=True
    ).value
)


@dataclass
class World:
    """The application, bot user and the single guild served by the fake."""

    application_id: int
    bot_user: JSON
    guild_id: int
    guild_name: str
    owner_id: int
    roles: list[JSON]
    channels: list[JSON]
    members: list[JSON]
    locale: str = "en-US"
    #: False once the bot was removed from the guild: its channels answer "Missing Access".
    bot_in_guild: bool = True

    @classmethod
    def default(cls) -> World:
        """A guild "Junction Test Guild" with #general, #games and users alice, bob, carol."""
        bot = user_payload(BOT_USER_ID, "Junction", bot=True)
        roles = [
            role_payload(GUILD_ID, "@everyone", permissions=EVERYONE_PERMISSIONS),
            role_payload(PLAYERS_ROLE_ID, "Players", permissions=0, position=1, mentionable=True),
            role_payload(
                BOT_ROLE_ID,
                "Junction",
                permissions=BOT_PERMISSIONS,
                position=2,
                managed=True,
                bot_id=BOT_USER_ID,
            ),
        ]
        channels = [
            text_channel_payload(CATEGORY_ID, GUILD_ID, "Text Channels", channel_type=4),
            text_channel_payload(GENERAL_CHANNEL_ID, GUILD_ID, "general", parent_id=CATEGORY_ID),
            text_channel_payload(
                GAMES_CHANNEL_ID, GUILD_ID, "games", position=1, parent_id=CATEGORY_ID
            ),
        ]
        members = [
            member_payload(bot, roles=[BOT_ROLE_ID]),
            member_payload(user_payload(ALICE_ID, "alice"), roles=[PLAYERS_ROLE_ID]),
            member_payload(user_payload(BOB_ID, "bob"), roles=[PLAYERS_ROLE_ID]),
            member_payload(user_payload(CAROL_ID, "carol")),
        ]
        return cls(
            application_id=APPLICATION_ID,
            bot_user=bot,
            guild_id=GUILD_ID,
            guild_name="Junction Test Guild",
            owner_id=ALICE_ID,
            roles=roles,
            channels=channels,
            members=members,
        )

    @property
    def bot_user_id(self) -> int:
        """The bot user's id."""
        return int(self.bot_user["id"])

    def member(self, user_id: int) -> JSON | None:
        """The member payload of ``user_id`` (or ``None``)."""
        for member in self.members:
            if int(member["user"]["id"]) == user_id:
                return member
        return None

    def member_by_name(self, username: str) -> JSON:
        """The member whose user is called ``username``."""
        for member in self.members:
            if member["user"]["username"] == username:
                return member
        raise KeyError(username)

    def channel_by_name(self, name: str) -> JSON:
        """The guild channel called ``name``."""
        for channel in self.channels:
            if channel["name"] == name:
                return channel
        raise KeyError(name)

    def role(self, role_id: int) -> JSON | None:
        """The role payload with ``role_id`` (or ``None``)."""
        for role in self.roles:
            if int(role["id"]) == role_id:
                return role
        return None

    def permissions_for(self, user_id: int) -> int:
        """Guild-level permissions of a member (owner gets everything)."""
        if user_id == self.owner_id:
            return discord.Permissions.all().value
        member = self.member(user_id)
        value = 0
        role_ids = [self.guild_id] + [int(r) for r in (member or {}).get("roles", [])]
        for role_id in role_ids:
            role = self.role(role_id)
            if role is not None:
                value |= int(role["permissions"])
        if value & discord.Permissions(administrator=True).value:
            return discord.Permissions.all().value
        return value

    def channel_permissions_for(self, user_id: int, channel: JSON | None) -> int:
        """Permissions of a member in a channel: the guild's, then the channel's overwrites
        (@everyone, the member's roles, the member), as Discord applies them. A thread uses
        its parent channel's overwrites."""
        value = self.permissions_for(user_id)
        if channel is None or value == discord.Permissions.all().value:
            return value
        parent_id = channel.get("parent_id")
        if channel.get("type") in (10, 11, 12) and parent_id is not None:
            parent = next((c for c in self.channels if c["id"] == str(parent_id)), None)
            overwrites = (parent or {}).get("permission_overwrites") or []
        else:
            overwrites = channel.get("permission_overwrites") or []
        member = self.member(user_id) or {}
        roles = {str(r) for r in member.get("roles", [])}
        for wanted in ("everyone", "roles", "member"):
            for overwrite in overwrites:
                target = str(overwrite["id"])
                hit = (
                    (wanted == "everyone" and target == str(self.guild_id))
                    or (wanted == "roles" and overwrite.get("type") == 0 and target in roles)
                    or (
                        wanted == "member" and overwrite.get("type") == 1 and target == str(user_id)
                    )
                )
                if hit:
                    value = (value & ~int(overwrite.get("deny") or 0)) | int(
                        overwrite.get("allow") or 0
                    )
        return value

    def guild_payload(self, *, threads: Iterable[JSON] = ()) -> JSON:
        """The full ``GUILD_CREATE`` payload (``member_count`` == members, so no chunking)."""
        return {
            "id": str(self.guild_id),
            "name": self.guild_name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": str(GENERAL_CHANNEL_ID)
            if any(int(c["id"]) == GENERAL_CHANNEL_ID for c in self.channels)
            else None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": self.locale,
            "nsfw_level": 0,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "roles": copy.deepcopy(self.roles),
            "emojis": [],
            "stickers": [],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "members": copy.deepcopy(self.members),
            "channels": copy.deepcopy(self.channels),
            "threads": [copy.deepcopy(t) for t in threads],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def application_payload(self) -> JSON:
        """``GET /oauth2/applications/@me``."""
        owner = self.member(self.owner_id)
        return {
            "id": str(self.application_id),
            "name": self.bot_user["username"],
            "icon": None,
            "description": "Fake Discord application",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "bot": copy.deepcopy(self.bot_user),
            "owner": copy.deepcopy(owner["user"] if owner else self.bot_user),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": 1,
        }

    def to_state(self) -> JSON:
        """JSON-serialisable form."""
        return {
            "application_id": self.application_id,
            "bot_user": self.bot_user,
            "guild_id": self.guild_id,
            "guild_name": self.guild_name,
            "owner_id": self.owner_id,
            "roles": self.roles,
            "channels": self.channels,
            "members": self.members,
            "locale": self.locale,
            "bot_in_guild": self.bot_in_guild,
        }

    @classmethod
    def from_state(cls, data: JSON) -> World:
        """Inverse of :meth:`to_state`."""
        return cls(**data)


# --------------------------------------------------------------------------- records


@dataclass
class RecordedFile:
    """A file uploaded in a multipart request."""

    field_name: str
    filename: str
    data: bytes
    content_type: str | None = None

    @property
    def text(self) -> str:
        """The bytes decoded as UTF-8."""
        return self.data.decode()

    def to_state(self) -> JSON:
        """JSON-serialisable form (bytes base64-encoded)."""
        return {
            "field_name": self.field_name,
            "filename": self.filename,
            "data": base64.b64encode(self.data).decode(),
            "content_type": self.content_type,
        }

    @classmethod
    def from_state(cls, data: JSON) -> RecordedFile:
        """Inverse of :meth:`to_state`."""
        return cls(
            field_name=data["field_name"],
            filename=data["filename"],
            data=base64.b64decode(data["data"]),
            content_type=data.get("content_type"),
        )


@dataclass
class RecordedRequest:
    """One REST call the bot made (path is relative to ``/api/v10``)."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[RecordedFile]
    status: int = 0
    response: Any = None

    def matches(self, method: str, pattern: str) -> bool:
        """Whether this request has ``method`` and its path fully matches regex ``pattern``."""
        return self.method == method.upper() and re.fullmatch(pattern, self.path) is not None

    def to_state(self) -> JSON:
        """JSON-serialisable form."""
        return {
            "method": self.method,
            "path": self.path,
            "query": self.query,
            "json": self.json,
            "files": [f.to_state() for f in self.files],
            "status": self.status,
            "response": self.response,
        }

    @classmethod
    def from_state(cls, data: JSON) -> RecordedRequest:
        """Inverse of :meth:`to_state`."""
        return cls(
            method=data["method"],
            path=data["path"],
            query=data["query"],
            json=data["json"],
            files=[RecordedFile.from_state(f) for f in data["files"]],
            status=data["status"],
            response=data["response"],
        )


@dataclass
class CapturedResponse:
    """One thing the bot did in answer to an interaction.

    ``kind`` is ``"callback"`` (the interaction response), ``"followup"`` (webhook message),
    ``"edit"`` (PATCH of the original or a follow-up), ``"delete"`` or ``"fetch"``.
    ``body`` is the raw JSON the bot sent (for callbacks ``{"type": ..., "data": ...}``),
    ``message`` a snapshot of the stored message right after the operation.
    """

    kind: str
    body: JSON
    files: list[RecordedFile] = field(default_factory=list)
    callback_type: int | None = None
    message_id: int | None = None
    message: JSON | None = None

    @property
    def data(self) -> JSON:
        """The message-ish part: ``body["data"]`` for callbacks, else the body itself."""
        if self.kind == "callback":
            inner = self.body.get("data")
            return inner if isinstance(inner, dict) else {}
        return self.body

    @property
    def content(self) -> str | None:
        """The ``content`` sent (``None`` if not sent)."""
        value = self.data.get("content")
        return None if value is None else str(value)

    @property
    def flags(self) -> int:
        """Message flags sent (``0`` if none)."""
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        """Whether the sent flags include the ephemeral bit (64)."""
        if self.message is not None:
            return bool(int(self.message.get("flags") or 0) & EPHEMERAL)
        return bool(self.flags & EPHEMERAL)

    @property
    def embeds(self) -> list[JSON]:
        """Embeds sent."""
        return list(self.data.get("embeds") or [])

    @property
    def components(self) -> list[JSON]:
        """Top-level components sent."""
        return list(self.data.get("components") or [])

    @property
    def custom_ids(self) -> list[str]:
        """All ``custom_id`` values in the sent components (also nested)."""
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]

    @property
    def attachments(self) -> list[JSON]:
        """Attachments of the resulting message (or those declared in the body)."""
        if self.message is not None:
            return list(self.message.get("attachments") or [])
        return list(self.data.get("attachments") or [])

    @property
    def choices(self) -> list[JSON]:
        """Autocomplete choices (callback type 8)."""
        return list(self.data.get("choices") or [])

    def file(self, filename: str) -> bytes:
        """Bytes of the uploaded file called ``filename``."""
        for f in self.files:
            if f.filename == filename:
                return f.data
        raise KeyError(filename)

    def to_state(self) -> JSON:
        """JSON-serialisable form."""
        return {
            "kind": self.kind,
            "body": self.body,
            "files": [f.to_state() for f in self.files],
            "callback_type": self.callback_type,
            "message_id": self.message_id,
            "message": self.message,
        }

    @classmethod
    def from_state(cls, data: JSON) -> CapturedResponse:
        """Inverse of :meth:`to_state`."""
        return cls(
            kind=data["kind"],
            body=data["body"],
            files=[RecordedFile.from_state(f) for f in data["files"]],
            callback_type=data.get("callback_type"),
            message_id=data.get("message_id"),
            message=data.get("message"),
        )


@dataclass
class InteractionResult:
    """Everything the bot did for one interaction (a snapshot)."""

    interaction_id: int
    payload: JSON
    responses: list[CapturedResponse]
    original_message: JSON | None = None
    followup_messages: list[JSON] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def callback(self) -> CapturedResponse | None:
        """The interaction callback, or ``None`` if the bot never responded."""
        for response in self.responses:
            if response.kind == "callback":
                return response
        return None

    @property
    def callback_type(self) -> int | None:
        """The callback type (4 message, 5 deferred, 6 deferred update, 7 update, 8 choices...)."""
        callback = self.callback
        return None if callback is None else callback.callback_type

    @property
    def followups(self) -> list[CapturedResponse]:
        """Follow-up messages sent through the interaction webhook."""
        return [r for r in self.responses if r.kind == "followup"]

    @property
    def edits(self) -> list[CapturedResponse]:
        """Edits of the original response or follow-ups."""
        return [r for r in self.responses if r.kind == "edit"]

    @property
    def content(self) -> str | None:
        """Current content of the response message (falls back to the callback's content)."""
        if self.original_message is not None:
            return str(self.original_message.get("content") or "")
        callback = self.callback
        return None if callback is None else callback.content

    @property
    def ephemeral(self) -> bool:
        """Whether the response message is ephemeral."""
        if self.original_message is not None:
            return bool(int(self.original_message.get("flags") or 0) & EPHEMERAL)
        callback = self.callback
        return callback is not None and callback.ephemeral

    @property
    def choices(self) -> list[JSON]:
        """Autocomplete choices returned."""
        callback = self.callback
        return [] if callback is None else callback.choices

    @property
    def message(self) -> JSON | None:
        """The message the response created/updated (use it for a follow-up component click)."""
        return self.original_message

    @property
    def custom_ids(self) -> list[str]:
        """``custom_id`` values of the response message's components."""
        if self.original_message is None:
            return []
        components = self.original_message.get("components") or []
        return [c["custom_id"] for c in walk_components(components) if "custom_id" in c]

    def to_state(self) -> JSON:
        """JSON-serialisable form (used by the fake server's control API)."""
        return {
            "interaction_id": self.interaction_id,
            "payload": self.payload,
            "responses": [r.to_state() for r in self.responses],
            "original_message": self.original_message,
            "followup_messages": self.followup_messages,
            "errors": self.errors,
        }

    @classmethod
    def from_state(cls, data: JSON) -> InteractionResult:
        """Inverse of :meth:`to_state`."""
        return cls(
            interaction_id=int(data["interaction_id"]),
            payload=data["payload"],
            responses=[CapturedResponse.from_state(r) for r in data["responses"]],
            original_message=data.get("original_message"),
            followup_messages=list(data.get("followup_messages") or []),
            errors=list(data.get("errors") or []),
        )


@dataclass
class _Interaction:
    id: int
    token: str
    payload: JSON
    responses: list[CapturedResponse] = field(default_factory=list)
    acknowledged: bool = False
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)

    @property
    def channel_id(self) -> int:
        channel = self.payload.get("channel") or {}
        return int(channel.get("id") or self.payload["channel_id"])

    def to_state(self) -> JSON:
        return {
            "id": self.id,
            "token": self.token,
            "payload": self.payload,
            "responses": [r.to_state() for r in self.responses],
            "acknowledged": self.acknowledged,
            "original_message_id": self.original_message_id,
            "followup_ids": self.followup_ids,
        }

    @classmethod
    def from_state(cls, data: JSON) -> _Interaction:
        return cls(
            id=data["id"],
            token=data["token"],
            payload=data["payload"],
            responses=[CapturedResponse.from_state(r) for r in data["responses"]],
            acknowledged=data["acknowledged"],
            original_message_id=data.get("original_message_id"),
            followup_ids=list(data.get("followup_ids") or []),
        )


@dataclass
class _FailAfter:
    """Requests performed and then answered with a server error (``FakeBackend.fail_after``)."""

    method: str
    pattern: re.Pattern[str]
    times: int
    status: int
    skip: int


class HTTPError(Exception):
    """Raised by route handlers; turned into a Discord-style JSON error response."""

    def __init__(self, status: int, message: str, code: int = 0) -> None:
        super().__init__(message)
        self.status = status
        self.body: JSON = {"message": message, "code": code}


def _not_found(what: str, code: int) -> HTTPError:
    return HTTPError(404, f"Unknown {what}", code)


Handler = Callable[..., tuple[int, Any]]

_ROUTES: list[tuple[str, re.Pattern[str], str]] = []


def _route(method: str, pattern: str) -> Callable[[Handler], Handler]:
    def decorator(func: Handler) -> Handler:
        _ROUTES.append((method, re.compile(pattern), func.__name__))
        return func

    return decorator


class FakeBackend:
    """The in-memory Discord REST API. See the module docstring."""

    #: The limits refused by any backend in this process, for a test-wide check to read.
    refused: ClassVar[list[str]] = []

    def __init__(
        self, world: World | None = None, *, cdn_base_url: str = "http://127.0.0.1"
    ) -> None:
        self.world = world or World.default()
        #: Base URL of attachment links (the fake server serves them).
        self.cdn_base_url = cdn_base_url
        #: What ``GET /gateway`` and ``/gateway/bot`` answer (the fake server sets it).
        self.gateway_url = "ws://127.0.0.1/"
        self.ids = SnowflakeGenerator(floor=_snowflake_at(_BASE_MS, 1000))
        #: Every REST call, in order.
        self.requests: list[RecordedRequest] = []
        #: Stored messages by id (channel messages, interaction responses, follow-ups).
        self.messages: dict[int, JSON] = {}
        #: Bytes of every stored attachment by attachment id.
        self.attachment_data: dict[int, bytes] = {}
        #: Application commands: scope ("global" or a guild id as str) -> name -> command.
        self.commands: dict[str, dict[str, JSON]] = {}
        #: Threads and DM channels created at runtime, by id.
        self.extra_channels: dict[int, JSON] = {}
        #: Gateway events (name, data) Discord would now send; consumers pop them.
        self.pending_events: list[tuple[str, JSON]] = []
        self._interactions: dict[int, _Interaction] = {}
        self._tokens: dict[str, int] = {}
        self._command_ids: dict[tuple[str, str, int], int] = {}
        #: Every limit a refused body broke (``limits``), for tests to assert empty.
        self.form_errors: list[str] = []
        #: Requests Discord performs and then answers with a server error (``fail_after``).
        self._failing_after: list[_FailAfter] = []
        #: Members who left the server (``leave_server``): Discord no longer finds them there,
        #: though they still talk to the bot in their direct messages.
        self.departed: set[int] = set()
        #: Who is in each private thread made by ``open_private_thread`` (Discord shows such a
        #: thread to its members and to those who manage threads).
        self.thread_members: dict[int, set[int]] = {}

    # ------------------------------------------------------------------ persistence

    def to_state(self) -> JSON:
        """Everything except the request log, JSON-serialisable."""
        return {
            "version": 1,
            "last_id": self.ids.last,
            "world": self.world.to_state(),
            "messages": {str(k): v for k, v in self.messages.items()},
            "attachment_data": {
                str(k): base64.b64encode(v).decode() for k, v in self.attachment_data.items()
            },
            "commands": self.commands,
            "command_ids": [[s, n, t, i] for (s, n, t), i in self._command_ids.items()],
            "extra_channels": {str(k): v for k, v in self.extra_channels.items()},
            "interactions": [i.to_state() for i in self._interactions.values()],
        }

    @classmethod
    def from_state(cls, data: JSON, *, cdn_base_url: str = "http://127.0.0.1") -> FakeBackend:
        """Inverse of :meth:`to_state`."""
        backend = cls(World.from_state(data["world"]), cdn_base_url=cdn_base_url)
        backend.ids.observe(int(data["last_id"]))
        backend.messages = {int(k): v for k, v in data["messages"].items()}
        backend.attachment_data = {
            int(k): base64.b64decode(v) for k, v in data["attachment_data"].items()
        }
        backend.commands = data["commands"]
        backend._command_ids = {(s, n, int(t)): int(i) for s, n, t, i in data["command_ids"]}
        backend.extra_channels = {int(k): v for k, v in data["extra_channels"].items()}
        for raw in data["interactions"]:
            interaction = _Interaction.from_state(raw)
            backend._interactions[interaction.id] = interaction
            backend._tokens[interaction.token] = interaction.id
        return backend

    # ------------------------------------------------------------------ lookups

    @property
    def bot_user(self) -> JSON:
        """The bot's user payload."""
        return self.world.bot_user

    @property
    def application_id(self) -> int:
        """The application id."""
        return self.world.application_id

    def channel(self, channel_id: int) -> JSON | None:
        """A guild channel, thread or DM channel by id."""
        for channel in self.world.channels:
            if int(channel["id"]) == channel_id:
                return channel
        return self.extra_channels.get(channel_id)

    def threads(self) -> list[JSON]:
        """Threads created so far."""
        return [c for c in self.extra_channels.values() if c["type"] in (10, 11, 12)]

    def channel_messages(self, channel_id: int) -> list[JSON]:
        """Non-ephemeral messages in a channel, oldest first."""
        return [
            m
            for _, m in sorted(self.messages.items())
            if int(m["channel_id"]) == channel_id and not int(m.get("flags") or 0) & EPHEMERAL
        ]

    def command_id(self, scope: str, name: str, command_type: int = 1) -> int:
        """Stable id of a command (assigned on first use, kept across re-syncs)."""
        key = (scope, name, command_type)
        if key not in self._command_ids:
            self._command_ids[key] = self.ids.next()
        return self._command_ids[key]

    def find_command(
        self, name: str, guild_id: int | None = None, command_type: int = 1
    ) -> tuple[JSON, int | None] | None:
        """A synced command by name: guild scope first, then global. Returns (command, guild)."""
        if guild_id is not None:
            for command in self.commands.get(str(guild_id), {}).values():
                if command["name"] == name and command.get("type", 1) == command_type:
                    return command, guild_id
        for command in self.commands.get("global", {}).values():
            if command["name"] == name and command.get("type", 1) == command_type:
                return command, None
        return None

    # ------------------------------------------------------------------ interactions

    def register_interaction(self, payload: JSON) -> int:
        """Remember an interaction (before it is sent to the bot) so its token works."""
        interaction = _Interaction(id=int(payload["id"]), token=payload["token"], payload=payload)
        self.ids.observe(interaction.id)
        self._interactions[interaction.id] = interaction
        self._tokens[interaction.token] = interaction.id
        return interaction.id

    def has_interaction(self, interaction_id: int) -> bool:
        """Whether an interaction with this id was registered."""
        return interaction_id in self._interactions

    def interaction_result(self, interaction_id: int) -> InteractionResult:
        """A snapshot of what the bot did for an interaction."""
        interaction = self._interactions[interaction_id]
        original = None
        if interaction.original_message_id is not None:
            original = self.messages.get(interaction.original_message_id)
        followups = [
            copy.deepcopy(self.messages[mid])
            for mid in interaction.followup_ids
            if mid in self.messages
        ]
        return InteractionResult(
            interaction_id=interaction.id,
            payload=copy.deepcopy(interaction.payload),
            responses=copy.deepcopy(interaction.responses),
            original_message=copy.deepcopy(original),
            followup_messages=followups,
        )

    def response_counts(self, interaction_id: int) -> tuple[bool, int, int]:
        """(acknowledged, number of follow-ups, number of edits) of an interaction."""
        interaction = self._interactions[interaction_id]
        followups = sum(1 for r in interaction.responses if r.kind == "followup")
        edits = sum(1 for r in interaction.responses if r.kind == "edit")
        return interaction.acknowledged, followups, edits

    # ------------------------------------------------------------------ dispatch

    def fail_after(
        self, method: str, pattern: str, *, times: int = 1, status: int = 500, skip: int = 0
    ) -> None:
        """Perform the next ``times`` requests ``method`` ``pattern`` (a regex over the path),
        after the first ``skip`` of them, and answer each with ``status``, as Discord does in
        an outage: the message is posted (or the edit made) and the bot is told it failed."""
        fault = _FailAfter(method.upper(), re.compile(pattern), times, status, skip)
        self._failing_after.append(fault)

    def handle(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, str] | None = None,
        body: Any = None,
        files: list[RecordedFile] | None = None,
    ) -> tuple[int, Any]:
        """Serve one REST call; ``path`` is relative to ``/api/v10``. Returns (status, json)."""
        method = method.upper()
        path = path.split("?", 1)[0]
        record = RecordedRequest(
            method=method,
            path=path,
            query=dict(query or {}),
            json=copy.deepcopy(body),
            files=list(files or []),
        )
        self.requests.append(record)
        try:
            status, response = self._dispatch(method, path, record)
        except HTTPError as exc:
            status, response = exc.status, exc.body
        if status < 400:
            status, response = self._failed_after(record, status, response)
        record.status = status
        record.response = copy.deepcopy(response)
        return status, response

    def _failed_after(self, record: RecordedRequest, status: int, response: Any) -> tuple[int, Any]:
        """The answer to a request performed: a server error ``fail_after`` asked for, if any."""
        for fault in self._failing_after:
            if fault.times > 0 and record.matches(fault.method, fault.pattern.pattern):
                if fault.skip > 0:
                    fault.skip -= 1
                    continue
                fault.times -= 1
                return fault.status, {"message": f"{fault.status}: Server Error", "code": 0}
        return status, response

    def _refuse_broken(self, problems: list[str]) -> None:
        """Discord's 400 for a body over its limits: nothing is stored or sent."""
        if problems:
            self.form_errors.extend(problems)
            FakeBackend.refused.extend(problems)
            raise HTTPError(400, "Invalid Form Body: " + "; ".join(problems), 50035)

    def _dispatch(self, method: str, path: str, record: RecordedRequest) -> tuple[int, Any]:
        for route_method, pattern, name in _ROUTES:
            if route_method != method:
                continue
            match = pattern.fullmatch(path)
            if match is not None:
                handler = getattr(self, name)
                result: tuple[int, Any] = handler(record, **match.groupdict())
                return result
        raise HTTPError(404, f"404: Not Found (fake Discord has no route {method} {path})")

    @property
    def unhandled_requests(self) -> list[RecordedRequest]:
        """Requests that hit no route of the fake (worth asserting empty in tests)."""
        return [r for r in self.requests if r.status == 404 and "has no route" in str(r.response)]

    def attachment_bytes(self, url: str) -> bytes | None:
        """The stored bytes behind an attachment URL handed out by this backend."""
        match = re.search(r"/attachments/\d+/(\d+)/", url)
        return None if match is None else self.attachment_data.get(int(match.group(1)))

    def pop_events(self) -> list[tuple[str, JSON]]:
        """Take the queued gateway events."""
        events, self.pending_events = self.pending_events, []
        return events

    def _emit(self, name: str, data: JSON) -> None:
        self.pending_events.append((name, copy.deepcopy(data)))

    # ------------------------------------------------------------------ users / app / gateway

    @_route("GET", r"/users/@me")
    def _get_me(self, record: RecordedRequest) -> tuple[int, Any]:
        return 200, self.bot_user

    @_route("GET", r"/users/(?P<user_id>\d+)")
    def _get_user(self, record: RecordedRequest, user_id: str) -> tuple[int, Any]:
        member = self.world.member(int(user_id))
        if member is None:
            raise _not_found("User", 10013)
        return 200, member["user"]

    @_route("POST", r"/users/@me/channels")
    def _create_dm(self, record: RecordedRequest) -> tuple[int, Any]:
        recipient_id = int((record.json or {})["recipient_id"])
        if self.world.member(recipient_id) is None:
            raise _not_found("User", 10013)
        return 200, self.dm_channel_for(recipient_id)

    def dm_channel_for(self, user_id: int) -> JSON:
        """The DM channel between the bot and a member (created on first use)."""
        for channel in self.extra_channels.values():
            if channel["type"] == 1 and int(channel["recipients"][0]["id"]) == user_id:
                return channel
        member = self.world.member(user_id)
        if member is None:
            raise KeyError(f"user {user_id} is not a member of the fake guild")
        channel = dm_channel_payload(self.ids.next(), member["user"])
        self.extra_channels[int(channel["id"])] = channel
        return channel

    @_route("GET", r"/(?:oauth2/)?applications/@me")
    def _get_application(self, record: RecordedRequest) -> tuple[int, Any]:
        return 200, self.world.application_payload()

    @_route("GET", r"/gateway")
    def _get_gateway(self, record: RecordedRequest) -> tuple[int, Any]:
        return 200, {"url": self.gateway_url}

    @_route("GET", r"/gateway/bot")
    def _get_gateway_bot(self, record: RecordedRequest) -> tuple[int, Any]:
        limits = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return 200, {"url": self.gateway_url, "shards": 1, "session_start_limit": limits}

    # ------------------------------------------------------------------ application commands

    def _scope(self, application_id: str, guild_id: str | None) -> str:
        if int(application_id) != self.application_id:
            raise _not_found("Application", 10002)
        if guild_id is None:
            return "global"
        if int(guild_id) != self.world.guild_id:
            raise HTTPError(403, "Missing Access", 50001)
        return guild_id

    def _store_command(self, scope: str, raw: JSON) -> JSON:
        command_type = int(raw.get("type", 1))
        command: JSON = {
            "id": str(self.command_id(scope, raw["name"], command_type)),
            "application_id": str(self.application_id),
            "version": str(self.ids.next()),
            "type": command_type,
            "name": raw["name"],
            "description": raw.get("description", ""),
            "options": copy.deepcopy(raw.get("options") or []),
            "default_member_permissions": raw.get("default_member_permissions"),
            "nsfw": bool(raw.get("nsfw", False)),
        }
        for key in ("name_localizations", "description_localizations", "contexts"):
            if key in raw:
                command[key] = copy.deepcopy(raw[key])
        command["integration_types"] = copy.deepcopy(raw.get("integration_types") or [0])
        if scope != "global":
            command["guild_id"] = scope
        elif "dm_permission" in raw:
            command["dm_permission"] = raw["dm_permission"]
        return command

    @_route("PUT", r"/applications/(?P<app>\d+)(?:/guilds/(?P<guild>\d+))?/commands")
    def _bulk_overwrite(
        self, record: RecordedRequest, app: str, guild: str | None
    ) -> tuple[int, Any]:
        scope = self._scope(app, guild)
        if not isinstance(record.json, list):
            raise HTTPError(400, "Invalid Form Body", 50035)
        self._refuse_broken([p for raw in record.json for p in limits.command_problems(raw)])
        stored = [self._store_command(scope, raw) for raw in record.json]
        self.commands[scope] = {c["name"] + f"\x00{c['type']}": c for c in stored}
        return 200, stored

    @_route("GET", r"/applications/(?P<app>\d+)(?:/guilds/(?P<guild>\d+))?/commands")
    def _list_commands(
        self, record: RecordedRequest, app: str, guild: str | None
    ) -> tuple[int, Any]:
        scope = self._scope(app, guild)
        return 200, list(self.commands.get(scope, {}).values())

    @_route("POST", r"/applications/(?P<app>\d+)(?:/guilds/(?P<guild>\d+))?/commands")
    def _upsert_command(
        self, record: RecordedRequest, app: str, guild: str | None
    ) -> tuple[int, Any]:
        scope = self._scope(app, guild)
        self._refuse_broken(limits.command_problems(record.json or {}))
        command = self._store_command(scope, record.json or {})
        self.commands.setdefault(scope, {})[command["name"] + f"\x00{command['type']}"] = command
        return 201, command

    @_route(
        "DELETE", r"/applications/(?P<app>\d+)(?:/guilds/(?P<guild>\d+))?/commands/(?P<cid>\d+)"
    )
    def _delete_command(
        self, record: RecordedRequest, app: str, guild: str | None, cid: str
    ) -> tuple[int, Any]:
        scope = self._scope(app, guild)
        commands = self.commands.get(scope, {})
        for key, command in list(commands.items()):
            if command["id"] == cid:
                del commands[key]
                return 204, None
        raise _not_found("application command", 10063)

    # ------------------------------------------------------------------ guild

    def _check_guild(self, guild_id: str) -> None:
        if int(guild_id) != self.world.guild_id:
            raise _not_found("Guild", 10004)

    @_route("GET", r"/guilds/(?P<guild_id>\d+)")
    def _get_guild(self, record: RecordedRequest, guild_id: str) -> tuple[int, Any]:
        self._check_guild(guild_id)
        payload = self.world.guild_payload()
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            payload.pop(key, None)
        return 200, payload

    @_route("GET", r"/guilds/(?P<guild_id>\d+)/channels")
    def _get_guild_channels(self, record: RecordedRequest, guild_id: str) -> tuple[int, Any]:
        self._check_guild(guild_id)
        return 200, self.world.channels

    @_route("GET", r"/guilds/(?P<guild_id>\d+)/roles")
    def _get_roles(self, record: RecordedRequest, guild_id: str) -> tuple[int, Any]:
        self._check_guild(guild_id)
        return 200, self.world.roles

    @_route("GET", r"/guilds/(?P<guild_id>\d+)/members")
    def _list_members(self, record: RecordedRequest, guild_id: str) -> tuple[int, Any]:
        self._check_guild(guild_id)
        limit = int(record.query.get("limit", "1"))
        return 200, self.world.members[:limit]

    @_route("GET", r"/guilds/(?P<guild_id>\d+)/members/(?P<user_id>\d+)")
    def _get_member(self, record: RecordedRequest, guild_id: str, user_id: str) -> tuple[int, Any]:
        self._check_guild(guild_id)
        member = self.world.member(int(user_id))
        if member is None or int(user_id) in self.departed:
            raise _not_found("Member", 10007)
        return 200, member

    @_route("GET", r"/guilds/(?P<guild_id>\d+)/threads/active")
    def _active_threads(self, record: RecordedRequest, guild_id: str) -> tuple[int, Any]:
        self._check_guild(guild_id)
        return 200, {"threads": self.threads(), "members": []}

    # ------------------------------------------------------------------ channels & threads

    def _require_channel(self, channel_id: str) -> JSON:
        channel = self.channel(int(channel_id))
        if channel is None:
            raise _not_found("Channel", 10003)
        if "guild_id" in channel and not self.world.bot_in_guild:
            raise HTTPError(403, "Missing Access", 50001)
        return channel

    @_route("GET", r"/channels/(?P<channel_id>\d+)")
    def _get_channel(self, record: RecordedRequest, channel_id: str) -> tuple[int, Any]:
        return 200, self._require_channel(channel_id)

    @_route("PATCH", r"/channels/(?P<channel_id>\d+)")
    def _edit_channel(self, record: RecordedRequest, channel_id: str) -> tuple[int, Any]:
        channel = self._require_channel(channel_id)
        body = record.json or {}
        for key in ("name", "topic", "position", "rate_limit_per_user", "nsfw", "parent_id"):
            if key in body:
                channel[key] = body[key]
        if "thread_metadata" in channel:
            for key in ("archived", "locked", "auto_archive_duration", "invitable"):
                if key in body:
                    channel["thread_metadata"][key] = body[key]
            self._emit("THREAD_UPDATE", channel)
        else:
            self._emit("CHANNEL_UPDATE", channel)
        return 200, channel

    @_route("DELETE", r"/channels/(?P<channel_id>\d+)")
    def _delete_channel(self, record: RecordedRequest, channel_id: str) -> tuple[int, Any]:
        channel = self._require_channel(channel_id)
        if int(channel_id) not in self.extra_channels:
            raise HTTPError(403, "Missing Permissions", 50013)
        del self.extra_channels[int(channel_id)]
        if channel["type"] in (10, 11, 12):
            self._emit(
                "THREAD_DELETE",
                {k: channel[k] for k in ("id", "guild_id", "parent_id", "type")},
            )
        return 200, channel

    @_route("POST", r"/channels/(?P<channel_id>\d+)/typing")
    def _typing(self, record: RecordedRequest, channel_id: str) -> tuple[int, Any]:
        self._require_channel(channel_id)
        return 204, None

    def _create_thread(
        self, parent: JSON, name: str, thread_id: int, thread_type: int, body: JSON
    ) -> JSON:
        self._require_permission(
            parent, "create_public_threads" if thread_type != 12 else "create_private_threads"
        )
        if "guild_id" not in parent or parent["type"] not in (0, 5, 15):
            raise HTTPError(400, "Cannot create a thread here", 50024)
        thread = thread_payload(
            thread_id,
            int(parent["guild_id"]),
            int(parent["id"]),
            self.world.bot_user_id,
            name,
            thread_type=thread_type,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
            invitable=bool(body.get("invitable", True)),
        )
        self.extra_channels[thread_id] = thread
        self._emit("THREAD_CREATE", {**thread, "newly_created": True})
        return thread

    @_route("POST", r"/channels/(?P<channel_id>\d+)/threads")
    def _start_thread(self, record: RecordedRequest, channel_id: str) -> tuple[int, Any]:
        parent = self._require_channel(channel_id)
        body = record.json or {}
        if parent["type"] == 15:  # forum: the body carries the starter message
            thread = self._create_thread(parent, body["name"], self.ids.next(), 11, body)
            message = self._create_message(
                channel_id=int(thread["id"]), body=body.get("message") or {}, files=record.files
            )
            thread = {**thread, "message": message}
            return 201, thread
        thread_type = int(body.get("type") or 11)
        return 201, self._create_thread(parent, body["name"], self.ids.next(), thread_type, body)

    @_route("POST", r"/channels/(?P<channel_id>\d+)/messages/(?P<message_id>\d+)/threads")
    def _start_thread_from_message(
        self, record: RecordedRequest, channel_id: str, message_id: str
    ) -> tuple[int, Any]:
        parent = self._require_channel(channel_id)
        message = self._require_message(channel_id, message_id)
        body = record.json or {}
        if int(message_id) in self.extra_channels:
            raise HTTPError(400, "A thread has already been created for this message", 160004)
        # On Discord a thread started from a message has the message's id.
        thread = self._create_thread(parent, body["name"], int(message_id), 11, body)
        message["thread"] = copy.deepcopy(thread)
        return 201, thread

    @_route("PUT", r"/channels/(?P<channel_id>\d+)/thread-members/(?P<user>@me|\d+)")
    @_route("DELETE", r"/channels/(?P<channel_id>\d+)/thread-members/(?P<user>@me|\d+)")
    def _thread_member(
        self, record: RecordedRequest, channel_id: str, user: str
    ) -> tuple[int, Any]:
        self._require_channel(channel_id)
        return 204, None

    @_route("GET", r"/channels/(?P<channel_id>\d+)/thread-members/(?P<user_id>\d+)")
    def _get_thread_member(
        self, record: RecordedRequest, channel_id: str, user_id: str
    ) -> tuple[int, Any]:
        self._require_channel(channel_id)
        if int(user_id) not in self.thread_members.get(int(channel_id), set()):
            raise _not_found("Member", 10007)
        joined = dt.datetime.now(dt.UTC).isoformat()
        return 200, {"id": channel_id, "user_id": user_id, "join_timestamp": joined, "flags": 0}

    # ------------------------------------------------------------------ messages

    def _require_message(self, channel_id: str, message_id: str) -> JSON:
        message = self.messages.get(int(message_id))
        if message is None or message["channel_id"] != channel_id:
            raise _not_found("Message", 10008)
        return message

    def store_attachment(
        self, filename: str, data: bytes, *, channel_id: int = 0, description: str | None = None
    ) -> JSON:
        """Store bytes as an attachment (e.g. for an attachment option); returns its payload."""
        upload = RecordedFile(field_name="files[0]", filename=filename, data=data)
        return self._store_attachment(
            upload, channel_id, filename=filename, description=description
        )

    def _store_attachment(
        self, upload: RecordedFile, channel_id: int, *, filename: str, description: str | None
    ) -> JSON:
        attachment_id = self.ids.next()
        self.attachment_data[attachment_id] = upload.data
        url = f"{self.cdn_base_url}/attachments/{channel_id}/{attachment_id}/{filename}"
        content_type = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        attachment: JSON = {
            "id": str(attachment_id),
            "filename": filename,
            "size": len(upload.data),
            "url": url,
            "proxy_url": url,
            "content_type": content_type,
        }
        if description:
            attachment["description"] = description
        return attachment

    def _attachments(
        self, body: JSON, files: list[RecordedFile], channel_id: int, existing: list[JSON]
    ) -> list[JSON]:
        uploads: dict[int, RecordedFile] = {}
        for position, sent in enumerate(files):
            match = re.fullmatch(r"files\[(\d+)\]", sent.field_name)
            uploads[int(match.group(1)) if match else position] = sent
        if "attachments" not in body:
            return existing + [
                self._store_attachment(u, channel_id, filename=u.filename, description=None)
                for u in uploads.values()
            ]
        kept = {str(a["id"]): a for a in existing}
        result: list[JSON] = []
        for declared in body.get("attachments") or []:
            declared_id = str(declared.get("id"))
            if declared_id in kept:
                result.append(kept[declared_id])
                continue
            upload: RecordedFile | None = None
            if declared_id.isdigit():
                upload = uploads.pop(int(declared_id), None)
            if upload is not None:
                result.append(
                    self._store_attachment(
                        upload,
                        channel_id,
                        filename=declared.get("filename") or upload.filename,
                        description=declared.get("description"),
                    )
                )
        result.extend(
            self._store_attachment(u, channel_id, filename=u.filename, description=None)
            for u in uploads.values()
        )
        return result

    def _create_message(
        self,
        *,
        channel_id: int,
        body: JSON,
        files: list[RecordedFile],
        extra_flags: int = 0,
        interaction: _Interaction | None = None,
    ) -> JSON:
        channel = self.channel(channel_id)
        if channel is None:
            raise _not_found("Channel", 10003)
        message_id = self.ids.next()
        message_type = 0
        if (
            interaction is not None
            and interaction.payload["type"] == InteractionType.APPLICATION_COMMAND
        ):
            message_type = 20  # CHAT_INPUT_COMMAND
        if "message_reference" in body:
            message_type = 19  # REPLY
        message = message_payload(
            message_id=message_id,
            channel_id=channel_id,
            author=self.bot_user,
            content=str(body.get("content") or ""),
            embeds=copy.deepcopy(body.get("embeds") or []),
            components=copy.deepcopy(body.get("components") or []),
            attachments=self._attachments(body, files, channel_id, []),
            flags=int(body.get("flags") or 0) | extra_flags,
            message_type=message_type,
            webhook_id=self.application_id if interaction is not None else None,
            application_id=self.application_id if interaction is not None else None,
        )
        message["tts"] = bool(body.get("tts", False))
        if body.get("nonce"):
            message["nonce"] = str(body["nonce"])
        if body.get("poll"):
            message["poll"] = copy.deepcopy(body["poll"])
        if "message_reference" in body:
            reference = dict(body["message_reference"])
            reference.setdefault("channel_id", str(channel_id))
            if "guild_id" in channel:
                reference.setdefault("guild_id", channel["guild_id"])
            message["message_reference"] = reference
        if interaction is not None:
            self._add_interaction_metadata(message, interaction)
        self.messages[message_id] = message
        self._after_message_created(message, channel)
        return message

    def _add_interaction_metadata(self, message: JSON, interaction: _Interaction) -> None:
        payload = interaction.payload
        # An interaction made by hand may carry a member that is no record (Discord itself
        # names the real presser here).
        member = payload.get("member")
        user = (member if isinstance(member, dict) else {}).get("user") or payload.get("user") or {}
        metadata: JSON = {
            "id": str(interaction.id),
            "type": payload["type"],
            "user": copy.deepcopy(user),
            "authorizing_integration_owners": copy.deepcopy(
                payload.get("authorizing_integration_owners") or {}
            ),
        }
        data = payload.get("data") or {}
        if payload["type"] == InteractionType.APPLICATION_COMMAND:
            metadata["name"] = data.get("name", "")
            metadata["command_type"] = data.get("type", 1)
            message["interaction"] = {
                "id": str(interaction.id),
                "type": payload["type"],
                "name": data.get("name", ""),
                "user": copy.deepcopy(user),
            }
        elif payload["type"] == InteractionType.MESSAGE_COMPONENT and isinstance(
            payload.get("message"), dict
        ):  # a press made by hand may carry no message record (tests/cogs/test_raw_components)
            metadata["interacted_message_id"] = payload["message"]["id"]
        message["interaction_metadata"] = metadata

    def _after_message_created(self, message: JSON, channel: JSON) -> None:
        channel["last_message_id"] = message["id"]
        if "message_count" in channel:
            channel["message_count"] += 1
            channel["total_message_sent"] = channel.get("total_message_sent", 0) + 1
        if not int(message.get("flags") or 0) & EPHEMERAL:
            self._emit("MESSAGE_CREATE", self._gateway_message(message, channel))

    def _gateway_message(self, message: JSON, channel: JSON | None) -> JSON:
        event = copy.deepcopy(message)
        if channel is not None and "guild_id" in channel:
            event["guild_id"] = channel["guild_id"]
            member = self.world.member(int(message["author"]["id"]))
            if member is not None and "webhook_id" not in message:
                event["member"] = {k: v for k, v in member.items() if k != "user"}
        return event

    def _edit_message(self, message: JSON, body: JSON, files: list[RecordedFile]) -> JSON:
        for key in ("content", "embeds", "components", "poll"):
            if key in body:
                value = body[key]
                if key == "content":
                    value = "" if value is None else str(value)
                elif value is None:
                    value = []
                message[key] = copy.deepcopy(value)
        old_flags = int(message.get("flags") or 0)
        flags = old_flags
        if "flags" in body and body["flags"] is not None:
            flags = int(body["flags"]) | (old_flags & EPHEMERAL)
        message["flags"] = flags & ~LOADING
        message["attachments"] = self._attachments(
            body, files, int(message["channel_id"]), list(message.get("attachments") or [])
        )
        message["edited_timestamp"] = iso_now()
        if not message["flags"] & EPHEMERAL:
            channel = self.channel(int(message["channel_id"]))
            self._emit("MESSAGE_UPDATE", self._gateway_message(message, channel))
        return message

    def _delete_message(self, message: JSON) -> None:
        del self.messages[int(message["id"])]
        if not int(message.get("flags") or 0) & EPHEMERAL:
            event: JSON = {"id": message["id"], "channel_id": message["channel_id"]}
            channel = self.channel(int(message["channel_id"]))
            if channel is not None and "guild_id" in channel:
                event["guild_id"] = channel["guild_id"]
            self._emit("MESSAGE_DELETE", event)

    def rename_guild(self, name: str) -> None:
        """The server's owner renames it in Discord's client: one ``GUILD_UPDATE`` is queued."""
        self.world.guild_name = name
        self._emit("GUILD_UPDATE", self.world.guild_payload())

    def leave_server(self, user_id: int) -> None:
        """A member leaves the server (or is kicked): asked for them, Discord answers Unknown
        Member. (The bot asks for no member events, so none is sent; the fake keeps their
        payload to build their interactions in direct messages.)"""
        self.departed.add(user_id)

    def edit_by_moderator(self, channel_id: int, **fields: Any) -> None:
        """A moderator edits a channel or thread in Discord's client (its name, its permission
        overwrites...): one ``CHANNEL_UPDATE`` (``THREAD_UPDATE``) is queued."""
        channel = self.channel(channel_id)
        if channel is None:
            raise KeyError("unknown channel")
        channel.update(fields)
        self._emit("THREAD_UPDATE" if "thread_metadata" in channel else "CHANNEL_UPDATE", channel)

    def open_private_thread(self, parent_id: int, name: str, *members: int) -> int:
        """A private thread of ``parent_id`` with ``members`` in it (and the bot), as a member
        makes one in Discord's client: one ``THREAD_CREATE`` is queued; its id."""
        parent = self.channel(parent_id)
        if parent is None:
            raise KeyError("unknown channel")
        thread_id = self.ids.next()
        self._create_thread(parent, name, thread_id, 12, {})
        self.thread_members[thread_id] = {self.world.bot_user_id, *members}
        return thread_id

    def remove_from_thread(self, thread_id: int, user_id: int) -> None:
        """A moderator takes a member out of a private thread (no event: the bot asks for no
        member events)."""
        self.thread_members[thread_id].discard(user_id)

    def delete_by_moderator(self, channel_id: int, *message_ids: int) -> None:
        """A moderator deletes messages of a channel in Discord's client: one queues
        ``MESSAGE_DELETE``; several (a purge) one ``MESSAGE_DELETE_BULK``, as Discord sends."""
        channel = self.channel(channel_id)
        if channel is None:
            raise KeyError("unknown channel")
        for message_id in message_ids:
            message = self.messages.get(message_id)
            if message is None or int(message["channel_id"]) != channel_id:
                raise KeyError(f"no message {message_id} in channel {channel_id}")
        if len(message_ids) == 1:
            self._delete_message(self.messages[message_ids[0]])
            return
        for message_id in message_ids:
            del self.messages[message_id]
        event: JSON = {"ids": [str(i) for i in message_ids], "channel_id": str(channel_id)}
        if "guild_id" in channel:
            event["guild_id"] = channel["guild_id"]
        self._emit("MESSAGE_DELETE_BULK", event)

    def delete_thread_by_moderator(self, thread_id: int) -> None:
        """A moderator deletes a thread in Discord's client: its messages go with it, with no
        ``MESSAGE_DELETE`` each; one ``THREAD_DELETE`` is queued, naming the thread only."""
        thread = self.extra_channels.get(thread_id)
        if thread is None or thread["type"] not in (10, 11, 12):
            raise KeyError(f"no thread {thread_id}")
        del self.extra_channels[thread_id]
        for message_id in [
            m for m, msg in self.messages.items() if int(msg["channel_id"]) == thread_id
        ]:
            del self.messages[message_id]
        self._emit("THREAD_DELETE", {k: thread[k] for k in ("id", "guild_id", "parent_id", "type")})

    def create_user_message(self, channel_id: int, author_id: int, content: str) -> JSON:
        """A message written by a (non-bot) member; queues ``MESSAGE_CREATE``."""
        channel = self.channel(channel_id)
        member = self.world.member(author_id)
        if channel is None or member is None:
            raise KeyError("unknown channel or author")
        message = message_payload(
            message_id=self.ids.next(),
            channel_id=channel_id,
            author=member["user"],
            content=content,
        )
        self.messages[int(message["id"])] = message
        self._after_message_created(message, channel)
        return message

    def _require_permission(self, channel: JSON, *names: str) -> None:
        """403 Missing Permissions unless the bot holds every one of ``names`` in ``channel``."""
        allowed = discord.Permissions(
            self.world.channel_permissions_for(self.world.bot_user_id, channel)
        )
        if not all(getattr(allowed, name) for name in names):
            raise HTTPError(403, "Missing Permissions", 50013)

    @_route("POST", r"/channels/(?P<channel_id>\d+)/messages")
    def _post_message(self, record: RecordedRequest, channel_id: str) -> tuple[int, Any]:
        channel = self._require_channel(channel_id)
        thread = channel.get("type") in (10, 11, 12)
        needed = ["send_messages_in_threads" if thread else "send_messages"]
        if record.files:
            needed.append("attach_files")
        self._require_permission(channel, *needed)
        body = record.json or {}
        if not (
            body.get("content")
            or body.get("embeds")
            or body.get("components")
            or body.get("poll")
            or body.get("sticker_ids")
            or record.files
        ):
            raise HTTPError(400, "Cannot send an empty message", 50006)
        self._refuse_broken(limits.message_problems(body, len(record.files)))
        nonce = str(body.get("nonce") or "")
        if nonce and body.get("enforce_nonce"):
            # Discord: a second message with the same nonce from the same author (within a few
            # minutes) returns the first one instead of posting again.
            for earlier in reversed(self.channel_messages(int(channel_id))):
                if earlier.get("nonce") == nonce and int(earlier["author"]["id"]) == int(
                    self.bot_user["id"]
                ):
                    return 200, copy.deepcopy(earlier)
        message = self._create_message(channel_id=int(channel_id), body=body, files=record.files)
        return 200, message

    @_route("GET", r"/channels/(?P<channel_id>\d+)/messages")
    def _list_messages(self, record: RecordedRequest, channel_id: str) -> tuple[int, Any]:
        self._require_channel(channel_id)
        limit = int(record.query.get("limit", "50"))
        messages = self.channel_messages(int(channel_id))
        if "before" in record.query:
            messages = [m for m in messages if int(m["id"]) < int(record.query["before"])]
        if "after" in record.query:
            messages = [m for m in messages if int(m["id"]) > int(record.query["after"])]
        return 200, list(reversed(messages))[:limit]

    @_route("GET", r"/channels/(?P<channel_id>\d+)/messages/(?P<message_id>\d+)")
    def _get_message(
        self, record: RecordedRequest, channel_id: str, message_id: str
    ) -> tuple[int, Any]:
        return 200, self._require_message(channel_id, message_id)

    @_route("PATCH", r"/channels/(?P<channel_id>\d+)/messages/(?P<message_id>\d+)")
    def _patch_message(
        self, record: RecordedRequest, channel_id: str, message_id: str
    ) -> tuple[int, Any]:
        message = self._require_message(channel_id, message_id)
        if int(message["author"]["id"]) != self.world.bot_user_id:
            raise HTTPError(403, "Cannot edit a message authored by another user", 50005)
        self._refuse_broken(limits.message_problems(record.json or {}, len(record.files)))
        return 200, self._edit_message(message, record.json or {}, record.files)

    @_route("DELETE", r"/channels/(?P<channel_id>\d+)/messages/(?P<message_id>\d+)")
    def _remove_message(
        self, record: RecordedRequest, channel_id: str, message_id: str
    ) -> tuple[int, Any]:
        self._delete_message(self._require_message(channel_id, message_id))
        return 204, None

    @_route("PUT", r"/channels/(?P<channel_id>\d+)/messages/(?P<message_id>\d+)/reactions/.+")
    @_route("DELETE", r"/channels/(?P<channel_id>\d+)/messages/(?P<message_id>\d+)/reactions.*")
    def _reaction(
        self, record: RecordedRequest, channel_id: str, message_id: str
    ) -> tuple[int, Any]:
        self._require_message(channel_id, message_id)
        return 204, None

    @_route("PUT", r"/channels/(?P<channel_id>\d+)/(?:messages/)?pins/(?P<message_id>\d+)")
    @_route("DELETE", r"/channels/(?P<channel_id>\d+)/(?:messages/)?pins/(?P<message_id>\d+)")
    def _pin(self, record: RecordedRequest, channel_id: str, message_id: str) -> tuple[int, Any]:
        message = self._require_message(channel_id, message_id)
        message["pinned"] = record.method == "PUT"
        return 204, None

    # ------------------------------------------------------------------ interaction callback

    def _require_interaction(self, interaction_id: str | None, token: str) -> _Interaction:
        found = self._tokens.get(token)
        if found is None or (interaction_id is not None and int(interaction_id) != found):
            raise _not_found("interaction", 10062)
        return self._interactions[found]

    @_route("POST", r"/interactions/(?P<interaction_id>\d+)/(?P<token>[^/]+)/callback")
    def _callback(
        self, record: RecordedRequest, interaction_id: str, token: str
    ) -> tuple[int, Any]:
        interaction = self._require_interaction(interaction_id, token)
        if interaction.acknowledged:
            raise HTTPError(400, "Interaction has already been acknowledged.", 40060)
        body = record.json if isinstance(record.json, dict) else {}
        callback_type = int(body.get("type") or 0)
        data = body.get("data") or {}
        kind = interaction.payload["type"]
        allowed_by_kind: dict[int, set[int]] = {
            InteractionType.PING: {CallbackType.PONG},
            InteractionType.APPLICATION_COMMAND: {4, 5, 9, 12},
            InteractionType.MESSAGE_COMPONENT: {4, 5, 6, 7, 9, 12},
            InteractionType.AUTOCOMPLETE: {8},
            InteractionType.MODAL_SUBMIT: {4, 5, 6, 7, 12},
        }
        allowed = allowed_by_kind.get(int(kind), set())
        if callback_type not in allowed:
            raise HTTPError(
                400, f"Invalid callback type {callback_type} for interaction {kind}", 50035
            )
        if callback_type in (CallbackType.CHANNEL_MESSAGE, CallbackType.UPDATE_MESSAGE):
            self._refuse_broken(limits.message_problems(data, len(record.files)))
        elif callback_type == CallbackType.MODAL:
            self._refuse_broken(limits.modal_problems(data))
        elif callback_type == CallbackType.AUTOCOMPLETE_RESULT:
            self._refuse_broken(limits.choices_problems(data.get("choices") or []))
        interaction.acknowledged = True
        response_interaction: JSON = {"id": str(interaction.id), "type": kind}
        resource: JSON | None = None
        message: JSON | None = None
        if callback_type == CallbackType.CHANNEL_MESSAGE:
            message = self._create_message(
                channel_id=interaction.channel_id,
                body=data,
                files=record.files,
                interaction=interaction,
            )
        elif callback_type == CallbackType.DEFERRED_CHANNEL_MESSAGE:
            flags = (int(data.get("flags") or 0) & EPHEMERAL) | LOADING
            message = self._create_message(
                channel_id=interaction.channel_id,
                body={"content": ""},
                files=[],
                extra_flags=flags,
                interaction=interaction,
            )
        elif callback_type == CallbackType.UPDATE_MESSAGE:
            message = self._interacted_message(interaction)
            self._edit_message(message, data, record.files)
        elif callback_type == CallbackType.DEFERRED_UPDATE_MESSAGE:
            target = self._interacted_message(interaction, required=False)
            if target is not None:
                response_interaction["response_message_id"] = target["id"]
        if message is not None:
            interaction.original_message_id = int(message["id"])
            flags = int(message.get("flags") or 0)
            response_interaction.update(
                response_message_id=message["id"],
                response_message_loading=bool(flags & LOADING),
                response_message_ephemeral=bool(flags & EPHEMERAL),
            )
            resource = {"type": callback_type, "message": copy.deepcopy(message)}
        elif callback_type in (CallbackType.MODAL, CallbackType.DEFERRED_UPDATE_MESSAGE):
            resource = {"type": callback_type}
        interaction.responses.append(
            CapturedResponse(
                kind="callback",
                body=copy.deepcopy(body),
                files=list(record.files),
                callback_type=callback_type,
                message_id=None if message is None else int(message["id"]),
                message=copy.deepcopy(message),
            )
        )
        result: JSON = {"interaction": response_interaction}
        if resource is not None:
            result["resource"] = resource
        return 200, result

    def _interacted_message(self, interaction: _Interaction, *, required: bool = True) -> Any:
        raw = interaction.payload.get("message")
        stored = None if raw is None else self.messages.get(int(raw["id"]))
        if stored is None and raw is not None:
            # A message the fake never saw (e.g. built by hand in a test): adopt it.
            stored = copy.deepcopy(raw)
            self.messages[int(raw["id"])] = stored
        if stored is None and required:
            raise HTTPError(400, "This interaction has no message to update", 50035)
        return stored

    # ------------------------------------------------------------------ webhooks (follow-ups)

    def _webhook_interaction(self, application_id: str, token: str) -> _Interaction:
        if int(application_id) != self.application_id or token not in self._tokens:
            raise _not_found("Webhook", 10015)
        interaction = self._interactions[self._tokens[token]]
        if not interaction.acknowledged:
            # Discord: the interaction webhook only exists once the interaction was acknowledged
            raise _not_found("Webhook", 10015)
        return interaction

    def _webhook_message(self, interaction: _Interaction, ref: str) -> JSON:
        if ref == "@original":
            message_id = interaction.original_message_id
        else:
            message_id = int(ref)
            if (
                message_id not in interaction.followup_ids
                and message_id != interaction.original_message_id
            ):
                message_id = None
        message = None if message_id is None else self.messages.get(message_id)
        if message is None:
            raise _not_found("Message", 10008)
        return message

    @_route("POST", r"/webhooks/(?P<application_id>\d+)/(?P<token>[^/]+)")
    def _execute_webhook(
        self, record: RecordedRequest, application_id: str, token: str
    ) -> tuple[int, Any]:
        interaction = self._webhook_interaction(application_id, token)
        body = record.json if isinstance(record.json, dict) else {}
        self._refuse_broken(limits.message_problems(body, len(record.files)))
        original = (
            None
            if interaction.original_message_id is None
            else self.messages.get(interaction.original_message_id)
        )
        if original is not None and int(original.get("flags") or 0) & LOADING:
            # The first follow-up after a "thinking" deferral replaces the placeholder, and keeps
            # the deferral's visibility whatever its own flags say (discord-api-docs#2860): a
            # refusal sent after a public deferral is seen by the whole channel.
            kept = {**body, "flags": int(body.get("flags") or 0) & ~EPHEMERAL}
            message = self._edit_message(original, kept, record.files)
        else:
            channel_id = int(record.query.get("thread_id") or interaction.channel_id)
            message = self._create_message(
                channel_id=channel_id, body=body, files=record.files, interaction=interaction
            )
        interaction.followup_ids.append(int(message["id"]))
        interaction.responses.append(
            CapturedResponse(
                kind="followup",
                body=copy.deepcopy(body),
                files=list(record.files),
                message_id=int(message["id"]),
                message=copy.deepcopy(message),
            )
        )
        if record.query.get("wait", "false").lower() in ("1", "true"):
            return 200, message
        return 204, None

    @_route(
        "GET", r"/webhooks/(?P<application_id>\d+)/(?P<token>[^/]+)/messages/(?P<ref>@original|\d+)"
    )
    def _get_webhook_message(
        self, record: RecordedRequest, application_id: str, token: str, ref: str
    ) -> tuple[int, Any]:
        interaction = self._webhook_interaction(application_id, token)
        message = self._webhook_message(interaction, ref)
        interaction.responses.append(
            CapturedResponse(
                kind="fetch", body={}, message_id=int(message["id"]), message=copy.deepcopy(message)
            )
        )
        return 200, message

    @_route(
        "PATCH",
        r"/webhooks/(?P<application_id>\d+)/(?P<token>[^/]+)/messages/(?P<ref>@original|\d+)",
    )
    def _edit_webhook_message(
        self, record: RecordedRequest, application_id: str, token: str, ref: str
    ) -> tuple[int, Any]:
        interaction = self._webhook_interaction(application_id, token)
        if ref == "@original" and interaction.original_message_id is None:
            # e.g. edit_original_response after a deferred update: edits the clicked message
            target = self._interacted_message(interaction, required=False)
            if target is not None:
                interaction.original_message_id = int(target["id"])
        message = self._webhook_message(interaction, ref)
        body = record.json if isinstance(record.json, dict) else {}
        self._refuse_broken(limits.message_problems(body, len(record.files)))
        self._edit_message(message, body, record.files)
        interaction.responses.append(
            CapturedResponse(
                kind="edit",
                body=copy.deepcopy(body),
                files=list(record.files),
                message_id=int(message["id"]),
                message=copy.deepcopy(message),
            )
        )
        return 200, message

    @_route(
        "DELETE",
        r"/webhooks/(?P<application_id>\d+)/(?P<token>[^/]+)/messages/(?P<ref>@original|\d+)",
    )
    def _delete_webhook_message(
        self, record: RecordedRequest, application_id: str, token: str, ref: str
    ) -> tuple[int, Any]:
        interaction = self._webhook_interaction(application_id, token)
        message = self._webhook_message(interaction, ref)
        self._delete_message(message)
        interaction.responses.append(
            CapturedResponse(kind="delete", body={}, message_id=int(message["id"]))
        )
        return 204, None


def new_token() -> str:
    """A random interaction token."""
    return "fake-" + secrets.token_urlsafe(24)
