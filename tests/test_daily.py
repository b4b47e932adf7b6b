"""The daily deal's date and seed."""

from __future__ import annotations

from bot.daily import daily_date, daily_seed


def test_the_day_is_taken_in_utc() -> None:
    """The deal's day is the UTC date, whatever the bot's time zone."""
    assert daily_date(1_763_683_200.0) == "2025-11-21"  # 2025-11-21 00:00 UTC


def test_same_server_same_day_same_seed() -> None:
    """Everyone on a server gets the same seed on the same day."""
    assert daily_seed(42, "2026-11-21") == daily_seed(42, "2026-11-21")


def test_seed_changes_with_server_and_day() -> None:
    """Another server or another day gives another deal."""
    seeds = {
        daily_seed(42, "2026-11-21"),
        daily_seed(43, "2026-11-21"),
        daily_seed(42, "2026-11-22"),
    }
    assert len(seeds) == 3 and all(0 <= s < 2**31 for s in seeds)
