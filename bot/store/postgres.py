"""The PostgreSQL store: games and move logs on a server, shared by several bot processes.

SQLite stays the embedded default; this store is for a farm of shards (``junction run
--shard-ids …``) that must all see the same games. It is chosen by a ``postgresql://`` (or
``postgres://``) ``JUNCTION_DB`` and reached through an asyncpg connection pool.

Concurrency does not rely on any lock in this process: another process may be serving the
same channel. A move is one statement, hence one transaction::

    WITH updated AS (UPDATE games SET … WHERE id = $1 AND version = $2 AND status = 'active'
                     RETURNING …),
         appended AS (INSERT INTO moves … SELECT … FROM updated)
    SELECT … FROM updated

The conditional UPDATE is the optimistic version check. Under READ COMMITTED a second writer
of the same version blocks on the row lock until the first commits, then re-checks its WHERE
against the new row, matches nothing, and so inserts no move: an empty result is a lost race
(StaleVersion). The move row is inserted only from the updated row, so a version bump without
its move, or a move without its bump, cannot be committed. ``moves.interaction_id`` is UNIQUE,
so a request delivered to two processes is stored once (DuplicateInteraction for the other).
One statement is also one round trip to the server, which is what a move costs here.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any, Final
from urllib.parse import urlsplit

import asyncpg

from bot.store import redact_url
from bot.store.base import (
    UNPOSTED_SECONDS,
    ChannelBusy,
    DailyClaim,
    DailyClaimed,
    DuplicateInteraction,
    GameStatus,
    LobbyRecord,
    SeatRecord,
    StaleVersion,
    StoredGame,
    StoreError,
)
from bot.store.migrations import (
    SCHEMA_VERSION_TABLE,
    Migration,
    MigrationError,
    check_known,
    load_migrations,
    refuse_foreign,
)
from bot.store.rows import (
    CLEAR_TIMER,
    CLOSE_DEAD_REMATCH,
    GAME_COLUMNS,
    LOBBY_COLUMNS,
    LOBBY_INSERT_COLUMNS,
    MOVE_COLUMNS,
    RowLike,
    check_ending,
    check_status,
    dump_json,
    game_from_row,
    lobby_from_row,
    lobby_insert_row,
    refusal,
    seat_to_json,
)
from bot.store.sql import SqlStore

log = logging.getLogger(__name__)

DIALECT: Final = "postgresql"
SCHEMES: Final[frozenset[str]] = frozenset({"postgresql", "postgres"})

# pg_advisory_xact_lock key ("Junc") held while the schema is checked or changed, so shards that
# start together apply each migration once. CREATE TABLE IF NOT EXISTS alone is not safe when
# two sessions run it at the same moment (one fails on the catalog's unique index).
MIGRATION_LOCK_KEY: Final = 0x4A756E63

# pg_advisory_xact_lock key ("Rslt") held while a result is written (``_HOLD_RESULTS``).
RESULTS_LOCK_KEY: Final = 0x52736C74

# Names PostgreSQL gives the constraints of 0001_games_and_moves.postgresql.sql.
_ONE_ACTIVE_PER_CHANNEL: Final = "games_one_active_per_channel"
_UNIQUE_INTERACTION: Final = "moves_interaction_id_key"

_RECORD_MOVE: Final = f"""
WITH updated AS (
    UPDATE games SET state = $3, version = version + 1, status = $4, updated_at = $5,
        remind_at = $9, turn_deadline = $10
    WHERE id = $1 AND version = $2 AND status = 'active'
    RETURNING {GAME_COLUMNS}
), appended AS (
    INSERT INTO moves ({MOVE_COLUMNS})
    SELECT id, version, $6, $7, $8, $5 FROM updated
), lapsed AS (
    DELETE FROM abort_votes WHERE game_id IN (SELECT id FROM updated)
)
SELECT {GAME_COLUMNS} FROM updated
"""

_END_GAME: Final = f"""
UPDATE games SET state = $3, version = version + 1, status = $4, updated_at = $5, {CLEAR_TIMER}
WHERE id = $1 AND version = $2 AND status = 'active'
RETURNING {GAME_COLUMNS}
"""

# Why a conditional UPDATE matched nothing. A fresh statement under READ COMMITTED sees what
# the winning transaction committed.
_DIAGNOSE: Final = """
SELECT version, status,
       EXISTS (SELECT 1 FROM moves WHERE interaction_id = $2) AS duplicate
