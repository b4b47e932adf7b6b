"""Shared fixtures for cog tests: a real JunctionBot driven by raw interaction payloads."""

from __future__ import annotations

import asyncio
import logging
import types
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import discord.http
import discord.webhook.async_
import pytest

import cogs.follow_ups
import cogs.lobby as lobby_cog
from bot.client import JunctionBot
from bot.config import Settings
from tests.discord.backend import JSON, HTTPError, RecordedRequest
from tests.discord.payloads import InteractionDriver

CHALLENGE_TIMEOUT = 300
"""Seconds an invitation or open table of the test bot stays open."""


def bot_settings(tmp_path: Path) -> Settings:
    """A bot on a fresh SQLite file, drawing in threads (no worker process per test bot)."""
    return Settings(
        discord_token=None,
        db_url=f"sqlite:///{tmp_path / 'bot.db'}",
        dev_guild=None,
        api_base=None,
        gateway_url=None,
        challenge_timeout=CHALLENGE_TIMEOUT,
        log_level="INFO",
        render_processes=0,
        think_processes=0,
    )


@pytest.fixture(autouse=True)
def _lobby_clock_restored(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every cog test puts the lobbies' clock back (``lobby_later`` moves it on), the first
    one to run included: the module is imported here, so it is there to restore even before
    any bot has started."""
    monkeypatch.setattr(lobby_cog, "clock", lobby_cog.clock)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "logs_errors: the bot logs an error on purpose")


class _BotErrors(logging.Handler):
    """The errors the bot's own loggers (junction, bot.*, cogs.*) record."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.split(".")[0] in ("junction", "bot", "cogs"):
            self.seen.append(f"{record.name}: {record.getMessage()}")


@pytest.fixture(autouse=True)
def no_bot_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a cog test during which the bot logged an error: a command that fails answers the
    member with an apology and logs the error (discord.py logs nothing), so a test looking
    only at what was refused or not sent could pass over a crash."""
    errors = _BotErrors()
    logging.getLogger().addHandler(errors)
    try:
        yield
    finally:
        logging.getLogger().removeHandler(errors)
    if not request.node.get_closest_marker("logs_errors"):
        assert not errors.seen, "the bot logged errors: " + "; ".join(errors.seen[:5])


class LoggedErrors(logging.Handler):
    """Everything logged at ERROR, by any logger (discord.py's and asyncio's too)."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.seen.append(f"{record.name}: {record.getMessage()[:120]}")


@pytest.fixture
def errors() -> Iterator[LoggedErrors]:
    """Everything logged at ERROR during the test, by any logger: for requests made by hand,
    which discord.py itself may fail on (``no_bot_errors`` hears only the bot's loggers)."""
    handler = LoggedErrors()
    logging.getLogger().addHandler(handler)
    try:
        yield handler
    finally:
        logging.getLogger().removeHandler(handler)


@pytest.fixture
async def driver(tmp_path: Path) -> AsyncIterator[InteractionDriver]:
    bot = JunctionBot(bot_settings(tmp_path))
    # Generous: a loaded CI machine draws a replay GIF of 60 frames in several seconds.
    async with InteractionDriver(bot, run_setup_hook=True, timeout=60.0) as running:
        yield running
    await bot.close()


@pytest.fixture
def expire(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[[JSON], None]]:
    """Mark an interaction payload as expired: its acknowledgement is refused with Discord's
    "Unknown interaction" (10062), so it is never acknowledged and carries nothing after."""
    expired: set[str] = set()
    backend = driver.backend
    original = backend._callback

    def callback(record: RecordedRequest, interaction_id: str, token: str) -> tuple[int, Any]:
        if token in expired:
            raise HTTPError(404, "Unknown interaction", 10062)
        return original(record, interaction_id, token)

    monkeypatch.setattr(backend, "_callback", callback)
    yield lambda payload: expired.add(str(payload["token"]))


def running_bot(driver: InteractionDriver) -> JunctionBot:
    """The bot under test, typed."""
    assert isinstance(driver.bot, JunctionBot)
    return driver.bot


@pytest.fixture
def quick_second_tries(monkeypatch: pytest.MonkeyPatch) -> None:
    """discord.py waits a second before its second try after a server error (a follow-up's,
    or a REST call's under ``library_http``), and so does ``cogs.follow_ups.send_once`` before
    sending a follow-up again; the fake Discord answers at once, so the waits are cut to
    nothing (the tries and their order are unchanged)."""
    real_sleep = asyncio.sleep

    async def no_wait(delay: float, result: Any = None) -> Any:
        return await real_sleep(0, result)

    for module in (discord.webhook.async_, discord.http, cogs.follow_ups):
        quick = types.SimpleNamespace(**vars(asyncio))
        quick.sleep = no_wait
        monkeypatch.setattr(module, "asyncio", quick)
