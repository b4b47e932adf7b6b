"""Open tables (/host) in the store: the seats a lobby offers to any member (``open_seats``,
migration 0006) — on SQLite and PostgreSQL alike."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.store.base import Invitee, StaleVersion, Store
from tests.store.helpers import LATEST_SCHEMA, OLD_CHALLENGE_ROW, Backend, lobby_record


async def test_an_open_tables_seats_read_back(store: Store) -> None:
    """A table offering four seats reads back with them, and its free seats count down as the
    members who joined are stored."""
    table = await store.create_lobby(lobby_record(invited=(), open_seats=4))
    read = await store.get_lobby(table.id)
    assert read is not None and read.open_seats == 4 and read.free_seats == 4
    joined = (Invitee(2, "Bob", "accepted"), Invitee(3, "Cy", "accepted"))
    await store.update_lobby(replace(read, invited=joined), read.version)
    again = await store.get_lobby(table.id)
    assert again is not None
    assert (again.open_seats, again.free_seats, again.invited) == (4, 2, joined)


async def test_an_invitation_has_no_open_seats(store: Store) -> None:
    """A lobby naming its members (/challenge, a rematch) stores no open seats."""
    lobby = await store.create_lobby(lobby_record())
    read = await store.get_lobby(lobby.id)
    assert read is not None and read.open_seats is None and read.free_seats == 0


async def test_two_joins_at_once_take_one_seat(store: Store) -> None:
    """Two members join the last seat from the same version: one is stored, the other is
    stale, and the seat holds the first."""
    table = await store.create_lobby(lobby_record(invited=(), open_seats=1))
    outcomes = await asyncio.gather(
        *(
            store.update_lobby(
                replace(table, invited=(Invitee(user, f"M{user}", "accepted"),)), table.version
            )
            for user in (2, 3)
        ),
        return_exceptions=True,
    )
    assert sum(isinstance(o, StaleVersion) for o in outcomes) == 1
    read = await store.get_lobby(table.id)
    assert read is not None and len(read.invited) == 1 and read.version == 1


async def test_a_version_5_database_upgrades(backend: Backend) -> None:
    """A database from before migration 0006, holding an open /challenge lobby,
    gains the column: its lobby reads back with no open seats, and open tables store beside
    it."""
    await backend.migrate_to(5)
    await backend.raw(OLD_CHALLENGE_ROW)
    store = backend.store()
    await store.open()
    try:
        [(old_id,)] = await backend.raw("SELECT id FROM lobbies")
        old = await store.get_lobby(int(old_id))
        assert old is not None and old.open_seats is None
        assert old.invited == (Invitee(2, "Bob"),) and old.message_id == 55
        table = await store.create_lobby(lobby_record(invited=(), open_seats=3))
        assert (await store.get_lobby(table.id)) == table
    finally:
        await store.close()
    assert await backend.raw("SELECT MAX(version) FROM schema_version") == [(LATEST_SCHEMA,)]


@pytest.mark.parametrize("seats", [1, 5])
async def test_the_offered_seats_are_kept_by_updates(store: Store, seats: int) -> None:
    """A start (status, game) leaves the number of seats offered as it was stored."""
    table = await store.create_lobby(lobby_record(invited=(), open_seats=seats))
    started = await store.update_lobby(replace(table, status="started", game_id=9), table.version)
    read = await store.get_lobby(table.id)
    assert read == started and read is not None and read.open_seats == seats


async def test_forgetting_a_member_frees_only_their_seat_at_an_open_table(store: Store) -> None:
    """Forgetting Bob, seated at Ann's open table: the table stays open with Cy, its version
    moved on (a press read before is stale); a table Bob hosts and a started table are
    deleted, as before; the invitation naming him, the newest lobby, is kept for its id,
    closed, with Bob taken out."""
    joined = (Invitee(2, "Bob", "accepted"), Invitee(3, "Cy", "accepted"))
    table = await store.create_lobby(lobby_record(invited=joined, open_seats=4))
    hosted = await store.create_lobby(lobby_record(host_id=2, invited=(), open_seats=2))
    started = await store.create_lobby(lobby_record(invited=joined, open_seats=2))
    started = await store.update_lobby(replace(started, status="started"), started.version)
    invitation = await store.create_lobby(lobby_record())
    done = await store.forget_member(2, alias=-1, name="Former player", games=())
    assert (done.lobbies, done.seats, done.kept) == (2, 1, 1)
    kept = await store.get_lobby(table.id)
    assert kept == replace(table, invited=joined[1:], version=table.version + 1)
    for gone in (hosted, started):
        assert await store.get_lobby(gone.id) is None
    closed = await store.get_lobby(invitation.id)
    assert closed == replace(
        invitation,
        invited=(Invitee(-1, "Former player"), Invitee(3, "Cy")),
        status="cancelled",
        version=invitation.version + 1,
    )
    with pytest.raises(StaleVersion):
        await store.update_lobby(replace(table, invited=()), table.version)


# -- open_lobbies_of (/mygames) ---------------------------------------------------------------


async def test_open_lobbies_of_lists_the_host_and_each_member_named(store: Store) -> None:
    """A table Bob joined and an invitation to Cy: each is listed to its host (Ann), and to
    the member it seats or invites, oldest first; not to a member it does not name."""
    table = await store.create_lobby(
        lobby_record(invited=(Invitee(2, "Bob", "accepted"),), open_seats=3)
    )
    invitation = await store.create_lobby(lobby_record(invited=(Invitee(3, "Cy"),)))
    assert [lobby.id for lobby in await store.open_lobbies_of(1, 7, 500.0)] == [
        table.id,
        invitation.id,
    ]
    assert await store.open_lobbies_of(2, 7, 500.0) == [table]
    assert await store.open_lobbies_of(3, 7, 500.0) == [invitation]
    assert await store.open_lobbies_of(4, 7, 500.0) == []


async def test_open_lobbies_of_skips_ids_that_only_contain_the_members(store: Store) -> None:
    """Member 2's digits appear in ids 12 and 21 (and the JSON): only their own lobby is theirs."""
    await store.create_lobby(lobby_record(host_id=12, invited=(Invitee(21, "Di"),)))
    mine = await store.create_lobby(lobby_record(host_id=12, invited=(Invitee(2, "Bob"),)))
    assert await store.open_lobbies_of(2, 7, 500.0) == [mine]


