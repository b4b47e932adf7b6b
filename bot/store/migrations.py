"""Numbered schema migrations: SQL files in ``bot/store/migrations`` applied in order.

A migration is a file ``NNNN_name.sql`` (``0001_games_and_moves.sql``). Versions start at 1 and
have no gaps. The applied versions are rows of the ``schema_version`` table; opening a store
applies every newer file, each in its own transaction together with its ``schema_version`` row,
so a failed migration leaves the database at the previous version.

The files are meant to be shared by the SQLite and PostgreSQL stores. Where a statement cannot
be written for both, a dialect override ``NNNN_name.<dialect>.sql`` (for example
``0001_games_and_moves.postgresql.sql``) replaces the shared file for that dialect only.

Migrations run inside a transaction, so they must not rely on statements SQLite ignores or
refuses there (``PRAGMA foreign_keys``, ``PRAGMA journal_mode``, ``VACUUM``).
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable

import aiosqlite

MIGRATIONS_PACKAGE = "bot.store"
MIGRATIONS_DIRECTORY = "migrations"

_FILE_NAME = re.compile(r"^(?P<version>\d{4})_(?P<name>[a-z0-9_]+)(?:\.(?P<dialect>[a-z]+))?\.sql$")
_COMMENTS = re.compile(r"--[^\n]*|/\*.*?\*/", re.DOTALL)

SCHEMA_VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    version     INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    applied_at  DOUBLE PRECISION NOT NULL
)
"""


class MigrationError(Exception):
    """The migration files are inconsistent, or one of them failed to apply."""


def refuse_foreign(
    tables: Sequence[str], applied: Sequence[tuple[int, str]] | None, dialect: str
) -> None:
    """MigrationError when a database is another program's: it has ``tables``, and no
    ``schema_version`` table whose ``applied`` migrations (None: it lacks their columns) are
    Junction's by number and name. An empty database, or one that only Junction's first step
    began, is Junction's to fill. Said before anything is written, by each store as it opens."""
    tables = sorted(tables)
    if not tables:
        return
    if "schema_version" in tables and applied is not None:
        if not applied and tables == ["schema_version"]:
            return  # Junction's first step only: its migrations were never applied
        ours = {migration.version: migration.name for migration in load_migrations(dialect)}
        # A version past ours is a newer Junction's: the migrations refuse it by name.
        if applied and all(ours.get(version, name) == name for version, name in applied):
            return
    shown = ", ".join(tables[:3]) + (", …" if len(tables) > 3 else "")
    what = "file" if dialect == "sqlite" else "database"
    raise MigrationError(
        f"the {what} is another program's database (its tables: {shown}); "
        f"give Junction a {'database file' if dialect == 'sqlite' else 'database'} of its own"
    )


@dataclass(frozen=True)
class Migration:
    """One numbered SQL file."""

    version: int
    name: str
    sql: str

    @property
    def label(self) -> str:
        return f"{self.version:04d}_{self.name}"

    def statements(self) -> list[str]:
        return split_statements(self.sql)


def split_statements(sql: str) -> list[str]:
    """Split a script into single statements (``;`` inside strings, comments or triggers stays).

    Pieces that hold nothing but comments are dropped; a last statement may omit its ``;``.
    """
    statements: list[str] = []
    pending = ""
    for piece in sql.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            statements.append(pending)
            pending = ""
    # The loop appended one ";" too many: the script's tail never ended in a terminator.
    pending = pending[:-1]
    if pending.strip():
        statements.append(pending + ";")
    return [s.strip() for s in statements if _COMMENTS.sub("", s).strip(" \t\r\n;")]


def load_migrations(
    dialect: str = "sqlite",
    *,
    package: str = MIGRATIONS_PACKAGE,
    directory: str = MIGRATIONS_DIRECTORY,
) -> list[Migration]:
    """The migration files in version order, with ``dialect`` overrides taking precedence."""
    shared: dict[int, tuple[str, Traversable]] = {}
    override: dict[int, tuple[str, Traversable]] = {}
    for entry in files(package).joinpath(directory).iterdir():
        if not entry.name.endswith(".sql"):
            continue
        match = _FILE_NAME.match(entry.name)
        if match is None:
            raise MigrationError(
                f"migration file {entry.name!r} is not named NNNN_name.sql or NNNN_name.dialect.sql"
            )
        file_dialect = match["dialect"]
        if file_dialect is not None and file_dialect != dialect:
            continue
        version = int(match["version"])
        chosen = shared if file_dialect is None else override
        if version in chosen:
            raise MigrationError(
                f"two migration files have version {version}: "
                f"{chosen[version][1].name!r} and {entry.name!r}"
            )
        chosen[version] = (match["name"], entry)

    merged = shared | override
    migrations = [
        Migration(version, name, entry.read_text(encoding="utf-8"))
        for version, (name, entry) in sorted(merged.items())
    ]
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise MigrationError(
                f"migration versions must run 1, 2, 3, … without gaps; "
                f"expected {expected:04d} but found {migration.label}"
            )
    return migrations


def check_known(version: int, migrations: Sequence[Migration]) -> None:
    """MigrationError when the database's schema ``version`` is newer than every migration this
    program has (both stores refuse to open such a database)."""
    latest = migrations[-1].version if migrations else 0
    if version > latest:
        raise MigrationError(
            f"the database is at schema version {version} but this program only knows "
            f"migrations up to {latest}; upgrade the program before using this database"
        )


async def current_version(conn: aiosqlite.Connection) -> int:
    """The highest applied migration version, 0 for a new database."""
    async with conn.execute("SELECT MAX(version) FROM schema_version") as cursor:
        row = await cursor.fetchone()
    return 0 if row is None or row[0] is None else int(row[0])


async def apply_migrations(
    conn: aiosqlite.Connection, migrations: Sequence[Migration] | None = None
) -> int:
    """Apply every migration newer than the database; return the resulting version.

    ``conn`` must be in autocommit mode (``isolation_level=None``): this function issues its own
    ``BEGIN IMMEDIATE`` / ``COMMIT`` so that two processes opening the same file at once apply
    each migration exactly once.
    """
    if migrations is None:
        migrations = load_migrations("sqlite")

    await conn.execute(SCHEMA_VERSION_TABLE)
    version = await current_version(conn)
    check_known(version, migrations)

    for migration in migrations:
        if migration.version <= version:
            continue
        await conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have applied it while we waited for the write lock.
            version = await current_version(conn)
            if migration.version <= version:
                await conn.execute("ROLLBACK")
                continue
            for statement in migration.statements():
                await conn.execute(statement)
            await conn.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, time.time()),
            )
            await conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise MigrationError(f"migration {migration.label} failed: {exc}") from exc
            raise
        version = migration.version
    return version
