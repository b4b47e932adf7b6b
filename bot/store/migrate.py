"""``junction migrate-db FROM TO``: copy every game, move, result and setting between stores.

The usual trip is SQLite → PostgreSQL when one bot process becomes several shards, but any
pair of store URLs works (SQLite → SQLite makes a compacted copy, PostgreSQL → SQLite a local
snapshot). Rows are copied column for column, so game ids, versions, statuses, snapshots,
initial states, turn timers and interaction ids survive unchanged and buttons already posted in
Discord keep working. Results travel with their games; guild settings are copied whole.
Lobbies (invitations, open tables) are not, but for the newest, closed: the target then numbers
its new lobbies past every lobby id the source handed out, so a button on an old message never
names a lobby opened since (``keep_lobby_ids``); new games likewise go past every game id the
source handed out and the target held (``finish``). PostgreSQL's sequences remember that; a
SQLite target, which numbers a new row one above its highest, keeps it in ``id_floors``
(migration 0013). The index of who sat at each result (``result_members``, migration 0017) is
not copied: the target's triggers build it from the results as they arrive (PostgreSQL's COPY
fires them too), and clear it with the results ``--force`` replaces.

The Store interface has no "every game" query (a bot never needs one), so this module reads
and writes the tables directly, per backend. The source is read in one snapshot (a read
transaction) and the target is written in one transaction: a copy that fails half way leaves
the target as it was. Both stores are opened first, which brings both schemas up to date.
Stop the bot before copying: moves made during the copy are not in the snapshot.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import sqlite3
import sys
import tempfile
import urllib.parse
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AsyncExitStack, asynccontextmanager, closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol, TypeVar

from bot.engine.words import plural
from bot.store import (
    StoreUnavailable,
    missing_sqlite_file,
    open_store,
    opened_store,
    redact_url,
)
from bot.store.base import Store, StoreError
from bot.store.sqlite import SqliteStore

GameRow = tuple[
    int,
    int,
    int | None,
    str,
    str,
    str,
    str,
    int,
    str,
    int | None,
    float,
    float,
    str | None,
    float | None,
    float | None,
]
MoveRow = tuple[int, int, int, str, str | None, float]
ResultRow = tuple[int, str, int | None, float, str, str, str, str, str, bool, str]
SettingsRow = tuple[int, int | None, str, int | None]
LobbyRow = tuple[Any, ...]  # the columns of LOBBY_COLUMNS, in order
Counts = tuple[int, int, int, int]  # games, moves, results, guild settings

GAME_COLUMNS: Final = (
    "id",
    "channel_id",
    "guild_id",
    "game_key",
    "seats",
    "options",
    "state",
    "version",
    "status",
    "message_id",
    "created_at",
    "updated_at",
    "initial_state",
    "turn_deadline",
    "remind_at",
)
MOVE_COLUMNS: Final = ("game_id", "seq", "seat", "action", "interaction_id", "created_at")
RESULT_COLUMNS: Final = (
    "game_id",
    "game_key",
    "guild_id",
    "finished_at",
    "seats",
    "names",
    "ranks",
    "scores",
    "options",
    "counted",
    "details",
)
SETTINGS_COLUMNS: Final = ("guild_id", "turn_seconds", "on_timeout", "reaction_seconds")
LOBBY_COLUMNS: Final = (
    "id",
    "channel_id",
    "guild_id",
    "host_id",
    "game_key",
    "data",
    "status",
    "version",
    "expires_at",
    "created_at",
    "game_id",
    "message_id",
    "rematch_of",
    "open_seats",
)
# Small tables copied whole, replacing the target's (a target without games is a fresh
# deployment): the daily deal's secret, so today's deal stays today's deal, who has been
# dealt it, so nobody is dealt it twice, and the timers' heartbeats. Each column with the type
# both drivers agree on.
WHOLE_TABLES: Final[dict[str, tuple[tuple[str, type], ...]]] = {
    "secrets": (("name", str), ("value", str)),
    "daily_claims": (
        ("guild_id", int),
        ("game_key", str),
        ("day", str),
        ("user_id", int),
        ("created_at", float),
    ),
    # When each shard last swept the timers: the first start on the target gives the games'
    # running deadlines the time the bot was down, the copy's included (Store.resume_timers).
    "timer_heartbeats": (("shard_count", int), ("shard_id", int), ("alive_at", float)),
}
BATCH_GAMES: Final = 500  # games (with all their moves) read per round trip


class TargetNotEmpty(StoreError):
    """The target store already holds games; copying needs ``--force``."""


@dataclass(frozen=True)
class CopyReport:
    """What was copied."""

    games: int
    moves: int
    results: int = 0
    guild_settings: int = 0


R = TypeVar("R")


class DamagedSource(ValueError):
    """A source row holding what its columns cannot (SQLite keeps any text in any column):
    said of the row, where the copy stopped on a bare "invalid literal for int()"."""


def _checked(
    what: Callable[[Sequence[Any]], str],
) -> Callable[[Callable[[Sequence[Any]], R]], Callable[[Sequence[Any]], R]]:
    """A row converter that names the row (``what``) when one of its values does not convert;
    raised in the copy's transaction, it leaves the target as it was."""

    def wrap(convert: Callable[[Sequence[Any]], R]) -> Callable[[Sequence[Any]], R]:
        def checked(row: Sequence[Any]) -> R:
            try:
                return convert(row)
            except (TypeError, ValueError) as exc:
                raise DamagedSource(
                    f"the source's {what(row)} is damaged ({exc}); mend or delete it there and "
                    "copy again; nothing was written"
                ) from exc

        return checked

    return wrap


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _opt_float(value: Any) -> float | None:
    return None if value is None else float(value)