FROM games WHERE id = $1
"""

# Errors that mean "somebody else changed the row first". With READ COMMITTED (which this store
# asks for) the conditional UPDATE does not raise them, but a server or pooler that forces
# SERIALIZABLE would; they are retryable exactly like a version mismatch.
_RETRYABLE: Final = (asyncpg.SerializationError, asyncpg.DeadlockDetectedError)


async def _schema_version(conn: Any) -> int:
    value = await conn.fetchval("SELECT MAX(version) FROM schema_version")
    return 0 if value is None else int(value)


async def _refuse_foreign(conn: Any) -> None:
    """MigrationError when the database's schema (the one Junction's tables go to) holds another
    program's tables and no Junction ``schema_version`` (``refuse_foreign``)."""
    tables = [
        str(row["tablename"])
        for row in await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        )
    ]
    applied: list[tuple[int, str]] | None = None
    if "schema_version" in tables:
        columns = {
            str(row["column_name"])
            for row in await conn.fetch(
                "SELECT column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND table_name = 'schema_version'"
            )
        }
        if {"version", "name"} <= columns:
            rows = await conn.fetch("SELECT version, name FROM schema_version")
            applied = [(int(row["version"]), str(row["name"])) for row in rows]
    refuse_foreign(tables, applied, DIALECT)


async def apply_postgres_migrations(
    conn: Any, migrations: Sequence[Migration] | None = None
) -> int:
    """Apply every migration newer than the database on ``conn``; return the resulting version.

    The PostgreSQL twin of :func:`bot.store.migrations.apply_migrations`: the same numbered
    files (with ``.postgresql.sql`` overrides) and the same ``schema_version`` table, each
    migration in its own transaction together with its version row. Every transaction first
    takes an advisory lock, so concurrent openers apply each migration exactly once.
    """
    if migrations is None:
        migrations = load_migrations(DIALECT)
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK_KEY)
        # Before anything is written: the migrations would add Junction's tables to another
        # program's database (a JUNCTION_DB pointing at the wrong database on a shared server).
        await _refuse_foreign(conn)
        # Created only when missing: CREATE ... IF NOT EXISTS still needs the right to create
        # in the schema, which a role that may only read lacks (the forget-member dry run).
        # In the schema it would be created in, as IF NOT EXISTS looks.
        if await conn.fetchval(
            "SELECT to_regclass(quote_ident(current_schema()) || '.schema_version') IS NULL"
        ):
            await conn.execute(SCHEMA_VERSION_TABLE)
        version = await _schema_version(conn)
    check_known(version, migrations)
    for migration in migrations:
        if migration.version <= version:
            continue
        try:
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK_KEY)
                # Another process may have applied it while we waited for the lock.
                version = await _schema_version(conn)
                if migration.version <= version:
                    continue
                # A script without parameters goes over the simple query protocol, which runs
                # several statements; the surrounding transaction still makes it all or nothing.
                await conn.execute(migration.sql)
                await conn.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)",
                    migration.version,
                    migration.name,
                    time.time(),
                )
        except asyncpg.PostgresError as exc:
            raise MigrationError(f"migration {migration.label} failed: {exc}") from exc
        version = migration.version
    return version


def _changed(status: str) -> int:
    """How many rows a statement changed, from asyncpg's status ("UPDATE 2", "INSERT 0 1")."""
    count = status.rsplit(" ", 1)[-1]
    return int(count) if count.isdigit() else 0


