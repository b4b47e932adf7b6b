"""The SQLite store: schema, migrations, versioned moves, restarts and URL parsing."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.store import open_store
from bot.store.base import (
    ChannelBusy,
    DuplicateInteraction,
    SeatRecord,
    StaleVersion,
    StoredGame,
    StoreError,
)
from bot.store.migrations import (
    Migration,
    MigrationError,
    apply_migrations,
    load_migrations,
    split_statements,
)
from bot.store.sqlite import SqliteStore

SEATS = (
    SeatRecord(seat=0, name="Ada", user_id=123456789012345678),
    SeatRecord(seat=1, name="Computer", policy="greedy"),
)
STATE: dict[str, Any] = {"turn": 0, "hands": [["200", "hazard:flat"], []], "scores": {"0": 0}}


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "junction.db"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[SqliteStore]:
    s = SqliteStore(db_path)
    await s.open()
    try:
        yield s
    finally:
        await s.close()


async def new_game(store: SqliteStore, channel_id: int = 42) -> StoredGame:
    return await store.create_game(
        channel_id=channel_id,
        guild_id=7,
        game_key="mille",
        seats=SEATS,
        options={"target": "1000"},
        state=STATE,
    )


async def move(store: SqliteStore, game: StoredGame, n: int, **kw: Any) -> StoredGame:
    args: dict[str, Any] = {
        "game_id": game.id,
        "expected_version": game.version,
        "seat": n % 2,
        "action": f"play:{n}",
        "interaction_id": f"i{n}",
        "state": {"turn": n},
    }
    args.update(kw)
    return await store.record_move(**args)


def raw(db_path: Path, sql: str) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(db_path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


# -- schema and migrations -----------------------------------------------------------------------


async def test_schema_created_and_wal_on(store: SqliteStore, db_path: Path) -> None:
    """Opening a new file creates the tables, records version 1 and switches to WAL."""
    tables = {r[0] for r in raw(db_path, "SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"games", "moves", "schema_version"} <= tables
    assert raw(db_path, "SELECT version, name FROM schema_version") == [(1, "games_and_moves")]
    assert raw(db_path, "PRAGMA journal_mode") == [("wal",)]


async def test_connection_pragmas(store: SqliteStore) -> None:
    """The store's connection enforces foreign keys and waits on a busy database."""
    async with store._reading() as db:
        values = [
            next(iter(await db.execute_fetchall(f"PRAGMA {name}")))[0]
            for name in ("foreign_keys", "busy_timeout", "synchronous")
        ]
    assert values == [1, 5000, 1]  # on, 5 s, NORMAL


async def test_migrations_idempotent(db_path: Path) -> None:
    """Opening the same file twice applies each migration once and keeps the data."""
    async with SqliteStore(db_path) as first:
        game = await new_game(first)
    async with SqliteStore(db_path) as second:
        assert await second.get_game(game.id) == game
    assert raw(db_path, "SELECT version FROM schema_version") == [(1,)]


async def test_newer_database_is_refused(db_path: Path) -> None:
    """A database migrated by a newer program is not opened by an older one."""
    async with SqliteStore(db_path):
        pass
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute("INSERT INTO schema_version VALUES (99, 'future', 0)")
    conn.close()
    with pytest.raises(MigrationError, match="schema version 99"):
        await SqliteStore(db_path).open()


async def test_failed_migration_rolls_back(tmp_path: Path) -> None:
    """A migration that fails half way leaves neither its tables nor its version row."""
    broken = [Migration(1, "broken", "CREATE TABLE a (x INTEGER); CREATE TABLE a (y INTEGER);")]
    async with aiosqlite.connect(tmp_path / "m.db", isolation_level=None) as db:
        with pytest.raises(MigrationError, match="0001_broken"):
            await apply_migrations(db, broken)
        tables = [r[0] for r in await db.execute_fetchall("SELECT name FROM sqlite_master")]
        assert "a" not in tables
        assert list(await db.execute_fetchall("SELECT * FROM schema_version")) == []


def test_migration_files_load_in_order() -> None:
    """The packaged migrations start at 0001 and split into single statements."""
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert migrations[0].label == "0001_games_and_moves"
    assert all(s.endswith(";") for s in migrations[0].statements())


def test_split_statements_respects_strings_and_comments() -> None:
    """Semicolons inside strings and comments do not split, comment-only pieces are dropped."""
    sql = "-- intro; still a comment\nSELECT 'a;b';\n/* x; y */ SELECT 2;\n-- tail\n"
    assert split_statements(sql) == [
        "-- intro; still a comment\nSELECT 'a;b';",
        "/* x; y */ SELECT 2;",
    ]


# -- games ---------------------------------------------------------------------------------------


