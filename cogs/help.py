"""/help: what Junction is, its games and its commands, in one private message.

The command lines are read from the bot's own command tree, so a new or renamed command is
listed as it is registered, with the description Discord shows for it.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.core import players_wanted
from bot.games import all_bundles
from cogs.ui import clip

GETTING_STARTED = (
    "**Junction** hosts road-and-rail card games. Start one with `/play` (against the computer, "
    "or alone), `/challenge` (invite members) or `/host` (a table anyone joins). After every "
    "move the table is posted here; **My hand** under it (where hands are private) shows you "
    "your cards. Play with the buttons or `/move`."
)


def games_text() -> str:
    """A line per game: its title, how many play, and the key commands take."""
    lines = []
    for found in all_bundles():
        info = found.info
        seats = players_wanted(info.min_players, info.max_players)
        summary = f" — {info.summary}" if info.summary else ""
        lines.append(f"• **{info.title}** (`{info.key}`, {seats}){summary}")
    return "\n".join(lines)


def commands_text(tree: app_commands.CommandTree[Any]) -> str:
    """A line per slash command, in the order Discord lists them (by name)."""
    listed = sorted(tree.get_commands(type=discord.AppCommandType.chat_input), key=lambda c: c.name)
    return "\n".join(f"`/{command.name}` — {command.description}" for command in listed)


PRIVACY = (
    "Your hand, hints and refusals — and this help — are shown only to you. To be forgotten "
    "by Junction, ask whoever runs it."
)


# Discord's own limit: nothing is ever appended to /help's message (other messages keep room
# for a suffix), and with a command per line it needs the room.
HELP_LIMIT = 2000


def help_text(tree: app_commands.CommandTree[Any]) -> str:
    """The whole /help message."""
    return clip(
        f"{GETTING_STARTED}\n\n**Games**\n{games_text()}\n\n**Commands**\n{commands_text(tree)}"
        f"\n\n{PRIVACY}",
        HELP_LIMIT,
    )


class Help(commands.Cog):
    """/help."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What Junction plays and how to start")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(help_text(self.bot.tree), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(bot))
