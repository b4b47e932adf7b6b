"""``junction migrate-db FROM TO``: copy every game and move from one store to another.

The usual trip is SQLite → PostgreSQL when one bot process becomes several shards, but any
pair of store URLs works (SQLite → SQLite makes a compacted copy, PostgreSQL → SQLite a local
snapshot). Rows are copied column for column, so game ids, versions, statuses, snapshots and
interaction ids survive unchanged and buttons already posted in Discord keep working.

The Store interface has no "every game" query (a bot never needs one), so this module reads
and writes the two tables directly, per backend. The source is read in one snapshot (a read
transaction) and the target is written in one transaction: a copy that fails half way leaves
the target as it was. Both stores are opened first, which brings both schemas up to date.
Stop the bot before copying: moves made during the copy are not in the snapshot.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol

from bot.store import open_store, redact_url
from bot.store.base import Store, StoreError
from bot.store.sqlite import SqliteStore

GameRow = tuple[int, int, int | None, str, str, str, str, int, str, int | None, float, float]
MoveRow = tuple[int, int, int, str, str | None, float]

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
)
MOVE_COLUMNS: Final = ("game_id", "seq", "seat", "action", "interaction_id", "created_at")
BATCH_GAMES: Final = 500  # games (with all their moves) read per round trip


class TargetNotEmpty(StoreError):
    """The target store already holds games; copying needs ``--force``."""


@dataclass(frozen=True)
class CopyReport:
    """What was copied."""

    games: int
    moves: int


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


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
    )


def _move_row(row: Sequence[Any]) -> MoveRow:
    return (
        int(row[0]),
        int(row[1]),
        int(row[2]),
        str(row[3]),
        None if row[4] is None else str(row[4]),
        float(row[5]),
    )


class _Reader(Protocol):
    async def counts(self) -> tuple[int, int]: ...
    async def games_after(self, after_id: int, limit: int) -> list[GameRow]: ...
    async def moves_of(self, first_id: int, last_id: int) -> list[MoveRow]: ...


class _Writer(Protocol):
    async def counts(self) -> tuple[int, int]: ...
    async def clear(self) -> None: ...
    async def add(self, games: Sequence[GameRow], moves: Sequence[MoveRow]) -> None: ...
    async def finish(self) -> None: ...


_SELECT_GAMES: Final = f"SELECT {', '.join(GAME_COLUMNS)} FROM games"
_SELECT_MOVES: Final = f"SELECT {', '.join(MOVE_COLUMNS)} FROM moves"
_COUNTS: Final = "SELECT (SELECT COUNT(*) FROM games), (SELECT COUNT(*) FROM moves)"


class _SqliteSide:
    """Reads or writes a SQLite store through its own connection (inside its lock)."""

    def __init__(self, db: Any) -> None:
        self._db = db

    async def _rows(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        return list(await self._db.execute_fetchall(sql, parameters))

    async def counts(self) -> tuple[int, int]:
        [(games, moves)] = await self._rows(_COUNTS)
        return int(games), int(moves)

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

    async def clear(self) -> None:
        await self._rows("DELETE FROM moves")
        await self._rows("DELETE FROM games")

    async def add(self, games: Sequence[GameRow], moves: Sequence[MoveRow]) -> None:
        for table, columns, rows in (
            ("games", GAME_COLUMNS, games),
            ("moves", MOVE_COLUMNS, moves),
        ):
            marks = ", ".join("?" for _ in columns)
            sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
            async with self._db.executemany(sql, rows):
                pass

    async def finish(self) -> None:
        """Nothing to do: an INTEGER PRIMARY KEY numbers new rows after the largest id."""


class _PostgresSide:
    """Reads or writes a PostgreSQL store through one connection of its pool."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def counts(self) -> tuple[int, int]:
        row = await self._conn.fetchrow(_COUNTS)
        return int(row[0]), int(row[1])

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

    async def clear(self) -> None:
        await self._conn.execute("DELETE FROM moves")
        await self._conn.execute("DELETE FROM games")

    async def add(self, games: Sequence[GameRow], moves: Sequence[MoveRow]) -> None:
        # COPY is the bulk path: one round trip per batch instead of one per row.
        await self._conn.copy_records_to_table("games", records=games, columns=GAME_COLUMNS)
        await self._conn.copy_records_to_table("moves", records=moves, columns=MOVE_COLUMNS)

    async def finish(self) -> None:
        # Games came in with explicit ids, which an identity column does not notice: move its
        # sequence past the largest id so the next new game does not collide with a copied one.
        await self._conn.execute(
            "SELECT setval(pg_get_serial_sequence('games', 'id'),"
            " COALESCE((SELECT MAX(id) FROM games), 1),"
            " (SELECT MAX(id) FROM games) IS NOT NULL)"
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
        await conn.execute("LOCK TABLE games, moves IN EXCLUSIVE MODE")
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
    """Copy every game and move from ``source`` to ``target`` (both open).

    Raises TargetNotEmpty when the target has games and ``force`` is false; with ``force`` the
    target's games and moves are deleted first, in the same transaction as the copy.
    """
    if _same_database(source, target):
        raise ValueError("the source and the target are the same database")
    async with AsyncExitStack() as stack:
        reader = await stack.enter_async_context(_snapshot(source))
        writer = await stack.enter_async_context(_transaction(target))
        target_games, target_moves = await writer.counts()
        if target_games or target_moves:
            if not force:
                raise TargetNotEmpty(
                    f"the target already holds {target_games} games and {target_moves} moves; "
                    "use --force to replace them"
                )
            await writer.clear()
        last_id = 0
        while games := await reader.games_after(last_id, batch):
            first_id, last_id = games[0][0], games[-1][0]
            await writer.add(games, await reader.moves_of(first_id, last_id))
        await writer.finish()
        expected, copied = await reader.counts(), await writer.counts()
        if copied != expected:  # raising here rolls the target back
            raise StoreError(
                f"copied {copied[0]} games and {copied[1]} moves but the source has "
                f"{expected[0]} and {expected[1]}; nothing was written"
            )
    return CopyReport(games=copied[0], moves=copied[1])


async def migrate_db(source_url: str, target_url: str, *, force: bool = False) -> CopyReport:
    """Open both stores by URL (migrating their schemas) and copy ``source_url`` into the other."""
    source, target = open_store(source_url), open_store(target_url)
    if _same_database(source, target):
        raise ValueError("the source and the target are the same database")
    await source.open()
    try:
        await target.open()
        try:
            return await copy_store(source, target, force=force)
        finally:
            await target.close()
    finally:
        await source.close()


def migrate_main(source_url: str, target_url: str, *, force: bool = False) -> int:
    """The ``junction migrate-db`` command: copy, print a summary, return the exit status."""
    import asyncio

    shown = f"{redact_url(source_url)} to {redact_url(target_url)}"
    try:
        report = asyncio.run(migrate_db(source_url, target_url, force=force))
    except (ValueError, StoreError) as exc:
        print(f"migrate-db: {exc}", file=sys.stderr)
        return 1
    print(f"copied {report.games} games and {report.moves} moves from {shown}")
    return 0
