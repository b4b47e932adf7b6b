"""The daily deal: one seed per server per day, so a server's members all play the same cards."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime


def daily_date(now: float) -> str:
    """The deal's day, in UTC so every member of a server sees the same date."""
    return datetime.fromtimestamp(now, UTC).strftime("%Y-%m-%d")


def daily_seed(guild_id: int, day: str) -> int:
    """A seed from the server and the day: stable, and different for every server and day."""
    digest = hashlib.sha256(f"junction-daily:{guild_id}:{day}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF
