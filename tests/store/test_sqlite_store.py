"""SQLite-only checks: WAL and pragmas, the SQLite migration runner, ``:memory:``, URL parsing.

The Store contract itself (games, versioned moves, races) runs on both engines in test_store.py.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.store import StoreUnavailable, open_store, opened_store
from bot.store.migrations import (
    Migration,
    MigrationError,
    apply_migrations,
    load_migrations,
    split_statements,
)
from bot.store.sql import numbered_qmarks
from bot.store.sqlite import SqliteStore
from tests.store.helpers import new_game


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "junction.db"


@pytest.fixture
async def sqlite_store(db_path: Path) -> AsyncIterator[SqliteStore]:
    s = SqliteStore(db_path)
    await s.open()
    try:
        yield s
    finally:
        await s.close()


def raw(db_path: Path, sql: str) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(db_path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


# -- schema and migrations -----------------------------------------------------------------------


async def test_schema_created_and_wal_on(sqlite_store: SqliteStore, db_path: Path) -> None:
    """Opening a new file creates the tables, records version 1 and switches to WAL."""
    tables = {r[0] for r in raw(db_path, "SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"games", "moves", "schema_version"} <= tables
    assert raw(db_path, "SELECT version, name FROM schema_version ORDER BY version")[0] == (
        1,
        "games_and_moves",
    )
    assert raw(db_path, "PRAGMA journal_mode") == [("wal",)]


async def test_connection_pragmas(sqlite_store: SqliteStore) -> None:
    """The store's connection enforces foreign keys, waits on a busy database and overwrites
    what it deletes (on SQLite builds where that is not the default already)."""
    async with sqlite_store._reading() as db:
        values = [
            next(iter(await db.execute_fetchall(f"PRAGMA {name}")))[0]
            for name in ("foreign_keys", "busy_timeout", "synchronous", "secure_delete")
        ]
    assert values == [1, 5000, 1, 1]  # on, 5 s, NORMAL, on


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


# -- SQLite specifics -------------------------------------------------------------------------


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


@pytest.mark.parametrize("url", ["mysql://bob:hunter2@db/junction", "redis://x/y"])
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


async def test_a_new_database_file_is_private_to_its_owner(tmp_path: Path) -> None:
    """Members' ids, names, hidden hands and the daily deals' secret are not left readable by
    every account on the machine, whatever the umask; the files SQLite adds beside it follow."""
    target = tmp_path / "j.db"
    old_umask = os.umask(0o022)  # the usual one, under which the file was -rw-r--r--
    try:
        store = SqliteStore(target)
        await store.open()
        try:
            await store.get_game(1)  # a read: the -wal and -shm files exist while it is open
            modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in tmp_path.iterdir()}
        finally:
            await store.close()
    finally:
        os.umask(old_umask)
    assert modes == {"j.db": 0o600, "j.db-wal": 0o600, "j.db-shm": 0o600}


FOREIGN_FILES = {
    "no schema_version": ["CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)"],
    "its own schema_version": [
        "CREATE TABLE schema_version (version INTEGER, description TEXT)",
        "INSERT INTO schema_version VALUES (3, 'users')",
        "CREATE TABLE users (id INTEGER)",
    ],
    "a schema_version like ours": [
        "CREATE TABLE schema_version (version INTEGER, name TEXT, applied_at REAL)",
        "INSERT INTO schema_version VALUES (1, 'create_users', 0)",
        "CREATE TABLE users (id INTEGER)",
    ],
    "a lone schema_version": ["CREATE TABLE schema_version (v TEXT)"],
}


@pytest.mark.parametrize("statements", FOREIGN_FILES.values(), ids=FOREIGN_FILES.keys())
async def test_another_programs_database_is_refused_unchanged(
    tmp_path: Path, statements: list[str]
) -> None:
    """A SQLite file of another program (JUNCTION_DB pointed at the wrong file), with or
    without a ``schema_version`` table of its own, is refused by a MigrationError that says so,
    and the file is left byte for byte as it was. Before the fix Junction's tables were added
    to it (and WAL mode set) where it had no schema_version table; where it had one, a
    migration failed half way ("table schema_version has no column named name") after WAL mode
    had been written into the file."""
    target = tmp_path / "theirs.db"
    with sqlite3.connect(target) as conn:
        for statement in statements:
            conn.execute(statement)
    conn.close()
    before = target.read_bytes()
    with pytest.raises(MigrationError, match=r"^the file is another program's database"):
        await SqliteStore(target).open()
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["theirs.db"]


async def test_a_database_junction_left_at_its_first_step_is_opened(tmp_path: Path) -> None:
    """A file holding only an empty ``schema_version`` of Junction's (a start stopped before the
    first migration) is Junction's own: it opens and is brought up to date."""
    target = tmp_path / "j.db"
    with sqlite3.connect(target) as conn:
        conn.execute(
            "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at DOUBLE PRECISION NOT NULL)"
        )
    conn.close()
    store = SqliteStore(target)
    await store.open()
    try:
        assert await store.get_game(1) is None
    finally:
        await store.close()


def test_shared_statements_bind_by_number_in_sqlite() -> None:
    """A statement written once for both stores (``$n``) binds the same parameters in SQLite:
    by number, in any order and any number of times, beyond nine too."""
    sql = numbered_qmarks("SELECT $2, $1, $1, $10 WHERE $1 <> $10")
    assert sql == "SELECT ?2, ?1, ?1, ?10 WHERE ?1 <> ?10"
    db = sqlite3.connect(":memory:")
    try:
        assert db.execute(sql, tuple(range(1, 11))).fetchall() == [(2, 1, 1, 10)]
    finally:
        db.close()


async def test_a_reads_rows_go_when_the_reader_drops_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """aiosqlite's worker thread keeps the list it last fetched until its next statement: the
    rows of a big read (a whole ladder's results) are moved out of that list, so they go as
    soon as the reader is done with them rather than stay alive through the next big read.
    (The lists aiosqlite hands over are watched directly: a memory count of the whole process
    also counts whatever other threads of the test run allocate meanwhile.)"""
    from bot.bench_boards import fill_store

    store = SqliteStore(tmp_path / "junction.db")
    await store.open()
    try:
        await fill_store(store, 200)
        handed: list[object] = []
        fetch_all = aiosqlite.Connection.execute_fetchall

        async def watched(self: aiosqlite.Connection, *args: Any, **kwargs: Any) -> Any:
            rows = await fetch_all(self, *args, **kwargs)
            handed.append(rows)
            return rows

        monkeypatch.setattr(aiosqlite.Connection, "execute_fetchall", watched)
        read = await store.results()
        assert len(read) == 200
        lists = [rows for rows in handed if isinstance(rows, list)]
        assert lists, "the store read nothing through execute_fetchall"
        assert [len(rows) for rows in lists] == [0] * len(lists)
    finally:
        await store.close()


@pytest.mark.parametrize("where", ["the folder", "a folder above it"])
async def test_a_file_where_the_folder_should_be_is_named(tmp_path: Path, where: str) -> None:
    """JUNCTION_DB=…/data/junction.db with a file called data: it said "the folder …/data
    cannot be created (file exists)", or "… (not a directory)" for …/data/sub/junction.db,
    which leaves the operator to work out that a file is there. Now the file is named, and
    what to do with it; nothing is made or changed."""
    (tmp_path / "data").write_text("notes")
    database = tmp_path / "data" / ("junction.db" if where == "the folder" else "sub/junction.db")
    with pytest.raises(StoreUnavailable) as refused:
        await opened_store(f"sqlite:///{database}")
    assert str(refused.value) == (
        f"cannot open the database sqlite:///{database}: a file is in the way of its folder:"
        f" {tmp_path / 'data'}; move or rename that file, or give the database another path"
    )
    assert [(p.name, p.read_text()) for p in tmp_path.iterdir()] == [("data", "notes")]


async def test_a_link_to_no_folder_where_the_folder_should_be_is_named(tmp_path: Path) -> None:
    """The same with a link to a folder that is not there (a volume not mounted): it said "the
    folder … cannot be created (file exists)" too."""
    (tmp_path / "data").symlink_to(tmp_path / "volume")
    database = tmp_path / "data" / "junction.db"
    with pytest.raises(StoreUnavailable) as refused:
        await opened_store(f"sqlite:///{database}")
    assert str(refused.value) == (
        f"cannot open the database sqlite:///{database}: its folder {tmp_path / 'data'} is a"
        f" link to {tmp_path / 'volume'}, which is not there; make that folder, or give the"
        " database another path"
    )
    assert [p.name for p in tmp_path.iterdir()] == ["data"]
