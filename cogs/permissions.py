"""What the bot needs in a channel to do what an interaction asks, and the refusal that names
what it lacks.

Checked before a command or a component runs (``JunctionTree.interaction_check`` and
``GameItem.callback``), so a channel a moderator locked down gets one sentence naming the
missing permissions instead of a game stored and never posted.
"""

from __future__ import annotations

from typing import Any

import discord

# Commands that post in the channel (a table, a lobby, a board): the bot needs its permissions.
POSTING_COMMANDS = frozenset(
    {
        "play",
        "challenge",
        "host",
        "move",
        "table",
        "resign",
        "abort",
        "leaderboard",
        "stats",
        "replay",
    }
)
# Of those, the ones that post words only: a channel that no longer lets the bot attach images
# must still let its game be ended.
TEXT_COMMANDS = frozenset({"abort"})
PERMISSION_NAMES = {
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "attach_files": "Attach Files",
    "embed_links": "Embed Links",
    "create_public_threads": "Create Public Threads",
}
THREAD_TYPES = (discord.ChannelType.public_thread, discord.ChannelType.private_thread)


def missing_permissions(interaction: discord.Interaction[Any], *, images: bool = True) -> list[str]:
    """The permissions the bot lacks here for what this interaction asks (names as Discord
    shows them): sending (in threads too), attaching the table image and embedding (unless
    ``images`` is False, or the command posts words only), and creating a thread when the
    command asks for one. Empty outside a server or when nothing is missing."""
    if interaction.guild_id is None:
        return []
    data: Any = interaction.data or {}  # the raw payload: a command's name and options
    if interaction.type is discord.InteractionType.application_command:
        if data.get("name") not in POSTING_COMMANDS:
            return []
        images = images and data.get("name") not in TEXT_COMMANDS
    elif interaction.type is not discord.InteractionType.component:
        return []
    allowed = interaction.app_permissions
    channel = interaction.channel
    in_thread = isinstance(channel, discord.Thread) or (
        channel is not None and channel.type in THREAD_TYPES
    )
    needed = ["send_messages_in_threads" if in_thread else "send_messages"]
    if images:
        needed += ["attach_files", "embed_links"]
    options = data.get("options") or []
    if any(o.get("name") == "thread" and o.get("value") is True for o in options):
        # The game's tables are posted in the new thread: without this one the thread would be
        # made and the game stored, and then nothing could be posted (or aborted) there.
        needed += ["create_public_threads", "send_messages_in_threads"]
    return [PERMISSION_NAMES[name] for name in dict.fromkeys(needed) if not getattr(allowed, name)]


def permission_refusal(interaction: discord.Interaction[Any], *, images: bool = True) -> str | None:
    """The sentence that names the permissions the bot lacks here, or None."""
    missing = missing_permissions(interaction, images=images)
    if not missing:
        return None
    names = " and ".join(f"**{m}**" for m in missing)
    plural = "permissions" if len(missing) > 1 else "permission"
    return (
        f"I cannot play here: I am missing the {names} {plural} in this channel. "
        "Ask a server admin to give them to Junction, or play in another channel."
    )
