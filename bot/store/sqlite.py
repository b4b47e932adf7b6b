"""The SQLite store: one file (or ``:memory:``) reached through aiosqlite.

Each move is one ``BEGIN IMMEDIATE`` transaction that checks the game's version, appends to
``moves`` and replaces the snapshot in ``games``. ``BEGIN IMMEDIATE`` takes SQLite's write lock
at the start, so writers from other connections or processes queue behind the busy timeout
instead of failing half way through with ``SQLITE_BUSY``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import Any, Final

import aiosqlite

from bot.store.base import (
    SEATING_LEASE,
    SEATING_WAIT,
    UNPOSTED_SECONDS,
    ChannelBusy,
    DailyClaim,
    DailyClaimed,
    DuplicateInteraction,
    Forgotten,
    GameRewrite,
    GameStatus,
    LobbyRecord,
    SeatRecord,
    StoredGame,
    StoreError,
)
from bot.store.migrations import apply_migrations, refuse_foreign
from bot.store.rows import (
    CLEAR_TIMER,
    CLOSE_DEAD_REMATCH,
    GAME_COLUMNS,
    LOBBY_COLUMNS,
    LOBBY_INSERT_COLUMNS,
    MOVE_COLUMNS,
    check_ending,
    check_status,
    dump_json,
    game_from_row,
    load_object,
    lobby_from_row,
    lobby_insert_row,
    refusal,
    seat_to_json,
    seats_from_json,
)
from bot.store.sql import SqlStore, numbered_qmarks

log = logging.getLogger(__name__)

MEMORY: Final = ":memory:"

DEFAULT_BUSY_TIMEOUT_MS: Final = 5000


def _updated(
    row: sqlite3.Row,
    state_json: str,
    version: int,
    status: GameStatus,
    now: float,
    *,
    remind_at: float | None = None,
    deadline: float | None = None,
) -> StoredGame:
    """The game in ``row`` after an UPDATE of its snapshot (state read back from its JSON),
    with the timer that UPDATE set (none for the end of a game)."""
    return replace(
        game_from_row(row, state_json=state_json),
        version=version,
        status=status,
        updated_at=now,
        turn_deadline=deadline,
        remind_at=remind_at,
    )


def _is_unique_violation(exc: sqlite3.IntegrityError, column: str) -> bool:
    """Whether ``exc`` is a UNIQUE failure on ``table.column`` (SQLite names it in the text)."""
    return exc.sqlite_errorname == "SQLITE_CONSTRAINT_UNIQUE" and column in str(exc)


async def _fetch_all(
    db: aiosqlite.Connection, sql: str, parameters: Sequence[Any] = ()
) -> list[sqlite3.Row]:
    """The rows of one statement. aiosqlite's worker thread keeps the list it last fetched
    until its next statement ends; the rows are moved out of that list, so a big read's rows
    (a whole ladder: tens of MB) go when the reader lets them go, not after the next read."""
    fetched = await db.execute_fetchall(sql, parameters)
    rows = list(fetched)
    if isinstance(fetched, list):
        fetched.clear()
    return rows


class _Transaction:
    """The shared statements' view (``Sql``) of the connection inside ``SqliteStore._writing``."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def fetch(self, sql: str, *args: Any) -> list[sqlite3.Row]:
        return await _fetch_all(self._db, numbered_qmarks(sql), args)

    async def execute(self, sql: str, *args: Any) -> int:
        async with self._db.execute(numbered_qmarks(sql), args) as cursor:
            return cursor.rowcount


