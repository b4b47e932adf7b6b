"""What the SQLite and PostgreSQL stores do alike, written once: the statements that read and
change games, results, settings and lobbies, and the Python around them (``SqlStore``).

A backend gives ``SqlStore`` three things: one statement read on its own (``_read``), one
statement written in a transaction of its own (``_write``), and a transaction for several
statements (``_transaction``). Statements here use PostgreSQL's numbered placeholders ``$1``,
``$2``…; the SQLite store spells them ``?1``, ``?2`` (``numbered_qmarks``), which bind the same
parameters by number, so a parameter used twice is passed once in both.

What differs stays in each backend's module: connecting and closing, migrations, how a move is
stored (SQLite checks the version by hand inside ``BEGIN IMMEDIATE``; PostgreSQL writes it in one
conditional statement), how a new game's or lobby's id comes back, how the rematch race is
decided, and the drivers' errors.
"""

from __future__ import annotations

import asyncio
import itertools
import re
from abc import abstractmethod
from collections.abc import Callable, Collection, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from functools import lru_cache
from typing import Any, ClassVar, Final, Protocol

from bot.ratings import ResultRecord
from bot.store.base import (
    VOIDED,
    DailyClaim,
    Forgotten,
    GameRewrite,
    GuildSettings,
    LobbyRecord,
    MoveRecord,
    NumberedResults,
    Resumed,
    Shards,
    StaleVersion,
    Store,
    StoredGame,
    StoredResult,
    StoreError,
    TimerDue,
    VoidState,
)
from bot.store.heartbeats import (
    HEARTBEATS,
    MOVED_SINCE,
    OPENED_SINCE,
    SHIFT_LOBBIES,
    SHIFT_TIMERS,
    downtimes,
    heartbeat_upsert,
    last_sweeps,
)
from bot.store.rows import (
    ANONYMISE_LOBBY,
    DELETE_CLOSED_LOBBIES,
    EXPIRE_UNREADABLE_LOBBY,
    GAME_COLUMNS,
    LOBBIES_DUE,
    LOBBIES_TO_RESHOW,
    LOBBY_COLUMNS,
    MEMBER_RESULT_SELECT,
    MOVE_COLUMNS,
    NO_RESULT,
    NUMBERED_RESULT_SELECT,
    OPEN_LOBBIES_OF,
    RESULT_COLUMNS,
    RESULT_SELECT,
    SET_SETTINGS,
    SETTINGS_SELECT,
    TIMERS_DUE_WHERE,
    RowLike,
    as_seated,
    check_all_prepared,
    damaged_seats,
    dump_json,
    forgotten_result,
    former_names,
    game_from_row,
    guild_settings_from_row,
    guild_settings_row,
    load_object,
    lobbies_due_from_rows,
    lobby_anonymised,
    lobby_from_row,
    lobby_names,
    lobby_update_row,
    member_pattern,
    move_from_row,
    open_lobbies_from_rows,
    optional_int,
    result_row,
    results_filter,
    results_order,
    seat_freed,
    seat_to_json,
    seats_from_json,
    seats_name,
    shard_condition,
    stored_result,
    timers_from_rows,
)

_NUMBERED: Final = re.compile(r"\$(\d+)")


@lru_cache(maxsize=512)
def numbered_qmarks(sql: str) -> str:
    """``sql`` with PostgreSQL's ``$n`` placeholders spelled as SQLite's ``?n``.

    Cached: the statements are a small fixed set (filters and shards vary only a little).
    No statement here has a ``$`` of its own (values always go in as parameters).
    """
    return _NUMBERED.sub(r"?\1", sql)


LAST_FINISHED_IN: Final = (
    "WHERE channel_id = $1 AND status = 'finished' ORDER BY updated_at DESC, id DESC LIMIT 1"
)
"""``Store.last_finished_game`` (/replay): ``$1`` is the channel. Migration 0009's index
``games_by_channel`` serves it whole (tests/store/test_games_by_channel.py)."""


def last_finished_of(keys: int) -> str:
    """``LAST_FINISHED_IN`` of ``keys`` games only: ``$2`` onwards are their keys. The index
    still gives the channel's finished games newest first; the rows of other games are passed
    over (a plug-in game uninstalled since: /replay falls back on an older game)."""
    listed = ", ".join(f"${n}" for n in range(2, keys + 2))
    return LAST_FINISHED_IN.replace(" ORDER BY", f" AND game_key IN ({listed}) ORDER BY", 1)


