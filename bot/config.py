"""Settings from environment variables (see ``.env.example``), read once into a frozen value."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

DEFAULT_DB = "sqlite:///junction.db"


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
        if guild is not None and not guild.isdecimal():
            raise ValueError(f"JUNCTION_DEV_GUILD must be a server id (digits), not {guild!r}")
        timeout = text("JUNCTION_CHALLENGE_TIMEOUT") or "300"
        if not timeout.isdecimal():
            raise ValueError(f"JUNCTION_CHALLENGE_TIMEOUT must be seconds, not {timeout!r}")
        workers = text("JUNCTION_RENDER_PROCESSES") or "1"
        if not workers.isdecimal():
            raise ValueError(f"JUNCTION_RENDER_PROCESSES must be a number, not {workers!r}")
        thinkers = text("JUNCTION_THINK_PROCESSES") or "1"
        if not thinkers.isdecimal():
            raise ValueError(f"JUNCTION_THINK_PROCESSES must be a number, not {thinkers!r}")
        return cls(
            discord_token=text("DISCORD_TOKEN"),
            db_url=text("JUNCTION_DB") or DEFAULT_DB,
            dev_guild=int(guild) if guild else None,
            api_base=text("DISCORD_API_BASE"),
            gateway_url=text("DISCORD_GATEWAY_URL"),
            challenge_timeout=int(timeout),
            log_level=(text("JUNCTION_LOG_LEVEL") or "INFO").upper(),
            render_processes=int(workers),
            think_processes=int(thinkers),
        )
