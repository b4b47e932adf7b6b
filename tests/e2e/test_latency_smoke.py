"""The latency harness behind ``junction bench --discord`` runs end to end; timings unjudged."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from tests.discord.latency import measure_latency


async def test_measure_latency_returns_positive_figures(tmp_path: Path) -> None:
    """Two channels playing the computer give positive first-response and image timings."""
    figures = await measure_latency(2, 2, db_path=str(tmp_path / "latency.db"))
    for key in ("first_response_p50_ms", "first_response_p99_ms", "image_p50_ms", "image_p99_ms"):
        assert math.isfinite(figures[key]) and figures[key] > 0, key
    assert figures["moves"] == 4 and figures["images"] == 6  # two /play tables + four moves


async def test_more_tables_than_one_member_may_play_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`junction bench --discord` played its fifty channels as one member, whom the games a
    member may play at once (cogs/limits.py) refuse an eleventh: the bench waited a minute for
    a table that never came and ended in a traceback. Each table has a member of its own."""
    from cogs.limits import GAMES_AT_ONCE

    monkeypatch.setattr("tests.discord.latency.REPLY_TIMEOUT", 15.0)  # fail in 15 s, not 60
    # Spread over a second or so, as the bench's players pause: started all at once, the
    # /plays were all checked before any game was stored.
    tables = 2 * GAMES_AT_ONCE
    figures = await measure_latency(tables, 1, db_path=str(tmp_path / "many.db"), think_s=1.0)
    assert figures["moves"] == tables
