"""A public follow-up of an interaction, posted once even when Discord fails its answer.

In an outage Discord may post a message and still answer 500 (or 502, 504, 524). discord.py 2.7
then sends the request again by itself (``AsyncWebhookAdapter.request``: any 5xx, up to five
tries). A channel message carries a nonce that Discord is asked to enforce (``enforce_nonce``),
so its copy is refused; a follow-up, an execution of the interaction's webhook, has no nonce,
and each try posted the table again. :func:`send_once` sends a follow-up once: a server error
is raised at once rather than sent again, and before it goes on, the message is looked for.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from typing import Any, cast

import aiohttp
import discord
from discord.http import json_or_text
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

log = logging.getLogger("junction.follow_ups")

LOOK_BACK = 25
"""How many of the channel's latest messages are read for a follow-up Discord may have posted:
its answer came at once, so only a busy channel has said more since."""


async def send_once(
    interaction: discord.Interaction[Any],
    *,
    replaces_thinking: bool,
    tries: int = 1,
    **message: Any,
) -> discord.Message:
    """``interaction.followup.send(**message, wait=True)``, never posted twice where it can be
    found.

    A server error is not sent again blindly; the message is looked for first: the "thinking…"
    placeholder it was to replace (``replaces_thinking``: the first follow-up of a deferral
    that thinks), or the interaction's follow-up among the channel's latest messages. Found,
    it is the answer; not found, it is sent again after discord.py's own wait, up to ``tries``
    sends in all, then the error goes on (``cogs.ui.post_table`` then posts the table through
    the channel, whose messages carry a nonce). Where the bot may not read the channel's
    history, a button's follow-up cannot be told apart and may show twice, as before; so may
    a private one (``ephemeral``) that replaces no placeholder: only its member sees it, in
    no channel's history, and it is better shown twice than lost."""
    for attempt in range(tries):
        try:
            with _no_second_try():
                return await interaction.followup.send(**message, wait=True)
        except discord.DiscordServerError:
            found = await _posted_anyway(
                interaction,
                message.get("content"),
                replaces_thinking=replaces_thinking,
                private=bool(message.get("ephemeral")),
            )
            if found is not None:
                log.warning(
                    "Discord failed a follow-up it had posted (%s); not sent again", found.id
                )
                return found
            if attempt + 1 == tries:
                raise
            log.warning("Discord failed a follow-up it may not have posted; sending it again")
            await asyncio.sleep(1 + attempt * 2)  # discord.py's own wait before a second try
            for file in [
                *message.get("files", ()),
                *([message["file"]] if "file" in message else []),
            ]:
                file.reset()  # read again from the start
    raise AssertionError("tries must be at least 1")


async def answer_once(interaction: discord.Interaction[Any], **message: Any) -> discord.Message:
    """A command's answer after its deferral, public (a board, a member's stats, a replay) or
    private (a hint, a hand, a refusal): sent as discord.py would, up to five tries after a
    server error, but never twice where it can be found (``send_once``)."""
    return await send_once(interaction, replaces_thinking=thinks(interaction), tries=5, **message)


def thinks(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction was answered "thinking…" (a command's deferral), which its first
    follow-up replaces; a button's deferral shows nothing, and its follow-ups are new messages."""
    return interaction.response.type is discord.InteractionResponseType.deferred_channel_message


async def _posted_anyway(
    interaction: discord.Interaction[Any],
    content: str | None,
    *,
    replaces_thinking: bool,
    private: bool,
) -> discord.Message | None:
    """The follow-up with ``content`` that Discord posted despite its server error, if any."""
    try:
        if replaces_thinking:
            # The first follow-up edits the placeholder: posted, it no longer thinks.
            try:
                original = await interaction.original_response()
            except discord.NotFound:
                original = None  # taken back: the follow-up is a message of its own
            if original is not None:
                if original.flags.loading:
                    return None
                if original.content == (content or ""):
                    return original
                # It became an earlier answer (a table before a refusal): this follow-up is a
                # message of its own, looked for as a button's is.
        client: discord.Client = interaction.client
        bot = client.user
        if private or interaction.channel_id is None or bot is None:
            # A private message is in no channel's history: only its member sees it.
            return None
        if not interaction.app_permissions.read_message_history:
            return None
        channel = client.get_partial_messageable(
            interaction.channel_id, guild_id=interaction.guild_id
        )
        async for earlier in channel.history(limit=LOOK_BACK):
            made_by = earlier.interaction_metadata
            if (
                earlier.author.id == bot.id
                and made_by is not None
                and made_by.id == interaction.id
                and earlier.content == (content or "")
            ):
                return earlier
    except discord.HTTPException:
        log.warning("could not look for a follow-up Discord failed", exc_info=True)
    return None


@contextlib.contextmanager
def _no_second_try() -> Iterator[None]:
    """Within: a follow-up Discord answers with a server error raises it at once."""
    token = async_context.set(_ONE_TRY)
    try:
        yield
    finally:
        async_context.reset(token)


class _OneTry(AsyncWebhookAdapter):
    """discord.py's webhook adapter, except that a message posted (a ``POST``) that Discord
    answers with a server error is not sent again: the error is raised at once."""

    async def request(self, route: Any, session: aiohttp.ClientSession, **kwargs: Any) -> Any:
        if route.method == "POST" and not route.url.endswith("/callback"):
            session = cast(aiohttp.ClientSession, _ServerErrorsRaised(session))
        return await super().request(route, session, **kwargs)


_ONE_TRY = _OneTry()  # type: ignore[no-untyped-call]  # discord.py's __init__ has no hints


class _ServerErrorsRaised:
    """A session whose answers with a server error are raised as ``DiscordServerError`` as
    they come, before the adapter's loop reads them (and sends again)."""

    def __init__(self, session: aiohttp.ClientSession) -> None:
        self._session = session

    def request(self, *args: Any, **kwargs: Any) -> _Answer:
        return _Answer(self._session.request(*args, **kwargs))


class _Answer:
    """One request of ``_ServerErrorsRaised``."""

    def __init__(self, call: Any) -> None:
        self._call = call

    async def __aenter__(self) -> Any:
        response = await self._call.__aenter__()
        if response.status >= 500:
            data = await json_or_text(response)
            await self._call.__aexit__(None, None, None)
            raise discord.DiscordServerError(response, data)
        return response

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._call.__aexit__(*exc)