@_checked(lambda row: f"game {row[0]!r}")
def _game_row(row: Sequence[Any]) -> GameRow:
    """A game row with Python types fixed, whatever the driver returned."""
    return (
        int(row[0]),
        int(row[1]),
        _opt_int(row[2]),
        str(row[3]),
        str(row[4]),
        str(row[5]),
        str(row[6]),
        int(row[7]),
        str(row[8]),
        _opt_int(row[9]),
        float(row[10]),
        float(row[11]),
        None if row[12] is None else str(row[12]),
        _opt_float(row[13]),
        _opt_float(row[14]),
    )


@_checked(lambda row: f"move {row[1]!r} of game {row[0]!r}")
def _move_row(row: Sequence[Any]) -> MoveRow:
    return (
        int(row[0]),
        int(row[1]),
        int(row[2]),
        str(row[3]),
        None if row[4] is None else str(row[4]),
        float(row[5]),
    )


@_checked(lambda row: f"result of game {row[0]!r}")
def _result_row(row: Sequence[Any]) -> ResultRow:
    # SQLite hands ``counted`` back as 0/1; PostgreSQL's COPY wants a real boolean.
    return (
        int(row[0]),
        str(row[1]),
        _opt_int(row[2]),
        float(row[3]),
        str(row[4]),
        str(row[5]),
        str(row[6]),
        str(row[7]),
        str(row[8]),
        bool(row[9]),
        str(row[10]),
    )


@_checked(lambda row: f"settings row of server {row[0]!r}")
def _settings_row(row: Sequence[Any]) -> SettingsRow:
    return (int(row[0]), _opt_int(row[1]), str(row[2]), _opt_int(row[3]))


@_checked(lambda row: f"invitation {row[0]!r}")
def _closed_lobby_row(row: Sequence[Any]) -> LobbyRow:
    """The newest lobby, closed (``_keep_lobby_ids``): an open one is marked expired at its
    next version, as the sweep would, since the other open lobbies are not copied."""
    status, version = str(row[6]), int(row[7])
    if status == "open":
        status, version = "expired", version + 1
    return (
        int(row[0]),
        int(row[1]),
        _opt_int(row[2]),
        int(row[3]),
        str(row[4]),
        str(row[5]),
        status,
        version,
        float(row[8]),
        float(row[9]),
        _opt_int(row[10]),
        _opt_int(row[11]),
        _opt_int(row[12]),
        _opt_int(row[13]),
    )


class _Reader(Protocol):
    async def counts(self) -> Counts: ...
    async def games_after(self, after_id: int, limit: int) -> list[GameRow]: ...
    async def moves_of(self, first_id: int, last_id: int) -> list[MoveRow]: ...
    async def results_of(self, first_id: int, last_id: int) -> list[ResultRow]: ...
    async def settings(self) -> list[SettingsRow]: ...
    async def whole(self, table: str) -> list[tuple[Any, ...]]: ...
    async def newest_lobby(self) -> tuple[LobbyRow | None, int]: ...
    async def highest_game(self) -> int: ...


