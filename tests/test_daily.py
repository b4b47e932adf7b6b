"""The daily deal's date and its secret seed."""

from __future__ import annotations

import hashlib
from pathlib import Path

from bot.daily import daily_date, daily_secret, daily_seed
from bot.store.sqlite import SqliteStore


def test_the_day_is_taken_in_utc() -> None:
    """The deal's day is the UTC date, whatever the bot's time zone."""
    assert daily_date(1_763_683_200.0) == "2025-11-21"  # 2025-11-21 00:00 UTC


def test_same_server_same_day_same_seed() -> None:
    """Everyone on a server gets the same seed on the same day."""
    assert daily_seed("s", 42, "solo", "2026-11-21") == daily_seed("s", 42, "solo", "2026-11-21")


def test_seed_changes_with_server_game_and_day() -> None:
    """Another server, game or day gives another deal."""
    seeds = {
        daily_seed("s", 42, "solo", "2026-11-21"),
        daily_seed("s", 43, "solo", "2026-11-21"),
        daily_seed("s", 42, "solo", "2026-11-22"),
        daily_seed("s", 42, "ttr-solo", "2026-11-21"),
    }
    assert len(seeds) == 4 and all(0 <= s < 2**31 for s in seeds)


def test_the_seed_depends_on_the_secret() -> None:
    """Without the bot's secret the seed cannot be computed from public values."""
    assert daily_seed("one", 42, "solo", "2026-11-21") != daily_seed(
        "two", 42, "solo", "2026-11-21"
    )
    # The old public derivation (a hash of the server and day) no longer gives the seed.
    public = hashlib.sha256(b"junction-daily:42:2026-11-21").digest()
    assert int.from_bytes(public[:4], "big") & 0x7FFFFFFF != daily_seed(
        "one", 42, "solo", "2026-11-21"
    )


async def test_secret_is_random_and_survives_a_restart(tmp_path: Path) -> None:
    """The secret is made once per database and read back after a restart."""
    async with SqliteStore(tmp_path / "a.db") as store:
        first = await daily_secret(store)
    async with SqliteStore(tmp_path / "a.db") as store:
        assert await daily_secret(store) == first
    async with SqliteStore(tmp_path / "b.db") as other:
        assert await daily_secret(other) != first
    assert len(first) == 64
