"""/replay's questions about one channel's games go through an index (migration 0009).

Each test asks the database itself how it would run the store's own SQL (``Backend.plan``), on
SQLite and PostgreSQL alike; the timings before and after are ``junction bench --boards``'s
``replay_lookup`` line, never asserted here.
"""

from __future__ import annotations

from bot.store.base import Store
from bot.store.rows import GAME_COLUMNS
from bot.store.sql import LAST_FINISHED_IN, member_games
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


async def test_a_members_games_in_a_channel_are_read_from_the_channel_index(
    store: Store, backend: Backend
) -> None:
    """/replay's question whether the member's own game here was aborted reads the channel's
    games only."""
    plan = await backend.plan(
        f"SELECT {GAME_COLUMNS} FROM games {member_games(False, here=True)}", "%5%", 42
    )
    assert INDEX in plan


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
