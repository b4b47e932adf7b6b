"""The daily deal: one secret seed per server, game and day, so a server's members all play the
same cards — and nobody can work the cards out in advance.

The seed is an HMAC of the server, the game and the day under a secret the bot generates once
and keeps in its database (``Store.secret``). Without the secret, the source code and a server
id tell nothing about the deal; with it kept in the database, a deal already played today stays
the same across restarts.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import UTC, datetime

from bot.store.base import Store

SECRET_NAME = "daily-deal"


def daily_date(now: float) -> str:
    """The deal's day, in UTC so every member of a server sees the same date."""
    return datetime.fromtimestamp(now, UTC).strftime("%Y-%m-%d")


def day_start(now: float) -> float:
    """Midnight UTC of ``now``'s day (Unix seconds)."""
    return now - now % 86_400


def daily_seed(secret: str, guild_id: int, game_key: str, day: str) -> int:
    """A seed from the secret, the server, the game and the day: stable, and unguessable."""
    message = f"{guild_id}:{game_key}:{day}".encode()
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


async def daily_secret(store: Store) -> str:
    """The bot's daily-deal secret, made (32 random bytes) the first time it is asked for."""
    return await store.secret(SECRET_NAME, lambda: secrets.token_hex(32))


async def played_today(
    store: Store, *, guild_id: int, game_key: str, user_id: int, now: float
) -> bool:
    """Whether the member has a result of ``now``'s deal of the game on the server. Their own
    results of the day, through their index (migration 0017's ``result_members``): the check
    read and parsed every result of the game on the server that day (500 members: 97 ms on
    SQLite), in the store's one connection, before /play could deal."""
    today = daily_date(now)
    played = await store.results(
        game_key=game_key, guild_id=guild_id, since=day_start(now), user_id=user_id
    )
    return any(r.record.options.get("daily") == today for r in played)
