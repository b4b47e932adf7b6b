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

        guild = text("JUNCTION_DEV_GUILD")
        # 0 is no server: the sync at start would only fail against it. Discord's ids are
        # below 2**63, as `junction sync --guild` checks.
        if guild is not None and not (guild.isdecimal() and 0 < int(guild) < 2**63):
            raise ConfigError(f"JUNCTION_DEV_GUILD must be a server id (digits), not {guild!r}")
        timeout = text("JUNCTION_CHALLENGE_TIMEOUT") or "300"
        # 0 would expire every challenge the moment it is made.
        if not timeout.isdecimal() or int(timeout) < 1:
            raise ConfigError(
                f"JUNCTION_CHALLENGE_TIMEOUT must be a whole number of seconds (at least 1), "
                f"not {timeout!r}"
            )
        workers = text("JUNCTION_RENDER_PROCESSES") or "1"
        if not workers.isdecimal():
            raise ConfigError(f"JUNCTION_RENDER_PROCESSES must be a number, not {workers!r}")
        thinkers = text("JUNCTION_THINK_PROCESSES") or "1"
        if not thinkers.isdecimal():
            raise ConfigError(f"JUNCTION_THINK_PROCESSES must be a number, not {thinkers!r}")
        level = (text("JUNCTION_LOG_LEVEL") or "INFO").upper()
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ConfigError(
                f"JUNCTION_LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {level!r}"
            )
        _check_expert_ms(text("JUNCTION_EXPERT_MS"))
        api_base = _endpoint("DISCORD_API_BASE", text("DISCORD_API_BASE"), ("http", "https"))
        gateway = _endpoint(
            "DISCORD_GATEWAY_URL", text("DISCORD_GATEWAY_URL"), ("ws", "wss", "http", "https")
        )
        return cls(
            discord_token=text("DISCORD_TOKEN"),
            db_url=text("JUNCTION_DB") or DEFAULT_DB,
            dev_guild=int(guild) if guild else None,
            api_base=api_base,
            gateway_url=gateway,
            challenge_timeout=int(timeout),
            log_level=level,
            render_processes=int(workers),
            think_processes=int(thinkers),
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
            f"{MAX_EXPERT_MS} (a minute), not {value!r}"
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
        raise ConfigError(f"{name} must be a URL like {example}, not {value!r}")
    return value