async def test_open_lobbies_of_keeps_to_the_server_asked(store: Store) -> None:
    await store.create_lobby(lobby_record(guild_id=8))
    assert await store.open_lobbies_of(2, 7, 500.0) == []
    assert len(await store.open_lobbies_of(2, 8, 500.0)) == 1


async def test_open_lobbies_of_leaves_out_an_expired_lobby(store: Store) -> None:
    """Still stored as open, but past its ``expires_at``: nobody can answer it any more."""
    await store.create_lobby(lobby_record(expires_at=1000.0))
    assert len(await store.open_lobbies_of(2, 7, 1000.0)) == 1
    assert await store.open_lobbies_of(2, 7, 1000.5) == []


@pytest.mark.parametrize("status", ["started", "cancelled", "expired"])
async def test_open_lobbies_of_leaves_out_a_closed_lobby(store: Store, status: str) -> None:
    lobby = await store.create_lobby(lobby_record())
    await store.update_lobby(replace(lobby, status=status), lobby.version)  # type: ignore[arg-type]
    assert await store.open_lobbies_of(1, 7, 500.0) == []
    assert await store.open_lobbies_of(2, 7, 500.0) == []


async def test_open_lobbies_of_leaves_out_an_invitation_declined(store: Store) -> None:
    """Bob declined, Cy has not answered yet: the invitation is still Cy's, not Bob's."""
    await store.create_lobby(
        lobby_record(invited=(Invitee(2, "Bob", "declined"), Invitee(3, "Cy")))
    )
    assert await store.open_lobbies_of(2, 7, 500.0) == []
    assert len(await store.open_lobbies_of(3, 7, 500.0)) == 1


async def test_open_lobbies_of_skips_a_damaged_lobby(store: Store, backend: Backend) -> None:
    """A lobby whose row cannot be read is left out; the member's other lobbies still list."""
    broken = await store.create_lobby(lobby_record())
    kept = await store.create_lobby(lobby_record())
    await backend.raw(f"UPDATE lobbies SET data = 'not json' WHERE id = {broken.id}")
    assert await store.open_lobbies_of(1, 7, 500.0) == [kept]
