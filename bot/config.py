"""Settings from environment variables (see ``.env.example``), read once into a frozen value.

A value that cannot be right is refused here, by name, with :class:`ConfigError`: the command
line prints that one sentence and stops, rather than a traceback or a silent fallback.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

DEFAULT_DB = "sqlite:///junction.db"
MAX_EXPERT_MS = 60_000
"""The most JUNCTION_EXPERT_MS may be: a minute of thinking per move."""
MAX_CHALLENGE_SECONDS = 604_800
"""The longest an invitation or open table may wait (JUNCTION_CHALLENGE_TIMEOUT): a week."""
MAX_PROCESSES = 64
"""The most worker processes JUNCTION_RENDER_PROCESSES and JUNCTION_THINK_PROCESSES may ask for."""


class ConfigError(ValueError):
    """An environment variable holds a value the bot cannot use; the message names it."""


@dataclass(frozen=True)
class Settings:
    discord_token: str | None
    db_url: str
    dev_guild: int | None  # commands sync to this guild instantly (development)
    api_base: str | None  # overrides Discord's REST base (gateway proxy, local fake Discord)
    gateway_url: str | None  # overrides Discord's gateway URL
    challenge_timeout: int  # seconds before an unanswered challenge expires
    log_level: str
    render_processes: int = 1  # worker processes that draw images (0: threads)
    think_processes: int = 1  # worker processes where computer players think (0: threads)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env

        def text(name: str) -> str | None:
            value = env.get(name, "").strip()
            return value or None

        guild_text = text("JUNCTION_DEV_GUILD")
        # 0 is no server: the sync at start would only fail against it. Discord's ids are
        # below 2**63, as `junction sync --guild` checks.
        guild = (
            None
            if guild_text is None
            else _whole("JUNCTION_DEV_GUILD", guild_text, 1, 2**63 - 1, "a server id (digits)")
        )
        # 0 would expire every challenge the moment it is made; hundreds of digits made every
        # /challenge fail (a time past what a float holds), as the turn timer's week caps it.
        timeout = _whole(
            "JUNCTION_CHALLENGE_TIMEOUT",
            text("JUNCTION_CHALLENGE_TIMEOUT") or "300",
            1,
            MAX_CHALLENGE_SECONDS,
            f"a whole number of seconds from 1 to {MAX_CHALLENGE_SECONDS} (a week)",
        )
        # Past what a process pool can count, the bot's start failed in a traceback.
        processes = f"a number of processes from 0 to {MAX_PROCESSES}"
        workers = _whole(
            "JUNCTION_RENDER_PROCESSES",
            text("JUNCTION_RENDER_PROCESSES") or "1",
            0,
            MAX_PROCESSES,
            processes,
        )
        thinkers = _whole(
            "JUNCTION_THINK_PROCESSES",
            text("JUNCTION_THINK_PROCESSES") or "1",
            0,
            MAX_PROCESSES,
            processes,
        )
        given_level = text("JUNCTION_LOG_LEVEL") or "INFO"
        level = given_level.upper()  # `debug` is taken too
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ConfigError(
                "JUNCTION_LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, "
                f"not {shown_value(given_level)}"
            )
        _check_expert_ms(text("JUNCTION_EXPERT_MS"))
        api_base = _endpoint("DISCORD_API_BASE", text("DISCORD_API_BASE"), ("http", "https"))
        gateway = _endpoint(
            "DISCORD_GATEWAY_URL", text("DISCORD_GATEWAY_URL"), ("ws", "wss", "http", "https")
        )
        token = text("DISCORD_TOKEN")
        if token is not None and not token.isprintable():
            # A line break or a control character inside (two lines pasted, a stray Ctrl key)
            # reached the login request, where aiohttp refused the header in a traceback.
            # Said without the token, which must never reach a log.
            raise ConfigError(
                "DISCORD_TOKEN holds a line break or another invisible character; copy it "
                "again from the Bot page of your application at "
                "https://discord.com/developers/applications"
            )
        return cls(
            discord_token=token,
            db_url=text("JUNCTION_DB") or DEFAULT_DB,
            dev_guild=guild,
            api_base=api_base,
            gateway_url=gateway,
            challenge_timeout=timeout,
            log_level=level,
            render_processes=workers,
            think_processes=thinkers,
        )


def _check_expert_ms(value: str | None) -> None:
    """Refuse a JUNCTION_EXPERT_MS the searching players would quietly replace by 300 ms.

    The players read the variable themselves (``bot.ai.search``), in every worker process, and
    fall back to the default on garbage; checked here, a typo is said once, at start-up.
    """
    if value is None:
        return
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    # Past a minute a move is not worth the wait, and a typo of many digits (or seconds written
    # as milliseconds' worth of hours) left the searching worker thinking for good, every
    # expert move and /hint of every channel queued behind it.
    if not (math.isfinite(number) and 0 < number <= MAX_EXPERT_MS):
        raise ConfigError(
            f"JUNCTION_EXPERT_MS must be a positive number of milliseconds, at most "
            f"{MAX_EXPERT_MS} (a minute), not {shown_value(value)}"
        )


def _endpoint(name: str, value: str | None, schemes: tuple[str, ...]) -> str | None:
    """Refuse an endpoint that is no URL: it failed only at login, in an aiohttp traceback."""
    if value is None:
        return None
    try:
        parts = urlsplit(value)
        usable = parts.scheme in schemes and bool(parts.hostname) and parts.port != 0
    except ValueError:  # a port that is no number, or out of range
        usable = False
    if not usable:
        example = "wss://gateway.discord.gg" if "ws" in schemes else "https://discord.com/api/v10"
        raise ConfigError(f"{name} must be a URL like {example}, not {shown_value(value)}")
    return value


def _whole(name: str, value: str, low: int, high: int, what: str) -> int:
    """``value`` as a whole number from ``low`` to ``high``; ConfigError naming the variable
    and saying ``what`` it must be otherwise."""
    # The length first: int() refuses thousands of digits with an error of its own.
    if value.isdecimal() and len(value) <= 30 and low <= int(value) <= high:
        return int(value)
    raise ConfigError(f"{name} must be {what}, not {shown_value(value)}")


def shown_value(value: str) -> str:
    """A refused value quoted, cut short: the sentence stays one line however long it was."""
    return repr(value if len(value) <= 40 else value[:40] + "…")