def _create_private(path: str) -> None:
    """Create the database file, empty, readable and writable by its owner only, if there is
    none yet (SQLite takes an empty file for a new database).

    It holds every member's id and name, the hands of games in play and the secret the daily
    deals are drawn from; left to SQLite it was created under the process's umask, readable by
    every account on the machine (``-rw-r--r--``). SQLite gives its ``-wal`` and ``-shm`` files
    the database's own mode. An existing file keeps the mode its owner gave it. Anything that
    goes wrong here (a folder the bot may not write) is left to SQLite to say, as before.
    """
    with suppress(OSError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def _reason(error: OSError) -> str:
    return (error.strerror or type(error).__name__).lower()


def _no_folder(folder: Path, error: OSError) -> str:
    """Why the database's ``folder`` cannot be made, ``error`` the attempt's.

    "[Errno 30] Read-only file system: '/srv/data'" is Python's, not a sentence. A file where
    the folder, or one above it, should be said "the folder … cannot be created (file exists)"
    (or "(not a directory)"): it is named now, and what to do with it."""
    for place in (folder, *folder.parents):
        if place.is_dir():
            break
        if place.is_symlink() and not place.exists():
            return (
                f"its folder {place} is a link to {os.readlink(place)}, which is not there; "
                "make that folder, or give the database another path"
            )
        if os.path.lexists(place):
            return (
                f"a file is in the way of its folder: {place}; move or rename that file, or "
                "give the database another path"
            )
    return f"the folder {error.filename or folder} cannot be created ({_reason(error)})"


def _unwritable_folder(path: str) -> str | None:
    """Why the folder of the SQLite file at ``path`` cannot be written, or None when it can.

    Tried by making a nameless file there, not with ``os.access``: root passes access() on a
    read-only mount. The file is gone when closed (made unnamed where Linux can)."""
    folder = os.path.dirname(os.path.realpath(path))
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        return f"the folder {folder} cannot be written ({_reason(exc)})"
    return None


def _next_id(table: str) -> str:
    """SQL for a new row's id in ``table``: one above its highest row and above every id it
    handed out whose row is gone (``id_floors``, migration 0013). Read inside the write
    transaction, so no other writer takes the same id."""
    return (
        f"(SELECT MAX(COALESCE((SELECT MAX(id) FROM {table}), 0),"
        f" COALESCE((SELECT floor FROM id_floors WHERE name = '{table}'), 0)) + 1)"
    )


async def _refuse_foreign(db: aiosqlite.Connection) -> None:
    """MigrationError when the file is another program's SQLite database (``refuse_foreign``)."""
    rows = await db.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    )
    tables = [str(row[0]) for row in rows]
    applied: list[tuple[int, str]] | None = None
    if "schema_version" in tables:
        columns = {row[1] for row in await db.execute_fetchall("PRAGMA table_info(schema_version)")}
        if {"version", "name"} <= columns:
            rows = await db.execute_fetchall("SELECT version, name FROM schema_version")
            applied = [(row[0], row[1]) for row in rows]
    refuse_foreign(tables, applied, "sqlite")


