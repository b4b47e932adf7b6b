"""/replay's questions about one channel's games go through an index (migration 0009).

Each test asks the database itself how it would run the store's own SQL (``Backend.plan``), on
SQLite and PostgreSQL alike; the timings before and after are ``junction bench --boards``'s
``replay_lookup`` line, never asserted here.
"""

from __future__ import annotations

from bot.store.base import GameStatus, SeatRecord, Store
from bot.store.rows import GAME_COLUMNS
from bot.store.sql import ABORTED_IN, LAST_FINISHED_IN, last_finished_of
from tests.store.helpers import Backend, new_game

INDEX = "games_by_channel"


async def test_the_last_finished_game_is_read_from_the_channel_index(
    store: Store, backend: Backend
) -> None:
    """The channel's last finished game is found in the index, in the order asked: no sort of
    the channel's games (nor a read of every game)."""
    plan = await backend.plan(f"SELECT {GAME_COLUMNS} FROM games {LAST_FINISHED_IN}", 42)
    assert INDEX in plan
    assert "TEMP B-TREE" not in plan and "Sort" not in plan


async def test_the_last_finished_game_of_installed_games_is_read_from_the_index_too(
    store: Store, backend: Backend
) -> None:
    """Asked for the last finished game of some games only (those still installed), the
    channel's finished games are still read from the index, newest first: no sort."""
    sql = f"SELECT {GAME_COLUMNS} FROM games {last_finished_of(2)}"
    plan = await backend.plan(sql, 42, "mille", "race")
    assert INDEX in plan
    assert "TEMP B-TREE" not in plan and "Sort" not in plan


async def test_the_last_finished_game_of_some_games_passes_over_the_others(
    store: Store,
) -> None:
    """The channel's last finished game of the games named: a newer one of another game, an
    aborted one or one on another channel is passed over; none of the games named, or no
    game named, finds nothing."""
    older = await _ended(store, 42, 5, "finished")
    relay = await _ended(store, 42, 5, "finished", game_key="relay")
    await _ended(store, 42, 5, "aborted")
    await _ended(store, 43, 5, "finished")
    last = await store.last_finished_game(42)
    assert last is not None and last.id == relay
    found = await store.last_finished_game(42, ["race", "mille"])
    assert found is not None and (found.id, found.game_key) == (older, "mille")
    assert await store.last_finished_game(42, ["race"]) is None
    assert await store.last_finished_game(42, []) is None


async def test_a_members_last_aborted_game_is_read_from_the_channel_index(
    store: Store, backend: Backend
) -> None:
    """/replay's question whether the member's own last game here was aborted reads the
    channel's aborted games only (not every aborted game, as SQLite chose while the game id
    bound was a term its index of games by status could serve)."""
    plan = await backend.plan(ABORTED_IN, 42, 0, "%5%", 64, 0)
    assert INDEX in plan


async def _ended(
    store: Store, channel_id: int, user_id: int, status: GameStatus, game_key: str = "mille"
) -> int:
    """A game of ``user_id`` against the computer on ``channel_id``, ended as ``status``."""
    game = await store.create_game(
        channel_id=channel_id,
        guild_id=7,
        game_key=game_key,
        seats=(SeatRecord(0, "Ann", user_id), SeatRecord(1, "Computer", policy="greedy")),
        options={},
        state={},
    )
    await store.end_game(game_id=game.id, expected_version=0, status=status, state={})
    return game.id


async def test_the_members_last_aborted_game_here_is_found(store: Store) -> None:
    """The member's aborted game on this channel that ended last: not a finished one, not
    another member's, not one on another channel; none above ``after``."""
    await _ended(store, 42, 5, "aborted")
    aborted = await _ended(store, 42, 5, "aborted")
    await _ended(store, 42, 5, "finished")
    await _ended(store, 42, 6, "aborted")
    await _ended(store, 43, 5, "aborted")
    found = await store.last_aborted_game_of(5, 42)
    assert found is not None and (found.id, found.status) == (aborted, "aborted")
    assert await store.last_aborted_game_of(5, 42, after=aborted) is None
    assert await store.last_aborted_game_of(7, 42) is None


async def test_false_friends_over_more_than_a_page_are_skipped(store: Store) -> None:
    """Member 15's games match member 5's pattern (their id holds the digit): seventy of them,
    ended after member 5's game, fill more than one page read, and member 5's is still found."""
    mine = await _ended(store, 42, 5, "aborted")
    for _ in range(70):
        await _ended(store, 42, 15, "aborted")
    found = await store.last_aborted_game_of(5, 42)
    assert found is not None and found.id == mine


async def test_an_old_database_gains_the_index(backend: Backend) -> None:
    """A database from before migration 0009 (schema 3, games in it) opens with the index, and
    the channel's last finished game is the one found."""
    await backend.migrate_to(3)
    for channel, status, updated in (
        (42, "finished", 5.0),
        (42, "finished", 9.0),
        (43, "finished", 20.0),
        (42, "aborted", 30.0),
    ):
        await backend.raw(
            "INSERT INTO games (channel_id, guild_id, game_key, seats, options, state, version,"
            " status, created_at, updated_at) VALUES"
            f" ({channel}, 7, 'mille', '[]', '{{}}', '{{}}', 0, '{status}', 1.0, {updated})"
        )
    store = backend.store()
    await store.open()
    try:
        last = await store.last_finished_game(42)
        assert last is not None and last.updated_at == 9.0
        fresh = await new_game(store, channel_id=42)
        assert fresh.status == "active"
    finally:
        await store.close()
    plan = await backend.plan(f"SELECT {GAME_COLUMNS} FROM games {LAST_FINISHED_IN}", 42)
    assert INDEX in plan
