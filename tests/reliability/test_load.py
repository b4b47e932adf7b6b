"""Load: channels of every game playing at once through the fake Discord (see ``load.py``).

Light (CI): 12 channels for 15 s — no errors, every figure finite. ``JUNCTION_HEAVY=1``: 50
channels, then 200, three minutes each, and how the figures grow between them.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tests.reliability.driving import heavy
from tests.reliability.load import measure


async def test_channels_play_at_once_without_errors(tmp_path: Path) -> None:
    """Every interaction is answered, nothing apologises, the bot logs no error."""
    runs = [(50, 180.0), (200, 180.0)] if heavy() else [(12, 15.0)]
    figures = {}
    for channels, seconds in runs:
        folder = tmp_path / f"{channels}ch"
        folder.mkdir()
        found = await measure(folder, channels=channels, seconds=seconds)
        figures[channels] = found
        print(
            f"\nload {channels} channels: {json.dumps({k: round(v, 1) for k, v in found.items()})}"
        )
        assert found["errors"] == 0, found
        assert found["interactions"] > channels
        for key in ("first_response_p50_ms", "image_p50_ms", "bot_rss_mb", "worker_rss_mb"):
            assert math.isfinite(found[key]) and found[key] > 0, key
    if len(figures) == 2:
        small, large = figures[50], figures[200]
        growth = {
            k: round(large[k] / small[k], 2)
            for k in ("first_response_p99_ms", "image_p99_ms", "bot_rss_mb", "worker_rss_mb")
        }
        print(f"load growth 50 → 200 channels: {json.dumps(growth)}")


@pytest.mark.skipif(not heavy(), reason="heavy: JUNCTION_HEAVY=1")
async def test_the_load_check_sees_answers_that_never_come(tmp_path: Path) -> None:
    """Broken on purpose (botwrap's ``stall``): one move in twenty hangs. Errors are counted."""
    found = await measure(tmp_path, channels=12, seconds=25.0, think=0.5, sabotage="stall")
    print(
        f"\nload with stalls: errors {found['errors']}, unanswered {found['unanswered']}, "
        f"unfinished {found['unfinished']}"
    )
    assert found["errors"] > 0