class SqliteStore(SqlStore):
    """Games and move logs in one SQLite database file (or ``:memory:``).

    Use ``await store.open()`` / ``await store.close()`` or ``async with SqliteStore(path)``.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._path = os.fspath(path)
        self._busy_timeout_ms = busy_timeout_ms
        self._clock = clock
        self._db: aiosqlite.Connection | None = None
        # One connection serves the whole bot. aiosqlite runs it on a single worker thread, so
        # each statement is already serialised, but a transaction spans several awaits: without
        # this lock a second coroutine's statements would run inside the first one's BEGIN ...
        # COMMIT (and be committed or rolled back with it), and a second BEGIN would fail with
        # "cannot start a transaction within a transaction". Reads take the lock too, because on
        # a shared connection they would otherwise see another coroutine's uncommitted writes.
        # Other connections and processes are kept in order by SQLite itself (BEGIN IMMEDIATE
        # plus the busy timeout).
        self._lock = asyncio.Lock()

    # BEGIN IMMEDIATE (``_writing``) queues every other writer, so the shared statements need
    # no locks of their own (``SqlStore._HOLD_GAMES``, ``_HOLD_ROW``).
    _CONFLICT = (sqlite3.IntegrityError,)
    # One below the next game's id (``_next_id``): the highest row, or the floor past ids
    # whose rows are gone.
    _HIGHEST_GAME = (
        "SELECT MAX(COALESCE((SELECT MAX(id) FROM games), 0),"
        " COALESCE((SELECT floor FROM id_floors WHERE name = 'games'), 0)) AS highest"
    )

    @property
    def path(self) -> str:
        """The database file, or ``:memory:``."""
        return self._path

    @property
    def is_memory(self) -> bool:
        return self._path == MEMORY

    @property
    def lock_path(self) -> str:
        """The file a running bot locks (``junction.db.lock``), beside the database itself
        through any symlink: a bot or a copy naming the file by another path (a linked data
        folder, a linked file) finds the same lock."""
        return os.path.realpath(self._path) + ".lock"

    # -- lifecycle ---------------------------------------------------------------------------------

    async def open(self) -> None:
        if self._db is not None:
            raise RuntimeError("the store is already open")
        if not self.is_memory:
            folder = Path(self._path).parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise OSError(_no_folder(folder, exc)) from exc
            _create_private(self._path)
        try:
            self._db = await self._connect()
        except sqlite3.OperationalError as exc:
            # SQLite keeps its -wal and -shm files beside the database, so in a folder this
            # account may not write it says "unable to open database file" (or "attempt to write
            # a readonly database"), never why.
            why = None if self.is_memory else _unwritable_folder(self._path)
            if why is None:
                raise
            raise OSError(why) from exc

    async def _connect(self) -> aiosqlite.Connection:
        """The connection, set up and migrated."""
        # isolation_level=None: the sqlite3 module starts no transactions of its own; every
        # BEGIN / COMMIT / ROLLBACK below is explicit.
        connecting = aiosqlite.connect(self._path, isolation_level=None)
        try:
            db = await connecting
        except BaseException:
            # A file that cannot be opened (a directory, no write permission): aiosqlite stops
            # its worker thread without waiting for it, and the thread then reports to an event
            # loop the caller may have closed, printing a stray traceback after the real error.
            thread = getattr(connecting, "_thread", None)
            if isinstance(thread, threading.Thread) and thread.is_alive():
                await asyncio.to_thread(thread.join, 5)
            raise
        try:
            db.row_factory = sqlite3.Row
            await db.execute_fetchall(f"PRAGMA busy_timeout = {int(self._busy_timeout_ms)}")
            await db.execute_fetchall("PRAGMA foreign_keys = ON")
            if not self.is_memory:
                # Before anything is written: WAL mode stays in the file, and the migrations
                # would add Junction's tables to another program's database.
                await _refuse_foreign(db)
                rows = list(await db.execute_fetchall("PRAGMA journal_mode = WAL"))
                mode = str(rows[0][0]).lower() if rows else None
                if mode != "wal":
                    log.warning("SQLite kept journal_mode=%s for %s instead of WAL", mode, self)
            # With WAL, NORMAL loses at most the last commits on power loss, never consistency.
            await db.execute_fetchall("PRAGMA synchronous = NORMAL")
            # What a change or delete leaves behind is overwritten with zeros, so a member
            # forgotten (``forget_member``) is not left in free space for a copy of the file to
            # keep. Many builds (Debian's) do this already; the others are told here.
            await db.execute_fetchall("PRAGMA secure_delete = ON")
            await apply_migrations(db)
        except BaseException:
            await db.close()
            raise
        return db

    async def close(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            async with self._lock:
                await db.close()

    async def __aenter__(self) -> SqliteStore:
        await self.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    def __repr__(self) -> str:
        return f"SqliteStore({self._path!r})"

    # Statements go through ``execute_fetchall``: one trip to aiosqlite's worker thread (about
    # 0.1 ms each), where ``execute`` + ``fetchone`` + closing the cursor take three. A move is
    # five trips: BEGIN, one SELECT (game row + duplicate check), INSERT, UPDATE, COMMIT.

    def _connection(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("the store is not open; call `await store.open()` first")
        return self._db

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[aiosqlite.Connection]:
        db = self._connection()
        async with self._lock:
            yield db

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction: committed on success, rolled back on any exception."""
        db = self._connection()
        async with self._lock:
            await db.execute_fetchall("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                if db.in_transaction:
                    await db.execute_fetchall("ROLLBACK")
                raise
            await db.execute_fetchall("COMMIT")

    @staticmethod
    async def _rows(
        db: aiosqlite.Connection, sql: str, parameters: Sequence[Any] = ()
    ) -> list[sqlite3.Row]:
        return await _fetch_all(db, sql, parameters)

    async def _read(self, sql: str, *args: Any) -> list[sqlite3.Row]:
        async with self._reading() as db:
            return await self._rows(db, numbered_qmarks(sql), args)

    async def _write(self, sql: str, *args: Any) -> int:
        async with self._transaction() as tx:
            return await tx.execute(sql, *args)

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[_Transaction]:
        async with self._writing() as db:
            yield _Transaction(db)

    # -- forgetting a member -----------------------------------------------------------------------

    @asynccontextmanager
    async def seating(
        self,
        user_id: int,
        guild_id: int,
        *,
        lease: float = SEATING_LEASE,
        wait: float = SEATING_WAIT,
    ) -> AsyncIterator[None]:
        """Nothing to claim: one bot process serves a SQLite file (``junction run`` holds the
        file's lock), and its own lock (``cogs.limits.seating``) takes a member's requests one
        at a time already. A claim would be two commits for nothing (7.6 ms a request measured
        on a loaded disk); ``claim_seating`` stays for what shares the file."""
        yield

    async def forget_member(
        self, user_id: int, *, alias: int, name: str, games: Sequence[GameRewrite]
    ) -> Forgotten:
        """``Store.forget_member``, and then the database file itself rid of the old rows.

        In WAL mode a change goes to the ``-wal`` file first, and the database file keeps the
        pages as they were (the member's id and name) until a checkpoint copies the new ones
        over. Beside a running bot that is not the command's close but the next checkpoint SQLite
        makes by itself, once the WAL holds a thousand pages: hours later on a quiet server, and
        a copy of ``junction.db`` taken meanwhile held them all. Checkpointed here, with the WAL
        emptied too (its older frames still held the member's earlier moves).
        """
        done = await super().forget_member(user_id, alias=alias, name=name, games=games)
        if not self.is_memory:
            async with self._reading() as db:
                rows = list(await db.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)"))
            if rows and rows[0][0]:
                log.warning(
                    "%s: another connection kept the database busy; the forgotten member's "
                    "old rows leave the file at its next checkpoint",
                    self,
                )
        return done

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
            async with self._writing() as db:
                if daily is not None:
                    async with db.execute(
                        "INSERT INTO daily_claims (guild_id, game_key, day, user_id, created_at)"
                        " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                        (daily.guild_id, daily.game_key, daily.day, daily.user_id, now),
                    ) as cursor:
                        if cursor.rowcount != 1:
                            raise DailyClaimed(f"{daily} was claimed before")
                inserted = await db.execute_insert(
                    "INSERT INTO games (id, channel_id, guild_id, game_key, seats, options,"
                    " state, initial_state, version, status, message_id, created_at,"
                    f" updated_at, turn_deadline) VALUES ({_next_id('games')},"
                    " ?, ?, ?, ?, ?, ?, ?, 0, 'active', NULL, ?, ?, ?)",
                    (
                        channel_id,
                        guild_id,
                        game_key,
                        seats_json,
                        options_json,
                        state_json,
                        state_json,
                        now,
                        now,
                        deadline,
                    ),
                )
        except sqlite3.IntegrityError as exc:
            if _is_unique_violation(exc, "games.channel_id"):
                raise ChannelBusy(f"channel {channel_id} already has an active game") from exc
            raise
        assert inserted is not None
        return StoredGame(
            id=int(inserted[0]),
            channel_id=channel_id,
            guild_id=guild_id,
            game_key=game_key,
            seats=seats_from_json(seats_json),
            options=load_object(options_json, "options"),
            state=load_object(state_json, "state"),
            version=0,
            status="active",
            message_id=None,
            created_at=now,
            updated_at=now,
            turn_deadline=deadline,
        )

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
        """Append a move and replace the snapshot in one transaction.

        Raises StaleVersion when the stored version is not ``expected_version`` and
        DuplicateInteraction when ``interaction_id`` was stored before; either way nothing
        is written. Returns the game at its new version (``expected_version + 1``).

        When both apply (Discord delivered the same interaction twice, so the second copy
        carries the old version) DuplicateInteraction wins: the request is a repeat, not a
        race lost to another player. A move on a game that is no longer active is a StoreError.
        """
        check_status(status)
        state_json = dump_json(dict(state))
        now = self._clock()
        new_version = expected_version + 1
        try:
            async with self._writing() as db:
                # The game row and the duplicate check in one statement (one thread trip).
                rows = await self._rows(
                    db,
                    f"SELECT {GAME_COLUMNS}, EXISTS (SELECT 1 FROM moves"
                    " WHERE interaction_id = ?) AS duplicate FROM games WHERE id = ?",
                    (interaction_id, game_id),
                )
                row = rows[0] if rows else None
                error = refusal(row, game_id, expected_version, interaction_id)
                if error is not None:
                    raise error
                assert row is not None  # refusal names a missing game
                await db.execute_fetchall(
                    f"INSERT INTO moves ({MOVE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, new_version, seat, action, interaction_id, now),
                )
                # A request to abort was about the position it was made in: it lapses.
                await db.execute_fetchall("DELETE FROM abort_votes WHERE game_id = ?", (game_id,))
                await db.execute_fetchall(
                    "UPDATE games SET state = ?, version = ?, status = ?, updated_at = ?,"
                    " remind_at = ?, turn_deadline = ? WHERE id = ? AND version = ?",
                    (
                        state_json,
                        new_version,
                        status,
                        now,
                        remind_at,
                        deadline,
                        game_id,
                        expected_version,
                    ),
                )
        except sqlite3.IntegrityError as exc:
            if _is_unique_violation(exc, "moves.interaction_id"):
                raise DuplicateInteraction(
                    f"interaction {interaction_id} was already recorded"
                ) from exc
            raise
        return _updated(
            row, state_json, new_version, status, now, remind_at=remind_at, deadline=deadline
        )

    async def end_game(
        self, *, game_id: int, expected_version: int, status: GameStatus, state: Mapping[str, Any]
    ) -> StoredGame:
        """Mark a game finished or aborted without a move (resign, abort); bumps the version.

        Raises StaleVersion like ``record_move``, and StoreError if the game already ended.
        """
        check_ending(status)
        state_json = dump_json(dict(state))
        now = self._clock()
        async with self._writing() as db:
            rows = await self._rows(
                db, f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
            )
            row = rows[0] if rows else None
            error = refusal(row, game_id, expected_version, ending=True)
            if error is not None:
                raise error
            assert row is not None  # refusal names a missing game
            await db.execute_fetchall(
                f"UPDATE games SET state = ?, version = ?, status = ?, updated_at = ?,"
                f" {CLEAR_TIMER} WHERE id = ? AND version = ?",
                (state_json, expected_version + 1, status, now, game_id, expected_version),
            )
        return _updated(row, state_json, expected_version + 1, status, now)

    async def add_labels(self, game_id: int, labels: Mapping[str, str]) -> None:
        async with self._writing() as db:
            rows = await self._rows(db, "SELECT options FROM games WHERE id = ?", (game_id,))
            if not rows:
                raise StoreError(f"there is no game {game_id}")
            options = {**load_object(rows[0]["options"], "options"), **labels}
            await db.execute_fetchall(
                "UPDATE games SET options = ? WHERE id = ?", (dump_json(options), game_id)
            )

    # -- lobbies -----------------------------------------------------------------------------------

    async def create_lobby(self, lobby: LobbyRecord) -> LobbyRecord:
        async with self._writing() as db:
            return await self._insert_lobby(db, lobby)

    @staticmethod
    async def _insert_lobby(db: aiosqlite.Connection, lobby: LobbyRecord) -> LobbyRecord:
        inserted = await db.execute_insert(
            f"INSERT INTO lobbies (id, {LOBBY_INSERT_COLUMNS})"
            f" VALUES ({_next_id('lobbies')}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            lobby_insert_row(lobby),
        )
        assert inserted is not None
        return replace(lobby, id=int(inserted[0]), version=0)

    async def open_rematch(self, lobby: LobbyRecord, now: float) -> tuple[LobbyRecord, bool]:
        if lobby.rematch_of is None:
            raise ValueError("open_rematch needs the lobby's rematch_of")
        # BEGIN IMMEDIATE queues every other writer, in this process or another, behind this
        # look-up and insert; the unique index on open rematches is the backstop.
        async with self._writing() as db:
            await db.execute_fetchall(
                numbered_qmarks(CLOSE_DEAD_REMATCH),
                (lobby.rematch_of, now, UNPOSTED_SECONDS),
            )
            rows = await self._rows(
                db,
                f"SELECT {LOBBY_COLUMNS} FROM lobbies WHERE rematch_of = ? AND status = 'open'",
                (lobby.rematch_of,),
            )
            if rows:
                return lobby_from_row(rows[0]), False
            return await self._insert_lobby(db, lobby), True
