"""/help: a private overview of the games and every registered command."""

from __future__ import annotations

import re
from pathlib import Path

import discord

from bot.games import all_bundles
from tests.cogs.conftest import running_bot
from tests.discord.payloads import InteractionDriver


async def test_help_is_private_and_lists_every_game(driver: InteractionDriver) -> None:
    result = await driver.slash("help", {})
    assert result.ephemeral
    text = result.content or ""
    for found in all_bundles():
        assert f"**{found.info.title}** (`{found.info.key}`," in text


async def test_help_lists_every_command_with_its_description(driver: InteractionDriver) -> None:
    """The list comes from the command tree: nothing registered is left out."""
    text = (await driver.slash("help", {})).content or ""
    registered = running_bot(driver).tree.get_commands(type=discord.AppCommandType.chat_input)
    assert len(registered) >= 14
    for command in registered:
        assert f"`/{command.name}` — {command.description}" in text


async def test_help_fits_one_message_whole(driver: InteractionDriver) -> None:
    text = (await driver.slash("help", {})).content or ""
    assert len(text) <= 2000 and not text.endswith("…")


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
    rows = dict(re.findall(r"^\| `/([a-z-]+)([^\n]*)", readme, flags=re.MULTILINE))
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
