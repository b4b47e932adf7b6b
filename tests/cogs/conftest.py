"""Shared fixtures for cog tests: a real JunctionBot driven by raw interaction payloads."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.client import JunctionBot
from bot.config import Settings
from tests.discord.payloads import InteractionDriver


def bot_settings(tmp_path: Path) -> Settings:
    """A bot on a fresh SQLite file, drawing in threads (no worker process per test bot)."""
    return Settings(
        discord_token=None,
        db_url=f"sqlite:///{tmp_path / 'bot.db'}",
        dev_guild=None,
        api_base=None,
        gateway_url=None,
        challenge_timeout=300,
        log_level="INFO",
        render_processes=0,
        think_processes=0,
    )


@pytest.fixture
async def driver(tmp_path: Path) -> AsyncIterator[InteractionDriver]:
    bot = JunctionBot(bot_settings(tmp_path))
    # Generous: a loaded CI machine draws a replay GIF of 60 frames in several seconds.
    async with InteractionDriver(bot, run_setup_hook=True, timeout=60.0) as running:
        yield running
    await bot.close()


def running_bot(driver: InteractionDriver) -> JunctionBot:
    """The bot under test, typed."""
    assert isinstance(driver.bot, JunctionBot)
    return driver.bot