class _Writer(Protocol):
    async def counts(self) -> Counts: ...
    async def clear(self) -> None: ...
    async def add(
        self, games: Sequence[GameRow], moves: Sequence[MoveRow], results: Sequence[ResultRow]
    ) -> None: ...
    async def add_settings(self, settings: Sequence[SettingsRow]) -> None: ...
    async def replace_whole(self, table: str, rows: Sequence[tuple[Any, ...]]) -> None: ...
    async def keep_lobby_ids(self, newest: LobbyRow | None, highest: int) -> None: ...
    async def finish(self, highest_game: int = 0) -> None: ...


_SELECT_GAMES: Final = f"SELECT {', '.join(GAME_COLUMNS)} FROM games"
_SELECT_MOVES: Final = f"SELECT {', '.join(MOVE_COLUMNS)} FROM moves"
_SELECT_RESULTS: Final = f"SELECT {', '.join(RESULT_COLUMNS)} FROM results"
_SELECT_SETTINGS: Final = (
    f"SELECT {', '.join(SETTINGS_COLUMNS)} FROM guild_settings ORDER BY guild_id"
)
_COUNTS: Final = (
    "SELECT (SELECT COUNT(*) FROM games), (SELECT COUNT(*) FROM moves),"
    " (SELECT COUNT(*) FROM results), (SELECT COUNT(*) FROM guild_settings)"
)
_SELECT_NEWEST_LOBBY: Final = (
    f"SELECT {', '.join(LOBBY_COLUMNS)} FROM lobbies ORDER BY id DESC LIMIT 1"
)
# DO NOTHING: a target copied into with --force may hold that lobby, or an open one for the
# same rematch, already; its own ids are then past it anyway.
_INSERT_LOBBY: Final = (
    f"INSERT INTO lobbies ({', '.join(LOBBY_COLUMNS)})"
    f" VALUES ({', '.join(f'${n}' for n in range(1, len(LOBBY_COLUMNS) + 1))})"
    " ON CONFLICT DO NOTHING"
)
_LOBBY_SEQUENCE: Final = "pg_get_serial_sequence('lobbies', 'id')"
# A SQLite table's floor (migration 0013): new ids go past it, and it never goes back.
_RAISE_FLOOR: Final = (
    "INSERT INTO id_floors (name, floor) VALUES (?, ?)"
    " ON CONFLICT (name) DO UPDATE SET floor = MAX(floor, excluded.floor)"
)
_FLOOR: Final = "SELECT COALESCE(MAX(floor), 0) FROM id_floors WHERE name = ?"
# Children before their games (results and moves reference games).
_CLEAR: Final = ("results", "moves", "games", "guild_settings")


def _whole_select(table: str) -> str:
    names = ", ".join(name for name, _ in WHOLE_TABLES[table])
    return f"SELECT {names} FROM {table} ORDER BY {names}"


