"""The open lobbies past their time, for the sweep that expires them (``Store.lobbies_due``,
migration 0007) — on SQLite and PostgreSQL alike."""

from __future__ import annotations

from dataclasses import replace

from bot.store.base import Shards, Store
from tests.store.helpers import Backend, lobby_record

NOW = 5000.0


def _guild_on_shard(shard: int, count: int = 4) -> int:
    """A server id (a real snowflake's size) that Discord puts on ``shard`` of ``count``."""
    return ((1000 * count + shard) << 22) + 123


async def test_only_open_lobbies_past_their_time_are_due(store: Store) -> None:
    """A lobby due a second ago is listed; one due at this very moment (a press now still
    counts), one due later, and one past its time but already started, are not."""
    past = await store.create_lobby(lobby_record(expires_at=NOW - 1))
    await store.create_lobby(lobby_record(expires_at=NOW))
    await store.create_lobby(lobby_record(expires_at=NOW + 60))
    started = await store.create_lobby(lobby_record(expires_at=NOW - 1))
    await store.update_lobby(replace(started, status="started"), started.version)
    due = await store.lobbies_due(NOW, 10)
    assert [lobby.id for lobby in due] == [past.id]
    assert due[0] == await store.get_lobby(past.id)


async def test_the_longest_overdue_come_first_and_no_more_than_the_limit(store: Store) -> None:
    """Three lobbies due, asked for two: the two that expired first, oldest first."""
    late = await store.create_lobby(lobby_record(expires_at=NOW - 10))
    later = await store.create_lobby(lobby_record(expires_at=NOW - 30))
    await store.create_lobby(lobby_record(expires_at=NOW - 5))
    due = await store.lobbies_due(NOW, 2)
    assert [lobby.id for lobby in due] == [later.id, late.id]


async def test_shards_keep_the_lobbies_of_their_servers(store: Store) -> None:
    """With shards 1 and 3 of 4, a lobby on a server of shard 1 and one in no server are due;
    one on a server of shard 2 is another process's."""
    mine = await store.create_lobby(lobby_record(expires_at=NOW - 1, guild_id=_guild_on_shard(1)))
    await store.create_lobby(lobby_record(expires_at=NOW - 1, guild_id=_guild_on_shard(2)))
    nowhere = await store.create_lobby(lobby_record(expires_at=NOW - 1, guild_id=None))
    due = await store.lobbies_due(NOW, 10, Shards(4, (1, 3)))
    assert [lobby.id for lobby in due] == [mine.id, nowhere.id]
    assert len(await store.lobbies_due(NOW, 10)) == 3


async def test_another_shards_backlog_does_not_fill_the_limit(store: Store) -> None:
    """Two lobbies due on shard 0's servers (its process is down), one on shard 1's: shard 1
    asking for one lobby gets its own."""
    for _ in range(2):
        await store.create_lobby(lobby_record(expires_at=NOW - 9, guild_id=_guild_on_shard(0, 2)))
    mine = await store.create_lobby(
        lobby_record(expires_at=NOW - 1, guild_id=_guild_on_shard(1, 2))
    )
    due = await store.lobbies_due(NOW, 1, Shards(2, (1,)))
    assert [lobby.id for lobby in due] == [mine.id]


async def test_an_unreadable_due_lobby_is_expired_not_returned(
    store: Store, backend: Backend
) -> None:
    """A due lobby whose row is damaged is marked expired (it would come back at every sweep,
    ahead of the others, and fill the limit); the readable one behind it is returned next."""
    broken = await store.create_lobby(lobby_record(expires_at=NOW - 20))
    fine = await store.create_lobby(lobby_record(expires_at=NOW - 10))
    await backend.raw(f"UPDATE lobbies SET data = '{{}}' WHERE id = {broken.id}")
    due = await store.lobbies_due(NOW, 1)
    assert [lobby.id for lobby in due] == []
    assert await backend.raw(f"SELECT status, version FROM lobbies WHERE id = {broken.id}") == [
        ("expired", 1)
    ]
    assert [lobby.id for lobby in await store.lobbies_due(NOW, 1)] == [fine.id]


async def test_the_sweeps_index_exists(store: Store, backend: Backend) -> None:
    """Migration 0007 indexes the open lobbies by expiry (the sweep asks every few seconds, and
    closed lobbies stay in the table a week)."""
    if backend.name == "sqlite":
        found = await backend.raw(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'lobbies'"
        )
    else:
        found = await backend.raw("SELECT indexname FROM pg_indexes WHERE tablename = 'lobbies'")
    assert ("lobbies_open_expiry",) in found
