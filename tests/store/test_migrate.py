"""``junction migrate-db``: every game and move copied with ids, versions, statuses and ids kept.

The source is always a SQLite file (the usual trip); the target runs on each backend, so
SQLite → SQLite always runs and SQLite → PostgreSQL runs whenever a server is available.
"""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.store import migrate
from bot.store.base import (
    DailyClaim,
    DuplicateInteraction,
    Shards,
    Store,
    StoredGame,
    StoreError,
)
from bot.store.migrate import TargetNotEmpty, copy_store, migrate_db
from bot.store.sqlite import SqliteStore
from tests.store.helpers import Backend, lobby_record, move, new_game
from tests.test_cli_hostile import as_nobody, skip_unless_nobody_can_run

T0 = 1_700_000_000.0
HOUR = 3600.0


async def _fill(store: Store) -> list[StoredGame]:
    """Games in every state: active with moves, finished, aborted, with and without ids."""
    games: list[StoredGame] = []
    for channel in range(1, 6):
        game = await new_game(store, channel_id=channel)
        for n in range(1, channel + 1):
            game = await move(
                store, game, n, interaction_id=None if n % 3 == 0 else f"c{channel}-{n}"
            )
        games.append(game)
    games[1] = await store.end_game(
        game_id=games[1].id, expected_version=games[1].version, status="finished", state={"w": 0}
    )
    games[3] = await store.end_game(
        game_id=games[3].id, expected_version=games[3].version, status="aborted", state={}
    )
    await store.set_message(games[4].id, 123456789012345678, games[4].version)
    games[4] = await _get(store, games[4].id)
    # A later game in a finished game's channel, so ids are not just 1..n in channel order.
    games.append(await new_game(store, channel_id=2))
    return games


async def _target_with_a_game(backend: Backend) -> StoredGame:
    """A game of the target's own (channel 500), which a copy must not take unasked."""
    target = backend.store()
    await target.open()
    try:
        return await new_game(target, channel_id=500)
    finally:
        await target.close()


async def _target_still_holds(backend: Backend, own: StoredGame) -> None:
    """The target's own game (``_target_with_a_game``) is there as it was: a refused copy
    wrote nothing over it."""
    target = backend.store()
    await target.open()
    try:
        assert await target.get_game(own.id) == own
    finally:
        await target.close()


async def _get(store: Store, game_id: int) -> StoredGame:
    game = await store.get_game(game_id)
    assert game is not None
    return game


@pytest.fixture
async def source(tmp_path: Path) -> tuple[str, list[StoredGame]]:
    """A SQLite file with a handful of games, and those games as stored."""
    path = tmp_path / "source.db"
    async with SqliteStore(path) as store:
        games = await _fill(store)
    return f"sqlite:///{path}", games


async def test_copy_keeps_everything(
    source: tuple[str, list[StoredGame]], backend: Backend
) -> None:
    """Ids, versions, statuses, snapshots, message ids and move logs arrive unchanged."""
    url, games = source
    report = await migrate_db(url, backend.url)
    async with SqliteStore(url.removeprefix("sqlite:///")) as before:
        logs = {g.id: await before.moves(g.id) for g in games}
    assert (report.games, report.moves) == (len(games), sum(len(m) for m in logs.values()))
    copied = backend.store()
    await copied.open()
    try:
        for game in games:
            assert await copied.get_game(game.id) == game
            assert await copied.moves(game.id) == logs[game.id]
        assert [g.id for g in await copied.active_games()] == [
            g.id for g in games if g.status == "active"
        ]
        # The copy is live: moves continue at the next version, repeats are still caught, and a
        # new game gets an id after the copied ones (PostgreSQL's identity was moved along).
        first = games[0]
        await move(copied, first, 2, interaction_id="after-copy")
        with pytest.raises(DuplicateInteraction):
            await move(copied, await _get(copied, first.id), 3, interaction_id="c1-1")
        fresh = await new_game(copied, channel_id=99)
        assert fresh.id > max(g.id for g in games)
    finally:
        await copied.close()