def _whole_row(table: str, row: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(kind(value) for (_, kind), value in zip(WHOLE_TABLES[table], row, strict=True))


def _whole_columns(table: str) -> tuple[str, ...]:
    return tuple(name for name, _ in WHOLE_TABLES[table])


def _counts(row: Sequence[Any]) -> Counts:
    return int(row[0]), int(row[1]), int(row[2]), int(row[3])


class _SqliteSide:
    """Reads or writes a SQLite store through its own connection (inside its lock)."""

    def __init__(self, db: Any) -> None:
        self._db = db

    async def _rows(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        return list(await self._db.execute_fetchall(sql, parameters))

    async def counts(self) -> Counts:
        [row] = await self._rows(_COUNTS)
        return _counts(row)

    async def games_after(self, after_id: int, limit: int) -> list[GameRow]:
        rows = await self._rows(
            f"{_SELECT_GAMES} WHERE id > ? ORDER BY id LIMIT ?", (after_id, limit)
        )
        return [_game_row(row) for row in rows]

    async def moves_of(self, first_id: int, last_id: int) -> list[MoveRow]:
        rows = await self._rows(
            f"{_SELECT_MOVES} WHERE game_id BETWEEN ? AND ? ORDER BY game_id, seq",
            (first_id, last_id),
        )
        return [_move_row(row) for row in rows]

    async def results_of(self, first_id: int, last_id: int) -> list[ResultRow]:
        rows = await self._rows(
            f"{_SELECT_RESULTS} WHERE game_id BETWEEN ? AND ? ORDER BY game_id",
            (first_id, last_id),
        )
        return [_result_row(row) for row in rows]

    async def settings(self) -> list[SettingsRow]:
        return [_settings_row(row) for row in await self._rows(_SELECT_SETTINGS)]

    async def whole(self, table: str) -> list[tuple[Any, ...]]:
        return [_whole_row(table, row) for row in await self._rows(_whole_select(table))]

    async def _floor(self, table: str) -> int:
        [row] = await self._rows(_FLOOR, (table,))
        return int(row[0])

    async def _highest(self, table: str) -> int:
        """The highest id ``table`` has handed out: its highest row, or its floor (0013)."""
        [row] = await self._rows(f"SELECT COALESCE(MAX(id), 0) FROM {table}")
        return max(int(row[0]), await self._floor(table))

    async def _raise_floor(self, table: str, highest: int) -> None:
        if highest > 0:
            await self._rows(_RAISE_FLOOR, (table, highest))

    async def newest_lobby(self) -> tuple[LobbyRow | None, int]:
        # The newest row, which neither the sweep nor forget-member deletes, or the floor.
        rows = await self._rows(_SELECT_NEWEST_LOBBY)
        newest = _closed_lobby_row(rows[0]) if rows else None
        return newest, await self._highest("lobbies")

    async def highest_game(self) -> int:
        return await self._highest("games")

    async def keep_lobby_ids(self, newest: LobbyRow | None, highest: int) -> None:
        # SQLite numbers a new row one above the highest row: the newest lobby copied keeps
        # the ids past it, and the floor past the source's highest id handed out (above the
        # newest row on a PostgreSQL source whose newest lobbies were deleted).
        if newest is not None:
            await self._rows(_INSERT_LOBBY.replace("$", "?"), newest)
        await self._raise_floor("lobbies", highest)

    async def clear(self) -> None:
        # The games replaced keep their ids from being handed out again: their old messages'
        # buttons carry them (--force onto a database whose games went past the source's).
        await self._raise_floor("games", await self._highest("games"))
        for table in _CLEAR:
            await self._rows(f"DELETE FROM {table}")

    async def replace_whole(self, table: str, rows: Sequence[tuple[Any, ...]]) -> None:
        await self._rows(f"DELETE FROM {table}")
        await self._insert(table, _whole_columns(table), rows)

    async def _insert(self, table: str, columns: Sequence[str], rows: Sequence[Any]) -> None:
        marks = ", ".join("?" for _ in columns)
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
        async with self._db.executemany(sql, rows):
            pass

    async def add(
        self, games: Sequence[GameRow], moves: Sequence[MoveRow], results: Sequence[ResultRow]
    ) -> None:
        await self._insert("games", GAME_COLUMNS, games)
        await self._insert("moves", MOVE_COLUMNS, moves)
        await self._insert("results", RESULT_COLUMNS, results)

    async def add_settings(self, settings: Sequence[SettingsRow]) -> None:
        await self._insert("guild_settings", SETTINGS_COLUMNS, settings)

    async def finish(self, highest_game: int = 0) -> None:
        # New games are numbered past the largest row and the floor: past the source's highest
        # id handed out too, as on PostgreSQL.
        await self._raise_floor("games", highest_game)


class _PostgresSide:
    """Reads or writes a PostgreSQL store through one connection of its pool."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def counts(self) -> Counts:
        return _counts(await self._conn.fetchrow(_COUNTS))

    async def games_after(self, after_id: int, limit: int) -> list[GameRow]:
        rows = await self._conn.fetch(
            f"{_SELECT_GAMES} WHERE id > $1 ORDER BY id LIMIT $2", after_id, limit
        )
        return [_game_row(tuple(row)) for row in rows]

    async def moves_of(self, first_id: int, last_id: int) -> list[MoveRow]:
        rows = await self._conn.fetch(
            f"{_SELECT_MOVES} WHERE game_id BETWEEN $1 AND $2 ORDER BY game_id, seq",
            first_id,
            last_id,
        )
        return [_move_row(tuple(row)) for row in rows]

    async def results_of(self, first_id: int, last_id: int) -> list[ResultRow]:
        rows = await self._conn.fetch(
            f"{_SELECT_RESULTS} WHERE game_id BETWEEN $1 AND $2 ORDER BY game_id",
            first_id,
            last_id,
        )
        return [_result_row(tuple(row)) for row in rows]

    async def settings(self) -> list[SettingsRow]:
        return [_settings_row(tuple(row)) for row in await self._conn.fetch(_SELECT_SETTINGS)]

    async def whole(self, table: str) -> list[tuple[Any, ...]]:
        rows = await self._conn.fetch(_whole_select(table))
        return [_whole_row(table, tuple(row)) for row in rows]

    async def replace_whole(self, table: str, rows: Sequence[tuple[Any, ...]]) -> None:
        await self._conn.execute(f"DELETE FROM {table}")
        await self._conn.copy_records_to_table(table, records=rows, columns=_whole_columns(table))

    async def newest_lobby(self) -> tuple[LobbyRow | None, int]:
        row = await self._conn.fetchrow(_SELECT_NEWEST_LOBBY)
        # The identity's sequence may have handed out ids above the newest row: a lobby whose
        # creation rolled back, or one deleted (a member forgotten before it kept the newest).
        handed = await self._conn.fetchval(
            f"SELECT pg_sequence_last_value({_LOBBY_SEQUENCE}::regclass)"
        )
        newest = None if row is None else _closed_lobby_row(tuple(row))
        return newest, max(0 if newest is None else int(newest[0]), int(handed or 0))

    async def highest_game(self) -> int:
        # As for lobbies: the sequence may be past the highest row (a creation rolled back).
        return int(
            await self._conn.fetchval(
                "SELECT GREATEST(COALESCE((SELECT MAX(id) FROM games), 0), COALESCE("
                "pg_sequence_last_value(pg_get_serial_sequence('games', 'id')::regclass), 0))"
            )
        )

    async def keep_lobby_ids(self, newest: LobbyRow | None, highest: int) -> None:
        if newest is not None:
            await self._conn.execute(_INSERT_LOBBY, *newest)
        # Rows come in with explicit ids, which an identity column does not notice: its
        # sequence goes past the source's highest id handed out, and never back (a target
        # copied into with --force keeps its own past ids too).
        await self._conn.execute(
            f"SELECT setval({_LOBBY_SEQUENCE}, ids.highest) FROM (SELECT GREATEST($1,"
            " (SELECT COALESCE(MAX(id), 0) FROM lobbies),"
            f" COALESCE(pg_sequence_last_value({_LOBBY_SEQUENCE}::regclass), 0)) AS highest) ids"
            " WHERE ids.highest > 0",
            highest,
        )

    async def clear(self) -> None:
        for table in _CLEAR:
            await self._conn.execute(f"DELETE FROM {table}")

    async def add(
        self, games: Sequence[GameRow], moves: Sequence[MoveRow], results: Sequence[ResultRow]
    ) -> None:
        # COPY is the bulk path: one round trip per batch instead of one per row.
        await self._conn.copy_records_to_table("games", records=games, columns=GAME_COLUMNS)
        await self._conn.copy_records_to_table("moves", records=moves, columns=MOVE_COLUMNS)
        await self._conn.copy_records_to_table("results", records=results, columns=RESULT_COLUMNS)

    async def add_settings(self, settings: Sequence[SettingsRow]) -> None:
        await self._conn.copy_records_to_table(
            "guild_settings", records=settings, columns=SETTINGS_COLUMNS
        )

    async def finish(self, highest_game: int = 0) -> None:
        # Games came in with explicit ids, which an identity column does not notice: move its
        # sequence past the largest id so the next new game does not collide with a copied one,
        # and never back: a target copied into with --force keeps numbering past the games it
        # held, whose old messages' buttons carry their ids.
        await self._conn.execute(
            "SELECT setval(pg_get_serial_sequence('games', 'id'), GREATEST(ids.highest, 1),"
            " ids.highest > 0) FROM (SELECT GREATEST($1, COALESCE((SELECT MAX(id) FROM games),"
            " 0), COALESCE(pg_sequence_last_value(pg_get_serial_sequence('games', 'id')"
            "::regclass), 0)) AS highest) ids",
            highest_game,
        )


def _postgres_pool(store: Store) -> Any:
    from bot.store.postgres import PostgresStore

    if isinstance(store, PostgresStore):
        return store.pool
    raise TypeError(f"cannot copy games from or to {store!r}")


@asynccontextmanager
async def _snapshot(store: Store) -> AsyncIterator[_Reader]:
    """A reader that sees the store as of one moment, for the whole copy."""
    if isinstance(store, SqliteStore):
        async with store._reading() as db:
            # A deferred read transaction: in WAL mode it reads one snapshot until COMMIT.
            await db.execute_fetchall("BEGIN")
            try:
                yield _SqliteSide(db)
            finally:
                await db.execute_fetchall("COMMIT")
        return
    async with (
        _postgres_pool(store).acquire() as conn,
        conn.transaction(isolation="repeatable_read", readonly=True),
    ):
        yield _PostgresSide(conn)


@asynccontextmanager
async def _transaction(store: Store) -> AsyncIterator[_Writer]:
    """A writer whose work is committed only if the whole copy succeeds."""
    if isinstance(store, SqliteStore):
        async with store._writing() as db:
            yield _SqliteSide(db)
        return
    async with _postgres_pool(store).acquire() as conn, conn.transaction():
        # Nobody else may add games while the copy decides on ids and moves the sequence.
        await conn.execute(
            "LOCK TABLE games, moves, results, guild_settings, secrets, daily_claims"
            " IN EXCLUSIVE MODE"
        )
        yield _PostgresSide(conn)


def _same_database(source: Store, target: Store) -> bool:
    if isinstance(source, SqliteStore) and isinstance(target, SqliteStore):
        if source.is_memory or target.is_memory:
            return False  # every :memory: store is a database of its own
        return Path(source.path).resolve() == Path(target.path).resolve()
    return repr(source) == repr(target)


async def copy_store(
    source: Store, target: Store, *, force: bool = False, batch: int = BATCH_GAMES
) -> CopyReport:
    """Copy every game, move, result and guild setting from ``source`` to ``target`` (both
    open), and the daily deal's secret and claims (``WHOLE_TABLES``).

    Raises TargetNotEmpty when the target holds any of those and ``force`` is false; with
    ``force`` the target's rows are deleted first, in the same transaction as the copy.
    """
    if _same_database(source, target):
        raise ValueError("the source and the target are the same database")
    async with AsyncExitStack() as stack:
        reader = await stack.enter_async_context(_snapshot(source))
        writer = await stack.enter_async_context(_transaction(target))
        held = await writer.counts()
        if any(held):
            if not force:
                raise TargetNotEmpty(
                    f"the target already holds {_describe(held)}; use --force to replace them"
                )
            await writer.clear()
        last_id = 0
        while games := await reader.games_after(last_id, batch):
            first_id, last_id = games[0][0], games[-1][0]
            await writer.add(
                games,
                await reader.moves_of(first_id, last_id),
                await reader.results_of(first_id, last_id),
            )
        await writer.add_settings(await reader.settings())
        for table in WHOLE_TABLES:
            await writer.replace_whole(table, await reader.whole(table))
        await writer.keep_lobby_ids(*await reader.newest_lobby())
        await writer.finish(await reader.highest_game())
        expected, copied = await reader.counts(), await writer.counts()
        if copied != expected:  # raising here rolls the target back
            raise StoreError(
                f"copied {_describe(copied)} but the source has {_describe(expected)}; "
                "nothing was written"
            )
    return CopyReport(games=copied[0], moves=copied[1], results=copied[2], guild_settings=copied[3])


def _describe(counts: Counts) -> str:
    games, moves, results, settings = counts
    return (
        f"{plural(games, 'game')}, {plural(moves, 'move')}, {plural(results, 'result')} and "
        f"{plural(settings, 'guild setting')}"
    )


async def migrate_db(source_url: str, target_url: str, *, force: bool = False) -> CopyReport:
    """Open both stores by URL (migrating their schemas) and copy ``source_url`` into the other."""
    source, target = open_store(source_url), open_store(target_url)
    if _same_database(source, target):
        raise ValueError("the source and the target are the same database")
    for store, role in ((source, "source"), (target, "target")):
        if isinstance(store, SqliteStore) and store.is_memory:
            # Each opened empty and gone when the command ends: the copy was reported done,
            # "copied 0 games" from one, every game "copied" into nowhere to the other.
            raise ValueError(
                f"the {role} sqlite://:memory: is a database in memory, empty when opened and "
                "gone when the command ends; name a database file or a PostgreSQL server"
            )
    if missing_sqlite_file(source):
        # Opening it would create an empty database and "copy" nothing: most likely a typo.
        raise ValueError(f"the source database {source.path} does not exist")
    for store in (source, target):
        held = _bot_running_on(store)
        if held is not None:
            # Moves made while the games are copied would be left behind in the source.
            raise ValueError(f"a Junction bot is running on {held}: stop it first")
    with tempfile.TemporaryDirectory(prefix="junction-migrate-") as folder:
        if isinstance(source, SqliteStore) and not source.is_memory and not _writable(source.path):
            # A source is only read, but opening a store writes (WAL mode, the migrations):
            # one this account may not write (a read-only mount, a backup kept read-only) was
            # refused ("attempt to write a readonly database"). Read from a copy of it instead.
            copy = await asyncio.to_thread(_readable_copy, source.path, folder, source_url)
            try:
                source = await opened_store(copy)
            except StoreUnavailable as exc:
                # Said of the database named, not of the temporary copy nobody asked for.
                said = str(exc).replace(copy, redact_url(source_url), 1)
                raise StoreUnavailable(said) from exc
        else:
            source = await opened_store(source_url)
        try:
            target = await opened_store(target_url)
            try:
                return await copy_store(source, target, force=force)
            finally:
                await target.close()
        finally:
            await source.close()


def _writable(path: str) -> bool:
    """Whether this account may write the SQLite file and its folder (its -wal and -shm)."""
    folder = os.path.dirname(os.path.abspath(path))
    return os.access(path, os.W_OK) and os.access(folder, os.W_OK | os.X_OK)


def _readable_copy(path: str, folder: str, url: str) -> str:
    """Copy the SQLite database at ``path`` into ``folder`` through SQLite, reading it only;
    the copy's path. StoreUnavailable, naming ``url``, when it cannot be read."""
    copy = os.path.join(folder, "source.db")
    location = "file:" + urllib.parse.quote(os.path.abspath(path))
    wal = Path(path + "-wal")
    try:
        # With no -wal file left (the last program on it closed cleanly), the file alone is
        # the whole database, read as one that cannot change: SQLite then makes no -shm file
        # beside it (which it could not in a read-only folder, and would leave behind in
        # another). Otherwise SQLite must read the -wal too, through its -shm.
        settled = not wal.exists() or wal.stat().st_size == 0
        reader = sqlite3.connect(f"{location}?{'immutable=1' if settled else 'mode=ro'}", uri=True)
        try:
            with closing(sqlite3.connect(copy)) as writer:
                reader.backup(writer)
        finally:
            reader.close()
    except (OSError, sqlite3.Error) as exc:
        raise StoreUnavailable(
            f"cannot read the database {redact_url(url)}: {str(exc).strip() or type(exc).__name__}"
        ) from exc
    return copy


def _bot_running_on(store: Store) -> str | None:
    """The SQLite file when a bot holds its lock (``junction.db.lock``, taken by
    ``bot.client`` while the bot runs), else None."""
    if not isinstance(store, SqliteStore) or store.is_memory:
        return None
    try:
        with open(store.lock_path) as claim:
            fcntl.flock(claim, fcntl.LOCK_EX | fcntl.LOCK_NB)  # let go as the file closes
    except BlockingIOError:
        return store.path
    except OSError:
        return None  # no lock file: no bot has run on it
    return None


def migrate_main(source_url: str, target_url: str, *, force: bool = False) -> int:
    """The ``junction migrate-db`` command: copy, print a summary, return the exit status.

    Like the other ``junction`` commands, what the operator asked for that cannot be done (a
    source that does not exist, a URL that does not open, a target already holding games without
    ``--force``) is one line "junction migrate-db: …" and exit status 2. A copy that went wrong
    (its counts differ from the source's; the target was rolled back) is exit status 1.
    """
    shown = f"{redact_url(source_url)} to {redact_url(target_url)}"
    try:
        report = asyncio.run(migrate_db(source_url, target_url, force=force))
    except (ValueError, TargetNotEmpty, StoreUnavailable) as exc:
        print(f"junction migrate-db: {exc}", file=sys.stderr)
        return 2
    except StoreError as exc:
        print(f"junction migrate-db: {exc}", file=sys.stderr)
        return 1
    print(
        f"copied {plural(report.games, 'game')} and {plural(report.moves, 'move')} "
        f"({plural(report.results, 'result')}, {plural(report.guild_settings, 'guild setting')})"
        f" from {shown}"
    )
    return 0