async def test_create_get_round_trip(db_path: Path) -> None:
    """A created game reads back identically: seats, options, JSON state, version 0."""
    times = iter([1000.5])
    async with SqliteStore(db_path, clock=lambda: next(times)) as store:
        created = await new_game(store)
        loaded = await store.get_game(created.id)
    assert loaded == created
    assert created.seats == SEATS
    assert created.seats[1].is_computer and not created.seats[0].is_computer
    assert created.options == {"target": "1000"}
    assert created.state == STATE
    assert (created.version, created.status, created.message_id) == (0, "active", None)
    assert created.created_at == created.updated_at == 1000.5


async def test_seats_stored_as_compact_json(store: SqliteStore, db_path: Path) -> None:
    """Seats are stored as compact JSON objects with seat, name, user_id and policy."""
    await new_game(store)
    [(seats,)] = raw(db_path, "SELECT seats FROM games")
    assert seats.startswith('[{"seat":0,"name":"Ada","user_id":123456789012345678,"policy":null}')


async def test_get_game_unknown_is_none(store: SqliteStore) -> None:
    """An unknown game id reads as None."""
    assert await store.get_game(999) is None


async def test_one_active_game_per_channel(store: SqliteStore) -> None:
    """A second game in a channel with an active game raises ChannelBusy."""
    await new_game(store, channel_id=1)
    with pytest.raises(ChannelBusy):
        await new_game(store, channel_id=1)
    assert len(await store.active_games()) == 1


async def test_new_game_after_old_one_ends(store: SqliteStore) -> None:
    """A finished or aborted game no longer blocks its channel."""
    first = await new_game(store, channel_id=1)
    await store.end_game(game_id=first.id, expected_version=0, status="aborted", state={})
    second = await new_game(store, channel_id=1)
    await store.end_game(game_id=second.id, expected_version=0, status="finished", state={})
    third = await new_game(store, channel_id=1)
    assert await store.active_game(1) == third


async def test_active_games_lists_only_active(store: SqliteStore) -> None:
    """active_games and active_game see active games only, in id order."""
    a = await new_game(store, channel_id=1)
    b = await new_game(store, channel_id=2)
    c = await new_game(store, channel_id=3)
    await store.end_game(game_id=b.id, expected_version=0, status="finished", state={})
    assert [g.id for g in await store.active_games()] == [a.id, c.id]
    assert await store.active_game(2) is None
    assert await store.active_game(3) == c


async def test_set_message(store: SqliteStore) -> None:
    """set_message stores the table message without bumping the version."""
    game = await new_game(store)
    await store.set_message(game.id, 998877665544332211)
    loaded = await store.get_game(game.id)
    assert loaded is not None
    assert (loaded.message_id, loaded.version) == (998877665544332211, 0)
    with pytest.raises(StoreError):
        await store.set_message(12345, 1)


# -- moves ---------------------------------------------------------------------------------------


async def test_record_move_bumps_version_and_appends(store: SqliteStore) -> None:
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


async def test_computer_moves_have_no_interaction_id(store: SqliteStore) -> None:
    """Several moves without an interaction id are all stored."""
    game = await new_game(store)
    game = await move(store, game, 1, interaction_id=None)
    game = await move(store, game, 2, interaction_id=None)
    assert [m.interaction_id for m in await store.moves(game.id)] == [None, None]


async def test_record_move_can_finish_game(store: SqliteStore) -> None:
    """A move with status 'finished' ends the game and frees the channel."""
    game = await new_game(store)
    game = await move(store, game, 1, status="finished")
    assert game.status == "finished"
    assert await store.active_game(game.channel_id) is None


async def test_stale_version_changes_nothing(store: SqliteStore) -> None:
    """A move at an old version raises StaleVersion and leaves game and log unchanged."""
    game = await new_game(store)
    current = await move(store, game, 1)
    log_before = await store.moves(game.id)
    with pytest.raises(StaleVersion):
        await move(store, game, 2)  # still at version 0
    assert await store.get_game(game.id) == current
    assert await store.moves(game.id) == log_before


async def test_redelivered_interaction_is_duplicate(store: SqliteStore) -> None:
    """The same request delivered twice raises DuplicateInteraction, not StaleVersion."""
    game = await new_game(store)
    current = await move(store, game, 1)
    log_before = await store.moves(game.id)
    with pytest.raises(DuplicateInteraction):
        await move(store, game, 1)
    assert await store.get_game(game.id) == current
    assert await store.moves(game.id) == log_before


async def test_repeated_interaction_at_current_version_is_duplicate(store: SqliteStore) -> None:
    """Reusing an interaction id at the current version raises and writes nothing."""
    game = await new_game(store)
    current = await move(store, game, 1)
    log_before = await store.moves(game.id)
    with pytest.raises(DuplicateInteraction):
        await move(store, current, 2, interaction_id="i1")
    assert await store.get_game(game.id) == current
    assert await store.moves(game.id) == log_before


