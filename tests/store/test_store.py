"""The Store contract, run against SQLite and PostgreSQL alike (see conftest.py).

Schema and migrations, games, versioned moves, duplicate interactions, restarts and races
between connections. Checks that only make sense for one engine (SQLite's WAL and pragmas,
URL parsing) live in test_sqlite_store.py and test_postgres_store.py.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.store.base import (
    ChannelBusy,
    DuplicateInteraction,
    StaleVersion,
    Store,
    StoredGame,
    StoreError,
)
from bot.store.migrations import MigrationError
from tests.store.helpers import SEATS, STATE, Backend, move, new_game

# -- schema and migrations -----------------------------------------------------------------------


async def test_schema_created(store: Store, backend: Backend) -> None:
    """Opening an empty database creates the tables and records migration 1."""
    assert await backend.raw("SELECT version, name FROM schema_version") == [(1, "games_and_moves")]
    assert await backend.raw("SELECT COUNT(*) FROM games") == [(0,)]
    assert await backend.raw("SELECT COUNT(*) FROM moves") == [(0,)]


async def test_migrations_idempotent(backend: Backend) -> None:
    """Opening the same database twice applies each migration once and keeps the data."""
    first = backend.store()
    await first.open()
    game = await new_game(first)
    await first.close()
    second = backend.store()
    await second.open()
    try:
        assert await second.get_game(game.id) == game
    finally:
        await second.close()
    assert await backend.raw("SELECT version FROM schema_version") == [(1,)]


async def test_newer_database_is_refused(backend: Backend) -> None:
    """A database migrated by a newer program is not opened by an older one."""
    first = backend.store()
    await first.open()
    await first.close()
    await backend.raw("INSERT INTO schema_version VALUES (99, 'future', 0)")
    with pytest.raises(MigrationError, match="schema version 99"):
        await backend.store().open()


# -- games ---------------------------------------------------------------------------------------


async def test_create_get_round_trip(backend: Backend) -> None:
    """A created game reads back identically: seats, options, JSON state, version 0."""
    times = iter([1000.5])
    store = backend.store(clock=lambda: next(times))
    await store.open()
    try:
        created = await new_game(store)
        loaded = await store.get_game(created.id)
    finally:
        await store.close()
    assert loaded == created
    assert created.seats == SEATS
    assert created.seats[1].is_computer and not created.seats[0].is_computer
    assert created.options == {"target": "1000"}
    assert created.state == STATE
    assert (created.version, created.status, created.message_id) == (0, "active", None)
    assert created.created_at == created.updated_at == 1000.5


async def test_seats_stored_as_compact_json(store: Store, backend: Backend) -> None:
    """Seats are stored as compact JSON objects with seat, name, user_id and policy."""
    await new_game(store)
    [(seats,)] = await backend.raw("SELECT seats FROM games")
    assert seats.startswith('[{"seat":0,"name":"Ada","user_id":123456789012345678,"policy":null}')


async def test_large_discord_ids_round_trip(store: Store) -> None:
    """Channel, guild and message snowflakes near 2**63 survive (64-bit columns)."""
    big = 2**63 - 1
    game = await store.create_game(
        channel_id=big, guild_id=big - 1, game_key="mille", seats=SEATS, options={}, state={}
    )
    await store.set_message(game.id, big - 2)
    loaded = await store.active_game(big)
    assert loaded is not None
    assert (loaded.channel_id, loaded.guild_id, loaded.message_id) == (big, big - 1, big - 2)


async def test_get_game_unknown_is_none(store: Store) -> None:
    """An unknown game id reads as None."""
    assert await store.get_game(999) is None


async def test_one_active_game_per_channel(store: Store) -> None:
    """A second game in a channel with an active game raises ChannelBusy."""
    await new_game(store, channel_id=1)
    with pytest.raises(ChannelBusy):
        await new_game(store, channel_id=1)
    assert len(await store.active_games()) == 1


async def test_concurrent_creates_one_wins(backend: Backend) -> None:
    """Two connections starting a game in one channel at once: one game, one ChannelBusy."""
    a, b = backend.store(), backend.store()
    await a.open()
    await b.open()
    try:
        results = await asyncio.gather(new_game(a, 5), new_game(b, 5), return_exceptions=True)
        assert sum(isinstance(r, StoredGame) for r in results) == 1
        assert sum(isinstance(r, ChannelBusy) for r in results) == 1
        assert len(await a.active_games()) == 1
    finally:
        await a.close()
        await b.close()


async def test_new_game_after_old_one_ends(store: Store) -> None:
    """A finished or aborted game no longer blocks its channel."""
    first = await new_game(store, channel_id=1)
    await store.end_game(game_id=first.id, expected_version=0, status="aborted", state={})
    second = await new_game(store, channel_id=1)
    await store.end_game(game_id=second.id, expected_version=0, status="finished", state={})
    third = await new_game(store, channel_id=1)
    assert await store.active_game(1) == third
    assert first.id < second.id < third.id


async def test_active_games_lists_only_active(store: Store) -> None:
    """active_games and active_game see active games only, in id order."""
    a = await new_game(store, channel_id=1)
    b = await new_game(store, channel_id=2)
    c = await new_game(store, channel_id=3)
    await store.end_game(game_id=b.id, expected_version=0, status="finished", state={})
    assert [g.id for g in await store.active_games()] == [a.id, c.id]
    assert await store.active_game(2) is None
    assert await store.active_game(3) == c


async def test_set_message(store: Store) -> None:
    """set_message stores the table message without bumping the version."""
    game = await new_game(store)
    await store.set_message(game.id, 998877665544332211)
    loaded = await store.get_game(game.id)
    assert loaded is not None
    assert (loaded.message_id, loaded.version) == (998877665544332211, 0)
    await store.set_message(game.id, None)
    cleared = await store.get_game(game.id)
    assert cleared is not None and cleared.message_id is None
    with pytest.raises(StoreError):
        await store.set_message(12345, 1)


# -- moves ---------------------------------------------------------------------------------------


async def test_record_move_bumps_version_and_appends(store: Store) -> None:
    """Each move adds one to the version and appends to the log with seq = new version."""
    game = await new_game(store)
    for n in range(1, 4):
        game = await move(store, game, n)
        assert game.version == n
        assert game.state == {"turn": n}
    log = await store.moves(game.id)
    assert [(m.seq, m.seat, m.action, m.interaction_id) for m in log] == [
        (1, 1, "play:1", "i1"),
        (2, 0, "play:2", "i2"),
        (3, 1, "play:3", "i3"),
    ]
    assert await store.get_game(game.id) == game


async def test_record_move_on_unknown_game(store: Store) -> None:
    """A move for a game that does not exist is a StoreError, and nothing is stored."""
    with pytest.raises(StoreError, match="no game 404"):
        await store.record_move(
            game_id=404, expected_version=0, seat=0, action="x", interaction_id="i", state={}
        )
    assert await store.moves(404) == []


async def test_computer_moves_have_no_interaction_id(store: Store) -> None:
    """Several moves without an interaction id are all stored."""
    game = await new_game(store)
    game = await move(store, game, 1, interaction_id=None)
    game = await move(store, game, 2, interaction_id=None)
    assert [m.interaction_id for m in await store.moves(game.id)] == [None, None]


async def test_record_move_can_finish_game(store: Store) -> None:
    """A move with status 'finished' ends the game and frees the channel."""
    game = await new_game(store)
    game = await move(store, game, 1, status="finished")
    assert game.status == "finished"
    assert await store.active_game(game.channel_id) is None


async def test_stale_version_changes_nothing(store: Store) -> None:
    """A move at an old version raises StaleVersion and leaves game and log unchanged."""
    game = await new_game(store)
    current = await move(store, game, 1)
    log_before = await store.moves(game.id)
    with pytest.raises(StaleVersion):
        await move(store, game, 2)  # still at version 0
    assert await store.get_game(game.id) == current
    assert await store.moves(game.id) == log_before


async def test_redelivered_interaction_is_duplicate(store: Store) -> None:
    """The same request delivered twice raises DuplicateInteraction, not StaleVersion."""
    game = await new_game(store)
    current = await move(store, game, 1)
    log_before = await store.moves(game.id)
    with pytest.raises(DuplicateInteraction):
        await move(store, game, 1)
    assert await store.get_game(game.id) == current
    assert await store.moves(game.id) == log_before


async def test_repeated_interaction_at_current_version_is_duplicate(store: Store) -> None:
    """Reusing an interaction id at the current version raises and writes nothing."""
    game = await new_game(store)
    current = await move(store, game, 1)
    log_before = await store.moves(game.id)
    with pytest.raises(DuplicateInteraction):
        await move(store, current, 2, interaction_id="i1")
    assert await store.get_game(game.id) == current
    assert await store.moves(game.id) == log_before


async def test_interaction_ids_unique_across_games(store: Store) -> None:
    """An interaction id stored for one game is a duplicate for every other game too."""
    a = await new_game(store, channel_id=1)
    b = await new_game(store, channel_id=2)
    await move(store, a, 1, interaction_id="shared")
    with pytest.raises(DuplicateInteraction):
        await move(store, b, 1, interaction_id="shared")
    assert await store.moves(b.id) == []


async def test_failed_transaction_rolls_back(store: Store, backend: Backend) -> None:
    """An error while the snapshot is replaced rolls the whole move back, move row included."""
    game = await new_game(store)
    error = await backend.break_state_updates(store)
    with pytest.raises(error, match="boom"):
        await move(store, game, 1)
    assert await store.get_game(game.id) == game
    assert await store.moves(game.id) == []


async def test_move_on_ended_game_is_refused(store: Store) -> None:
    """A game that has ended takes no more moves."""
    game = await new_game(store)
    ended = await store.end_game(game_id=game.id, expected_version=0, status="aborted", state={})
    with pytest.raises(StoreError, match="aborted"):
        await move(store, ended, 1)
    assert await store.moves(game.id) == []


async def test_end_game(store: Store) -> None:
    """end_game bumps the version, sets status and state, and adds no move."""
    game = await new_game(store)
    game = await move(store, game, 1)
    ended = await store.end_game(
        game_id=game.id, expected_version=1, status="finished", state={"winner": 0}
    )
    assert (ended.version, ended.status, ended.state) == (2, "finished", {"winner": 0})
    assert await store.get_game(game.id) == ended
    assert len(await store.moves(game.id)) == 1


async def test_end_game_checks_version(store: Store) -> None:
    """end_game at an old version raises StaleVersion and changes nothing."""
    game = await new_game(store)
    current = await move(store, game, 1)
    with pytest.raises(StaleVersion):
        await store.end_game(game_id=game.id, expected_version=0, status="aborted", state={})
    assert await store.get_game(game.id) == current


async def test_end_game_twice_is_refused(store: Store) -> None:
    """Ending a game that already ended is a StoreError (not a silent second bump)."""
    game = await new_game(store)
    ended = await store.end_game(game_id=game.id, expected_version=0, status="aborted", state={})
    with pytest.raises(StoreError, match="already aborted"):
        await store.end_game(game_id=game.id, expected_version=1, status="finished", state={})
    assert await store.get_game(game.id) == ended


async def test_end_game_rejects_active_status(store: Store) -> None:
    """end_game needs 'finished' or 'aborted'."""
    game = await new_game(store)
    with pytest.raises(ValueError, match="finished"):
        await store.end_game(game_id=game.id, expected_version=0, status="active", state={})


async def test_survives_restart(backend: Backend) -> None:
    """Games and move logs survive closing the store and opening a new one."""
    before = backend.store()
    await before.open()
    try:
        game = await new_game(before)
        game = await move(before, game, 1)
        await before.set_message(game.id, 55)
        game = await move(before, game, 2)
        log = await before.moves(game.id)
    finally:
        await before.close()
    after = backend.store()
    await after.open()
    try:
        assert [g.id for g in await after.active_games()] == [game.id]
        reloaded = await after.get_game(game.id)
        assert reloaded is not None
        assert (reloaded.version, reloaded.state, reloaded.message_id) == (2, {"turn": 2}, 55)
        assert await after.moves(game.id) == log
        await move(after, reloaded, 3)
    finally:
        await after.close()


# -- races ---------------------------------------------------------------------------------------


async def test_concurrent_moves_one_wins(store: Store) -> None:
    """Concurrent moves from the same version: exactly one is stored, the rest are stale."""
    game = await new_game(store)
    results = await asyncio.gather(
        *(move(store, game, n) for n in range(1, 9)), return_exceptions=True
    )
    winners = [r for r in results if isinstance(r, StoredGame)]
    assert len(winners) == 1
    assert all(isinstance(r, StaleVersion) for r in results if r not in winners)
    assert len(await store.moves(game.id)) == 1
    assert await store.get_game(game.id) == winners[0]


async def test_concurrent_moves_across_connections(backend: Backend) -> None:
    """Two stores on one database (two connections or pools) also let exactly one through."""
    a, b = backend.store(), backend.store()
    await a.open()
    await b.open()
    try:
        game = await new_game(a)
        results = await asyncio.gather(
            *(move(s, game, n) for n, s in enumerate([a, b, a, b], start=1)),
            return_exceptions=True,
        )
        assert sum(isinstance(r, StoredGame) for r in results) == 1
        assert sum(isinstance(r, StaleVersion) for r in results) == 3
        assert len(await b.moves(game.id)) == 1
    finally:
        await a.close()
        await b.close()


async def test_redelivery_race_is_duplicate(backend: Backend) -> None:
    """One interaction delivered to two stores at once is stored once; the copy is a repeat."""
    a, b = backend.store(), backend.store()
    await a.open()
    await b.open()
    try:
        game = await new_game(a)
        results = await asyncio.gather(move(a, game, 1), move(b, game, 1), return_exceptions=True)
        assert sum(isinstance(r, StoredGame) for r in results) == 1
        assert sum(isinstance(r, DuplicateInteraction) for r in results) == 1
        assert [m.interaction_id for m in await a.moves(game.id)] == ["i1"]
    finally:
        await a.close()
        await b.close()


async def test_racing_stores_keep_every_game_consistent(backend: Backend) -> None:
    """Three stores racing on five games: versions 1..n each once, snapshot = last move."""
    stores = [backend.store() for _ in range(3)]
    for s in stores:
        await s.open()
    try:
        games = [await new_game(stores[0], channel_id=100 + g) for g in range(5)]
        target = 12
        won: list[tuple[int, int, str]] = []

        async def racer(store: Store, name: str, game_id: int) -> None:
            # Read, try the next version, and on a lost race read again: what Tables does.
            while True:
                current = await store.get_game(game_id)
                assert current is not None
                if current.version >= target:
                    return
                n = current.version + 1
                tag = f"{name}-{game_id}-{n}"
                try:
                    stored = await move(store, current, n, interaction_id=tag, action=tag)
                except StaleVersion:
                    continue
                won.append((game_id, stored.version, tag))

        await asyncio.gather(
            *(
                racer(s, f"s{i}r{r}", g.id)
                for g in games
                for i, s in enumerate(stores)
                for r in range(2)
            )
        )
        for g in games:
            log = await stores[1].moves(g.id)
            assert [m.seq for m in log] == list(range(1, target + 1))
            mine = sorted((v, tag) for game_id, v, tag in won if game_id == g.id)
            assert mine == [(m.seq, m.interaction_id) for m in log]  # no lost, no extra
            latest = await stores[2].get_game(g.id)
            assert latest is not None
            assert (latest.version, latest.state) == (target, {"turn": target})
    finally:
        for s in stores:
            await s.close()
