"""Messages, threads and channels a moderator deleted: the tables there forgotten (no link from
/mygames or /history opens nothing) and the invitations and open tables there closed (nobody
can press their buttons, so their seats count no longer). The game itself never changes: only
where it is shown.

Discord says so while the bot listens (MESSAGE_DELETE, its bulk form, THREAD_DELETE,
CHANNEL_DELETE: ``cogs.mygames``); what was deleted while the bot was away, or cut off from
Discord, it finds when an edit or a fetch it makes anyway meets Discord's "Unknown Message" or
"Unknown Channel" (``found_gone``). Nothing here asks Discord anything.

Dependency direction: imports no other cog, so ``cogs.lobby``, ``cogs.timers``, ``cogs.links``,
``cogs.mygames`` and ``cogs.leaderboard`` all may import it.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

import discord

from bot.store.base import Store

UNKNOWN_CHANNEL: Final = 10003
"""Discord's error code for a channel (or thread) that does not exist (any more)."""
UNKNOWN_MESSAGE: Final = 10008
"""... and for a message that does not."""


async def messages_deleted(store: Store, channel_id: int, message_ids: Collection[int]) -> None:
    """Deleted messages of a channel, any of them a table or a lobby's (the ids alone cannot
    tell a table from chat: one indexed read each, a write only for a table or lobby)."""
    await store.forget_table_messages(channel_id, message_ids)
    # An invitation or open table deleted can no longer be answered, joined or cancelled:
    # closed, it no longer holds its members' seats (games at once).
    await store.close_deleted_lobbies(channel_id, message_ids)


async def channel_deleted(store: Store, channel_id: int) -> None:
    """A deleted channel or thread: its messages went with it, each without a MESSAGE_DELETE,
    so every table and lobby posted there goes as if deleted one by one."""
    await store.forget_channel_tables(channel_id)
    await store.close_channel_lobbies(channel_id)


async def found_gone(
    store: Store, channel_id: int, message_id: int, error: discord.HTTPException
) -> bool:
    """After an edit or fetch of ``message_id`` in ``channel_id`` failed with ``error``: when
    Discord says the message, or its channel or thread, does not exist (deleted while the bot
    was away, no event came), forget it as its deletion's event would have. Whether it did;
    any other error (the bot lost access, Discord's trouble) changes nothing."""
    if not isinstance(error, discord.NotFound):
        return False
    if error.code == UNKNOWN_MESSAGE:
        await messages_deleted(store, channel_id, {message_id})
    elif error.code == UNKNOWN_CHANNEL:
        await channel_deleted(store, channel_id)
    else:
        return False
    return True
