"""Closed lobbies deleted once nobody can need them (``Store.delete_closed_lobbies``, migration
0010) — on SQLite and PostgreSQL alike. Before, every invitation and open table ever posted
stayed in the database for good."""

from __future__ import annotations

from dataclasses import replace

from bot.store.base import LobbyRecord, LobbyStatus, Shards, Store
from bot.store.rows import DELETE_CLOSED_LOBBIES, shard_condition
from tests.store.helpers import OLD_CHALLENGE_ROW, Backend, lobby_record

NOW = 5000.0


async def _lobby(
    store: Store, status: LobbyStatus, expires_at: float, guild_id: int | None = 7
) -> LobbyRecord:
    """A stored lobby that ended as ``status`` (or is still open)."""
    lobby = await store.create_lobby(lobby_record(expires_at=expires_at, guild_id=guild_id))
    if status == "open":
        return lobby
    return await store.update_lobby(replace(lobby, status=status), lobby.version)


async def _ids(backend: Backend) -> list[int]:
    return [int(row[0]) for row in await backend.raw("SELECT id FROM lobbies ORDER BY id")]


async def test_closed_lobbies_past_the_time_are_deleted(store: Store, backend: Backend) -> None:
    """A started, a cancelled and an expired lobby whose expiry is before the time given go;
    an open one past its time (the expiry sweep's to close first), a closed one at that very
    time and the newest lobby stay."""
    gone = [await _lobby(store, status, NOW - 10) for status in ("started", "cancelled", "expired")]
    still_open = await _lobby(store, "open", NOW - 10)
    at_the_time = await _lobby(store, "cancelled", NOW)
    newest = await _lobby(store, "open", NOW + 60)
    assert await store.delete_closed_lobbies(NOW, 10) == 3
    assert await _ids(backend) == [still_open.id, at_the_time.id, newest.id]
    assert [await store.get_lobby(lobby.id) for lobby in gone] == [None, None, None]


async def test_no_more_than_the_limit_the_longest_past_first(
    store: Store, backend: Backend
) -> None:
    """Three closed lobbies past the time, two asked for: the two that expired first go."""
    later = await _lobby(store, "expired", NOW - 5)
    first = await _lobby(store, "expired", NOW - 30)
    second = await _lobby(store, "expired", NOW - 20)
    newest = await _lobby(store, "open", NOW + 60)
    assert await store.delete_closed_lobbies(NOW, 2) == 2
    assert await _ids(backend) == [later.id, newest.id]
    assert first.id not in await _ids(backend) and second.id not in await _ids(backend)


async def test_the_newest_lobby_is_kept_so_no_id_is_handed_out_twice(
    store: Store, backend: Backend
) -> None:
    """Every lobby closed long ago: all go but the newest, and the next lobby's id is above
    every id handed out before (SQLite numbers a row one above the highest left: had the
    newest gone, its id would come again, an old message's buttons naming the new lobby)."""
    lobbies = [await _lobby(store, "expired", NOW - 10) for _ in range(3)]
    assert await store.delete_closed_lobbies(NOW, 10) == 2
    assert await _ids(backend) == [lobbies[-1].id]
    fresh = await store.create_lobby(lobby_record(expires_at=NOW + 60))
    assert fresh.id > lobbies[-1].id


async def test_shards_delete_the_lobbies_of_their_servers(store: Store, backend: Backend) -> None:
    """With shard 1 of 2, a closed lobby on a server of shard 1 and one in no server go; one on
    a server of shard 0 is another process's."""
    mine = await _lobby(store, "expired", NOW - 1, guild_id=(1001 << 22) + 5)
    theirs = await _lobby(store, "expired", NOW - 1, guild_id=(1000 << 22) + 5)
    nowhere = await _lobby(store, "expired", NOW - 1, guild_id=None)
    newest = await _lobby(store, "open", NOW + 60)
    assert await store.delete_closed_lobbies(NOW, 10, Shards(2, (1,))) == 2
    assert await _ids(backend) == [theirs.id, newest.id]
    assert mine.id < nowhere.id < newest.id


async def test_the_deletion_reads_the_closed_lobbies_index(store: Store, backend: Backend) -> None:
    """The sweep asks every few seconds: the closed lobbies due are found through migration
    0010's index, not by reading every lobby."""
    query = DELETE_CLOSED_LOBBIES.format(shards=shard_condition(None))
    assert "lobbies_closed_expiry" in await backend.plan(query, NOW, 10)


async def test_an_old_databases_closed_lobbies_are_deleted(backend: Backend) -> None:
    """A database from before migrations 0005-0010 holding two lobbies that expired long ago
    (every lobby stayed then): once opened, the older goes and the newest stays, through the
    new index."""
    await backend.migrate_to(4)
    for _ in range(2):
        await backend.raw(OLD_CHALLENGE_ROW)
    await backend.raw("UPDATE lobbies SET status = 'expired'")
    store = backend.store()
    await store.open()
    try:
        assert await store.delete_closed_lobbies(NOW, 10) == 1
    finally:
        await store.close()
    assert len(await _ids(backend)) == 1
    query = DELETE_CLOSED_LOBBIES.format(shards=shard_condition(None))
    assert "lobbies_closed_expiry" in await backend.plan(query, NOW, 10)
