"""The Store contract, run against SQLite and PostgreSQL alike (see conftest.py).

Schema and migrations, games, versioned moves, duplicate interactions, restarts and races
between connections; initial states, results, turn timers and guild settings (and their copy
by migrate-db). Checks that only make sense for one engine (SQLite's WAL and pragmas, URL
parsing) live in test_sqlite_store.py and test_postgres_store.py.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from bot.ratings import ResultRecord
from bot.store.base import (
    CONSOLE_CHANNEL,
    ChannelBusy,
    DuplicateInteraction,
    GuildSettings,
    StaleVersion,
    Store,
    StoredGame,
    StoredResult,
    StoreError,
    TimerDue,
)
from bot.store.migrate import copy_store
from bot.store.migrations import MigrationError
from bot.store.sqlite import SqliteStore
from tests.store.helpers import (
    LATEST_SCHEMA,
    SEATS,
    STATE,
    Backend,
    lobby_record,
    move,
    new_game,
)

# -- schema and migrations -----------------------------------------------------------------------


async def test_schema_created(store: Store, backend: Backend) -> None:
    """Opening an empty database creates the tables and records every migration."""
    assert await backend.raw("SELECT version, name FROM schema_version ORDER BY version") == [
        (1, "games_and_moves"),
        (2, "results_and_timers"),
        (3, "plugin_games"),
        (4, "daily_claims"),
        (5, "rematch_invitations"),
        (6, "open_tables"),
        (7, "lobby_expiry"),
        (8, "result_numbers"),
        (9, "games_by_channel"),
        (10, "closed_lobbies"),
        (11, "timer_heartbeats"),
        (12, "seating_claims"),
        (13, "id_floors"),
        (14, "deleted_lobbies"),
        (15, "lobbies_by_channel"),
        (16, "lobbies_to_reshow"),
        (17, "result_members"),
        (18, "solo_runs_given_up"),
        (19, "ttr_leavers"),
    ]
    tables = ("games", "moves", "results", "guild_settings", "lobbies", "abort_votes")
    for table in (
        *tables,
        "daily_claims",
        "timer_heartbeats",
        "seating_claims",
        "id_floors",
        "result_members",
    ):
        assert await backend.raw(f"SELECT COUNT(*) FROM {table}") == [(0,)]


async def test_migrations_idempotent(backend: Backend) -> None:
    """Opening the same database twice applies each migration once and keeps the data."""
    first = backend.store()
    await first.open()
    game = await new_game(first)
    await first.close()
    second = backend.store()
    await second.open()
    try:
        assert await second.get_game(game.id) == game
    finally:
        await second.close()
    assert await backend.raw("SELECT version FROM schema_version ORDER BY version") == [
        (1,),
        (2,),
        (3,),
        (4,),
        (5,),
        (6,),
        (7,),
        (8,),
        (9,),
        (10,),
        (11,),
        (12,),
        (13,),
        (14,),
        (15,),
        (16,),
        (17,),
        (18,),
        (19,),
    ]


async def test_newer_database_is_refused(backend: Backend) -> None:
    """A database migrated by a newer program is not opened by an older one."""
    first = backend.store()
    await first.open()
    await first.close()
    await backend.raw("INSERT INTO schema_version VALUES (99, 'future', 0)")
    with pytest.raises(MigrationError, match="schema version 99"):
        await backend.store().open()


# -- games ---------------------------------------------------------------------------------------


async def test_create_get_round_trip(backend: Backend) -> None:
    """A created game reads back identically: seats, options, JSON state, version 0."""
    times = iter([1000.5])
    store = backend.store(clock=lambda: next(times))
    await store.open()
    try:
        created = await new_game(store)
        loaded = await store.get_game(created.id)
    finally:
        await store.close()
    assert loaded == created
    assert created.seats == SEATS
    assert created.seats[1].is_computer and not created.seats[0].is_computer
    assert created.options == {"target": "1000"}
    assert created.state == STATE
    assert (created.version, created.status, created.message_id) == (0, "active", None)
    assert created.created_at == created.updated_at == 1000.5


async def test_seats_stored_as_compact_json(store: Store, backend: Backend) -> None:
    """Seats are stored as compact JSON objects with seat, name, user_id and policy."""
    await new_game(store)
    [(seats,)] = await backend.raw("SELECT seats FROM games")
    assert seats.startswith('[{"seat":0,"name":"Ada","user_id":123456789012345678,"policy":null}')


async def test_large_discord_ids_round_trip(store: Store) -> None:
    """Channel, guild and message snowflakes near 2**63 survive (64-bit columns)."""
    big = 2**63 - 1
    game = await store.create_game(
        channel_id=big, guild_id=big - 1, game_key="mille", seats=SEATS, options={}, state={}
    )
    assert await store.set_message(game.id, big - 2, game.version)
    loaded = await store.active_game(big)
    assert loaded is not None
    assert (loaded.channel_id, loaded.guild_id, loaded.message_id) == (big, big - 1, big - 2)


async def test_get_game_unknown_is_none(store: Store) -> None:
    """An unknown game id reads as None."""
    assert await store.get_game(999) is None


async def test_the_highest_game_id_handed_out(store: Store, backend: Backend) -> None:
    """``highest_game_id``: 0 in a new database, then the newest game's id, and past rows that
    are gone as new games are numbered past them (SQLite's floor, PostgreSQL's sequence): an id
    above it never named a game, one below may have."""
    assert await store.highest_game_id() == 0
    await new_game(store, channel_id=1)
    second = await new_game(store, channel_id=2)
    assert await store.highest_game_id() == second.id
    if backend.name == "sqlite":
        await backend.raw("INSERT INTO id_floors (name, floor) VALUES ('games', 40)")
    else:
        await backend.raw("SELECT setval(pg_get_serial_sequence('games', 'id'), 40)")
    assert await store.highest_game_id() == 40 and await store.get_game(40) is None
    assert (await new_game(store, channel_id=3)).id == 41
    assert await store.highest_game_id() == 41


async def test_one_active_game_per_channel(store: Store) -> None:
    """A second game in a channel with an active game raises ChannelBusy."""
    await new_game(store, channel_id=1)
    with pytest.raises(ChannelBusy):
        await new_game(store, channel_id=1)
    assert len(await store.active_games()) == 1


async def test_concurrent_creates_one_wins(backend: Backend) -> None:
    """Two connections starting a game in one channel at once: one game, one ChannelBusy."""
    a, b = backend.store(), backend.store()
    await a.open()
    await b.open()
    try:
        results = await asyncio.gather(new_game(a, 5), new_game(b, 5), return_exceptions=True)
        assert sum(isinstance(r, StoredGame) for r in results) == 1
        assert sum(isinstance(r, ChannelBusy) for r in results) == 1
        assert len(await a.active_games()) == 1
    finally:
        await a.close()
        await b.close()


async def test_new_game_after_old_one_ends(store: Store) -> None:
    """A finished or aborted game no longer blocks its channel."""
    first = await new_game(store, channel_id=1)
    await store.end_game(game_id=first.id, expected_version=0, status="aborted", state={})
    second = await new_game(store, channel_id=1)
    await store.end_game(game_id=second.id, expected_version=0, status="finished", state={})
    third = await new_game(store, channel_id=1)
    assert await store.active_game(1) == third
    assert first.id < second.id < third.id


async def test_active_games_lists_only_active(store: Store) -> None:
    """active_games and active_game see active games only, in id order."""
    a = await new_game(store, channel_id=1)
    b = await new_game(store, channel_id=2)
    c = await new_game(store, channel_id=3)
    await store.end_game(game_id=b.id, expected_version=0, status="finished", state={})
    assert [g.id for g in await store.active_games()] == [a.id, c.id]
    assert await store.active_game(2) is None
    assert await store.active_game(3) == c


async def test_set_message(store: Store) -> None:
    """set_message stores the table message without bumping the version."""
    game = await new_game(store)
    assert await store.set_message(game.id, 998877665544332211, game.version)
    loaded = await store.get_game(game.id)
    assert loaded is not None
    assert (loaded.message_id, loaded.version) == (998877665544332211, 0)
    assert await store.set_message(game.id, None, game.version)
    cleared = await store.get_game(game.id)
    assert cleared is not None and cleared.message_id is None
    with pytest.raises(StoreError):
        await store.set_message(12345, 1, 0)


async def test_set_message_keeps_the_newest_table(store: Store) -> None:
    """Two tables of one game posted at the same moment (a move's and a timer's, or two
    processes') are remembered in whichever order Discord answered. Found by a review: the
    older table, remembered last, replaced the newer, and /mygames and /history linked to it.
    A table of a version the game has moved past is not remembered (and that is no error); a
    repost of the current version (/table) still is."""
    game = await new_game(store)
    moved = await move(store, game, 1)
    assert await store.set_message(game.id, 202, moved.version)  # the newer table first
    assert not await store.set_message(game.id, 101, game.version)  # the older one, late
    loaded = await store.get_game(game.id)
    assert loaded is not None and (loaded.message_id, loaded.version) == (202, moved.version)
    assert await store.set_message(game.id, 303, moved.version)  # /table posts it again
    reposted = await store.get_game(game.id)
    assert reposted is not None and reposted.message_id == 303
    ended = await store.end_game(
        game_id=game.id, expected_version=moved.version, status="finished", state={}
    )
    assert not await store.set_message(game.id, 404, moved.version)
    assert await store.set_message(game.id, 505, ended.version)
    final = await store.get_game(game.id)
    assert final is not None and final.message_id == 505
    with pytest.raises(StoreError, match="no game"):
        await store.set_message(game.id + 1000, 1, 0)


async def test_forget_table_messages(store: Store) -> None:
    """A moderator deletes messages of a channel, tables among them: the games there forget
    those tables (and keep their version); the same ids in another channel, and a game whose
    table was not deleted, are untouched."""
    here = await new_game(store, channel_id=1)
    there = await new_game(store, channel_id=2)
    assert await store.set_message(here.id, 111, here.version)
    assert await store.set_message(there.id, 222, there.version)
    assert await store.forget_table_messages(2, [111, 333]) == 0
    assert await store.forget_table_messages(1, []) == 0
    assert await store.forget_table_messages(1, [333, 111, 444]) == 1
    forgotten, kept = await store.get_game(here.id), await store.get_game(there.id)
    assert forgotten is not None and (forgotten.message_id, forgotten.version) == (None, 0)
    assert kept is not None and kept.message_id == 222


def _writes_counted(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The statements ``store`` writes from now on, listed as they are sent."""
    writes: list[str] = []
    write = store._write  # type: ignore[attr-defined]

    async def counted(sql: str, *args: object) -> int:
        writes.append(sql)
        return int(await write(sql, *args))

    monkeypatch.setattr(store, "_write", counted)
    return writes


async def test_a_deleted_chat_message_takes_no_write(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every message deleted in any channel asks whether it was a table: a chat message (no
    table among the ids) is answered by a read, so it never waits on, or holds up, the write
    lock the moves take."""
    game = await new_game(store, channel_id=1)
    assert await store.set_message(game.id, 111, game.version)
    writes = _writes_counted(store, monkeypatch)
    assert await store.forget_table_messages(1, [999, 998]) == 0
    assert writes == []
    assert await store.forget_table_messages(1, [111]) == 1
    assert len(writes) == 1


async def test_close_deleted_lobbies(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A moderator deletes messages of a channel, an open lobby's among them: that lobby is
    cancelled (its version moves on, so a press that read it before changes nothing); the same
    id in another channel, a lobby whose message was not deleted and a lobby already closed are
    untouched; chat alone is answered by a read, without a write."""
    deleted = await store.create_lobby(lobby_record(channel_id=1))
    kept = await store.create_lobby(lobby_record(channel_id=1))
    elsewhere = await store.create_lobby(lobby_record(channel_id=2))
    closed = await store.create_lobby(lobby_record(channel_id=1))
    for lobby, message in ((deleted, 111), (kept, 222), (elsewhere, 111), (closed, 333)):
        assert await store.set_lobby_message(lobby.id, message)
    closed = await store.update_lobby(replace(closed, status="expired"), closed.version)
    writes = _writes_counted(store, monkeypatch)
    assert await store.close_deleted_lobbies(1, []) == 0
    assert await store.close_deleted_lobbies(1, [999, 998]) == 0
    assert writes == []
    assert await store.close_deleted_lobbies(1, [111, 333, 444]) == 1
    found = [await store.get_lobby(lobby.id) for lobby in (deleted, kept, elsewhere, closed)]
    assert [(f.status, f.version) for f in found if f is not None] == [
        ("cancelled", deleted.version + 1),
        ("open", kept.version),
        ("open", elsewhere.version),
        ("expired", closed.version),
    ]


async def test_a_deleted_thread_forgets_its_tables_and_closes_its_lobbies(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A moderator deletes a thread (Discord names only the thread, none of its messages): the
    games there forget their tables, a finished one's too (its /history link), keeping their
    version and status; the thread's open lobbies are cancelled, one with no message stored
    among them, their versions moved on. Another channel's, a closed lobby, and a thread with
    neither (answered by reads alone) are untouched."""
    finished = await new_game(store, channel_id=1)
    assert await store.set_message(finished.id, 111, finished.version)
    finished = await store.end_game(
        game_id=finished.id, expected_version=finished.version, status="finished", state={}
    )
    playing = await new_game(store, channel_id=1)
    assert await store.set_message(playing.id, 112, playing.version)
    there = await new_game(store, channel_id=2)
    assert await store.set_message(there.id, 222, there.version)
    posted = await store.create_lobby(lobby_record(channel_id=1))
    assert await store.set_lobby_message(posted.id, 113)
    unposted = await store.create_lobby(lobby_record(channel_id=1))
    closed = await store.create_lobby(lobby_record(channel_id=1))
    closed = await store.update_lobby(replace(closed, status="expired"), closed.version)
    elsewhere = await store.create_lobby(lobby_record(channel_id=2))
    writes = _writes_counted(store, monkeypatch)
    assert await store.forget_channel_tables(3) == 0
    assert await store.close_channel_lobbies(3) == 0
    assert writes == []
    assert await store.forget_channel_tables(1) == 2
    assert await store.close_channel_lobbies(1) == 2
    assert len(writes) == 2
    games = [await store.get_game(g.id) for g in (finished, playing, there)]
    assert [(g.message_id, g.version, g.status) for g in games if g is not None] == [
        (None, finished.version, "finished"),
        (None, playing.version, "active"),
        (222, there.version, "active"),
    ]
    lobbies = [await store.get_lobby(lobby.id) for lobby in (posted, unposted, closed, elsewhere)]
    assert [(f.status, f.version) for f in lobbies if f is not None] == [
        ("cancelled", posted.version + 1),
        ("cancelled", unposted.version + 1),
        ("expired", closed.version),
        ("open", elsewhere.version),
    ]


async def test_a_deleted_threads_lobbies_are_found_through_an_index(
    store: Store, backend: Backend
) -> None:
    """Any thread deleted on any server asks for the open lobbies posted in it: migration
    0015's index of the open lobbies by channel serves the question, not a read of every
    lobby kept."""
    plan = await backend.plan("SELECT 1 FROM lobbies WHERE status = 'open' AND channel_id = $1", 1)
    assert "lobbies_open_channel" in plan, plan


# -- moves ---------------------------------------------------------------------------------------


async def test_record_move_bumps_version_and_appends(store: Store) -> None:
    """Each move adds one to the version and appends to the log with seq = new version."""
    game = await new_game(store)
    for n in range(1, 4):
        game = await move(store, game, n)
        assert game.version == n
        assert game.state == {"turn": n}
    log = await store.moves(game.id)
    assert [(m.seq, m.seat, m.action, m.interaction_id) for m in log] == [
        (1, 1, "play:1", "i1"),
        (2, 0, "play:2", "i2"),
        (3, 1, "play:3", "i3"),
    ]
    assert await store.get_game(game.id) == game


async def test_record_move_on_unknown_game(store: Store) -> None:
    """A move for a game that does not exist is a StoreError, and nothing is stored."""
    with pytest.raises(StoreError, match="no game 404"):
        await store.record_move(
            game_id=404, expected_version=0, seat=0, action="x", interaction_id="i", state={}
        )
    assert await store.moves(404) == []


async def test_computer_moves_have_no_interaction_id(store: Store) -> None:
    """Several moves without an interaction id are all stored."""
    game = await new_game(store)
    game = await move(store, game, 1, interaction_id=None)
    game = await move(store, game, 2, interaction_id=None)
    assert [m.interaction_id for m in await store.moves(game.id)] == [None, None]


async def test_record_move_can_finish_game(store: Store) -> None:
    """A move with status 'finished' ends the game and frees the channel."""
    game = await new_game(store)
    game = await move(store, game, 1, status="finished")
    assert game.status == "finished"
    assert await store.active_game(game.channel_id) is None


async def test_stale_version_changes_nothing(store: Store) -> None:
    """A move at an old version raises StaleVersion and leaves game and log unchanged."""
    game = await new_game(store)
    current = await move(store, game, 1)
    log_before = await store.moves(game.id)
    with pytest.raises(StaleVersion):
        await move(store, game, 2)  # still at version 0
    assert await store.get_game(game.id) == current
    assert await store.moves(game.id) == log_before


async def test_redelivered_interaction_is_duplicate(store: Store) -> None:
    """The same request delivered twice raises DuplicateInteraction, not StaleVersion."""
    game = await new_game(store)
    current = await move(store, game, 1)
    log_before = await store.moves(game.id)
    with pytest.raises(DuplicateInteraction):
        await move(store, game, 1)
    assert await store.get_game(game.id) == current
    assert await store.moves(game.id) == log_before


async def test_repeated_interaction_at_current_version_is_duplicate(store: Store) -> None:
    """Reusing an interaction id at the current version raises and writes nothing."""
    game = await new_game(store)
    current = await move(store, game, 1)
    log_before = await store.moves(game.id)
    with pytest.raises(DuplicateInteraction):
        await move(store, current, 2, interaction_id="i1")
    assert await store.get_game(game.id) == current
    assert await store.moves(game.id) == log_before


async def test_interaction_ids_unique_across_games(store: Store) -> None:
    """An interaction id stored for one game is a duplicate for every other game too."""
    a = await new_game(store, channel_id=1)
    b = await new_game(store, channel_id=2)
    await move(store, a, 1, interaction_id="shared")
    with pytest.raises(DuplicateInteraction):
        await move(store, b, 1, interaction_id="shared")
    assert await store.moves(b.id) == []


async def test_failed_transaction_rolls_back(store: Store, backend: Backend) -> None:
    """An error while the snapshot is replaced rolls the whole move back, move row included."""
    game = await new_game(store)
    error = await backend.break_state_updates(store)
    with pytest.raises(error, match="boom"):
        await move(store, game, 1)
    assert await store.get_game(game.id) == game
    assert await store.moves(game.id) == []


async def test_move_on_ended_game_is_refused(store: Store) -> None:
    """A game that has ended takes no more moves."""
    game = await new_game(store)
    ended = await store.end_game(game_id=game.id, expected_version=0, status="aborted", state={})
    with pytest.raises(StoreError, match="aborted"):
        await move(store, ended, 1)
    assert await store.moves(game.id) == []


async def test_end_game(store: Store) -> None:
    """end_game bumps the version, sets status and state, and adds no move."""
    game = await new_game(store)
    game = await move(store, game, 1)
    ended = await store.end_game(
        game_id=game.id, expected_version=1, status="finished", state={"winner": 0}
    )
    assert (ended.version, ended.status, ended.state) == (2, "finished", {"winner": 0})
    assert await store.get_game(game.id) == ended
    assert len(await store.moves(game.id)) == 1


async def test_end_game_checks_version(store: Store) -> None:
    """end_game at an old version raises StaleVersion and changes nothing."""
    game = await new_game(store)
    current = await move(store, game, 1)
    with pytest.raises(StaleVersion):
        await store.end_game(game_id=game.id, expected_version=0, status="aborted", state={})
    assert await store.get_game(game.id) == current


async def test_end_game_twice_is_refused(store: Store) -> None:
    """Ending a game that already ended is a StoreError (not a silent second bump)."""
    game = await new_game(store)
    ended = await store.end_game(game_id=game.id, expected_version=0, status="aborted", state={})
    with pytest.raises(StoreError, match="already aborted"):
        await store.end_game(game_id=game.id, expected_version=1, status="finished", state={})
    assert await store.get_game(game.id) == ended


async def test_end_game_rejects_active_status(store: Store) -> None:
    """end_game needs 'finished' or 'aborted'."""
    game = await new_game(store)
    with pytest.raises(ValueError, match="finished"):
        await store.end_game(game_id=game.id, expected_version=0, status="active", state={})


async def test_survives_restart(backend: Backend) -> None:
    """Games and move logs survive closing the store and opening a new one."""
    before = backend.store()
    await before.open()
    try:
        game = await new_game(before)
        game = await move(before, game, 1)
        await before.set_message(game.id, 55, game.version)
        game = await move(before, game, 2)
        log = await before.moves(game.id)
    finally:
        await before.close()
    after = backend.store()
    await after.open()
    try:
        assert [g.id for g in await after.active_games()] == [game.id]
        reloaded = await after.get_game(game.id)
        assert reloaded is not None
        assert (reloaded.version, reloaded.state, reloaded.message_id) == (2, {"turn": 2}, 55)
        assert await after.moves(game.id) == log
        await move(after, reloaded, 3)
    finally:
        await after.close()


# -- races ---------------------------------------------------------------------------------------


async def test_concurrent_moves_one_wins(store: Store) -> None:
    """Concurrent moves from the same version: exactly one is stored, the rest are stale."""
    game = await new_game(store)
    results = await asyncio.gather(
        *(move(store, game, n) for n in range(1, 9)), return_exceptions=True
    )
    winners = [r for r in results if isinstance(r, StoredGame)]
    assert len(winners) == 1
    assert all(isinstance(r, StaleVersion) for r in results if r not in winners)
    assert len(await store.moves(game.id)) == 1
    assert await store.get_game(game.id) == winners[0]


async def test_concurrent_moves_across_connections(backend: Backend) -> None:
    """Two stores on one database (two connections or pools) also let exactly one through."""
    a, b = backend.store(), backend.store()
    await a.open()
    await b.open()
    try:
        game = await new_game(a)
        results = await asyncio.gather(
            *(move(s, game, n) for n, s in enumerate([a, b, a, b], start=1)),
            return_exceptions=True,
        )
        assert sum(isinstance(r, StoredGame) for r in results) == 1
        assert sum(isinstance(r, StaleVersion) for r in results) == 3
        assert len(await b.moves(game.id)) == 1
    finally:
        await a.close()
        await b.close()


async def test_redelivery_race_is_duplicate(backend: Backend) -> None:
    """One interaction delivered to two stores at once is stored once; the copy is a repeat."""
    a, b = backend.store(), backend.store()
    await a.open()
    await b.open()
    try:
        game = await new_game(a)
        results = await asyncio.gather(move(a, game, 1), move(b, game, 1), return_exceptions=True)
        assert sum(isinstance(r, StoredGame) for r in results) == 1
        assert sum(isinstance(r, DuplicateInteraction) for r in results) == 1
        assert [m.interaction_id for m in await a.moves(game.id)] == ["i1"]
    finally:
        await a.close()
        await b.close()


async def test_racing_stores_keep_every_game_consistent(backend: Backend) -> None:
    """Three stores racing on five games: versions 1..n each once, snapshot = last move."""
    stores = [backend.store() for _ in range(3)]
    for s in stores:
        await s.open()
    try:
        games = [await new_game(stores[0], channel_id=100 + g) for g in range(5)]
        target = 12
        won: list[tuple[int, int, str]] = []

        async def racer(store: Store, name: str, game_id: int) -> None:
            # Read, try the next version, and on a lost race read again: what Tables does.
            while True:
                current = await store.get_game(game_id)
                assert current is not None
                if current.version >= target:
                    return
                n = current.version + 1
                tag = f"{name}-{game_id}-{n}"
                try:
                    stored = await move(store, current, n, interaction_id=tag, action=tag)
                except StaleVersion:
                    continue
                won.append((game_id, stored.version, tag))

        await asyncio.gather(
            *(
                racer(s, f"s{i}r{r}", g.id)
                for g in games
                for i, s in enumerate(stores)
                for r in range(2)
            )
        )
        for g in games:
            log = await stores[1].moves(g.id)
            assert [m.seq for m in log] == list(range(1, target + 1))
            mine = sorted((v, tag) for game_id, v, tag in won if game_id == g.id)
            assert mine == [(m.seq, m.interaction_id) for m in log]  # no lost, no extra
            latest = await stores[2].get_game(g.id)
            assert latest is not None
            assert (latest.version, latest.state) == (target, {"turn": target})
    finally:
        for s in stores:
            await s.close()


# -- upgrading from schema version 1 -------------------------------------------------------------


async def _version_1_database(backend: Backend) -> None:
    """Bring the empty database to schema version 1 only, and store one game the old way."""
    insert = (
        "INSERT INTO games (channel_id, guild_id, game_key, seats, options, state, version,"
        " status, message_id, created_at, updated_at)"
        " VALUES (9, 7, 'mille', '[]', '{}', '{\"turn\":3}', 3, 'active', NULL, 1.0, 2.0)"
    )
    await backend.migrate_to(1)
    await backend.raw(insert)


async def test_version_1_database_upgrades(backend: Backend) -> None:
    """A version 1 database gains the new tables; its games keep no initial state or timer."""
    await _version_1_database(backend)
    store = backend.store()
    await store.open()
    try:
        [old] = await store.active_games()
        assert (old.version, old.state) == (3, {"turn": 3})
        assert (old.turn_deadline, old.remind_at) == (None, None)
        assert await store.initial_state(old.id) is None
        assert await store.results() == []
        fresh = await new_game(store, channel_id=10)
        assert await store.initial_state(fresh.id) == STATE
    finally:
        await store.close()
    assert await backend.raw("SELECT MAX(version) FROM schema_version") == [(LATEST_SCHEMA,)]


# -- initial states ------------------------------------------------------------------------------


async def test_initial_state_is_the_deal(store: Store) -> None:
    """create_game keeps its state as the initial state, which later moves leave alone."""
    game = await new_game(store)
    await move(store, game, 1)
    assert await store.initial_state(game.id) == STATE


async def test_initial_state_of_unknown_game_is_none(store: Store) -> None:
    """An unknown game has no initial state."""
    assert await store.initial_state(404) is None


# -- results -------------------------------------------------------------------------------------

ADA = 123456789012345678


async def _finished(
    store: Store, channel_id: int, *, game_key: str = "mille", guild_id: int | None = 7
) -> StoredGame:
    game = await store.create_game(
        channel_id=channel_id,
        guild_id=guild_id,
        game_key=game_key,
        seats=SEATS,
        options={},
        state=STATE,
    )
    return await store.end_game(game_id=game.id, expected_version=0, status="finished", state=STATE)


def _record(
    game: StoredGame, finished_at: float, seats: tuple[int | None, ...] = (ADA, None)
) -> ResultRecord:
    return ResultRecord(
        game_id=game.id,
        game_key=game.game_key,
        guild_id=game.guild_id,
        finished_at=finished_at,
        seats=seats,
        ranks=(0, 1),
        scores=(5000, 3250),
        options={"deck": "bsd", "moves": "42"},
        counted=False,
    )


async def test_result_round_trip(store: Store) -> None:
    """A recorded result reads back whole, with seat names and the game's channel and message."""
    game = await _finished(store, channel_id=31)
    await store.set_message(game.id, 2**63 - 5, game.version)
    record = _record(game, 1234.5)
    await store.record_result(record, ["Ada", "Computer"])
    [stored] = await store.results()
    assert stored.record == record
    assert stored.names == ("Ada", "Computer")
    assert (stored.channel_id, stored.message_id) == (31, 2**63 - 5)


async def test_counted_result_reads_back_counted(store: Store) -> None:
    """The counted flag survives as a boolean both ways."""
    game = await _finished(store, channel_id=1)
    record = ResultRecord(game.id, "mille", 7, 5.0, (1, 2), (1, 0), (), {}, counted=True)
    await store.record_result(record, ["A", "B"])
    [stored] = await store.results()
    assert stored.record.counted is True and stored.record == record


async def test_record_result_is_idempotent(store: Store, backend: Backend) -> None:
    """Recording a game's result again keeps the first record and adds no row."""
    game = await _finished(store, channel_id=1)
    first = _record(game, 10.0)
    await store.record_result(first, ["Ada", "Computer"])
    await store.record_result(_record(game, 99.0), ["Other", "Names"])
    assert [r.record for r in await store.results()] == [first]
    assert await backend.raw("SELECT COUNT(*) FROM results") == [(1,)]


async def test_record_result_needs_one_name_per_seat(store: Store) -> None:
    """A name list that does not match the seats is refused before anything is written."""
    game = await _finished(store, channel_id=1)
    with pytest.raises(ValueError, match="one name per seat"):
        await store.record_result(_record(game, 1.0), ["Ada"])
    assert await store.results() == []


async def test_results_are_chronological_then_by_game(store: Store) -> None:
    """Results come oldest first, and games that finished together in game id order."""
    games = [await _finished(store, channel_id=c) for c in range(1, 5)]
    for game, at in zip(reversed(games), (30.0, 10.0, 10.0, 20.0), strict=True):
        await store.record_result(_record(game, at), ["Ada", "Computer"])
    ordered = [(r.record.finished_at, r.record.game_id) for r in await store.results()]
    assert ordered == sorted(ordered)
    assert [at for at, _ in ordered] == [10.0, 10.0, 20.0, 30.0]


async def test_results_filters(store: Store) -> None:
    """game_key, guild_id, since and user_id each narrow the results, and combine."""
    mille_here = await _finished(store, channel_id=1)
    solo_here = await _finished(store, channel_id=2, game_key="solo")
    mille_there = await _finished(store, channel_id=3, guild_id=8)
    without_ada = await _finished(store, channel_id=4)
    await store.record_result(_record(mille_here, 10.0), ["Ada", "Computer"])
    await store.record_result(_record(solo_here, 20.0), ["Ada", "Computer"])
    await store.record_result(_record(mille_there, 30.0), ["Ada", "Computer"])
    await store.record_result(_record(without_ada, 40.0, (55, 66)), ["Bo", "Cy"])

    async def ids(**filters: object) -> list[int]:
        return [r.record.game_id for r in await store.results(**filters)]  # type: ignore[arg-type]

    assert await ids(game_key="mille") == [mille_here.id, mille_there.id, without_ada.id]
    assert await ids(guild_id=8) == [mille_there.id]
    assert await ids(since=20.0) == [solo_here.id, mille_there.id, without_ada.id]
    assert await ids(user_id=ADA) == [mille_here.id, solo_here.id, mille_there.id]
    assert await ids(user_id=66) == [without_ada.id]
    assert await ids(game_key="mille", guild_id=7, since=5.0, user_id=ADA) == [mille_here.id]
    assert await ids(game_key="ttr") == []


def _count_parsed_results(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The game ids of the result rows the store parses from now on (a list that grows)."""
    import bot.store.sql
    from bot.store.rows import RowLike, stored_result

    parsed: list[int] = []

    def counted(row: RowLike) -> StoredResult:
        found = stored_result(row)
        parsed.append(found.record.game_id)
        return found

    monkeypatch.setattr(bot.store.sql, "stored_result", counted)
    return parsed


async def test_a_members_results_leave_the_others_rows_unread(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/history and /stats read a member's games: the query finds them through the index of
    who sat at each result (migration 0017), so of a big server's results only the member's
    rows are parsed: not every row of the server, nor one of an id holding their digits."""
    games = [await _finished(store, channel_id=c) for c in range(1, 9)]
    seats = [(ADA, None), (55, 66), (55, 66), (66, 77), (420, 66), (42, 66), (66, 77), (66, 77)]
    for at, (game, seated) in enumerate(zip(games, seats, strict=True)):
        await store.record_result(_record(game, float(at), seated), ["A", "B"])
    parsed = _count_parsed_results(monkeypatch)
    mine = [r.record.game_id for r in await store.results(guild_id=7, user_id=42)]
    assert mine == [games[5].id]
    # 420 holds 42's digits: its row, read and dropped by the seats' text before, is not read.
    assert parsed == [games[5].id]


async def test_newest_results_are_the_last_ones_oldest_first(store: Store) -> None:
    """``newest`` keeps the last results of the filtered list, still oldest first, and the
    order's tie on a finishing time goes by game id as for the whole list."""
    games = [await _finished(store, channel_id=c) for c in range(1, 7)]
    for game, at in zip(games, (10.0, 50.0, 20.0, 50.0, 30.0, 5.0), strict=True):
        await store.record_result(_record(game, at), ["Ada", "Computer"])
    whole = [r.record.game_id for r in await store.results(user_id=ADA)]
    assert [r.record.game_id for r in await store.results(user_id=ADA, newest=3)] == whole[-3:]
    assert [r.record.game_id for r in await store.results(newest=10)] == whole
    assert await store.results(newest=0) == []


async def test_newest_results_of_a_member_skip_ids_holding_their_digits(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The member filter also matches ids holding the member's digits; when those crowd the
    newest rows, the read goes further back until it has the member's own last games, and
    the older rows past them are never parsed."""
    games = [await _finished(store, channel_id=c) for c in range(1, 11)]
    # Oldest first: four of 42's games, then six of 420's (a false friend of 42).
    seats = [(42, 66)] * 4 + [(420, 66)] * 6
    for at, (game, seated) in enumerate(zip(games, seats, strict=True)):
        await store.record_result(_record(game, float(at), seated), ["A", "B"])
    parsed = _count_parsed_results(monkeypatch)
    mine = [r.record.game_id for r in await store.results(user_id=42, newest=2)]
    assert mine == [games[2].id, games[3].id]
    assert games[0].id not in parsed, "an older game than needed was read"


async def test_result_of_game_without_guild(store: Store) -> None:
    """A game outside any guild (guild_id None) records and reads back its result."""
    game = await _finished(store, channel_id=1, guild_id=None)
    await store.record_result(_record(game, 1.0), ["Ada", "Computer"])
    [stored] = await store.results()
    assert stored.record.guild_id is None
    assert await store.results(guild_id=7) == []


async def test_finished_without_result_lists_the_games_whose_result_is_missing(
    store: Store,
) -> None:
    """Finished games without a result row, in id order; not those with one, not active or
    aborted games, and not the console's games, which record none on purpose."""
    recorded = await _finished(store, channel_id=1)
    await store.record_result(_record(recorded, 1.0), ["Ada", "Computer"])
    missing_here = await _finished(store, channel_id=2)
    missing_in_a_dm = await _finished(store, channel_id=3, guild_id=None)
    await _finished(store, channel_id=CONSOLE_CHANNEL, guild_id=None)
    await new_game(store, channel_id=4)
    aborted = await new_game(store, channel_id=5)
    await store.end_game(game_id=aborted.id, expected_version=0, status="aborted", state=STATE)
    found = await store.finished_without_result()
    assert [g.id for g in found] == [missing_here.id, missing_in_a_dm.id]
    assert found[0] == missing_here


# -- turn timers ---------------------------------------------------------------------------------


async def test_set_timer_reads_back_without_a_version_bump(store: Store) -> None:
    """set_timer stores the reminder and the deadline; the version stays."""
    game = await new_game(store)
    await store.set_timer(game.id, remind_at=1060.5, deadline=1120.25)
    loaded = await store.get_game(game.id)
    assert loaded is not None
    assert (loaded.remind_at, loaded.turn_deadline, loaded.version) == (1060.5, 1120.25, 0)
    await store.set_timer(game.id, remind_at=None, deadline=None)
    cleared = await store.get_game(game.id)
    assert cleared is not None and (cleared.remind_at, cleared.turn_deadline) == (None, None)


async def test_set_timer_on_unknown_game(store: Store) -> None:
    """A timer for a game that does not exist is a StoreError."""
    with pytest.raises(StoreError, match="no game 404"):
        await store.set_timer(404, remind_at=1.0, deadline=2.0)


async def test_set_timer_at_a_version_the_game_has_left_changes_nothing(store: Store) -> None:
    """A timer worked out at version 0 is not stored once a move has taken the game on (the
    move set the timer of the position after it): set_timer says False and the game keeps its
    timer. At the game's own version it is stored, as without one."""
    game = await new_game(store)
    moved = await move(store, game, 1)
    await store.set_timer(game.id, remind_at=None, deadline=500.0)
    written = await store.set_timer(
        game.id, remind_at=None, deadline=900.0, expected_version=game.version
    )
    assert written is False
    kept = await store.get_game(game.id)
    assert kept is not None and kept.turn_deadline == 500.0
    assert await store.set_timer(
        game.id, remind_at=None, deadline=900.0, expected_version=moved.version
    )
    now = await store.get_game(game.id)
    assert now is not None and now.turn_deadline == 900.0
    with pytest.raises(StoreError, match="no game 404"):
        await store.set_timer(404, remind_at=1.0, deadline=2.0, expected_version=0)


async def test_timers_due_reminder_then_deadline(store: Store) -> None:
    """Nothing is due before the reminder; then a reminder; from the deadline on, an expiry."""
    game = await new_game(store)
    await store.set_timer(game.id, remind_at=100.0, deadline=200.0)
    assert await store.timers_due(99.9) == []
    [reminder] = await store.timers_due(100.0)
    assert (reminder.game.id, reminder.kind) == (game.id, "remind")
    assert reminder.game.remind_at == 100.0
    [expiry] = await store.timers_due(200.0)
    assert expiry == TimerDue(game=expiry.game, kind="expire")
    assert expiry.game.id == game.id


async def test_timers_due_deadline_without_reminder(store: Store) -> None:
    """A deadline alone (the reminder already taken) expires when it passes."""
    game = await new_game(store)
    await store.set_timer(game.id, remind_at=None, deadline=50.0)
    assert await store.timers_due(49.0) == []
    assert [d.kind for d in await store.timers_due(50.0)] == ["expire"]


async def test_timers_due_lists_only_active_games_in_id_order(store: Store) -> None:
    """Ended games and games without a timer are never due; due games come in id order."""
    games = [await new_game(store, channel_id=c) for c in range(1, 5)]
    for game in games[:3]:
        await store.set_timer(game.id, remind_at=5.0, deadline=10.0)
    ended = await store.end_game(
        game_id=games[0].id, expected_version=0, status="aborted", state={}
    )
    # end_game clears the timer; put one back to show status alone keeps it out.
    await store.set_timer(ended.id, remind_at=5.0, deadline=10.0)
    due = await store.timers_due(1000.0)
    assert [(d.game.id, d.kind) for d in due] == [
        (games[1].id, "expire"),
        (games[2].id, "expire"),
    ]


async def test_a_move_clears_the_timer(store: Store) -> None:
    """A stored move ends the timed turn: both times are cleared with it."""
    game = await new_game(store)
    await store.set_timer(game.id, remind_at=5.0, deadline=10.0)
    moved = await move(store, game, 1)
    assert (moved.remind_at, moved.turn_deadline) == (None, None)
    assert await store.get_game(game.id) == moved
    assert await store.timers_due(1000.0) == []


async def test_ending_a_game_clears_the_timer(store: Store) -> None:
    """end_game clears the timer: an ended game has no turn to time."""
    game = await new_game(store)
    await store.set_timer(game.id, remind_at=5.0, deadline=10.0)
    ended = await store.end_game(game_id=game.id, expected_version=0, status="finished", state={})
    assert (ended.remind_at, ended.turn_deadline) == (None, None)
    assert await store.get_game(game.id) == ended


async def test_timer_survives_restart(backend: Backend) -> None:
    """A timer set before the store closes is due in a new store on the same database."""
    before = backend.store()
    await before.open()
    try:
        game = await new_game(before)
        await before.set_timer(game.id, remind_at=10.0, deadline=20.0)
    finally:
        await before.close()
    after = backend.store()
    await after.open()
    try:
        assert [(d.game.id, d.kind) for d in await after.timers_due(25.0)] == [(game.id, "expire")]
    finally:
        await after.close()


# -- guild settings ------------------------------------------------------------------------------


async def test_guild_settings_default(store: Store) -> None:
    """A guild with nothing stored has no turn timer and would let the computer play."""
    assert await store.guild_settings(2**63 - 1) == GuildSettings(2**63 - 1)
    assert GuildSettings(1).turn_seconds is None and GuildSettings(1).on_timeout == "computer"


async def test_guild_settings_round_trip_and_replace(store: Store, backend: Backend) -> None:
    """set_guild_settings stores a guild's settings and replaces them on the next call."""
    await store.set_guild_settings(GuildSettings(5, turn_seconds=300, on_timeout="forfeit"))
    await store.set_guild_settings(GuildSettings(6, turn_seconds=60))
    assert await store.guild_settings(5) == GuildSettings(5, 300, "forfeit")
    await store.set_guild_settings(GuildSettings(5, turn_seconds=None))
    assert await store.guild_settings(5) == GuildSettings(5, None, "computer")
    assert await store.guild_settings(6) == GuildSettings(6, 60, "computer")
    assert await backend.raw("SELECT COUNT(*) FROM guild_settings") == [(2,)]


@pytest.mark.parametrize(
    ("seconds", "action"), [(0, "computer"), (-5, "computer"), (60, "nothing")]
)
def test_guild_settings_refuse_bad_values(seconds: int, action: str) -> None:
    """A turn of under a second, or an unknown timeout action, is a ValueError."""
    with pytest.raises(ValueError):
        GuildSettings(1, turn_seconds=seconds, on_timeout=action)  # type: ignore[arg-type]


# -- copying (junction migrate-db) ---------------------------------------------------------------


async def test_copy_keeps_results_settings_deals_and_timers(
    backend: Backend, tmp_path: Path
) -> None:
    """migrate-db copies results, guild settings, initial states and turn timers as they are."""
    async with SqliteStore(tmp_path / "source.db") as source:
        running = await new_game(source, channel_id=1)
        running = await move(source, running, 1)
        await source.set_timer(running.id, remind_at=15.5, deadline=30.5)
        done = await _finished(source, channel_id=2)
        record = ResultRecord(done.id, "mille", 7, 9.0, (1, 2), (0, 1), (10, 5), {"a": "b"}, True)
        await source.record_result(record, ["Ann", "Bob"])
        await source.set_guild_settings(GuildSettings(7, 120, "forfeit"))
        expected_results = await source.results()
        expected_running = await source.get_game(running.id)

        target = backend.store()
        await target.open()
        try:
            report = await copy_store(source, target)
            assert (report.games, report.results, report.guild_settings) == (2, 1, 1)
            assert await target.results() == expected_results
            assert await target.get_game(running.id) == expected_running
            assert await target.initial_state(running.id) == STATE
            assert await target.guild_settings(7) == GuildSettings(7, 120, "forfeit")
            assert [d.game.id for d in await target.timers_due(100.0)] == [running.id]
        finally:
            await target.close()


async def test_add_labels_merges_into_the_options_without_a_version_bump(store: Store) -> None:
    """Labels join a game's options (a label of the same name is replaced); the version and
    everything else stay; an unknown game is a StoreError."""
    game = await new_game(store)
    await store.add_labels(game.id, {"assisted": "hint"})
    await store.add_labels(game.id, {"assisted": "yes", "other": "x"})
    after = await store.get_game(game.id)
    assert after is not None
    assert after.options == {**game.options, "assisted": "yes", "other": "x"}
    assert (after.version, after.state, after.seats) == (game.version, game.state, game.seats)
    with pytest.raises(StoreError):
        await store.add_labels(game.id + 1000, {"assisted": "yes"})


async def test_many_games_are_parsed_off_the_event_loop(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading every game in play (/daily, /settings, /mygames) parses each state: 2 000 of them
    held the event loop 0.4 s, every other channel's move waiting. They are parsed in a thread."""
    import threading

    import bot.store.sql
    from bot.store.rows import RowLike, game_from_row

    await new_game(store, channel_id=1)
    await new_game(store, channel_id=2)
    threads: list[int] = []

    def parsed(row: RowLike) -> StoredGame:
        threads.append(threading.get_ident())
        return game_from_row(row)

    monkeypatch.setattr(bot.store.sql, "game_from_row", parsed)
    assert len(await store.active_games()) == 2
    assert len(threads) == 2
    assert threading.get_ident() not in threads