async def test_the_daily_deal_travels(tmp_path: Path, backend: Backend) -> None:
    """The daily deal's secret and who was dealt it are copied, replacing the target's: today's
    deal stays the same deal, and nobody is dealt it twice."""
    path = tmp_path / "daily.db"
    async with SqliteStore(path) as store:
        await new_game(store, daily=DailyClaim(7, "solo", "2026-11-26", 5))
        secret = await store.secret("daily-deal", lambda: "source-secret")
    target = backend.store()
    await target.open()
    try:
        await target.secret("daily-deal", lambda: "target-secret")
    finally:
        await target.close()
    await migrate_db(f"sqlite:///{path}", backend.url)
    copied = backend.store()
    await copied.open()
    try:
        assert await copied.secret("daily-deal", lambda: "new") == secret == "source-secret"
        assert await copied.daily_claimed(DailyClaim(7, "solo", "2026-11-26", 5))
        assert not await copied.daily_claimed(DailyClaim(7, "solo", "2026-11-26", 6))
    finally:
        await copied.close()


async def test_the_last_timer_sweep_travels(tmp_path: Path, backend: Backend) -> None:
    """The bot is stopped 10 s into a one-minute turn and its database copied; the first start
    on the copy, an hour later, gives the turn the hour back, as it would have on the source."""
    path = tmp_path / "timers.db"
    async with SqliteStore(path, clock=lambda: T0) as store:
        game = await new_game(store)
        await store.set_timer(game.id, remind_at=None, deadline=T0 + 60)
        await store.heartbeat(Shards(1, (0,)), T0 + 10)
    await migrate_db(f"sqlite:///{path}", backend.url)
    copied = backend.store()
    await copied.open()
    try:
        await copied.resume_timers(Shards(1, (0,)), T0 + 10 + HOUR, started=T0 + HOUR)
        assert (await _get(copied, game.id)).turn_deadline == T0 + 60 + HOUR
    finally:
        await copied.close()


async def test_non_empty_target_is_refused(
    source: tuple[str, list[StoredGame]], backend: Backend
) -> None:
    """A target with games is left alone unless --force, which replaces its games."""
    url, games = source
    own = await _target_with_a_game(backend)
    with pytest.raises(TargetNotEmpty, match="--force"):
        await migrate_db(url, backend.url)
    await _target_still_holds(backend, own)

    report = await migrate_db(url, backend.url, force=True)
    assert report.games == len(games)
    target = backend.store()
    await target.open()
    try:
        assert await target.active_game(500) is None
        assert await target.get_game(games[-1].id) == games[-1]
    finally:
        await target.close()


async def test_copy_back_and_forth(
    source: tuple[str, list[StoredGame]], backend: Backend, tmp_path: Path
) -> None:
    """Copying into the backend and back out to a new SQLite file gives the same games."""
    url, games = source
    await migrate_db(url, backend.url)
    back = tmp_path / "back.db"
    await migrate_db(backend.url, f"sqlite:///{back}")
    async with SqliteStore(back) as store:
        assert [await store.get_game(g.id) for g in games] == games


async def test_same_database_is_refused(tmp_path: Path) -> None:
    """Copying a file onto itself is refused before anything is opened."""
    path = tmp_path / "same.db"
    with pytest.raises(ValueError, match="same database"):
        await migrate_db(f"sqlite:///{path}", str(path))


async def test_empty_source_copies_nothing(tmp_path: Path) -> None:
    """An empty source gives an empty (but migrated) target."""
    a, b = SqliteStore(tmp_path / "a.db"), SqliteStore(tmp_path / "b.db")
    async with a, b:
        report = await copy_store(a, b)
        assert (report.games, report.moves) == (0, 0)
        assert await b.active_games() == []