async def test_failed_transaction_rolls_back(store: SqliteStore) -> None:
    """An error after the move row is inserted rolls the whole move back."""
    game = await new_game(store)
    async with store._reading() as db:
        await db.execute(
            "CREATE TEMP TRIGGER boom BEFORE UPDATE OF state ON games"
            " BEGIN SELECT RAISE(ABORT, 'boom'); END"
        )
    with pytest.raises(sqlite3.IntegrityError, match="boom"):
        await move(store, game, 1)
    assert await store.get_game(game.id) == game
    assert await store.moves(game.id) == []


async def test_move_on_ended_game_is_refused(store: SqliteStore) -> None:
    """A game that has ended takes no more moves."""
    game = await new_game(store)
    ended = await store.end_game(game_id=game.id, expected_version=0, status="aborted", state={})
    with pytest.raises(StoreError, match="aborted"):
        await move(store, ended, 1)


async def test_end_game(store: SqliteStore) -> None:
    """end_game bumps the version, sets status and state, and adds no move."""
    game = await new_game(store)
    game = await move(store, game, 1)
    ended = await store.end_game(
        game_id=game.id, expected_version=1, status="finished", state={"winner": 0}
    )
    assert (ended.version, ended.status, ended.state) == (2, "finished", {"winner": 0})
    assert await store.get_game(game.id) == ended
    assert len(await store.moves(game.id)) == 1


async def test_end_game_checks_version(store: SqliteStore) -> None:
    """end_game at an old version raises StaleVersion and changes nothing."""
    game = await new_game(store)
    current = await move(store, game, 1)
    with pytest.raises(StaleVersion):
        await store.end_game(game_id=game.id, expected_version=0, status="aborted", state={})
    assert await store.get_game(game.id) == current


async def test_survives_restart(db_path: Path) -> None:
    """Games and move logs survive closing and reopening the file."""
    async with SqliteStore(db_path) as before:
        game = await new_game(before)
        game = await move(before, game, 1)
        await before.set_message(game.id, 55)
        game = await move(before, game, 2)
        log = await before.moves(game.id)
    async with SqliteStore(db_path) as after:
        assert [g.id for g in await after.active_games()] == [game.id]
        reloaded = await after.get_game(game.id)
        assert reloaded is not None
        assert (reloaded.version, reloaded.state, reloaded.message_id) == (2, {"turn": 2}, 55)
        assert await after.moves(game.id) == log
        await move(after, reloaded, 3)


async def test_concurrent_moves_one_wins(store: SqliteStore) -> None:
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


async def test_concurrent_moves_across_connections(db_path: Path) -> None:
    """Two stores on one file (two connections) also let exactly one move through."""
    async with SqliteStore(db_path) as a, SqliteStore(db_path) as b:
        game = await new_game(a)
        results = await asyncio.gather(
            *(move(s, game, n) for n, s in enumerate([a, b, a, b], start=1)),
            return_exceptions=True,
        )
        assert sum(isinstance(r, StoredGame) for r in results) == 1
        assert sum(isinstance(r, StaleVersion) for r in results) == 3
        assert len(await b.moves(game.id)) == 1


async def test_memory_store(tmp_path: Path) -> None:
    """':memory:' works as a throwaway database."""
    async with SqliteStore(":memory:") as store:
        game = await new_game(store)
        assert await store.get_game(game.id) == game
    assert list(tmp_path.iterdir()) == []


# -- open_store ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("sqlite:///data/junction.db", "data/junction.db"),
        ("sqlite:////var/lib/junction.db", "/var/lib/junction.db"),
        ("sqlite://:memory:", ":memory:"),
        ("sqlite:///:memory:", ":memory:"),
        ("SQLite:///x.db", "x.db"),
        ("junction.db", "junction.db"),
        ("/abs/junction.db", "/abs/junction.db"),
    ],
)
def test_open_store_urls(url: str, path: str) -> None:
    """SQLite URLs and bare paths map to the right database path."""
    store = open_store(url)
    assert isinstance(store, SqliteStore)
    assert store.path == path


@pytest.mark.parametrize("url", ["postgresql://bob:hunter2@db/junction", "mysql://x/y"])
def test_open_store_unknown_scheme(url: str) -> None:
    """Other schemes raise a readable ValueError that does not echo credentials."""
    with pytest.raises(ValueError, match="unsupported store URL scheme") as info:
        open_store(url)
    assert "hunter2" not in str(info.value)
    assert "sqlite:///" in str(info.value)


@pytest.mark.parametrize("url", ["", "sqlite://", "sqlite://host/x.db", "sqlite:///"])
def test_open_store_malformed_sqlite_url(url: str) -> None:
    """Empty or host-style SQLite URLs raise ValueError."""
    with pytest.raises(ValueError):
        open_store(url)


async def test_open_store_opens_file(tmp_path: Path) -> None:
    """A store from a URL opens and creates its file (and parent folder)."""
    target = tmp_path / "sub" / "j.db"
    store = open_store(f"sqlite:///{target}")
    assert isinstance(store, SqliteStore)
    assert store.path == str(target)
    await store.open()
    await store.close()
    assert target.exists()
