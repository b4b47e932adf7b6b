"""Shared pieces of the store tests: sample games, a move helper and the Backend handle."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.base import DailyClaim, Invitee, LobbyRecord, SeatRecord, Store, StoredGame
from bot.store.migrations import apply_migrations, load_migrations
from bot.store.sql import numbered_qmarks
from bot.store.sqlite import SqliteStore

LATEST_SCHEMA = load_migrations()[-1].version
"""The schema version a store opened today leaves a database at."""

SEATS = (
    SeatRecord(seat=0, name="Ada", user_id=123456789012345678),
    SeatRecord(seat=1, name="Computer", policy="greedy"),
)
STATE: dict[str, Any] = {"turn": 0, "hands": [["200", "hazard:flat"], []], "scores": {"0": 0}}


async def new_game(
    store: Store, channel_id: int = 42, daily: DailyClaim | None = None
) -> StoredGame:
    return await store.create_game(
        channel_id=channel_id,
        guild_id=7,
        game_key="mille",
        seats=SEATS,
        options={"target": "1000"},
        state=STATE,
        daily=daily,
    )


async def finished_game(
    store: Store,
    *,
    channel_id: int,
    guild_id: int | None,
    game_key: str,
    seats: Sequence[SeatRecord],
    options: Mapping[str, str] | None = None,
) -> StoredGame:
    """A game of ``seats`` stored and ended "finished" before any move (no state: the tests
    that use it look at its result only)."""
    game = await store.create_game(
        channel_id=channel_id,
        guild_id=guild_id,
        game_key=game_key,
        seats=seats,
        options=options or {},
        state={},
    )
    return await store.end_game(game_id=game.id, expected_version=0, status="finished", state={})


async def move(store: Store, game: StoredGame, n: int, **kw: Any) -> StoredGame:
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


@dataclass
class Backend:
    """One database of one kind, with the raw access the tests need beside the Store API."""

    name: str
    url: str
    path: Path | None = None  # the SQLite file

    def store(self, **kwargs: Any) -> Store:
        """A new, unopened store on this database (another connection or pool each time)."""
        if self.name == "sqlite":
            assert self.path is not None
            return SqliteStore(self.path, **kwargs)
        from bot.store.postgres import PostgresStore

        return PostgresStore(self.url, **kwargs)

    async def raw(self, sql: str) -> list[tuple[Any, ...]]:
        """Run one statement on a connection of its own; its rows as tuples."""
        if self.name == "sqlite":
            assert self.path is not None
            conn = sqlite3.connect(self.path)
            try:
                with conn:
                    return conn.execute(sql).fetchall()
            finally:
                conn.close()
        import asyncpg

        pg = await asyncpg.connect(self.url)
        try:
            return [tuple(row) for row in await pg.fetch(sql)]
        finally:
            await pg.close()

    async def plan(self, sql: str, *args: Any) -> str:
        """How the database would run ``sql`` (``$n`` placeholders, bound to ``args``): SQLite's
        ``EXPLAIN QUERY PLAN`` details, or PostgreSQL's ``EXPLAIN``, one line each.

        PostgreSQL is told to avoid reading whole tables where it can: a test's tables are
        tiny, and would be read whole whatever the indexes; the question is whether an index
        serves the query at all."""
        if self.name == "sqlite":
            assert self.path is not None
            conn = sqlite3.connect(self.path)
            try:
                query = f"EXPLAIN QUERY PLAN {numbered_qmarks(sql)}"
                return "\n".join(str(row[3]) for row in conn.execute(query, args))
            finally:
                conn.close()
        import asyncpg

        pg = await asyncpg.connect(self.url)
        try:
            await pg.execute("SET enable_seqscan = off")
            return "\n".join(str(row[0]) for row in await pg.fetch(f"EXPLAIN {sql}", *args))
        finally:
            await pg.close()

    async def migrate_to(self, version: int) -> None:
        """Give this empty database the schema of ``version`` (the first migrations only), as
        an older release left it."""
        if self.name == "sqlite":
            assert self.path is not None
            async with aiosqlite.connect(self.path, isolation_level=None) as db:
                await apply_migrations(db, load_migrations("sqlite")[:version])
            return
        import asyncpg

        from bot.store.postgres import apply_postgres_migrations

        conn = await asyncpg.connect(self.url)
        try:
            await apply_postgres_migrations(conn, load_migrations("postgresql")[:version])
        finally:
            await conn.close()

    async def break_state_updates(self, store: Store) -> type[Exception]:
        """Make every UPDATE of ``games.state`` fail with 'boom'; the error type it raises."""
        if self.name == "sqlite":
            assert isinstance(store, SqliteStore)
            # A TEMP trigger lives on the store's own connection, so it goes in through it.
            async with store._reading() as db:
                await db.execute(
                    "CREATE TEMP TRIGGER boom BEFORE UPDATE OF state ON games"
                    " BEGIN SELECT RAISE(ABORT, 'boom'); END"
                )
            return sqlite3.IntegrityError
        import asyncpg

        await self.raw(
            "CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql"
            " AS $$ BEGIN RAISE EXCEPTION 'boom'; END $$"
        )
        await self.raw(
            "CREATE TRIGGER boom BEFORE UPDATE OF state ON games"
            " FOR EACH ROW EXECUTE FUNCTION boom()"
        )
        return asyncpg.RaiseError  # type: ignore[no-any-return]


def lobby_record(**changes: object) -> LobbyRecord:
    """A Dragon lobby on channel 42 hosted by Ann (id 1), inviting Bob and Cy; ``changes``
    override any field."""
    values: dict[str, object] = {
        "id": 0,
        "channel_id": 42,
        "guild_id": 7,
        "game_key": "dragon",
        "host_id": 1,
        "host_name": "Ann",
        "invited": (Invitee(2, "Bob"), Invitee(3, "Cy")),
        "options": {"oil_slick": "off"},
        "computers": 2,
        "policy": "normal",
        "thread": False,
        "status": "open",
        "expires_at": 1000.0,
        "created_at": 10.0,
    }
    values.update(changes)
    return LobbyRecord(**values)  # type: ignore[arg-type]


# An open /challenge lobby as releases before migrations 0005 and 0006 stored it.
OLD_CHALLENGE_ROW = (
    "INSERT INTO lobbies (channel_id, guild_id, host_id, game_key, data, status,"
    " expires_at, created_at, message_id) VALUES (42, 7, 1, 'mille',"
    ' \'{"host_name": "Ann", "invited": [[2, "Bob", "pending"]], "options": {},'
    ' "computers": 0, "policy": "normal", "thread": false}\', \'open\', 900.0, 10.0, 55)'
)
