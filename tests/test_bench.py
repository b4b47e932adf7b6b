"""``junction bench``'s headings and the JSON keys of its last line (the timings are faked)."""

from __future__ import annotations

import json

import pytest

from bot import bench


@pytest.fixture
def fixed_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every measurement returns one made-up figure at once, so only the printing is tested."""
    monkeypatch.setattr(bench, "bench_render", lambda *a, **k: {"render_ms_p50": 1.0})
    monkeypatch.setattr(bench, "bench_playouts", lambda *a, **k: {"games_per_s": 2.0})
    monkeypatch.setattr(bench, "bench_policy", lambda *a, **k: {"policy_ms_p50": 3.0})
    monkeypatch.setattr(bench, "bench_rollouts", lambda *a, **k: {})


def _run(capsys: pytest.CaptureFixture[str], game: str, players: int | None) -> list[str]:
    assert bench.run_bench(quick=True, game=game, players=players) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.usefixtures("fixed_figures")
def test_a_one_seat_game_is_headed_in_the_singular_and_keeps_its_json_keys(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """'solo (1 seats)' read wrongly; the keys stay 'solo_…' as benchmark files have them."""
    lines = _run(capsys, "solo", None)
    assert lines[0].startswith("solo (1 seat) ")
    assert "seats" not in lines[0]
    figures = json.loads(lines[-1])
    assert set(figures) == {
        "solo_render_ms_p50",
        "solo_games_per_s",
        "solo_policy_ms_p50",
        "peak_memory_mb",
    }


@pytest.mark.usefixtures("fixed_figures")
def test_a_table_of_several_seats_keeps_its_heading_and_json_keys(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = _run(capsys, "dragon", 3)
    assert lines[0].startswith("dragon (3 seats) ")
    figures = json.loads(lines[-1])
    assert set(figures) == {
        "dragon_render_ms_p50",
        "dragon_games_per_s",
        "dragon_policy_ms_p50",
        "peak_memory_mb",
    }
