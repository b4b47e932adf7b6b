"""What SQLite and PostgreSQL store alike: the SQL both dialects share and the codecs between
stored rows (JSON text in columns) and the store's records.

A damaged row never passes silently: a column that does not decode is a ``StoreError`` naming
what it was, but for a game's state, seats or options, which make it come back as a save no
game resumes (``DAMAGED_SAVE``), so that the game can still be ended.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Final, Protocol

from bot.engine.core import DAMAGED_SAVE
from bot.ratings import ResultRecord
from bot.store.base import (
    CONSOLE_CHANNEL,
    DEFAULT_REACTION_SECONDS,
    DuplicateInteraction,
    GameRewrite,
    GameStatus,
    GuildSettings,
    Invitee,
    LobbyRecord,
    MemberSeated,
    MoveRecord,
    SeatRecord,
    Shards,
    StaleVersion,
    StoredGame,
    StoredResult,
    StoreError,
    TimeoutAction,
    TimerDue,
)

log = logging.getLogger(__name__)

_STATUSES: Final[frozenset[str]] = frozenset({"active", "finished", "aborted"})

RESULT_COLUMNS: Final = (
    "game_id, game_key, guild_id, finished_at, seats, names, ranks, scores, options, counted,"
    " details"
)

# A result with its game's channel and table message (the results query joins games as g).
RESULT_SELECT: Final = (
    "SELECT r.game_id, r.game_key, r.guild_id, r.finished_at, r.seats, r.names, r.ranks,"
    " r.scores, r.options, r.counted, r.details, g.channel_id, g.message_id"
    " FROM results r JOIN games g ON g.id = r.game_id"
)

# The same with each result's number (``Store.results_after``), first.
NUMBERED_RESULT_SELECT: Final = RESULT_SELECT.replace("SELECT ", "SELECT r.seq, ", 1)

# Finished games without their result (Store.finished_without_result): the games query's
# tail. The console's games record none on purpose.
NO_RESULT: Final = (
    f" WHERE status = 'finished' AND channel_id <> {CONSOLE_CHANNEL}"
    " AND NOT EXISTS (SELECT 1 FROM results r WHERE r.game_id = games.id) ORDER BY id"
)

# The end of a game ends the turn being timed; a move sets the next timer (Store.record_move).
CLEAR_TIMER: Final = "turn_deadline = NULL, remind_at = NULL"

# Active games with a timer due ("expire" wins when both are: see timer_due). ``$1`` is the
# time. NULL compares as unknown, so a game without a timer never matches, and the partial
# indexes of migration 0002 serve both halves of the OR.
TIMERS_DUE_WHERE: Final = "status = 'active' AND (turn_deadline <= $1 OR remind_at <= $1)"


# A game row as the stores read it. initial_state is left out on purpose: only a replay reads
# it (``Store.initial_state``).
GAME_COLUMNS: Final = (
    "id, channel_id, guild_id, game_key, seats, options, state, version, status, "
    "message_id, created_at, updated_at, turn_deadline, remind_at"
)

MOVE_COLUMNS: Final = "game_id, seq, seat, action, interaction_id, created_at"


def dump_json(value: Any) -> str:
    """Compact JSON; NaN and infinities are refused because PostgreSQL's JSON has none."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _json(text: str, what: str) -> Any:
    """Stored JSON read back; a damaged value is a StoreError, never a bare decoding error."""
    try:
        return json.loads(text)
    except (TypeError, ValueError) as exc:
        raise StoreError(f"stored {what} is damaged: not valid JSON") from exc


def load_object(text: str, what: str) -> dict[str, Any]:
    value = _json(text, what)
    if not isinstance(value, dict):
        raise StoreError(f"stored {what} is not a JSON object")
    return value


def seat_to_json(seat: SeatRecord) -> dict[str, Any]:
    return {"seat": seat.seat, "name": seat.name, "user_id": seat.user_id, "policy": seat.policy}


