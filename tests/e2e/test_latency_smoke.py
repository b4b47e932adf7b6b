"""The latency harness behind ``junction bench --discord`` runs end to end; timings unjudged."""

from __future__ import annotations

import math
from pathlib import Path

from tests.discord.latency import measure_latency


async def test_measure_latency_returns_positive_figures(tmp_path: Path) -> None:
    """Two channels playing the computer give positive first-response and image timings."""
    figures = await measure_latency(2, 2, db_path=str(tmp_path / "latency.db"))
    for key in ("first_response_p50_ms", "first_response_p99_ms", "image_p50_ms", "image_p99_ms"):
        assert math.isfinite(figures[key]) and figures[key] > 0, key
    assert figures["moves"] == 4 and figures["images"] == 6  # two /play tables + four moves
