"""The concurrent store bench (``junction bench --store``) on both engines, at a tiny size."""

from __future__ import annotations

import asyncio

import pytest

from bot.bench import run_store_bench
from bot.store.base import Store
from bot.store.bench import BENCH_CHANNELS_FROM, bench_channels, bench_store_levels
from tests.store.helpers import Backend


async def test_bench_channels_moves_every_game(store: Store) -> None:
    """Each channel's game gets all its moves, then is aborted so the channel is free again."""
    figures = await bench_channels(store, channels=3, moves_per_channel=4)
    assert figures["moves_per_s"] > 0
    assert 0 < figures["p50_ms"] <= figures["p99_ms"]
    for c in range(3):
        assert await store.active_game(BENCH_CHANNELS_FROM + c) is None
    games = [await store.get_game(i) for i in range(1, 4)]
    assert [(g.version, g.status) for g in games if g] == [(5, "aborted")] * 3
    assert [len(await store.moves(i)) for i in range(1, 4)] == [4, 4, 4]


async def test_bench_reruns_on_the_same_database(backend: Backend) -> None:
    """A second run at every level works on a database the first run left games in."""
    first = await bench_store_levels(backend.store(), total_moves=20, levels=(1, 4))
    second = await bench_store_levels(backend.store(), total_moves=20, levels=(1, 4))
    assert set(first) == set(second) == {1, 4}


def test_store_bench_says_postgresql_was_skipped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without JUNCTION_BENCH_PG it prints SQLite figures and says PostgreSQL was skipped."""
    monkeypatch.delenv("JUNCTION_BENCH_PG", raising=False)
    monkeypatch.setattr("bot.store.bench.CHANNEL_LEVELS", (1, 2))
    assert run_store_bench(quick=True) == 0
    out = capsys.readouterr().out
    assert "postgresql  skipped" in out
    assert '"sqlite_1ch_moves_per_s"' in out


async def test_the_boards_bench_fills_a_store_and_times_every_board(store: Store) -> None:
    """``junction bench --boards`` at a tiny size: the season is stored through the bulk path
    (a second size replaces the first) and every board command gets a time and a stall."""
    from bot.bench_boards import bench_boards_store

    said: list[str] = []
    figures = await bench_boards_store(store, (60, 90), repeats=1, say=said.append)
    # The season of 90, and a game stored by each run of the board after a game (the first
    # run and one repeat).
    assert len(await store.results()) == 90 + 2
    assert figures["90_leaderboard_mille_server_all_p50_ms"] > 0
    assert {"60_history_stall_ms", "90_history_no_games_p50_ms"} <= set(figures)
    assert "90_stats_dragon_first_ms" in figures
    assert len(said) == 2 * len({k.split("_", 1)[1].rsplit("_", 2)[0] for k in figures})


def test_the_boards_bench_refuses_a_database_that_holds_a_servers_games(
    pg_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """JUNCTION_BENCH_PG set to the bot's own database: ``--boards`` emptied it to store its
    made-up season, and every server's games and results were gone. Now it is refused, in one
    sentence before anything is timed, and the game stays."""
    from bot.__main__ import main
    from bot.store.base import SeatRecord
    from bot.store.postgres import PostgresStore

    async def a_servers_game() -> int:
        async with PostgresStore(pg_url) as store:
            game = await store.create_game(
                channel_id=81384788765712385,
                guild_id=81384788765712384,
                game_key="mille",
                seats=[SeatRecord(0, "Ann", 80351110224678912), SeatRecord(1, "Bob", 2**40)],
                options={},
                state={},
            )
            return game.id

    async def still_there(game_id: int) -> bool:
        async with PostgresStore(pg_url) as store:
            return await store.get_game(game_id) is not None

    game_id = asyncio.run(a_servers_game())
    monkeypatch.setenv("JUNCTION_BENCH_PG", pg_url)
    assert main(["bench", "--boards", "--quick"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("junction bench: JUNCTION_BENCH_PG: ")
    assert err.endswith(
        " holds 1 game that no bench made, and --boards empties the database it measures;"
        " name a scratch database.\n"
    )
    assert asyncio.run(still_there(game_id))
