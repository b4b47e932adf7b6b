"""Storage faults: a locked database, a full disk, a damaged row, an old schema, PostgreSQL
restarting mid-game. Each gets a clear private sentence, the other channels keep being served,
nothing is half-written (the database is byte-identical after a refused move, and every game is
the replay of its log), and the bot carries on by itself once the fault is gone."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.store.migrations import apply_migrations, load_migrations
from bot.store.sqlite import SqliteStore
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import replies
from tests.discord.backend import CATEGORY_ID, GAMES_CHANNEL_ID, GUILD_ID, text_channel_payload
from tests.discord.payloads import InteractionDriver
from tests.reliability.driving import Seating, apologised, seatings
from tests.reliability.history import History
from tests.reliability.test_fuzz import dump, is_sentence

LAYOUT = next(s for s in seatings(all_sizes=False) if len(s.members) == 1)


async def two_tables(driver: InteractionDriver) -> tuple[int, int]:
    """A game against the computer in #games and in a second channel."""
    other = driver.backend.ids.next()
    channel = text_channel_payload(other, GUILD_ID, "other", parent_id=CATEGORY_ID)
    driver.backend.world.channels.append(channel)
    driver.backend.extra_channels[other] = channel
    bot = running_bot(driver)
    for n, channel_id in enumerate((GAMES_CHANNEL_ID, other)):
        await bot.tables.start(
            channel_id=channel_id,
            guild_id=GUILD_ID,
            game_key=LAYOUT.key,
            seats=LAYOUT.seats(),
            seed=n,
        )
    return GAMES_CHANNEL_ID, other


OFFERED: dict[int, str] = {}


async def a_move(driver: InteractionDriver, channel_id: int) -> Any:
    """/move with the first value its autocomplete offers the member (while the database is
    away and nothing is offered, the value offered last)."""
    user = LAYOUT.members[0]
    offered = await driver.autocomplete("move", "action", "", user_id=user, channel_id=channel_id)
    if offered.choices:
        OFFERED[channel_id] = offered.choices[0]["value"]
    value = OFFERED[channel_id]
    return await driver.slash("move", {"action": value}, user_id=user, channel_id=channel_id)


def refused(result: Any, *words: str) -> str:
    """The private sentence a refused request got (it must mention every one of ``words``)."""
    said = [r.content for r in result.responses if r.content]
    assert said and result.ephemeral, said
    text = str(said[-1])
    assert is_sentence(text) and not apologised(text), text
    for word in words:
        assert word in text, text
    return text


def moved(result: Any) -> bool:
    return any(not r.ephemeral and r.files for r in result.responses)


async def consistent(driver: InteractionDriver, channel_id: int) -> None:
    tables = running_bot(driver).tables
    stored = await tables.store.active_game(channel_id)
    assert stored is not None
    history = History(tables.store, stored.id)
    states = await history.update()
    assert history.game is not None
    assert stored.version == len(states) - 1
    assert dict(stored.state) == history.game.to_dict(states[-1])


