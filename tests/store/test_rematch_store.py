"""One open invitation per rematch, kept by the database (``Store.open_rematch``, migration
0005) — on SQLite and PostgreSQL alike.

Rematch invitations were told apart in one process's memory, so after a restart (or in a
second process sharing PostgreSQL) a second press of a finished game's Rematch button posted a
second invitation to the same players. The store decides now, under a unique key.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.store.base import UNPOSTED_SECONDS, LobbyRecord, StaleVersion, Store, StoreError
from tests.store.helpers import LATEST_SCHEMA, OLD_CHALLENGE_ROW, Backend, lobby_record

GAME = 77
NOW = 500.0


def _rematch(**changes: object) -> LobbyRecord:
    """An invitation to replay GAME, stored at NOW for five minutes; ``changes`` override."""
    values: dict[str, object] = {"rematch_of": GAME, "created_at": NOW, "expires_at": NOW + 300}
    values.update(changes)
    if "created_at" in changes:
        values["expires_at"] = float(changes["created_at"]) + 300  # type: ignore[arg-type]
    return lobby_record(**values)


async def test_a_second_rematch_gets_the_first(store: Store) -> None:
    """The first press stores its lobby; the next (another host too) is given that lobby."""
    first, created = await store.open_rematch(_rematch(), NOW)
    assert created and first.rematch_of == GAME
    assert await store.get_lobby(first.id) == first
    again, created = await store.open_rematch(_rematch(host_id=2, host_name="Bob"), NOW + 1)
    assert not created and again.id == first.id and again.host_name == "Ann"
    other_game, created = await store.open_rematch(_rematch(rematch_of=GAME + 1), NOW)
    assert created and other_game.id != first.id


async def test_a_closed_or_dead_invitation_frees_the_rematch(store: Store) -> None:
    """Cancelled, past its expiry, or never posted (no message long after it was stored): a
    new rematch invitation is stored, and a dead open one is marked expired."""
    cancelled, _ = await store.open_rematch(_rematch(), NOW)
    await store.update_lobby(replace(cancelled, status="cancelled"), cancelled.version)
    expiring, created = await store.open_rematch(_rematch(), NOW)
    assert created
    await store.set_lobby_message(expiring.id, 4242)
    late = NOW + 301
    unposted, created = await store.open_rematch(_rematch(created_at=late), late)
    assert created
    gone = await store.get_lobby(expiring.id)
    assert gone is not None and gone.status == "expired"
    # No message yet, but just stored: its press may still be posting it.
    soon = late + UNPOSTED_SECONDS - 1
    same, created = await store.open_rematch(_rematch(created_at=soon), soon)
    assert not created and same.id == unposted.id
    later = late + UNPOSTED_SECONDS + 1
    posted, created = await store.open_rematch(_rematch(created_at=later), later)
    assert created
    lost = await store.get_lobby(unposted.id)
    assert lost is not None and lost.status == "expired"
    assert posted.id not in (cancelled.id, expiring.id, unposted.id)


async def test_presses_in_two_processes_store_one_invitation(backend: Backend) -> None:
    """Two stores on one database (two bot processes), pressed at the same moment, many
    times over: each time exactly one lobby is stored and both get it."""
    stores = [backend.store(), backend.store()]
    for s in stores:
        await s.open()
    try:
        for game in range(10):
            pairs = await asyncio.gather(
                *(s.open_rematch(_rematch(rematch_of=game), NOW) for s in stores)
            )
            assert sorted(created for _, created in pairs) == [False, True]
            assert pairs[0][0].id == pairs[1][0].id
        assert await backend.raw("SELECT COUNT(*) FROM lobbies WHERE status = 'open'") == [(10,)]
    finally:
        for s in stores:
            await s.close()


async def test_the_database_refuses_a_second_open_rematch(store: Store, backend: Backend) -> None:
    """The unique key holds even against a plain insert, and a lobby given back (its start
    failed) while another invitation to the rematch opened is refused as stale, not crashed."""
    first, _ = await store.open_rematch(_rematch(), NOW)
    with pytest.raises(Exception, match=r"(?i)unique"):
        await store.create_lobby(_rematch())
    started = await store.update_lobby(replace(first, status="started"), first.version)
    _, created = await store.open_rematch(_rematch(), NOW)
    assert created
    with pytest.raises(StaleVersion):
        await store.update_lobby(replace(started, status="open"), started.version)
    assert await backend.raw(f"SELECT status FROM lobbies WHERE id = {first.id}") == [("started",)]


async def test_a_lobbys_first_message_stays(store: Store) -> None:
    """set_lobby_message records a message once: a later, different one is refused (False)."""
    lobby = await store.create_lobby(lobby_record())
    assert await store.set_lobby_message(lobby.id, 11)
    assert await store.set_lobby_message(lobby.id, 11)
    assert not await store.set_lobby_message(lobby.id, 12)
    read = await store.get_lobby(lobby.id)
    assert read is not None and read.message_id == 11
    with pytest.raises(StoreError):
        await store.set_lobby_message(987654, 1)


async def test_a_version_4_database_upgrades(backend: Backend) -> None:
    """A database from before migration 0005, holding an open /challenge lobby, gains the
    column and the key; its lobby reads back as no rematch, and rematches open beside it."""
    await backend.migrate_to(4)
    await backend.raw(OLD_CHALLENGE_ROW)
    store = backend.store()
    await store.open()
    try:
        [(old_id,)] = await backend.raw("SELECT id FROM lobbies")
        old = await store.get_lobby(int(old_id))
        assert old is not None and old.rematch_of is None and old.message_id == 55
        _, created = await store.open_rematch(_rematch(), NOW)
        assert created
    finally:
        await store.close()
    assert await backend.raw("SELECT MAX(version) FROM schema_version") == [(LATEST_SCHEMA,)]
