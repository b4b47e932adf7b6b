"""The benchmarks' percentile."""

from __future__ import annotations

import math

from bot.timing import percentile


def test_nearest_rank_percentiles() -> None:
    """Median and p99 by nearest rank, whatever the input order."""
    values = [float(v) for v in range(100, 0, -1)]
    assert percentile(values, 0.5) == 50.0 and percentile(values, 0.99) == 99.0


def test_empty_is_nan() -> None:
    """No samples give NaN rather than an error."""
    assert math.isnan(percentile([], 0.5))