async def test_a_database_locked_beyond_the_busy_timeout(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Another process holds the write lock past the busy timeout: the move is refused in a
    sentence, nothing is written, and once the lock is gone both channels play on."""
    here, other = await two_tables(driver)
    store = running_bot(driver).store
    assert isinstance(store, SqliteStore)
    await store._connection().execute_fetchall("PRAGMA busy_timeout = 150")
    db = tmp_path / "bot.db"
    before = dump(db)
    locker = sqlite3.connect(db, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        result = await a_move(driver, here)
        refused(result, "busy")
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert dump(db) == before
    assert moved(await a_move(driver, other)) and moved(await a_move(driver, here))
    await consistent(driver, here)
    await consistent(driver, other)


async def test_a_full_disk(driver: InteractionDriver, tmp_path: Path) -> None:
    """The disk fills up (SQLite refuses to grow the file): a clear sentence, nothing half
    written; when there is room again the game goes on."""
    here, other = await two_tables(driver)
    store = running_bot(driver).store
    assert isinstance(store, SqliteStore)
    connection = store._connection()
    pages = next(iter(await connection.execute_fetchall("PRAGMA page_count")))[0]
    await connection.execute_fetchall(f"PRAGMA max_page_count = {pages}")
    db = tmp_path / "bot.db"
    before = dump(db)
    for _ in range(60):  # until a write needs a new page
        result = await a_move(driver, here)
        if not moved(result):
            refused(result, "storage is full")
            break
        before = dump(db)
    else:
        pytest.fail("the full disk never refused a move")
    assert dump(db) == before
    await connection.execute_fetchall("PRAGMA max_page_count = 1073741823")
    assert moved(await a_move(driver, here)) and moved(await a_move(driver, other))
    await consistent(driver, here)


@pytest.mark.parametrize("damage", ['{"schema_version": 1, "nonsense": true}', "{{{ not json"])
async def test_a_damaged_state_row(driver: InteractionDriver, tmp_path: Path, damage: str) -> None:
    """One game's stored state is damaged: that channel is told so in a sentence, the other
    channel plays on, and the timer sweep still serves the healthy game."""
    here, other = await two_tables(driver)
    tables = running_bot(driver).tables
    broken = await tables.store.active_game(here)
    healthy = await tables.store.active_game(other)
    assert broken is not None and healthy is not None
    with sqlite3.connect(tmp_path / "bot.db") as db:
        db.execute("UPDATE games SET state = ? WHERE id = ?", (damage, broken.id))
    result = await driver.slash("table", {}, user_id=LAYOUT.members[0], channel_id=here)
    refused(result)
    assert moved(await a_move(driver, other))
    await consistent(driver, other)
    # Both games are due at once: the damaged one must not stop the sweep for the other.
    from bot.timers import sweep

    past = time.time() - 10
    for game_id in (broken.id, healthy.id):
        await tables.store.set_timer(game_id, remind_at=past, deadline=None)
    events = await sweep(tables, time.time())
    assert [e.game.id for e in events] == [healthy.id]


@pytest.mark.parametrize(
    ("column", "damage"),
    [
        ("seats", "not json"),
        # Cut short, still naming the member (the stores find a member's games by the id).
        ("seats", f'[{{"seat":0,"name":"alice","user_id":{LAYOUT.members[0]}'),
        ("seats", '[{"seat": "first"}]'),  # not a seat
        ("seats", "[]"),  # no seat at a game dealt for some
        ("options", "{{"),
    ],
)
async def test_a_damaged_seats_or_options_row(
    driver: InteractionDriver, tmp_path: Path, column: str, damage: str
) -> None:
    """One game's seats or options are damaged: that channel is told so in a sentence and
    the game can be ended; the other channel plays on, and /mygames still answers. Before,
    damaged options made /mygames fail for every member of the server, damaged seats left a
    game no /abort could end, and seats of the wrong shape failed in "Something went wrong"."""
    here, other = await two_tables(driver)
    tables = running_bot(driver).tables
    broken = await tables.store.active_game(here)
    assert broken is not None
    member = LAYOUT.members[0]
    with sqlite3.connect(tmp_path / "bot.db") as db:
        db.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (damage, broken.id))
    refused(await driver.slash("table", {}, user_id=member, channel_id=here), "damaged")
    mine = await driver.slash("mygames", {}, user_id=member, channel_id=other)
    assert mine.ephemeral and "Your games here" in replies(mine), replies(mine)
    # Seats that still read keep the game the member's: /mygames lists it as a save that
    # cannot be read, and they end it as its player; seats that do not read seat nobody, and
    # a moderator ends it.
    readable_seats = column == "options"
    listed = f"<#{here}> against Computer 1: its save cannot be read: /abort it there"
    assert (listed in replies(mine)) == readable_seats, replies(mine)
    assert moved(await a_move(driver, other))
    await consistent(driver, other)
    ended = await driver.slash("abort", {}, user_id=member, channel_id=here)
    said = "Game aborted with no result" if readable_seats else "ended this game with no result"
    assert any(said in (r.content or "") for r in ended.responses), replies(ended)
    assert await tables.store.active_game(here) is None
    # The member's own commands that look for their games by their id: /replay (their last
    # game here aborted?) and a new /play (how many games are they in?).
    for name, options in (("replay", {}), ("play", {"game": LAYOUT.key})):
        said = replies(await driver.slash(name, options, user_id=member, channel_id=here))
        assert "could not be read" not in said, (name, said)
    with sqlite3.connect(tmp_path / "bot.db") as db:
        kept = db.execute(f"SELECT {column} FROM games WHERE id = ?", (broken.id,)).fetchone()
    assert kept == (damage,)  # ending it wrote nothing over the damaged text


async def test_a_database_written_by_an_older_schema(tmp_path: Path) -> None:
    """A database at the first schema with a game in it: the bot upgrades it on start and the
    game is served (and one from a newer program is refused with a clear message)."""
    from bot.client import JunctionBot
    from tests.cogs.conftest import bot_settings

    path = tmp_path / "bot.db"
    first = load_migrations("sqlite")[:1]
    async with aiosqlite.connect(path, isolation_level=None) as db:
        await apply_migrations(db, first)
        columns = [row[1] for row in await db.execute_fetchall("PRAGMA table_info(games)")]
    game = LAYOUT.bundle.game
    state = game.to_dict(game.new_game([s.name for s in LAYOUT.seats()], 5))
    row: dict[str, Any] = {
        "channel_id": GAMES_CHANNEL_ID,
        "guild_id": GUILD_ID,
        "game_key": LAYOUT.key,
        "seats": json.dumps([vars(s) for s in LAYOUT.seats()]),
        "options": json.dumps(game.resolve_options(None)),
        "state": json.dumps(state),
        "version": 0,
        "status": "active",
        "created_at": time.time(),
        "updated_at": time.time(),
    }
    row = {k: v for k, v in row.items() if k in columns}
    with sqlite3.connect(path) as db:
        db.execute(
            f"INSERT INTO games ({', '.join(row)}) VALUES ({', '.join('?' for _ in row)})",
            list(row.values()),
        )
    bot = JunctionBot(bot_settings(tmp_path))
    async with InteractionDriver(bot, run_setup_hook=True, timeout=60.0) as driver:
        table = await driver.slash("table", {}, user_id=LAYOUT.members[0])
        assert moved(table)
        assert moved(await a_move(driver, GAMES_CHANNEL_ID))
    await bot.close()
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO schema_version VALUES (999, 'from_the_future', 0)")
    newer = SqliteStore(path)
    with pytest.raises(Exception, match="upgrade the program"):
        await newer.open()


def test_layout_is_generic() -> None:
    """The fault tests use the first registered game a member plays alone or with computers."""
    assert isinstance(LAYOUT, Seating) and len(LAYOUT.members) == 1


@pytest.fixture
def own_postgres() -> Any:
    from tests.reliability.pgserver import OwnPostgres, server_bin

    if server_bin() is None:
        pytest.skip("no PostgreSQL server installed (CI installs one)")
    server = OwnPostgres()
    server.start()
    yield server
    server.remove()


async def test_postgresql_restarts_mid_game(own_postgres: Any, tmp_path: Path) -> None:
    """The PostgreSQL server restarts between two moves, then goes down for a while: requests
    meanwhile get a clear sentence, nothing is half-written, and the bot reconnects by itself
    (no restart of the bot) once the server is back."""
    from dataclasses import replace

    from bot.client import JunctionBot
    from tests.cogs.conftest import bot_settings

    settings = replace(bot_settings(tmp_path), db_url=own_postgres.url)
    bot = JunctionBot(settings)
    async with InteractionDriver(bot, run_setup_hook=True, timeout=60.0) as driver:
        here, other = await two_tables(driver)
        assert moved(await a_move(driver, here))
        await asyncio.to_thread(own_postgres.restart)
        answers = [await a_move(driver, here) for _ in range(3)]
        assert moved(answers[-1]), "the bot reconnected by itself"
        for answer in answers:
            if not moved(answer):
                refused(answer, "connection")
        user = LAYOUT.members[0]
        offered = await driver.autocomplete("move", "action", "", user_id=user, channel_id=other)
        OFFERED[other] = offered.choices[0]["value"]
        await asyncio.to_thread(own_postgres.stop)
        refused(await a_move(driver, other), "connection")
        await asyncio.to_thread(own_postgres.start)
        for _ in range(3):
            if moved(await a_move(driver, other)):
                break
        else:
            pytest.fail("the bot did not get back to the database")
        assert moved(await a_move(driver, here))
        await consistent(driver, here)
        await consistent(driver, other)
    await bot.close()
