"""The links /history and /mygames serve, each looked at once a process: a table (or an
invitation, an open table) a moderator deleted while the bot was away, or its thread or
channel, sent no event the bot could hear, and its link opened nothing for good.

After the answer is sent (the member waits for no request), the messages it links to that this
process has not looked at yet are fetched, one request each; one Discord says is gone is
forgotten as its deletion's event would have had it (``cogs.gone.found_gone``: a table's link
dropped, a lobby closed and its seats freed), and the answer is edited without it. A message
found there is not asked about again while the process runs: a deletion from then on comes as
an event (``cogs.mygames`` listens). Except while a shard was cut off from Discord, whose
events may be lost: ``cogs.timers`` forgets what was looked at when a shard comes back
(``forget_looked_at``). So a link costs one request a process, not one a command; ten at most
an answer (/history's ten games, /mygames' few).

Dependency direction: imports ``cogs.gone`` and ``cogs.ui`` only; ``cogs.leaderboard``,
``cogs.mygames`` and ``cogs.timers`` import it.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, Final

import discord

from bot.boards import linked_messages
from cogs import gone
from cogs.ui import junction

log = logging.getLogger("junction.links")

LOOKED_AT_KEPT: Final = 100_000
"""Messages remembered as looked at (about 100 bytes each, 10 MB at most); the least recently
served are forgotten first, and looked at again if served again."""

LOOKS_PER_ANSWER: Final = 10
"""The most messages one answer has looked at: /history links ten games; /mygames more only
for a member in many games, whose other links wait for their next /mygames."""


class LookedAt:
    """The messages this process has found still there, kept on the bot."""

    def __init__(self) -> None:
        self.messages: OrderedDict[int, None] = OrderedDict()

    def seen(self, message_id: int) -> bool:
        if message_id in self.messages:
            self.messages.move_to_end(message_id)
            return True
        return False

    def add(self, message_id: int) -> None:
        self.messages[message_id] = None
        while len(self.messages) > LOOKED_AT_KEPT:
            self.messages.popitem(last=False)


def looked_at_of(client: Any) -> LookedAt:
    """The bot's messages looked at, kept on it: a restart (a new bot) looks again."""
    looked = getattr(client, "looked_at", None)
    if not isinstance(looked, LookedAt):
        looked = client.looked_at = LookedAt()
    return looked


def forget_looked_at(client: Any) -> None:
    """Look at every link again: a shard was cut off from Discord, and a deletion meanwhile
    may have sent the bot no event."""
    looked_at_of(client).messages.clear()


async def look_after_answer(
    interaction: discord.Interaction[Any], text: str, redo: Callable[[], Awaitable[str]]
) -> None:
    """After ``text`` was sent as the interaction's answer: look at the messages it links to
    (those not yet looked at); when any is gone, forgotten, edit the answer to ``redo()``'s
    text, built again from the store. Never raises: the answer stands as it was."""
    try:
        if await _gone(interaction.client, linked_messages(text)):
            await interaction.edit_original_response(content=await redo())
    except Exception:
        log.warning("could not look at the links of an answer", exc_info=True)


async def _gone(client: Any, links: list[tuple[int, int]]) -> bool:
    """Whether any of ``links`` (channel, message) not looked at yet is gone, each such one
    forgotten. A link Discord could not say of for its own trouble (a 5xx) is looked at again
    next time."""
    looked = looked_at_of(client)
    store = junction(client).tables.store
    found = False
    unseen = [link for link in links if not looked.seen(link[1])]
    for channel_id, message_id in unseen[:LOOKS_PER_ANSWER]:
        channel = client.get_partial_messageable(channel_id)
        try:
            await channel.fetch_message(message_id)
        except discord.HTTPException as error:
            if await gone.found_gone(store, channel_id, message_id, error):
                log.info("message %s in %s was deleted unseen: forgotten", message_id, channel_id)
                found = True
            elif not isinstance(error, discord.DiscordServerError):
                # Out of reach (access lost): asking again would tell no more.
                looked.add(message_id)
            continue
        looked.add(message_id)
    return found
