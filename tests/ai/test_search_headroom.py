"""The search headroom tool's defaults follow the rounds it is given."""

from __future__ import annotations

import json

import pytest

from tests.ai import search_headroom


def test_fewer_rounds_than_the_default_seen_runs_with_those_below(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--rounds 10`` without ``--seen`` measures a search seeing 8 rounds, where the fixed
    default (8, 16 and 30) refused it."""
    assert search_headroom.main(["race", "--points", "2", "--rounds", "10", "--seed", "1"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rounds"] == 10
    assert {rule["seen"] for rule in report["rules"]} == {8}


def test_a_seen_at_or_past_the_rounds_asked_for_is_refused() -> None:
    """Asked for by hand, a search may not see every round: none would be left to judge it."""
    with pytest.raises(SystemExit):
        search_headroom.main(["race", "--points", "2", "--rounds", "10", "--seen", "10"])
