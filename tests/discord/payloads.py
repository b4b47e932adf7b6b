"""Raw ``INTERACTION_CREATE`` payload builders and an in-process interaction driver.

Builders
--------
:func:`slash_command_payload`, :func:`autocomplete_payload`, :func:`component_payload` and
:func:`modal_submit_payload` build complete interaction dicts exactly as the gateway delivers
them (including ``attachment_size_limit``, ``app_permissions``, ``entitlements``,
``authorizing_integration_owners``, ``context``, ``locale``/``guild_locale`` and a ``member``
with ``user``, ``roles``, ``flags``, ``joined_at`` and ``permissions``). :func:`build_options`
turns ``{"name": value}`` into typed option lists (+ ``resolved`` data for users, channels,
roles and attachments), using the command's schema when known. :class:`InteractionFactory`
fills all the ids from a :class:`~tests.discord.backend.FakeBackend`'s world.

In-process driver
-----------------
:class:`InteractionDriver` feeds those payloads straight into
``bot._connection.parse_interaction_create`` -- no server, no sockets. It monkeypatches
``discord.webhook.async_.AsyncWebhookAdapter.request`` (interaction callbacks, follow-ups,
``edit_original_response`` ...) and the bot's ``HTTPClient.request`` (``channel.send``, thread
creation, command sync ...) so every request is answered by a :class:`FakeBackend`; then it
waits for the tasks the interaction spawned and returns an
:class:`~tests.discord.backend.InteractionResult` (callback type, content, flags/ephemeral,
embeds, components, attachments with bytes, follow-ups, edits, autocomplete choices, and the
errors discord.py logged while handling it).

How a cog test uses it::

    from tests.discord.payloads import BOB_ID, InteractionDriver

    async def test_new_game_is_ephemeral() -> None:
        bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
        await bot.add_cog(GameCog(bot))          # registers the cog's app commands in bot.tree
        async with InteractionDriver(bot) as driver:
            result = await driver.slash("newgame", {"opponent": BOB_ID, "mode": "classic"})
            assert result.callback_type == 4 and result.ephemeral
            assert "bob" in (result.content or "")
            click = await driver.click(result.message, result.custom_ids[0])
            assert click.callback_type == 7                      # the board was updated
            choices = await driver.autocomplete("newgame", "mode", "cla")
            assert [c["value"] for c in choices.choices] == ["classic"]
        await bot.close()

Commands need not be synced: the driver reads the option schema from ``bot.tree``. Errors
logged by discord.py while handling the interaction (e.g. "Ignoring exception in command")
make the call raise :class:`InteractionFailed` unless ``strict=False``. Only the tasks spawned
synchronously by the interaction are awaited; fire-and-forget tasks started by a handler are
not (await them yourself).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import logging
import traceback
import urllib.parse
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands
from discord.webhook.async_ import AsyncWebhookAdapter

from tests.discord.backend import (
    ALICE_ID,
    ATTACHMENT_SIZE_LIMIT,
    BOB_ID,
    BOT_PERMISSIONS,
    CAROL_ID,
    EPHEMERAL,
    GAMES_CHANNEL_ID,
    GENERAL_CHANNEL_ID,
    GUILD_ID,
    JSON,
    CallbackType,
    CapturedResponse,
    FakeBackend,
    InteractionResult,
    InteractionType,
    RecordedFile,
    RecordedRequest,
    SnowflakeGenerator,
    find_component,
    new_token,
    user_payload,
)

__all__ = [
    "ALICE_ID",
    "BOB_ID",
    "CAROL_ID",
    "EPHEMERAL",
    "GAMES_CHANNEL_ID",
    "GENERAL_CHANNEL_ID",
    "GUILD_ID",
    "CallbackType",
    "CapturedResponse",
    "CommandLookup",
    "InteractionDriver",
    "InteractionFactory",
    "InteractionFailed",
    "InteractionResult",
    "InteractionType",
    "OptionType",
    "autocomplete_payload",
    "bot_for_tests",
    "build_options",
    "component_payload",
    "interaction_payload",
    "modal_submit_payload",
    "slash_command_payload",
    "tree_lookup",
]

_IDS = SnowflakeGenerator()

#: ``(name, guild_id) -> (command schema with "id", guild id it is registered in) | None``
CommandLookup = Callable[[str, int | None], tuple[JSON, int | None] | None]


class OptionType:
    """Application command option types."""

    SUB_COMMAND = 1
    SUB_COMMAND_GROUP = 2
    STRING = 3
    INTEGER = 4
    BOOLEAN = 5
    USER = 6
    CHANNEL = 7
    ROLE = 8
    MENTIONABLE = 9
    NUMBER = 10
    ATTACHMENT = 11


# --------------------------------------------------------------------------- options


def _infer_type(value: Any) -> int:
    if isinstance(value, bool):
        return OptionType.BOOLEAN
    if isinstance(value, int):
        return OptionType.INTEGER
    if isinstance(value, float):
        return OptionType.NUMBER
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], bytes):
        return OptionType.ATTACHMENT
    if isinstance(value, dict) and ("user" in value or "username" in value):
        return OptionType.USER
    return OptionType.STRING


def _resolve_user(value: Any, backend: FakeBackend | None, resolved: JSON) -> str:
    if isinstance(value, dict):
        member = value if "user" in value else None
        user = value["user"] if member is not None else value
    else:
        user_id = int(value)
        member = backend.world.member(user_id) if backend is not None else None
        user = member["user"] if member is not None else user_payload(user_id, f"user{user_id}")
    user_id_str = str(user["id"])
    resolved.setdefault("users", {})[user_id_str] = copy.deepcopy(user)
    if member is not None:
        partial = {k: copy.deepcopy(v) for k, v in member.items() if k != "user"}
        if backend is not None:
            partial.setdefault("permissions", str(backend.world.permissions_for(int(user_id_str))))
        resolved.setdefault("members", {})[user_id_str] = partial
    return user_id_str


def _resolve_channel(value: Any, backend: FakeBackend | None, resolved: JSON) -> str:
    channel = value if isinstance(value, dict) else None
    if channel is None and backend is not None:
        channel = backend.channel(int(value))
    if channel is None:
        channel = {"id": str(value), "name": f"channel{value}", "type": 0}
    keys = ("id", "name", "type", "parent_id", "thread_metadata", "guild_id")
    data = {k: copy.deepcopy(channel[k]) for k in keys if k in channel}
    data["permissions"] = str(discord.Permissions.all_channel().value)
    resolved.setdefault("channels", {})[str(channel["id"])] = data
    return str(channel["id"])


def _resolve_role(value: Any, backend: FakeBackend | None, resolved: JSON) -> str:
    role = value if isinstance(value, dict) else None
    if role is None and backend is not None:
        role = backend.world.role(int(value))
    if role is None:
        role = {"id": str(value), "name": f"role{value}", "permissions": "0", "position": 0}
    resolved.setdefault("roles", {})[str(role["id"])] = copy.deepcopy(role)
    return str(role["id"])


def _resolve_attachment(value: Any, backend: FakeBackend | None, resolved: JSON) -> str:
    if isinstance(value, dict):
        attachment = copy.deepcopy(value)
    elif backend is not None:
        filename, data = value
        attachment = {**backend.store_attachment(filename, data), "ephemeral": True}
    else:
        filename, data = value
        attachment_id = _IDS.next()
        url = f"http://127.0.0.1/attachments/0/{attachment_id}/{filename}"
        attachment = {
            "id": str(attachment_id),
            "filename": filename,
            "size": len(data),
            "url": url,
            "proxy_url": url,
            "ephemeral": True,
        }
    resolved.setdefault("attachments", {})[str(attachment["id"])] = attachment
    return str(attachment["id"])


def _option_value(
    option_type: int, value: Any, backend: FakeBackend | None, resolved: JSON, focused: bool
) -> Any:
    if focused:
        return value  # Discord sends whatever the user typed so far
    if option_type == OptionType.STRING:
        return str(value)
    if option_type == OptionType.INTEGER:
        return int(value)
    if option_type == OptionType.BOOLEAN:
        return bool(value)
    if option_type == OptionType.NUMBER:
        return float(value)
    if option_type == OptionType.USER:
        return _resolve_user(value, backend, resolved)
    if option_type == OptionType.CHANNEL:
        return _resolve_channel(value, backend, resolved)
    if option_type == OptionType.ROLE:
        return _resolve_role(value, backend, resolved)
    if option_type == OptionType.MENTIONABLE:
        if isinstance(value, dict) and "permissions" in value and "user" not in value:
            return _resolve_role(value, backend, resolved)
        if backend is not None and not isinstance(value, dict) and backend.world.role(int(value)):
            return _resolve_role(value, backend, resolved)
        return _resolve_user(value, backend, resolved)
    if option_type == OptionType.ATTACHMENT:
        return _resolve_attachment(value, backend, resolved)
    raise ValueError(f"unsupported option type {option_type}")


def build_options(
    values: Mapping[str, Any] | Sequence[JSON] | None,
    schema: Sequence[JSON] | None = None,
    *,
    focused: str | None = None,
    backend: FakeBackend | None = None,
    resolved: JSON | None = None,
) -> tuple[list[JSON], JSON]:
    """Build interaction ``options`` (and ``resolved``) from ``{"name": value}``.

    With a ``schema`` (the command's registered options) names are checked and values are
    converted to the declared types; without one the type is inferred from the Python value
    (``bool``/``int``/``float``/``str``; a ``(filename, bytes)`` tuple is an attachment).
    Users may be given as ids (looked up in ``backend``'s guild), member or user payloads;
    channels/roles as ids or payloads. ``focused`` marks the option being autocompleted. A
    sequence of ready-made option dicts is passed through unchanged.
    """
    resolved = {} if resolved is None else resolved
    if values is None:
        return [], resolved
    if not isinstance(values, Mapping):
        return [copy.deepcopy(dict(v)) for v in values], resolved
    specs = {spec["name"]: spec for spec in schema or []}
    options: list[JSON] = []
    for name, value in values.items():
        if schema is not None and name not in specs:
            raise ValueError(f"unknown option {name!r}; the command has {sorted(specs)}")
        option_type = int(specs[name]["type"]) if name in specs else _infer_type(value)
        is_focused = name == focused
        option: JSON = {
            "name": name,
            "type": option_type,
            "value": _option_value(option_type, value, backend, resolved, is_focused),
        }
        if is_focused:
            option["focused"] = True
        options.append(option)
    if focused is not None and focused not in values:
        option_type = int(specs[focused]["type"]) if focused in specs else OptionType.STRING
        options.append({"name": focused, "type": option_type, "value": "", "focused": True})
    return options, resolved


def _nest_subcommands(
    path: Sequence[str], schema: Sequence[JSON] | None, leaf_options: list[JSON]
) -> list[JSON]:
    """Wrap leaf options into subcommand(-group) options for ``path`` (``["group", "sub"]``)."""
    if not path:
        return leaf_options
    node_schema = schema
    types: list[int] = []
    for index, name in enumerate(path):
        spec = next((s for s in node_schema or [] if s["name"] == name), None)
        if spec is not None:
            types.append(int(spec["type"]))
            node_schema = spec.get("options") or []
        else:
            is_last = index == len(path) - 1
            types.append(OptionType.SUB_COMMAND if is_last else OptionType.SUB_COMMAND_GROUP)
            node_schema = None
    options = leaf_options
    for name, option_type in reversed(list(zip(path, types, strict=True))):
        options = [{"name": name, "type": option_type, "options": options}]
    return options


def _leaf_schema(path: Sequence[str], schema: Sequence[JSON] | None) -> Sequence[JSON] | None:
    node = schema
    for name in path:
        spec = next((s for s in node or [] if s["name"] == name), None)
        if spec is None:
            return None
        node = spec.get("options") or []
    return node


# --------------------------------------------------------------------------- payloads


def interaction_payload(
    *,
    interaction_type: int,
    data: JSON | None,
    application_id: int,
    channel: JSON,
    guild_id: int | None,
    member: JSON | None = None,
    user: JSON | None = None,
    message: JSON | None = None,
    app_permissions: int = BOT_PERMISSIONS,
    locale: str = "en-US",
    guild_locale: str = "en-US",
    interaction_id: int | None = None,
    token: str | None = None,
) -> JSON:
    """The common envelope of every ``INTERACTION_CREATE`` payload.

    In a guild pass ``member`` (a member payload with ``user``; ``permissions`` defaults to all
    channel permissions), in a DM pass ``user`` and ``guild_id=None``.
    """
    payload: JSON = {
        "id": str(interaction_id if interaction_id is not None else _IDS.next()),
        "application_id": str(application_id),
        "type": interaction_type,
        "token": token or new_token(),
        "version": 1,
        "channel_id": str(channel["id"]),
        "channel": copy.deepcopy(channel),
        "locale": locale,
        "app_permissions": str(app_permissions),
        "entitlements": [],
        "entitlement_sku_ids": [],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    if guild_id is not None:
        if member is None:
            raise ValueError("a guild interaction needs a member payload")
        member = copy.deepcopy(member)
        member.setdefault("permissions", str(discord.Permissions.all_channel().value))
        payload["channel"].setdefault("permissions", member["permissions"])
        payload.update(
            guild_id=str(guild_id),
            guild={"id": str(guild_id), "locale": guild_locale, "features": []},
            guild_locale=guild_locale,
            member=member,
            context=0,
            authorizing_integration_owners={"0": str(guild_id)},
        )
    else:
        if user is None:
            raise ValueError("a DM interaction needs a user payload")
        payload.update(
            user=copy.deepcopy(user),
            context=1,
            authorizing_integration_owners={"0": "0"},
        )
    if data is not None:
        payload["data"] = data
    if message is not None:
        payload["message"] = copy.deepcopy(message)
    return payload


def _command_data(
    name: str,
    options: list[JSON],
    resolved: JSON,
    command_id: int,
    command_guild_id: int | None,
    command_type: int,
) -> JSON:
    data: JSON = {"id": str(command_id), "name": name, "type": command_type}
    if options:
        data["options"] = options
    if resolved:
        data["resolved"] = resolved
    if command_guild_id is not None:
        data["guild_id"] = str(command_guild_id)
    return data


def slash_command_payload(
    name: str,
    options: Mapping[str, Any] | Sequence[JSON] | None = None,
    *,
    command_id: int,
    application_id: int,
    channel: JSON,
    guild_id: int | None,
    member: JSON | None = None,
    user: JSON | None = None,
    schema: Sequence[JSON] | None = None,
    command_guild_id: int | None = None,
    backend: FakeBackend | None = None,
    **envelope: Any,
) -> JSON:
    """A slash command (type 2) interaction; ``name`` may be ``"group sub"`` for subcommands.

    ``command_guild_id`` is set when the command is registered in a guild (discord.py looks
    the command up in that guild's commands). ``envelope`` goes to :func:`interaction_payload`.
    """
    top, *path = name.split()
    leaf, resolved = build_options(options, _leaf_schema(path, schema), backend=backend)
    data = _command_data(
        top, _nest_subcommands(path, schema, leaf), resolved, command_id, command_guild_id, 1
    )
    return interaction_payload(
        interaction_type=InteractionType.APPLICATION_COMMAND,
        data=data,
        application_id=application_id,
        channel=channel,
        guild_id=guild_id,
        member=member,
        user=user,
        **envelope,
    )


def autocomplete_payload(
    name: str,
    focused: str,
    value: str = "",
    options: Mapping[str, Any] | None = None,
    *,
    command_id: int,
    application_id: int,
    channel: JSON,
    guild_id: int | None,
    member: JSON | None = None,
    user: JSON | None = None,
    schema: Sequence[JSON] | None = None,
    command_guild_id: int | None = None,
    backend: FakeBackend | None = None,
    **envelope: Any,
) -> JSON:
    """An autocomplete (type 4) interaction: option ``focused`` is being typed as ``value``."""
    top, *path = name.split()
    values = dict(options or {})
    values[focused] = value
    leaf, resolved = build_options(
        values, _leaf_schema(path, schema), focused=focused, backend=backend
    )
    data = _command_data(
        top, _nest_subcommands(path, schema, leaf), resolved, command_id, command_guild_id, 1
    )
    return interaction_payload(
        interaction_type=InteractionType.AUTOCOMPLETE,
        data=data,
        application_id=application_id,
        channel=channel,
        guild_id=guild_id,
        member=member,
        user=user,
        **envelope,
    )


def component_payload(
    custom_id: str,
    *,
    message: JSON,
    application_id: int,
    channel: JSON,
    guild_id: int | None,
    component_type: int | None = None,
    values: Sequence[str] | None = None,
    member: JSON | None = None,
    user: JSON | None = None,
    **envelope: Any,
) -> JSON:
    """A message component (type 3) interaction: a click on ``custom_id`` in ``message``.

    ``message`` must contain the component (discord.py rebuilds DynamicItems from it); the
    component type is taken from it unless given (2 = button, 3 = string select ...).
    """
    if component_type is None:
        component = find_component(message, custom_id)
        component_type = int(component["type"]) if component is not None else 2
    data: JSON = {"custom_id": custom_id, "component_type": component_type}
    if values is not None or component_type in (3, 5, 6, 7, 8):
        data["values"] = list(values or [])
    return interaction_payload(
        interaction_type=InteractionType.MESSAGE_COMPONENT,
        data=data,
        application_id=application_id,
        channel=channel,
        guild_id=guild_id,
        member=member,
        user=user,
        message=message,
        **envelope,
    )


def modal_submit_payload(
    custom_id: str,
    fields: Mapping[str, str],
    *,
    application_id: int,
    channel: JSON,
    guild_id: int | None,
    message: JSON | None = None,
    member: JSON | None = None,
    user: JSON | None = None,
    **envelope: Any,
) -> JSON:
    """A modal submit (type 5) interaction with text inputs ``{custom_id: value}``."""
    rows = [
        {"type": 1, "components": [{"type": 4, "custom_id": key, "value": value}]}
        for key, value in fields.items()
    ]
    return interaction_payload(
        interaction_type=InteractionType.MODAL_SUBMIT,
        data={"custom_id": custom_id, "components": rows},
        application_id=application_id,
        channel=channel,
        guild_id=guild_id,
        member=member,
        user=user,
        message=message,
        **envelope,
    )


class InteractionFactory:
    """Builds interaction payloads with ids/users/channels taken from a backend's world.

    ``lookup`` resolves command names to their schema and id; by default the commands synced
    to the backend are used (as on real Discord, unsynced commands cannot be invoked).
    """

    def __init__(
        self,
        backend: FakeBackend,
        *,
        lookup: CommandLookup | None = None,
        default_user_id: int = ALICE_ID,
        default_channel_id: int = GAMES_CHANNEL_ID,
    ) -> None:
        self.backend = backend
        self.lookup: CommandLookup = lookup or backend.find_command
        self.default_user_id = default_user_id
        self.default_channel_id = default_channel_id

    def member(self, user_id: int | None = None) -> JSON:
        """The member payload (with ``permissions``) of a user of the world."""
        user_id = self.default_user_id if user_id is None else user_id
        member = self.backend.world.member(user_id)
        if member is None:
            raise KeyError(f"user {user_id} is not a member of the fake guild")
        member = copy.deepcopy(member)
        member["permissions"] = str(self.backend.world.permissions_for(user_id))
        return member

    def channel(self, channel_id: int | None = None) -> JSON:
        """A channel (or thread) payload of the world."""
        channel_id = self.default_channel_id if channel_id is None else channel_id
        channel = self.backend.channel(channel_id)
        if channel is None:
            raise KeyError(f"unknown channel {channel_id}")
        return channel

    def _envelope(self, user_id: int | None, channel_id: int | None) -> JSON:
        world = self.backend.world
        channel = self.channel(channel_id)
        base: JSON = {
            "application_id": world.application_id,
            "channel": channel,
            "interaction_id": self.backend.ids.next(),
            "guild_locale": world.locale,
        }
        if "guild_id" in channel:
            base.update(guild_id=int(channel["guild_id"]), member=self.member(user_id))
            base["app_permissions"] = world.channel_permissions_for(world.bot_user_id, channel)
        else:
            member = self.member(user_id)
            base.update(guild_id=None, user=member["user"])
        return base

    def _command(self, name: str, channel_id: int | None) -> tuple[JSON, int | None]:
        top = name.split()[0]
        in_guild = "guild_id" in self.channel(channel_id)
        found = self.lookup(top, self.backend.world.guild_id if in_guild else None)
        if found is None:
            raise LookupError(f"no application command named {top!r} is registered/synced")
        return found

    def slash(
        self,
        name: str,
        options: Mapping[str, Any] | Sequence[JSON] | None = None,
        *,
        user_id: int | None = None,
        channel_id: int | None = None,
    ) -> JSON:
        """A slash command payload (``name`` may include subcommands: ``"game start"``)."""
        command, scope = self._command(name, channel_id)
        return slash_command_payload(
            name,
            options,
            command_id=int(command["id"]),
            schema=command.get("options") or [],
            command_guild_id=scope,
            backend=self.backend,
            **self._envelope(user_id, channel_id),
        )

    def autocomplete(
        self,
        name: str,
        focused: str,
        value: str = "",
        options: Mapping[str, Any] | None = None,
        *,
        user_id: int | None = None,
        channel_id: int | None = None,
    ) -> JSON:
        """An autocomplete payload for option ``focused`` currently typed as ``value``."""
        command, scope = self._command(name, channel_id)
        return autocomplete_payload(
            name,
            focused,
            value,
            options,
            command_id=int(command["id"]),
            schema=command.get("options") or [],
            command_guild_id=scope,
            backend=self.backend,
            **self._envelope(user_id, channel_id),
        )

    def component(
        self,
        message: JSON | int,
        custom_id: str,
        *,
        values: Sequence[str] | None = None,
        component_type: int | None = None,
        user_id: int | None = None,
    ) -> JSON:
        """A component click on a stored message (given as payload or id)."""
        if not isinstance(message, dict):
            stored = self.backend.messages.get(int(message))
            if stored is None:
                raise KeyError(f"unknown message {message}")
            message = stored
        if find_component(message, custom_id) is None:
            raise LookupError(f"message {message['id']} has no component {custom_id!r}")
        return component_payload(
            custom_id,
            message=message,
            component_type=component_type,
            values=values,
            **self._envelope(user_id, int(message["channel_id"])),
        )

    def modal_submit(
        self,
        custom_id: str,
        fields: Mapping[str, str],
        *,
        message: JSON | None = None,
        user_id: int | None = None,
        channel_id: int | None = None,
    ) -> JSON:
        """A modal submission."""
        if message is not None and channel_id is None:
            channel_id = int(message["channel_id"])
        return modal_submit_payload(
            custom_id, fields, message=message, **self._envelope(user_id, channel_id)
        )


# --------------------------------------------------------------------------- driver


class InteractionFailed(AssertionError):
    """discord.py logged errors while handling an interaction (``strict`` mode)."""

    def __init__(self, result: InteractionResult) -> None:
        super().__init__("\n\n".join(result.errors))
        self.result = result


class _ErrorCollector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = f"{record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            text += "\n" + "".join(traceback.format_exception(*record.exc_info))
        self.messages.append(text)


class _FakeHTTPResponse:
    """Enough of ``aiohttp.ClientResponse`` for ``discord.HTTPException``."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = {400: "Bad Request", 403: "Forbidden", 404: "Not Found"}.get(status, "Error")


def _http_exception(status: int, body: Any) -> discord.HTTPException:
    response: Any = _FakeHTTPResponse(status)
    if status == 403:
        return discord.Forbidden(response, body)
    if status == 404:
        return discord.NotFound(response, body)
    if status >= 500:
        return discord.DiscordServerError(response, body)
    return discord.HTTPException(response, body)


def _read_form(form: Iterable[Mapping[str, Any]] | None) -> tuple[Any, list[RecordedFile]]:
    body: Any = None
    files: list[RecordedFile] = []
    for part in form or []:
        value = part["value"]
        if part["name"] == "payload_json":
            body = discord.utils._from_json(value)
            continue
        data = value.read() if hasattr(value, "read") else value
        if isinstance(data, str):
            data = data.encode()
        files.append(
            RecordedFile(
                field_name=part["name"],
                filename=part.get("filename") or part["name"],
                data=bytes(data),
                content_type=part.get("content_type"),
            )
        )
    return body, files


class _LibraryResponse:
    """Enough of ``aiohttp.ClientResponse`` for discord.py's webhook adapter to read."""

    def __init__(self, status: int, body: Any) -> None:
        self.status = status
        self.reason = "Error"
        # A 204 (a deletion) has no body and, on Discord, no content type to read it by.
        self.headers = {} if body is None else {"content-type": "application/json"}
        self._text = "" if body is None else json.dumps(body)

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text


class _LibraryCall:
    """One request of ``LibrarySession``: served by the backend as it is entered."""

    def __init__(
        self, driver: InteractionDriver, method: str, url: str, data: Any, params: Any
    ) -> None:
        self.driver = driver
        self.method = method
        self.url = url
        self.data = data
        self.params = params

    async def __aenter__(self) -> _LibraryResponse:
        if isinstance(self.data, aiohttp.FormData):
            parts = [
                {
                    "name": options["name"],
                    "filename": options.get("filename"),
                    "content_type": headers.get("Content-Type"),
                    "value": value,
                }
                for options, headers, value in self.data._fields
            ]
            body, files = _read_form(parts)
        else:
            body, files = (None if self.data is None else json.loads(self.data)), []
        path, query = _api_path(self.url)
        query.update({key: str(value) for key, value in (self.params or {}).items()})
        backend = self.driver.backend
        status, response = backend.handle(self.method, path, query=query, body=body, files=files)
        backend.pop_events()  # no gateway here
        return _LibraryResponse(status, response)

    async def __aexit__(self, *exc: object) -> None:
        return None


class LibrarySession:
    """Enough of ``aiohttp.ClientSession`` for discord.py's own webhook adapter
    (``AsyncWebhookAdapter.request``) and HTTP client (``HTTPClient.request``), answered by the
    driver's backend: requests then meet the library's own handling of Discord's answers, its
    retries after a server error included (``InteractionDriver.library_webhooks``,
    ``library_http``)."""

    def __init__(self, driver: InteractionDriver) -> None:
        self.driver = driver

    def request(
        self, method: str, url: str, *, data: Any = None, params: Any = None, **_: Any
    ) -> _LibraryCall:
        return _LibraryCall(self.driver, method, url, data, params)


def _api_path(url: str) -> tuple[str, dict[str, str]]:
    split = urllib.parse.urlsplit(url)
    path = urllib.parse.unquote(split.path)
    marker = "/api/v10"
    if marker in path:
        path = path.split(marker, 1)[1]
    query = dict(urllib.parse.parse_qsl(split.query))
    return path, query


def tree_lookup(tree: app_commands.CommandTree[Any], backend: FakeBackend) -> CommandLookup:
    """A :data:`CommandLookup` reading commands from ``tree`` (no sync needed)."""

    def lookup(name: str, guild_id: int | None) -> tuple[JSON, int | None] | None:
        command: Any = None
        scope: int | None = None
        if guild_id is not None:
            command = tree.get_command(name, guild=discord.Object(guild_id))
            scope = guild_id if command is not None else None
        if command is None:
            command = tree.get_command(name)
        if command is None:
            return None
        schema: JSON = command.to_dict(tree)
        scope_key = "global" if scope is None else str(scope)
        synced = backend.find_command(name, scope)
        if synced is not None and synced[1] == scope:
            schema["id"] = synced[0]["id"]
        else:
            schema["id"] = str(backend.command_id(scope_key, name))
        return schema, scope

    return lookup


_active_driver: InteractionDriver | None = None


class InteractionDriver:
    """Runs interactions through a real (not logged-in) bot in-process. See module docs.

    ``backend`` defaults to a fresh :class:`FakeBackend` with the default world; the bot's
    state gets the bot user, application id and the world's guild (``install_guild``).
    ``run_setup_hook=True`` also awaits ``bot.setup_hook()`` once the patches are active
    (command syncs then hit the backend). ``timeout`` bounds every interaction.
    """

    def __init__(
        self,
        bot: discord.Client,
        *,
        backend: FakeBackend | None = None,
        timeout: float = 5.0,
        strict: bool = True,
        install_guild: bool = True,
        run_setup_hook: bool = False,
        default_user_id: int = ALICE_ID,
        default_channel_id: int = GAMES_CHANNEL_ID,
    ) -> None:
        self.bot = bot
        self.backend = backend or FakeBackend()
        self.timeout = timeout
        self.strict = strict
        self.install_guild = install_guild
        self.run_setup_hook = run_setup_hook
        tree = getattr(bot, "tree", None)
        lookup = None
        if isinstance(tree, app_commands.CommandTree):
            lookup = tree_lookup(tree, self.backend)
        self.factory = InteractionFactory(
            self.backend,
            lookup=lookup,
            default_user_id=default_user_id,
            default_channel_id=default_channel_id,
        )
        self._original_adapter_request: Any = None
        self._started = False

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> InteractionDriver:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def start(self) -> None:
        """Prepare the bot's state and install the request patches."""
        global _active_driver
        if _active_driver is not None:
            raise RuntimeError("another InteractionDriver is active; close it first")
        bot = self.bot
        loop: object = bot.loop  # a sentinel object until the client is set up
        if not isinstance(loop, asyncio.AbstractEventLoop):
            await bot._async_setup_hook()
        state = bot._connection
        if state.user is None:
            state.user = discord.ClientUser(state=state, data=self.backend.bot_user)  # type: ignore[arg-type]
        if state.application_id is None:
            state.application_id = self.backend.application_id
        if self.install_guild and state._get_guild(self.backend.world.guild_id) is None:
            payload = self.backend.world.guild_payload(threads=self.backend.threads())
            state._add_guild_from_data(payload)  # type: ignore[arg-type]
        self._original_adapter_request = AsyncWebhookAdapter.request
        driver = self

        async def adapter_request(
            adapter: AsyncWebhookAdapter,
            route: discord.http.Route,
            session: Any,
            *,
            payload: JSON | None = None,
            multipart: list[JSON] | None = None,
            params: Mapping[str, Any] | None = None,
            **_: Any,
        ) -> Any:
            body, files = _read_form(multipart) if multipart else (payload, [])
            return driver._serve(route, body, files, params)

        async def http_request(
            route: discord.http.Route,
            *,
            files: Any = None,
            form: Iterable[Mapping[str, Any]] | None = None,
            **kwargs: Any,
        ) -> Any:
            body, uploads = _read_form(form) if form else (kwargs.get("json"), [])
            return driver._serve(route, body, uploads, kwargs.get("params"))

        async def get_from_cdn(url: str) -> bytes:
            data = driver.backend.attachment_bytes(url)
            if data is None:
                raise _http_exception(404, {"message": "asset not found", "code": 0})
            return data

        setattr(AsyncWebhookAdapter, "request", adapter_request)  # noqa: B010
        setattr(bot.http, "request", http_request)  # noqa: B010
        setattr(bot.http, "get_from_cdn", get_from_cdn)  # noqa: B010
        _active_driver = self
        self._started = True
        if self.run_setup_hook:
            await bot.setup_hook()

    async def close(self) -> None:
        """Remove the patches (the bot itself is left open; ``await bot.close()`` it)."""
        global _active_driver
        if not self._started:
            return
        setattr(AsyncWebhookAdapter, "request", self._original_adapter_request)  # noqa: B010
        for name in ("request", "get_from_cdn"):
            if name in vars(self.bot.http):
                delattr(self.bot.http, name)
        _active_driver = None
        self._started = False

    @contextlib.contextmanager
    def library_webhooks(self) -> Iterator[None]:
        """Within: interaction callbacks and follow-ups go through discord.py's own webhook
        adapter, over a session the backend answers (``LibrarySession``), rather than straight
        to the backend. The library then does what it does with Discord's answers: after a
        server error (``FakeBackend.fail_after``) it waits a second and sends again."""
        patched = AsyncWebhookAdapter.request
        http: Any = self.bot.http
        session = vars(http).get("_HTTPClient__session")
        setattr(AsyncWebhookAdapter, "request", self._original_adapter_request)  # noqa: B010
        http._HTTPClient__session = LibrarySession(self)
        try:
            yield
        finally:
            setattr(AsyncWebhookAdapter, "request", patched)  # noqa: B010
            if session is None:
                del http._HTTPClient__session
            else:
                http._HTTPClient__session = session

    @contextlib.contextmanager
    def library_http(self) -> Iterator[None]:
        """As ``library_webhooks``, for the bot's own REST calls (``HTTPClient.request``:
        channel messages, threads, edits): within, they meet discord.py's own handling of
        Discord's answers, its second try after a server error included."""
        http: Any = self.bot.http
        patched = vars(http)["request"]
        session = vars(http).get("_HTTPClient__session")
        global_over = vars(http).get("_global_over")
        del http.request
        http._HTTPClient__session = LibrarySession(self)
        http._global_over = asyncio.Event()
        http._global_over.set()
        try:
            yield
        finally:
            http.request = patched
            http._HTTPClient__session = session
            http._global_over = global_over

    def _serve(
        self,
        route: discord.http.Route,
        body: Any,
        files: list[RecordedFile],
        params: Mapping[str, Any] | None,
    ) -> Any:
        path, query = _api_path(route.url)
        for key, value in (params or {}).items():
            query[key] = str(value)
        status, response = self.backend.handle(
            route.method, path, query=query, body=body, files=files
        )
        self.backend.pop_events()  # no gateway here
        if status >= 400:
            raise _http_exception(status, response)
        return response

    # ------------------------------------------------------------------ interactions

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request the bot made (interaction callbacks, webhooks and REST)."""
        return self.backend.requests

    @property
    def messages(self) -> dict[int, JSON]:
        """Messages stored by the backend, by id."""
        return self.backend.messages

    async def dispatch(self, payload: JSON, *, timeout: float | None = None) -> InteractionResult:
        """Feed a raw ``INTERACTION_CREATE`` payload to the bot and wait for its handling."""
        if not self._started:
            raise RuntimeError("InteractionDriver not started (use `async with`)")
        interaction_id = self.backend.register_interaction(payload)
        collector = _ErrorCollector()
        logger = logging.getLogger("discord")
        logger.addHandler(collector)
        try:
            before = asyncio.all_tasks()
            self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
            spawned = asyncio.all_tasks() - before
            if spawned:
                _, pending = await asyncio.wait(spawned, timeout=timeout or self.timeout)
                if pending:
                    for task in pending:
                        task.cancel()
                    names = ", ".join(task.get_name() for task in pending)
                    raise TimeoutError(f"interaction handler(s) still running: {names}")
            await asyncio.sleep(0)
        finally:
            logger.removeHandler(collector)
        result = self.backend.interaction_result(interaction_id)
        result.errors = collector.messages
        if self.strict and result.errors:
            raise InteractionFailed(result)
        return result

    async def deliver_events(self) -> None:
        """Hand the gateway events Discord would now send (``FakeBackend.pending_events``, e.g.
        a moderator's ``delete_by_moderator``) to the bot, and wait for its listeners. Events
        caused by the bot's own requests are dropped as they happen (no gateway here)."""
        before = asyncio.all_tasks()
        for name, data in self.backend.pop_events():
            parser = self.bot._connection.parsers.get(name)
            if parser is not None:
                parser(data)
        spawned = asyncio.all_tasks() - before
        if spawned:
            await asyncio.wait(spawned, timeout=self.timeout)
        await asyncio.sleep(0)

    async def slash(
        self,
        name: str,
        options: Mapping[str, Any] | Sequence[JSON] | None = None,
        *,
        user_id: int | None = None,
        channel_id: int | None = None,
    ) -> InteractionResult:
        """Invoke a slash command (``"group sub"`` for subcommands) with ``{option: value}``."""
        payload = self.factory.slash(name, options, user_id=user_id, channel_id=channel_id)
        return await self.dispatch(payload)

    async def autocomplete(
        self,
        name: str,
        focused: str,
        value: str = "",
        options: Mapping[str, Any] | None = None,
        *,
        user_id: int | None = None,
        channel_id: int | None = None,
    ) -> InteractionResult:
        """Ask for autocomplete choices of option ``focused`` (see ``result.choices``)."""
        payload = self.factory.autocomplete(
            name, focused, value, options, user_id=user_id, channel_id=channel_id
        )
        return await self.dispatch(payload)

    async def click(
        self,
        message: JSON | InteractionResult | int | None,
        custom_id: str,
        *,
        user_id: int | None = None,
    ) -> InteractionResult:
        """Click button ``custom_id`` on a message (payload, id, or an earlier result)."""
        return await self.dispatch(
            self.factory.component(self._message(message), custom_id, user_id=user_id)
        )

    async def forge(
        self,
        message: JSON | InteractionResult | int | None,
        custom_id: str,
        *,
        values: Sequence[str] | None = None,
        user_id: int | None = None,
    ) -> InteractionResult:
        """Press a component a modified client invented (or one that is no longer shown).

        Discord normally only delivers ids of components on the message; a hostile client can
        send any id, so the message is given the component before the click is built.
        """
        found = self._message(message)
        if not isinstance(found, dict):
            found = self.backend.messages[int(found)]
        stored = copy.deepcopy(found)
        kind = 3 if values is not None else 2
        component: JSON = {"type": kind, "custom_id": custom_id}
        if kind == 2:
            component.update({"style": 2, "label": "forged"})
        else:
            component["options"] = [{"label": v, "value": v} for v in values or []]
        rows = list(stored.get("components") or [])[:4]
        stored["components"] = [*rows, {"type": 1, "components": [component]}]
        return await self.dispatch(
            self.factory.component(stored, custom_id, values=values, user_id=user_id)
        )

    async def select(
        self,
        message: JSON | InteractionResult | int | None,
        custom_id: str,
        values: Sequence[str],
        *,
        user_id: int | None = None,
    ) -> InteractionResult:
        """Choose ``values`` in select menu ``custom_id`` on a message."""
        payload = self.factory.component(
            self._message(message), custom_id, values=values, user_id=user_id
        )
        return await self.dispatch(payload)

    async def submit_modal(
        self,
        custom_id: str,
        fields: Mapping[str, str],
        *,
        message: JSON | InteractionResult | int | None = None,
        user_id: int | None = None,
        channel_id: int | None = None,
    ) -> InteractionResult:
        """Submit modal ``custom_id`` with text input values ``{input_custom_id: value}``."""
        resolved = None if message is None else self._message(message)
        stored = None
        if isinstance(resolved, dict):
            stored = resolved
        elif resolved is not None:
            stored = self.backend.messages[int(resolved)]
        payload = self.factory.modal_submit(
            custom_id, fields, message=stored, user_id=user_id, channel_id=channel_id
        )
        return await self.dispatch(payload)

    def _message(self, message: JSON | InteractionResult | int | None) -> JSON | int:
        if isinstance(message, InteractionResult):
            found = message.message
            if found is None:
                raise ValueError("that interaction produced no message")
            return self.backend.messages.get(int(found["id"]), found)
        if message is None:
            raise ValueError("a message is required")
        if isinstance(message, dict):
            return self.backend.messages.get(int(message["id"]), message)
        return message


def bot_for_tests(**kwargs: Any) -> commands.Bot:
    """A minimal ``commands.Bot`` (default intents, no prefix commands) for driver tests."""
    kwargs.setdefault("command_prefix", commands.when_mentioned)
    kwargs.setdefault("intents", discord.Intents.default())
    kwargs.setdefault("guild_ready_timeout", 0.05)
    return commands.Bot(**kwargs)
