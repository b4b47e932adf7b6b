"""/help: a private overview of the games and every registered command."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.games import all_bundles
from cogs.help import GETTING_STARTED, PRIVACY
from tests.cogs.conftest import running_bot
from tests.discord.backend import JSON, InteractionResult
from tests.discord.payloads import InteractionDriver


def _embeds(result: InteractionResult) -> list[JSON]:
    """Every embed /help sent: its answer's, then any follow-up's."""
    callback = result.callback
    assert callback is not None
    return [embed for r in [callback, *result.followups] for embed in r.embeds]


def _sections(result: InteractionResult) -> dict[str, list[str]]:
    """Each section's lines by its name (a section carried on in a second field is joined)."""
    found: dict[str, list[str]] = {}
    for embed in _embeds(result):
        for item in embed.get("fields") or []:
            name = str(item["name"]).removesuffix(" (continued)")
            found.setdefault(name, []).extend(str(item["value"]).splitlines())
    return found


async def test_help_is_private_and_starts_with_how_to_play(driver: InteractionDriver) -> None:
    result = await driver.slash("help", {})
    assert result.ephemeral and not result.followups
    (embed,) = _embeds(result)
    assert embed["description"] == GETTING_STARTED
    assert _sections(result)["Privacy"] == [PRIVACY]


async def test_help_lists_every_game(driver: InteractionDriver) -> None:
    games = _sections(await driver.slash("help", {}))["Games"]
    assert len(games) == len(all_bundles())
    for line, found in zip(games, all_bundles(), strict=True):
        assert line.startswith(f"• **{found.info.title}** (`{found.info.key}`,"), line


async def test_help_lists_every_command_with_its_description(driver: InteractionDriver) -> None:
    """The list comes from the command tree: nothing registered is left out."""
    lines = _sections(await driver.slash("help", {}))["Commands"]
    registered = running_bot(driver).tree.get_commands(type=discord.AppCommandType.chat_input)
    assert len(registered) >= 14
    for command in registered:
        assert f"`/{command.name}` — {command.description}" in lines


async def test_many_more_commands_are_each_shown_whole(driver: InteractionDriver) -> None:
    """/help was one plain message clipped to Discord's 2 000 characters, with few to spare: a
    few more commands cut the list. Forty more, each with the longest description Discord
    takes, are all shown whole, across as many fields (and embeds) as they need; the fake
    Discord refuses any embed over its limits."""
    tree = running_bot(driver).tree
    for n in range(40):

        async def extra(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("extra", ephemeral=True)

        tree.add_command(
            app_commands.Command(
                name=f"extra{n:02}", description=f"{n:02}" + "x" * 98, callback=extra
            )
        )
    result = await driver.slash("help", {})
    assert not result.errors and len(_embeds(result)) > 1
    registered = tree.get_commands(type=discord.AppCommandType.chat_input)
    listed = sorted(registered, key=lambda c: c.name)
    assert _sections(result)["Commands"] == [f"`/{c.name}` — {c.description}" for c in listed]
    assert _sections(result)["Privacy"] == [PRIVACY]


async def test_the_readme_documents_every_command(driver: InteractionDriver) -> None:
    """The README's command table and the registered commands name the same commands."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    documented = set(re.findall(r"^\| `/([a-z-]+)", readme, flags=re.MULTILINE))
    registered = {c.name for c in running_bot(driver).tree.get_commands()}
    assert documented == registered


async def test_the_readme_documents_every_option_and_choice(driver: InteractionDriver) -> None:
    """Each command's README row names its options, and the choices members pick from: the
    table once lagged the options Discord shows (a review of the docs against the cogs)."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    # A command's first row: the command table comes before others naming commands (Limits).
    rows: dict[str, str] = {}
    for name, row in re.findall(r"^\| `/([a-z-]+)([^\n]*)", readme, flags=re.MULTILINE):
        rows.setdefault(name, row)
    for command in running_bot(driver).tree.get_commands(type=discord.AppCommandType.chat_input):
        assert isinstance(command, discord.app_commands.Command)
        # "member2 … member5" names member3 and member4 too.
        row = re.sub(
            r"([a-z]+)(\d) … \1(\d)",
            lambda m: " ".join(f"{m[1]}{n}" for n in range(int(m[2]), int(m[3]) + 1)),
            rows[command.name],
        )
        for parameter in command.parameters:
            assert re.search(rf"\b{parameter.name}\b", row), f"/{command.name} {parameter.name}"
            for choice in parameter.choices:
                assert choice.name in row, f"/{command.name} {parameter.name}: {choice.name}"
