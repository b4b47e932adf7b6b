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

import re
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, Final

from bot.store.base import (
    DailyClaim,
    GuildSettings,
    LobbyRecord,
    MoveRecord,
    Store,
    StoredGame,
    StoredResult,
    TimerDue,
)
from bot.store.rows import (
    GAME_COLUMNS,
    LOBBY_COLUMNS,
    MOVE_COLUMNS,
    NO_RESULT,
    OPEN_LOBBIES_OF,
    RESULT_SELECT,
    SETTINGS_SELECT,
    TIMERS_DUE_WHERE,
    RowLike,
    game_from_row,
    guild_settings_from_row,
    load_object,
    lobby_from_row,
    member_pattern,
    move_from_row,
    open_lobbies_from_rows,
    results_filter,
    seated,
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


class SqlStore(Store):
    """The ``Store`` methods both SQL backends share, over the backend's three primitives."""

    @abstractmethod
    async def _read(self, sql: str, *args: Any) -> Sequence[RowLike]:
        """The rows of one statement (``$n`` placeholders), outside any write transaction."""

    # -- games ----------------------------------------------------------------------------------

    async def _game(self, where: str, *args: Any) -> StoredGame | None:
        rows = await self._read(f"SELECT {GAME_COLUMNS} FROM games {where}", *args)
        return game_from_row(rows[0]) if rows else None

    async def _games(self, where: str, *args: Any) -> list[StoredGame]:
        rows = await self._read(f"SELECT {GAME_COLUMNS} FROM games {where}", *args)
        return [game_from_row(row) for row in rows]

    async def get_game(self, game_id: int) -> StoredGame | None:
        return await self._game("WHERE id = $1", game_id)

    async def active_game(self, channel_id: int) -> StoredGame | None:
        return await self._game("WHERE channel_id = $1 AND status = 'active'", channel_id)

    async def active_games(self) -> list[StoredGame]:
        return await self._games("WHERE status = 'active' ORDER BY id")

    async def finished_without_result(self) -> list[StoredGame]:
        return await self._games(NO_RESULT)

    async def last_finished_game(self, channel_id: int) -> StoredGame | None:
        return await self._game(
            "WHERE channel_id = $1 AND status = 'finished' ORDER BY updated_at DESC, id DESC"
            " LIMIT 1",
            channel_id,
        )

    async def moves(self, game_id: int) -> list[MoveRecord]:
        """The move log in order."""
        rows = await self._read(
            f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = $1 ORDER BY seq", game_id
        )
        return [move_from_row(row) for row in rows]

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

    # -- results --------------------------------------------------------------------------------

    async def results(
        self,
        *,
        game_key: str | None = None,
        guild_id: int | None = None,
        since: float | None = None,
        user_id: int | None = None,
    ) -> list[StoredResult]:
        where, parameters = results_filter(game_key=game_key, guild_id=guild_id, since=since)
        rows = await self._read(
            f"{RESULT_SELECT}{where} ORDER BY r.finished_at, r.game_id", *parameters
        )
        return seated([stored_result(row) for row in rows], user_id)

    # -- turn timers ----------------------------------------------------------------------------

    async def timers_due(self, now: float) -> list[TimerDue]:
        rows = await self._read(
            f"SELECT {GAME_COLUMNS} FROM games WHERE {TIMERS_DUE_WHERE} ORDER BY id", now
        )
        return timers_from_rows(rows, game_from_row, now)

    # -- guild settings -------------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        rows = await self._read(
            f"SELECT {SETTINGS_SELECT} FROM guild_settings WHERE guild_id = $1", guild_id
        )
        return guild_settings_from_row(guild_id, rows[0] if rows else None)

    # -- lobbies, abort votes, daily claims -----------------------------------------------------

    async def get_lobby(self, lobby_id: int) -> LobbyRecord | None:
        rows = await self._read(f"SELECT {LOBBY_COLUMNS} FROM lobbies WHERE id = $1", lobby_id)
        return lobby_from_row(rows[0]) if rows else None

    async def open_lobbies_of(self, user_id: int, guild_id: int, now: float) -> list[LobbyRecord]:
        rows = await self._read(
            OPEN_LOBBIES_OF.format(columns=LOBBY_COLUMNS),
            guild_id,
            now,
            user_id,
            member_pattern(user_id),
        )
        return open_lobbies_from_rows(rows, user_id)

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