def seats_from_json(text: str) -> tuple[SeatRecord, ...]:
    value = _json(text, "seats")
    if not isinstance(value, list):
        raise StoreError("stored seats are not a JSON list")
    seats: list[SeatRecord] = []
    for item in value:
        if not isinstance(item, dict):
            raise StoreError("a stored seat is not a JSON object")
        user_id = item.get("user_id")
        policy = item.get("policy")
        try:
            seat = SeatRecord(
                seat=int(item["seat"]),
                name=str(item["name"]),
                user_id=None if user_id is None else int(user_id),
                policy=None if policy is None else str(policy),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise StoreError("a stored seat is damaged") from exc
        seats.append(seat)
    return tuple(seats)


def seats_name(text: str, user_id: int) -> bool:
    """Whether stored seats seat ``user_id``; seats too damaged to read seat nobody, as the
    game they belong to reads (``game_from_row``), rather than failing every search of the
    member's games (/replay, the games-at-once check of /play) for one damaged row."""
    try:
        return any(s.user_id == user_id for s in seats_from_json(text))
    except StoreError:
        return False


def game_status(value: object) -> GameStatus:
    if value == "active":
        return "active"
    if value == "finished":
        return "finished"
    if value == "aborted":
        return "aborted"
    raise StoreError(f"stored game status {value!r} is not active, finished or aborted")


def check_status(status: str) -> None:
    if status not in _STATUSES:
        raise ValueError(f"status must be active, finished or aborted, not {status!r}")


def check_ending(status: str) -> None:
    """``Store.end_game``'s status: finished or aborted (a ValueError otherwise)."""
    if status == "active":
        raise ValueError("end_game needs status 'finished' or 'aborted'")
    check_status(status)


def refusal(
    row: RowLike | None,
    game_id: int,
    expected_version: int,
    interaction_id: str | None = None,
    *,
    ending: bool = False,
) -> StoreError | None:
    """Why a move (or with ``ending`` the end of the game) may not be stored on the game
    ``row`` (its ``version`` and ``status``; for a move, ``duplicate``: whether the interaction
    is in the log), None if nothing stops it. Both stores check in this order: no game, a
    repeated interaction (a repeat wins over a lost race), another version, an ended game."""
    if row is None:
        return StoreError(f"there is no game {game_id}")
    if not ending and row["duplicate"]:
        return DuplicateInteraction(f"interaction {interaction_id} was already recorded")
    version, status = int(row["version"]), str(row["status"])
    if version != expected_version:
        return StaleVersion(f"game {game_id} is at version {version}, not {expected_version}")
    if status != "active":
        if ending:
            return StoreError(f"game {game_id} is already {status}")
        return StoreError(f"game {game_id} is {status}; it takes no more moves")
    return None


def optional_int(value: Any) -> int | None:
    return None if value is None else int(value)


def optional_float(value: Any) -> float | None:
    return None if value is None else float(value)


def _load_list(text: str, what: str) -> list[Any]:
    value = _json(text, what)
    if not isinstance(value, list):
        raise StoreError(f"stored {what} is not a JSON list")
    return value


def result_row(record: ResultRecord, names: Sequence[str]) -> tuple[Any, ...]:
    """The ``results`` row of a record, in RESULT_COLUMNS order (both stores write this)."""
    if len(names) != len(record.seats):
        raise ValueError(f"a result needs one name per seat: {len(record.seats)} seats, {names!r}")
    return (
        record.game_id,
        record.game_key,
        record.guild_id,
        float(record.finished_at),
        dump_json(list(record.seats)),
        dump_json([str(name) for name in names]),
        dump_json(list(record.ranks)),
        dump_json(list(record.scores)),
        dump_json({str(k): str(v) for k, v in record.options.items()}),
        bool(record.counted),
        dump_json([{str(k): int(v) for k, v in seat.items()} for seat in record.details]),
    )


class RowLike(Protocol):
    """A database row read by column name: sqlite3.Row and asyncpg's Record both are."""

    def __getitem__(self, key: str, /) -> Any: ...


def _state(text: str) -> dict[str, Any]:
    """A game's stored state; one damaged past reading (not JSON, not an object) is handed back
    as a record of its text alone (``DAMAGED_SAVE``), which no game resumes: a store error here
    made every command in the channel fail, /abort and a new /play included, for good."""
    try:
        return load_object(text, "state")
    except StoreError:
        return {DAMAGED_SAVE: str(text)}


def game_from_row(row: RowLike, *, state_json: str | None = None) -> StoredGame:
    """A StoredGame from a row of ``GAME_COLUMNS``; ``state_json`` stands in for the row's state
    (the SQLite store's snapshot it has just written)."""
    state_text = row["state"] if state_json is None else state_json
    state = _state(state_text)
    # Damaged seats or options make the game a save no game resumes, as a damaged state does,
    # so that it can still be ended (ending writes neither column, so their text is kept). As
    # an error, one game's options made /mygames fail for the whole server, and its seats left
    # a game that no /abort could end.
    seats: tuple[SeatRecord, ...] = ()
    options: dict[str, Any] = {}
    damaged = False
    try:
        seats = seats_from_json(row["seats"])
    except StoreError:
        damaged = True
    try:
        options = load_object(row["options"], "options")
    except StoreError:
        # Seats that read are kept: the member's games are found by them (/mygames lists the
        # game as unreadable, junction forget-member renames it). Dropped with the options,
        # the game hid from both, and forgetting a member seated in it never finished.
        damaged = True
    if damaged and DAMAGED_SAVE not in state:
        state = {DAMAGED_SAVE: str(state_text)}
    try:
        return StoredGame(
            id=int(row["id"]),
            channel_id=int(row["channel_id"]),
            guild_id=optional_int(row["guild_id"]),
            game_key=str(row["game_key"]),
            seats=seats,
            options=options,
            state=state,
            version=int(row["version"]),
            status=game_status(row["status"]),
            message_id=optional_int(row["message_id"]),
            created_at=float(row["created_at"]),
            updated_at=float(row["updated_at"]),
            turn_deadline=optional_float(row["turn_deadline"]),
            remind_at=optional_float(row["remind_at"]),
        )
    except (TypeError, ValueError) as exc:
        # Text where a number is kept (SQLite keeps what is written by hand in any column).
        raise StoreError(f"stored game {row['id']} is damaged ({exc})") from exc


def move_from_row(row: RowLike) -> MoveRecord:
    """A MoveRecord from a row of ``MOVE_COLUMNS``; StoreError for a column that is not a
    number where one is kept (SQLite stores the text written by hand in any column)."""
    interaction_id = row["interaction_id"]
    try:
        return MoveRecord(
            game_id=int(row["game_id"]),
            seq=int(row["seq"]),
            seat=int(row["seat"]),
            action=str(row["action"]),
            interaction_id=None if interaction_id is None else str(interaction_id),
            created_at=float(row["created_at"]),
        )
    except (TypeError, ValueError) as exc:
        raise StoreError(f"stored move {row['seq']} of game {row['game_id']} is damaged") from exc


def stored_result(row: RowLike) -> StoredResult:
    """A StoredResult from a row of ``RESULT_SELECT`` (sqlite3.Row or asyncpg Record)."""
    options = load_object(row["options"], "result options")
    record = ResultRecord(
        game_id=int(row["game_id"]),
        game_key=str(row["game_key"]),
        guild_id=optional_int(row["guild_id"]),
        finished_at=float(row["finished_at"]),
        seats=tuple(optional_int(user) for user in _load_list(row["seats"], "result seats")),
        ranks=tuple(int(rank) for rank in _load_list(row["ranks"], "result ranks")),
        scores=tuple(int(score) for score in _load_list(row["scores"], "result scores")),
        options={str(k): str(v) for k, v in options.items()},
        counted=bool(row["counted"]),
        details=tuple(
            {str(k): int(v) for k, v in seat.items()}
            for seat in _load_list(row["details"], "result details")
        ),
    )
    return StoredResult(
        record=record,
        names=tuple(str(name) for name in _load_list(row["names"], "result names")),
        channel_id=int(row["channel_id"]),
        message_id=optional_int(row["message_id"]),
    )


# A member's results (``Store.results`` with ``user_id``): found through migration 0017's
# index of who sat at each result (``result_members`` as m), newest first, rather than by the
# seats' text, which read every result of the server.
MEMBER_RESULT_SELECT: Final = RESULT_SELECT.replace(
    " FROM results r", " FROM result_members m JOIN results r ON r.game_id = m.game_id", 1
)


def results_filter(
    *, game_key: str | None, guild_id: int | None, since: float | None, user_id: int | None = None
) -> tuple[str, list[Any]]:
    """The WHERE clause (maybe empty, placeholders ``$1``…) and parameters of a results query.
    With ``user_id`` it is a filter of ``MEMBER_RESULT_SELECT``: on the member's rows of
    ``result_members`` (``m``), which hold the result's game, server and finishing time too,
    so the index serves the whole filter and the order (``results_order``)."""
    table = "r" if user_id is None else "m"
    clauses: list[str] = []
    parameters: list[Any] = []
    for column, value in (
        ("user_id", user_id),
        ("game_key", game_key),
        ("guild_id", guild_id),
        ("finished_at", since),
    ):
        if value is None:
            continue
        parameters.append(value)
        operator = ">=" if column == "finished_at" else "="
        clauses.append(f"{table}.{column} {operator} ${len(parameters)}")
    where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
    return where, parameters


def results_order(user_id: int | None, *, newest: bool = False) -> str:
    """The ORDER BY of a results query (``results_filter``'s): by finishing time, then game
    id, oldest first (``newest``: newest first); a member's in their index's own columns."""
    table = "r" if user_id is None else "m"
    way = " DESC" if newest else ""
    return f" ORDER BY {table}.finished_at{way}, {table}.game_id{way}"


def member_pattern(user_id: int) -> str:
    """A LIKE pattern that finds JSON text naming ``user_id`` (and a few false friends: ids
    containing its digits, which callers drop after parsing): a game's seats, a lobby's
    invited, and the results ``Store.forget_member`` rewrites (read from the seats themselves,
    not their index). A member's results are read through ``result_members`` (0017)."""
    return f"%{int(user_id)}%"


def as_seated(
    record: ResultRecord, names: Sequence[str], seats: Sequence[SeatRecord]
) -> tuple[ResultRecord, list[str]]:
    """A result with its seats as the game's row holds them now: the bot builds a result from
    the seats it read before the game ended, and a member forgotten in between
    (``Store.forget_member``) must be recorded as their former player, not by id and name."""
    if len(seats) != len(record.seats):
        return record, list(names)
    # Only a former player's seat (a negative alias id, never a Discord id) is taken over.
    former = [
        seat.user_id is not None and seat.user_id < 0 and seat.user_id != user
        for seat, user in zip(seats, record.seats, strict=True)
    ]
    if not any(former):
        return record, list(names)
    users = tuple(
        seat.user_id if gone else user
        for seat, user, gone in zip(seats, record.seats, former, strict=True)
    )
    renamed = [
        seat.name if gone else name for seat, name, gone in zip(seats, names, former, strict=False)
    ]
    return replace(record, seats=users), renamed


def check_all_prepared(rows: Sequence[RowLike], user_id: int, prepared: set[int]) -> None:
    """MemberSeated unless every game row (``id``, ``seats``) seating ``user_id`` is one of
    the games ``prepared`` for forgetting them (``Store.forget_member``). Seats too damaged to
    read seat nobody here, as they do for the member's games (``seats_name``): such a game is
    left as it is and named (``damaged_seats``); as an error it stopped every forgetting."""
    for row in rows:
        game_id = int(row["id"])
        if seats_name(row["seats"], user_id) and game_id not in prepared:
            raise MemberSeated(f"member {user_id} sits in game {game_id}, started meanwhile")


def damaged_seats(rows: Sequence[RowLike]) -> tuple[int, ...]:
    """The ids of the game rows (``id``, ``seats``) whose seats cannot be read."""
    damaged = []
    for row in rows:
        try:
            seats_from_json(row["seats"])
        except StoreError:
            damaged.append(int(row["id"]))
    return tuple(damaged)


def forgotten_result(row: RowLike, user_id: int, alias: int, name: str) -> tuple[str, str] | None:
    """A result row's seats and names JSON with ``user_id`` turned into ``alias`` called
    ``name``; None when the member held no seat in it. StoreError when its seats or names
    cannot be read (``[42,"x"]`` as much as text that is not JSON)."""
    try:
        seats = [optional_int(user) for user in _load_list(row["seats"], "result seats")]
    except (TypeError, ValueError) as exc:
        raise StoreError("a stored result seat is not a user id") from exc
    if user_id not in seats:
        return None
    names = [str(n) for n in _load_list(row["names"], "result names")]
    for seat, user in enumerate(seats):
        if user == user_id:
            seats[seat] = alias
            if seat < len(names):
                names[seat] = name
    return dump_json(seats), dump_json(names)


def former_names(games: Sequence[GameRewrite], alias: int) -> dict[int, str]:
    """What each rewritten game calls the forgotten member (``alias``): their results say the
    same ("Former player", or "Former player (2)" beside another)."""
    return {
        game.game_id: seat.name for game in games for seat in game.seats if seat.user_id == alias
    }


def lobby_names(row: RowLike, user_id: int) -> bool:
    """Whether a lobby row has ``user_id`` as its host or among its invited."""
    if int(row["host_id"]) == user_id:
        return True
    invited = load_object(row["data"], "lobby").get("invited") or []
    return any(int(entry[0]) == user_id for entry in invited)


def seat_freed(row: RowLike, user_id: int) -> LobbyRecord | None:
    """A lobby row naming ``user_id`` (``lobby_names``) with their seat freed, when it is an
    open table another member hosts, still open: forgetting one member who joined must not
    close the table on everyone else. None for any other lobby (it is deleted)."""
    if row["open_seats"] is None or row["status"] != "open" or int(row["host_id"]) == user_id:
        return None
    try:
        lobby = lobby_from_row(row)
    except StoreError:  # unreadable: deleted, as before
        return None
    return replace(lobby, invited=tuple(i for i in lobby.invited if i.user_id != user_id))


def lobby_anonymised(row: RowLike, user_id: int, alias: int, name: str) -> tuple[Any, ...]:
    """A lobby row naming ``user_id`` kept rather than deleted, as it is the newest lobby
    (``Store.forget_member``): host_id, data and status for ``ANONYMISE_LOBBY``, with the
    member's id ``alias`` and their name ``name`` wherever the row has them, closed if open
    (cancelled: a member of it is gone). A row that cannot be read keeps no data at all."""
    status = "cancelled" if row["status"] == "open" else str(row["status"])
    host = alias if int(row["host_id"]) == user_id else int(row["host_id"])
    try:
        lobby = lobby_from_row(row)
    except StoreError:
        return host, dump_json({}), status
    invited = tuple(
        Invitee(alias, name, i.answer) if i.user_id == user_id else i for i in lobby.invited
    )
    host_name = name if lobby.host_id == user_id else lobby.host_name
    return host, _lobby_data(replace(lobby, host_name=host_name, invited=invited)), status


ANONYMISE_LOBBY: Final = (
    "UPDATE lobbies SET host_id = $1, data = $2, status = $3, version = version + 1 WHERE id = $4"
)
"""Keep a lobby row with a forgotten member taken out (``lobby_anonymised``'s values, then the
lobby's id)."""


OPEN_LOBBIES_OF: Final = (
    "SELECT {columns} FROM lobbies WHERE status = 'open' AND guild_id = $1"
    " AND expires_at >= $2 AND (host_id = $3 OR data LIKE $4) ORDER BY id"
)
"""``Store.open_lobbies_of``: ``$1``…``$4`` are the guild, the time, the member and
``member_pattern`` of the member (``lobby_names`` drops the false friends)."""


def open_lobbies_from_rows(rows: Sequence[RowLike], user_id: int) -> list[LobbyRecord]:
    """The lobbies of ``rows`` (``OPEN_LOBBIES_OF``) that name ``user_id``, except those they
    declined. A row that cannot be read is skipped (and logged): one damaged lobby must not
    keep /mygames from listing everything else."""
    found = []
    for row in rows:
        try:
            if not lobby_names(row, user_id):
                continue
            lobby = lobby_from_row(row)
        except StoreError:
            log.warning("lobby %s cannot be read; /mygames skips it", row["id"], exc_info=True)
            continue
        invitee = lobby.invitee(user_id)
        if invitee is None or invitee.answer != "declined":
            found.append(lobby)
    return found


LOBBIES_DUE: Final = (
    "SELECT {columns} FROM lobbies WHERE status = 'open' AND expires_at < $1{shards}"
    " ORDER BY expires_at, id LIMIT $2"
)
"""``Store.lobbies_due``: ``$1`` is the time and ``$2`` the limit, ``{shards}`` is
``shard_condition``. The order is the index's (migration 0007)."""

LOBBIES_TO_RESHOW: Final = (
    "SELECT id FROM lobbies WHERE reshow = 1 AND status = 'open'{shards} ORDER BY id LIMIT $1"
)
"""``Store.lobbies_to_reshow``: ``$1`` is the limit, ``{shards}`` is ``shard_condition``.
Through migration 0016's index of the marked open lobbies."""

DELETE_CLOSED_LOBBIES: Final = (
    "DELETE FROM lobbies WHERE id IN (SELECT id FROM lobbies WHERE status <> 'open'"
    " AND expires_at < $1{shards} AND id < (SELECT MAX(id) FROM lobbies)"
    " ORDER BY expires_at LIMIT $2)"
)
"""``Store.delete_closed_lobbies``: ``$1`` is the time and ``$2`` the limit, ``{shards}`` is
``shard_condition``; migration 0010's index finds them. The newest lobby is never deleted:
SQLite numbers a new row one above the highest, and a deleted highest id would be handed out
again, an old message's buttons naming the new lobby."""

EXPIRE_UNREADABLE_LOBBY: Final = (
    "UPDATE lobbies SET status = 'expired', version = version + 1"
    " WHERE id = $1 AND version = $2 AND status = 'open'"
)
"""Close a due lobby ``lobbies_due_from_rows`` could not read: ``$1`` is its id and ``$2`` the
version it was read at."""


def shard_condition(shards: Shards | None) -> str:
    """The SQL that keeps the lobbies on servers ``shards`` hold (``Shards.holds``), or none:
    the same arithmetic in SQLite and PostgreSQL. The figures are ints, written in."""
    if shards is None:
        return ""
    ids = ", ".join(str(int(i)) for i in shards.ids)
    return f" AND (guild_id IS NULL OR (guild_id >> 22) % {int(shards.count)} IN ({ids}))"


def lobbies_due_from_rows(rows: Sequence[RowLike]) -> tuple[list[LobbyRecord], list[RowLike]]:
    """The lobbies of ``rows`` (``LOBBIES_DUE``), and the rows that cannot be read (logged),
    which the store closes with ``EXPIRE_UNREADABLE_LOBBY``."""
    found, unreadable = [], []
    for row in rows:
        try:
            found.append(lobby_from_row(row))
        except (StoreError, KeyError, TypeError, ValueError):
            # A damaged row: missing keys and wrong types raise besides StoreError.
            log.warning("lobby %s cannot be read; it is marked expired", row["id"], exc_info=True)
            unreadable.append(row)
    return found, unreadable


def timers_from_rows(
    rows: Sequence[Any], read: Callable[[Any], StoredGame], now: float
) -> list[TimerDue]:
    """The due timers of ``rows``, skipping (and logging) a game whose row cannot be read, so
    one damaged game never stops the sweep for every other game."""
    due = []
    for row in rows:
        try:
            due.append(timer_due(read(row), now))
        except StoreError:
            log.warning("game %s cannot be read; its timer is skipped", row["id"], exc_info=True)
    return due


def timer_due(game: StoredGame, now: float) -> TimerDue:
    """What is due for a game ``TIMERS_DUE_WHERE`` matched: the deadline wins over a reminder."""
    expired = game.turn_deadline is not None and game.turn_deadline <= now
    return TimerDue(game=game, kind="expire" if expired else "remind")


def timeout_action(value: object) -> TimeoutAction:
    if value == "computer":
        return "computer"
    if value == "forfeit":
        return "forfeit"
    raise StoreError(f"stored on_timeout {value!r} is not computer or forfeit")


SETTINGS_SELECT: Final = "turn_seconds, on_timeout, reaction_seconds"

# ``$1``…``$4`` are the four values of guild_settings_row.
SET_SETTINGS: Final = (
    "INSERT INTO guild_settings (guild_id, turn_seconds, on_timeout, reaction_seconds)"
    " VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id) DO UPDATE SET"
    " turn_seconds = excluded.turn_seconds, on_timeout = excluded.on_timeout,"
    " reaction_seconds = excluded.reaction_seconds"
)


def guild_settings_row(settings: GuildSettings) -> tuple[Any, ...]:
    """The values SET_SETTINGS stores; the default reaction window is stored as NULL."""
    reaction = (
        None if settings.reaction_seconds == DEFAULT_REACTION_SECONDS else settings.reaction_seconds
    )
    return (settings.guild_id, settings.turn_seconds, settings.on_timeout, reaction)


def guild_settings_from_row(guild_id: int, row: RowLike | None) -> GuildSettings:
    """A guild's settings from a SETTINGS_SELECT row (the defaults when it has none)."""
    if row is None:
        return GuildSettings(guild_id)
    reaction = optional_int(row["reaction_seconds"])
    return GuildSettings(
        guild_id=guild_id,
        turn_seconds=optional_int(row["turn_seconds"]),
        on_timeout=timeout_action(row["on_timeout"]),
        reaction_seconds=DEFAULT_REACTION_SECONDS if reaction is None else reaction,
    )


LOBBY_COLUMNS: Final = (
    "id, channel_id, guild_id, host_id, game_key, data, status, version, expires_at,"
    " created_at, game_id, message_id, rematch_of, open_seats"
)

LOBBY_INSERT_COLUMNS: Final = (
    "channel_id, guild_id, host_id, game_key, data, status, expires_at, created_at, rematch_of,"
    " open_seats"
)

# ``$1`` is the rematch's game id, ``$2`` ``now`` and ``$3`` how long a lobby may wait for its
# message (UNPOSTED_SECONDS).
CLOSE_DEAD_REMATCH: Final = (
    "UPDATE lobbies SET status = 'expired', version = version + 1"
    " WHERE rematch_of = $1 AND status = 'open'"
    " AND (expires_at < $2 OR (message_id IS NULL AND created_at < $2 - $3))"
)

_LOBBY_STATUSES: Final = ("open", "started", "cancelled", "expired")

_ANSWERS: Final = ("pending", "accepted", "declined")


def _lobby_data(lobby: LobbyRecord) -> str:
    return dump_json(
        {
            "host_name": lobby.host_name,
            "invited": [[i.user_id, i.name, i.answer] for i in lobby.invited],
            "options": dict(lobby.options),
            "computers": lobby.computers,
            "policy": lobby.policy,
            "thread": lobby.thread,
        }
    )


def lobby_insert_row(lobby: LobbyRecord) -> tuple[Any, ...]:
    """The values of LOBBY_INSERT_COLUMNS for a new lobby."""
    return (
        lobby.channel_id,
        lobby.guild_id,
        lobby.host_id,
        lobby.game_key,
        _lobby_data(lobby),
        lobby.status,
        float(lobby.expires_at),
        float(lobby.created_at),
        lobby.rematch_of,
        lobby.open_seats,
    )


def lobby_update_row(lobby: LobbyRecord) -> tuple[Any, ...]:
    """data, status, game_id and message_id: what a lobby update may change."""
    return (_lobby_data(lobby), lobby.status, lobby.game_id, lobby.message_id)


def lobby_from_row(row: RowLike) -> LobbyRecord:
    data = load_object(row["data"], "lobby")
    status = str(row["status"])
    if status not in _LOBBY_STATUSES:
        raise StoreError(f"stored lobby status {status!r} is unknown")
    invited = []
    for user_id, name, answer in data["invited"]:
        if answer not in _ANSWERS:
            raise StoreError(f"stored lobby answer {answer!r} is unknown")
        invited.append(Invitee(int(user_id), str(name), answer))
    return LobbyRecord(
        id=int(row["id"]),
        channel_id=int(row["channel_id"]),
        guild_id=optional_int(row["guild_id"]),
        game_key=str(row["game_key"]),
        host_id=int(row["host_id"]),
        host_name=str(data["host_name"]),
        invited=tuple(invited),
        options={str(k): str(v) for k, v in data["options"].items()},
        computers=int(data["computers"]),
        policy=str(data["policy"]),
        thread=bool(data["thread"]),
        status=status,  # type: ignore[arg-type]  # checked against _LOBBY_STATUSES above
        expires_at=float(row["expires_at"]),
        created_at=float(row["created_at"]),
        version=int(row["version"]),
        game_id=optional_int(row["game_id"]),
        message_id=optional_int(row["message_id"]),
        rematch_of=optional_int(row["rematch_of"]),
        open_seats=optional_int(row["open_seats"]),
    )
