"""/help: what Junction is, its games and its commands, in one private message.

The command lines are read from the bot's own command tree, so a new or renamed command is
listed as it is registered, with the description Discord shows for it.

The message is an embed: getting started as its description, then a field per section (games,
commands, privacy). A plain message holds 2 000 characters and the list had outgrown most of
them, so one more game or command would have cut its last line; a field holds 1 024, and a
section longer than that carries on in a second field, line by line, so every line is shown
whole. Should the fields ever outgrow one embed (6 000 characters), the rest follow in another
private message.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.core import players_wanted
from bot.games import all_bundles
from cogs.follow_ups import answer_once
from cogs.ui import answer, clip

GETTING_STARTED = (
    "**Junction** hosts road-and-rail card games. Start one with `/play` (against the computer, "
    "or alone), `/challenge` (invite members) or `/host` (a table anyone joins). After every "
    "move the table is posted here; **My hand** under it (where hands are private) shows you "
    "your cards. Play with the buttons or `/move`."
)

# In a direct message with the bot nobody else could answer an invitation or join a table:
# /challenge and /host are refused there, so the start names /play alone.
GETTING_STARTED_DIRECT = (
    "**Junction** hosts road-and-rail card games. Here, in our direct messages, start one with "
    "`/play`: against the computer, or alone. Games with other members (`/challenge`, `/host`) "
    "start in a server's channel. After every move the table is posted here; **My hand** under "
    "it shows you your cards. Play with the buttons or `/move`."
)


def games_lines() -> list[str]:
    """A line per game: its title, how many play, and the key commands take."""
    lines = []
    for found in all_bundles():
        info = found.info
        seats = players_wanted(info.min_players, info.max_players)
        summary = f" — {info.summary}" if info.summary else ""
        lines.append(f"• **{info.title}** (`{info.key}`, {seats}){summary}")
    return lines


def commands_lines(tree: app_commands.CommandTree[Any]) -> list[str]:
    """A line per slash command, in the order Discord lists them (by name)."""
    listed = sorted(tree.get_commands(type=discord.AppCommandType.chat_input), key=lambda c: c.name)
    return [f"`/{command.name}` — {command.description}" for command in listed]


PRIVACY = (
    "Your hand, hints and refusals — and this help — are shown only to you. To be forgotten "
    "by Junction, ask whoever runs it."
)

# Discord's embed limits (its API reference, "Embed Limits"): a body over any is refused.
FIELD_VALUE = 1024
EMBED_FIELDS = 25
EMBED_TOTAL = 6000


def _field_values(lines: Sequence[str]) -> list[str]:
    """``lines`` joined into as few field values as hold them, each line whole (a line longer
    than a whole field, which no game or command makes, is clipped)."""
    values: list[str] = []
    for line in (clip(line, FIELD_VALUE) for line in lines):
        if values and len(values[-1]) + 1 + len(line) <= FIELD_VALUE:
            values[-1] += "\n" + line
        else:
            values.append(line)
    return values


def help_embeds(
    tree: app_commands.CommandTree[Any], *, direct: bool = False
) -> list[discord.Embed]:
    """The whole /help, one embed per message (one, unless the lists outgrow an embed);
    ``direct``: asked in a direct message with the bot."""
    sections = [
        ("Games", games_lines()),
        ("Commands", commands_lines(tree)),
        ("Privacy", [PRIVACY]),
    ]
    embeds = [discord.Embed(description=GETTING_STARTED_DIRECT if direct else GETTING_STARTED)]
    for name, lines in sections:
        for part, value in enumerate(_field_values(lines)):
            title = name if part == 0 else f"{name} (continued)"
            embed = embeds[-1]
            size = len(embed) + len(title) + len(value)
            if len(embed.fields) == EMBED_FIELDS or size > EMBED_TOTAL:
                embed = discord.Embed()
                embeds.append(embed)
            embed.add_field(name=title, value=value, inline=False)
    return embeds


class Help(commands.Cog):
    """/help."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What Junction plays and how to start")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        first, *rest = help_embeds(self.bot.tree, direct=interaction.guild_id is None)
        await answer(interaction, embed=first, ephemeral=True)
        for embed in rest:
            await answer_once(interaction, embed=embed, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(bot))