ABORTED_IN: Final = (
    "SELECT id, seats FROM games WHERE channel_id = $1 AND status = 'aborted' AND +id > $2"
    " AND seats LIKE $3 ORDER BY updated_at DESC, id DESC LIMIT $4 OFFSET $5"
)
"""``Store.last_aborted_game_of`` (/replay: was the member's own last game here aborted?), a
page at a time: ``$1`` the channel, ``$2`` the id the games are above, ``$3``
``member_pattern``, ``$4`` the page's size and ``$5`` the rows before it. The seats only, not
the states, found through the index ``games_by_channel``: ``+id`` keeps SQLite from taking the
index of games by status and id instead (every aborted game, of every channel)."""

ABORTED_PAGE: Final = 64
"""Rows an ``ABORTED_IN`` page reads: the first row is nearly always the member's (only an id
holding theirs among its digits, a false friend of the pattern, is skipped)."""


class Sql(Protocol):
    """A connection inside a write transaction, taking statements with ``$n`` placeholders."""

    async def fetch(self, sql: str, *args: Any) -> Sequence[RowLike]:
        """The rows the statement returns."""
        ...

    async def execute(self, sql: str, *args: Any) -> int:
        """How many rows the statement changed."""
        ...


def _counted_results(rows: Sequence[Any]) -> list[StoredResult]:
    """Result rows parsed, the voided ones (``VOIDED``) left out."""
    return [r for r in map(stored_result, rows) if VOIDED not in r.record.options]


def _counted_rows(rows: Sequence[Any]) -> list[tuple[StoredResult, int]]:
    """Numbered result rows parsed with their numbers, the voided ones (``VOIDED``) left out."""
    parsed = ((stored_result(row), int(row["seq"])) for row in rows)
    return [(stored, number) for stored, number in parsed if VOIDED not in stored.record.options]


MEMBERS_LOBBIES: Final = f"SELECT {LOBBY_COLUMNS} FROM lobbies WHERE host_id = $1 OR data LIKE $2"
"""The lobbies that may name a member (``lobby_names`` decides): ``$1`` their id, ``$2`` its
``member_pattern``."""


def _lobby_fate(row: RowLike, user_id: int, newest: Any) -> str | None:
    """What forgetting ``user_id`` does to a lobby row: ``freed`` (their seat, at an open table
    another member hosts), ``kept`` (the newest lobby, never deleted: SQLite would hand its id
    out again, to a lobby an old message's buttons then name; closed, without them, as
    ``delete_closed_lobbies`` keeps it), ``deleted``; None when it does not name them."""
    try:
        names = lobby_names(row, user_id)
    except (StoreError, TypeError, ValueError, IndexError):
        # Invitations too damaged to read: one holding the member's id in its text goes (or
        # is kept with no data, the newest), as an unreadable one already did once found.
        # As an error it stopped forgetting them everywhere.
        names = str(user_id) in str(row["data"])
    if not names:
        return None
    if seat_freed(row, user_id) is not None:
        return "freed"
    return "kept" if row["id"] == newest else "deleted"


_CANCELLED: Final = "status = 'cancelled', version = version + 1"
"""A lobby closed by a moderator's deletion: its version moves on, so a press that read it
before changes nothing."""