class _Transaction:
    """The shared statements' view (``Sql``) of a pooled connection inside a transaction."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[RowLike]:
        rows: list[RowLike] = await self._conn.fetch(sql, *args)
        return rows

    async def execute(self, sql: str, *args: Any) -> int:
        return _changed(await self._conn.execute(sql, *args))


CONNECTING_SECONDS = 2.0
"""How long a cancelled :meth:`PostgresStore.open` lets connections under way finish."""


async def _connected(making: Awaitable[Any]) -> Any:
    """The pool ``making`` makes, shielded from a cancellation that comes mid-handshake.

    asyncpg cancelled while a connection is half made leaves a future that fails later with
    nobody to read it, and asyncio logs "Future exception was never retrieved" (a stop in the
    first instant of the bot's start did). Cancelled, this lets the connections finish for up
    to :data:`CONNECTING_SECONDS` (a local server needs milliseconds), closes the pool and
    re-raises the cancellation; a server slower than that is cancelled as before.
    """
    task = asyncio.ensure_future(making)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CONNECTING_SECONDS
        while not task.done() and loop.time() < deadline:
            try:
                await asyncio.wait({task}, timeout=deadline - loop.time())
            except asyncio.CancelledError:
                continue  # the stop cancels again: the connections are still finishing
        if not task.done():
            task.cancel()
        elif not task.cancelled() and task.exception() is None:
            await task.result().close()
        raise


class PostgresStore(SqlStore):
    """Games and move logs in a PostgreSQL database, safe to share between processes.

    Use ``await store.open()`` / ``await store.close()`` or ``async with PostgresStore(url)``.
    """

    def __init__(
        self,
        url: str,
        *,
        clock: Callable[[], float] = time.time,
        min_connections: int = 1,
        max_connections: int = 10,
        command_timeout: float = 30.0,
    ) -> None:
        if urlsplit(url).scheme.lower() not in SCHEMES:
            raise ValueError("a PostgreSQL store needs a postgresql:// or postgres:// URL")
        self._url = url
        self._clock = clock
        self._min_connections = min_connections
        self._max_connections = max_connections
        self._command_timeout = command_timeout
        self._pool: Any = None

    # Games are held still (reads go on) while a member is forgotten, so none can start between
    # the check and the rewrite; SHARE ROW EXCLUSIVE also keeps two forgets apart.
    _HOLD_GAMES = "LOCK TABLE games IN SHARE ROW EXCLUSIVE MODE"
    # A result reads its game's seats FOR SHARE: that waits for a forgetting that rewrote the
    # row, or holds one back until the result is in, for it to rewrite.
    _HOLD_ROW = " FOR SHARE"
    # A result's number comes from a sequence when it is inserted, before commit: two results
    # written at once could commit out of order, and a reader who saw the higher would never
    # ask for the lower (``results_after``). Writers of results queue on this lock until they
    # commit; readers, and a vacuum of the table, do not wait for it (a table lock would make a
    # result wait behind a long vacuum).
    _HOLD_RESULTS = f"SELECT pg_advisory_xact_lock({RESULTS_LOCK_KEY})"
    # Timers resume one process at a time (``SqlStore.resume_timers``); a heartbeat waits the
    # few milliseconds one takes.
    _HOLD_HEARTBEATS = "LOCK TABLE timer_heartbeats IN EXCLUSIVE MODE"
    _CONFLICT = (asyncpg.UniqueViolationError,)
    # The identity's sequence remembers every id handed out, a creation rolled back's too
    # (past the newest row); a row copied in with its id may be past the sequence.
    _HIGHEST_GAME = (
        "SELECT GREATEST(COALESCE((SELECT MAX(id) FROM games), 0), COALESCE("
        "pg_sequence_last_value(pg_get_serial_sequence('games', 'id')::regclass), 0)) AS highest"
    )

    @property
    def url(self) -> str:
        """The server URL with any password hidden."""
        return redact_url(self._url)

    @property
    def pool(self) -> Any:
        """The asyncpg pool (for ``junction migrate-db`` and tests); the store must be open."""
        if self._pool is None:
            raise RuntimeError("the store is not open; call `await store.open()` first")
        return self._pool

    # -- lifecycle ---------------------------------------------------------------------------------

    async def open(self) -> None:
        if self._pool is not None:
            raise RuntimeError("the store is already open")
        pool = await _connected(
            asyncpg.create_pool(
                self._url,
                min_size=self._min_connections,
                max_size=self._max_connections,
                command_timeout=self._command_timeout,
                # The version check is argued for READ COMMITTED (see the module docstring);
                # pin it so a server whose default is SERIALIZABLE does not turn races into
                # errors.
                server_settings={
                    "default_transaction_isolation": "read committed",
                    "application_name": "junction",
                },
            )
        )
        try:
            async with pool.acquire() as conn:
                await apply_postgres_migrations(conn)
        except BaseException:
            await pool.close()
            raise
        self._pool = pool

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    async def __aenter__(self) -> PostgresStore:
        await self.open()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def __repr__(self) -> str:
        return f"PostgresStore({self.url!r})"

    async def _read(self, sql: str, *args: Any) -> list[RowLike]:
        rows: list[RowLike] = await self.pool.fetch(sql, *args)
        return rows

    async def _write(self, sql: str, *args: Any) -> int:
        return _changed(await self.pool.execute(sql, *args))

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[_Transaction]:
        async with self.pool.acquire() as conn, conn.transaction():
            yield _Transaction(conn)

    # -- games -------------------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        channel_id: int,
        guild_id: int | None,
        game_key: str,
        seats: Sequence[SeatRecord],
        options: Mapping[str, str],
        state: Mapping[str, Any],
        deadline: float | None = None,
        daily: DailyClaim | None = None,
    ) -> StoredGame:
        """Store a new active game at version 0; ChannelBusy if the channel has one."""
        seats_json = dump_json([seat_to_json(seat) for seat in seats])
        options_json = dump_json(dict(options))
        state_json = dump_json(dict(state))
        now = self._clock()
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                if daily is not None:
                    claimed = await conn.fetchval(
                        "INSERT INTO daily_claims (guild_id, game_key, day, user_id, created_at)"
                        " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING 1",
                        daily.guild_id,
                        daily.game_key,
                        daily.day,
                        daily.user_id,
                        now,
                    )
                    if claimed is None:
                        raise DailyClaimed(f"{daily} was claimed before")
                row = await conn.fetchrow(
                    f"INSERT INTO games (channel_id, guild_id, game_key, seats, options, state,"
                    f" initial_state, version, status, message_id, created_at, updated_at,"
                    f" turn_deadline) VALUES ($1, $2, $3, $4, $5, $6, $6, 0, 'active', NULL,"
                    f" $7, $7, $8) RETURNING {GAME_COLUMNS}",
                    channel_id,
                    guild_id,
                    game_key,
                    seats_json,
                    options_json,
                    state_json,
                    now,
                    deadline,
                )
        except asyncpg.UniqueViolationError as exc:
            if exc.constraint_name == _ONE_ACTIVE_PER_CHANNEL:
                raise ChannelBusy(f"channel {channel_id} already has an active game") from exc
            raise
        return game_from_row(row)

    # -- moves -------------------------------------------------------------------------------------

    async def record_move(
        self,
        *,
        game_id: int,
        expected_version: int,
        seat: int,
        action: str,
        interaction_id: str | None,
        state: Mapping[str, Any],
        status: GameStatus = "active",
        remind_at: float | None = None,
        deadline: float | None = None,
    ) -> StoredGame:
        """Append a move and replace the snapshot in one transaction (one statement).

        Raises StaleVersion when the stored version is not ``expected_version`` (also when
        another process stored that version a moment earlier) and DuplicateInteraction when
        ``interaction_id`` was stored before; either way nothing is written. When both apply,
        DuplicateInteraction wins, as in the SQLite store. A move on a game that is no longer
        active is a StoreError.
        """
        check_status(status)
        state_json = dump_json(dict(state))
        now = self._clock()
        async with self.pool.acquire() as conn:
            try:
                row = await conn.fetchrow(
                    _RECORD_MOVE,
                    game_id,
                    expected_version,
                    state_json,
                    status,
                    now,
                    seat,
                    action,
                    interaction_id,
                    remind_at,
                    deadline,
                )
            except asyncpg.UniqueViolationError as exc:
                if exc.constraint_name == _UNIQUE_INTERACTION:
                    raise DuplicateInteraction(
                        f"interaction {interaction_id} was already recorded"
                    ) from exc
                raise
            except _RETRYABLE as exc:
                raise StaleVersion(f"game {game_id} changed concurrently: {exc}") from exc
            if row is None:
                raise await self._refusal(conn, game_id, expected_version, interaction_id)
        return game_from_row(row)

    async def end_game(
        self, *, game_id: int, expected_version: int, status: GameStatus, state: Mapping[str, Any]
    ) -> StoredGame:
        """Mark a game finished or aborted without a move (resign, abort); bumps the version.

        Raises StaleVersion like ``record_move``, and StoreError if the game already ended.
        """
        check_ending(status)
        state_json = dump_json(dict(state))
        now = self._clock()
        async with self.pool.acquire() as conn:
            try:
                row = await conn.fetchrow(
                    _END_GAME, game_id, expected_version, state_json, status, now
                )
            except _RETRYABLE as exc:
                raise StaleVersion(f"game {game_id} changed concurrently: {exc}") from exc
            if row is None:
                raise await self._refusal(conn, game_id, expected_version, None, ending=True)
        return game_from_row(row)

    @staticmethod
    async def _refusal(
        conn: Any,
        game_id: int,
        expected_version: int,
        interaction_id: str | None,
        *,
        ending: bool = False,
    ) -> StoreError:
        """The error for a conditional UPDATE that matched no row, in the SQLite store's order."""
        row = await conn.fetchrow(_DIAGNOSE, game_id, interaction_id)
        error = refusal(row, game_id, expected_version, interaction_id, ending=ending)
        # Versions only grow, so a matching row now means it changed and changed back: a race.
        return error or StaleVersion(f"game {game_id} changed while the move was stored")

    async def add_labels(self, game_id: int, labels: Mapping[str, str]) -> None:
        # One statement: the merge is atomic, whoever else writes the game meanwhile.
        result = await self.pool.execute(
            "UPDATE games SET options = (options::jsonb || $2::jsonb)::text WHERE id = $1",
            game_id,
            dump_json(dict(labels)),
        )
        if result == "UPDATE 0":
            raise StoreError(f"there is no game {game_id}")

    # -- lobbies -----------------------------------------------------------------------------------

    async def create_lobby(self, lobby: LobbyRecord) -> LobbyRecord:
        lobby_id = await self.pool.fetchval(
            f"INSERT INTO lobbies ({LOBBY_INSERT_COLUMNS})"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
            *lobby_insert_row(lobby),
        )
        return replace(lobby, id=int(lobby_id), version=0)

    async def open_rematch(self, lobby: LobbyRecord, now: float) -> tuple[LobbyRecord, bool]:
        if lobby.rematch_of is None:
            raise ValueError("open_rematch needs the lobby's rematch_of")
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute(
                CLOSE_DEAD_REMATCH,
                lobby.rematch_of,
                now,
                UNPOSTED_SECONDS,
            )
            # The unique index on open rematches decides between processes: a second insert
            # waits for the first one's transaction, then does nothing once it has committed.
            for _ in range(3):
                lobby_id = await conn.fetchval(
                    f"INSERT INTO lobbies ({LOBBY_INSERT_COLUMNS})"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
                    " ON CONFLICT (rematch_of) WHERE status = 'open' DO NOTHING RETURNING id",
                    *lobby_insert_row(lobby),
                )
                if lobby_id is not None:
                    return replace(lobby, id=int(lobby_id), version=0), True
                # Read committed: this statement sees the lobby that won.
                row = await conn.fetchrow(
                    f"SELECT {LOBBY_COLUMNS} FROM lobbies"
                    " WHERE rematch_of = $1 AND status = 'open'",
                    lobby.rematch_of,
                )
                if row is not None:
                    return lobby_from_row(row), False
                # The winner closed again in between (a Cancel at once): try once more.
        raise StaleVersion(f"the rematch of game {lobby.rematch_of} kept changing")