def test_cli(
    source: tuple[str, list[StoredGame]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`junction migrate-db FROM TO` prints what it copied; a second run needs --force."""
    url, games = source
    target = f"sqlite:///{tmp_path / 'cli.db'}"
    assert main(["migrate-db", url, target]) == 0
    assert f"copied {len(games)} games" in capsys.readouterr().out
    # Refused like the other commands' bad input: "junction migrate-db: …", exit status 2.
    assert main(["migrate-db", url, target]) == 2
    said = capsys.readouterr().err
    assert said.startswith("junction migrate-db: the target already holds ") and "--force" in said
    assert main(["migrate-db", url, target, "--force"]) == 0


def test_cli_counts_one_of_each_in_the_singular(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One game with one move is 'copied 1 game and 1 move', and the refusal of a second copy
    says 'already holds 1 game, 1 move…'. Found by a review of the README against the
    commands: they said '1 games and 1 moves'."""

    async def one_game(path: Path) -> None:
        async with SqliteStore(path) as store:
            await move(store, await new_game(store), 1)

    asyncio.run(one_game(tmp_path / "one.db"))
    url, target = f"sqlite:///{tmp_path / 'one.db'}", f"sqlite:///{tmp_path / 'copy.db'}"
    assert main(["migrate-db", url, target]) == 0
    said = capsys.readouterr().out
    assert said.startswith("copied 1 game and 1 move (0 results, 0 guild settings) from "), said
    assert main(["migrate-db", url, target]) == 2
    said = capsys.readouterr().err
    assert "already holds 1 game, 1 move, 0 results and 0 guild settings;" in said, said


def test_cli_tells_a_failed_copy_from_bad_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A copy that went wrong (counts that differ; the target rolled back) is not the operator's
    input to fix: exit status 1, still named "junction migrate-db:" like every refusal."""

    async def failing(source_url: str, target_url: str, *, force: bool = False) -> None:
        raise StoreError("copied 1 game but the source has 2 games; nothing was written")

    monkeypatch.setattr(migrate, "migrate_db", failing)
    assert main(["migrate-db", "sqlite:///a.db", "sqlite:///b.db"]) == 1
    said = capsys.readouterr().err
    assert said == (
        "junction migrate-db: copied 1 game but the source has 2 games; nothing was written\n"
    )


async def test_new_lobbies_on_the_target_are_numbered_past_the_sources(
    tmp_path: Path, backend: Backend
) -> None:
    """Lobbies are not copied, but a button on an old message carries its lobby's id: the
    target's first new lobby takes an id above every one the source handed out (on PostgreSQL
    the ids restarted at 1, and the first new invitation answered lobby 1's old buttons)."""
    path = tmp_path / "lobbies.db"
    async with SqliteStore(path) as store:
        ids = [(await store.create_lobby(lobby_record(channel_id=c))).id for c in (1, 2, 3)]
    await migrate_db(f"sqlite:///{path}", backend.url)
    copied = backend.store()
    await copied.open()
    try:
        assert (await copied.create_lobby(lobby_record())).id > max(ids)
    finally:
        await copied.close()


async def test_the_newest_lobby_arrives_closed(tmp_path: Path, backend: Backend) -> None:
    """The one lobby copied (what keeps the ids) answers its own buttons as expired, as every
    other open invitation not copied is ended."""
    path = tmp_path / "lobbies.db"
    async with SqliteStore(path) as store:
        await store.create_lobby(lobby_record(channel_id=1))
        newest = await store.create_lobby(lobby_record(channel_id=2))
    await migrate_db(f"sqlite:///{path}", backend.url)
    copied = backend.store()
    await copied.open()
    try:
        assert await copied.get_lobby(newest.id - 1) is None
        kept = await copied.get_lobby(newest.id)
        assert kept is not None
        assert (kept.status, kept.version, kept.channel_id) == ("expired", newest.version + 1, 2)
    finally:
        await copied.close()


async def test_lobby_ids_a_postgresql_source_handed_out_above_its_rows_stay_used(
    pg_server: str, pg_url: str
) -> None:
    """A PostgreSQL source whose newest lobby row was deleted still numbered it: a PostgreSQL
    target goes past the source's sequence, not only its rows."""
    import uuid

    import asyncpg

    from tests.store.conftest import with_database

    source = Backend("postgresql", pg_url)
    store = source.store()
    await store.open()
    try:
        ids = [(await store.create_lobby(lobby_record(channel_id=c))).id for c in (1, 2, 3)]
    finally:
        await store.close()
    await source.raw(f"DELETE FROM lobbies WHERE id = {max(ids)}")
    name = f"junction_test_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(pg_server)
    await admin.execute(f'CREATE DATABASE "{name}"')
    await admin.close()
    target = Backend("postgresql", with_database(pg_server, name))
    try:
        await migrate_db(pg_url, target.url)
        copied = target.store()
        await copied.open()
        try:
            assert (await copied.create_lobby(lobby_record())).id > max(ids)
        finally:
            await copied.close()
    finally:
        admin = await asyncpg.connect(pg_server)
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def _one_game(path: Path) -> None:
    """A SQLite database at ``path`` holding one game of one move."""
    async with SqliteStore(path) as store:
        await move(store, await new_game(store), 1)


def _read_only_source(tmp_path: Path) -> Path:
    """A SQLite database of one game and one move in a folder of its own, made read-only."""
    folder = tmp_path / "backup"
    folder.mkdir()
    asyncio.run(_one_game(folder / "j.db"))
    (folder / "j.db").chmod(0o444)
    folder.chmod(0o555)
    return folder / "j.db"


def test_a_read_only_source_is_copied_from_and_left_as_it_was() -> None:
    """``junction migrate-db`` run by an account that may read the source but not write it (a
    backup kept read-only, a read-only mount) copies it, and the source folder is left as it
    was. Before the fix the copy was refused: "cannot open the database …: attempt to write a
    readonly database", as opening a store writes to it. Run as another account than root,
    which may write anything."""
    skip_unless_nobody_can_run()
    with tempfile.TemporaryDirectory() as place:  # pytest's own folder is root's alone
        folder = Path(place)
        folder.chmod(0o777)
        source = _read_only_source(folder)
        before = source.read_bytes()
        target = folder / "copy.db"
        done = as_nobody("migrate-db", f"sqlite:///{source}", f"sqlite:///{target}")
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("copied 1 game and 1 move "), done.stdout
        assert source.read_bytes() == before
        assert [p.name for p in source.parent.iterdir()] == ["j.db"]


def test_a_source_that_may_not_be_written_keeps_no_trace_of_the_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Where the source may not be written, nothing beside it changes: no -wal or -shm file is
    made there, and its bytes stay (root may write anything, so here the account is told it
    may not)."""
    source = _read_only_source(tmp_path)
    before = source.read_bytes()
    monkeypatch.setattr(migrate, "_writable", lambda path: False)
    target = f"sqlite:///{tmp_path / 'copy.db'}"
    assert main(["migrate-db", f"sqlite:///{source}", target]) == 0
    assert capsys.readouterr().out.startswith("copied 1 game and 1 move ")
    assert source.read_bytes() == before
    assert [p.name for p in source.parent.iterdir()] == ["j.db"]


@pytest.mark.parametrize("role", ["source", "target"])
def test_a_database_in_memory_is_refused_as_either_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], role: str
) -> None:
    """``sqlite://:memory:`` as the source or the target is refused in a sentence: it is empty
    when opened and gone when the command ends. Before the fix the command reported a copy
    done: "copied 0 games" from it, or every game "copied" into nowhere."""
    asyncio.run(_one_game(tmp_path / "one.db"))
    file = f"sqlite:///{tmp_path / 'one.db'}"
    ends = [file, "sqlite://:memory:"] if role == "target" else ["sqlite://:memory:", file]
    assert main(["migrate-db", *ends]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(
        f"junction migrate-db: the {role} sqlite://:memory: is a database in memory"
    ), captured.err
    assert captured.out == ""


async def test_force_never_numbers_new_games_back_on_postgresql(
    source: tuple[str, list[StoredGame]], pg_url: str
) -> None:
    """A PostgreSQL target that held more games than the source, replaced with --force: its
    new games are numbered past the ones it held (their messages' buttons carry their ids),
    not from the source's highest on."""
    url, games = source
    target = Backend("postgresql", pg_url).store()
    await target.open()
    try:
        held = [await new_game(target, channel_id=500 + n) for n in range(len(games) + 3)]
    finally:
        await target.close()
    await migrate_db(url, pg_url, force=True)
    copied = Backend("postgresql", pg_url).store()
    await copied.open()
    try:
        assert (await new_game(copied, channel_id=99)).id > max(g.id for g in held)
    finally:
        await copied.close()


def test_a_read_only_source_that_cannot_be_opened_is_named_as_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A read-only source that is another program's database is refused naming the source as
    given, not the temporary copy it is read through (``/tmp/junction-migrate-…/source.db``,
    a file the operator never named, gone when the command ends)."""
    source = tmp_path / "theirs.db"
    with sqlite3.connect(source) as conn:
        conn.execute("CREATE TABLE notes (body TEXT)")
    conn.close()
    monkeypatch.setattr(migrate, "_writable", lambda path: False)
    url = f"sqlite:///{source}"
    assert main(["migrate-db", url, f"sqlite:///{tmp_path / 'copy.db'}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"junction migrate-db: cannot open the database {url}: "), err
    assert "another program's database" in err and "junction-migrate-" not in err, err


async def test_force_never_numbers_new_games_back_on_sqlite(
    source: tuple[str, list[StoredGame]], tmp_path: Path
) -> None:
    """A SQLite target that held more games than the source, replaced with --force: its new
    games are numbered past the ones it held (their messages' buttons carry their ids), as a
    PostgreSQL target's are. Before the fix SQLite numbered them one above the source's highest
    game, handing out again ids the target's old buttons name."""
    url, games = source
    path = tmp_path / "target.db"
    async with SqliteStore(path) as target:
        held = [await new_game(target, channel_id=500 + n) for n in range(len(games) + 3)]
    await migrate_db(url, f"sqlite:///{path}", force=True)
    async with SqliteStore(path) as copied:
        assert (await new_game(copied, channel_id=99)).id > max(g.id for g in held)
        # And the floor travels on: a copy of the copy numbers past them too.
        again = tmp_path / "again.db"
        await migrate_db(f"sqlite:///{path}", f"sqlite:///{again}")
    async with SqliteStore(again) as copied_again:
        assert (await new_game(copied_again, channel_id=98)).id > max(g.id for g in held) + 1


async def test_a_sqlite_target_numbers_past_a_postgresql_sources_deleted_lobbies_and_games(
    pg_url: str, tmp_path: Path
) -> None:
    """A PostgreSQL source whose newest lobby was deleted (and whose game sequence ran past its
    rows) still handed out those ids: a SQLite target goes past the source's sequences, not
    only its rows. Before the fix the SQLite target numbered its next lobby one above the
    source's newest row, the deleted lobby's id, which an old message's buttons name."""
    source = Backend("postgresql", pg_url)
    store = source.store()
    await store.open()
    try:
        ids = [(await store.create_lobby(lobby_record(channel_id=c))).id for c in (1, 2, 3)]
        game = await new_game(store, channel_id=7)
    finally:
        await store.close()
    await source.raw(f"DELETE FROM lobbies WHERE id = {max(ids)}")
    await source.raw("SELECT setval(pg_get_serial_sequence('games', 'id'), 40)")
    path = tmp_path / "copy.db"
    await migrate_db(pg_url, f"sqlite:///{path}")
    async with SqliteStore(path) as copied:
        assert (await copied.create_lobby(lobby_record())).id > max(ids)
        assert (await new_game(copied, channel_id=8)).id > max(40, game.id)


@pytest.mark.parametrize(
    ("damage", "named"),
    [
        ("UPDATE moves SET seat = 'x' WHERE game_id = 3 AND seq = 2", "move 2 of game 3"),
        ("UPDATE games SET created_at = 'x' WHERE id = 2", "game 2"),
        ("INSERT INTO guild_settings (guild_id, turn_seconds) VALUES (7, 'x')", "settings row"),
    ],
)
async def test_a_damaged_source_row_is_named_and_nothing_written(
    source: tuple[str, list[StoredGame]],
    backend: Backend,
    capsys: pytest.CaptureFixture[str],
    damage: str,
    named: str,
) -> None:
    """A SQLite source holds text in a number's column (SQLite keeps any text in any column):
    a move's seat, a game's start, a server's turn time. Found by a review of the operator
    commands against damaged rows: `junction migrate-db` said only "invalid literal for int()
    with base 10: 'x'", naming no row. It now names the row, and the target (replaced with
    --force) keeps what it held."""
    url, _ = source
    with closing(sqlite3.connect(url.removeprefix("sqlite:///"))) as conn:
        conn.execute(damage)
        conn.commit()
    own = await _target_with_a_game(backend)
    assert await asyncio.to_thread(main, ["migrate-db", url, backend.url, "--force"]) == 2
    said = capsys.readouterr().err
    assert said.startswith(f"junction migrate-db: the source's {named}"), said
    assert said.endswith(
        " is damaged (invalid literal for int() with base 10: 'x'); mend or delete it there"
        " and copy again; nothing was written\n"
    ) or said.endswith(
        " is damaged (could not convert string to float: 'x'); mend or delete it there and"
        " copy again; nothing was written\n"
    ), said
    await _target_still_holds(backend, own)