class SqlStore(Store):
    """The ``Store`` methods both SQL backends share, over the backend's three primitives."""

    _clock: Callable[[], float]

    # Dialect bits of shared statements. ``_HOLD_GAMES`` runs first in ``forget_member``'s
    # transaction, ``_HOLD_ROW`` ends ``record_result``'s read of the game's seats: a backend
    # whose write transactions do not already exclude each other sets them (see PostgresStore).
    _HOLD_GAMES: ClassVar[str | None] = None
    _HOLD_ROW: ClassVar[str] = ""
    # Runs just before a result is written: a backend that numbers results before commit and
    # lets writers commit in any order sets it, so results commit in the order they are
    # numbered (``results_after`` relies on it; see PostgresStore).
    _HOLD_RESULTS: ClassVar[str | None] = None
    # Runs first in ``resume_timers``' transaction: a backend whose write transactions do not
    # already exclude each other sets it, so two processes resume one after the other.
    _HOLD_HEARTBEATS: ClassVar[str | None] = None
    # What the driver raises when a statement breaks a unique index (``update_lobby``).
    _CONFLICT: ClassVar[tuple[type[Exception], ...]]
    # The highest game id handed out (``highest_game_id``): past the newest row where the
    # newest rows are gone, which each backend remembers in its own way.
    _HIGHEST_GAME: ClassVar[str]

    @abstractmethod
    async def _read(self, sql: str, *args: Any) -> Sequence[RowLike]:
        """The rows of one statement (``$n`` placeholders), outside any write transaction."""

    @abstractmethod
    async def _write(self, sql: str, *args: Any) -> int:
        """One statement in a transaction of its own; how many rows it changed."""

    @abstractmethod
    def _transaction(self) -> AbstractAsyncContextManager[Sql]:
        """A write transaction: committed when the block ends, rolled back if it raises."""

    # -- games -------------------------------------------------------------------------------------

    async def _game(self, where: str, *args: Any) -> StoredGame | None:
        rows = await self._read(f"SELECT {GAME_COLUMNS} FROM games {where}", *args)
        return game_from_row(rows[0]) if rows else None

    async def _games(self, where: str, *args: Any) -> list[StoredGame]:
        rows = await self._read(f"SELECT {GAME_COLUMNS} FROM games {where}", *args)
        # Parsing every state is CPU work: 2 000 games in play took 0.4 s, and /daily, /settings
        # and /mygames read that many. Off the event loop, as results are (``results_after``).
        return await asyncio.to_thread(lambda: [game_from_row(row) for row in rows])

    async def get_game(self, game_id: int) -> StoredGame | None:
        return await self._game("WHERE id = $1", game_id)

    async def highest_game_id(self) -> int:
        rows = await self._read(self._HIGHEST_GAME)
        return int(rows[0]["highest"])

    async def active_game(self, channel_id: int) -> StoredGame | None:
        return await self._game("WHERE channel_id = $1 AND status = 'active'", channel_id)

    async def active_games(self) -> list[StoredGame]:
        return await self._games("WHERE status = 'active' ORDER BY id")

    async def finished_without_result(self) -> list[StoredGame]:
        return await self._games(NO_RESULT)

    async def last_finished_game(
        self, channel_id: int, game_keys: Collection[str] | None = None
    ) -> StoredGame | None:
        if game_keys is None:
            return await self._game(LAST_FINISHED_IN, channel_id)
        if not game_keys:
            return None
        keys = sorted(set(game_keys))
        return await self._game(last_finished_of(len(keys)), channel_id, *keys)

    async def moves(self, game_id: int) -> list[MoveRecord]:
        """The move log in order."""
        rows = await self._read(
            f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = $1 ORDER BY seq", game_id
        )
        return [move_from_row(row) for row in rows]

    async def set_message(self, game_id: int, message_id: int | None, version: int) -> bool:
        """Remember the table message (Discord) of the game at ``version``, unless it has moved
        on (``Store.set_message``).

        Neither the version nor ``updated_at`` changes: the message is presentation, and a
        version bump here would turn a player's concurrent move into a StaleVersion.
        """
        if await self._write(
            "UPDATE games SET message_id = $2 WHERE id = $1 AND version = $3",
            game_id,
            message_id,
            version,
        ):
            return True
        # Nothing updated: tell a game that moved on from one that does not exist (a game is
        # never deleted, so reading after the update is no race).
        if not await self._read("SELECT 1 FROM games WHERE id = $1", game_id):
            raise StoreError(f"there is no game {game_id}")
        return False

    async def forget_table_messages(self, channel_id: int, message_ids: Collection[int]) -> int:
        # The games_by_channel index reads only this channel's games.
        return await self._on_deleted(
            "games", "message_id = NULL", "channel_id = $1", channel_id, message_ids
        )

    async def close_deleted_lobbies(self, channel_id: int, message_ids: Collection[int]) -> int:
        # Through the open lobbies' index by message (migration 0014).
        return await self._on_deleted(
            "lobbies", _CANCELLED, "status = 'open' AND channel_id = $1", channel_id, message_ids
        )

    async def forget_channel_tables(self, channel_id: int) -> int:
        # A deleted thread's or channel's messages are gone without a MESSAGE_DELETE each.
        return await self._on_deleted(
            "games", "message_id = NULL", "channel_id = $1 AND message_id IS NOT NULL", channel_id
        )

    async def close_channel_lobbies(self, channel_id: int) -> int:
        # Through the open lobbies' index by channel (migration 0015). One with no message
        # stored (its process died posting it) goes too: nobody can press it there either.
        return await self._on_deleted(
            "lobbies", _CANCELLED, "status = 'open' AND channel_id = $1", channel_id
        )

    async def _on_deleted(
        self,
        table: str,
        changes: str,
        rows: str,
        channel_id: int,
        message_ids: Collection[int] | None = None,
    ) -> int:
        """``UPDATE {table} SET {changes}`` the ``rows`` (a condition on ``$1``, the channel)
        whose message is among ``message_ids``, which a moderator deleted (None: the whole
        channel or thread was deleted, every row of ``rows``); how many. Any deleted chat
        message (or thread) on any server asks this, so a read decides first: only a deleted
        table or invitation takes the write lock the moves wait on."""
        if message_ids is None:
            message_ids = ()
            where = f" WHERE {rows}"
        elif not message_ids:
            return 0
        else:
            listed = ", ".join(f"${n}" for n in range(2, len(message_ids) + 2))
            where = f" WHERE {rows} AND message_id IN ({listed})"
        if not await self._read(f"SELECT 1 FROM {table}{where} LIMIT 1", channel_id, *message_ids):
            return 0
        return await self._write(f"UPDATE {table} SET {changes}{where}", channel_id, *message_ids)

    async def initial_state(self, game_id: int) -> Mapping[str, Any] | None:
        rows = await self._read("SELECT initial_state FROM games WHERE id = $1", game_id)
        if not rows or rows[0]["initial_state"] is None:
            return None
        return load_object(rows[0]["initial_state"], "initial state")

    async def games_of_member(self, user_id: int, *, active: bool = False) -> list[StoredGame]:
        in_play = " AND status = 'active'" if active else ""
        games = await self._games(
            f"WHERE seats LIKE $1{in_play} ORDER BY id", member_pattern(user_id)
        )
        return [g for g in games if any(s.user_id == user_id for s in g.seats)]

    async def last_aborted_game_of(
        self, user_id: int, channel_id: int, after: int = 0
    ) -> StoredGame | None:
        # Seats only, the last ended first, a page at a time: reading and parsing every game the
        # member played here took 2 s for 20 000 solitaires in one channel, before /replay could
        # answer (Discord gives it three).
        pattern = member_pattern(user_id)
        for skip in itertools.count(0, ABORTED_PAGE):
            rows = await self._read(ABORTED_IN, channel_id, after, pattern, ABORTED_PAGE, skip)
            for row in rows:
                if seats_name(row["seats"], user_id):
                    return await self.get_game(int(row["id"]))
            if len(rows) < ABORTED_PAGE:
                break
        return None

    async def forget_member(
        self, user_id: int, *, alias: int, name: str, games: Sequence[GameRewrite]
    ) -> Forgotten:
        pattern = member_pattern(user_id)
        async with self._transaction() as tx:
            if self._HOLD_GAMES is not None:
                await tx.execute(self._HOLD_GAMES)
            # The rewrites were made before this transaction: a game the member started since
            # (the bot runs meanwhile) would keep their id and name, and record a result so.
            seating = await tx.fetch("SELECT id, seats FROM games WHERE seats LIKE $1", pattern)
            check_all_prepared(seating, user_id, {game.game_id for game in games})
            for game in games:
                initial = None if game.initial_state is None else dump_json(game.initial_state)
                if not await tx.execute(
                    "UPDATE games SET seats = $1, state = $2,"
                    " initial_state = COALESCE($3, initial_state)"
                    " WHERE id = $4 AND status != 'active'",
                    dump_json([seat_to_json(s) for s in game.seats]),
                    dump_json(game.state),
                    initial,
                    game.game_id,
                ):
                    raise StoreError(f"game {game.game_id} is in play or gone")
            results = 0
            unread: list[int] = []
            renamed = former_names(games, alias)
            # By the seats themselves, not their index (result_members): what forgets a member
            # reads what is stored, and it is an operator's rare command. The rewrite of the
            # seats rewrites the index too (migration 0017's triggers).
            for row in await tx.fetch(
                "SELECT game_id, seats, names FROM results WHERE seats LIKE $1", pattern
            ):
                try:
                    changed = forgotten_result(
                        row, user_id, alias, renamed.get(int(row["game_id"]), name)
                    )
                except StoreError:
                    # Left as it is and named: one damaged result stopped the whole command
                    # in a traceback, the member forgotten nowhere.
                    unread.append(int(row["game_id"]))
                    continue
                if changed is not None:
                    await tx.execute(
                        "UPDATE results SET seats = $1, names = $2 WHERE game_id = $3",
                        *changed,
                        row["game_id"],
                    )
                    results += 1
            await tx.execute(
                "UPDATE daily_claims SET user_id = $1 WHERE user_id = $2", alias, user_id
            )
            await tx.execute("DELETE FROM abort_votes WHERE user_id = $1", user_id)
            lobbies = kept = seats = 0
            newest = (await tx.fetch("SELECT MAX(id) AS id FROM lobbies"))[0]["id"]
            for row in await tx.fetch(MEMBERS_LOBBIES, user_id, pattern):
                fate = _lobby_fate(row, user_id, newest)
                if fate == "kept":
                    await tx.execute(
                        ANONYMISE_LOBBY, *lobby_anonymised(row, user_id, alias, name), row["id"]
                    )
                    kept += 1
                elif fate == "deleted":
                    await tx.execute("DELETE FROM lobbies WHERE id = $1", row["id"])
                    lobbies += 1
                elif fate == "freed":
                    freed = seat_freed(row, user_id)
                    assert freed is not None
                    await tx.execute(
                        "UPDATE lobbies SET data = $1, version = version + 1 WHERE id = $2",
                        lobby_update_row(freed)[0],
                        freed.id,
                    )
                    seats += 1
        return Forgotten(
            games=len(games),
            results=results,
            lobbies=lobbies,
            seats=seats,
            kept=kept,
            damaged_games=damaged_seats(seating),
            damaged_results=tuple(unread),
        )

    async def forget_preview(self, user_id: int) -> Forgotten:
        # The same rows and the same choices as ``forget_member``, read only: a dry run on a
        # database this account may only read, and counts that are the real run's.
        pattern = member_pattern(user_id)
        games = await self.games_of_member(user_id)
        seating = await self._read("SELECT id, seats FROM games WHERE seats LIKE $1", pattern)
        results, unread = 0, []
        for row in await self._read(
            "SELECT game_id, seats, names FROM results WHERE seats LIKE $1", pattern
        ):
            try:
                results += forgotten_result(row, user_id, -1, "") is not None
            except StoreError:
                unread.append(int(row["game_id"]))
        newest = (await self._read("SELECT MAX(id) AS id FROM lobbies"))[0]["id"]
        fates = [
            _lobby_fate(row, user_id, newest)
            for row in await self._read(MEMBERS_LOBBIES, user_id, pattern)
        ]
        return Forgotten(
            games=len(games),
            results=results,
            lobbies=fates.count("deleted"),
            seats=fates.count("freed"),
            kept=fates.count("kept"),
            damaged_games=damaged_seats(seating),
            damaged_results=tuple(unread),
        )

    # -- results -----------------------------------------------------------------------------------

    async def record_result(self, record: ResultRecord, names: Sequence[str]) -> None:
        """Store a finished game's result; a second call for the same game changes nothing."""
        async with self._transaction() as tx:
            # The game's seats as they stand: a member may have been forgotten since the
            # caller read them (the game ended as ``junction forget-member`` ran).
            found = await tx.fetch(
                f"SELECT seats FROM games WHERE id = $1{self._HOLD_ROW}", record.game_id
            )
            if found:
                record, names = as_seated(record, names, seats_from_json(found[0]["seats"]))
            row = result_row(record, names)
            if self._HOLD_RESULTS is not None:
                await tx.execute(self._HOLD_RESULTS)
            marks = ", ".join(f"${n}" for n in range(1, len(row) + 1))
            # DO NOTHING keeps the first record: the seam may record again after a retry, and
            # two processes may race to record the same game.
            await tx.execute(
                f"INSERT INTO results ({RESULT_COLUMNS}) VALUES ({marks})"
                " ON CONFLICT (game_id) DO NOTHING",
                *row,
            )

    async def results(
        self,
        *,
        game_key: str | None = None,
        guild_id: int | None = None,
        since: float | None = None,
        user_id: int | None = None,
        newest: int | None = None,
    ) -> list[StoredResult]:
        where, parameters = results_filter(
            game_key=game_key, guild_id=guild_id, since=since, user_id=user_id
        )
        # A member's results through their index (migration 0017): only their rows are read.
        select = RESULT_SELECT if user_id is None else MEMBER_RESULT_SELECT
        if newest is not None:
            return await self._newest_results(
                f"{select}{where}{results_order(user_id, newest=True)}", parameters, max(newest, 0)
            )
        rows = await self._read(f"{select}{where}{results_order(user_id)}", *parameters)
        # Reading a big server's rows is tens of milliseconds a thousand rows: in a thread, so
        # the event loop answers other channels meanwhile.
        return await asyncio.to_thread(_counted_results, rows)

    async def _newest_results(
        self, query: str, parameters: list[Any], newest: int
    ) -> list[StoredResult]:
        """The first ``newest`` results of ``query`` (newest first), given back oldest first:
        /history shows a member's last games, and reading every one of a member's thousands to
        keep ten took about a second. Voided results are left out after reading, so a read
        that comes back short of its limit is the whole list; one that does not may have lost
        rows to them, and reads twice as many."""
        limit = newest
        while True:
            rows = await self._read(f"{query} LIMIT {limit}", *parameters)
            # Parsed in a thread as the whole list is: a read that went back far is many rows.
            found = await asyncio.to_thread(_counted_results, rows)
            if len(found) >= newest or len(rows) < limit:
                return found[:newest][::-1]
            limit *= 2

    async def results_after(
        self, *, game_key: str, guild_id: int | None, after: int = 0
    ) -> NumberedResults:
        where, parameters = results_filter(game_key=game_key, guild_id=guild_id, since=None)
        parameters.append(after)
        query = (
            f"{NUMBERED_RESULT_SELECT}{where} AND r.seq > ${len(parameters)}"
            " ORDER BY r.finished_at, r.game_id"
        )
        count = "SELECT changes FROM result_numbers"
        # The order of the two reads is what makes them safe (``NumberedResults``): results
        # numbered at or below ``after`` only ever go (a delete) or change (an update), and
        # either moves the count on; results are numbered in the order they commit.
        if after:
            rows = await self._read(query, *parameters)
            changes = await self._read(count)
        else:
            changes = await self._read(count)
            rows = await self._read(query, *parameters)
        counted = await asyncio.to_thread(_counted_rows, rows)
        return NumberedResults(
            results=tuple(stored for stored, _ in counted),
            numbers=tuple(number for _, number in counted),
            changes=int(changes[0]["changes"]),
        )

    async def result_state(self, game_id: int) -> tuple[VoidState, str]:
        state, options = await self._result_state(self._read, game_id)
        labels = (
            {} if options is None or state == "damaged" else load_object(options, "result options")
        )
        return state, str(labels.get(VOIDED, ""))

    async def void_result(self, game_id: int, reason: str | None) -> VoidState:
        async with self._transaction() as tx:
            state, options = await self._result_state(tx.fetch, game_id)
            if state != ("counted" if reason is not None else "voided") or options is None:
                return state
            labels = load_object(options, "result options")
            if reason is None:
                labels.pop(VOIDED, None)
            else:
                labels[VOIDED] = reason
            # ``options`` is among the columns whose update moves ``result_numbers.changes``
            # on (migration 0008's triggers): a running bot's kept ladders read it at their
            # next read and are rebuilt from the results as they now stand. Only if the row is
            # as read: another void at the same moment (PostgreSQL) changes nothing twice.
            if not await tx.execute(
                "UPDATE results SET options = $1 WHERE game_id = $2 AND options = $3",
                dump_json(labels),
                game_id,
                options,
            ):
                return "voided" if reason is not None else "counted"
        return state

    @staticmethod
    async def _result_state(
        fetch: Callable[..., Any], game_id: int
    ) -> tuple[VoidState, str | None]:
        """The game's ``VoidState`` and its result's options as stored (None without one)."""
        games = await fetch("SELECT status FROM games WHERE id = $1", game_id)
        if not games:
            return "no game", None
        status = str(games[0]["status"])
        if status != "finished":
            return ("in play" if status == "active" else "aborted"), None
        rows = await fetch("SELECT options FROM results WHERE game_id = $1", game_id)
        if not rows:
            return "no result", None
        options = str(rows[0]["options"])
        try:
            labels = load_object(options, "result options")
        except StoreError:
            # Neither counted nor voided can be told, nor a void written without losing the
            # options: said so, where it ended ``junction void-game`` in a traceback.
            return "damaged", options
        return ("voided" if VOIDED in labels else "counted"), options

    # -- turn timers -------------------------------------------------------------------------------

    async def set_timer(
        self,
        game_id: int,
        *,
        remind_at: float | None,
        deadline: float | None,
        expected_version: int | None = None,
    ) -> bool:
        if expected_version is None:
            written = await self._write(
                "UPDATE games SET remind_at = $2, turn_deadline = $3 WHERE id = $1",
                game_id,
                remind_at,
                deadline,
            )
        else:
            written = await self._write(
                "UPDATE games SET remind_at = $2, turn_deadline = $3"
                " WHERE id = $1 AND version = $4",
                game_id,
                remind_at,
                deadline,
                expected_version,
            )
        if written:
            return True
        if expected_version is None or await self.get_game(game_id) is None:
            raise StoreError(f"there is no game {game_id}")
        return False

    async def timers_due(self, now: float) -> list[TimerDue]:
        rows = await self._read(
            f"SELECT {GAME_COLUMNS} FROM games WHERE {TIMERS_DUE_WHERE} ORDER BY id", now
        )
        return timers_from_rows(rows, game_from_row, now)

    async def heartbeat(self, shards: Shards, now: float) -> None:
        await self._write(heartbeat_upsert(shards), now)

    async def resume_timers(self, shards: Shards, now: float, *, started: float) -> Resumed:
        moved = 0
        lobbies: list[int] = []
        async with self._transaction() as tx:
            if self._HOLD_HEARTBEATS is not None:
                # Two processes starting at once must not both read the rows from before the
                # downtime: a game on no server would be given the time twice.
                await tx.execute(self._HOLD_HEARTBEATS)
            for since, games in downtimes(await tx.fetch(HEARTBEATS), shards):
                if since < now:
                    query = SHIFT_TIMERS.format(games=games, since=MOVED_SINCE)
                    moved += await tx.execute(query, now, since, started)
                    # The same shards' invitations and open tables: one clock for both.
                    query = SHIFT_LOBBIES.format(lobbies=games, since=OPENED_SINCE)
                    rows = await tx.fetch(query, now, since, started)
                    lobbies += (int(row["id"]) for row in rows)
            await tx.execute(heartbeat_upsert(shards), now)
        return Resumed(moved, tuple(sorted(lobbies)))

    async def last_sweeps(self, shards: Shards) -> dict[int, float]:
        return last_sweeps(await self._read(HEARTBEATS), shards)

    # -- guild settings ----------------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        rows = await self._read(
            f"SELECT {SETTINGS_SELECT} FROM guild_settings WHERE guild_id = $1", guild_id
        )
        return guild_settings_from_row(guild_id, rows[0] if rows else None)

    async def set_guild_settings(self, settings: GuildSettings) -> None:
        await self._write(SET_SETTINGS, *guild_settings_row(settings))

    # -- lobbies, abort votes, daily claims, secrets -----------------------------------------------

    async def get_lobby(self, lobby_id: int) -> LobbyRecord | None:
        rows = await self._read(f"SELECT {LOBBY_COLUMNS} FROM lobbies WHERE id = $1", lobby_id)
        return lobby_from_row(rows[0]) if rows else None

    async def update_lobby(self, lobby: LobbyRecord, expected_version: int) -> LobbyRecord:
        try:
            changed = await self._write(
                "UPDATE lobbies SET data = $1, status = $2, game_id = $3,"
                " message_id = COALESCE($4, message_id), version = version + 1"
                " WHERE id = $5 AND version = $6",
                *lobby_update_row(lobby),
                lobby.id,
                expected_version,
            )
        except self._CONFLICT as exc:
            # Reopened (a start given back) while another invitation to its rematch opened.
            raise StaleVersion(f"another invitation to lobby {lobby.id}'s rematch is open") from exc
        if not changed:
            raise StaleVersion(f"lobby {lobby.id} changed or does not exist")
        return replace(lobby, version=expected_version + 1)

    async def set_lobby_message(self, lobby_id: int, message_id: int) -> bool:
        async with self._transaction() as tx:
            await tx.execute(
                "UPDATE lobbies SET message_id = $2 WHERE id = $1 AND message_id IS NULL",
                lobby_id,
                message_id,
            )
            rows = await tx.fetch("SELECT message_id FROM lobbies WHERE id = $1", lobby_id)
        if not rows:
            raise StoreError(f"there is no lobby {lobby_id}")
        return optional_int(rows[0]["message_id"]) == message_id

    async def open_lobbies_of(self, user_id: int, guild_id: int, now: float) -> list[LobbyRecord]:
        rows = await self._read(
            OPEN_LOBBIES_OF.format(columns=LOBBY_COLUMNS),
            guild_id,
            now,
            user_id,
            member_pattern(user_id),
        )
        return open_lobbies_from_rows(rows, user_id)

    async def lobbies_due(
        self, now: float, limit: int, shards: Shards | None = None
    ) -> list[LobbyRecord]:
        query = LOBBIES_DUE.format(columns=LOBBY_COLUMNS, shards=shard_condition(shards))
        due, unreadable = lobbies_due_from_rows(await self._read(query, now, limit))
        if unreadable:
            async with self._transaction() as tx:
                for row in unreadable:
                    await tx.execute(EXPIRE_UNREADABLE_LOBBY, row["id"], row["version"])
        return due

    async def lobbies_to_reshow(self, limit: int, shards: Shards | None = None) -> list[int]:
        query = LOBBIES_TO_RESHOW.format(shards=shard_condition(shards))
        return [int(row["id"]) for row in await self._read(query, limit)]

    async def lobby_reshown(self, lobby_id: int, version: int) -> bool:
        # Presentation, as a table's message: the version does not move, so a press under way
        # is not turned into a StaleVersion.
        return bool(
            await self._write(
                "UPDATE lobbies SET reshow = 0 WHERE id = $1 AND version = $2", lobby_id, version
            )
        )

    async def delete_closed_lobbies(
        self, before: float, limit: int, shards: Shards | None = None
    ) -> int:
        query = DELETE_CLOSED_LOBBIES.format(shards=shard_condition(shards))
        return await self._write(query, before, limit)

    async def games_in_play_of(self, user_id: int, guild_id: int) -> list[tuple[int, int]]:
        rows = await self._read(
            "SELECT id, channel_id, seats FROM games WHERE status = 'active' AND guild_id = $1"
            " AND seats LIKE $2 ORDER BY id",
            guild_id,
            member_pattern(user_id),
        )
        return [
            (int(row["id"]), int(row["channel_id"]))
            for row in rows
            if seats_name(row["seats"], user_id)
        ]

    async def claim_seating(self, user_id: int, guild_id: int, holder: str, lease: float) -> bool:
        now = self._clock()
        # One statement: the primary key lets one of two claims at the same moment insert; a
        # claim past its lease is taken over in place.
        return bool(
            await self._write(
                "INSERT INTO seating_claims (user_id, guild_id, holder, until)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT (user_id, guild_id) DO UPDATE"
                " SET holder = excluded.holder, until = excluded.until"
                " WHERE seating_claims.until < $5",
                user_id,
                guild_id,
                holder,
                now + lease,
                now,
            )
        )

    async def release_seating(self, user_id: int, guild_id: int, holder: str) -> None:
        await self._write(
            "DELETE FROM seating_claims WHERE user_id = $1 AND guild_id = $2 AND holder = $3",
            user_id,
            guild_id,
            holder,
        )

    async def add_abort_vote(self, game_id: int, user_id: int) -> frozenset[int]:
        async with self._transaction() as tx:
            await tx.execute(
                "INSERT INTO abort_votes (game_id, user_id, created_at) VALUES ($1, $2, $3)"
                " ON CONFLICT (game_id, user_id) DO NOTHING",
                game_id,
                user_id,
                self._clock(),
            )
            rows = await tx.fetch("SELECT user_id FROM abort_votes WHERE game_id = $1", game_id)
        return frozenset(int(row["user_id"]) for row in rows)

    async def abort_votes(self, game_id: int) -> frozenset[int]:
        rows = await self._read("SELECT user_id FROM abort_votes WHERE game_id = $1", game_id)
        return frozenset(int(row["user_id"]) for row in rows)

    async def daily_claimed(self, claim: DailyClaim) -> bool:
        rows = await self._read(
            "SELECT 1 FROM daily_claims WHERE guild_id = $1 AND game_key = $2 AND day = $3"
            " AND user_id = $4",
            claim.guild_id,
            claim.game_key,
            claim.day,
            claim.user_id,
        )
        return bool(rows)

    async def secret(self, name: str, make: Callable[[], str]) -> str:
        async with self._transaction() as tx:
            await tx.execute(
                "INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
                name,
                make(),
            )
            rows = await tx.fetch("SELECT value FROM secrets WHERE name = $1", name)
        return str(rows[0]["value"])
